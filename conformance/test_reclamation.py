"""Reclamation (spec section 10).

Without duplication or delay, once a job has finished none of its aggregators is owned;
lost parameter packets are repaired by resends. With duplication and delay a gradient
that arrives after its seq completed re-takes a free aggregator (the switch keeps no
memory of completed seqs); the run counts those re-takes, and every leaked aggregator
must be released (a) by the first parameter packet of any job once
``aggregator_timeout`` has passed since its stamp — the leak sweep: the switch clock is
advanced past the timeout and a probe job sends one parameter packet to every owned
index — and (b) by the finished jobs' teardown alone. A job torn down mid-flight is
cleaned by the control plane. Occupied aggregators never exceed the live jobs' windows
plus the counted re-takes.

Under --profile=atp-release there is neither leak timeout nor teardown release (9.4):
generated scenarios there keep only losses (atp_fixtures.generation.shaping.without_late_gradients)
and the sweep and teardown tests are strict xfails."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from atp_fixtures.oracles.properties import (
    assert_completed, assert_exactly_once, assert_leaks_swept, assert_no_owned_aggregators,
    assert_occupancy_within_windows, assert_owned_are_counted_retakes,
    assert_teardown_reclaims, owned_by_job,
)
from atp_fixtures.generation.shaping import can_leak_stragglers, profile_scenarios, without_late_gradients
from atp_fixtures.generation.strategies import lossy_scenarios
from atp_fixtures.targets.base import ATTRIBUTED_OUTPUT, READ_REGISTERS, TEARDOWN
from reference.faults import FaultPlan, TargetedFault
from reference.placement import slot_indexes
from reference.scenario import Kill, Scenario, load_scenario
from reference.topology import Job, Rack, Tensor, Topology
from reference.wire import owner_app_id

pytestmark = [pytest.mark.requires(ATTRIBUTED_OUTPUT, READ_REGISTERS)]


def _shaped(scenario: Scenario, profile: str) -> Scenario:
    return without_late_gradients(scenario) if profile == "atp-release" else scenario


@pytest.fixture
def tearing_down_profile(profile: str) -> str:
    """The profile, for a test of teardown: skipped before any example is drawn under
    atp-release, which tears down nothing (9.4)."""
    if profile == "atp-release":
        pytest.skip("atp-release tears down nothing (9.4): pinned by "
                    "test_straggler_retake_is_released_by_teardown")
    return profile


def assert_leaks_are_counted_retakes(run) -> None:
    """Without duplication or delay nothing is owned after the run; with them, what a
    finished job still owns was re-taken by a straggler the run counted."""
    if not can_leak_stragglers(run.scenario):
        assert_no_owned_aggregators(run)
    else:
        assert_owned_are_counted_retakes(run)


@given(data=st.data())
def test_no_aggregator_owned_after_finish(data, profile, run_on):
    """Every fault plan (loss, duplication, reordering, delay): whatever is owned after
    the jobs finish was re-taken by a counted straggler (nothing at all without
    duplication or delay), and the leak sweep releases it."""
    scenario = _shaped(data.draw(profile_scenarios(profile, lossy_scenarios,
                                                   faults="always")), profile)
    run = run_on(scenario)
    assert_completed(run)
    assert_leaks_are_counted_retakes(run)
    if profile != "atp-release":
        assert_leaks_swept(run)


@pytest.mark.requires(TEARDOWN)
@given(data=st.data())
def test_teardown_alone_leaves_no_aggregator_owned(data, tearing_down_profile, run_on):
    """Every fault plan: tearing down the finished jobs releases every aggregator,
    including those re-taken by stragglers."""
    profile = tearing_down_profile
    run = run_on(data.draw(profile_scenarios(profile, lossy_scenarios, faults="always")))
    assert_completed(run)
    assert_teardown_reclaims(run)


@given(data=st.data())
def test_occupancy_never_above_live_windows(data, profile, run_on):
    """Every target of this module counts occupancy: natively, or through its lockstep
    shadow (``LockstepSwitch.occupied``) since it reads registers back."""
    run = run_on(data.draw(profile_scenarios(profile)))
    assert_occupancy_within_windows(run)


def _straggler_scenario(profile: str) -> Scenario:
    """The shrunk counterexample of fixtures/corpus/counterexamples: one aggregator, a
    worker's gradient delayed 20 us so that it arrives after its seq completed."""
    from pathlib import Path
    path = (Path(__file__).resolve().parents[1] / "fixtures" / "corpus" /
            "counterexamples" / "straggler_leaks_aggregator.json")
    return load_scenario(path, profile)


def _straggler_run(profile: str, run_on):
    run = run_on(_straggler_scenario(profile))
    assert_exactly_once(run)
    assert owned_by_job(run), "precondition: the delayed gradient re-took no aggregator"
    return run


@pytest.mark.deviation("9.4", "the release has no aggregator leak timeout (section 5)")
def test_straggler_retake_is_counted_and_swept(profile, run_on):
    run = _straggler_run(profile, run_on)
    assert len(run.retakes) == len(owned_by_job(run)) == 1, run.retakes
    assert run.counters["straggler_retakes"] == 1
    assert_leaks_swept(run)


@pytest.mark.requires(TEARDOWN)
@pytest.mark.deviation("9.4", "aggregators are never released by the control plane")
def test_straggler_retake_is_released_by_teardown(profile, run_on):
    assert_teardown_reclaims(_straggler_run(profile, run_on))


def _two_jobs(profile: str, **extra) -> Scenario:
    return Scenario(
        topology=Topology((Rack("tor0", ("a0", "a1", "b0", "b1", "psa", "psb")),)),
        jobs=(Job(1, ("a0", "a1"), ("psa",), 4, (Tensor(1, 62 * 24),)),
              Job(2, ("b0", "b1"), ("psb",), 4, (Tensor(1, 62 * 24),))),
        seed=21, pool_size=8, profile=profile, **extra)


def test_lost_parameter_packets_are_repaired(profile, run_on):
    """Drop parameter packets on the way to one worker and on the way into the switch:
    resends must recover them and leave no aggregator owned."""
    faults = FaultPlan(targeted=(
        TargetedFault("drop", kind="parameter", to_node="a1", nth=2, count=2),
        TargetedFault("drop", kind="parameter", from_node="psb", nth=3),
        TargetedFault("drop", kind="parameter", to_node="b0", nth=5)))
    run = run_on(_two_jobs(profile, faults=faults))
    assert_exactly_once(run)
    assert_no_owned_aggregators(run)
    assert run.counters["worker.resends"] > 0, "no resend was needed: the faults missed"


def test_corpus_no_aggregator_owned_after_finish(corpus_scenario, corpus_scenario_for,
                                                 profile, run_on):
    scenario = _shaped(corpus_scenario_for(corpus_scenario), profile)
    torn_down = {k.app_id for k in scenario.kills if k.teardown_after_ns is not None}
    if any(k.teardown_after_ns is None for k in scenario.kills):
        pytest.skip("a job of this scenario dies without teardown: its aggregators stay")
    if torn_down and profile == "atp-release":
        pytest.skip("atp-release never releases a dead job's aggregators (9.4); "
                    "covered by test_teardown_releases_dead_job")
    run = run_on(scenario)
    assert_completed(run)
    assert_leaks_are_counted_retakes(run)
    if profile != "atp-release":
        assert_leaks_swept(run)


def _owned_by(run, app_id: int, at_ns: int) -> list[int]:
    _, snapshot = run.checkpoints[at_ns]["tor0"]
    return [i for i, state in snapshot["level0"].items()
            if owner_app_id(state.owner) == app_id]


@pytest.mark.requires(TEARDOWN)
@pytest.mark.deviation("9.4", "aggregators of a job that dies are never released")
def test_teardown_releases_dead_job(profile, run_on):
    """Job 2 dies mid-flight holding aggregators (its parameter packets are lost); the
    control plane's teardown must release every one of them."""
    dying, living = _two_jobs(profile).jobs[1], _two_jobs(profile).jobs[0]
    faults = FaultPlan(targeted=(TargetedFault("drop", kind="parameter", app_id=2,
                                               nth=1, count=1000),))
    scenario = dataclasses.replace(
        _two_jobs(profile, faults=faults, checkpoints_ns=(9_000,),
                  kills=(Kill(2, at_ns=10_000, teardown_after_ns=1_000),)),
        jobs=(dying, living))
    run = run_on(scenario)
    assert _owned_by(run, 2, 9_000), "precondition: job 2 held no aggregator when killed"
    assert_completed(run)
    assert_no_owned_aggregators(run, {2})


@pytest.mark.deviation("9.4", "the release has no aggregator leak timeout (section 5)")
def test_leak_timeout_frees_dead_jobs_aggregators(profile, run_on):
    """Job 2 starts first, takes every aggregator of the pool, loses its parameter
    packets and dies without a teardown. Job 1 keeps colliding with those aggregators;
    its parameter packets must release them once their owner is idle for longer than the
    aggregator timeout, so that job 1 aggregates on the switch again."""
    faults = FaultPlan(targeted=(TargetedFault("drop", kind="parameter", app_id=2,
                                               nth=1, count=1000),))
    base = _two_jobs(profile, faults=faults, aggregator_timeout_ns=20_000,
                     checkpoints_ns=(9_000,),
                     kills=(Kill(2, at_ns=10_000, teardown_after_ns=None),))
    living, dying = base.jobs
    scenario = dataclasses.replace(base, jobs=(
        dataclasses.replace(dying, window=base.pool_size),
        dataclasses.replace(living, tensors=(Tensor(1, 62 * 80),))))
    run = run_on(scenario)
    job1 = set(slot_indexes(1, living.window, scenario.pool_size))
    assert job1 <= set(_owned_by(run, 2, 9_000)), \
        "precondition: dead job 2 did not hold job 1's aggregators"
    assert_completed(run)
    stale = {i for _, i, owner in run.owned_aggregators()["tor0"]
             if owner_app_id(owner) == 2}
    leaked_on_job1 = sorted(stale & job1)
    assert not leaked_on_job1, (
        f"aggregators {leaked_on_job1} that job 1 collides with are still owned by dead "
        f"job 2 after the leak timeout\n{run.summary()}")
