"""Topology and jobs (spec section 1 limits), validated with errors that name the culprit."""

from __future__ import annotations

import pytest

from reference.control_plane import build_switch_configs
from reference.topology import Job, Rack, Tensor, Topology, TopologyError

TOPO = Topology((Rack("r0", ("h0", "h1", "h2")), Rack("r1", ("h3", "h4"))))


def job(**kw):
    base = dict(app_id=1, workers=("h0", "h1"), pses=("h2",), window=2,
                tensors=(Tensor(1, 62),))
    base.update(kw)
    return Job(**base)


def test_ports_and_macs():
    assert [TOPO.host_port(h) for h in ("h0", "h1", "h2", "h3", "h4")] == [1, 2, 3, 1, 2]
    assert Topology((Rack("a", ("h",)), Rack("b", ("g",)))).uplink_port(1) == 101
    assert TOPO.host_mac("h4") == bytes((2, 0, 0, 0, 1, 2))


@pytest.mark.parametrize("racks,needle", [
    ((), "at least one rack"),
    ((Rack("r0", ("a",)), Rack("r0", ("b",))), "'r0'"),
    ((Rack("r0", ("a",)), Rack("r1", ("a",))), "host 'a'"),
])
def test_bad_topology(racks, needle):
    with pytest.raises(TopologyError) as info:
        Topology(racks)
    assert needle in str(info.value)


@pytest.mark.parametrize("kw,needle", [
    (dict(app_id=0), "app_id must be in 1..65535"),
    (dict(workers=()), "1..32 workers"),
    (dict(workers=tuple(f"x{i}" for i in range(33))), "1..32 workers"),
    (dict(pses=("h2", "h3", "h4", "h0", "h1")), "1..4 PSes"),
    (dict(workers=("h0", "h2")), "both worker and PS"),
    (dict(workers=("h0", "nope")), "worker host 'nope' is in no rack"),
    (dict(window=0), "window S"),
    (dict(tensors=(Tensor(1, 62), Tensor(1, 10))), "distinct"),
    (dict(tensors=(Tensor(1, 62 * 65535 + 1),)), "seq is 16 bits"),
    (dict(tensors=(Tensor(2**64, 62),)), "u64"),
])
def test_bad_job_names_the_job(kw, needle):
    with pytest.raises(TopologyError) as info:
        job(**kw).validate(TOPO)
    assert needle in str(info.value)
    if "host" not in needle:
        assert str(info.value).startswith(f"job {kw.get('app_id', 1)}: ")


def test_32_workers_and_4_pses_are_fine():
    big = Topology((Rack("r0", tuple(f"w{i}" for i in range(32)) + ("p0", "p1", "p2", "p3")),))
    Job(app_id=1, workers=tuple(f"w{i}" for i in range(32)), pses=("p0", "p1", "p2", "p3"),
        window=1, tensors=(Tensor(1, 62),)).validate(big)


def test_duplicate_app_ids_and_pool_bounds_rejected():
    with pytest.raises(TopologyError):
        build_switch_configs(TOPO, [job(), job()])
    with pytest.raises(TopologyError):
        build_switch_configs(TOPO, [job()], pool_size=0x10001)
