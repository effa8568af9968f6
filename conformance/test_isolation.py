"""Isolation (spec section 10): one job's traffic never changes another job's results;
collisions cost only throughput. Each job's results with every other job present equal
its results when it runs alone (same inputs, same faults on its own packets)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fixtures.properties import assert_exactly_once, assert_same_results
from fixtures.shaping import profile_scenarios
from fixtures.targets.base import ATTRIBUTED_OUTPUT
from reference.faults import FaultPlan
from reference.scenario import Scenario

pytestmark = pytest.mark.requires(ATTRIBUTED_OUTPUT)


def alone(scenario: Scenario, app_id: int) -> Scenario:
    job = next(j for j in scenario.jobs if j.app_id == app_id)
    targeted = tuple(t for t in scenario.faults.targeted if t.app_id in (None, app_id))
    return dataclasses.replace(scenario, jobs=(job,), kills=(),
                               faults=FaultPlan(None, targeted),
                               name=f"{scenario.name}-alone-{app_id}")


def _check(scenario: Scenario, run_on) -> None:
    scenario = dataclasses.replace(
        scenario, faults=FaultPlan(None, scenario.faults.targeted))
    together = run_on(scenario)
    assert_exactly_once(together)
    killed = {k.app_id for k in scenario.kills}
    for job in scenario.jobs:
        if job.app_id in killed:
            continue
        solo = run_on(alone(scenario, job.app_id))
        assert_same_results(together, solo, {job.app_id},
                            f"job {job.app_id} running alone")


@given(data=st.data())
def test_other_jobs_never_change_results(data, profile, run_on):
    scenario = data.draw(profile_scenarios(profile, max_jobs=4).filter(
        lambda s: len(s.jobs) >= 2))
    _check(scenario, run_on)


def test_corpus_isolation(corpus_scenario, corpus_scenario_for, run_on):
    scenario = corpus_scenario_for(corpus_scenario)
    if len(scenario.jobs) < 2:
        pytest.skip("one job: nothing to isolate it from")
    _check(scenario, run_on)
