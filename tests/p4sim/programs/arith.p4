/* Construct family: expressions. bit<W>/int<W> wrap-around, saturating |+| |-|, casts,
 * slices (read and write), concatenation, shifts, comparisons, bool logic, ?:.
 * tests/p4sim/test_p4sim_arith.py checks every output against a big-integer model. */
#include "common.p4"

header in_h {
    bit<8> a8; bit<8> b8; bit<32> a; bit<32> b; int<8> sa; int<8> sb; bit<8> sh;
}
header out_h {
    bit<8> add8; bit<8> sub8; bit<8> mul8; bit<8> sadd8; bit<8> ssub8;
    bit<32> add32; bit<32> sub32; bit<32> sadd32; bit<32> ssub32;
    int<8> iadd; int<8> isub; int<8> imul; int<8> isadd; int<8> issub; int<8> ineg;
    bit<8> shl8; bit<8> shr8; int<8> ishr; int<8> ishl;
    bit<16> cat; bit<4> hi4; bit<4> lo4; bit<32> mid;
    int<32> sext; bit<8> s2u; int<8> u2s; bit<16> widen; bit<8> trunc; int<16> catsigned;
    bit<8> cmp; bit<8> notv; bit<8> andv; bit<8> orv; bit<8> xorv;
    bit<32> sliced; bit<8> pick; bit<8> logic;
}

struct headers_t { ethernet_h ethernet; in_h i; out_h o; }
struct meta_t { bit<8> unused; }

parser IgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        TNA_INGRESS_PROLOGUE(pkt, ig_intr_md);
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.i);
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
        hdr.o.setValid();
        hdr.o.add8 = hdr.i.a8 + hdr.i.b8;
        hdr.o.sub8 = hdr.i.a8 - hdr.i.b8;
        hdr.o.mul8 = hdr.i.a8 * hdr.i.b8;
        hdr.o.sadd8 = hdr.i.a8 |+| hdr.i.b8;
        hdr.o.ssub8 = hdr.i.a8 |-| hdr.i.b8;
        hdr.o.add32 = hdr.i.a + hdr.i.b;
        hdr.o.sub32 = hdr.i.a - hdr.i.b;
        hdr.o.sadd32 = hdr.i.a |+| hdr.i.b;
        hdr.o.ssub32 = hdr.i.a |-| hdr.i.b;
        hdr.o.iadd = hdr.i.sa + hdr.i.sb;
        hdr.o.isub = hdr.i.sa - hdr.i.sb;
        hdr.o.imul = hdr.i.sa * hdr.i.sb;
        hdr.o.isadd = hdr.i.sa |+| hdr.i.sb;
        hdr.o.issub = hdr.i.sa |-| hdr.i.sb;
        hdr.o.ineg = -hdr.i.sa;
        hdr.o.shl8 = hdr.i.a8 << hdr.i.sh;
        hdr.o.shr8 = hdr.i.a8 >> hdr.i.sh;
        hdr.o.ishr = hdr.i.sa >> hdr.i.sh;
        hdr.o.ishl = hdr.i.sa << 3;
        hdr.o.cat = hdr.i.a8 ++ hdr.i.b8;
        hdr.o.hi4 = hdr.i.a8[7:4];
        hdr.o.lo4 = hdr.i.b8[3:0];
        hdr.o.mid = (bit<32>)hdr.i.a[23:8];
        hdr.o.sext = (int<32>)hdr.i.sa;
        hdr.o.s2u = (bit<8>)hdr.i.sa;
        hdr.o.u2s = (int<8>)hdr.i.a8;
        hdr.o.widen = (bit<16>)hdr.i.a8;
        hdr.o.trunc = (bit<8>)hdr.i.a;
        hdr.o.catsigned = hdr.i.sa ++ hdr.i.b8;
        hdr.o.cmp = (bit<1>)(hdr.i.a8 < hdr.i.b8) ++ (bit<1>)(hdr.i.sa < hdr.i.sb) ++
                    (bit<1>)(hdr.i.a8 == hdr.i.b8) ++ (bit<1>)(hdr.i.a >= hdr.i.b) ++
                    (bit<1>)(hdr.i.sa <= hdr.i.sb) ++ (bit<1>)(hdr.i.a != hdr.i.b) ++
                    (bit<1>)(hdr.i.a8 > hdr.i.b8) ++ (bit<1>)(hdr.i.sa > hdr.i.sb);
        hdr.o.notv = ~hdr.i.a8;
        hdr.o.andv = hdr.i.a8 & hdr.i.b8;
        hdr.o.orv = hdr.i.a8 | hdr.i.b8;
        hdr.o.xorv = hdr.i.a8 ^ hdr.i.b8;
        bit<32> x = hdr.i.a;
        x[15:8] = hdr.i.b8;
        x[31:28] = 4w0xA;
        hdr.o.sliced = x;
        hdr.o.pick = hdr.i.a8 > hdr.i.b8 ? hdr.i.a8 : hdr.i.b8;
        bool p = hdr.i.a8 > 100 && !(hdr.i.b8 > 100) || hdr.i.sh == 0;
        hdr.o.logic = p ? 8w1 : 8w0;
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
