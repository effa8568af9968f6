/* Shared headers and boilerplate for the p4sim test programs. */
#ifndef _TEST_COMMON_P4_
#define _TEST_COMMON_P4_
#include <core.p4>
#include <tna.p4>

header ethernet_h {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

/* the common ingress-parser prologue: intrinsic metadata + port metadata skip */
#define TNA_INGRESS_PROLOGUE(pkt, ig_intr_md) \
    pkt.extract(ig_intr_md);                 \
    pkt.advance(PORT_METADATA_SIZE)

/* an egress that does nothing */
#define EMPTY_EGRESS(H, M)                                                          \
parser EmptyEgressParser(packet_in pkt, out H hdr, out M md,                        \
                         out egress_intrinsic_metadata_t eg_intr_md) {              \
    state start { pkt.extract(eg_intr_md); transition accept; }                     \
}                                                                                   \
control EmptyEgress(inout H hdr, inout M md, in egress_intrinsic_metadata_t eg_intr_md, \
    in egress_intrinsic_metadata_from_parser_t eg_prsr_md,                          \
    inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,                     \
    inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) { apply { } }    \
control EmptyEgressDeparser(packet_out pkt, inout H hdr, in M md,                   \
    in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) { apply { } }

#endif
