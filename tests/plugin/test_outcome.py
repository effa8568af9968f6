"""One Outcome per test: what the run recorded as it happened is what the report reads.
A lockstep divergence is kept when the shadow finds it (the very object, once), the
comparisons a failing test made come with its failure (no process-wide buffer), and a
failure of the hosts' rules is filed under the host rules whichever property module
caught it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from atp_fixtures.oracles.comparator import TraceMismatch, assert_matches, compare
from atp_fixtures.oracles.host_violation import HostRuleViolation
from atp_fixtures.running.closed_loop import assert_lockstep, run_on_target
from atp_fixtures.running.lockstep import LockstepDivergence
from atp_fixtures.running.outcome import HOST_RULES, Outcome
from atp_fixtures.running.replay import replay
from atp_fixtures.evidence.trace import load_trace
from atp_fixtures.targets.reference import ReferenceTarget
from reference.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
REPORTS = ROOT / "tests" / "reports"
sys.path.insert(0, str(REPORTS))
from broken_target import COLLISION_TRACE, DropsCollisionFlag  # noqa: E402

PROPERTY_MODULES = sorted(p.stem for p in (ROOT / "conformance").glob("test_*.py"))


def test_divergences_are_recorded_as_the_lockstep_finds_them():
    outcome = Outcome()
    shadows = []
    scenario = load_scenario(ROOT / "fixtures" / "corpus" / "scenarios" /
                             "two-jobs-one-aggregator.json")
    run = run_on_target(scenario, DropsCollisionFlag, shadows, outcome.diverged)
    found = [s.divergence for s in shadows if s.divergence is not None]
    assert found and len(outcome.divergences) == len(found)
    assert all(a is b for a, b in zip(outcome.divergences, found))
    try:
        assert_lockstep(run, shadows)
    except LockstepDivergence as exc:
        outcome.failed(exc)
    assert outcome.rule == found[0].rule and outcome.filed_under("exactly_once") == \
        "exactly_once"


def test_the_comparisons_a_failure_carries_are_the_outcomes():
    """The comparisons reach the Outcome in the exception ``assert_matches`` raises
    (all of them, the differing one first here, whichever switch was compared last);
    a plain assert that merely held a Comparison in a local variable hands over none."""
    switch = load_trace(COLLISION_TRACE).switches["tor0"]
    broken = compare(switch, replay(switch, DropsCollisionFlag(), "spec"))
    intact = compare(switch, replay(switch, ReferenceTarget(), "spec"))
    outcome = Outcome()
    try:
        assert_matches([broken, intact], "headline:")
    except TraceMismatch as exc:
        assert str(exc).startswith("headline:\n" + broken.report())
        outcome.failed(exc)
    assert outcome.comparisons == [broken, intact] and outcome.rule is None
    try:
        assert broken.ok, broken.report()
    except AssertionError as exc:
        outcome.failed(exc)
    assert outcome.comparisons == []
    assert_matches([intact])            # nothing differs: no failure
    outcome.failed(None)
    assert outcome.comparisons == [] and outcome.rule is None


def test_a_host_rule_failure_in_any_property_module_is_filed_under_the_host_rules(
        tmp_path):
    """Each conformance module's name gets a test that catches a host rule (raised
    inside a property oracle's call) and one that passes: the summary files every
    failure under host_rules, with the rule, and none under the property."""
    body = textwrap.dedent("""
        from atp_fixtures.oracles.host_violation import HostViolation, raise_violations

        def _property_check():
            raise_violations("host rules", [HostViolation("7.5", "w0", 5, "grew")],
                             "run summary")

        def test_hosts(target):
            _property_check()

        def test_switch(target):
            pass
    """)
    for name in PROPERTY_MODULES:
        (tmp_path / f"{name}.py").write_text(body)
    env = {**os.environ, "ATP_ARTIFACTS_DIR": str(tmp_path / "artifacts")}
    env.pop("ATP_SUMMARY_JSON", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=",
         "--rootdir", str(tmp_path), "--target=reference", "-q"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout[-3000:]
    summary = json.loads((tmp_path / "reports" / "summary.json").read_text())
    props = summary["properties"]
    assert props[HOST_RULES]["failed"] == len(PROPERTY_MODULES)
    for name in PROPERTY_MODULES:
        prop = name.removeprefix("test_")
        assert (props[prop]["passed"], props[prop]["failed"]) == (1, 0), props[prop]
    rules = {t["properties"].get("rule") for t in summary["tests"]
             if t["nodeid"].endswith("test_hosts")}
    assert rules == {"7.5"}


def test_only_host_rule_failures_leave_their_property():
    outcome = Outcome()
    outcome.failed(HostRuleViolation("w0 broke it", "7.5"))
    assert outcome.filed_under("isolation") == HOST_RULES
    outcome.failed(LockstepDivergence("tor0 diverged", "4.3"))
    assert outcome.filed_under("isolation") == "isolation" and outcome.rule == "4.3"
