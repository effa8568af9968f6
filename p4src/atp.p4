/* atp.p4 — the ATP switch (protocol spec sections 2, 4, 5 and 8) in P4-16 for the
 * Tofino Native Architecture, Tofino 1.
 *
 * Build:   bf-p4c --target tofino --arch tna -o OUT p4src/atp.p4
 *          -DATP_RELEASE     the release's switch-side deviations (profile atp-release)
 *          -DATP_POOL_MAX=N  the largest pool size P the registers hold (default 4096,
 *                            the Tofino build; rounded up to a power of two)
 *
 * PASS STRUCTURE
 *   62 values and the control state of an aggregator do not fit one pass (below), so a
 *   gradient packet that is mine takes two ingress passes joined by recirculation:
 *   pass 1  forwarding and the switch's role (a stage-0 lookup on what the parser found),
 *           then the control state once: owner+stamp, bitmap (+ twin), ecn, count ->
 *           mine, new bits, completion, the whole-rack test and the value operation
 *           (first / add / read).  Values 0..30 in half 0 of the value registers.  Then:
 *           not mine -> to the PS (collision flag unless a resend); absorbed without new
 *           bits -> dropped; else recirculated with a bridge header carrying
 *           {vop, emit, promote, level}.
 *   pass 2  values 31..61 in half 1 with the carried vop (the parser puts them in
 *           hdr.vals, so the same RegisterActions serve both halves); then to the PS,
 *           dropped (absorbed) or, a whole rack at the PS's own rack switch, recirculated
 *           once more as a level-1 frame (passes 3 and 4, section 8's internal loop).
 *   The ownership/completion decision is made once; pass 2 keeps no second copy of the
 *   control state (that copy is release deviation 9.2, not reproduced: with consistent
 *   agtr/agtr2 the release's two copies move in lockstep, which is what this does).
 *   Parameter packets take one pass (two at a PS rack switch that also aggregates a rack
 *   of the job: level 1 is released in pass 1, level 0 in pass 2, as both levels share
 *   the registers).  Float-mode packets, collisions and other racks' frames: one pass.
 *
 * RESOURCE BUDGET (Tofino 1: 12 MAU stages, 4 stateful ALUs per stage, one
 * RegisterAction per register per pass, <= 2 conditions and <= 4 RegisterActions per
 * register, cells of 8/16/32 bits or pairs of 32; 48 map RAMs per stage)
 *   stage 0   job_route, l2, role (app, ps, kind, rack), pool_index (P |-| agtr, clock),
 *             whole_rack, rack_bit — all keyed on headers and parser metadata
 *   stage 1   ownership: owner_stamp (pair 2x32) at level ++ agtr (identity hash);
 *             the value index half ++ level ++ agtr
 *   stage 2   bitmap (returns prev), bitmap_twin (returns new = b & ~prev), ecn
 *   stage 3   count, value_operation (first/add/read from mine, prev, new), merged
 *   stages 4-11  values_0..values_30, four per stage (one table each, keyed on the
 *             operation and the incoming element: add, or take for a sticky element)
 *   stages 4-6   completion, what an emitted frame carries, the output table
 *   stateful ALUs per pass: 5 control + 31 values = 36 of 48.  @stage pins the plan and
 *   @placement_priority puts the value tables first in their stages.
 *   Memory: a value register holds 4S cells (S = 2^ceil(log2 P): level x half), 16384
 *   at P = 4096 = 4 SRAM blocks + 1, 5 map RAMs: four per stage use 20 of 48 map RAMs.
 *   At P = 20000 (S = 32768) a value register needs 33 map RAMs, one per stage: that
 *   build does not fit; 4096 is the Tofino build's pool (the release uses 20000 by
 *   default, but a job needs only its window's worth of aggregators).
 *   RegisterActions: owner_stamp 3 (claim, claim_resend, release), bitmap 2, twin 2,
 *   count 3, ecn 3, each value register 4 (first, add, take, read); every body has at
 *   most two conditions (claim: owner == 0 || owner == id).
 *   Sticky saturation (4.6) in two conditions: the register's own stickiness is one
 *   unsigned compare, (value - (2^31-1)) < 3, against a PHV constant; the incoming
 *   element's stickiness is a ternary key of the value table, which selects `take`
 *   instead of `add` for that element, so each RegisterAction has one condition.
 *   COMPILE RESULT: see p4src/README.md (Compile status) for the measured placement.
 *
 * Files: headers.p4 (wire format, bridge, metadata) · parser.p4 (also classifies the
 * packet) · forwarding.p4 (L2, job routes, multicast groups) · two_level.p4 (the role
 * table, whole-rack promotion) · aggregation.p4 (control state, values) · egress.p4
 * (ECN marking) · deparser.p4.  The control plane, one Python class per control, is
 * p4src/control/.
 */
#include <core.p4>
#include <tna.p4>

/* ATP_POOL_MAX: the largest pool P the registers hold.  Registers are indexed by
 * level ++ agtr (and half ++ level ++ agtr), so they hold a power of two:
 * ATP_POOL_SLOTS = 2^ATP_POOL_BITS >= ATP_POOL_MAX, at least 2
 * (p4src/control/aggregation.py's pool_slots() is the same rule). */
#ifndef ATP_POOL_MAX
#define ATP_POOL_MAX 4096
#endif
#if ATP_POOL_MAX <= 2
#define ATP_POOL_BITS 1
#elif ATP_POOL_MAX <= 4
#define ATP_POOL_BITS 2
#elif ATP_POOL_MAX <= 8
#define ATP_POOL_BITS 3
#elif ATP_POOL_MAX <= 16
#define ATP_POOL_BITS 4
#elif ATP_POOL_MAX <= 32
#define ATP_POOL_BITS 5
#elif ATP_POOL_MAX <= 64
#define ATP_POOL_BITS 6
#elif ATP_POOL_MAX <= 128
#define ATP_POOL_BITS 7
#elif ATP_POOL_MAX <= 256
#define ATP_POOL_BITS 8
#elif ATP_POOL_MAX <= 512
#define ATP_POOL_BITS 9
#elif ATP_POOL_MAX <= 1024
#define ATP_POOL_BITS 10
#elif ATP_POOL_MAX <= 2048
#define ATP_POOL_BITS 11
#elif ATP_POOL_MAX <= 4096
#define ATP_POOL_BITS 12
#elif ATP_POOL_MAX <= 8192
#define ATP_POOL_BITS 13
#elif ATP_POOL_MAX <= 16384
#define ATP_POOL_BITS 14
#elif ATP_POOL_MAX <= 32768
#define ATP_POOL_BITS 15
#else
#define ATP_POOL_BITS 16
#endif
#define ATP_POOL_SLOTS (1 << ATP_POOL_BITS)
#define ATP_AGTR_HI (ATP_POOL_BITS - 1)
#define ATP_CI_BITS (ATP_POOL_BITS + 1)
#define ATP_VI_BITS (ATP_POOL_BITS + 2)
#define ATP_CONTROL_CELLS (2 * ATP_POOL_SLOTS)
#define ATP_VALUE_CELLS (4 * ATP_POOL_SLOTS)

/* ATP_RELEASE_BOUND (release deviation 9.11): the release compares agtr with no pool size
 * P; only its registers bound it, 40000 cells (reference.profiles.RELEASE_REGISTER_CELLS).
 * A build whose registers hold fewer is bounded by its own: the Tofino build's 4096.  A
 * release build with -DATP_POOL_MAX=40000 does not compile for Tofino 1 (p4src/README.md,
 * Compile status), so the Tofino release build is the release with 4096-cell registers. */
#if ATP_POOL_BITS < 16
#define ATP_RELEASE_BOUND ATP_POOL_SLOTS
#else
#define ATP_RELEASE_BOUND 40000
#endif

/* FROM_PS(x): the output table's from_ps column, only in the release build (9.12) */
#ifdef ATP_RELEASE
#define FROM_PS(x) , x
#else
#define FROM_PS(x)
#endif

#include "headers.p4"
#include "parser.p4"
#include "forwarding.p4"
#include "two_level.p4"
#include "aggregation.p4"
#include "egress.p4"
#include "deparser.p4"

control Ingress(inout headers_t hdr, inout ingress_md_t md,
                in ingress_intrinsic_metadata_t ig_intr_md,
                in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    Forwarding() forwarding;
    TwoLevelRole() two_level;
    AggregatorIndex() aggregator_index;
    AggregatorState() aggregator;
    AggregatorValues() aggregator_values;
    RackPromotion() rack_promotion;
#ifdef ATP_RELEASE
    ParameterSource() parameter_source;
#endif

    /* where the frame goes (the output table's actions) */
    action to_ps() {
        ig_tm_md.ucast_egress_port = md.to_ps;
        hdr.bridge.setInvalid();
    }

    action collision_to_ps() {
        hdr.atp.collision = 1;                        /* 4.3 not mine */
        ig_tm_md.ucast_egress_port = md.to_ps;
        hdr.bridge.setInvalid();
    }

    action to_workers() {
        ig_tm_md.mcast_grp_a = md.mgid;
        hdr.bridge.setInvalid();
    }

    action drop() {
        ig_dprsr_md.drop_ctl = 1;
        hdr.bridge.setInvalid();
    }

    action recirculate(bit<8> kind) {
        hdr.bridge.kind = kind;
        ig_tm_md.ucast_egress_port = md.recirc_port;
    }

    /* 8: a whole rack goes up as a level-1 frame: to the PS, or at the PS's own rack
     * switch once more through the pipeline (the upper's internal loop) */
    action promote_to_ps() {
        hdr.shim.level = 1;
        hdr.shim.bitmap1 = md.rack_bit;
        ig_tm_md.ucast_egress_port = md.to_ps;
        hdr.bridge.setInvalid();
    }

    action promote_up() {
        hdr.shim.level = 1;
        hdr.shim.bitmap1 = md.rack_bit;
        hdr.bridge.kind = BRIDGE_LEVEL1_ENTRY;
        ig_tm_md.ucast_egress_port = md.recirc_port;
    }

    /* One lookup decides the frame's way out, in priority order; a chain of conditions
     * here would hold a stage's table slots that the value registers need. */
    table output {
        key = {
            md.routed          : ternary;
            md.second          : ternary;
            hdr.bridge.emit    : ternary;
            md.promote         : ternary;
            md.is_upper        : ternary;
            hdr.atp.ack        : ternary;
            md.param_again     : ternary;
            md.op              : ternary;
            md.unserved        : ternary;
            md.mine            : ternary;
            hdr.atp.resend     : ternary;
            md.new_bits        : ternary;
#ifdef ATP_RELEASE
            md.from_ps         : ternary;
#endif
        }
        actions = { to_ps; collision_to_ps; to_workers; drop; recirculate; promote_to_ps;
                    promote_up; }
        const entries = {
            /* routed second emit promote upper ack again op unserved mine resend new
             * (from_ps, release build) */
            (0, _, _, _, _, _, _, _, _, _, _, _ FROM_PS(_)) : drop();        /* not a job here */
            (_, 1, 0, _, _, _, _, _, _, _, _, _ FROM_PS(_)) : drop();        /* 4.7 absorbed */
            (_, 1, _, 1, 1, _, _, _, _, _, _, _ FROM_PS(_)) : promote_up();
            (_, 1, _, 1, _, _, _, _, _, _, _, _ FROM_PS(_)) : promote_to_ps();
            (_, 1, _, _, _, _, _, _, _, _, _, _ FROM_PS(_)) : to_ps();
#ifdef ATP_RELEASE
            /* 9.12: a parameter packet from another port than its PS's makes its register
             * updates (level 0 after the loop as well), then is dropped */
            (_, _, _, _, _, 1, 1, _, _, _, _, _, 0) : recirculate(BRIDGE_PARAM_LEVEL0_STRAY);
            (_, _, _, _, _, 1, _, _, _, _, _, _, 0) : drop();
#endif
            (_, _, _, _, _, 1, 1, _, _, _, _, _ FROM_PS(_)) : recirculate(BRIDGE_PARAM_LEVEL0);
            (_, _, _, _, _, 1, _, _, _, _, _, _ FROM_PS(_)) : to_workers();
            (_, _, _, _, _, _, _, OP_NONE, 1, _, _, _ FROM_PS(_)) : drop(); /* no workers here */
            (_, _, _, _, _, _, _, OP_NONE, _, _, _, _ FROM_PS(_)) : to_ps(); /* float, other rack */
            (_, _, _, _, _, _, _, _, _, 0, 0, _ FROM_PS(_)) : collision_to_ps();
            (_, _, _, _, _, _, _, _, _, 0, _, _ FROM_PS(_)) : to_ps();       /* a resend, not mine */
            (_, _, 0, _, _, _, _, _, _, _, _, 0 FROM_PS(_)) : drop();        /* absorbed, no new bits */
            (_, _, _, _, _, _, _, _, _, _, _, _ FROM_PS(_)) : recirculate(BRIDGE_SECOND_HALF);
        }
        default_action = drop();
        size = 16;
    }

    action compare_whole() {
        md.whole_diff = md.merged ^ md.whole;
    }

    /* a new decision record (pass 1 of a frame) */
    action open_record() {
        hdr.bridge.setValid();
        hdr.bridge.kind = 0;
        hdr.bridge.vop = VOP_NONE;
        hdr.bridge.emit = 0;
        hdr.bridge.promote = 0;
        hdr.bridge.level = 0;
    }

    apply {
        forwarding.apply(hdr, md, ig_dprsr_md, ig_tm_md);    /* stage 0 */
        if (hdr.atp.isValid()) {
#ifdef ATP_RELEASE
            parameter_source.apply(hdr, md, ig_intr_md);      /* stage 0: 9.12 */
#endif
            /* stage 0: what this pass does.  No table is gated on a table's result
             * before the aggregator: the parser's md.kind says which pass this is, the
             * role table (two_level.p4) what the switch does with the packet, and every
             * control below is applied at one place only (a Tofino table graph has one
             * order). */
            md.id = hdr.atp.app_id ++ hdr.atp.seq;
            if (hdr.ipv4.ecn == 3 || hdr.atp.ecn == 1) {
                md.is_ecn = 1;
            }
            if (md.second == 0) {
                open_record();                        /* a new frame, a re-entry, or the
                                                         level-0 release of a parameter */
            }
            if (hdr.shim.isValid()) {
                rack_promotion.apply(hdr, md);
            }
            two_level.apply(hdr, md);
            aggregator_index.apply(hdr, md, ig_intr_md);
            if (md.two_level == 1 && md.whole_known == 1) {
                md.promotable = 1;                    /* stage 1: one byte for stage 5 */
            }
            if (md.second == 0) {
                hdr.bridge.level = md.level;          /* for pass 2 */
            }
            aggregator.apply(hdr, md);                /* stages 1-4: control state, pass 1 */
            aggregator_values.apply(hdr, md);         /* stages 4-11: the half in hdr.vals */

            /* stages 4-5, pass 1, mine: what an emitted frame carries (a frame that is
             * not emitted is dropped after pass 2, so these need not wait for emit) */
            compare_whole();
            if (md.mine == 1) {
                if (md.level == 1) {
                    hdr.shim.bitmap1 = md.merged;
                } else {
                    hdr.atp.bitmap = md.merged;
                }
#ifdef ATP_RELEASE
                if (md.ecn_old != 0) {                /* 9.9: the register before this packet */
#else
                if (md.ecn_old != 0 || md.is_ecn != 0) {
#endif
                    hdr.atp.ecn = 1;
                }
            }
            /* 8: only whole racks go up (an edge's pass 1; what is not mine leaves
             * without the bridge, so the test need not wait for mine) */
            if (md.promotable == 1 && md.whole_diff == 0) {
                hdr.bridge.promote = 1;
            }
            output.apply();
        }
    }
}

Pipeline(IngressParser(), Ingress(), IngressDeparser(),
         EgressParser(), Egress(), EgressDeparser()) pipe;
Switch(pipe) main;
