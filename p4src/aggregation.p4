/* aggregation.p4 — the aggregator (spec sections 4 and 5).
 *
 * AggregatorState holds the control state of every aggregator of both levels at index
 * ci = level ++ agtr (level * ATP_POOL_MAX + agtr): owner and stamp (one pair register),
 * bitmap (and its twin), count, ecn.  It runs once per packet, in pass 1, and decides
 * everything: mine, new bits, completion, what the value registers do (hdr.bridge.vop).
 * AggregatorValues holds the 62 values as 31 registers at vi = half ++ level ++ agtr:
 * values 0..30 of an aggregator in half 0, values 31..61 in half 1; it runs once per
 * pass on the half the parser put into hdr.vals.
 *
 * Stage by stage (pass 1): 0 role, route, pool bound and clock (two_level.p4,
 * forwarding.p4, AggregatorIndex) · 1 owner_stamp (the ownership table hashes
 * level ++ agtr itself) · 2 bitmap, bitmap_twin, ecn · 3 count, the value operation,
 * merged · 4.. the 31 value registers, four per stage. */
#ifndef ATP_AGGREGATION_P4
#define ATP_AGGREGATION_P4

struct owner_stamp_t {
    bit<32> owner;   /* app_id << 16 | seq of the owner, 0 = free */
    bit<32> stamp;   /* switch time (ns, low 32 bits) of the last packet that was mine */
}

/* The pool bound and the clock, in stage 0: md.room = P |-| agtr (0 <=> agtr >= P, an
 * agtr outside the pool, 4.3 and 5); md.clock: the switch time for a gradient packet
 * (its stamp), the time minus aggregator_timeout for a parameter packet (the leak test),
 * so that owner_stamp needs two PHV inputs only (id, clock).  One entry per value of ack
 * from the control plane (p4src/control/aggregation.py); without entries every agtr is
 * outside the pool.  minus_timeout = 2^32 - timeout: an action-data operand can be
 * added on Tofino, not subtracted.  Then (stage 1) the register indexes. */
control AggregatorIndex(inout headers_t hdr, inout ingress_md_t md,
                        in ingress_intrinsic_metadata_t ig_intr_md) {
    Hash<bit<ATP_CI_BITS>>(HashAlgorithm_t.IDENTITY) ci_hash;
    Hash<bit<ATP_VI_BITS>>(HashAlgorithm_t.IDENTITY) vi_hash;

    action set_pool(bit<16> pool, bit<32> minus_timeout) {
#ifdef ATP_RELEASE
        md.room = ATP_RELEASE_BOUND |-| hdr.atp.agtr;   /* 9.11: the registers, not P */
#else
        md.room = pool |-| hdr.atp.agtr;
#endif
        md.clock = ig_intr_md.ingress_mac_tstamp[31:0] + minus_timeout;
    }

    /* P = 65536: every agtr is inside */
    action whole_space_pool(bit<32> minus_timeout) {
#ifdef ATP_RELEASE
        md.room = ATP_RELEASE_BOUND |-| hdr.atp.agtr;   /* 9.11 */
#else
        md.room = 1;
#endif
        md.clock = ig_intr_md.ingress_mac_tstamp[31:0] + minus_timeout;
    }

    action outside_pool() {
        md.room = 0;
    }

    @stage(0)
    table pool_index {
        key = { hdr.atp.ack : exact; }
        actions = { set_pool; whole_space_pool; outside_pool; }
        default_action = outside_pool();
        size = 2;
    }

    action set_indexes() {
        md.ci = ci_hash.get({md.level[0:0], hdr.atp.agtr[ATP_AGTR_HI:0]});
        md.vi = vi_hash.get({md.second[0:0], md.level[0:0], hdr.atp.agtr[ATP_AGTR_HI:0]});
    }

    apply {
        pool_index.apply();
        set_indexes();
    }
}

control AggregatorState(inout headers_t hdr, inout ingress_md_t md) {
    Hash<bit<ATP_CI_BITS>>(HashAlgorithm_t.IDENTITY) owner_index;

    Register<owner_stamp_t, bit<ATP_CI_BITS>>(ATP_CONTROL_CELLS) owner_stamp;
    Register<bit<32>, bit<ATP_CI_BITS>>(ATP_CONTROL_CELLS) bitmap;
    /* The bitmap's twin: the same bits, written by the same packets in the same stage.
     * A stateful ALU returns one word; bitmap returns prev (for merged and the
     * first-arrival test), the twin returns new = b & ~prev, so that count and the value
     * operation need no stage of their own to compute it (4.4). */
    Register<bit<32>, bit<ATP_CI_BITS>>(ATP_CONTROL_CELLS) bitmap_twin;
    Register<bit<8>, bit<ATP_CI_BITS>>(ATP_CONTROL_CELLS) count;
    Register<bit<8>, bit<ATP_CI_BITS>>(ATP_CONTROL_CELLS) ecn;

    /* 4.3, not a resend: mine if free (then taken) or already mine */
    RegisterAction<owner_stamp_t, bit<ATP_CI_BITS>, bit<8>>(owner_stamp) claim = {
        void apply(inout owner_stamp_t c, out bit<8> rv) {
            if (c.owner == 0 || c.owner == md.id) {
                c.owner = md.id;
                c.stamp = md.clock;
                rv = 1;
            } else {
                rv = 0;
            }
        }
    };
    /* 4.3, a resend: mine only if owned, and then released */
    RegisterAction<owner_stamp_t, bit<ATP_CI_BITS>, bit<8>>(owner_stamp) claim_resend = {
        void apply(inout owner_stamp_t c, out bit<8> rv) {
            if (c.owner == md.id) {
                c.owner = 0;
                c.stamp = md.clock;
                rv = 1;
            } else {
                rv = 0;
            }
        }
    };
    /* section 5: a parameter packet releases its own aggregator, and (profile spec) one
     * whose owner went silent for longer than aggregator_timeout.  The age test is
     * (int<32>)(clock - stamp) > 0 with clock = now - timeout, exact while the age is below timeout + 2^31
     * ns.  A free aggregator "released" again changes nothing: owner 0 implies
     * bitmap, count and ecn 0 under the spec profile. */
    RegisterAction<owner_stamp_t, bit<ATP_CI_BITS>, bit<8>>(owner_stamp) release = {
        void apply(inout owner_stamp_t c, out bit<8> rv) {
#ifdef ATP_RELEASE
            if (c.owner == md.id) {
#else
            if (c.owner == md.id || (int<32>)(md.clock - c.stamp) > 0) {
#endif
                c.owner = 0;
                rv = 1;
            } else {
                rv = 0;
            }
        }
    };

    action own() {
        md.mine = claim.execute(owner_index.get({md.level[0:0], hdr.atp.agtr[ATP_AGTR_HI:0]}));
    }

    action own_resend() {
        md.mine = claim_resend.execute(
            owner_index.get({md.level[0:0], hdr.atp.agtr[ATP_AGTR_HI:0]}));
    }

    action release_own() {
        md.released = release.execute(
            owner_index.get({md.level[0:0], hdr.atp.agtr[ATP_AGTR_HI:0]}));
    }

    /* 4.3 and 5 in one lookup: an agtr outside the pool (room 0) touches nothing and is
     * not mine; else the role's operation picks the RegisterAction. */
    @stage(1)
    table ownership {
        key = {
            md.op          : exact;
            hdr.atp.resend : exact;
            md.room        : ternary;
        }
        actions = { own; own_resend; release_own; NoAction; }
        const entries = {
            (OP_GRADIENT, 0, 0) : NoAction();
            (OP_GRADIENT, 1, 0) : NoAction();
            (OP_PARAM, 0, 0) : NoAction();
            (OP_PARAM, 1, 0) : NoAction();
            (OP_GRADIENT, 0, _) : own();
            (OP_GRADIENT, 1, _) : own_resend();
            (OP_PARAM, 0, _) : release_own();
            (OP_PARAM, 1, _) : release_own();
        }
        default_action = NoAction();
        size = 8;
    }

    RegisterAction<bit<32>, bit<ATP_CI_BITS>, bit<32>>(bitmap) bitmap_merge = {
        void apply(inout bit<32> value, out bit<32> rv) {
            rv = value;
            value = value | md.b;
        }
    };
    RegisterAction<bit<32>, bit<ATP_CI_BITS>, bit<32>>(bitmap) bitmap_flush = {
        void apply(inout bit<32> value, out bit<32> rv) {
            rv = value;
            value = 0;
        }
    };

    RegisterAction<bit<32>, bit<ATP_CI_BITS>, bit<32>>(bitmap_twin) twin_merge = {
        void apply(inout bit<32> value, out bit<32> rv) {
            rv = md.b & ~value;
            value = value | md.b;
        }
    };
    RegisterAction<bit<32>, bit<ATP_CI_BITS>, bit<32>>(bitmap_twin) twin_flush = {
        void apply(inout bit<32> value, out bit<32> rv) {
            rv = md.b & ~value;
            value = 0;
        }
    };

    RegisterAction<bit<8>, bit<ATP_CI_BITS>, bit<8>>(count) count_bump = {
        void apply(inout bit<8> value, out bit<8> rv) {
            value = value + 1;
            rv = value;
        }
    };
    RegisterAction<bit<8>, bit<ATP_CI_BITS>, bit<8>>(count) count_peek = {
        void apply(inout bit<8> value, out bit<8> rv) {
            rv = value;
        }
    };
    RegisterAction<bit<8>, bit<ATP_CI_BITS>, bit<8>>(count) count_zero = {
        void apply(inout bit<8> value, out bit<8> rv) {
            value = 0;
            rv = 0;
        }
    };

    /* 4.4: the register's value before this packet comes out; the packet's own mark is
     * or-ed in by the MAU (spec) or not (release deviation 9.9) */
    RegisterAction<bit<8>, bit<ATP_CI_BITS>, bit<8>>(ecn) ecn_mark = {
        void apply(inout bit<8> value, out bit<8> rv) {
            rv = value;
            value = value | md.is_ecn;
        }
    };
    /* a resend flush ends the aggregation: its mark leaves with the flushed packet (spec
     * 4.4); the release keeps it for the next owner (deviation 9.8) */
    RegisterAction<bit<8>, bit<ATP_CI_BITS>, bit<8>>(ecn) ecn_flush = {
        void apply(inout bit<8> value, out bit<8> rv) {
            rv = value;
#ifdef ATP_RELEASE
            value = value | md.is_ecn;
#else
            value = 0;
#endif
        }
    };
    RegisterAction<bit<8>, bit<ATP_CI_BITS>, bit<8>>(ecn) ecn_clear = {
        void apply(inout bit<8> value, out bit<8> rv) {
            value = 0;
            rv = 0;
        }
    };

    /* Stage 2: bitmap, its twin and ecn, each one table keyed by the ownership result
     * (mine / released) and resend; no gateway, so nothing waits for a condition. */
    action bitmap_merge_op() { md.prev = bitmap_merge.execute(md.ci); }
    action bitmap_flush_op() { md.prev = bitmap_flush.execute(md.ci); }
    action bitmap_clear_op() { bitmap_flush.execute(md.ci); }

    @stage(2)
    table bitmap_update {
        key = { md.mine : exact; md.released : exact; hdr.atp.resend : exact; }
        actions = { bitmap_merge_op; bitmap_flush_op; bitmap_clear_op; NoAction; }
        const entries = {
            (1, 0, 0) : bitmap_merge_op();
            (1, 0, 1) : bitmap_flush_op();
            (0, 1, 0) : bitmap_clear_op();
            (0, 1, 1) : bitmap_clear_op();
        }
        default_action = NoAction();
        size = 4;
    }

    action twin_merge_op() { md.new_bits = twin_merge.execute(md.ci); }
    action twin_flush_op() { md.new_bits = twin_flush.execute(md.ci); }
    action twin_clear_op() { twin_flush.execute(md.ci); }

    @stage(2)
    table twin_update {
        key = { md.mine : exact; md.released : exact; hdr.atp.resend : exact; }
        actions = { twin_merge_op; twin_flush_op; twin_clear_op; NoAction; }
        const entries = {
            (1, 0, 0) : twin_merge_op();
            (1, 0, 1) : twin_flush_op();
            (0, 1, 0) : twin_clear_op();
            (0, 1, 1) : twin_clear_op();
        }
        default_action = NoAction();
        size = 4;
    }

    action ecn_mark_op() { md.ecn_old = ecn_mark.execute(md.ci); }
    action ecn_flush_op() { md.ecn_old = ecn_flush.execute(md.ci); }
    action ecn_clear_op() { ecn_clear.execute(md.ci); }

    @stage(2)
    table ecn_update {
        key = { md.mine : exact; md.released : exact; hdr.atp.resend : exact; }
        actions = { ecn_mark_op; ecn_flush_op; ecn_clear_op; NoAction; }
        const entries = {
            (1, 0, 0) : ecn_mark_op();
            (1, 0, 1) : ecn_flush_op();
            (0, 1, 0) : ecn_clear_op();
            (0, 1, 1) : ecn_clear_op();
        }
        default_action = NoAction();
        size = 4;
    }

    /* Stage 3: 4.5 count (a resend or a release zeroes it, new bits bump it, a
     * duplicate only reads it) */
    action count_bump_op() { md.count = count_bump.execute(md.ci); }
    action count_peek_op() { md.count = count_peek.execute(md.ci); }
    action count_zero_op() { count_zero.execute(md.ci); }

    @stage(3)
    table count_update {
        key = {
            md.mine        : exact;
            md.released    : exact;
            hdr.atp.resend : ternary;
            md.new_bits    : ternary;
        }
        actions = { count_bump_op; count_peek_op; count_zero_op; NoAction; }
        const entries = {
            (1, 0, 1, _) : count_zero_op();
            (1, 0, 0, 0) : count_peek_op();
            (1, 0, 0, _) : count_bump_op();
            (0, 1, _, _) : count_zero_op();
        }
        default_action = NoAction();
        size = 4;
    }

    action set_vop(bit<8> vop) {
        hdr.bridge.vop = vop;
    }

    /* 4.6: what the value registers do, from prev and new (stage 3).  A first arrival
     * (prev == 0) overwrites, later ones add, a packet without new bits reads. */
    @stage(3) @placement_priority(1)
    table value_operation {
        key = {
            md.mine        : exact;
            md.new_bits    : ternary;
            md.prev        : ternary;
            hdr.atp.resend : ternary;
            md.n           : ternary;
        }
        actions = { set_vop; NoAction; }
        const entries = {
            (1, 0, _, _, _) : set_vop(VOP_READ);
#ifdef ATP_RELEASE
            /* 9.1: a first arrival that also completes adds to stale values; with
             * prev == 0 the count was 0, so it completes iff it is a resend or fan_in
             * is 1 */
            (1, _, 0, 1, _) : set_vop(VOP_ADD);
            (1, _, 0, _, 1) : set_vop(VOP_ADD);
#endif
            (1, _, 0, _, _) : set_vop(VOP_FIRST);
            (1, _, _, _, _) : set_vop(VOP_ADD);
        }
        default_action = NoAction();
        size = 8;
    }

    /* 4.4 */
    action merge_bits() {
        md.merged = md.b | md.prev;
    }

    apply {
        ownership.apply();                            /* stage 1 */
        bitmap_update.apply();                        /* stage 2 */
        twin_update.apply();
        ecn_update.apply();
        merge_bits();                                 /* stage 3 */
        value_operation.apply();
        count_update.apply();
        if (md.mine == 1) {                           /* stage 4 */
            if (hdr.atp.resend == 1) {
                hdr.bridge.emit = 1;                  /* 4.5: a resend flushes */
            } else if (md.count == md.n) {
                hdr.bridge.emit = 1;                  /* 4.5 complete, 4.7 asked again */
            }
        }
    }
}

/* 4.6 on one element: `first` overwrites; `add` is the sticky saturating add when the
 * incoming element is not sticky, `take` when it is (the value table's key tests the
 * incoming element and picks one; the register's own stickiness is the one condition
 * inside); `read` reads the aggregate.  sticky(x) <=> x in {2^31-1, -2^31, -(2^31-1)}
 * <=> (bit<32>)(x - (2^31-1)) < 3.  One table per register, its key the operation
 * (hdr.bridge.vop) and the incoming element: no gateway, one logical table each. */
#define ATP_VALUE_REGISTER(i, st)                                                       \
    Register<int<32>, bit<ATP_VI_BITS>>(ATP_VALUE_CELLS) values_##i;                    \
    RegisterAction<int<32>, bit<ATP_VI_BITS>, int<32>>(values_##i) first_##i = {        \
        void apply(inout int<32> value, out int<32> rv) {                               \
            value = (int<32>)hdr.vals.v##i;                                             \
            rv = value;                                                                 \
        }                                                                               \
    };                                                                                  \
    RegisterAction<int<32>, bit<ATP_VI_BITS>, int<32>>(values_##i) add_##i = {          \
        void apply(inout int<32> value, out int<32> rv) {                               \
            if ((bit<32>)(value - md.sticky_base) >= 3) {                               \
                value = value |+| (int<32>)hdr.vals.v##i;                               \
            }                                                                           \
            rv = value;                                                                 \
        }                                                                               \
    };                                                                                  \
    RegisterAction<int<32>, bit<ATP_VI_BITS>, int<32>>(values_##i) take_##i = {         \
        void apply(inout int<32> value, out int<32> rv) {                               \
            if ((bit<32>)(value - md.sticky_base) >= 3) {                               \
                value = (int<32>)hdr.vals.v##i;                                         \
            }                                                                           \
            rv = value;                                                                 \
        }                                                                               \
    };                                                                                  \
    RegisterAction<int<32>, bit<ATP_VI_BITS>, int<32>>(values_##i) read_##i = {         \
        void apply(inout int<32> value, out int<32> rv) {                               \
            rv = value;                                                                 \
        }                                                                               \
    };                                                                                  \
    action do_first_##i() { hdr.vals.v##i = (bit<32>)first_##i.execute(md.vi); }        \
    action do_add_##i() { hdr.vals.v##i = (bit<32>)add_##i.execute(md.vi); }            \
    action do_take_##i() { hdr.vals.v##i = (bit<32>)take_##i.execute(md.vi); }          \
    action do_read_##i() { hdr.vals.v##i = (bit<32>)read_##i.execute(md.vi); }          \
    @stage(st) @placement_priority(1)                                                   \
    table value_##i {                                                                   \
        key = {                                                                         \
            hdr.bridge.vop : exact;                                                     \
            hdr.vals.v##i  : ternary;                                                   \
        }                                                                               \
        actions = { do_first_##i; do_add_##i; do_take_##i; do_read_##i; NoAction; }     \
        const entries = {                                                               \
            (VOP_FIRST, _) : do_first_##i();                                            \
            (VOP_ADD, 0x7fffffff) : do_take_##i();                                      \
            (VOP_ADD, 0x80000000) : do_take_##i();                                      \
            (VOP_ADD, 0x80000001) : do_take_##i();                                      \
            (VOP_ADD, _) : do_add_##i();                                                \
            (VOP_READ, _) : do_read_##i();                                              \
        }                                                                               \
        default_action = NoAction();                                                    \
        size = 8;                                                                       \
    }

#define ATP_VALUE_APPLY(i, st) value_##i.apply();

/* four value registers per stage, stages 4..11 (the stateful ALUs of a stage) */
#define ATP_FOR_HALF(M) \
    M(0, 4)   M(1, 4)   M(2, 4)   M(3, 4)   M(4, 5)   M(5, 5)   M(6, 5)   M(7, 5)   \
    M(8, 6)   M(9, 6)   M(10, 6)  M(11, 6)  M(12, 7)  M(13, 7)  M(14, 7)  M(15, 7)  \
    M(16, 8)  M(17, 8)  M(18, 8)  M(19, 8)  M(20, 9)  M(21, 9)  M(22, 9)  M(23, 9)  \
    M(24, 10) M(25, 10) M(26, 10) M(27, 10) M(28, 11) M(29, 11) M(30, 11)

control AggregatorValues(inout headers_t hdr, inout ingress_md_t md) {
    ATP_FOR_HALF(ATP_VALUE_REGISTER)

    apply {
        ATP_FOR_HALF(ATP_VALUE_APPLY)
    }
}

#endif
