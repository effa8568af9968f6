/* Construct family: parser value_set, the min/max extern functions, Mirror.emit and
 * Resubmit.emit with a list expression typed by emit<T>. */
#include "common.p4"

header tag_h { bit<8> a; bit<8> b; bit<8> hi; bit<8> lo; }
header mirror_h { bit<8> kind; bit<8> session; }
header resub_h { bit<8> mark; bit<56> pad; }
struct headers_t { ethernet_h ethernet; tag_h tag; }
struct meta_t { MirrorId_t session; bit<8> mkind; bit<8> msession; resub_h resub_in; }

parser IgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out ingress_intrinsic_metadata_t ig_intr_md) {
    value_set<bit<16>>(4) tagged_types;
    state start {
        pkt.extract(ig_intr_md);
        transition select(ig_intr_md.resubmit_flag) {
            1: parse_resubmit;
            default: skip;
        }
    }
    state parse_resubmit { pkt.extract(md.resub_in); transition parse_ethernet; }
    state skip { pkt.advance(PORT_METADATA_SIZE); transition parse_ethernet; }
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            tagged_types: parse_tag;
            default: accept;
        }
    }
    state parse_tag { pkt.extract(hdr.tag); transition accept; }
}

control Ingress(inout headers_t hdr, inout meta_t md,
                in ingress_intrinsic_metadata_t ig_intr_md,
                in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    apply {
        ig_tm_md.ucast_egress_port = 1;
        if (hdr.tag.isValid()) {
            hdr.tag.hi = max(hdr.tag.a, hdr.tag.b);
            hdr.tag.lo = min(hdr.tag.a, hdr.tag.b);
            if (hdr.tag.a == 0xEE) {
                ig_dprsr_md.mirror_type = 1;
                md.session = 5;
                md.mkind = 0xBB;
                md.msession = 5;
            }
            if (hdr.tag.a == 0xDD && ig_intr_md.resubmit_flag == 0) {
                ig_dprsr_md.resubmit_type = 2;
            }
            if (ig_intr_md.resubmit_flag == 1) {
                hdr.tag.b = md.resub_in.mark;
            }
        }
    }
}

control IgDeparser(packet_out pkt, inout headers_t hdr, in meta_t md,
                   in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    Mirror() mirror;
    Resubmit() resubmit;
    apply {
        if (ig_dprsr_md.mirror_type == 1) {
            mirror.emit<mirror_h>(md.session, {md.mkind, md.msession});
        }
        if (ig_dprsr_md.resubmit_type == 2) {
            resubmit.emit<resub_h>({hdr.tag.hi, 0});
        }
        pkt.emit(hdr);
    }
}

EMPTY_EGRESS(headers_t, meta_t)

Pipeline(IgParser(), Ingress(), IgDeparser(),
         EmptyEgressParser(), EmptyEgress(), EmptyEgressDeparser()) pipe;
Switch(pipe) main;
