"""Spec sections 4 and 5 (and 9.1, 9.4): the switch, one test per numbered rule.

Inputs are built with the model's encoder (pinned to the spec table in test_wire.py);
outputs are parsed by hand (reference_helpers.parse) and compared with values written here from
the spec. Job 1 / ps_index 0: PS on port 9, workers on ports 1, 2, 3.
"""

from __future__ import annotations

import pytest

from reference_helpers import (
    ACK, COLLISION, ECN, I32_MAX, I32_MIN, MCAST, OVERFLOW, PS_MAC, PS_PORT, RESEND,
    config, frame, parse, vals,
)
from reference.control_plane import JobRoute
from reference.profiles import ATP_RELEASE, SPEC
from reference.switch import SwitchModel

AG = 5                      # the aggregator index every test uses
ID_1_1 = 1 << 16 | 1        # owner word of app 1 seq 1
ID_2_1 = 2 << 16 | 1


def switch(profile=SPEC, **kw):
    return SwitchModel(config(**kw), profile)


def reg(sw, index=AG, level=0):
    return sw.read_aggregators([index], level)[index]


def expect_emitted(out, src_frame, **changes):
    """Exactly one frame, to the PS port, equal to ``src_frame`` with ``changes``."""
    assert len(out) == 1, out
    port, data = out[0]
    assert port == PS_PORT
    got = parse(data)
    want = parse(src_frame)
    for name, value in changes.items():
        if name == "values":
            value = [int(v) for v in (vals(*value) if isinstance(value, tuple) else value)]
        want[name] = value
    want["flags"] = (want["overflow"] << 7 | want["ps_index"] << 5 | want["data_index"] << 4
                     | want["ecn"] << 3 | want["resend"] << 2 | want["collision"] << 1
                     | want["ack"])
    assert got == want
    return got


# ---------------------------------------------------------------- 4.1 is_ecn ---------

@pytest.mark.rule("4.1")
def test_4_1_ecn_from_ipv4_ce():
    sw = switch()
    f = frame(bitmap=1, fan_in=1, values=vals(4), ipv4_ecn=3)
    expect_emitted(sw.process(1, f, now=1), f, ecn=1, values=(4,))
    assert reg(sw).ecn == 1


@pytest.mark.rule("4.1")
def test_4_1_ecn_from_flag():
    sw = switch()
    f = frame(bitmap=1, fan_in=1, values=vals(4), flags=ECN)
    expect_emitted(sw.process(1, f, now=1), f, ecn=1, values=(4,))
    assert reg(sw).ecn == 1


@pytest.mark.rule("4.1")
@pytest.mark.parametrize("ipv4_ecn", [0, 1, 2])
def test_4_1_ipv4_ecn_other_than_3_is_not_congestion(ipv4_ecn):
    sw = switch()
    f = frame(bitmap=1, fan_in=1, values=vals(4), ipv4_ecn=ipv4_ecn)
    expect_emitted(sw.process(1, f, now=1), f, ecn=0, values=(4,))
    assert reg(sw).ecn == 0


# ---------------------------------------------------------------- 4.2 float mode -----

@pytest.mark.rule("4.2")
def test_4_2_float_packet_on_free_aggregator_passes_without_state():
    sw = switch()
    f = frame(bitmap=1, fan_in=2, flags=OVERFLOW, values=vals(0x3F800000))
    assert sw.process(1, f, now=5) == [(PS_PORT, f)]
    assert reg(sw) == reg(switch())          # still all zero: nothing read or written
    assert sw.snapshot() == {"level0": {}, "level1": {}}


@pytest.mark.rule("4.2")
def test_4_2_float_packet_does_not_touch_owned_aggregator():
    sw = switch()
    sw.process(1, frame(bitmap=1, fan_in=2, values=vals(7)), now=10)
    before = reg(sw)
    for flags in (OVERFLOW, OVERFLOW | RESEND, OVERFLOW | ECN):
        f = frame(bitmap=2, fan_in=2, flags=flags, values=vals(0x40000000))
        assert sw.process(2, f, now=99) == [(PS_PORT, f)]   # unchanged, no collision
    assert reg(sw) == before
    assert before.owner == ID_1_1 and before.bitmap == 1 and before.count == 1
    assert before.stamp == 10 and before.values[0] == 7


# ---------------------------------------------------------------- 4.3 ownership ------

@pytest.mark.rule("4.3")
def test_4_3_free_aggregator_is_taken():
    sw = switch()
    assert sw.process(1, frame(bitmap=1, fan_in=2), now=1) == []
    assert reg(sw).owner == ID_1_1


@pytest.mark.rule("4.3")
def test_4_3_owner_matches_is_mine():
    sw = switch()
    sw.process(1, frame(bitmap=1, fan_in=3, values=vals(1)), now=1)
    assert sw.process(2, frame(bitmap=2, fan_in=3, values=vals(2)), now=2) == []
    r = reg(sw)
    assert (r.owner, r.bitmap, r.count, r.values[0]) == (ID_1_1, 3, 2, 3)


@pytest.mark.rule("4.3")
def test_4_3_other_owner_forwards_with_collision_flag():
    sw = switch()
    sw.process(1, frame(bitmap=1, fan_in=2, values=vals(1)), now=1)
    before = reg(sw)
    f = frame(app_id=2, bitmap=1, fan_in=1, values=vals(50), key=99)
    expect_emitted(sw.process(3, f, now=2), f, collision=1)   # values/bitmap untouched
    assert reg(sw) == before                                  # owner, stamp unchanged


@pytest.mark.rule("4.3")
def test_4_3_same_job_other_seq_is_not_mine():
    sw = switch()
    sw.process(1, frame(seq=1, bitmap=1, fan_in=2), now=1)
    f = frame(seq=17, bitmap=1, fan_in=2, values=vals(3))    # seq + S, same aggregator
    expect_emitted(sw.process(1, f, now=2), f, collision=1)
    assert reg(sw).owner == ID_1_1


@pytest.mark.rule("4.3")
def test_4_3_resend_not_owned_passes_unchanged_without_collision():
    sw = switch()
    sw.process(1, frame(app_id=2, bitmap=1, fan_in=2), now=1)
    before = reg(sw)
    f = frame(bitmap=1, fan_in=2, flags=RESEND, values=vals(8))
    assert sw.process(1, f, now=2) == [(PS_PORT, f)]
    assert reg(sw) == before and before.owner == ID_2_1


@pytest.mark.rule("4.3")
def test_4_3_resend_on_free_aggregator_does_not_take_it():
    sw = switch()
    f = frame(bitmap=1, fan_in=2, flags=RESEND, values=vals(8))
    assert sw.process(1, f, now=2) == [(PS_PORT, f)]
    r = reg(sw)
    assert (r.owner, r.bitmap, r.count, r.stamp) == (0, 0, 0, 0)


@pytest.mark.rule("4.3")
def test_4_3_owned_resend_releases():
    sw = switch()
    sw.process(1, frame(bitmap=1, fan_in=3, values=vals(1)), now=1)
    f = frame(bitmap=2, fan_in=3, flags=RESEND, values=vals(2))
    expect_emitted(sw.process(2, f, now=2), f, bitmap=3, values=(3,))
    r = reg(sw)
    assert (r.owner, r.bitmap, r.count) == (0, 0, 0)
    assert sw.occupied == 0
    # released: another job may take it now
    assert sw.process(3, frame(app_id=2, bitmap=1, fan_in=2), now=3) == []
    assert reg(sw).owner == ID_2_1


# ---------------------------------------------------------------- 4.4 stamp/bitmap/ecn

@pytest.mark.rule("4.4")
def test_4_4_stamp_only_on_mine():
    sw = switch()
    sw.process(1, frame(bitmap=1, fan_in=3), now=1000)
    assert reg(sw).stamp == 1000
    sw.process(1, frame(bitmap=1, fan_in=3), now=2000)       # duplicate, still mine
    assert reg(sw).stamp == 2000
    sw.process(1, frame(app_id=2, bitmap=1, fan_in=3), now=3000)   # not mine
    assert reg(sw).stamp == 2000
    sw.process(1, frame(bitmap=1, fan_in=3, flags=OVERFLOW), now=4000)  # float
    assert reg(sw).stamp == 2000


@pytest.mark.rule("4.4")
def test_4_4_bitmap_merges_and_resend_clears_it():
    sw = switch()
    sw.process(1, frame(bitmap=0b001, fan_in=3), now=1)
    assert reg(sw).bitmap == 0b001
    sw.process(1, frame(bitmap=0b100, fan_in=3), now=2)
    assert reg(sw).bitmap == 0b101
    sw.process(1, frame(bitmap=0b001, fan_in=3), now=3)       # duplicate: no change
    assert reg(sw).bitmap == 0b101
    f = frame(bitmap=0b010, fan_in=3, flags=RESEND)
    expect_emitted(sw.process(2, f, now=4), f, bitmap=0b111)
    assert reg(sw).bitmap == 0


@pytest.mark.rule("4.4")
def test_4_4_ecn_is_sticky_in_the_aggregator_and_marks_the_output():
    sw = switch()
    assert sw.process(1, frame(bitmap=1, fan_in=2, flags=ECN, values=vals(1)), now=1) == []
    assert reg(sw).ecn == 1
    f = frame(bitmap=2, fan_in=2, values=vals(2))             # not ecn itself
    expect_emitted(sw.process(2, f, now=2), f, bitmap=3, ecn=1, values=(3,))
    assert reg(sw).ecn == 1


@pytest.mark.rule("4.4")
def test_4_4_resend_flush_takes_the_mark_then_clears_the_ecn_register():
    """The flushed packet leaves with the mark; the next owner does not inherit it."""
    sw = switch()
    sw.process(1, frame(bitmap=1, fan_in=3, flags=ECN, values=vals(1)), now=1)
    f = frame(bitmap=2, fan_in=3, flags=RESEND, values=vals(2))
    expect_emitted(sw.process(2, f, now=2), f, bitmap=3, ecn=1, values=(3,))
    r = reg(sw)
    assert (r.owner, r.bitmap, r.count, r.ecn) == (0, 0, 0, 0)
    # another tenant takes the aggregator next: its aggregate is not marked
    sw.process(3, frame(app_id=2, bitmap=1, fan_in=2, values=vals(5)), now=3)
    f = frame(app_id=2, bitmap=2, fan_in=2, values=vals(6))
    expect_emitted(sw.process(3, f, now=4), f, bitmap=3, ecn=0, values=(11,))


@pytest.mark.rule("9.8")
def test_9_8_atp_release_resend_flush_keeps_the_ecn_register():
    sw = switch(ATP_RELEASE)
    sw.process(1, frame(bitmap=1, fan_in=3, flags=ECN, values=vals(1)), now=1)
    f = frame(bitmap=2, fan_in=3, flags=RESEND, values=vals(2))
    # 9.9: the flag comes from the register before this packet (1 here too)
    expect_emitted(sw.process(2, f, now=2), f, bitmap=3, ecn=1, values=(3,))
    r = reg(sw)
    assert (r.owner, r.bitmap, r.count, r.ecn) == (0, 0, 0, 1)
    # the parameter packet that follows finds owner 0 and leaves the register alone
    sw.process(PS_PORT, frame(flags=ACK | RESEND, bitmap=3, fan_in=3), now=3)
    assert reg(sw).ecn == 1
    # the next tenant inherits the mark (9.9: its first packet already sees register 1)
    sw.process(3, frame(app_id=2, bitmap=1, fan_in=2, values=vals(5)), now=4)
    f = frame(app_id=2, bitmap=2, fan_in=2, values=vals(6))
    expect_emitted(sw.process(3, f, now=5), f, bitmap=3, ecn=1, values=(11,))


@pytest.mark.rule("9.9")
def test_9_9_atp_release_ecn_flag_from_the_register_before_the_update():
    """A packet whose only mark is ipv4.ecn == 3 leaves with the flag clear; the
    register is still set, so a later packet of the aggregation carries the flag."""
    for profile, first, second in ((SPEC, 1, 1), (ATP_RELEASE, 0, 1)):
        sw = switch(profile)
        f = frame(bitmap=1, fan_in=1, values=vals(4), ipv4_ecn=3)
        expect_emitted(sw.process(1, f, now=1), f, ecn=first, values=(4,))
        assert reg(sw).ecn == 1
        d = frame(bitmap=1, fan_in=1, values=vals(4))        # duplicate after completion
        expect_emitted(sw.process(1, d, now=2), d, ecn=second, values=(4,))


@pytest.mark.rule("9.9")
def test_9_9_atp_release_packet_own_ecn_flag_stays_set():
    sw = switch(ATP_RELEASE)
    f = frame(bitmap=1, fan_in=1, values=vals(4), flags=ECN)
    expect_emitted(sw.process(1, f, now=1), f, ecn=1, values=(4,))


# ---------------------------------------------------------------- 4.5 count ----------

@pytest.mark.rule("4.5")
def test_4_5_count_grows_only_with_new_bits_and_completes_at_n():
    sw = switch()
    assert sw.process(1, frame(bitmap=1, fan_in=3, values=vals(1)), now=1) == []
    assert reg(sw).count == 1
    assert sw.process(1, frame(bitmap=1, fan_in=3, values=vals(1)), now=2) == []
    assert reg(sw).count == 1                                  # duplicate: no count
    assert sw.process(2, frame(bitmap=2, fan_in=3, values=vals(2)), now=3) == []
    assert reg(sw).count == 2
    f = frame(bitmap=4, fan_in=3, values=vals(4))
    expect_emitted(sw.process(3, f, now=4), f, bitmap=7, values=(7,))
    assert reg(sw).count == 3 and reg(sw).owner == ID_1_1     # still owned until param


@pytest.mark.rule("4.5")
def test_4_5_count_reaching_n_with_a_multi_bit_packet():
    # fan_in counts packets with new bits, not bits: 2 packets complete n = 2
    sw = switch()
    sw.process(1, frame(bitmap=0b0011, fan_in=2, values=vals(1)), now=1)
    f = frame(bitmap=0b0100, fan_in=2, values=vals(2))
    expect_emitted(sw.process(1, f, now=2), f, bitmap=0b0111, values=(3,))


@pytest.mark.rule("4.5")
def test_4_5_resend_flushes_partial_and_zeroes_count():
    sw = switch()
    sw.process(1, frame(bitmap=1, fan_in=3, values=vals(10, 20)), now=1)
    f = frame(bitmap=1, fan_in=3, flags=RESEND, values=vals(10, 20))   # same worker
    # new == 0: the values are not added again; the flush carries what is there
    expect_emitted(sw.process(1, f, now=2), f, bitmap=1, values=(10, 20))
    r = reg(sw)
    assert (r.owner, r.bitmap, r.count) == (0, 0, 0)


# ---------------------------------------------------------------- 4.6 values ---------

@pytest.mark.rule("4.6")
def test_4_6_first_arrival_overwrites_stale_values():
    sw = switch()
    sw.process(1, frame(bitmap=1, fan_in=2, values=vals(100, 200, fill=9)), now=1)
    sw.process(2, frame(bitmap=2, fan_in=2, values=vals(1, 2, fill=1)), now=2)
    sw.process(PS_PORT, frame(flags=ACK, bitmap=3, fan_in=2), now=3)   # release
    assert reg(sw).owner == 0
    # the next user of the aggregator: job 2, values overwrite 101, 202, 10, ...
    sw.process(3, frame(app_id=2, bitmap=1, fan_in=2, values=vals(-5)), now=4)
    assert reg(sw).values == tuple(vals(-5))
    f = frame(app_id=2, bitmap=2, fan_in=2, values=vals(6, fill=1))
    expect_emitted(sw.process(3, f, now=5), f, bitmap=3, values=vals(1, fill=1))


@pytest.mark.rule("4.6")
def test_4_6_values_are_never_zeroed_on_release():
    sw = switch()
    f = frame(bitmap=1, fan_in=1, values=vals(42, -42))
    sw.process(1, f, now=1)
    sw.process(PS_PORT, frame(flags=ACK, bitmap=1, fan_in=1), now=2)
    r = reg(sw)
    assert r.owner == 0 and r.bitmap == 0 and r.count == 0
    assert r.values[:3] == (42, -42, 0)
    f = frame(bitmap=1, fan_in=2, flags=RESEND, values=vals(1))
    sw.process(1, f, now=3)                                 # not mine: no effect
    assert reg(sw).values[:2] == (42, -42)


@pytest.mark.rule("4.6")
def test_4_6_duplicate_does_not_add_values():
    sw = switch()
    sw.process(1, frame(bitmap=1, fan_in=3, values=vals(5)), now=1)
    sw.process(1, frame(bitmap=1, fan_in=3, values=vals(5)), now=2)
    sw.process(1, frame(bitmap=3, fan_in=3, values=vals(1000)), now=3)  # new = 0b10
    # a packet with some new bits adds its whole values (it carries those workers)
    assert reg(sw).values[0] == 1005
    sw.process(1, frame(bitmap=3, fan_in=3, values=vals(1000)), now=4)  # new = 0
    assert reg(sw).values[0] == 1005


@pytest.mark.rule("4.6")
def test_4_6_sum_clamps_to_int32():
    sw = switch()
    sw.process(1, frame(bitmap=1, fan_in=3, values=vals(I32_MAX - 1, I32_MIN + 2, 7)), now=1)
    f = frame(bitmap=2, fan_in=3, values=vals(5, -5, -3))
    sw.process(2, f, now=2)
    assert reg(sw).values[:3] == (I32_MAX, I32_MIN, 4)


@pytest.mark.rule("4.6")
@pytest.mark.parametrize("bound", [I32_MAX, I32_MIN])
def test_4_6_saturation_is_sticky(bound):
    sw = switch()
    sw.process(1, frame(bitmap=1, fan_in=3, values=vals(bound)), now=1)
    sw.process(2, frame(bitmap=2, fan_in=3, values=vals(-bound // 2)), now=2)
    assert reg(sw).values[0] == bound                   # moved back inside: must stay
    f = frame(bitmap=4, fan_in=3, values=vals(1 if bound < 0 else -1))
    expect_emitted(sw.process(3, f, now=3), f, bitmap=7, values=(bound,))


@pytest.mark.rule("4.6")
def test_4_6_negative_int32_max_is_sticky_too():
    # spec 4.6: "an element already at ±(2^31 - 1) or -2^31 stays as it is"
    sw = switch()
    sw.process(1, frame(bitmap=1, fan_in=2, values=vals(-I32_MAX)), now=1)
    f = frame(bitmap=2, fan_in=2, values=vals(5))
    expect_emitted(sw.process(2, f, now=2), f, bitmap=3, values=(-I32_MAX,))


@pytest.mark.rule("4.6")
@pytest.mark.parametrize("incoming", [I32_MAX, -I32_MAX, I32_MIN])
def test_4_6_incoming_element_at_a_bound_is_sticky_too(incoming):
    # decision in aggregator.py beyond the spec's wording: an incoming element at
    # ±(2^31 - 1) or -2^31 wins, so an edge's saturated aggregate stays visible upstairs
    sw = switch()
    opposite = -5 if incoming > 0 else 5
    sw.process(1, frame(bitmap=1, fan_in=2, values=vals(opposite, 7)), now=1)
    f = frame(bitmap=2, fan_in=2, values=vals(incoming, 1))
    expect_emitted(sw.process(2, f, now=2), f, bitmap=3, values=(incoming, 8))


@pytest.mark.rule("4.6")
def test_4_6_saturated_element_reached_by_clamping_stays():
    sw = switch()
    sw.process(1, frame(bitmap=1, fan_in=3, values=vals(2**30 + 2**29)), now=1)
    sw.process(2, frame(bitmap=2, fan_in=3, values=vals(2**30)), now=2)   # clamps
    assert reg(sw).values[0] == I32_MAX
    f = frame(bitmap=4, fan_in=3, values=vals(-2**30))
    expect_emitted(sw.process(3, f, now=3), f, bitmap=7, values=(I32_MAX,))


# ---------------------------------------------------------------- 4.7 output ---------

@pytest.mark.rule("4.7")
def test_4_7_complete_emits_aggregate_with_merged_bitmap():
    sw = switch()
    a = vals(*range(62))
    b = vals(*[-2 * i for i in range(62)])
    assert sw.process(1, frame(bitmap=1, fan_in=2, values=a, key=77, seq=1), now=1) == []
    f = frame(bitmap=2, fan_in=2, values=b, key=77, seq=1, tensor_len=62, ps_index=0)
    expect_emitted(sw.process(2, f, now=2), f, bitmap=3,
                   values=[-i for i in range(62)])


@pytest.mark.rule("4.7")
def test_4_7_duplicate_after_completion_is_answered_again():
    sw = switch()
    sw.process(1, frame(bitmap=1, fan_in=2, values=vals(3)), now=1)
    sw.process(2, frame(bitmap=2, fan_in=2, values=vals(4)), now=2)
    before = reg(sw)
    for bit in (1, 2):
        f = frame(bitmap=bit, fan_in=2, values=vals(999))
        expect_emitted(sw.process(bit, f, now=3), f, bitmap=3, values=(7,))
    after = reg(sw)
    assert (after.owner, after.bitmap, after.count, after.values) == (
        before.owner, before.bitmap, before.count, before.values)


@pytest.mark.rule("4.7")
def test_4_7_incomplete_is_absorbed():
    sw = switch()
    assert sw.process(1, frame(bitmap=1, fan_in=3), now=1) == []
    assert sw.process(2, frame(bitmap=2, fan_in=3), now=2) == []
    assert sw.process(2, frame(bitmap=2, fan_in=3), now=3) == []    # duplicate, count<n


# ---------------------------------------------------------------- 5 parameters ------

def _owned(sw, ecn=True):
    sw.process(1, frame(bitmap=1, fan_in=2, values=vals(3), flags=ECN if ecn else 0),
               now=10)
    r = reg(sw)
    assert r.owner == ID_1_1 and r.bitmap == 1 and r.count == 1 and r.ecn == int(ecn)
    return r


@pytest.mark.rule("5.1")
def test_5_float_request_changes_nothing_and_multicasts():
    sw = switch()
    before = _owned(sw)
    f = frame(flags=ACK | OVERFLOW, bitmap=1, fan_in=2, eth_src=PS_MAC)
    assert sw.process(PS_PORT, f, now=5000) == [(p, f) for p in MCAST]
    assert reg(sw) == before


@pytest.mark.rule("5.2")
@pytest.mark.parametrize("flags", [ACK, ACK | RESEND, ACK | OVERFLOW | RESEND,
                                   ACK | COLLISION, ACK | ECN])
def test_5_parameter_packet_releases_own_aggregator_and_multicasts(flags):
    sw = switch()
    _owned(sw)
    f = frame(flags=flags, bitmap=3, fan_in=2, values=vals(11))
    assert sw.process(PS_PORT, f, now=20) == [(p, f) for p in MCAST]
    r = reg(sw)
    assert (r.owner, r.bitmap, r.count, r.ecn) == (0, 0, 0, 0)
    assert r.values[0] == 3                                # not zeroed
    assert sw.occupied == 0


@pytest.mark.rule("5.2")
def test_5_parameter_for_another_owner_leaves_it():
    sw = switch()
    before = _owned(sw)
    f = frame(app_id=1, seq=17, flags=ACK, bitmap=3, fan_in=2)   # seq + S
    assert sw.process(PS_PORT, f, now=20) == [(p, f) for p in MCAST]
    assert reg(sw) == before


@pytest.mark.rule("5.3")
def test_5_leak_timeout_releases_dead_owner_strictly_after_timeout():
    sw = switch(timeout=1_000)
    # job 2 (dead) owns the aggregator since t = 100
    sw.process(3, frame(app_id=2, bitmap=1, fan_in=2, values=vals(8)), now=100)
    p = frame(app_id=1, flags=ACK, bitmap=3, fan_in=2)
    assert sw.process(PS_PORT, p, now=1_100) == [(q, p) for q in MCAST]   # now-stamp = T
    assert reg(sw).owner == ID_2_1
    assert sw.process(PS_PORT, p, now=1_101) == [(q, p) for q in MCAST]   # > T
    r = reg(sw)
    assert (r.owner, r.bitmap, r.count, r.ecn) == (0, 0, 0, 0)
    assert r.values[0] == 8


@pytest.mark.rule("5.3")
def test_5_leak_timeout_restarts_with_each_owned_packet():
    sw = switch(timeout=1_000)
    sw.process(3, frame(app_id=2, bitmap=1, fan_in=3), now=100)
    sw.process(3, frame(app_id=2, bitmap=2, fan_in=3), now=900)    # stamp := 900
    sw.process(PS_PORT, frame(app_id=1, flags=ACK), now=1_500)
    assert reg(sw).owner == ID_2_1
    sw.process(PS_PORT, frame(app_id=1, flags=ACK), now=1_901)
    assert reg(sw).owner == 0


@pytest.mark.rule("5.3")
def test_5_float_request_does_not_trigger_leak_release():
    sw = switch(timeout=1_000)
    sw.process(3, frame(app_id=2, bitmap=1, fan_in=2), now=100)
    sw.process(PS_PORT, frame(app_id=1, flags=ACK | OVERFLOW), now=10_000)
    assert reg(sw).owner == ID_2_1


@pytest.mark.rule("9.4")
def test_5_leak_timeout_absent_in_atp_release():
    sw = switch(ATP_RELEASE, timeout=1_000)
    sw.process(3, frame(app_id=2, bitmap=1, fan_in=2), now=100)
    p = frame(app_id=1, flags=ACK, bitmap=3, fan_in=2)
    assert sw.process(PS_PORT, p, now=10**9) == [(q, p) for q in MCAST]
    assert reg(sw).owner == ID_2_1


@pytest.mark.rule("4.3")
@pytest.mark.parametrize("agtr", [16, 17, 0xFFFF])
def test_4_3_agtr_outside_the_pool_is_not_mine(agtr):
    """P = 16 here; agtr >= P is never an index: a gradient goes to the PS with the
    collision flag (so the PS assigns a valid index), a resend passes unchanged, and no
    register changes."""
    sw = switch()
    f = frame(bitmap=1, fan_in=2, agtr=agtr, values=vals(9))
    expect_emitted(sw.process(1, f, now=1), f, collision=1)
    r = frame(bitmap=1, fan_in=2, agtr=agtr, flags=RESEND, values=vals(9))
    assert sw.process(1, r, now=2) == [(PS_PORT, r)]
    assert sw.snapshot() == {"level0": {}, "level1": {}}
    assert sw.occupied == 0


@pytest.mark.rule("5")
@pytest.mark.parametrize("flags", [ACK, ACK | OVERFLOW, ACK | OVERFLOW | RESEND])
def test_5_parameter_packet_outside_the_pool_changes_nothing(flags):
    sw = switch(timeout=1)
    before = _owned(sw)
    p = frame(flags=flags, bitmap=3, fan_in=2, agtr=16)
    assert sw.process(PS_PORT, p, now=10**6) == [(q, p) for q in MCAST]
    assert reg(sw) == before


def _l2_frame(dst, ethertype=0x0800, ecn=0):
    ipv4 = bytes([0x45, ecn]) + bytes(18)
    return dst + b"\x02\x00\x00\x00\x00\x07" + ethertype.to_bytes(2, "big") + ipv4 + b"hi"


@pytest.mark.rule("5.4")
def test_5_l2_forwarding_by_destination_mac():
    sw = switch()
    f = _l2_frame(PS_MAC)
    assert sw.process(1, f) == [(PS_PORT, f)]
    arp = _l2_frame(PS_MAC, ethertype=0x0806)
    assert sw.process(1, arp) == [(PS_PORT, arp)]


@pytest.mark.rule("5.4")
def test_5_l2_unknown_destination_dropped():
    sw = switch()
    assert sw.process(1, _l2_frame(b"\x02\x00\x00\x00\x09\x09")) == []
    assert sw.process(1, _l2_frame(b"\xff" * 6)) == []


@pytest.mark.rule("5.4")
def test_5_egress_ecn_marking_at_threshold():
    sw = switch(ecn_threshold=10)
    f = frame(bitmap=1, fan_in=1, values=vals(4))
    out = sw.process(1, f, now=1, queue_depth=10)
    got = expect_emitted(out, f, ecn=1, ipv4_ecn=3, values=(4,))
    assert got["ipv4_ecn"] == 3
    # the IPv4 byte carrying ECN keeps its DSCP bits
    assert out[0][1][15] == 0x03


@pytest.mark.rule("5.4")
def test_5_egress_below_threshold_not_marked():
    sw = switch(ecn_threshold=10)
    f = frame(bitmap=1, fan_in=1, values=vals(4))
    expect_emitted(sw.process(1, f, now=1, queue_depth=9), f, ecn=0, values=(4,))


@pytest.mark.rule("5.4")
def test_5_egress_marks_every_multicast_copy_and_forwarded_frames():
    sw = switch(ecn_threshold=10)
    p = frame(flags=ACK, bitmap=3, fan_in=2)
    out = sw.process(PS_PORT, p, now=1, queue_depth=50)
    assert [port for port, _ in out] == list(MCAST)
    for _, data in out:
        got = parse(data)
        assert got["ipv4_ecn"] == 3 and got["ecn"] == 1 and got["ack"] == 1
    fl = frame(flags=OVERFLOW, bitmap=1, fan_in=2)                 # float pass-through
    got = parse(sw.process(1, fl, queue_depth=11)[0][1])
    assert got["ecn"] == 1 and got["ipv4_ecn"] == 3 and got["overflow"] == 1


@pytest.mark.rule("5.4")
def test_5_egress_marking_of_non_atp_frames():
    sw = switch(ecn_threshold=10)
    ip = _l2_frame(PS_MAC)
    (port, data), = sw.process(1, ip, queue_depth=10)
    assert data[15] & 3 == 3 and data[:15] == ip[:15] and data[16:] == ip[16:]
    arp = _l2_frame(PS_MAC, ethertype=0x0806)
    assert sw.process(1, arp, queue_depth=10) == [(PS_PORT, arp)]


@pytest.mark.rule("5.4")
def test_5_egress_two_level_frame_flag_offset_counts_the_shim():
    from reference.wire import Shim
    p = frame(flags=ACK, bitmap=1, fan_in=1, shim=Shim(1, 1, 0, 0, 0))
    for _, data in switch().process(PS_PORT, p, queue_depth=10):
        got = parse(data)
        assert got["ecn"] == 1 and got["ipv4_ecn"] == 3 and got["level"] == 0


# ---------------------------------------------------------------- 9.1 ----------------

@pytest.mark.rule("9.1")
def test_9_1_atp_release_first_completing_arrival_adds_to_stale_values():
    for profile, expected in ((SPEC, 3), (ATP_RELEASE, 13)):
        sw = switch(profile)
        sw.process(1, frame(seq=1, bitmap=1, fan_in=1, values=vals(10)), now=1)
        sw.process(PS_PORT, frame(seq=1, flags=ACK, bitmap=1, fan_in=1), now=2)
        f = frame(seq=17, bitmap=1, fan_in=1, values=vals(3))
        expect_emitted(sw.process(1, f, now=3), f, values=(expected,))


@pytest.mark.rule("9.1")
def test_9_1_atp_release_first_non_completing_arrival_still_overwrites():
    sw = switch(ATP_RELEASE)
    sw.process(1, frame(seq=1, bitmap=1, fan_in=1, values=vals(10)), now=1)
    sw.process(PS_PORT, frame(seq=1, flags=ACK, bitmap=1, fan_in=1), now=2)
    sw.process(1, frame(seq=17, bitmap=1, fan_in=2, values=vals(3)), now=3)
    f = frame(seq=17, bitmap=2, fan_in=2, values=vals(4))
    expect_emitted(sw.process(2, f, now=4), f, bitmap=3, values=(7,))


# ---------------------------------------------------------------- teardown ----------

@pytest.mark.rule("10")
def test_control_plane_teardown_releases_only_that_job():
    sw = switch()
    sw.process(1, frame(app_id=1, agtr=1, bitmap=1, fan_in=2), now=1)
    sw.process(1, frame(app_id=1, seq=2, agtr=2, bitmap=1, fan_in=2), now=1)
    sw.process(3, frame(app_id=2, agtr=3, bitmap=1, fan_in=2), now=1)
    assert sw.occupied == 3
    assert sw.teardown_job(1) == 2
    regs = sw.read_aggregators([1, 2, 3])
    assert (regs[1].owner, regs[1].bitmap, regs[1].count) == (0, 0, 0)
    assert regs[2].owner == 0
    assert regs[3].owner == ID_2_1
    assert sw.occupied == 1


@pytest.mark.rule("9.4")
def test_9_4_atp_release_teardown_releases_nothing():
    sw = switch(ATP_RELEASE)
    sw.process(1, frame(app_id=1, bitmap=1, fan_in=2), now=1)
    assert sw.teardown_job(1) == 0
    assert reg(sw).owner == ID_1_1


@pytest.mark.rule("4")
def test_register_snapshot_reads_every_field():
    sw = switch()
    sw.process(1, frame(bitmap=1, fan_in=2, values=vals(1, 2), flags=ECN), now=77)
    snap = sw.snapshot()["level0"]
    assert list(snap) == [AG]
    d = snap[AG].to_dict()
    assert d["owner"] == ID_1_1 and d["bitmap"] == 1 and d["count"] == 1
    assert d["ecn"] == 1 and d["stamp"] == 77 and d["values"][:3] == [1, 2, 0]
    assert len(d["values"]) == 62


# ---------------------------------------------------------------- 9.11-9.13 ----------

@pytest.mark.rule("9.11")
def test_9_11_atp_release_aggregates_agtr_at_or_above_p_below_its_registers():
    """P = 16: the spec passes agtr 16 on as not mine (4.3); the release aggregates it
    (nothing compares agtr with P) and its parameter packet releases it; agtr 40000,
    beyond the release's registers, is not mine there either."""
    for profile, fates in ((SPEC, ("forwarded", "forwarded")),
                           (ATP_RELEASE, ("absorbed", "emitted"))):
        sw = switch(profile)
        for w, fate in zip((1, 2), fates):
            sw.process_with_verdict(w, frame(bitmap=w, agtr=16, values=vals(w)), now=w)
            assert sw.last_verdict.fate == fate, profile.name
    sw = switch(ATP_RELEASE)
    sw.process(1, frame(bitmap=1, agtr=16, values=vals(4)), now=1)
    assert reg(sw, 16).owner == ID_1_1 and sw.occupied == 1
    sw.process(PS_PORT, frame(flags=ACK, bitmap=3, agtr=16), now=2)
    assert reg(sw, 16).owner == 0 and sw.occupied == 0
    out, v = sw.process_with_verdict(1, frame(bitmap=1, agtr=40000), now=3)
    assert (v.fate, v.reason) == ("forwarded", "collisions")
    assert sw.counters["agtr_outside_pool"] == 1


@pytest.mark.rule("9.12")
def test_9_12_atp_release_multicasts_parameters_only_from_the_ps_port():
    """A parameter packet from worker port 1: multicast under the spec (5); under the
    release it still releases its aggregator, then is dropped. From the PS's port both
    multicast; a float request from port 1 is dropped the same way."""
    for profile in (SPEC, ATP_RELEASE):
        sw = switch(profile)
        sw.process(1, frame(bitmap=1, values=vals(4)), now=1)
        out, v = sw.process_with_verdict(1, frame(flags=ACK, bitmap=3), now=2)
        assert reg(sw).owner == 0
        if profile is SPEC:
            assert sorted(p for p, _ in out) == list(MCAST) and v.fate == "multicast"
        else:
            assert out == [] and (v.fate, v.reason) == ("dropped",
                                                        "parameter_not_from_ps_dropped")
        assert len(sw.process(PS_PORT, frame(flags=ACK, bitmap=3), now=3)) == len(MCAST)
    sw = switch(ATP_RELEASE)
    assert sw.process(1, frame(flags=ACK | OVERFLOW, bitmap=1), now=1) == []


@pytest.mark.rule("9.12")
def test_9_12_atp_release_multicasts_from_any_ps_port_of_the_job_whatever_its_ps_index():
    """Rev. 4's 9.12: the release's key is (ack, app, ingress port, data_index), one
    entry per PS port of the job. Job 1 has PS 0 on port 9 and PS 1 on port 8; job 2
    only PS 0 on port 9. A parameter packet of job 1 with ps_index 0 entering on port 8
    (PS 1's) is multicast to ps_index 0's group; one of job 2 entering on port 8 (no PS
    of job 2) is dropped after its register update; so is one of job 1 from worker
    port 2 (the other way round)."""
    routes = {(1, 0): JobRoute(to_ps_port=PS_PORT, is_upper=True, local_rack_id=0),
              (1, 1): JobRoute(to_ps_port=8, is_upper=True, local_rack_id=0),
              (2, 0): JobRoute(to_ps_port=PS_PORT, is_upper=True, local_rack_id=0)}
    multicast = {(1, 0): MCAST, (1, 1): (1, 2), (2, 0): (3,)}
    sw = switch(ATP_RELEASE, routes=routes, multicast=multicast)
    assert sw.config.ps_ports(1) == (PS_PORT, 8) and sw.config.ps_ports(2) == (PS_PORT,)
    sw.process(1, frame(bitmap=1, values=vals(4)), now=1)              # job 1 seq 1
    out, v = sw.process_with_verdict(8, frame(flags=ACK, bitmap=3), now=2)
    assert sorted(p for p, _ in out) == list(MCAST) and v.fate == "multicast"
    assert reg(sw).owner == 0
    sw.process(3, frame(app_id=2, bitmap=1, values=vals(4)), now=3)    # job 2 seq 1
    out, v = sw.process_with_verdict(8, frame(app_id=2, flags=ACK, bitmap=3), now=4)
    assert out == [] and v.reason == "parameter_not_from_ps_dropped"
    assert reg(sw).owner == 0                                           # released first
    assert sw.process(2, frame(flags=ACK, bitmap=3, ps_index=1), now=5) == []
    assert sorted(p for p, _ in sw.process(PS_PORT, frame(flags=ACK, ps_index=1),
                                           now=6)) == [1, 2]


@pytest.mark.rule("9.13")
def test_9_13_atp_release_set_up_keeps_the_ecn_register():
    """A marked aggregation left at index 5; the switch is set up again: the spec resets
    every register, the release all but ecn, so the next owner's first packet leaves
    with the ecn flag (fan_in 1)."""
    for profile, ecn in ((SPEC, 0), (ATP_RELEASE, 1)):
        sw = switch(profile)
        sw.process(1, frame(bitmap=1, values=vals(4), flags=ECN), now=1)
        sw.set_up(config())
        state = reg(sw)
        assert (state.owner, state.bitmap, state.count, state.ecn) == (0, 0, 0, ecn)
        f = frame(app_id=2, bitmap=1, fan_in=1, values=vals(7))
        expect_emitted(sw.process(3, f, now=2), f, ecn=ecn, values=(7,))
