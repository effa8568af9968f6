/* action_selector_deprecated: action_selector.p4 with the ActionSelector form deprecated in
 * TNA, ActionSelector(size, hash, mode): bf-p4c makes the profile (named as the selector)
 * and the selector <name>_sel itself. Its bfrt.json is a golden of tests/softswitch. */
#include <core.p4>
#include <tna.p4>

header ethernet_h {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

struct headers_t { ethernet_h ethernet; }
struct metadata_t { }

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
    ActionProfile(256) vlan_profile;

    Hash<bit<16>>(HashAlgorithm_t.CRC16) flow_hash;
    ActionSelector(1024, flow_hash, SelectorMode_t.FAIR) port_selector;

    action set_type(bit<16> ether_type) {
        hdr.ethernet.ether_type = ether_type;
    }
    action set_port(PortId_t port) {
        ig_tm_md.ucast_egress_port = port;
    }
    action drop() {
        ig_dprsr_md.drop_ctl = 1;
    }
    table retag {
        key = { hdr.ethernet.dst_addr : exact; }
        actions = { set_type; NoAction; }
        size = 256;
        implementation = vlan_profile;
    }
    table forward {
        key = {
            hdr.ethernet.dst_addr : exact;
            hdr.ethernet.src_addr : selector;
            hdr.ethernet.ether_type : selector;
        }
        actions = { set_port; drop; }
        default_action = drop();
        size = 512;
        implementation = port_selector;
    }
    apply {
        forward.apply();
        retag.apply();
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
