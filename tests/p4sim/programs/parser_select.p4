/* Construct family: parser states, select (exact, mask, range, tuple, default),
 * header stacks (.next in a loop), lookahead, verify, advance, reject. */
#include "common.p4"

header tag_h { bit<8> kind; bit<8> value; }        // stack element; kind 0 ends the list
header v4_h { bit<4> version; bit<4> ihl; bit<8> rest; }
header v6_h { bit<4> version; bit<12> rest; }
header tail_h { bit<8> marker; bit<8> class; }

struct headers_t {
    ethernet_h ethernet;
    tag_h[4]   tags;
    v4_h       v4;
    v6_h       v6;
    tail_h     tail;
}
struct meta_t { bit<8> path; }

parser IgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        pkt.extract(ig_intr_md);
        pkt.advance(PORT_METADATA_SIZE);
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x9000: parse_tags;
            0x8800 &&& 0xFF00: parse_version;     // 0x88xx
            0x0100 .. 0x01FF: parse_tail;          // range
            0xDEAD: reject;
            default: accept;
        }
    }
    state parse_tags {
        pkt.extract(hdr.tags.next);
        transition select(hdr.tags.last.kind) {
            0: parse_version;
            default: parse_tags;
        }
    }
    state parse_version {
        transition select(pkt.lookahead<bit<4>>()) {
            4: parse_v4;
            6: parse_v6;
            default: reject;
        }
    }
    state parse_v4 {
        pkt.extract(hdr.v4);
        verify(hdr.v4.ihl >= 5, error.HeaderTooShort);
        md.path = 4;
        transition parse_tail;
    }
    state parse_v6 {
        pkt.extract(hdr.v6);
        md.path = 6;
        transition parse_tail;
    }
    state parse_tail {
        pkt.extract(hdr.tail);
        transition select(hdr.tail.marker, hdr.tail.class) {
            (0xAA, 1): accept;
            (0xAA, _): accept;
            (_, 0xF0 &&& 0xF0): accept;
            default: reject;
        }
    }
}

control Ingress(inout headers_t hdr, inout meta_t md,
                in ingress_intrinsic_metadata_t ig_intr_md,
                in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    apply {
        ig_tm_md.ucast_egress_port = 2;
        // report what the parser saw in the Ethernet source address
        hdr.ethernet.src_addr = (bit<8>)hdr.tags.nextIndex ++ md.path ++
                                (bit<8>)(bit<1>)hdr.v4.isValid() ++ (bit<8>)(bit<1>)hdr.v6.isValid() ++
                                (bit<8>)(bit<1>)hdr.tail.isValid() ++ 8w0;
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
