"""--target=softswitch runs multi-switch scenarios for real: each rack switch of a
closed loop is its own softswitch daemon (own veths, own gRPC port), taken from the
session's pool (``atp_fixtures.targets.pool``), and the verdict is p4sim's. So does
--target=tofino-model with a testbed naming several switches: the run takes the
testbed's switches in order, here those of ``softswitch-as-model.yaml`` (a softswitch
per switch in bf_switchd's place, through the driver a Tofino user runs).

A two-rack corpus scenario (a job over two racks, the upper switch flushing a partial
aggregate) runs in lockstep with the
reference on the session's softswitch pool and on p4sim: same run, frame for frame, no
divergence on either. The same scenario with a defect planted in one rack switch (its
config lacks one job's routes) diverges on both, at that switch. A second run takes
the same two daemons again (the pool is kept, reset per run, not restarted).
"""
from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from atp_fixtures.oracles.host_rules import check_host_rules
from atp_fixtures.plugin import DEFAULT_CORPUS
from atp_fixtures.running.closed_loop import run_on_target
from atp_fixtures.targets import open_target
from atp_fixtures.targets.base import Kind, TargetUnavailable
from atp_fixtures.targets.registry import kind
from atp_fixtures.targets.session import SessionState
from atp_fixtures.targets.testbed import load_testbed
from reference.scenario import load_scenario

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("softswitch-veth")]

SCENARIO = DEFAULT_CORPUS / "scenarios" / "two-level-partial-flush.json"
DEFECTIVE_SWITCH = "tor1"       # the edge switch of job 20's rack b, whose PS is in tor0
DEFECTIVE_JOB = 20
AS_MODEL = Path(__file__).resolve().parents[2] / "fixtures" / "testbeds" / \
    "softswitch-as-model.yaml"


class PoolSession:
    """A softswitch session as the plugin holds one, recording every driver a run took."""

    def __init__(self, state: SessionState):
        self.state = state
        self.seen: list = []

    def for_run(self):
        take = self.state.switches_for_run()

        def factory():
            driver = take()
            self.seen.append(driver)
            return driver
        return factory


@pytest.fixture(scope="module", params=["softswitch", "tofino-model"])
def session(request):
    """Closing the session must remove every daemon's veths (only this session's are
    looked at: other runs share the machine)."""
    testbed = load_testbed(AS_MODEL) if kind(request.param) is Kind.TESTBED else None
    state = SessionState(request.param, "spec", testbed, DEFAULT_CORPUS, seed=0)
    try:
        state.driver()
    except TargetUnavailable as e:
        pytest.skip(e.reason)
    pool = PoolSession(state)
    yield pool
    held = {name for driver in pool.seen for name in driver.interfaces}
    state.close()
    assert held, "the runs created no veths"
    assert not {n for n in held if os.path.exists(f"/sys/class/net/{n}")}, \
        "closing the session left veths behind"


def _planted(factory, taken: list):
    """``factory``'s drivers, the defective switch configured without the defective
    job's routes (its lockstep shadow keeps them)."""
    def make():
        driver = factory()
        setup = driver.setup

        def setup_with_defect(config, profile="spec"):
            if config.name == DEFECTIVE_SWITCH:
                config = replace(config, routes={k: r for k, r in config.routes.items()
                                                 if k[0] != DEFECTIVE_JOB})
            setup(config, profile)
        driver.setup = setup_with_defect
        taken.append(driver)
        return driver
    return make


def _closed_loop(factory):
    shadows = []
    run = run_on_target(load_scenario(SCENARIO, "spec"), factory, shadows)
    logs = {name: ([(r.time_ns, r.port, r.frame) for r in log.ingress],
                   [(r.port, r.frame, r.after) for r in log.egress])
            for name, log in run.logs.items()}
    return run, logs, [s.divergence for s in shadows if s.divergence is not None]


def test_two_racks_run_on_two_daemons_with_p4sim_s_verdict(session):
    first = len(session.seen)
    run, logs, divergences = _closed_loop(session.for_run())
    drivers = session.seen[first:]
    assert len(drivers) == 2 and drivers[0] is not drivers[1]
    addresses = [d.endpoint.address for d in drivers]
    assert addresses[0] != addresses[1], "both rack switches answered on one gRPC port"
    if session.state.kind is Kind.TESTBED:
        assert [d.switch for d in drivers] == [0, 1], "not the testbed's switches in order"
    assert not set(drivers[0].interfaces) & set(drivers[1].interfaces)
    assert divergences == [], divergences[0].report() if divergences else ""
    assert run.completed and check_host_rules(run) == []

    p4sim_run, p4sim_logs, p4sim_divergences = _closed_loop(lambda: open_target("p4sim"))
    assert p4sim_divergences == [] and p4sim_run.completed
    assert check_host_rules(p4sim_run) == []
    assert logs == p4sim_logs, "the softswitches and p4sim ran different closed loops"
    assert run.final_registers == p4sim_run.final_registers

    again = len(session.seen)
    _, logs_again, divergences_again = _closed_loop(session.for_run())
    reused = session.seen[again:]
    assert [d.endpoint.address for d in reused] == addresses, \
        "a second run started new daemons instead of taking the pool's"
    assert divergences_again == [] and logs_again == logs


def test_a_defect_in_one_rack_switch_is_caught_at_that_switch(session):
    planted: list = []
    try:
        run, _, divergences = _closed_loop(_planted(session.for_run(), planted))
    finally:
        for driver in planted:          # the pool's drivers go on to other runs
            del driver.setup
    p4sim_run, _, p4sim_divergences = _closed_loop(
        _planted(lambda: open_target("p4sim"), []))
    assert [d.switch for d in p4sim_divergences] == [DEFECTIVE_SWITCH]
    assert [d.switch for d in divergences] == [DEFECTIVE_SWITCH], \
        "the softswitch pool missed the planted defect p4sim catches"
    found, expected = divergences[0], p4sim_divergences[0]
    # batched lockstep (the softswitch) blames a frame of the instant per-frame
    # lockstep (p4sim) blames, not necessarily the same frame of it
    assert found.instant_from <= expected.ingress_index <= found.ingress_index
    assert found.time_ns == expected.time_ns
    assert run.status == p4sim_run.status == "stopped"
