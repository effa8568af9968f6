/* Construct family: data movement. Header copy, header stacks (push_front/pop_front,
 * constant and dynamic indexes, emit of a stack), a function with out parameters,
 * switch fall-through labels, bridged metadata from ingress to egress (a header inside
 * the metadata struct), mcast_grp_b. */
#include "common.p4"

header item_h { bit<8> v; }
header ctl_h { bit<8> op; bit<8> i; bit<8> a; bit<8> b; }
header bridge_h { bit<8> tag; bit<16> ingress_port; }

struct headers_t { ethernet_h ethernet; ctl_h ctl; item_h[3] items; ethernet_h copy; }
struct meta_t { bridge_h bridge; }

void divmod(in bit<8> x, in bit<8> y, out bit<8> q, out bit<8> r) {
    q = x / y;
    r = x % y;
}

parser IgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        TNA_INGRESS_PROLOGUE(pkt, ig_intr_md);
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.ctl);
        pkt.extract(hdr.items[0]);
        pkt.extract(hdr.items[1]);
        transition accept;
    }
}

control Ingress(inout headers_t hdr, inout meta_t md,
                in ingress_intrinsic_metadata_t ig_intr_md,
                in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    apply {
        ig_tm_md.ucast_egress_port = 1;
        md.bridge.setValid();
        md.bridge.tag = 0x5A;
        md.bridge.ingress_port = (bit<16>)ig_intr_md.ingress_port;
        switch (hdr.ctl.op) {
            1:
            2: { hdr.copy = hdr.ethernet; hdr.copy.ether_type = 0xBEEF; }   // 1 falls into 2
            3: { hdr.items.push_front(1); hdr.items[0].setValid(); hdr.items[0].v = 0x77; }
            4: { hdr.items.pop_front(1); }
            5: { hdr.items[hdr.ctl.i].v = 0x99; }
            6: { divmod(hdr.ctl.a, hdr.ctl.b, hdr.ctl.a, hdr.ctl.b); }
            7: { ig_tm_md.mcast_grp_b = 9; }
            default: { hdr.ctl.a = 0xEE; }
        }
    }
}

control IgDeparser(packet_out pkt, inout headers_t hdr, in meta_t md,
                   in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply {
        pkt.emit(md.bridge);
        pkt.emit(hdr);
    }
}

parser EgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        pkt.extract(eg_intr_md);
        pkt.extract(md.bridge);
        pkt.extract(hdr.ethernet);
        transition accept;
    }
}
control Egress(inout headers_t hdr, inout meta_t md, in egress_intrinsic_metadata_t eg_intr_md,
               in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
               inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
               inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    apply {
        // bridged data reaches egress: tag and ingress port into the source MAC
        hdr.ethernet.src_addr = 24w0 ++ md.bridge.tag ++ md.bridge.ingress_port;
    }
}
control EgDeparser(packet_out pkt, inout headers_t hdr, in meta_t md,
                   in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply { pkt.emit(hdr.ethernet); }   // the bridge header is not emitted: it is removed
}

Pipeline(IgParser(), Ingress(), IgDeparser(), EgParser(), Egress(), EgDeparser()) pipe;
Switch(pipe) main;
