"""The suite catches injected bugs: it is run on the reference target with one rule
broken (tests/mutants/plugin.py) and must fail, with a report that names the rule and
the first divergent frame.

Each mutant is shown caught twice, by two kinds of test:
- the *generated* closed-loop tests alone (hypothesis scenarios; state machines, corpus
  and trace replays deselected), which judge the switch per packet in lockstep with the
  reference switch and the hosts by the rules of sections 3, 6 and 7;
- one other kind: the corpus scenarios in the closed loop, or the trace replays.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The whole list takes long on a shared machine (two pytest runs per mutant); by default
# one representative mutant runs; ATP_ALL_MUTANTS=1 runs all. Each run is narrowed to
# the property module the mutant breaks (its generated tests) and to one other kind of
# test that fails fast, so a run stops at its first failure within minutes.
EVERY_MUTANT = bool(os.environ.get("ATP_ALL_MUTANTS"))
REPRESENTATIVE = ("completion_early",)

# the hypothesis-generated closed-loop tests (run_on) of every property
GENERATED = ("results_are_exact_sums or generated_workloads or other_jobs_never_change "
             "or under_finite_faults or overflowing_seqs or owned_after_finish "
             "or occupancy_never_above or (multi_rack_equals_single_switch and not corpus) "
             "or (idle_ps_returns and not corpus)")
EXACT = "test_exactly_once.py"
TWO_LEVEL = "test_two_level.py"
MULTI_PS = "test_multi_ps_long_jobs.py"

# mutant: (the property module whose generated tests must catch it, other kind: module
# and -k selection, the rule the report must name)
CASES = {
    "completion_early": (EXACT, (EXACT, "corpus"), "4.5"),
    "count_on_duplicate": (EXACT, (EXACT, "corpus"), "4.5"),
    "resend_keeps_owner": (EXACT, (EXACT, "corpus"), "4.3"),
    "resend_keeps_count": (EXACT, (EXACT, "corpus"), "4.5"),
    # the ECN register is set only by a gradient that arrives marked, which in the
    # simulated network only a lower switch's egress produces: the upper switch of a
    # two-level job (single-level generated scenarios never set it)
    "release_keeps_ecn": (TWO_LEVEL, ("test_wire_conformance.py",
                                  "replays_identically and parameter"), "5"),
    "egress_ecn_strict": (EXACT, ("test_wire_conformance.py", "generated"), "5.4"),
    "leak_timeout_ge": (EXACT, ("test_reclamation.py", "corpus"), "5.3"),
    "stamp_on_collision": (EXACT, (EXACT, "corpus"), "4.4"),
    "upper_on_fan_in": (TWO_LEVEL, (TWO_LEVEL, "corpus"), "8"),
    "one_rack_early": (TWO_LEVEL, (TWO_LEVEL, "corpus"), "8"),
    "partial_rack_goes_up": (TWO_LEVEL, (TWO_LEVEL, "corpus"), "8"),
    "no_overwrite": (EXACT, (EXACT, "corpus"), "4.6"),
    "wrapping_add": ("test_overflow.py", ("test_overflow.py", "switch_saturation_path"),
                     "4.6"),
    "owner_ignores_app": ("test_isolation.py", ("test_isolation.py", "corpus"), "4.3"),
    "parameter_keeps_owner": (EXACT, ("test_reclamation.py", "lost_parameter"), "5"),
    # (the liveness corpus runs jobs that never finish to their time limit: slow)
    "drop_passing_resends": (EXACT, ("test_wire_conformance.py",
                                     "replays_identically and resend"), "4.3"),
    "no_collision_flag": (EXACT, ("test_wire_conformance.py", "corpus and ownership"),
                          "4.3"),
    "aimd_never_halves": (EXACT, (EXACT, "corpus"), "7.5"),
    "window_s_plus_1": (EXACT, (EXACT, "corpus"), "7.1"),
    "ps_drops_ecn": (EXACT, (EXACT, "corpus"), "6.4"),
    "half_up_rounding": (EXACT, (EXACT, "corpus"), "3"),
    # the PS's state lifetime (6.6, 6.7): rev. 2's and rev. 3's rules, and rev. 4's
    # without T_stale; the idle PS of a multi-PS long job shows each
    "ps_never_forgets": (MULTI_PS, (MULTI_PS, "corpus"), "6.7"),
    "ps_forgets_only_on_completions": (MULTI_PS, (MULTI_PS, "corpus"), "6.7"),
    "ps_ignores_t_stale": (MULTI_PS, (MULTI_PS, "corpus"), "6.7"),
}


def _run(module: str, selection: str, mutant: str | None) -> subprocess.CompletedProcess:
    env = dict(os.environ, ATP_MUTANT=mutant or "")
    env.pop("PYTEST_XDIST_WORKER", None)
    env.pop("CI", None)
    return subprocess.run(
        [sys.executable, "-m", "pytest", f"conformance/{module}".rstrip("/"), "-k", selection,
         "-p", "tests.mutants.plugin", "-p", "no:cacheprovider", "-q", "-x",
         "--seed=1", "--target=reference", "-o", "addopts=--strict-markers"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)


# what the first divergence of a mutant's report must show, where measured (the frame
# kind or the field that differs; completion_early: seed 1, tor2's first gradient of a
# 2-worker job is emitted at once, an EXTRA frame)
DIVERGENCE = {"completion_early": "EXTRA on port "}


def _assert_caught(result, where: str, mutant: str, rule: str) -> None:
    output = result.stdout + result.stderr
    assert result.returncode == 1, (
        f"{where} should FAIL with mutant {mutant}, exit {result.returncode}:\n"
        f"{output[-3000:]}")
    # the failure is typed by the rule (its exception's .rule, the summary's primary
    # line), not only a rule mentioned somewhere in the output
    named = re.search(rf"FAILED x\d+: rule {re.escape(rule)} ", output)
    assert named, (f"the report of {where} does not file the failure under rule {rule}:"
                   f"\n{output[-3000:]}")
    shown = DIVERGENCE.get(mutant)
    assert shown is None or shown in output, (
        f"the report of {where} does not show {shown!r}:\n{output[-3000:]}")
    frame = ("diverged from the reference switch after ingress #" in output
             or "first divergence:" in output or re.search(r"\] \S+ at \d+ ns: ", output))
    assert frame, f"the report of {where} names no first divergent frame:\n{output[-3000:]}"


def _selected(mutant: str) -> None:
    if not EVERY_MUTANT and mutant not in REPRESENTATIVE:
        pytest.skip(f"mutant {mutant} runs with ATP_ALL_MUTANTS=1 (two pytest runs of "
                    f"the suite per mutant)")


@pytest.mark.slow
@pytest.mark.parametrize("mutant", sorted(CASES))
def test_generated_closed_loop_tests_catch(mutant):
    _selected(mutant)
    module, _, rule = CASES[mutant]
    _assert_caught(_run(module, GENERATED, mutant),
                   f"the generated closed-loop tests of conformance/{module}", mutant, rule)


@pytest.mark.slow
@pytest.mark.parametrize("mutant", sorted(CASES))
def test_another_kind_of_test_catches(mutant):
    _selected(mutant)
    _, (module, selection), rule = CASES[mutant]
    result = _run(module, selection, mutant)
    output = result.stdout + result.stderr
    assert result.returncode == 1, (
        f"conformance/{module} -k '{selection}' should FAIL with mutant {mutant}, exit "
        f"{result.returncode}:\n{output[-3000:]}")
    assert rule.split(".")[0] in output


@pytest.mark.slow
def test_same_selections_pass_without_a_mutant():
    """Control: the selections above pass on the intact reference, so the failures are
    the injected bugs' doing."""
    chosen = [m for m in CASES if EVERY_MUTANT or m in REPRESENTATIVE]
    selections = ({(CASES[m][0], GENERATED) for m in chosen}
                  | {CASES[m][1] for m in chosen})
    for module, selection in sorted(selections):
        result = _run(module, selection, None)
        assert result.returncode == 0, (
            f"conformance/{module} -k '{selection}' fails without a mutant:\n"
            f"{(result.stdout + result.stderr)[-3000:]}")
