"""Coverage counted by p4sim: each point's count is the number of packets that took it,
on a small program with one construct of each coverable kind (programs/coverage.p4),
and coverage costs nothing in what the program computes."""
import os

import pytest

import p4sim
from p4sim.coverage import Coverage
from p4sim_helpers import PROGRAMS, eth

KNOWN_DST = 0x020000000001


def _program(**kw):
    return p4sim.compile_file(os.path.join(PROGRAMS, "coverage.p4"), **kw)


def _traffic():
    """(name, frame, how many): 3 IPv4 frames to an unknown address (forward misses,
    drop), 4 tags of kind 1 (bump: 3 below its limit of 3, then 1 at it), 2 of kind 2,
    1 of kind 7 (classify misses), 2 of an unknown ether type (the parser rejects)."""
    tag = lambda kind: eth(KNOWN_DST, 0, 0x88b5) + bytes([kind, 0]) + bytes(40)
    return [("ipv4", eth(0x0200000000ff, 0, 0x0800) + bytes(40), 3),
            ("kind1", tag(1), 4), ("kind2", tag(2), 2), ("kind7", tag(7), 1),
            ("other", eth(KNOWN_DST, 0, 0x1234) + bytes(40), 2)]


EXPECTED = {   # point id -> packets that took it (12 frames in all)
    "state IgParser | state start": 12,
    "transition IgParser | start -> parse_ethernet": 12,
    "state IgParser | state parse_ethernet": 12,
    "transition IgParser | parse_ethernet -> parse_tag": 7,
    "transition IgParser | parse_ethernet -> accept": 3,
    "transition IgParser | parse_ethernet -> reject": 2,
    "state IgParser | state parse_tag": 7,
    "statement Ingress | forward.apply();": 10,
    "table Ingress.forward | hit": 7,
    "table Ingress.forward | miss": 3,
    "action Ingress.set_port | action set_port(PortId_t port) {": 7,
    "action Ingress.drop | action drop() {": 3,
    "branch Ingress | if (hdr.tag.isValid()) { -> true": 7,
    "branch Ingress | if (hdr.tag.isValid()) { -> false": 3,
    "entry Ingress.classify | 1 : mark(10);": 4,
    "entry Ingress.classify | 2 : mark(20);": 2,
    "table Ingress.classify | hit": 6,
    "table Ingress.classify | miss": 1,
    "action Ingress.mark | action mark(bit<8> v) {": 6,
    "branch Ingress | switch (hdr.tag.kind) { -> case 1": 4,
    "branch Ingress | switch (hdr.tag.kind) { -> case default": 3,
    "register_action Ingress.bump | void apply(inout bit<8> v, out bit<8> rv) {": 4,
    "branch Ingress.bump | if (v < 3) { -> true": 3,
    "branch Ingress.bump | if (v < 3) { -> false": 1,
    "statement Ingress.bump | v = v + 1;": 3,
    "statement Ingress.bump | rv = v;": 4,
    "emit IgDeparser | emit hdr.ethernet": 10,     # dropped frames are deparsed too
    "emit IgDeparser | emit hdr.tag": 7,
    "state EmptyEgressParser | state start": 7,   # the dropped ones never reach egress
}


def _run(program):
    sw = p4sim.Switch(program)
    sw.table_add("Ingress.forward", {"hdr.ethernet.dst_addr": KNOWN_DST}, "set_port",
                 {"port": 5})
    out = []
    for _, frame, n in _traffic():
        for _ in range(n):
            out.append(sw.inject(1, frame))
    return out


def test_each_count_is_the_packets_that_took_the_point():
    program = _program()
    _run(program)
    cov = program.coverage()
    assert {pid: cov.hits_of(pid) for pid in EXPECTED} == EXPECTED
    # every point of the program is one of these kinds, located in the program's files
    assert {p.kind for p in cov.points} == {"state", "transition", "statement", "branch",
                                            "action", "table", "entry",
                                            "register_action", "emit"}
    assert all(p.file.endswith("coverage.p4") and p.line > 0 for p in cov.points)
    assert len({p.id for p in cov.points}) == len(cov.points)
    assert cov.uncovered() == []            # this traffic takes every point


def test_counts_add_up_over_switches_and_reset():
    program = _program()
    _run(program)
    _run(program)                           # a second switch of the same program
    cov = program.coverage()
    assert cov.hits_of("table Ingress.forward | miss") == 6
    program.coverage_reset()
    assert set(program.coverage().hits) == {0}
    assert [p.id for p in program.coverage().uncovered()] == [p.id for p in cov.points]


def test_uncovered_points_are_named_with_their_line():
    program = _program()
    sw = p4sim.Switch(program)
    sw.inject(1, eth(1, 0, 0x0800) + bytes(40))     # one IPv4 frame: forward misses
    cov = program.coverage()
    missing = {p.id for p in cov.uncovered()}
    assert "table Ingress.forward | hit" in missing
    assert "table Ingress.forward | miss" not in missing
    text = "\n".join(cov.lines())
    assert "coverage.p4:54: table hit/miss Ingress.forward: hit" in text
    covered, total = cov.figure()
    assert text.startswith(f"{covered}/{total} points covered")


def test_merge_and_json_round_trip(tmp_path):
    a, b = _program(), _program()
    _run(a)
    p4sim.Switch(b).inject(1, eth(1, 0, 0x0800) + bytes(40))
    merged = a.coverage().merged(b.coverage())
    assert merged.hits_of("table Ingress.forward | miss") == 4
    path = tmp_path / "cov.json"
    merged.write(path)
    back = Coverage.from_dict(__import__("json").loads(path.read_text()))
    assert back.hits == merged.hits and [p.id for p in back.points] == [p.id for p in merged.points]
    other = p4sim.compile_file(os.path.join(PROGRAMS, "l2_forward.p4")).coverage()
    with pytest.raises(ValueError):
        merged.merged(other)


def test_without_coverage_the_program_computes_the_same():
    on, off = _program(), _program(coverage=False)
    assert off.coverage_points == [] and "COV[" not in off.python_source
    assert _run(on) == _run(off)
