"""Isolation (spec section 10): one job's traffic never changes another job's results;
collisions cost only throughput. Each job's results with every other job present equal
its results when it runs alone (same inputs, same faults on its own packets).

The run with every job present is on the target (in lockstep with the reference switch,
so each of its frames and aggregators is judged); each job's run alone is the baseline,
computed by the reference model (``run_scenario``), the rules' owner. Running the
baselines on the target too would judge the P4 program again on one-job traffic, which
the other generated tests already cover, at n times the cost of the run that matters
(on p4sim it made this test a third of the suite's time); and a target that broke
isolation still fails: its shared run diverges from the reference in lockstep, or gives
a job other results than the baseline."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from atp_fixtures.oracles.properties import assert_exactly_once, assert_same_results
from atp_fixtures.generation.shaping import profile_scenarios
from atp_fixtures.targets.base import ATTRIBUTED_OUTPUT
from reference.faults import FaultPlan
from reference.run import run_scenario
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
        solo = run_scenario(alone(scenario, job.app_id))      # the baseline: see above
        assert_same_results(together, solo, {job.app_id},
                            f"job {job.app_id} running alone")


@given(data=st.data())
def test_other_jobs_never_change_results(data, profile, run_on):
    scenario = data.draw(profile_scenarios(profile, max_jobs=4).filter(
        lambda s: len(s.jobs) >= 2))
    _check(scenario, run_on)


@pytest.mark.corpus_where(lambda s: len(s.jobs) >= 2)     # one job: nothing to isolate
def test_corpus_isolation(corpus_scenario, corpus_scenario_for, run_on):
    _check(corpus_scenario_for(corpus_scenario), run_on)


@pytest.mark.deviation("9.10", "the release's PS takes a fresh index from a shuffled list "
                               "of the pool and sends parameter packets with bitmap = 1")
def test_collision_remap_takes_the_first_unused_index(profile, run_on):
    """Two jobs whose slot tables share all of a pool of 8 ({0, 3, 5, 6}): every collided
    seq is remapped to the first unused pool index (section 6), so the remaps read 1, 2,
    4, 7 in order; and a parameter packet echoes the completing packet's header, so a
    switch aggregate's parameter packet carries the full bitmap 0b11."""
    from reference.placement import slot_indexes
    from reference.topology import Job, Rack, Tensor, Topology
    from reference.wire import decode
    scenario = Scenario(
        topology=Topology((Rack("tor0", ("a0", "a1", "b0", "b1", "psa", "psb")),)),
        jobs=(Job(1, ("a0", "a1"), ("psa",), 4, (Tensor(1, 62 * 12),)),
              Job(2, ("b0", "b1"), ("psb",), 4, (Tensor(1, 62 * 12),))),
        seed=21, pool_size=8, profile=profile)
    claimed = set(slot_indexes(1, 4, 8)) | set(slot_indexes(2, 4, 8))
    assert claimed == {0, 3, 5, 6}
    run = run_on(scenario)
    assert_exactly_once(run)
    parameters = [p for p in (decode(r.frame) for r in run.logs["tor0"].ingress)
                  if p.flags & 1]
    remaps = [p.tensor_len for p in parameters if p.flags & 2]
    assert remaps == [1, 2, 4, 7], f"remapped indexes in order: {remaps}"
    assert any(p.bitmap == 0b11 for p in parameters), (
        f"no parameter packet echoes a full bitmap: {sorted({p.bitmap for p in parameters})}")
