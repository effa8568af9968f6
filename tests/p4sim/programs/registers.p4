/* Construct family: Register/RegisterAction (bit<32>, int<32>, bit<16>, bit<8>, pair
 * registers), conditional bodies, Register.read/write, and the one-access-per-pass rule
 * (op == 9 executes the same register twice: p4sim must raise). */
#include "common.p4"

header op_h {
    bit<8>  op;
    bit<16> idx;
    bit<32> arg;
    bit<32> r0;
    bit<32> r1;
}

struct pair_t { bit<32> lo; bit<32> hi; }
struct headers_t { ethernet_h ethernet; op_h op; }
struct meta_t { bit<32> tmp; }

parser IgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        TNA_INGRESS_PROLOGUE(pkt, ig_intr_md);
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.op);
        transition accept;
    }
}

control Ingress(inout headers_t hdr, inout meta_t md,
                in ingress_intrinsic_metadata_t ig_intr_md,
                in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    Register<bit<32>, bit<16>>(16) owner;
    Register<int<32>, bit<16>>(16, -5) signed_acc;
    Register<bit<16>, bit<16>>(16) small;
    Register<bit<8>, bit<16>>(16) tiny;
    Register<pair_t, bit<16>>(16) pair;

    // claim: owner := arg if free; result 1 if claimed/already ours
    RegisterAction<bit<32>, bit<16>, bit<32>>(owner) claim = {
        void apply(inout bit<32> value, out bit<32> result) {
            if (value == 0 || value == hdr.op.arg) {
                value = hdr.op.arg;
                result = 1;
            } else {
                result = 0;
            }
        }
    };
    RegisterAction<bit<32>, bit<16>, bit<32>>(owner) release = {
        void apply(inout bit<32> value) {
            value = 0;
        }
    };
    RegisterAction<int<32>, bit<16>, int<32>>(signed_acc) sadd = {
        void apply(inout int<32> value, out int<32> result) {
            value = value |+| (int<32>)hdr.op.arg;
            result = value;
        }
    };
    RegisterAction<bit<16>, bit<16>, bit<16>>(small) wrap16 = {
        void apply(inout bit<16> value, out bit<16> result) {
            result = value;                  // old value
            value = value + hdr.op.arg[15:0];
        }
    };
    RegisterAction<bit<8>, bit<16>, bit<8>>(tiny) sat8 = {
        void apply(inout bit<8> value, out bit<8> result) {
            value = value |+| hdr.op.arg[7:0];
            result = value;
        }
    };
    RegisterAction<pair_t, bit<16>, bit<32>>(pair) pair_add = {
        void apply(inout pair_t value, out bit<32> result) {
            value.lo = value.lo + hdr.op.arg;
            value.hi = value.hi + 1;
            result = value.hi;
        }
    };

    apply {
        ig_tm_md.ucast_egress_port = 1;
        if (hdr.op.op == 1) {
            hdr.op.r0 = claim.execute(hdr.op.idx);
        } else if (hdr.op.op == 2) {
            release.execute(hdr.op.idx);
        } else if (hdr.op.op == 3) {
            hdr.op.r0 = (bit<32>)sadd.execute(hdr.op.idx);
        } else if (hdr.op.op == 4) {
            hdr.op.r0 = (bit<32>)wrap16.execute(hdr.op.idx);
            hdr.op.r1 = (bit<32>)sat8.execute(hdr.op.idx);
        } else if (hdr.op.op == 5) {
            hdr.op.r0 = pair_add.execute(hdr.op.idx);
        } else if (hdr.op.op == 6) {
            owner.write(hdr.op.idx, hdr.op.arg);
        } else if (hdr.op.op == 7) {
            hdr.op.r0 = owner.read(hdr.op.idx);
        } else if (hdr.op.op == 9) {
            hdr.op.r0 = claim.execute(hdr.op.idx);
            release.execute(hdr.op.idx);     // second access to 'owner' in one pass
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
