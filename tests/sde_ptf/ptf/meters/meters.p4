/* meters: a policer as a TNA user writes it. `policer` forwards by destination MAC and
 * marks each frame with its entry's DirectMeter (PACKETS); a Meter (BYTES) indexed by
 * the low byte of the source MAC marks it again. Both colours (MeterColor_t: GREEN 0,
 * YELLOW 1, RED 3) are written into the ether_type (direct << 8 | indexed) so that a
 * PTF test sees them on the wire. Run by tests/sde_ptf (PTF, the SDE's BfRuntimeTest)
 * on the softswitch, compiled by bf-p4c. */
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
    DirectMeter(MeterType_t.PACKETS) per_flow;
    Meter<bit<8>>(256, MeterType_t.BYTES) per_source;
    bit<8> direct_color = 0;

    action forward(PortId_t port) {
        ig_tm_md.ucast_egress_port = port;
        direct_color = per_flow.execute();
    }
    action drop() {
        ig_dprsr_md.drop_ctl = 1;
    }
    table policer {
        key = { hdr.ethernet.dst_addr : exact; }
        actions = { forward; @defaultonly drop; }
        default_action = drop();
        meters = per_flow;
        size = 1024;
    }
    apply {
        policer.apply();
        bit<8> indexed_color = per_source.execute(hdr.ethernet.src_addr[7:0]);
        hdr.ethernet.ether_type = direct_color ++ indexed_color;
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
