/* atp.p4 — the ATP switch (protocol spec sections 2, 4, 5 and 8) in P4-16 for the
 * Tofino Native Architecture, Tofino 1.
 *
 * Build:   bf-p4c --target tofino --arch tna -o OUT p4src/atp.p4
 *          -DATP_RELEASE     the release's switch-side deviations (profile atp-release)
 *          -DATP_POOL_MAX=N  the largest pool size P the registers hold (default 20000)
 *
 * PASS STRUCTURE
 *   62 values and the control state of an aggregator do not fit one pass (below), so a
 *   gradient packet that is mine takes two ingress passes joined by recirculation:
 *   pass 1  forwarding, role (two_level.p4), then the control state once: owner+stamp,
 *           bitmap, ecn, count -> mine, new bits, completion, the whole-rack test and the
 *           value operation (first / add / read).  Values 0..30 at index ci.  Then: not
 *           mine -> to the PS (collision flag unless a resend); absorbed without new
 *           bits -> dropped; else recirculated with a bridge header carrying
 *           {vop, emit, promote, second-half index}.
 *   pass 2  values 31..61 at index ci + 2P with the carried vop (the parser puts them in
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
 * register, cells of 8/16/32 bits or pairs of 32)
 *   stateful ALUs per pass: owner_stamp (pair 2x32), bitmap (32), count (8), ecn (8),
 *   values_0..values_30 (32 each) = 35 of 48.  The dependency chain is
 *   route/pool (table) -> owner_stamp -> bitmap, ecn -> new bits (MAU) -> count and
 *   values -> output; the plan was 8 stages for the 31 value registers (32 ALU slots), which
 *   the measured placement does not reach (see COMPILE RESULT).
 *   Registers: control state 2P cells (both levels), values 4P cells (level x half).
 *   RegisterActions: owner_stamp 3 (claim, claim_resend, release), bitmap 2, count 3,
 *   ecn 3, each value register 4 (first, add, take, read); every body has at most one
 *   or two conditions (claim: owner == 0 || owner == id).
 *   Sticky saturation (4.6) in two conditions: the register's own stickiness is one
 *   unsigned compare, (value - (2^31-1)) < 3, against a PHV constant; the incoming
 *   element's stickiness is tested in the MAU (gateway) and selects `take` instead of
 *   `add` for that element, so each RegisterAction has one condition.
 *   COMPILE RESULT (bf-p4c 9.13.4): placement needs 26 stages, not 12 — the value
 *   registers go two per stage (map RAM of 4P = 80000-cell registers) after a 9-stage
 *   preamble.  This program does NOT fit Tofino 1 yet; p4src/README.md says why and what
 *   would fix it.
 *
 * Files: headers.p4 (wire format, bridge, metadata) · parser.p4 · forwarding.p4 (L2,
 * job routes, multicast groups) · aggregation.p4 (control state, values) ·
 * two_level.p4 (roles, whole-rack promotion) · egress.p4 (ECN marking) · deparser.p4.
 * The control plane, one Python class per control, is p4src/control/.
 */
#include <core.p4>
#include <tna.p4>

/* ATP_POOL_MAX: the largest pool P the registers hold.  Registers are indexed by
 * level ++ agtr (and half ++ level ++ agtr), so they hold a power of two:
 * ATP_POOL_SLOTS = 2^ATP_POOL_BITS >= ATP_POOL_MAX (p4src/control/aggregation.py's
 * pool_slots() is the same rule). */
#ifndef ATP_POOL_MAX
#define ATP_POOL_MAX 4096
#endif
#if ATP_POOL_MAX <= 4096
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

    action to_ps() {
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
        ig_tm_md.ucast_egress_port = RECIRC_PORT;
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
            /* stage 0: what this pass does.  No table is gated on a table's result
             * before the aggregator: the parser's md.kind says which pass this is, the
             * role table (two_level.p4) what the switch does with the packet, and every
             * control below is applied at one place only (a Tofino table graph has one
             * order); conditions come last, on the output. */
            md.id = hdr.atp.app_id ++ hdr.atp.seq;
            if (hdr.ipv4.ecn == 3 || hdr.atp.ecn == 1) {
                md.is_ecn = 1;
            }
            if (md.second == 0) {
                open_record();                        /* a new frame, a re-entry, or the
                                                         level-0 release of a parameter */
            }
            two_level.apply(hdr, md);
            aggregator_index.apply(hdr, md, ig_intr_md);
            if (md.second == 0) {
                hdr.bridge.level = md.level;          /* for pass 2 */
            }
            aggregator.apply(hdr, md);                /* stages 1-4: control state, pass 1 */
            aggregator_values.apply(hdr, md);         /* stages 4-11: the half in hdr.vals */
            /* stages 4-: where the frame goes */
            if (md.routed == 0) {
                drop();                               /* not a job of this switch */
            } else if (md.second == 1) {
                if (hdr.bridge.emit == 0) {
                    drop();                               /* 4.7 absorbed */
                } else if (hdr.bridge.promote == 1) {
                    rack_promotion.apply(hdr, md);        /* 8: only whole racks go up */
                    if (md.is_upper == 1) {
                        recirculate(BRIDGE_LEVEL1_ENTRY); /* the upper's internal loop */
                    } else {
                        to_ps();
                    }
                } else {
                    to_ps();
                }
            } else if (hdr.atp.ack == 1) {
                if (md.param_again == 1) {
                    recirculate(BRIDGE_PARAM_LEVEL0);
                } else {
                    to_workers();
                }
            } else if (md.op == OP_NONE) {
                if (md.unserved == 1) {
                    drop();
                } else {
                    to_ps();                              /* float mode, another rack's frame */
                }
            } else if (md.mine == 0) {
                if (hdr.atp.resend == 0) {
                    hdr.atp.collision = 1;                /* 4.3 not mine */
                }
                to_ps();
            } else {
                if (hdr.bridge.emit == 1) {
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
                    if (md.two_level == 1 && md.whole_known == 1) {
                        compare_whole();
                        if (md.whole_diff == 0) {
                            hdr.bridge.promote = 1;
                        }
                    }
                }
                if (hdr.bridge.emit == 0 && md.new_bits == 0) {
                    drop();                               /* 4.7 absorbed, nothing to add */
                } else {
                    recirculate(BRIDGE_SECOND_HALF);
                }
            }
        }
    }
}

Pipeline(IngressParser(), Ingress(), IngressDeparser(),
         EgressParser(), Egress(), EgressDeparser()) pipe;
Switch(pipe) main;
