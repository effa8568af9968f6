"""Pipes (p4sim/pipes.py): per-pipe tables and registers, ingress in the ingress port's
pipe and egress in the egress port's, multicast and recirculation across pipes, the
symmetric control plane and single-pipe writes."""
import pytest

import p4sim
from p4sim.pipes import pipe_of, recirculation_ports

from p4sim_helpers import compiled

DST = 0x1


def frame(dst=DST):
    return dst.to_bytes(6, "big") + bytes(6) + b"\x08\x00" + bytes(2)


@pytest.fixture
def prog():
    return compiled("pipes.p4")


def test_the_pipe_of_a_port_is_port_shifted_by_7():
    assert [pipe_of(p) for p in (0, 127, 128, 255, 256, 383, 384, 511)] == [0, 0, 1, 1, 2, 2, 3, 3]
    assert recirculation_ports(68, 4) == {68, 196, 324, 452}


@pytest.mark.parametrize("pipes", [2, 4])
def test_ingress_runs_in_the_ingress_ports_pipe_and_egress_in_the_egress_ports(prog, pipes):
    sw = p4sim.Switch(prog, pipes=pipes)
    assert sw.num_pipes == pipes and len(sw.pipes) == pipes
    sw.table_add("forward", {"hdr.eth.dst": DST}, "to_port", {"port": 130})
    for ig in (5, 129):
        assert [p for p, _ in sw.inject(ig, frame())] == [130]
    seen_in = sw.register_read_all_pipes("Ingress.seen_in")
    seen_out = sw.register_read_all_pipes("Egress.seen_out")
    assert [int(a[5]) for a in seen_in] == [1] + [0] * (pipes - 1)
    assert [int(a[129]) for a in seen_in] == [0, 1] + [0] * (pipes - 2)
    assert [int(a[130]) for a in seen_out] == [0, 2] + [0] * (pipes - 2)
    # counters are summed over the pipes; each pipe has its own
    assert sw.counter_read("frames", 5)[0] == 1
    assert sw.pipe(0).counter_read("frames", 129)[0] == 0
    assert sw.pipe(1).counter_read("frames", 129)[0] == 1


def test_multicast_copies_egress_each_in_its_ports_pipe(prog):
    sw = p4sim.Switch(prog, pipes=4)
    sw.table_add("forward", {"hdr.eth.dst": DST}, "to_group", {"mgid": 7})
    sw.multicast_group_set(7, [(1, [3, 140, 300, 400])])
    out = sw.inject(3, frame())
    assert [p for p, _ in out] == [3, 140, 300, 400]
    assert [int(v) for v in sw.register_read_pipes("Egress.seen_out", 140)] == [0, 1, 0, 0]
    assert [int(v) for v in sw.register_read_pipes("Egress.seen_out", 400)] == [0, 0, 0, 1]


def test_recirculation_reenters_ingress_in_the_pipe_of_the_recirculation_port(prog):
    sw = p4sim.Switch(prog, pipes=4, recirculation_port=68)
    sw.table_add("forward", {"hdr.eth.dst": DST}, "to_port", {"port": 196})
    sw.pipe(1).table_modify("forward", {"hdr.eth.dst": DST}, "to_port", {"port": 10})
    out = sw.inject(1, frame())
    assert [p for p, _ in out] == [10]
    assert out[0][1][14] == 2       # two ingress passes
    assert [int(v) for v in sw.register_read_pipes("Ingress.seen_in", 196)] == [0, 1, 0, 0]


def test_writes_go_to_every_pipe_and_pipe_i_writes_one(prog):
    sw = p4sim.Switch(prog, pipes=2)
    sw.table_add("forward", {"hdr.eth.dst": DST}, "to_port", {"port": 1})
    assert sw.pipe(0).table_entries("forward") == sw.pipe(1).table_entries("forward")
    sw.register_write("Ingress.seen_in", 9, 41)
    assert sw.register_read_pipes("Ingress.seen_in", 9) == [41, 41]
    sw.pipe(1).register_write("Ingress.seen_in", 9, 5)
    assert sw.register_read_pipes("Ingress.seen_in", 9) == [41, 5]
    sw.pipe(1).table_delete("forward", {"hdr.eth.dst": DST})
    assert sw.inject(130, frame()) == []          # pipe 1 has no entry now
    assert [p for p, _ in sw.inject(2, frame())] == [1]


def test_one_value_register_reads_refuse_on_several_pipes(prog):
    sw = p4sim.Switch(prog, pipes=2)
    with pytest.raises(p4sim.ControlPlaneError, match="register_read_pipes"):
        sw.register_read("Ingress.seen_in", 0)
    with pytest.raises(p4sim.ControlPlaneError, match="pipes 0..1"):
        sw.pipe(2)


def test_a_port_of_an_absent_pipe(prog):
    sw = p4sim.Switch(prog, pipes=2)
    with pytest.raises(p4sim.P4RuntimeError, match="pipe 2"):
        sw.inject(260, frame())
    sw.table_add("forward", {"hdr.eth.dst": DST}, "to_port", {"port": 300})
    assert sw.inject(1, frame()) == []
    assert "pipe 2" in sw.drops[-1][1]
    with pytest.raises(p4sim.ControlPlaneError, match="1, 2 or 4"):
        p4sim.Switch(prog, pipes=3)


def test_one_pipe_keeps_every_port_in_its_pipe(prog):
    sw = p4sim.Switch(prog)
    assert isinstance(sw, p4sim.Switch) and sw.num_pipes == 1
    sw.table_add("forward", {"hdr.eth.dst": DST}, "to_port", {"port": 300})
    assert [p for p, _ in sw.inject(400, frame())] == [300]
    assert sw.register_read("Ingress.seen_in", 400) == 1
