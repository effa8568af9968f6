"""Spec section 8: two-level aggregation.

Topology: rack r0 = hosts a0, a1, ps (ports 1, 2, 3); rack r1 = hosts b0, b1 (ports 1, 2);
r0 reaches r1 on port 101, r1 reaches r0 on port 100. Job 1: workers a0, a1, b0, b1, PS
on r0. Job-local racks: r0 -> rack_id 0, r1 -> rack_id 1; in each rack the workers have
bits 1 and 2 and fan_in 2; fan_in1 = 2. So r0 is the upper switch (the PS's rack switch)
and also aggregates rack 0; r1 is an edge switch.
"""

from __future__ import annotations

import numpy as np
import pytest

from reference_helpers import ACK, COLLISION, OVERFLOW, RESEND, frame, parse, shim, vals
from reference.control_plane import JobRoute, build_switch_configs
from reference.profiles import SPEC
from reference.ps import IndexRegistry, ParameterServer
from reference.switch import SwitchModel
from reference.topology import Job, JobLayout, Rack, Tensor, Topology

AG = 4
TOPO = Topology((Rack("r0", ("a0", "a1", "ps")), Rack("r1", ("b0", "b1"))))
JOB = Job(app_id=1, workers=("a0", "a1", "b0", "b1"), pses=("ps",), window=4,
          tensors=(Tensor(key=0, length=62),))
OTHER = Job(app_id=2, workers=("b0",), pses=("b1",), window=4,
            tensors=(Tensor(key=0, length=62),))


def switches():
    configs = build_switch_configs(TOPO, [JOB, OTHER], pool_size=16,
                                   aggregator_timeout_ns=1_000_000)
    return SwitchModel(configs["r0"], SPEC), SwitchModel(configs["r1"], SPEC)


def g(rack_id, bit, values, **kw):
    """A level-0 gradient of job 1 from rack ``rack_id`` worker bit ``bit``."""
    return frame(app_id=1, seq=1, agtr=AG, bitmap=bit, fan_in=2, values=values,
                 shim=shim(0, 2, 0, rack_id), **kw)


def regs(sw, level):
    return sw.read_aggregators([AG], level)[AG]


def only(out, port):
    assert len(out) == 1 and out[0][0] == port, out
    return parse(out[0][1])


def changed(src, **changes):
    want = parse(src)
    want.update(changes)
    if "values" in changes:
        want["values"] = [int(v) for v in changes["values"]]
    want["flags"] = (want["overflow"] << 7 | want["ps_index"] << 5
                     | want["data_index"] << 4 | want["ecn"] << 3 | want["resend"] << 2
                     | want["collision"] << 1 | want["ack"])
    return want


@pytest.mark.rule("8.3")
def test_8_control_plane_routes_and_groups():
    configs = build_switch_configs(TOPO, [JOB])
    r0, r1 = configs["r0"], configs["r1"]
    assert r0.routes[(1, 0)] == JobRoute(to_ps_port=3, is_upper=True, local_rack_id=0)
    assert r1.routes[(1, 0)] == JobRoute(to_ps_port=100, is_upper=False, local_rack_id=1)
    assert r0.multicast[(1, 0)] == (1, 2, 101)      # local workers + the edge below
    assert r1.multicast[(1, 0)] == (1, 2)
    assert r0.l2[bytes((2, 0, 0, 0, 1, 1))] == 101  # b0 is reached through the uplink
    assert r1.l2[bytes((2, 0, 0, 0, 0, 3))] == 100  # the PS from r1
    layout = JobLayout(JOB, TOPO)
    assert layout.two_level and layout.rack_count == 2
    assert [layout.worker_bit(w) for w in range(4)] == [1, 2, 1, 2]
    assert [layout.worker_fan_in(w) for w in range(4)] == [2, 2, 2, 2]


@pytest.mark.rule("8.1")
def test_8_edge_runs_section_4_on_bitmap_and_fan_in_of_level_0():
    _, r1 = switches()
    # fan_in1 = 1 in the shim must not matter at the edge: fan_in (2) decides completion
    f = frame(app_id=1, seq=1, agtr=AG, bitmap=1, fan_in=2, values=vals(3),
              shim=shim(0, 1, 0, 1))
    assert r1.process(1, f, now=1) == []
    s = regs(r1, 0)
    assert (s.owner, s.bitmap, s.count, s.values[0]) == (1 << 16 | 1, 1, 1, 3)
    assert r1.process(1, f, now=2) == []                    # duplicate: absorbed
    assert regs(r1, 0).count == 1
    assert regs(r1, 1).owner == 0                           # level-1 pool untouched


@pytest.mark.rule("8.2")
def test_8_whole_rack_goes_up_as_level_1():
    _, r1 = switches()
    assert r1.process(1, g(1, 1, vals(10, -1)), now=1) == []
    f = g(1, 2, vals(5, -2))
    got = only(r1.process(2, f, now=2), 100)
    assert got == changed(f, bitmap=3, bitmap1=1 << 1, level=1, rack_id=1, fan_in1=2,
                          values=vals(15, -3))
    assert regs(r1, 0).owner == 1 << 16 | 1 and regs(r1, 0).count == 2


@pytest.mark.rule("8.2")
def test_8_duplicate_after_completion_goes_up_as_level_1_again():
    _, r1 = switches()
    r1.process(1, g(1, 1, vals(10)), now=1)
    r1.process(2, g(1, 2, vals(5)), now=2)
    f = g(1, 1, vals(99))
    got = only(r1.process(1, f, now=3), 100)
    assert got == changed(f, bitmap=3, bitmap1=2, level=1, values=vals(15))


@pytest.mark.rule("8.2")
def test_8_full_resend_flush_goes_up_as_level_1():
    _, r1 = switches()
    r1.process(1, g(1, 1, vals(10)), now=1)
    f = g(1, 2, vals(5), flags=RESEND)
    got = only(r1.process(2, f, now=2), 100)
    assert got == changed(f, bitmap=3, bitmap1=2, level=1, values=vals(15))
    assert regs(r1, 0).owner == 0


@pytest.mark.rule("8.2")
def test_8_partial_flush_stays_level_0():
    _, r1 = switches()
    r1.process(1, g(1, 1, vals(10)), now=1)
    f = g(1, 1, vals(10), flags=RESEND)
    got = only(r1.process(1, f, now=2), 100)
    assert got == changed(f, bitmap=1, bitmap1=0, level=0, values=vals(10))


@pytest.mark.rule("8.2")
def test_8_collision_stays_level_0():
    _, r1 = switches()
    # job 2 (single rack r1: worker b0, PS b1) owns the aggregator
    r1.process(1, frame(app_id=2, seq=1, agtr=AG, bitmap=1, fan_in=2), now=1)
    f = g(1, 1, vals(10))
    got = only(r1.process(1, f, now=2), 100)
    assert got == changed(f, collision=1)
    assert got["level"] == 0 and got["bitmap1"] == 0


@pytest.mark.rule("8.3")
def test_8_upper_switch_aggregates_level_1_with_its_own_pool():
    r0, r1 = switches()
    r1.process(1, g(1, 1, vals(1, 100)), now=1)
    up = r1.process(2, g(1, 2, vals(2, 200)), now=2)[0][1]       # rack 1's aggregate
    assert r0.process(101, up, now=3) == []                       # level-1 count 1 of 2
    l1 = regs(r0, 1)
    assert (l1.owner, l1.bitmap, l1.count) == (1 << 16 | 1, 0b10, 1)
    assert l1.values[:2] == (3, 300)
    assert regs(r0, 0).owner == 0                                 # level-0 pool untouched
    # rack 0: the local aggregate re-enters as level 1 (internal loop) and completes
    assert r0.process(1, g(0, 1, vals(10, 1000)), now=4) == []
    f = g(0, 2, vals(20, 2000))
    got = only(r0.process(2, f, now=5), 3)                        # to the PS port
    assert got == changed(f, bitmap=3, bitmap1=0b11, level=1, rack_id=0,
                          values=vals(33, 3300))
    l0 = regs(r0, 0)
    assert (l0.owner, l0.bitmap, l0.count) == (1 << 16 | 1, 3, 2)
    assert l0.values[:2] == (30, 3000)
    l1 = regs(r0, 1)
    assert (l1.bitmap, l1.count) == (0b11, 2)


@pytest.mark.rule("8.3")
def test_8_local_rack_first_then_remote_rack_completes_at_upper():
    r0, _ = switches()
    r0.process(1, g(0, 1, vals(1)), now=1)
    assert r0.process(2, g(0, 2, vals(2)), now=2) == []           # level 1, count 1
    up_l1 = frame(app_id=1, seq=1, agtr=AG, bitmap=3, fan_in=2, values=vals(40),
                  shim=shim(0b10, 2, 1, 1))
    got = only(r0.process(101, up_l1, now=3), 3)
    assert got == changed(up_l1, bitmap1=0b11, values=vals(43))


@pytest.mark.rule("8.3")
def test_8_upper_passes_foreign_level_0_frames_unaggregated():
    r0, _ = switches()
    f = g(1, 1, vals(7))                                        # level 0 from rack 1
    assert r0.process(101, f, now=1) == [(3, f)]
    assert regs(r0, 0).owner == 0 and regs(r0, 1).owner == 0
    c = g(1, 2, vals(7), flags=COLLISION)
    assert r0.process(101, c, now=2) == [(3, c)]


@pytest.mark.rule("8.5")
def test_8_parameter_packet_releases_both_levels_and_multicasts_down():
    r0, r1 = switches()
    r1.process(1, g(1, 1, vals(1)), now=1)
    r0.process(101, r1.process(2, g(1, 2, vals(2)), now=2)[0][1], now=3)
    r0.process(1, g(0, 1, vals(3)), now=4)
    r0.process(2, g(0, 2, vals(4)), now=5)
    assert regs(r0, 0).owner and regs(r0, 1).owner and regs(r1, 0).owner
    param = frame(app_id=1, seq=1, agtr=AG, bitmap=3, fan_in=2, flags=ACK,
                  values=vals(10), shim=shim(0b11, 2, 1, 0), eth_dst=b"\xff" * 6)
    out = r0.process(3, param, now=6)
    assert out == [(1, param), (2, param), (101, param)]
    for level in (0, 1):
        s = regs(r0, level)
        assert (s.owner, s.bitmap, s.count, s.ecn) == (0, 0, 0, 0)
    assert r1.process(100, param, now=7) == [(1, param), (2, param)]
    s = regs(r1, 0)
    assert (s.owner, s.bitmap, s.count, s.ecn) == (0, 0, 0, 0)


@pytest.mark.rule("8.5")
def test_8_two_level_float_request_releases_nothing():
    r0, r1 = switches()
    r1.process(1, g(1, 1, vals(1)), now=1)
    req = frame(app_id=1, seq=1, agtr=AG, flags=ACK | OVERFLOW, shim=shim(0, 2, 0, 1))
    assert r1.process(100, req, now=2) == [(1, req), (2, req)]
    assert regs(r1, 0).owner == 1 << 16 | 1


# -- the PS side of section 8 ------------------------------------------------------------

def ps():
    layout = JobLayout(JOB, TOPO)
    return ParameterServer(JOB, 0, layout, bytes((2, 0, 0, 0, 0, 3)), SPEC,
                           IndexRegistry(16))


@pytest.mark.rule("8.4")
def test_8_ps_counts_level_1_frames_by_rack_and_level_0_by_rack_workers():
    p = ps()
    layout = JobLayout(JOB, TOPO)
    assert layout.workers_of_racks(0b10) == 0b1100
    assert layout.workers_in(1, 0b01) == 0b0100
    l1 = frame(app_id=1, bitmap=3, fan_in=2, values=vals(5), shim=shim(0b10, 2, 1, 1))
    assert p.on_frame(l1) == []
    assert p.seqs[(7, 1)].counted == 0b1100
    # rack 0 worker 0 as level 0 (say, a partial flush), then worker 1
    assert p.on_frame(g(0, 1, vals(1))) == []
    assert p.seqs[(7, 1)].counted == 0b1101
    # a level-0 frame of rack 1 overlaps the counted set: ignored whole
    assert p.on_frame(g(1, 1, vals(1000))) == []
    out = p.on_frame(g(0, 2, vals(2)))
    assert len(out) == 1
    got = parse(out[0])
    assert got["ack"] == 1 and got["values"][0] == 8


@pytest.mark.rule("8.4")
def test_8_ps_full_level_1_frame_is_the_sum():
    p = ps()
    full = frame(app_id=1, bitmap=3, fan_in=2, values=vals(9, 9),
                 shim=shim(0b11, 2, 1, 0))
    out = p.on_frame(full)
    assert len(out) == 1
    got = parse(out[0])
    assert got["values"][:3] == [9, 9, 0] and got["level"] == 1 and got["bitmap1"] == 3
    assert np.array_equal(p.result(7, 1).values[:2], (9, 9))
