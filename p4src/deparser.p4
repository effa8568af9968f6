/* deparser.p4 — headers back onto the wire in declaration order; invalid ones (the
 * bridge on a frame that leaves, the inactive value halves) are skipped. */
#ifndef ATP_DEPARSER_P4
#define ATP_DEPARSER_P4

control IngressDeparser(packet_out pkt, inout headers_t hdr, in ingress_md_t md,
                        in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply {
        pkt.emit(hdr);
    }
}

control EgressDeparser(packet_out pkt, inout egress_headers_t hdr, in egress_md_t md,
                       in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply {
        pkt.emit(hdr);
    }
}

#endif
