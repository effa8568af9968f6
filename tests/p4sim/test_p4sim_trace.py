"""A packet's path (p4sim.trace): per stage, the parser states, tables with hit/miss,
const entries, actions, RegisterActions and arms it ran, with file:line; on the
program of test_p4sim_coverage (one construct of each kind), and on the command line."""
import os

import p4sim
from p4sim.cli import main
from p4sim.trace import Tracer, trace_packet
from p4sim_helpers import PROGRAMS, eth
from scapy.utils import wrpcap
from scapy.layers.l2 import Ether

KNOWN_DST = 0x020000000001
COVERAGE = os.path.join(PROGRAMS, "coverage.p4")


def _switch():
    sw = p4sim.Switch(p4sim.compile_file(COVERAGE))
    sw.table_add("Ingress.forward", {"hdr.ethernet.dst_addr": KNOWN_DST}, "set_port",
                 {"port": 5})
    return sw


def _kind1():
    return eth(KNOWN_DST, 0, 0x88b5) + bytes([1, 0]) + bytes(40)


def test_the_path_names_each_construct_the_packet_ran_with_its_line():
    sw = _switch()
    out, path = trace_packet(sw, 1, _kind1())
    assert [port for port, _ in out] == [5]
    assert [s.label for s in path.stages] == ["ingress pass 1, port 1", "egress, port 5"]
    ran = {p.id for p, _ in path.stages[0].points}
    for expected in ("state IgParser | state parse_tag", "table Ingress.forward | hit",
                     "action Ingress.set_port | action set_port(PortId_t port) {",
                     "entry Ingress.classify | 1 : mark(10);",
                     "register_action Ingress.bump | void apply(inout bit<8> v, out bit<8> rv) {",
                     "branch Ingress.bump | if (v < 3) { -> true"):
        assert expected in ran
    assert "table Ingress.forward | miss" not in ran
    assert "branch Ingress.bump | if (v < 3) { -> false" not in ran
    text = "\n".join(path.lines())
    assert "coverage.p4:39" in text or "coverage.p4:40" in text     # the RegisterAction
    assert "RegisterAction" in text and "table          Ingress.forward hit" in text
    # the register's arm follows its state: the fourth packet takes the other arm
    for _ in range(2):
        sw.inject(1, _kind1())
    _, fourth = Tracer(sw.program).packet(sw, 1, _kind1())
    arms = {p.id for p in fourth.points() if p.kind == "branch" and p.block == "Ingress.bump"}
    assert arms == {"branch Ingress.bump | if (v < 3) { -> false"}


def test_tracing_changes_neither_the_output_nor_the_coverage_it_adds():
    plain, traced = _switch(), _switch()
    assert plain.inject(1, _kind1()) == trace_packet(traced, 1, _kind1())[0]
    assert traced.tracer is None


def test_run_trace_prints_each_frames_path(tmp_path, capsys):
    frame = Ether(dst="02:00:00:00:00:01", src="02:00:00:00:00:02", type=0x88B5) / (
        bytes([1, 0]) + bytes(48))
    wrpcap(str(tmp_path / "in.pcap"), [frame])
    (tmp_path / "cp.yaml").write_text(
        "- table_add: [Ingress.forward, {hdr.ethernet.dst_addr: 0x020000000001}, set_port, {port: 5}]\n")
    assert main(["run", COVERAGE, "--pcap", str(tmp_path / "in.pcap"), "--port", "1",
                 "--control", str(tmp_path / "cp.yaml"), "-o", str(tmp_path / "o.pcap"),
                 "--trace"]) == 0
    out = capsys.readouterr().out
    assert "frame 1: path" in out and "  ingress pass 1, port 1:" in out
    assert "RegisterAction" in out and "Ingress.bump" in out and "coverage.p4:" in out
    assert "frame 1: port 5" in out
