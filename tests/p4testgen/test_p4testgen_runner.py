"""The machinery behind the P4Testgen tests: the reader of its PTF format, the verdict,
the replay on p4sim, the triage and the provenance of the committed sets. Each test
here can fail: a reader that accepted anything, a comparison that ignored a byte or an
extra packet, names resolved elsewhere than bf-p4c's bfrt.json, would all show."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

import p4sim
import ptf_format
import regen
from p4sim_replay import ModelChanges, P4simReplay, compare
from ptf_format import EntryAdd, ExpectedPacket, FormatError, RegisterParamSet, RegisterSet
from test_p4testgen_on_softswitch import failed_tests
from testgen_sets import (GENERATED, HANDWRITTEN, RUNS, TRIAGE_KINDS, load_sets, triage,
                          xfail_reason)

HAND = next(s for s in load_sets(HANDWRITTEN) if s.name == "handwritten-register_param")


@pytest.fixture(scope="module")
def replay():
    program = p4sim.compile_file(HAND.program)
    with P4simReplay(program, HAND.p4_name, HAND.bfrt_json) as r:
        yield r


def test_the_reader_gives_calls_frames_and_masks_of_each_test():
    f = HAND.read()
    assert f.program_name == "register_param" and f.seed is None
    assert [t.name for t in f.tests] == ["Test0", "Test1", "Test2", "Test3", "Test4"]
    t0 = f.tests[0]
    assert t0.calls[0] == RegisterParamSet("SwitchIngress.budget", 5)
    assert t0.calls[1] == RegisterSet("SwitchIngress.used", 170, 2)
    add = t0.calls[2]
    assert isinstance(add, EntryAdd) and add.table == "SwitchIngress.forward"
    assert add.keys[0].as_key_value() == 0xB1 and add.action == "SwitchIngress.hit"
    assert add.data == (("port", 2),)
    assert t0.ingress_port == 1 and len(t0.frame) == 62
    assert t0.expected == ExpectedPacket(2, t0.frame, ((288, 32),))
    assert t0.coverage == 0.62 and "Hand-written" in t0.trace
    assert f.tests[1].expected is None                   # verifyPackets: pass = a drop


@pytest.mark.parametrize("old,new", [
    ("        self.insertTableEntry(", "        self.doSomethingElse("),
    ("        send_packet(self, ig_port, pkt)", "        send_packet(self, 5, pkt)"),
    ("        exp_pkt.set_do_not_care(288, 32)", "        exp_pkt.set_do_not_care(x, 32)"),
    ("gc.KeyTuple('hdr.ethernet.dst_addr', 0x0000000000B1)",
     "gc.KeyTuple('hdr.ethernet.dst_addr', 0xB1, 1, 2, 3)"),
])
def test_the_reader_refuses_what_the_template_does_not_write(tmp_path, old, new):
    text = HAND.ptf_file.read_text()
    assert old in text
    bad = tmp_path / "register_param.py"
    bad.write_text(text.replace(old, new, 1))
    with pytest.raises(FormatError, match=re.escape(str(bad)) + r":\d+: "):
        ptf_format.read(bad)


def test_a_file_without_tests_or_p4_name_is_refused(tmp_path):
    f = tmp_path / "x.py"
    f.write_text("import logging\n")
    with pytest.raises(FormatError, match="BfRuntimeTest.setUp"):
        ptf_format.read(f)


def _expected(frame: bytes, port: int = 2, dont_care=()):
    t = HAND.read().tests[0]
    return dataclasses.replace(t, expected=ExpectedPacket(port, frame, tuple(dont_care)))


def test_the_verdict_is_ptfs_mask_and_nothing_else_anywhere():
    frame = bytes(range(64))
    t = _expected(frame, dont_care=[(8, 8)])            # byte 1 is don't-care
    flipped = bytearray(frame)
    flipped[1] ^= 0xFF
    assert compare(t, [(2, bytes(flipped))], []).passed
    flipped[2] ^= 0x01                                  # a cared bit
    out = compare(t, [(2, bytes(flipped))], [])
    assert not out.passed and "first difference at byte 2" in out.detail
    assert not compare(t, [(2, frame + b"\0")], []).passed          # longer
    assert not compare(t, [(3, frame)], []).passed                  # another port
    assert not compare(t, [(2, frame), (2, frame)], []).passed      # one packet too many
    assert not compare(t, [], [("ingress", "drop_ctl")]).passed     # dropped
    drop = dataclasses.replace(t, expected=None)
    assert compare(drop, [], []).passed
    assert not compare(drop, [(2, frame)], []).passed


def test_replay_fails_a_wrong_expectation(replay):
    t = HAND.read().tests[0]
    assert replay.run(t).passed
    wrong = bytearray(t.frame)
    wrong[13] ^= 0x01                                   # ether type, a cared byte
    out = replay.run(dataclasses.replace(
        t, expected=dataclasses.replace(t.expected, frame=bytes(wrong))))
    assert not out.passed and "byte 13" in out.detail
    # without the budget the program's RegisterParam value (2) holds and used[170] = 2
    # spends it: P4Testgen's expected output would then be wrong
    assert not replay.run(dataclasses.replace(t, calls=t.calls[1:])).passed


def test_replay_resets_the_switch_between_tests(replay):
    t1, t2 = HAND.read().tests[1], HAND.read().tests[2]
    assert replay.run(t1).passed and replay.run(t2).passed
    # Test3 overrides forward's default action; Test2 after it still sees miss()
    assert replay.run(HAND.read().tests[3]).passed and replay.run(t2).passed


def test_names_resolve_through_bf_p4cs_bfrt_json(tmp_path, replay):
    """A table bf-p4c's bfrt.json lacks fails, although p4sim has it: the replay does
    not fall back to the softswitch's own schema."""
    doc = json.loads(HAND.bfrt_json.read_text())
    doc["tables"] = [t for t in doc["tables"] if not t["name"].endswith(".forward")]
    (tmp_path / "bfrt.json").write_text(json.dumps(doc))
    program = p4sim.compile_file(HAND.program)
    with P4simReplay(program, HAND.p4_name, tmp_path / "bfrt.json") as r:
        out = r.run(HAND.read().tests[0])
    assert not out.passed and "SwitchIngress.forward" in out.detail


def test_failed_ptf_tests_are_read_from_unittests_summary():
    out = ("register_param.Test0 ... ok\n"
           "======================================================================\n"
           "FAIL: runTest (register_param.Test3)\n"
           "----------------------------------------------------------------------\n"
           "ERROR: runTest (atp.Test12.runTest)\n"
           "FAIL: register_param.Test4\n"
           "ERROR: atp.Test7\n")
    assert failed_tests(out) == {"Test3", "Test12", "Test4", "Test7"}


def test_every_triage_entry_names_existing_tests_and_gives_evidence():
    sets = {s.name: {t.name for t in s.read().tests}
            for s in load_sets(GENERATED) + load_sets(HANDWRITTEN)}
    for e in triage():
        assert e.test_set in sets, f"triage names no committed set {e.test_set}"
        assert set(e.tests) <= sets[e.test_set], \
            f"{e.test_set}: triage names tests it does not have: " \
            f"{sorted(set(e.tests) - sets[e.test_set])}"
        assert e.kind in TRIAGE_KINDS and set(e.runs) <= set(RUNS)
        assert len(e.reason) > 20 and len(e.evidence) > 20
        assert xfail_reason([e], e.test_set, e.tests[0], e.runs[0]).startswith(e.kind)
        ModelChanges.named(e.confirm)       # raises on a name it does not know


def test_triage_refuses_an_entry_without_evidence(tmp_path):
    f = tmp_path / "triage.yaml"
    f.write_text("- {test_set: x, tests: [Test0], kind: p4testgen-model, reason: r}\n")
    with pytest.raises(ValueError, match="evidence"):
        triage(f)


GENERATED_SETS = load_sets(GENERATED) or [pytest.param(None, marks=pytest.mark.skip(
    reason="no generated sets committed yet: build P4Testgen (tools/p4testgen/README.md) "
           "and run make p4testgen-regen"))]


@pytest.mark.parametrize("s", GENERATED_SETS, ids=lambda s: getattr(s, "name", "none"))
def test_a_generated_set_records_its_provenance(s):
    p = s.provenance
    gen = p["p4testgen"]
    assert re.fullmatch(r"[0-9a-f]{40}", gen["p4c_commit"])
    assert gen["command"][1:5] == ["--target", "tofino", "--arch", "tna"]
    assert "--seed" in gen["command"] and str(gen["seed"]) in gen["command"]
    f = s.read()
    assert f.seed == str(gen["seed"]) and f.program_name == s.p4_name
    assert p["tests"] == len(f.tests) > 0
    assert 0 < p["statement_coverage"] <= 1
    assert p["statement_coverage"] == max(t.coverage for t in f.tests)
    assert (s.folder / "bfrt.json").exists() and s.program.exists()


def test_regen_without_p4testgen_says_how_to_build_it(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("P4TESTGEN", str(tmp_path / "nowhere" / "p4testgen"))
    monkeypatch.setattr(regen, "DEFAULT_BINARIES", (tmp_path / "none",))
    monkeypatch.setenv("PATH", str(tmp_path))
    assert regen.main(["--only", "atp-tofino"]) == 2
    err = capsys.readouterr().err
    assert "tools/p4testgen/build.sh" in err and "README" in err
    assert str(tmp_path / "nowhere" / "p4testgen") in err


def _fake_p4testgen(tmp_path, covered_per_test):
    """A stand-in for the binary: writes the hand-written PTF file under the set's p4
    name and logs P4Testgen's per-test coverage lines."""
    lines = "".join(f"echo '============ Test {i}: Nodes covered: 0.5 ({c}/40) ============'\n"
                    for i, c in enumerate(covered_per_test, 1))
    exe = tmp_path / "build" / "p4testgen"
    exe.parent.mkdir()
    exe.write_text("#!/bin/bash\n" + lines +
                   'out=""; name=""; while [ $# -gt 0 ]; do case "$1" in '
                   '--out-dir) out=$2; shift;; --test-name) name=$2; shift;; esac; shift; done\n'
                   f'sed "s/^# p4testgen seed: none/# p4testgen seed: 1/" {HAND.ptf_file} '
                   '> "$out/$name.py"\n')
    exe.chmod(0o755)
    return exe


def test_regen_writes_a_set_with_its_command_seed_and_coverage_curve(tmp_path, monkeypatch):
    monkeypatch.setattr(regen, "GENERATED", tmp_path / "generated")
    monkeypatch.setattr(regen, "compile_bfrt", lambda spec, work: {"tables": []})
    spec = regen.Spec(name="rp", program=str(HAND.program.relative_to(regen.REPO)),
                      p4_name="register_param", max_tests=5)
    exe = _fake_p4testgen(tmp_path, [10, 20, 20, 20, 20])  # 5 tests, the 2nd half adds 0
    p = regen.regenerate(exe, "a" * 40, spec)
    written = tmp_path / "generated" / "rp"
    assert sorted(f.name for f in written.iterdir()) == ["bfrt.json", "provenance.json",
                                                          "register_param.py"]
    assert p["tests"] == 5 and p["statements_covered"] == "20/40" and p["coverage_plateau"]
    assert p["coverage_curve"][0] == {"test": 1, "statements_covered": 10, "coverable": 40}
    cmd = p["p4testgen"]["command"]
    assert cmd[cmd.index("--seed") + 1] == "1" and cmd[cmd.index("--max-tests") + 1] == "5"
    assert cmd[-1] == spec.program and "--track-coverage" in cmd


def test_regen_doubles_the_tests_while_coverage_grows(tmp_path, monkeypatch):
    monkeypatch.setattr(regen, "GENERATED", tmp_path / "generated")
    monkeypatch.setattr(regen, "compile_bfrt", lambda spec, work: {"tables": []})
    spec = regen.Spec(name="rp", program=str(HAND.program.relative_to(regen.REPO)),
                      p4_name="register_param", max_tests=5)
    exe = _fake_p4testgen(tmp_path, [10, 20, 30, 35, 39])  # still growing in the 2nd half
    p = regen.regenerate(exe, "a" * 40, spec)
    # the fake always writes 5 tests: a run with --max-tests 10 "runs out of paths"
    assert [r["max_tests"] for r in p["earlier_runs"]] == [5]
    assert p["coverage_plateau"] and "--max-tests" in p["p4testgen"]["command"]
    cmd = p["p4testgen"]["command"]
    assert cmd[cmd.index("--max-tests") + 1] == "10"


def test_p4testgens_own_programs_are_read_from_a_p4c_tree_never_copied(monkeypatch, tmp_path):
    """programs.yaml names P4Testgen's test programs inside p4c ($P4C_SRC), and a set of
    one skips naming the variable where there is no p4c tree."""
    from testgen_sets import P4C_PREFIX, ProgramMissing, program_path
    p4c_sets = [s for s in regen.specs() if s.program.startswith(P4C_PREFIX)]
    assert p4c_sets, "programs.yaml lists P4Testgen's own Tofino programs"
    assert not (regen.REPO / "tests" / "p4testgen" / "upstream").exists()
    monkeypatch.delenv("P4C_SRC", raising=False)
    with pytest.raises(ProgramMissing, match=r"set P4C_SRC"):
        program_path(p4c_sets[0].program)
    inside = p4c_sets[0].program[len(P4C_PREFIX):]
    (tmp_path / inside).parent.mkdir(parents=True)
    (tmp_path / inside).write_text("// stands for the program\n")
    monkeypatch.setenv("P4C_SRC", str(tmp_path))
    assert program_path(p4c_sets[0].program) == tmp_path / inside
    assert program_path("p4src/atp.p4") == regen.REPO / "p4src" / "atp.p4"


def test_model_changes_are_named_as_triage_yaml_names_them():
    assert ModelChanges.named(["no-recirculation"]) == ModelChanges(no_recirculation=True)
    assert ModelChanges.named([]) == ModelChanges()
    with pytest.raises(ValueError, match="no-recirculations"):
        ModelChanges.named(["no-recirculations"])


def test_register_cells_move_to_where_the_packet_reads(replay):
    """Test1 spends the source's budget (used[171] = 3 = budget): the frame drops. The
    cell set at another index leaves the budget whole and the frame goes out; moved back
    to where the packet reads (its source's low 10 MAC bits), it drops again."""
    t = HAND.read().tests[1]
    assert t.expected is None and replay.run(t).passed
    moved = [RegisterSet(c.register, 7, c.value) if isinstance(c, RegisterSet) else c
             for c in t.calls]
    elsewhere = dataclasses.replace(t, calls=tuple(moved))
    assert not replay.run(elsewhere).passed
    assert replay.run(elsewhere, ModelChanges(register_cells_as_read=True)).passed
