/* Coverage: one construct of each coverable kind, each taken by a known set of frames
 * (tests/p4sim/test_p4sim_coverage.py). */
#include "common.p4"

header tag_h {
    bit<8> kind;
    bit<8> value;
}

struct headers_t { ethernet_h ethernet; tag_h tag; }
struct meta_t { bit<8> seen; }

parser IgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        TNA_INGRESS_PROLOGUE(pkt, ig_intr_md);
        transition parse_ethernet;
    }
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x88b5: parse_tag;
            0x0800: accept;
            default: reject;
        }
    }
    state parse_tag {
        pkt.extract(hdr.tag);
        transition accept;
    }
}

control Ingress(inout headers_t hdr, inout meta_t md,
                in ingress_intrinsic_metadata_t ig_intr_md,
                in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    Register<bit<8>, bit<1>>(1) total;
    RegisterAction<bit<8>, bit<1>, bit<8>>(total) bump = {
        void apply(inout bit<8> v, out bit<8> rv) {
            if (v < 3) {
                v = v + 1;
            }
            rv = v;
        }
    };

    action set_port(PortId_t port) {
        ig_tm_md.ucast_egress_port = port;
    }
    action drop() {
        ig_dprsr_md.drop_ctl = 1;
    }
    table forward {
        key = { hdr.ethernet.dst_addr : exact; }
        actions = { set_port; drop; }
        default_action = drop();
        size = 4;
    }
    action mark(bit<8> v) {
        hdr.tag.value = v;
    }
    table classify {
        key = { hdr.tag.kind : exact; }
        actions = { mark; NoAction; }
        const entries = {
            1 : mark(10);
            2 : mark(20);
        }
        default_action = NoAction();
    }
    apply {
        forward.apply();
        if (hdr.tag.isValid()) {
            classify.apply();
            switch (hdr.tag.kind) {
                1: { md.seen = bump.execute(0); }
                default: { md.seen = 0; }
            }
        }
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
