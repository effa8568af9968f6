/* Construct family: ternary (priorities), lpm, range, const entries, switch on
 * action_run, hit/miss, actions with several parameters, @defaultonly, NoAction. */
#include "common.p4"

header probe_h {
    bit<32> addr;     // lpm key
    bit<16> port;     // range key
    bit<8>  flags;    // ternary key
    bit<8>  c;        // const-table key
    bit<32> out_lpm;
    bit<32> out_range;
    bit<32> out_tern;
    bit<32> out_const;
    bit<8>  out_sw;
}

struct headers_t { ethernet_h ethernet; probe_h probe; }
struct meta_t { bit<8> unused; }

parser IgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        TNA_INGRESS_PROLOGUE(pkt, ig_intr_md);
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.probe);
        transition accept;
    }
}

control Ingress(inout headers_t hdr, inout meta_t md,
                in ingress_intrinsic_metadata_t ig_intr_md,
                in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    action set_lpm(bit<32> v) { hdr.probe.out_lpm = v; }
    action set_range(bit<32> v) { hdr.probe.out_range = v; }
    action set_tern(bit<32> v, bit<8> sw) { hdr.probe.out_tern = v; hdr.probe.out_sw = sw; }
    action set_const(bit<32> v) { hdr.probe.out_const = v; }
    @defaultonly action miss_marker() { hdr.probe.out_sw = 0xEE; }

    table routes {
        key = { hdr.probe.addr : lpm; }
        actions = { set_lpm; NoAction; }
        default_action = NoAction;
    }
    table ranges {
        key = { hdr.probe.port : range; }
        actions = { set_range; }
        default_action = set_range(0xFFFF);
    }
    table classify {
        key = { hdr.probe.flags : ternary; hdr.ethernet.ether_type : exact @name("etype"); }
        actions = { set_tern; @defaultonly miss_marker; }
        default_action = miss_marker();
    }
    table fixed {
        key = { hdr.probe.c : ternary; }
        actions = { set_const; NoAction; }
        const entries = {
            0x01 : set_const(100);
            0x00 &&& 0xF0 : set_const(200);     // 0x0X except 0x01 (first entry wins)
            _ : set_const(300);
        }
    }
    apply {
        ig_tm_md.ucast_egress_port = 1;
        if (routes.apply().hit) {
            hdr.probe.out_lpm = hdr.probe.out_lpm + 1;
        }
        if (ranges.apply().miss) {
            hdr.probe.out_range = hdr.probe.out_range | 0x10000;
        }
        switch (classify.apply().action_run) {
            set_tern: { hdr.probe.out_sw = hdr.probe.out_sw + 1; }
            miss_marker: { hdr.probe.out_tern = 0xDEAD; }
        }
        fixed.apply();
    }
}

control IgDeparser(packet_out pkt, inout headers_t hdr, in meta_t md,
                   in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply { pkt.emit(hdr); }
}

EMPTY_EGRESS(headers_t, meta_t)

Pipeline(IgParser(), Ingress(), IgDeparser(),
         EmptyEgressParser(), EmptyEgress(), EmptyEgressDeparser()) pipe;
Switch(pipe) main;
