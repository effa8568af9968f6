"""Multi-PS long jobs (spec section 10, rev. 4; rule 6.7): a job with several PSes whose
tensors leave one PS idle for more than half the ring (``32767 - S`` packets) still
completes with exact results; the idle PS's stale frontier delays it by at most
``T_stale``, never forever.

Generated scenarios (``atp_fixtures.generation.multi_ps``: 2-4 PSes, a large tensor on
another PS, a start near the wrap, the idle PS dropping its next seqs until ``T_stale``
or forgetting the job before it judges them) and the corpus's ``multi_ps/`` scenarios
run on the target like every closed loop (``run_on``: each switch in lockstep with the
reference, the host rules on the frames). The host stack's PS processes are judged on
the same property in ``test_host_stack.py``.

Every scenario is at least ``32768 - S`` seqs, and ``S`` is bounded by the target's pool
(and, behind real interfaces, by what one register read-back may hold): on a Tofino
build that is ~29,000-32,500 seqs, a minute or more per scenario on an interpreted
switch; so a run draws few examples (:func:`_examples`) and the corpus holds one
scenario. On a real-packet target (the softswitch, the tofino-model driver, a switch)
the ``ci`` profile, which CI runs there, draws none: the corpus scenario is the sample
(the generated test skips, saying so). Under ``--profile=atp-release`` there is nothing
to check: the release restarts seq at 1 for every tensor (9.7), its PS keeps its state
and has no frontier.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atp_fixtures.generation.multi_ps import (
    MAX_WINDOW, REAL_PACKETS_MAX_WINDOW, idle_shape, multi_ps_long_job_scenarios,
)
from atp_fixtures.oracles.properties import assert_idle_ps_returns
from atp_fixtures.targets.base import ATTRIBUTED_OUTPUT
from reference.run import Run
from reference.scenario import Scenario, load_scenario

pytestmark = pytest.mark.requires(ATTRIBUTED_OUTPUT)

# an idle PS's own simulated idle time is tens of microseconds (a round trip per
# window of the gap): a T_stale below this forgets the job before the next packet is
# judged, one above it makes the next packets stragglers until T_stale has passed
FORGETS_BEFORE_JUDGING_NS = 1_000_000
# what a job needs besides the T_stale it may wait: the gap's round trips, a few
# timeout rounds (200 us each)
SLACK_NS = 5_000_000


# examples per generated test: one per this many of the session profile's (ci, 75: 1;
# dev, 100: 2; deep: 4 at most); a profile with fewer runs the corpus scenario only
PROFILE_EXAMPLES_PER_EXAMPLE = 40
# on a real-packet target (the closed loop batched behind real interfaces: over a minute
# an example) a profile below this many examples (ci, 75, as CI runs the softswitch and
# the tofino-model driver) runs the corpus scenario only; dev and deep draw as above
REAL_PACKETS_MIN_PROFILE_EXAMPLES = 100


# the session profile's examples per generated test, read when the module is collected
# (inside the test, settings.default is the test's own)
PROFILE_EXAMPLES = settings.default.max_examples


def _examples(real_packets: bool = False) -> int:
    """Each example is thousands to tens of thousands of seqs (module docstring)."""
    if real_packets and PROFILE_EXAMPLES < REAL_PACKETS_MIN_PROFILE_EXAMPLES:
        return 0
    return min(PROFILE_EXAMPLES // PROFILE_EXAMPLES_PER_EXAMPLE, 4)


def _spec_only(profile: str) -> None:
    if profile == "atp-release":
        pytest.skip("the release restarts seq at 1 for every tensor (deviation 9.7): its "
                    "PS keeps all state and has no frontier to go stale")


def check_idle_ps_returns(run: Run, scenario: Scenario) -> None:
    """The premise (more than half the ring idle, clear of a lap), then the property."""
    shape = idle_shape(scenario)
    assert shape.over_half_ring and shape.clear_of_a_lap, (
        f"scenario {scenario.name!r} does not make PS {shape.idle_ps} idle for "
        f"32768 - S .. 65535 - 2S packets (S = {shape.window}, gap {shape.gap})")
    assert_idle_ps_returns(run, scenario.t_stale_ns < FORGETS_BEFORE_JUDGING_NS, SLACK_NS)


@given(data=st.data())
def test_idle_ps_returns_with_exact_results(data, profile, target, run_on):
    _spec_only(profile)
    if not _examples():
        pytest.skip(f"the session's hypothesis profile draws {PROFILE_EXAMPLES} examples "
                    f"per generated test, under {PROFILE_EXAMPLES_PER_EXAMPLE}: "
                    f"a multi-PS example is ~30,000 seqs (over a minute on a real-packet "
                    f"target), so this profile samples the corpus scenario only "
                    f"(test_corpus_idle_ps_returns_with_exact_results); "
                    f"--hypothesis-profile=ci or dev draws 1 or 2")
    if not _examples(real_packets=target.batches_closed_loop):
        pytest.skip(f"on the real-packet target {target.name!r} the session's hypothesis "
                    f"profile draws {PROFILE_EXAMPLES} examples per generated test, under "
                    f"{REAL_PACKETS_MIN_PROFILE_EXAMPLES}: a multi-PS example is ~30,000 "
                    f"seqs, over a minute there, so this run samples the corpus scenario "
                    f"only (test_corpus_idle_ps_returns_with_exact_results), as CI does; "
                    f"--hypothesis-profile=dev draws 2, deep 4")
    scenario = data.draw(multi_ps_long_job_scenarios(
        target.scenario_pool_max, profile,
        REAL_PACKETS_MAX_WINDOW if target.batches_closed_loop else MAX_WINDOW))
    check_idle_ps_returns(run_on(scenario), scenario)


test_idle_ps_returns_with_exact_results = settings(max_examples=max(1, _examples()))(
    test_idle_ps_returns_with_exact_results)


def _corpus_names() -> list[str]:
    folder = Path(__file__).resolve().parents[1] / "fixtures" / "corpus" / "multi_ps"
    return sorted(p.stem for p in folder.glob("*.json"))


@pytest.mark.parametrize("name", _corpus_names())
def test_corpus_idle_ps_returns_with_exact_results(name, corpus_dir, profile, run_on):
    _spec_only(profile)
    scenario = load_scenario(corpus_dir / "multi_ps" / f"{name}.json", profile)
    check_idle_ps_returns(run_on(scenario), scenario)
