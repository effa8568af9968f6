/* Counters and a direct counter, for the bfrt.json comparison with bf-p4c. */
#include "../../p4sim/programs/common.p4"
struct headers_t { ethernet_h ethernet; }
struct meta_t { bit<8> unused; }
parser IgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out ingress_intrinsic_metadata_t ig_intr_md) {
    state start { TNA_INGRESS_PROLOGUE(pkt, ig_intr_md); transition parse_ethernet; }
    state parse_ethernet { pkt.extract(hdr.ethernet); transition accept; }
}
control Ingress(inout headers_t hdr, inout meta_t md,
                in ingress_intrinsic_metadata_t ig_intr_md,
                in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    Counter<bit<32>, bit<9>>(512, CounterType_t.PACKETS_AND_BYTES) port_pkts;
    Counter<bit<32>, bit<9>>(512, CounterType_t.PACKETS) port_only;
    DirectCounter<bit<32>>(CounterType_t.PACKETS_AND_BYTES) fwd_cnt;
    action set_port(PortId_t port) { ig_tm_md.ucast_egress_port = port; fwd_cnt.count(); }
    action drop() { ig_dprsr_md.drop_ctl = 1; fwd_cnt.count(); }
    table forward {
        key = { hdr.ethernet.dst_addr : exact @name("dmac"); hdr.ethernet.ether_type : ternary; }
        actions = { set_port; drop; }
        const default_action = drop();
        counters = fwd_cnt;
        size = 64;
    }
    apply {
        port_pkts.count(ig_intr_md.ingress_port);
        port_only.count(ig_intr_md.ingress_port);
        forward.apply();
    }
}
control IgDeparser(packet_out pkt, inout headers_t hdr, in meta_t md,
                   in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply { pkt.emit(hdr); }
}
EMPTY_EGRESS(headers_t, meta_t)
Pipeline(IgParser(), Ingress(), IgDeparser(), EmptyEgressParser(), EmptyEgress(), EmptyEgressDeparser()) pipe;
Switch(pipe) main;
