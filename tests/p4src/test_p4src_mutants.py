"""Mutants of the P4 program: a patched copy of p4src/ (one rule broken in the P4 source)
runs the conformance suite on --target=p4sim, which must fail with a field-level report
naming the property (the conformance module) and the first divergent frame."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# name: (file, text in the program, replacement, conformance -k selection, field named)
MUTANTS = {
    "completion_at_n_minus_1": (
        "aggregation.p4", "if (md.count == md.n) {", "if (md.count + 1 == md.n) {",
        "corpus and absorbed", "bitmap"),
    "resend_does_not_release": (
        "aggregation.p4", "c.owner = 0;\n                c.stamp = md.clock;",
        "c.owner = md.id;\n                c.stamp = md.clock;",
        "corpus and flush", "owner"),
    "duplicates_not_masked": (
        "aggregation.p4", "rv = md.b & ~value;\n            value = value | md.b;",
        "rv = md.b;\n            value = value | md.b;",
        "corpus and duplicate", "values"),
    "ecn_not_propagated": (
        "atp.p4", "                    hdr.atp.ecn = 1;\n", "",
        "corpus and ipv4", "flags"),
    "collision_flag_not_set": (
        "atp.p4", "hdr.atp.collision = 1;", "hdr.atp.collision = 0;",
        "corpus and collision", "flags"),
    "saturation_not_sticky": (
        "parser.p4", "md.sticky_base = 0x7fffffff;", "md.sticky_base = 0x40000000;",
        "corpus and sticky", "values"),
}


def _mutant_copy(tmp_path: Path, name: str) -> Path:
    file, old, new, _, _ = MUTANTS[name]
    return patched_copy(tmp_path, name, file, old, new)


def patched_copy(tmp_path: Path, name: str, file: str, old: str, new: str) -> Path:
    """A copy of p4src/ (the P4 files) with ``old`` replaced by ``new`` in ``file``."""
    copy = tmp_path / "p4src"
    shutil.copytree(ROOT / "p4src", copy, ignore=shutil.ignore_patterns("control", "*.py"))
    source = (copy / file).read_text()
    assert source.count(old) == 1, f"mutant {name}: {old!r} must occur once in {file}"
    (copy / file).write_text(source.replace(old, new))
    return copy


def suite(selection: str, p4src: Path | None, *options: str,
          module: str = "test_wire_conformance.py",
          target: str = "p4sim") -> subprocess.CompletedProcess:
    """The conformance module on ``target`` (p4sim, or the softswitch, which runs the
    same p4src/: of ``p4src`` if given), -x."""
    env = dict(os.environ)
    env.pop("PYTEST_XDIST_WORKER", None)
    if p4src is not None:
        env["ATP_P4SRC"] = str(p4src)
    return subprocess.run(
        [sys.executable, "-m", "pytest", f"conformance/{module}", "-k",
         selection, f"--target={target}", "-p", "no:cacheprovider", "-q", "-x",
         "-o", "addopts=--strict-markers", *options],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)


def mutated_construct(file: str, old: str) -> str:
    """``file:line`` of the construct a failure's P4 path shows for the mutated text:
    the last parser state, action, RegisterAction, table, entry or arm of ``file`` (in
    the intact program) at or above the text's line."""
    from atp_fixtures.targets.p4sim import compiled_program
    from p4sim.trace import SHOWN
    source = (ROOT / "p4src" / file).read_text()
    line = source[:source.index(old)].count("\n") + 1
    lines = [p.line for p in compiled_program(False).coverage_points
             if p.kind in SHOWN and p.file.endswith("p4src/" + file) and p.line <= line]
    return f"{file}:{max(lines)}"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_wire_conformance_catches_p4_mutant(name, tmp_path):
    """... and the failure's P4 path of the diverging packet names the mutated
    construct (action, RegisterAction, arm or parser state) with file:line."""
    file, old, _, selection, field = MUTANTS[name]
    result = suite(selection, _mutant_copy(tmp_path, name))
    output = result.stdout + result.stderr
    assert result.returncode == 1, (f"the suite should FAIL on P4 mutant {name} "
                                    f"(exit {result.returncode}):\n{output[-3000:]}")
    for evidence in ("test_wire_conformance", "diverges on target 'p4sim'",
                     "first divergence", field,
                     "its P4 path (as the target ran it: p4sim, ",
                     "what the reference switch did with it (the spec's rule per step):",
                     f"    {mutated_construct(file, old)} "):
        assert evidence in output, f"the report lacks {evidence!r}:\n{output[-6000:]}"


@pytest.mark.slow
def test_selections_pass_on_the_intact_program():
    """Control: the same selections pass on p4src/ as it is."""
    selection = " or ".join(f"({m[3]})" for m in MUTANTS.values())
    result = suite(selection, None)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]


# A defect of the Tofino build only: the pool-width ladder of atp.p4 off by one at the
# default ATP_POOL_MAX=4096, which then gets 13-bit register indices (8192 slots per
# level) while the control plane lays level 1 out at 4096: level-1 (upper switch) state
# lands where nobody reads it. Every other ATP_POOL_MAX, the wide p4sim build's 65536
# included, is built exactly as before, so only --p4-build=tofino can see it.
TOFINO_ONLY = ("atp.p4", "#elif ATP_POOL_MAX <= 4096\n", "#elif ATP_POOL_MAX < 4096\n")


@pytest.mark.slow
def test_a_defect_of_the_tofino_build_only_fails_the_tofino_build_gate(tmp_path):
    copy = patched_copy(tmp_path, "tofino_pool_ladder", *TOFINO_ONLY)
    tofino = suite("corpus", copy, "--p4-build=tofino", module="test_two_level.py")
    output = tofino.stdout + tofino.stderr
    assert tofino.returncode == 1, (f"--p4-build=tofino should FAIL on the planted defect "
                                    f"(exit {tofino.returncode}):\n{output[-3000:]}")
    assert "diverged from the reference switch" in output, output[-3000:]
    wide = suite("corpus", copy, module="test_two_level.py")
    assert wide.returncode == 0, ("the wide build does not contain the defect, so it must "
                                  "pass:\n" + (wide.stdout + wide.stderr)[-3000:])


# A defect whose only symptom is a register: the resend flush (4.3) frees the aggregator
# but leaves its stamp at the owner's previous packet instead of the flush's time (4.4).
# A free aggregator's stamp reaches no frame: section 5's leak test reads it only while
# the aggregator is owned, and the next claim overwrites it. So no frame of any run
# differs; only the lockstep's register readback sees it. On the softswitch (and on a
# Tofino) the closed loop reads registers once per switch instant, after the frames of
# that instant (atp_fixtures.running.lockstep), not after every frame.
REGISTER_ONLY = ("aggregation.p4", "c.owner = 0;\n                c.stamp = md.clock;",
                 "c.owner = 0;")
# a corpus scenario of one rack whose lost gradients make the workers' resends flush
REGISTER_ONLY_SCENARIO = "parameter-loss"
FRAME_DIVERGENCES = ("DIFFERS on port", "EXTRA on port", "MISSING on port")


@pytest.fixture
def register_only_p4sim(tmp_path, monkeypatch):
    """The p4sim target module, running the planted register-only defect."""
    from atp_fixtures.targets import p4sim
    copy = patched_copy(tmp_path, "flush_keeps_stamp", *REGISTER_ONLY)
    monkeypatch.setattr(p4sim, "P4SRC", copy)
    monkeypatch.setattr(p4sim, "PROGRAM", copy / "atp.p4")
    monkeypatch.setattr(p4sim, "_programs", {})
    return p4sim


@pytest.mark.slow
def test_the_register_only_defect_changes_no_frame(register_only_p4sim):
    """The planted defect is frame-invisible: its whole run on p4sim (no lockstep, so
    nothing stops it) has every ingress and egress frame of the reference's run, and
    differs from it only in the stamps of flushed aggregators."""
    from reference.scenario import load_scenario
    from atp_fixtures.plugin import DEFAULT_CORPUS
    from atp_fixtures.running.closed_loop import run_on_target
    from reference.run import run_scenario
    scenario = load_scenario(DEFAULT_CORPUS / "scenarios" / f"{REGISTER_ONLY_SCENARIO}.json")
    mutant = run_on_target(scenario, register_only_p4sim.P4simTarget)
    reference = run_scenario(scenario)

    def frames(run):
        return {name: ([(r.time_ns, r.port, r.frame) for r in log.ingress],
                       [(r.port, r.frame, r.after) for r in log.egress])
                for name, log in run.logs.items()}
    assert mutant.status == reference.status == "done"
    assert frames(mutant) == frames(reference)
    differing = {}
    for level, want in reference.final_registers["tor0"].items():
        for index, state in want.items():
            got = mutant.final_registers["tor0"][level][index]
            fields = {f for f in ("owner", "bitmap", "count", "ecn", "stamp", "values")
                      if getattr(got, f) != getattr(state, f)}
            if fields:
                differing[(level, index)] = fields
    assert differing, "the planted defect left every register as the reference's"
    assert set().union(*differing.values()) == {"stamp"}, differing


@pytest.mark.slow
def test_batched_lockstep_on_the_softswitch_catches_a_register_only_defect(tmp_path):
    """The closed loop on the softswitch, registers read once per switch instant, fails
    on the planted defect by the register alone (no frame diverges), names the
    aggregator's register and field and rule 4.4; the intact program passes."""
    from atp_fixtures.targets.softswitch import softswitch_unavailable
    missing = softswitch_unavailable()
    if missing:
        pytest.skip(f"the softswitch target cannot start here: {missing}")
    selection = f"corpus_results and {REGISTER_ONLY_SCENARIO}"
    copy = patched_copy(tmp_path, "flush_keeps_stamp", *REGISTER_ONLY)
    result = suite(selection, copy, module="test_exactly_once.py", target="softswitch")
    output = result.stdout + result.stderr
    assert result.returncode == 1, (f"the softswitch run should FAIL on the register-only "
                                    f"defect (exit {result.returncode}):\n{output[-3000:]}")
    for evidence in ("registers read after ingress #", "(one switch instant, sent together)",
                     ", level0[", " (reference → target):", "stamp ", "rule: 4.4 "):
        assert evidence in output, f"the report lacks {evidence!r}:\n{output[-3000:]}"
    shown = [d for d in FRAME_DIVERGENCES if d in output]
    assert not shown, f"a frame diverged too ({shown}):\n{output[-3000:]}"
    intact = suite(selection, None, module="test_exactly_once.py", target="softswitch")
    assert intact.returncode == 0, (intact.stdout + intact.stderr)[-3000:]


# a scenario hypothesis drew (seed 20): h0_4 misses the parameter packet of seq 787,
# resends it at 209 us and flushes aggregator 0, which a gradient of the next seq
# re-takes at the same switch instant (whose stamp is then right again)
FLUSH_THEN_RETAKE = Path(__file__).parent / "data" / "flush-then-retake.json"


@pytest.mark.slow
def test_batched_lockstep_sees_a_register_overwritten_within_its_instant(
        register_only_p4sim, monkeypatch):
    """Registers read once per switch instant missed the planted defect here (the
    re-take overwrote the stale stamp before the read); with the instant cut before a
    frame naming an aggregator that a resend or parameter packet of it named, the
    batched closed loop blames the flush as the per-frame one does. The batched path runs on p4sim (forced), the
    code the softswitch and Tofino targets run."""
    from reference.scenario import load_scenario
    from atp_fixtures.running.closed_loop import run_on_target
    target = register_only_p4sim.P4simTarget()
    verdicts = {}
    for batched in (False, True):
        monkeypatch.setattr(type(target), "batches_closed_loop", batched)
        shadows = []
        run_on_target(load_scenario(FLUSH_THEN_RETAKE), lambda: target, shadows)
        verdicts[batched] = shadows[0].divergence
    per_frame, batched = verdicts[False], verdicts[True]
    assert per_frame is not None and batched is not None, "the defect went unseen"
    assert [r.fields[0].field for r in batched.registers] == ["stamp"], batched.report()
    assert not batched.frames and batched.instant_from <= per_frame.ingress_index \
        <= batched.ingress_index, (per_frame.report(), batched.report())


@pytest.mark.slow
def test_a_closed_loop_divergence_names_the_p4_code_its_packet_ran(register_only_p4sim):
    """The lockstep's first divergence on the planted register-only defect, explained
    as a failure's report does: the packet's P4 path names the RegisterAction arm that
    left the stamp (file:line), the reference's steps name rule 4.4 for the stamp, and
    the inputs give the switch time and the stamp before."""
    from reference.scenario import load_scenario
    from atp_fixtures.plugin import DEFAULT_CORPUS
    from atp_fixtures.running.closed_loop import run_on_target
    from atp_fixtures.running.explain import explain, of_divergence
    scenario = load_scenario(DEFAULT_CORPUS / "scenarios" / f"{REGISTER_ONLY_SCENARIO}.json")
    shadows = []
    run_on_target(scenario, register_only_p4sim.P4simTarget, shadows)
    divergence = next(s.divergence for s in shadows if s.divergence is not None)
    text = "\n".join(explain(of_divergence(divergence), "p4sim", "wide").lines())
    for evidence in (f"ingress #{divergence.ingress_index} of switch {divergence.switch}",
                     "its P4 path (as the target ran it: p4sim, ",
                     f"    {mutated_construct(*REGISTER_ONLY[:2])} ",
                     "RegisterAction Ingress.aggregator.claim_resend",
                     "rule 4.3: released by a resend (flush)", "rule 4.4: stamp ",
                     "stamp: level-0 aggregator's before it "):
        assert evidence in text, f"the explanation lacks {evidence!r}:\n{text}"


def test_no_hypothesis_profile_runs_the_explain_phase():
    """Its "Explanation" lists harness lines as if they were about the bug."""
    from hypothesis import Phase, settings
    import atp_fixtures.plugin  # noqa: F401  (registers the profiles)
    for name in ("ci", "dev", "deep"):
        assert Phase.explain not in settings.get_profile(name).phases, name
