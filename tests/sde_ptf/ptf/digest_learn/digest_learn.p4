/* digest_learn: MAC learning as a TNA user writes it. A frame whose source MAC is not
 * in `smac` asks the ingress deparser for a digest of (source MAC, ingress port); the
 * control plane learns it from BfRuntime's learn stream and adds the entry. Frames are
 * forwarded by `dmac`. Run by tests/sde_ptf (PTF, the SDE's BfRuntimeTest) on the
 * softswitch, compiled by bf-p4c. */
#include <core.p4>
#include <tna.p4>

header ethernet_h {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

struct headers_t { ethernet_h ethernet; }

struct learn_digest_t {
    bit<48> src_addr;
    PortId_t ingress_port;
}

struct metadata_t {
    PortId_t ingress_port;
}

parser SwitchIngressParser(packet_in pkt, out headers_t hdr, out metadata_t md,
                           out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        pkt.extract(ig_intr_md);
        pkt.advance(PORT_METADATA_SIZE);
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
    action known() { }
    action learn() {
        ig_dprsr_md.digest_type = 1;
        md.ingress_port = ig_intr_md.ingress_port;
    }
    table smac {
        key = { hdr.ethernet.src_addr : exact; }
        actions = { known; learn; }
        default_action = learn();
        size = 1024;
    }
    action hit(PortId_t port) {
        ig_tm_md.ucast_egress_port = port;
    }
    action miss() {
        ig_dprsr_md.drop_ctl = 1;
    }
    table dmac {
        key = { hdr.ethernet.dst_addr : exact; }
        actions = { hit; miss; }
        default_action = miss();
        size = 1024;
    }
    apply {
        smac.apply();
        dmac.apply();
    }
}

control SwitchIngressDeparser(packet_out pkt, inout headers_t hdr, in metadata_t md,
                              in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    Digest<learn_digest_t>() learn_digest;
    apply {
        if (ig_dprsr_md.digest_type == 1) {
            learn_digest.pack({hdr.ethernet.src_addr, md.ingress_port});
        }
        pkt.emit(hdr);
    }
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
