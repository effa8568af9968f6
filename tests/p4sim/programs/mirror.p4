/* Construct family: Mirror. Ingress-to-egress mirroring (with a mirror header, also when
 * the original is dropped; drop_ctl bit 2 disables it) and egress-to-egress mirroring. */
#include "common.p4"

header mirror_h { bit<8> kind; bit<8> session; }
header cmd_h { bit<8> mode; bit<8> mark; }

struct headers_t { ethernet_h ethernet; cmd_h cmd; }
struct meta_t { mirror_h mirror; MirrorId_t session; }

parser IgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        TNA_INGRESS_PROLOGUE(pkt, ig_intr_md);
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.cmd);
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
        hdr.cmd.mark = 0x11;
        if (hdr.cmd.mode == 1 || hdr.cmd.mode == 2 || hdr.cmd.mode == 3) {
            ig_dprsr_md.mirror_type = 1;
            md.session = 5;
            md.mirror.setValid();
            md.mirror.kind = 0xAA;
            md.mirror.session = 5;
        }
        if (hdr.cmd.mode == 2) { ig_dprsr_md.drop_ctl = 1; }     // original dropped
        if (hdr.cmd.mode == 3) { ig_dprsr_md.drop_ctl = 5; }     // and no mirror either
    }
}

control IgDeparser(packet_out pkt, inout headers_t hdr, in meta_t md,
                   in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    Mirror() mirror;
    apply {
        if (ig_dprsr_md.mirror_type == 1) {
            mirror.emit<mirror_h>(md.session, md.mirror);
        }
        pkt.emit(hdr);
    }
}

parser EgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        pkt.extract(eg_intr_md);
        transition select(pkt.lookahead<bit<8>>()) {
            0xAA: parse_mirror;
            default: parse_normal;
        }
    }
    state parse_mirror { pkt.extract(md.mirror); transition parse_normal; }
    state parse_normal { pkt.extract(hdr.ethernet); pkt.extract(hdr.cmd); transition accept; }
}

control Egress(inout headers_t hdr, inout meta_t md, in egress_intrinsic_metadata_t eg_intr_md,
               in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
               inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
               inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    apply {
        if (md.mirror.isValid()) {
            hdr.cmd.mark = 0x22;                         // a mirrored copy
        } else if (hdr.cmd.mode == 4 && eg_intr_md.egress_port == 1) {
            eg_dprsr_md.mirror_type = 1;                 // egress-to-egress mirror
        }
    }
}

control EgDeparser(packet_out pkt, inout headers_t hdr, in meta_t md,
                   in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    Mirror() mirror;
    apply {
        if (eg_dprsr_md.mirror_type == 1) { mirror.emit(7); }
        pkt.emit(hdr);
    }
}

Pipeline(IgParser(), Ingress(), IgDeparser(), EgParser(), Egress(), EgDeparser()) pipe;
Switch(pipe) main;
