"""Spec section 6 (and 9.5): the parameter server, one test per rule.

Job 1: workers w0, w1, w2 (bits 1, 2, 4; n = 3), one PS, single rack. The registry of
claimed pool indexes holds {0, 1, 2, 5}, so the first unused index is 3, then 4, then 6.
"""

from __future__ import annotations

import struct

import pytest

from reference_helpers import (
    ACK, COLLISION, DATA_INDEX, ECN, I32_MAX, I32_MIN, OVERFLOW, RESEND, frame, parse,
    vals,
)
from reference.profiles import ATP_RELEASE, SPEC
from reference.ps import IndexRegistry, ParameterServer
from reference.seqnum import seq_add
from reference.topology import Job, JobLayout, Rack, Tensor, Topology

TOPO = Topology((Rack("r0", ("w0", "w1", "w2", "ps0", "ps1")),))
JOB = Job(app_id=1, workers=("w0", "w1", "w2"), pses=("ps0",), window=4,
          tensors=(Tensor(key=7, length=62),))
PS_MAC = bytes.fromhex("020000000004")


def make_ps(profile=SPEC, job=JOB, ps_index=0, claimed=(0, 1, 2, 5), pool=16, **kw):
    registry = IndexRegistry(pool)
    registry.claim(claimed)
    return ParameterServer(job, ps_index, JobLayout(job, TOPO), PS_MAC, profile, registry,
                           **kw)


def fbits(*xs):
    """float32 bit patterns as int32 (by hand, with struct)."""
    out = [struct.unpack("!i", struct.pack("!f", x))[0] for x in xs]
    return vals(*out)


def as_floats(values):
    return [struct.unpack("!f", struct.pack("!i", v))[0] for v in values]


def g(bit, values=None, **kw):
    kw.setdefault("fan_in", 3)
    kw.setdefault("seq", 1)
    return frame(app_id=1, bitmap=bit, agtr=5, key=7,
                 values=vals() if values is None else values, **kw)


def only_state(p):
    (state,) = p.seqs.values()
    return state


def is_float_request(data, seq=1):
    got = parse(data)
    assert got["ack"] == 1 and got["overflow"] == 1 and got["resend"] == 0, got
    assert got["collision"] == 0 and got["seq"] == seq and got["app_id"] == 1
    assert got["values"] == [0] * 62            # decision in ps.py: zero values
    assert got["eth_src"] == PS_MAC and got["eth_dst"] == b"\xff" * 6
    return got


# ---------------------------------------------------------------- overflow ----------

@pytest.mark.rule("6.1")
@pytest.mark.parametrize("marker", [I32_MAX, -I32_MAX, I32_MIN])
def test_6_revealed_overflow_requests_floats_and_discards_int_sum(marker):
    p = make_ps()
    assert p.on_frame(g(1, vals(5))) == []                      # counted: {w0}
    out = p.on_frame(g(2, vals(1, marker)))
    assert len(out) == 1
    req = is_float_request(out[0])
    assert req["agtr"] == 5 and req["key"] == 7 and req["ps_index"] == 0
    state = p.seqs[(7, 1)]
    assert state.float_mode and state.counted == 0             # partial sum discarded
    # now the three float contributions alone make the result
    p.on_frame(g(1, fbits(1.5), flags=OVERFLOW | RESEND))
    p.on_frame(g(2, fbits(2.25), flags=OVERFLOW | RESEND))
    out = p.on_frame(g(4, fbits(-0.5), flags=OVERFLOW | RESEND))
    got = parse(out[-1])
    assert got["ack"] == 1 and got["overflow"] == 1
    assert as_floats(got["values"][:2]) == [3.25, 0.0]


@pytest.mark.rule("6.1")
def test_6_float_request_of_a_resend_has_resend_clear():
    p = make_ps()
    out = p.on_frame(g(1, vals(I32_MAX), flags=RESEND | COLLISION | ECN, ps_index=0))
    is_float_request(out[0])


@pytest.mark.rule("6.1")
def test_6_float_packet_for_int_seq_requests_floats_and_is_counted():
    p = make_ps()
    p.on_frame(g(2, vals(100)))                                 # int contribution of w1
    out = p.on_frame(g(1, fbits(1.0), flags=OVERFLOW))
    assert len(out) == 1
    is_float_request(out[0])
    state = p.seqs[(7, 1)]
    assert state.float_mode and state.counted == 0b001          # w0's float counted,
    assert float(state.total[0]) == 1.0                         # w1's int discarded


@pytest.mark.rule("6.1")
def test_6_int_packet_for_float_seq_requests_again_not_counted():
    p = make_ps()
    p.on_frame(g(1, fbits(1.0), flags=OVERFLOW))
    out = p.on_frame(g(2, vals(123)))
    assert len(out) == 1
    is_float_request(out[0])
    state = p.seqs[(7, 1)]
    assert state.counted == 0b001 and float(state.total[0]) == 1.0
    # even a full int packet does not count for a float seq
    assert len(p.on_frame(g(7, vals(9)))) == 1
    assert p.seqs[(7, 1)].counted == 0b001 and p.seqs[(7, 1)].parameter is None


@pytest.mark.rule("6.1")
def test_6_ps_partial_sum_at_minus_int32_max_is_treated_as_overflow():
    # decision in ps.py: a PS-side sum at a sticky value agrees with the switch path
    p = make_ps()
    p.on_frame(g(1, vals(-(2**30))))
    out = p.on_frame(g(2, vals(-(2**30) + 1)))
    assert len(out) == 1
    is_float_request(out[0])


@pytest.mark.rule("6.1")
def test_6_ps_int64_sum_leaving_int32_is_treated_as_overflow():
    # decision in ps.py: two in-range partials whose sum leaves int32 -> float mode
    p = make_ps()
    p.on_frame(g(1, vals(2**30 + 2**29)))
    out = p.on_frame(g(2, vals(2**30)))
    assert len(out) == 1
    is_float_request(out[0])
    assert p.seqs[(7, 1)].float_mode and p.seqs[(7, 1)].counted == 0


# ---------------------------------------------------------------- counting ----------

@pytest.mark.rule("6.2")
def test_6_full_packet_is_the_sum():
    p = make_ps()
    p.on_frame(g(1, vals(1000)))                                # a partial first
    out = p.on_frame(g(0b111, vals(6, -6)))
    assert len(out) == 1
    got = parse(out[0])
    assert got["values"][:3] == [6, -6, 0]                      # replaces, not adds
    assert p.result(7, 1).values[:2] == (6, -6)


@pytest.mark.rule("6.2")
def test_6_disjoint_partials_complete():
    p = make_ps()
    assert p.on_frame(g(0b001, vals(1, 10))) == []
    assert p.on_frame(g(0b100, vals(4, 40))) == []
    out = p.on_frame(g(0b010, vals(2, 20)))
    assert parse(out[0])["values"][:3] == [7, 70, 0]


@pytest.mark.rule("6.2")
def test_6_overlapping_partial_is_ignored_whole():
    p = make_ps()
    p.on_frame(g(0b001, vals(1)))
    assert p.on_frame(g(0b011, vals(1000))) == []               # shares w0
    assert p.seqs[(7, 1)].counted == 0b001
    assert int(p.seqs[(7, 1)].total[0]) == 1
    out = p.on_frame(g(0b110, vals(6)))
    assert parse(out[0])["values"][0] == 7


@pytest.mark.rule("6.2")
def test_6_int_and_float_never_mix():
    p = make_ps()
    p.on_frame(g(1, vals(5_000_000)))                           # int, scale-free number
    p.on_frame(g(2, fbits(2.0), flags=OVERFLOW | RESEND))
    p.on_frame(g(1, fbits(1.0), flags=OVERFLOW | RESEND))
    out = p.on_frame(g(4, fbits(4.0), flags=OVERFLOW | RESEND))
    got = parse(out[-1])
    assert as_floats(got["values"][:1]) == [7.0]


# ---------------------------------------------------------------- collision ---------

@pytest.mark.rule("6.3")
def test_6_collision_marks_seq_and_parameter_carries_fresh_index():
    p = make_ps()
    p.on_frame(g(1, vals(1), flags=COLLISION))
    p.on_frame(g(2, vals(2)))
    out = p.on_frame(g(4, vals(4)))
    got = parse(out[0])
    assert got["collision"] == 1 and got["tensor_len"] == 3     # first unused index
    assert got["values"][0] == 7
    # the next collided seq gets the next unused index, skipping claimed 5
    for seq, expected in ((2, 4), (3, 6)):
        p.on_frame(frame(app_id=1, seq=seq, bitmap=7, fan_in=3, key=7, flags=COLLISION))
        got = parse(p.seqs[(7, seq)].parameter)
        assert got["collision"] == 1 and got["tensor_len"] == expected


@pytest.mark.rule("6.3")
def test_6_no_collision_mark_clears_collision_and_keeps_tensor_len():
    p = make_ps()
    out = p.on_frame(g(7, vals(1), tensor_len=62))
    got = parse(out[0])
    assert got["collision"] == 0 and got["tensor_len"] == 62


@pytest.mark.rule("6.3")
def test_6_registry_is_shared_by_the_pses_of_a_run():
    registry = IndexRegistry(16)
    registry.claim([0, 1, 2, 5])
    job = Job(app_id=1, workers=("w0", "w1", "w2"), pses=("ps0", "ps1"), window=4,
              tensors=(Tensor(key=7, length=62), Tensor(key=8, length=62)))
    layout = JobLayout(job, TOPO)
    ps0 = ParameterServer(job, 0, layout, PS_MAC, SPEC, registry)
    ps1 = ParameterServer(job, 1, layout, PS_MAC, SPEC, registry)
    a = parse(ps0.on_frame(frame(app_id=1, bitmap=7, fan_in=3, key=8, flags=COLLISION))[0])
    b = parse(ps1.on_frame(frame(app_id=1, bitmap=7, fan_in=3, key=7, flags=COLLISION,
                                 ps_index=1))[0])
    assert (a["tensor_len"], b["tensor_len"]) == (3, 4)


@pytest.mark.rule("6.3")
def test_6_fresh_index_is_never_one_in_use_and_falls_back_when_pool_is_full():
    r = IndexRegistry(4)
    r.claim([0, 2])
    assert [r.fresh(9), r.fresh(9), r.fresh(9)] == [1, 3, 9]


# ---------------------------------------------------------------- parameter ---------

@pytest.mark.rule("6.4")
def test_6_parameter_packet_echoes_header_of_the_completing_packet():
    p = make_ps(job=Job(app_id=1, workers=("w0", "w1", "w2"), pses=("ps0", "ps1"),
                        window=4, tensors=(Tensor(key=7, length=62),)), ps_index=1)
    p.on_frame(g(1, vals(1), ps_index=1))
    src = g(6, vals(2, 3), ps_index=1, flags=ECN | RESEND | DATA_INDEX, tensor_len=100)
    out = p.on_frame(src)
    assert len(out) == 1
    want = parse(src)
    want.update(flags=(1 << 5) | ECN | RESEND | ACK, ack=1, data_index=0,
                values=[int(v) for v in vals(3, 3)], eth_src=PS_MAC,
                eth_dst=b"\xff" * 6)
    assert parse(out[0]) == want


@pytest.mark.rule("6.4")
def test_6_float_parameter_has_overflow_and_resend():
    p = make_ps()
    p.on_frame(g(1, fbits(0.5), flags=OVERFLOW))               # first float: counted
    p.on_frame(g(2, fbits(0.25), flags=OVERFLOW))
    out = p.on_frame(g(4, fbits(0.125), flags=OVERFLOW))      # completes, no resend
    got = parse(out[-1])
    assert got["ack"] == 1 and got["overflow"] == 1 and got["resend"] == 1
    assert as_floats(got["values"][:1]) == [0.875]


@pytest.mark.rule("6.5")
def test_6_duplicate_after_completion_is_answered_with_same_parameter():
    p = make_ps()
    first = p.on_frame(g(7, vals(5), flags=COLLISION))
    again = p.on_frame(g(1, vals(999)))
    assert again == first
    again = p.on_frame(g(7, vals(999), flags=RESEND))
    assert again == first
    assert p.result(7, 1).values[0] == 5


@pytest.mark.rule("6")
def test_6_ps_ignores_parameters_other_jobs_and_other_ps_index():
    p = make_ps()
    assert p.on_frame(g(7, flags=ACK)) == []
    assert p.on_frame(frame(app_id=2, bitmap=7, fan_in=3)) == []
    assert p.on_frame(g(7, ps_index=1)) == []
    assert p.seqs == {}


@pytest.mark.rule("6")
def test_6_multiple_pses_by_key():
    job = Job(app_id=1, workers=("w0",), pses=("ps0", "ps1"), window=2,
              tensors=(Tensor(key=4, length=62), Tensor(key=5, length=62)))
    assert [job.ps_index_of(k) for k in (4, 5, 6, 7)] == [0, 1, 0, 1]


# ---------------------------------------------------------------- 9.5 ---------------

@pytest.mark.rule("9.5")
def test_9_5_release_ps_does_not_count_first_float_packet():
    p = make_ps(ATP_RELEASE)
    out = p.on_frame(g(1, fbits(1.0), flags=OVERFLOW))
    assert len(out) == 1
    is_float_request(out[0])
    assert only_state(p).float_mode and only_state(p).counted == 0
    out = p.on_frame(g(2, fbits(2.0), flags=OVERFLOW))          # float seq, not resend
    assert len(out) == 1
    is_float_request(out[0])
    assert only_state(p).counted == 0


@pytest.mark.rule("9.5")
def test_9_5_release_ps_counts_float_resends_and_copies_resend():
    p = make_ps(ATP_RELEASE)
    p.on_frame(g(1, fbits(1.0), flags=OVERFLOW))
    for bit, x in ((1, 1.0), (2, 2.0)):
        assert p.on_frame(g(bit, fbits(x), flags=OVERFLOW | RESEND)) == []
    out = p.on_frame(g(4, fbits(4.0), flags=OVERFLOW | RESEND))
    got = parse(out[-1])
    assert got["overflow"] == 1 and got["resend"] == 1 and got["ack"] == 1
    # 9.3 (corrected): only the key is in host order; float values are network order
    raw = struct.pack("!i", got["values"][0])
    assert struct.unpack("!f", raw)[0] == 7.0


@pytest.mark.rule("9.3")
def test_9_3_release_key_in_host_order_remapped_index_in_network_order():
    p = make_ps(ATP_RELEASE)
    key_le = int.from_bytes((7).to_bytes(8, "little"), "big")
    out = p.on_frame(frame(app_id=1, seq=1, bitmap=7, fan_in=3, key=key_le,
                           flags=COLLISION))
    got = parse(out[0])
    assert got["key"] == key_le                                 # echoed as received
    assert got["tensor_len"] == 3          # the release converts the index (9.3)
    assert p.result(7, 1) is not None                           # PS read key 7


@pytest.mark.rule("9.10")
def test_9_10_release_fresh_index_from_a_shuffled_pool_and_bitmap_one():
    """The release takes a collided seq's fresh index from a shuffled list of the pool
    (here: shuffled with seed 11, claimed indexes still skipped) and its parameter
    packets carry bitmap = 1."""
    import random
    order = list(range(16))
    random.Random(11).shuffle(order)
    expected = [i for i in order if i not in (0, 1, 2, 5)][:2]
    assert expected != [3, 4]                                   # not the spec's order
    registry = IndexRegistry(16, shuffle_seed=11)
    registry.claim((0, 1, 2, 5))
    p = ParameterServer(JOB, 0, JobLayout(JOB, TOPO), PS_MAC, ATP_RELEASE, registry)
    got = []
    for seq in (1, 2):
        out = p.on_frame(frame(app_id=1, seq=seq, bitmap=7, fan_in=3, key=_le(7),
                               flags=COLLISION))
        param = parse(out[0])
        assert param["bitmap"] == 1 and param["collision"] == 1
        got.append(param["tensor_len"])
    assert got == expected
    spec = make_ps()
    assert parse(spec.on_frame(g(7, vals(1)))[0])["bitmap"] == 7


def _le(x):
    return int.from_bytes(x.to_bytes(8, "little"), "big")


# ---------------------------------------------------------------- state lifetime ----
# Spec 6 (rev. 3): when seq t completes, the PS forgets all state at or behind t - S
# (JOB: S = 4); a later packet at or behind that frontier is a straggler. Worked by hand.

def full(seq, x=1, **kw):
    return frame(app_id=1, seq=seq, bitmap=7, fan_in=3, agtr=5, key=7, values=vals(x), **kw)


@pytest.mark.rule("6.6")
def test_6_completing_t_forgets_state_at_or_behind_t_minus_S():
    p = make_ps()
    for seq in (1, 2, 3, 4):
        assert len(p.on_frame(full(seq))) == 1
    assert p.frontier == 65535 and sorted(s for _, s in p.seqs) == [1, 2, 3, 4]
    p.on_frame(full(5))                                    # frontier 5 - 4 = 1
    assert p.frontier == 1 and sorted(s for _, s in p.seqs) == [2, 3, 4, 5]
    assert p.on_frame(g(1)) == []                          # straggler: nothing sent
    assert (7, 1) not in p.seqs and p.counters["stragglers"] == 1
    again = p.on_frame(g(1, seq=2))                        # 2 is still held: answered
    assert len(again) == 1 and parse(again[0])["seq"] == 2


@pytest.mark.rule("6.6")
def test_6_partial_state_behind_the_frontier_is_forgotten_and_not_merged():
    p = make_ps()
    assert p.on_frame(frame(app_id=1, seq=3, bitmap=1, fan_in=3, key=7,
                            values=vals(100))) == []       # w0's part of seq 3
    p.on_frame(full(7))                                    # frontier 3
    assert (7, 3) not in p.seqs
    for bit in (2, 4, 1):                                  # seq 3 again: stragglers
        assert p.on_frame(frame(app_id=1, seq=3, bitmap=bit, fan_in=3, key=7)) == []
    assert (7, 3) not in p.seqs and p.counters["stragglers"] == 3
    assert len(p.on_frame(full(8))) == 1                   # the job goes on


@pytest.mark.rule("6.6")
def test_6_frontier_wraps_and_lap_old_stragglers_are_ignored():
    # the job started at seq 65530: 65530..65535, 1, 2, 3 complete; frontier 3 - 4 =
    # 65534 (serial arithmetic across the wrap)
    p = make_ps()
    for seq in (65530, 65531, 65532, 65533, 65534, 65535, 1, 2, 3):
        assert len(p.on_frame(full(seq, x=seq))) == 1
    assert p.frontier == 65534
    assert sorted(s for _, s in p.seqs) == [1, 2, 3, 65535]
    assert p.on_frame(g(1, seq=65533)) == []               # from before the wrap
    assert (7, 65533) not in p.seqs
    held = p.on_frame(g(1, seq=65535))                     # not behind 65534: held
    assert parse(held[0])["values"][0] == 65535
    # one lap later (the same key pushed again; every 4th seq completing is enough to
    # move the frontier): the old lap's seq 1 was forgotten when the frontier passed it,
    # so the new lap's seq 1 meets no old state
    for seq in range(4, 65536, 4):
        p.on_frame(full(seq, x=0))
    assert p.frontier == 65528 and (7, 1) not in p.seqs
    out = p.on_frame(frame(app_id=1, seq=1, bitmap=1, fan_in=3, key=7, values=vals(9)))
    assert out == [] and p.seqs[(7, 1)].counted == 0b001   # fresh state, counted once
    assert int(p.seqs[(7, 1)].total[0]) == 9


@pytest.mark.rule("6.6")
def test_6_no_frontier_before_the_first_completion():
    p = make_ps()
    assert p.frontier is None
    assert p.on_frame(frame(app_id=1, seq=40000, bitmap=1, fan_in=3, key=7)) == []
    assert (7, 40000) in p.seqs                            # any first seq is accepted


@pytest.mark.rule("9.7")
def test_9_7_release_ps_keeps_its_state_and_answers_a_late_resend():
    # per-tensor seq (9.7): no seq frontier, and a completed tensor is kept, so the
    # resend of a worker whose parameter packet was lost is still answered
    p = make_ps(ATP_RELEASE)
    key_le = int.from_bytes((7).to_bytes(8, "little"), "big")
    for seq in (1, 2):
        p.on_frame(frame(app_id=1, seq=seq, bitmap=7, fan_in=3, key=key_le,
                         tensor_len=124, values=vals(seq)))
    assert p.frontier is None and sorted(p.seqs) == [(7, 1), (7, 2)]
    again = p.on_frame(frame(app_id=1, seq=1, bitmap=1, fan_in=3, key=key_le,
                             tensor_len=124, flags=RESEND))
    assert parse(again[0])["values"][0] == 1 and p.counters["stragglers"] == 0


# ------------------------------------------------- frontier freshness (rev. 4) ------
# Spec 6.7 (rev. 4): (a) the frontier moves on fresh packets, not only on completions;
# (b) after T_stale without a fresh packet the PS forgets the job (state, frontier).
# JOB: S = 4, workers w0, w1, w2 (bits 1, 2, 4). Times in ns, worked by hand.

def part(bit, seq, x=1, **kw):
    return frame(app_id=1, seq=seq, bitmap=bit, fan_in=3, agtr=5, key=7, values=vals(x),
                 **kw)


@pytest.mark.rule("6.7")
def test_6_7_a_fresh_packet_carrying_every_worker_moves_the_frontier_to_t_minus_S():
    p = make_ps()
    p.on_frame(part(1, 9, x=10), now=0)             # a partial of seq 9 (kept)
    assert p.on_frame(full(12), now=1) != []        # all three sent 12: frontier 12-4 = 8
    assert p.frontier == 8 and (7, 9) in p.seqs     # 9 is ahead of 8: still held
    assert p.on_frame(part(2, 8), now=2) == []      # 8: a straggler
    assert p.counters["stragglers"] == 1 and (7, 8) not in p.seqs


@pytest.mark.rule("6.7")
def test_6_7_partial_packets_move_the_frontier_once_every_worker_has_sent():
    # each worker's own (collided) packets: w0 and w1 sent 9, w2 sent 12; the earliest
    # of the three marks is 9, so the frontier is 9 - 4 = 5 only once w2 is heard
    p = make_ps()
    p.on_frame(part(1, 3), now=0)
    p.on_frame(part(1, 9, flags=COLLISION), now=1)
    p.on_frame(part(2, 9, flags=COLLISION), now=2)
    assert p.frontier is None and (7, 3) in p.seqs  # w2 not heard yet: no frontier
    p.on_frame(part(4, 12, flags=COLLISION), now=3)
    assert p.marks == [9, 9, 12] and p.frontier == 5
    assert (7, 3) not in p.seqs and (7, 9) in p.seqs and (7, 12) in p.seqs


@pytest.mark.rule("6.7")
def test_6_partial_packet_does_not_forget_what_another_worker_lacks():
    # seq 1 completes; its parameter packet to w1 is lost. w0 (which has it) sends
    # seq 5 = 1 + S, which collides and reaches the PS alone. Rev. 4 (a) read literally
    # (t - S = 1) would forget seq 1, and w1's resend of 1 would be dropped as a
    # straggler: w1 never gets seq 1, never sends 5, the job hangs (reference.ps, D28).
    p = make_ps()
    (answer,) = p.on_frame(full(1, x=42), now=0)
    p.on_frame(part(1, 5, flags=COLLISION), now=1)  # marks 5, 1, 1: frontier 1-4
    assert p.frontier == seq_add(1, -4) and (7, 1) in p.seqs
    again = p.on_frame(part(2, 1, flags=RESEND), now=2)
    assert again == [answer] and p.counters["stragglers"] == 0


@pytest.mark.rule("6.7")
def test_6_7_t_stale_without_a_fresh_packet_forgets_the_job_before_judging():
    # T_stale 10 us. Seq 100 completes at t=0 (frontier 96). A straggler at t=9_999
    # is dropped and does not count as fresh; at t=10_000 (10_000 - 0 >= T_stale) the
    # PS forgets the job before it judges the next packet: seq 50, far behind the old
    # frontier, is taken as new
    p = make_ps(t_stale_ns=10_000)
    p.on_frame(full(100), now=0)
    assert p.frontier == 96
    assert p.on_frame(part(1, 96), now=9_999) == []
    assert p.counters["stragglers"] == 1 and p.counters["stale_forgets"] == 0
    assert p.on_frame(part(1, 50, x=5), now=10_000) == []
    assert p.counters["stale_forgets"] == 1 and p.frontier is None
    assert sorted(p.seqs) == [(7, 50)] and p.seqs[(7, 50)].counted == 1
    assert p.marks == [50, None, None] and p.last_fresh == 10_000


@pytest.mark.rule("6.7")
def test_6_7_fresh_packets_keep_the_job_and_the_boundary_is_t_stale():
    # fresh packets at t=0 and t=6_000 keep the state: at t=15_999 only 9_999 ns have
    # passed since the last one, so seq 2's duplicate is answered from the state; at
    # t=25_999 (exactly T_stale after 15_999) the job is forgotten
    p = make_ps(t_stale_ns=10_000)
    p.on_frame(full(1), now=0)
    (answer,) = p.on_frame(full(2, x=2), now=6_000)
    assert p.on_frame(part(1, 2), now=15_999) == [answer]
    assert p.counters["stale_forgets"] == 0
    assert p.on_frame(part(1, 2), now=25_999) == []          # forgotten: counted anew
    assert p.counters["stale_forgets"] == 1 and p.seqs[(7, 2)].counted == 1


@pytest.mark.rule("6.7")
def test_6_7_an_idle_ps_drops_its_next_seqs_until_t_stale_then_serves_them():
    # The multi-PS case by hand. This PS completes seq 1000 at t=0 (frontier 996); the
    # job then sends 40000 packets to its other PS, so this PS's next seq is 41001:
    # 996 is 25530 ahead of it on the ring (41001 + 25530 = 66531 = 996 + 65535), so
    # 41001 looks behind the stale frontier and is dropped at t=4_000. The worker's
    # timeout resend of 41001 at t=10_000 (T_stale after the last fresh packet) finds
    # the job forgotten and is served; the frontier is then 41001 - 4 = 40997.
    p = make_ps(t_stale_ns=10_000)
    p.on_frame(full(1000), now=0)
    assert p.on_frame(full(41001, x=7), now=4_000) == []
    assert p.counters["stragglers"] == 1
    (answer,) = p.on_frame(full(41001, x=7, flags=RESEND), now=10_000)
    assert parse(answer)["seq"] == 41001 and parse(answer)["values"][0] == 7
    assert p.frontier == 40997 and p.counters["stale_forgets"] == 1


@pytest.mark.rule("9.7")
def test_9_7_release_ps_has_no_t_stale():
    # per-tensor seq: no frontier, no marks, and no forgetting after T_stale either
    key_le = int.from_bytes((7).to_bytes(8, "little"), "big")
    p = make_ps(ATP_RELEASE, t_stale_ns=10_000)
    (answer,) = p.on_frame(frame(app_id=1, seq=1, bitmap=7, fan_in=3, key=key_le,
                                 tensor_len=62, values=vals(3)), now=0)
    again = p.on_frame(frame(app_id=1, seq=1, bitmap=2, fan_in=3, key=key_le,
                             tensor_len=62, flags=RESEND), now=10**9)
    assert again == [answer] and p.counters["stale_forgets"] == 0
    assert p.frontier is None and p.marks == [None, None, None]
