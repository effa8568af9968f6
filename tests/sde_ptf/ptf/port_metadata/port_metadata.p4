/* port_metadata: per-port configuration in the ingress parser, as a TNA user writes it.
 * The control plane writes each ingress port's 64 bits of port metadata (BfRt's
 * $PORT_METADATA table of the ingress parser); the parser unpacks them with
 * port_metadata_unpack, and ingress sends the frame to the port they name, stamped with
 * their tag in the ether_type. A port without an entry has zeros: its frames are
 * dropped. Run by tests/sde_ptf (PTF, the SDE's BfRuntimeTest) on the softswitch,
 * compiled by bf-p4c. */
#include <core.p4>
#include <tna.p4>

header ethernet_h {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

struct headers_t { ethernet_h ethernet; }

struct port_config_t {
    bit<16> tag;
    bit<8> out_port;
    bit<40> reserved;
}

struct metadata_t {
    port_config_t port_config;
}

parser SwitchIngressParser(packet_in pkt, out headers_t hdr, out metadata_t md,
                           out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        pkt.extract(ig_intr_md);
        md.port_config = port_metadata_unpack<port_config_t>(pkt);
        transition parse_ethernet;
    }
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition accept;
    }
}

control SwitchIngress(inout headers_t hdr, inout metadata_t md,
                      in ingress_intrinsic_metadata_t ig_intr_md,
                      in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                      inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                      inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    apply {
        if (md.port_config.out_port == 0) {
            ig_dprsr_md.drop_ctl = 1;
        } else {
            ig_tm_md.ucast_egress_port = (PortId_t)md.port_config.out_port;
            hdr.ethernet.ether_type = md.port_config.tag;
        }
    }
}

control SwitchIngressDeparser(packet_out pkt, inout headers_t hdr, in metadata_t md,
                              in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply { pkt.emit(hdr); }
}

parser SwitchEgressParser(packet_in pkt, out headers_t hdr, out metadata_t md,
                          out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        pkt.extract(eg_intr_md);
        transition accept;
    }
}

control SwitchEgress(inout headers_t hdr, inout metadata_t md,
                     in egress_intrinsic_metadata_t eg_intr_md,
                     in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
                     inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
                     inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    apply { }
}

control SwitchEgressDeparser(packet_out pkt, inout headers_t hdr, in metadata_t md,
                             in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply { }
}

Pipeline(SwitchIngressParser(), SwitchIngress(), SwitchIngressDeparser(),
         SwitchEgressParser(), SwitchEgress(), SwitchEgressDeparser()) pipe;

Switch(pipe) main;
