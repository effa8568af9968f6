/* Construct family: sub-parser and sub-deparser instances (the common
 * TofinoIngressParser pattern), applied with arguments. */
#include "common.p4"

struct headers_t { ethernet_h ethernet; }
struct meta_t { bit<8> resubmitted; }

parser TofinoIngressParser(packet_in pkt, out ingress_intrinsic_metadata_t ig_intr_md,
                           out bit<8> flag) {
    state start {
        pkt.extract(ig_intr_md);
        transition select(ig_intr_md.resubmit_flag) {
            1: parse_resubmit;
            0: parse_port_metadata;
        }
    }
    state parse_resubmit {
        flag = 1;
        pkt.advance(PORT_METADATA_SIZE);
        transition accept;
    }
    state parse_port_metadata {
        flag = 0;
        pkt.advance(PORT_METADATA_SIZE);
        transition accept;
    }
}

parser IgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out ingress_intrinsic_metadata_t ig_intr_md) {
    TofinoIngressParser() tofino_parser;
    state start {
        tofino_parser.apply(pkt, ig_intr_md, md.resubmitted);
        pkt.extract(hdr.ethernet);
        transition accept;
    }
}

control Ingress(inout headers_t hdr, inout meta_t md,
                in ingress_intrinsic_metadata_t ig_intr_md,
                in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    apply {
        if (md.resubmitted == 0 && hdr.ethernet.ether_type == 0x0001) {
            ig_dprsr_md.resubmit_type = 1;
        }
        hdr.ethernet.src_addr = 40w0 ++ md.resubmitted;
        ig_tm_md.ucast_egress_port = 2;
    }
}

control EmitAll(packet_out pkt, in headers_t hdr) {
    apply { pkt.emit(hdr.ethernet); }
}

control IgDeparser(packet_out pkt, inout headers_t hdr, in meta_t md,
                   in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    Resubmit() resubmit;
    EmitAll() emit_all;
    apply {
        if (ig_dprsr_md.resubmit_type == 1) { resubmit.emit(); }
        emit_all.apply(pkt, hdr);
    }
}

EMPTY_EGRESS(headers_t, meta_t)

Pipeline(IgParser(), Ingress(), IgDeparser(),
         EmptyEgressParser(), EmptyEgress(), EmptyEgressDeparser()) pipe;
Switch(pipe) main;
