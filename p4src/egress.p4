/* egress.p4 — congestion marking (spec section 5, last paragraph): a queue depth at or
 * over the configured threshold sets ipv4.ecn := 3 and, on ATP frames, the ecn flag. */
#ifndef ATP_EGRESS_P4
#define ATP_EGRESS_P4

control EcnMarking(inout egress_headers_t hdr, inout egress_md_t md,
                   in egress_intrinsic_metadata_t eg_intr_md) {
    action set_threshold(bit<32> threshold) {
        md.threshold = threshold;
    }

    /* keyless: the control plane sets the default action's threshold */
    table ecn_config {
        actions = { set_threshold; }
        default_action = set_threshold(0x80000);
        size = 1;
    }

    action compare_depth() {
        md.depth = (bit<32>)eg_intr_md.deq_qdepth;
    }

    action depth_minus_threshold() {
        md.depth_diff = md.depth - md.threshold;
    }

    apply {
        if (hdr.ipv4.isValid()) {
            ecn_config.apply();
            compare_depth();
            depth_minus_threshold();
            if (md.depth_diff[31:31] == 0) {
                hdr.ipv4.ecn = 3;
                if (hdr.atp.isValid()) {
                    hdr.atp.ecn = 1;
                }
            }
        }
    }
}

control Egress(inout egress_headers_t hdr, inout egress_md_t md,
               in egress_intrinsic_metadata_t eg_intr_md,
               in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
               inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
               inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    EcnMarking() ecn_marking;

    apply {
        ecn_marking.apply(hdr, md, eg_intr_md);
    }
}

#endif
