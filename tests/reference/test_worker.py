"""Spec section 7 (and 9.3, 9.6): the worker, one test per rule.

Job 1: workers w0, w1 (n = 2), one PS, window S = 2, scale 1 (so q(x) = x for the integer
gradients used here), slot table [10, 11], pool P = 16. Tensor key 7 has 300 elements:
5 packets, the last one carrying 52 elements and 10 zeros of padding.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

from reference_helpers import ACK, COLLISION, ECN, OVERFLOW, RESEND, frame, parse, vals
from reference.profiles import ATP_RELEASE, SPEC
from reference.topology import Job, JobLayout, Rack, Tensor, Topology
from reference.worker import Worker

TOPO = Topology((Rack("r0", ("w0", "w1", "ps")),))
W_MAC = bytes.fromhex("020000000001")
PS_MAC = bytes.fromhex("020000000003")
DATA = (np.arange(300, dtype=np.float32) - 100)       # w0's gradient: -100 .. 199
SLOTS = [10, 11]
MS = 1_000_000
US = 1_000


def job(window=2, cc=False, tensors=((7, 300),), threshold=None):
    return Job(app_id=1, workers=("w0", "w1"), pses=("ps",), window=window,
               tensors=tuple(Tensor(k, n) for k, n in tensors), scale=1.0,
               threshold=threshold, congestion_control=cc)


def worker(j=None, profile=SPEC, tensors=None, slots=None):
    j = j or job()
    slots = slots if slots is not None else [10 + i for i in range(j.window)]
    tensors = tensors if tensors is not None else [(7, DATA)]
    return Worker(j, 0, JobLayout(j, TOPO), W_MAC, [PS_MAC], list(slots), 16, tensors,
                  profile)


def param(seq, key=7, flags=0, values=None, tensor_len=300):
    return frame(app_id=1, seq=seq, bitmap=3, fan_in=2, key=key, flags=ACK | flags,
                 values=values if values is not None else vals(seq), agtr=0,
                 tensor_len=tensor_len, eth_dst=b"\xff" * 6, eth_src=PS_MAC)


def seqs(frames):
    return [parse(f)["seq"] for f in frames]


def chunk(s):
    out = [0] * 62
    for i in range(62):
        k = (s - 1) * 62 + i
        if k < 300:
            out[i] = k - 100
    return out


# ---------------------------------------------------------------- sending ----------

@pytest.mark.rule("7.1")
def test_7_opening_window_sends_first_S_seqs():
    w = worker()
    out = w.start(0)
    assert seqs(out) == [1, 2]
    for s, data in zip((1, 2), out):
        got = parse(data)
        assert got["ethertype"] == 0x0700 and got["len"] == 308
        assert got["eth_dst"] == PS_MAC and got["eth_src"] == W_MAC
        assert got["bitmap"] == 1 and got["fan_in"] == 2 and got["flags"] == 0
        assert got["app_id"] == 1 and got["seq"] == s
        assert got["agtr"] == SLOTS[s - 1] and got["agtr2"] == SLOTS[s - 1] + 16
        assert got["values"] == chunk(s)
        assert got["key"] == 7 and got["tensor_len"] == 300


@pytest.mark.rule("7.1")
def test_7_opening_window_is_min_of_S_and_packets():
    w = worker(job(window=8, tensors=((7, 100),)), tensors=[(7, DATA[:100])])
    assert seqs(w.start(0)) == [1, 2]


@pytest.mark.rule("1")
def test_7_last_packet_is_zero_padded():
    w = worker(job(window=8))
    out = w.start(0)
    assert seqs(out) == [1, 2, 3, 4, 5]
    last = parse(out[4])["values"]
    assert last[:52] == list(range(148, 200)) and last[52:] == [0] * 10


@pytest.mark.rule("7.1")
def test_7_parameter_for_s_sends_s_plus_S():
    w = worker()
    w.start(0)
    out = w.on_frame(param(1), 10)
    assert seqs(out) == [3]
    got = parse(out[0])
    assert got["resend"] == 0 and got["agtr"] == 10 and got["values"] == chunk(3)
    assert seqs(w.on_frame(param(2), 11)) == [4]
    assert seqs(w.on_frame(param(3), 12)) == [5]
    assert w.on_frame(param(4), 13) == []                    # 6 > 5 packets


@pytest.mark.rule("7.1")
def test_7_ps_index_is_key_mod_num_ps():
    j = Job(app_id=1, workers=("w0", "w1"), pses=("ps", "w1x"), window=2,
            tensors=(Tensor(5, 62),), scale=1.0)
    topo = Topology((Rack("r0", ("w0", "w1", "ps", "w1x")),))
    w = Worker(j, 0, JobLayout(j, topo), W_MAC, [PS_MAC, b"\x02" * 6], SLOTS, 16,
               [(5, DATA[:62])], SPEC)
    got = parse(w.start(0)[0])
    assert got["ps_index"] == 1 and got["eth_dst"] == b"\x02" * 6


# ---------------------------------------------------------------- loss recovery ----

@pytest.mark.rule("7.2")
def test_7_hole_triggers_resend_once_per_hole():
    w = worker(job(window=3))
    assert seqs(w.start(0)) == [1, 2, 3]
    out = w.on_frame(param(3), 10)               # 1 and 2 unacknowledged below 3
    got = [parse(f) for f in out]
    assert [(g["seq"], g["resend"]) for g in got] == [(1, 1), (2, 1)]   # 6 > 5 packets
    assert got[0]["values"] == chunk(1) and got[0]["agtr"] == 10
    out = w.on_frame(param(2), 11)               # hole 1 already resent: not again
    assert out == []                             # and A stays 0: nothing new (7.1)
    out = w.on_frame(param(1), 12)               # A = 3: 4 and 5 (<= A + S = 6)
    assert seqs(out) == [4, 5] and all(parse(f)["resend"] == 0 for f in out)


# ---------------------------------------------------------------- sliding window ---
# Spec 7 (rev. 3): with A the highest seq such that it and every seq before it are
# acknowledged, seq t goes out only when t <= A + w. Worked by hand for S = 3 and a
# 5-packet tensor (and S = 2 for the last one).

@pytest.mark.rule("7.1")
def test_7_sliding_window_parameter_that_does_not_move_A_lets_out_nothing():
    w = worker(job(window=3))
    assert seqs(w.start(0)) == [1, 2, 3]         # A = 0: t <= 3
    out = w.on_frame(param(2), 10)               # A still 0 (1 unacknowledged)
    assert [(parse(f)["seq"], parse(f)["resend"]) for f in out] == [(1, 1)]   # the hole
    assert 5 not in w.current.sent               # the old per-slot rule sent 2 + S = 5
    out = w.on_frame(param(1), 11)               # A = 2: t <= 5
    assert seqs(out) == [4, 5]


@pytest.mark.rule("7.1")
def test_7_sliding_window_lets_out_what_the_moved_A_admits():
    w = worker(job(window=3))
    w.start(0)
    assert seqs(w.on_frame(param(1), 10)) == [4]          # A = 1: t <= 4
    assert seqs(w.on_frame(param(3), 11)) == [2]          # A = 1: hole 2 resent, no new
    assert seqs(w.on_frame(param(2), 12)) == [5]          # A = 3: t <= 6, 5 packets
    assert w.current.ack_front == 3


@pytest.mark.rule("7.1")
def test_7_sliding_window_never_more_than_S_beyond_A():
    # S = 2: every frame a worker sends is within A + S at that moment
    w = worker(job(window=2))
    sent = seqs(w.start(0))
    for s in (2, 1, 4, 3):
        acked_front = w.current.ack_front
        new = [parse(f)["seq"] for f in w.on_frame(param(s), s) if not parse(f)["resend"]]
        assert all(t <= w.current.ack_front + 2 for t in new), (s, acked_front, new)
        sent += new
    assert sent == [1, 2, 3, 4, 5]


@pytest.mark.rule("7.2")
def test_7_duplicate_parameter_is_ignored():
    w = worker()
    w.start(0)
    w.on_frame(param(1), 10)
    assert w.on_frame(param(1), 11) == []
    assert w.on_frame(param(5), 12) == []       # never sent: ignored too


@pytest.mark.rule("7.2")
def test_7_start_timeout_is_50ms_and_resends_whole_window():
    w = worker()
    w.start(1_000)
    assert w.deadline() == 1_000 + 50 * MS
    assert w.on_timeout(1_000 + 50 * MS - 1) == []
    out = w.on_timeout(1_000 + 50 * MS)
    got = [parse(f) for f in out]
    assert [(g["seq"], g["resend"]) for g in got] == [(1, 1), (2, 1)]


@pytest.mark.rule("7.2")
def test_7_timeout_after_traffic_is_200us_and_resends_unacknowledged():
    w = worker()
    w.start(0)
    w.on_frame(param(1), 5_000)                  # sends 3
    assert w.deadline() == 5_000 + 200 * US
    assert w.on_timeout(5_000 + 200 * US - 1) == []
    out = w.on_timeout(5_000 + 200 * US)
    assert [(parse(f)["seq"], parse(f)["resend"]) for f in out] == [(2, 1), (3, 1)]
    assert w.deadline() == 5_000 + 400 * US      # restarted


@pytest.mark.rule("7.2")
def test_7_any_frame_of_the_job_restarts_the_timer():
    w = worker()
    w.start(0)
    w.on_frame(param(1), 5_000)
    w.on_frame(param(1), 7_000)                  # a duplicate still counts as traffic
    assert w.deadline() == 7_000 + 200 * US


# ---------------------------------------------------------------- collision --------

@pytest.mark.rule("7.3")
def test_7_collision_remaps_slot_to_tensor_len():
    w = worker()
    w.start(0)
    out = w.on_frame(param(1, flags=COLLISION, tensor_len=13), 10)
    got = parse(out[0])
    assert got["seq"] == 3 and got["agtr"] == 13 and got["agtr2"] == 13 + 16
    assert w.slots == [13, 11]
    got = parse(w.on_frame(param(2), 11)[0])
    assert got["seq"] == 4 and got["agtr"] == 11


# ---------------------------------------------------------------- float request ----

def fbits_list(xs):
    return [struct.unpack("!i", struct.pack("!f", float(x)))[0] for x in xs]


@pytest.mark.rule("7.4")
def test_7_float_request_resends_seq_in_float_mode_once_per_request():
    w = worker()
    w.start(0)
    req = param(2, flags=OVERFLOW, values=vals())
    out = w.on_frame(req, 10)
    assert len(out) == 1
    got = parse(out[0])
    assert got["seq"] == 2 and got["overflow"] == 1 and got["resend"] == 1
    assert got["values"] == fbits_list(chunk(2))
    assert len(w.on_frame(req, 11)) == 1          # a second request: a second resend
    assert 2 not in w.current.acked               # a request is not a parameter
    # later resends of that seq stay in float mode
    out = w.on_timeout(w.deadline())
    by_seq = {parse(f)["seq"]: parse(f) for f in out}
    assert by_seq[2]["overflow"] == 1 and by_seq[1]["overflow"] == 0


@pytest.mark.rule("7.4")
def test_7_float_request_for_acknowledged_seq_ignored():
    w = worker()
    w.start(0)
    w.on_frame(param(1), 10)
    assert w.on_frame(param(1, flags=OVERFLOW), 11) == []


@pytest.mark.rule("7.4")
def test_7_float_parameter_is_a_parameter_not_a_request():
    w = worker()
    w.start(0)
    fvals = vals(*fbits_list([1.5, -2.0]))
    out = w.on_frame(param(1, flags=OVERFLOW | RESEND, values=fvals), 10)
    assert seqs(out) == [3]
    outcome = w.current.acked[1]
    assert outcome.float_mode and list(outcome.raw[:3]) == [1.5, -2.0, 0.0]


@pytest.mark.rule("3")
def test_7_packet_over_threshold_goes_in_float_mode():
    w = worker(job(threshold=150.0))             # chunk 5 holds 199 > 150
    w.start(0)
    w.on_frame(param(1), 1)
    got = parse(w.on_frame(param(2), 2)[0])
    assert got["seq"] == 4 and got["overflow"] == 0 and got["values"] == chunk(4)
    got = parse(w.on_frame(param(3), 3)[0])
    assert got["seq"] == 5 and got["overflow"] == 1 and got["resend"] == 0
    assert got["values"] == fbits_list(chunk(5))


# ---------------------------------------------------------------- AIMD -------------

def cc_worker(n_packets=40, window=4):
    j = job(window=window, cc=True, tensors=((7, 62 * n_packets),))
    data = np.arange(62 * n_packets, dtype=np.float32) % 1000
    return worker(j, tensors=[(7, data)])


def cparam(s, ecn=False):
    return frame(app_id=1, seq=s, bitmap=3, fan_in=2, key=7, flags=ACK | (ECN if ecn else 0),
                 tensor_len=62 * 40)


@pytest.mark.rule("7.5")
def test_7_aimd_starts_at_S_frames_and_grows_by_1500_at_boundary():
    w = cc_worker()
    assert w.cwnd == 4 * 308
    assert seqs(w.start(0)) == [1, 2, 3, 4]
    for s in (1, 2, 3):
        w.on_frame(cparam(s), s)
    assert w.cwnd == 4 * 308                     # no boundary yet
    w.on_frame(cparam(4), 4)                     # the window boundary
    # 1232 + 1500 = 2732, rounded down to whole 308-byte frames: 2464 (8 frames)
    assert w.cwnd == 2464
    assert w.window() == 4                       # decision: capped at S


@pytest.mark.rule("7.5")
def test_7_aimd_ecn_in_the_window_halves_at_boundary():
    w = cc_worker()
    w.start(0)
    w.on_frame(cparam(1, ecn=True), 1)
    assert w.cwnd == 1232                        # not yet: boundary is seq 4
    w.on_frame(cparam(2), 2)
    w.on_frame(cparam(3), 3)
    w.on_frame(cparam(4), 4)
    assert w.cwnd == 616 and w.window() == 2


@pytest.mark.rule("7.5")
def test_7_aimd_window_limits_packets_in_flight():
    w = cc_worker()
    w.start(0)
    w.cwnd = 616                                 # two frames
    out = w.on_frame(cparam(1), 1)               # 2, 3, 4 in flight: no new seq
    assert out == []
    w.on_frame(cparam(2), 2)
    assert seqs(w.on_frame(cparam(3), 3)) == [5]   # 4 in flight -> room for one
    assert len(w.current.sent) - len(w.current.acked) == 2


@pytest.mark.rule("7.5")
def test_7_aimd_clamps_low_at_one_frame():
    w = cc_worker()
    w.start(0)
    w.cwnd = 308
    for s in (1, 2, 3):
        w.on_frame(cparam(s), s)
    w.on_frame(cparam(4, ecn=True), 4)
    assert w.cwnd == 308 and w.window() == 1


@pytest.mark.rule("7.5")
@pytest.mark.parametrize("start,expected", [(30000, 30800), (30800, 30800),
                                            (29400, 30800)])
def test_7_aimd_clamps_high_at_100_frames(start, expected):
    w = cc_worker()
    w.start(0)
    w.cwnd = start
    for s in (1, 2, 3, 4):
        w.on_frame(cparam(s), s)
    assert w.cwnd == expected


@pytest.mark.rule("7.5")
def test_7_without_cc_ecn_does_not_change_window():
    w = worker()
    w.start(0)
    out = w.on_frame(param(1, flags=ECN), 1)
    assert seqs(out) == [3] and w.window() == 2


# ---------------------------------------------------------------- keys -------------

@pytest.mark.rule("7.1")
def test_7_parameter_for_previous_key_ignored():
    j = job(window=2, tensors=((7, 62), (8, 62)))
    w = worker(j, tensors=[(7, DATA[:62]), (8, DATA[62:124])])
    assert [(parse(f)["key"], parse(f)["seq"]) for f in w.start(0)] == [(7, 1)]
    out = w.on_frame(param(1, key=7, tensor_len=62), 10)   # tensor 7 done: start 8
    # spec section 1: seq continues across the job's tensors (8's first is 2)
    assert [(parse(f)["key"], parse(f)["seq"]) for f in out] == [(8, 2)]
    assert parse(out[0])["agtr"] == 11                     # slot (2 - 1) % S = 1
    assert w.on_frame(param(1, key=7, tensor_len=62), 11) == []
    assert w.on_frame(param(2, key=7, tensor_len=62), 11) == []   # wrong key, right seq
    assert not w.current.acked and w.current.key == 8
    assert w.on_frame(param(2, key=8, values=vals(4), tensor_len=62), 12) == []
    assert w.finished
    assert w.tensor_result(8)[0] == 4.0


@pytest.mark.rule("1")
def test_7_seq_continues_across_tensors_and_wraps_after_65535():
    # spec section 1 (the release restarts seq at 1 per tensor: 9.7)
    j = job(window=2, tensors=((7, 62 * 3), (8, 62 * 2)))
    w = worker(j, tensors=[(7, DATA[:186]), (8, DATA[:124])])
    w.start(0)
    w.on_frame(param(1, key=7), 1)
    w.on_frame(param(2, key=7), 2)
    out = w.on_frame(param(3, key=7), 3)
    got = [parse(f) for f in out]
    assert [(g["key"], g["seq"], g["agtr"]) for g in got] == [(8, 4, 11), (8, 5, 10)]
    from reference.worker import TensorProgress
    t = TensorProgress(key=1, length=62 * 3, data=None, packets=3, base=65534)
    assert [t.wire_seq(s) for s in (1, 2, 3)] == [65535, 1, 2]
    assert [t.local_seq(x) for x in (65535, 1, 2)] == [1, 2, 3]


@pytest.mark.rule("9.7")
def test_9_7_release_worker_restarts_seq_per_tensor():
    """Tensor 8's packets are seq 1 and 2 again, on the slots of seq 1 and 2 (the owner
    words of tensor 7's seq 1 and 2)."""
    j = job(window=2, tensors=((7, 62 * 3), (8, 62 * 2)))
    w = worker(j, profile=ATP_RELEASE, tensors=[(7, DATA[:186]), (8, DATA[:124])])
    w.start(0)
    w.on_frame(param(1, key=_le64(7)), 1)
    w.on_frame(param(2, key=_le64(7)), 2)
    out = w.on_frame(param(3, key=_le64(7)), 3)
    got = [parse(f) for f in out]
    assert [(g["key"], g["seq"], g["agtr"]) for g in got] == [(_le64(8), 1, 10),
                                                              (_le64(8), 2, 11)]
    # a late parameter packet of tensor 7's seq 1 is stale (other key), tensor 8's counts
    assert w.on_frame(param(1, key=_le64(7)), 4) == []
    w.on_frame(param(1, key=_le64(8), values=vals(5)), 5)
    assert 1 in w.current.acked


@pytest.mark.rule("7.6")
def test_7_result_is_dequantized_parameter_values():
    j = Job(app_id=1, workers=("w0", "w1"), pses=("ps",), window=2,
            tensors=(Tensor(7, 70),), scale=1000.0)
    w = worker(j, tensors=[(7, np.zeros(70, np.float32))])
    w.start(0)
    w.on_frame(param(1, values=vals(1500, -2), tensor_len=70), 1)
    w.on_frame(param(2, values=vals(*range(62)), tensor_len=70), 2)
    r = w.tensor_result(7)
    assert r.shape == (70,)
    assert r[0] == 1.5 and r[1] == -0.002 and r[62] == 0.0 and r[69] == 0.007


@pytest.mark.rule("7")
def test_7_worker_ignores_other_jobs_and_gradients():
    w = worker()
    w.start(0)
    assert w.on_frame(frame(app_id=2, seq=1, flags=ACK, key=7), 1) == []
    assert w.on_frame(frame(app_id=1, seq=1, bitmap=2, fan_in=2, key=7), 1) == []
    assert not w.current.acked


# ---------------------------------------------------------------- two-level --------

@pytest.mark.rule("8.1")
def test_8_worker_fills_shim_fan_in1_and_rack_id():
    topo = Topology((Rack("r0", ("a0", "ps")), Rack("r1", ("b0", "b1"))))
    j = Job(app_id=1, workers=("a0", "b0", "b1"), pses=("ps",), window=1,
            tensors=(Tensor(7, 62),), scale=1.0)
    layout = JobLayout(j, topo)
    w = Worker(j, 2, layout, W_MAC, [PS_MAC], [3], 16, [(7, DATA[:62])], SPEC)
    got = parse(w.start(0)[0])
    assert got["ethertype"] == 0x0701 and got["len"] == 316
    assert (got["bitmap1"], got["fan_in1"], got["level"], got["rack_id"]) == (0, 2, 0, 1)
    assert got["bitmap"] == 0b10 and got["fan_in"] == 2     # b1 is rack 1's 2nd worker


# ---------------------------------------------------------------- 9.3 / 9.6 --------

@pytest.mark.rule("9.6")
def test_9_6_release_worker_marks_float_and_waits_for_next_resend():
    w = worker(profile=ATP_RELEASE)
    w.start(0)
    assert w.on_frame(param(2, key=_le64(7), flags=OVERFLOW), 10) == []
    out = w.on_timeout(w.deadline())
    by_seq = {parse(f)["seq"]: parse(f) for f in out}
    assert by_seq[2]["overflow"] == 1 and by_seq[2]["resend"] == 1
    assert by_seq[1]["overflow"] == 0
    # float values in network order (9.3 as corrected: only the key is host order)
    expected = [struct.unpack("!i", struct.pack("!f", float(x)))[0] for x in chunk(2)]
    assert by_seq[2]["values"] == expected


def _le64(x):
    return int.from_bytes(x.to_bytes(8, "little"), "big")


@pytest.mark.rule("9.3")
def test_9_3_release_worker_writes_key_in_host_order_and_reads_index_in_network_order():
    w = worker(profile=ATP_RELEASE)
    got = parse(w.start(0)[0])
    assert got["key"] == _le64(7)
    out = w.on_frame(param(1, key=_le64(7), flags=COLLISION, tensor_len=13), 10)
    assert parse(out[0])["agtr"] == 13


@pytest.mark.rule("1")
def test_7_cc_never_sends_seq_plus_S_while_seq_is_unacknowledged():
    # seq and seq + S share an aggregator: with CC, seq 5 waits for seq 1 (S = 4)
    w = cc_worker()
    w.start(0)
    for s in (2, 3):
        out = w.on_frame(cparam(s), s)
        assert 5 not in [parse(f)["seq"] for f in out if not parse(f)["resend"]]
    assert 5 not in w.current.sent
    w.on_frame(cparam(1), 4)
    assert 5 in w.current.sent


@pytest.mark.rule("7.5")
def test_7_aimd_adjusts_once_per_window():
    w = cc_worker()
    w.start(0)
    for s in (1, 2, 3, 4):
        w.on_frame(cparam(s), s)
    assert w.cwnd == 2464                          # grew once, at seq 4
    w.on_frame(cparam(5), 5)                       # inside the next window
    assert w.cwnd == 2464
    w.on_frame(cparam(6, ecn=True), 6)
    assert w.cwnd == 2464                          # halving waits for the boundary
