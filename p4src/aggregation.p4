/* aggregation.p4 — the aggregator (spec sections 4 and 5).
 *
 * AggregatorState holds the control state of every aggregator of both levels at index
 * ci = agtr + level * P: owner and stamp (one pair register), bitmap, count, ecn.  It
 * runs once per packet, in pass 1, and decides everything: mine, new bits, completion,
 * what the value registers do (hdr.bridge.vop).  AggregatorValues holds the 62 values as 31
 * registers: values 0..30 of aggregator ci at index ci, values 31..61 at ci + 2P; it runs
 * once per pass on the half the parser put into hdr.vals. */
#ifndef ATP_AGGREGATION_P4
#define ATP_AGGREGATION_P4

struct owner_stamp_t {
    bit<32> owner;   /* app_id << 16 | seq of the owner, 0 = free */
    bit<32> stamp;   /* switch time (ns, low 32 bits) of the last packet that was mine */
}

/* Where an aggregator lives: ci = agtr + level * P in the control registers, and
 * vi = agtr + (level + 2 * half) * P in the value registers; whether agtr is inside the
 * pool at all; md.clock: the switch time for a gradient packet (its stamp), the time
 * minus aggregator_timeout for a parameter packet (the leak test), so that owner_stamp
 * needs two PHV inputs only (id, clock).  One entry per (level, half, ack) from the
 * control plane
 * (p4src/control/aggregation.py); the default (no entry) puts every agtr outside the
 * pool.  minus_* = 2^32 - x: an action-data operand can be added on Tofino, not
 * subtracted. */
control AggregatorIndex(inout headers_t hdr, inout ingress_md_t md) {
    action set_index(bit<32> ci_base, bit<32> vi_base, bit<32> minus_pool,
                     bit<32> minus_timeout) {
        md.ci = md.agtr + ci_base;
        md.vi = md.agtr + vi_base;
        md.over = md.agtr + minus_pool;
        md.clock = md.now + minus_timeout;
    }

    action outside_pool() {
        md.over = 0;
    }

    table pool_index {
        key = {
            md.level       : exact;
            md.second      : exact;
            hdr.atp.ack    : exact;
        }
        actions = { set_index; outside_pool; }
        default_action = outside_pool();
        size = 8;
    }

    apply {
        pool_index.apply();
    }
}

control AggregatorState(inout headers_t hdr, inout ingress_md_t md) {
    /* 4.4: an action (a table of its own), so that the compiler tests its result in the
     * next stage instead of folding the expression into a gateway condition */
    action merge_bits() {
        md.new_bits = md.b & ~md.prev;
        md.merged = md.b | md.prev;
    }

    Register<owner_stamp_t, bit<32>>(ATP_CONTROL_CELLS) owner_stamp;
    Register<bit<32>, bit<32>>(ATP_CONTROL_CELLS) bitmap;
    Register<bit<8>, bit<32>>(ATP_CONTROL_CELLS) count;
    Register<bit<8>, bit<32>>(ATP_CONTROL_CELLS) ecn;

    /* 4.3, not a resend: mine if free (then taken) or already mine */
    RegisterAction<owner_stamp_t, bit<32>, bit<8>>(owner_stamp) claim = {
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
    RegisterAction<owner_stamp_t, bit<32>, bit<8>>(owner_stamp) claim_resend = {
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
    RegisterAction<owner_stamp_t, bit<32>, bit<8>>(owner_stamp) release = {
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

    RegisterAction<bit<32>, bit<32>, bit<32>>(bitmap) bitmap_merge = {
        void apply(inout bit<32> value, out bit<32> rv) {
            rv = value;
            value = value | md.b;
        }
    };
    RegisterAction<bit<32>, bit<32>, bit<32>>(bitmap) bitmap_flush = {
        void apply(inout bit<32> value, out bit<32> rv) {
            rv = value;
            value = 0;
        }
    };

    RegisterAction<bit<8>, bit<32>, bit<8>>(count) count_bump = {
        void apply(inout bit<8> value, out bit<8> rv) {
            value = value + 1;
            rv = value;
        }
    };
    RegisterAction<bit<8>, bit<32>, bit<8>>(count) count_peek = {
        void apply(inout bit<8> value, out bit<8> rv) {
            rv = value;
        }
    };
    RegisterAction<bit<8>, bit<32>, bit<8>>(count) count_zero = {
        void apply(inout bit<8> value, out bit<8> rv) {
            value = 0;
            rv = 0;
        }
    };

    /* 4.4: the register's value before this packet comes out; the packet's own mark is
     * or-ed in by the MAU (spec) or not (release deviation 9.9) */
    RegisterAction<bit<8>, bit<32>, bit<8>>(ecn) ecn_mark = {
        void apply(inout bit<8> value, out bit<8> rv) {
            rv = value;
            value = value | md.is_ecn;
        }
    };
    /* a resend flush ends the aggregation: its mark leaves with the flushed packet (spec
     * 4.4); the release keeps it for the next owner (deviation 9.8) */
    RegisterAction<bit<8>, bit<32>, bit<8>>(ecn) ecn_flush = {
        void apply(inout bit<8> value, out bit<8> rv) {
            rv = value;
#ifdef ATP_RELEASE
            value = value | md.is_ecn;
#else
            value = 0;
#endif
        }
    };
    RegisterAction<bit<8>, bit<32>, bit<8>>(ecn) ecn_clear = {
        void apply(inout bit<8> value, out bit<8> rv) {
            value = 0;
            rv = 0;
        }
    };

    apply {
        if (md.over[31:31] == 0) {
            /* bit 31 of agtr - P clear: agtr >= P is never an index (4.3, 5): not mine, no state */
            md.mine = 0;
            md.released = 0;
        } else if (hdr.atp.ack == 1) {
            md.released = release.execute(md.ci);
            if (md.released == 1) {
                bitmap_flush.execute(md.ci);
                count_zero.execute(md.ci);
                ecn_clear.execute(md.ci);
            }
        } else {
            if (hdr.atp.resend == 0) {
                md.mine = claim.execute(md.ci);
            } else {
                md.mine = claim_resend.execute(md.ci);
            }
            if (md.mine == 1) {
                if (hdr.atp.resend == 0) {
                    md.prev = bitmap_merge.execute(md.ci);
                    md.ecn_old = ecn_mark.execute(md.ci);
                } else {
                    md.prev = bitmap_flush.execute(md.ci);
                    md.ecn_old = ecn_flush.execute(md.ci);
                }
                merge_bits();
                if (hdr.atp.resend == 1) {
                    count_zero.execute(md.ci);        /* 4.5: a resend flushes */
                    hdr.bridge.emit = 1;
                } else {
                    if (md.new_bits != 0) {
                        md.count = count_bump.execute(md.ci);
                    } else {
                        md.count = count_peek.execute(md.ci);
                    }
                    if (md.count == md.n) {           /* 4.5 complete, 4.7 asked again */
                        hdr.bridge.emit = 1;
                    }
                }
                if (md.new_bits != 0) {
#ifdef ATP_RELEASE
                    /* 9.1: a first arrival that also completes adds to stale values;
                     * with prev == 0 the count was 0, so it completes iff it is a
                     * resend or fan_in is 1 */
                    if (md.prev == 0 && hdr.atp.resend == 0 && md.n != 1) {
#else
                    if (md.prev == 0) {
#endif
                        hdr.bridge.vop = VOP_FIRST;
                    } else {
                        hdr.bridge.vop = VOP_ADD;
                    }
                } else {
                    hdr.bridge.vop = VOP_READ;
                }
            }
        }
    }
}

/* 4.6 on one element: `first` overwrites; `add` is the sticky saturating add when the
 * incoming element is not sticky, `take` when it is (the MAU tests the incoming element
 * and picks one; the register's own stickiness is the one condition inside); `read`
 * reads the aggregate.  sticky(x) <=> x in {2^31-1, -2^31, -(2^31-1)}
 * <=> (bit<32>)(x - (2^31-1)) < 3. */
#define ATP_VALUE_REGISTER(i)                                                           \
    Register<int<32>, bit<32>>(ATP_VALUE_CELLS) values_##i;                             \
    RegisterAction<int<32>, bit<32>, int<32>>(values_##i) first_##i = {                 \
        void apply(inout int<32> value, out int<32> rv) {                               \
            value = hdr.vals.v##i;                                                      \
            rv = value;                                                                 \
        }                                                                               \
    };                                                                                  \
    RegisterAction<int<32>, bit<32>, int<32>>(values_##i) add_##i = {                   \
        void apply(inout int<32> value, out int<32> rv) {                               \
            if ((bit<32>)(value - md.sticky_base) >= 3) {                               \
                value = value |+| hdr.vals.v##i;                                        \
            }                                                                           \
            rv = value;                                                                 \
        }                                                                               \
    };                                                                                  \
    RegisterAction<int<32>, bit<32>, int<32>>(values_##i) take_##i = {                  \
        void apply(inout int<32> value, out int<32> rv) {                               \
            if ((bit<32>)(value - md.sticky_base) >= 3) {                               \
                value = hdr.vals.v##i;                                                  \
            }                                                                           \
            rv = value;                                                                 \
        }                                                                               \
    };                                                                                  \
    RegisterAction<int<32>, bit<32>, int<32>>(values_##i) read_##i = {                  \
        void apply(inout int<32> value, out int<32> rv) {                               \
            rv = value;                                                                 \
        }                                                                               \
    };

#define ATP_VALUE_APPLY(i)                                                              \
    if (hdr.bridge.vop == VOP_FIRST) {                                                          \
        hdr.vals.v##i = first_##i.execute(md.vi);                                       \
    } else if (hdr.bridge.vop == VOP_ADD) {                                                     \
        if ((bit<32>)hdr.vals.v##i == 0x7fffffff || (bit<32>)hdr.vals.v##i == 0x80000000 \
                || (bit<32>)hdr.vals.v##i == 0x80000001) {                              \
            hdr.vals.v##i = take_##i.execute(md.vi);                                    \
        } else {                                                                        \
            hdr.vals.v##i = add_##i.execute(md.vi);                                     \
        }                                                                               \
    } else if (hdr.bridge.vop == VOP_READ) {                                                    \
        hdr.vals.v##i = read_##i.execute(md.vi);                                        \
    }

#define ATP_FOR_HALF(M) \
    M(0)  M(1)  M(2)  M(3)  M(4)  M(5)  M(6)  M(7)  M(8)  M(9)  M(10) M(11) M(12) \
    M(13) M(14) M(15) M(16) M(17) M(18) M(19) M(20) M(21) M(22) M(23) M(24) M(25) \
    M(26) M(27) M(28) M(29) M(30)

control AggregatorValues(inout headers_t hdr, inout ingress_md_t md) {
    ATP_FOR_HALF(ATP_VALUE_REGISTER)

    apply {
        ATP_FOR_HALF(ATP_VALUE_APPLY)
    }
}

#endif
