"""The pipelined driver (tagged frames in flight) gives the same verdict and the same
observed trace as stop-and-wait, on generated scenarios replayed through the softswitch.

Each generated scenario is run by the reference; each switch's trace is replayed on the
softswitch target twice, pipelined and stop-and-wait, and the two observations must be
identical (frames per egress port, each attributed to the same ingress frame, registers
at checkpoints and at the end) and judged alike by the comparator. The same is checked
on failing verdicts: traces replayed on a switch configured without one job's route.
"""
from __future__ import annotations

from dataclasses import replace
import pytest
from hypothesis import HealthCheck, Phase, given, settings

from reference.run import run_scenario
from softswitch_helpers import softswitch_target

from atp_fixtures.oracles.comparator import compare
from atp_fixtures.running.replay import replay
from atp_fixtures.generation.strategies import scenarios
from atp_fixtures.evidence.trace import trace_from_run

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("softswitch-veth")]

# every port a generated scenario of up to 2 racks uses: no daemon restart per example
PORTS = tuple(range(1, 10)) + (100, 101)
# derandomized, generated examples only: each is a run through the softswitch
REAL_PACKETS = settings(derandomize=True, deadline=None, database=None,
                        phases=(Phase.explicit, Phase.generate),
                        suppress_health_check=[HealthCheck.function_scoped_fixture,
                                               HealthCheck.too_slow])


@pytest.fixture(scope="module")
def softswitch():
    yield from softswitch_target(PORTS)


def _by_port(observed) -> dict:
    out: dict = {}
    for e in observed.egress:
        out.setdefault(e.port, []).append((e.frame, e.after))
    return out


def _both(target, sw):
    observations = []
    for pipelined in (True, False):
        target.pipelined = pipelined
        observations.append(replay(sw, target, "spec"))
    target.pipelined = True
    return observations


def _verdict(comparison) -> tuple:
    first = comparison.first
    return (comparison.ok, len(comparison.mismatches), len(comparison.register_deltas),
            None if first is None else (first.kind, first.port, first.cause,
                                        [str(d) for d in first.fields]))


@settings(REAL_PACKETS, max_examples=6)
@given(scenario=scenarios(max_racks=2, max_jobs=2, max_workers=4, max_pses=2, max_window=4,
                          max_seqs=4))
def test_pipelined_and_stop_and_wait_observe_and_judge_alike(softswitch, scenario):
    trace = trace_from_run(run_scenario(scenario), "pipelined")
    for name, sw in trace.switches.items():
        pipelined, stop_and_wait = _both(softswitch, sw)
        assert _by_port(pipelined) == _by_port(stop_and_wait), name
        assert pipelined.checkpoints == stop_and_wait.checkpoints, name
        assert pipelined.registers == stop_and_wait.registers, name
        verdict = _verdict(compare(sw, pipelined))
        assert verdict == _verdict(compare(sw, stop_and_wait))
        assert verdict[0], compare(sw, pipelined).report()


def test_a_failing_verdict_is_the_same_in_both_modes(softswitch):
    from atp_fixtures.generation.corpus import trace_files
    from atp_fixtures.plugin import DEFAULT_CORPUS
    from atp_fixtures.evidence.trace import load_trace
    failing = 0
    for path in trace_files(DEFAULT_CORPUS):
        trace = load_trace(path)
        if trace.profile != "spec":
            continue
        for sw in trace.switches.values():
            if not sw.config.routes:
                continue
            dropped = min(sw.config.routes)
            routes = {k: r for k, r in sw.config.routes.items() if k != dropped}
            wrong = replace(sw, config=replace(sw.config, routes=routes))
            pipelined, stop_and_wait = _both(softswitch, wrong)
            assert _by_port(pipelined) == _by_port(stop_and_wait), path.name
            verdict = _verdict(compare(sw, pipelined))
            assert verdict == _verdict(compare(sw, stop_and_wait)), path.name
            failing += not verdict[0]
        if failing >= 3:
            return
    pytest.fail(f"only {failing} corpus traces diverged without a route; expected 3")


def _closed_loop(target, scenario, batched: bool, drop_route: bool = False):
    """The scenario in closed loop on ``target`` (lockstep with the reference), its
    frames of one switch instant sent together or one at a time; with ``drop_route`` the
    target is configured without one job's routes (the shadow keeps them)."""
    from atp_fixtures.running.closed_loop import run_on_target
    setup = target.setup

    def setup_without_a_route(config, profile="spec"):
        # every route of the first job (a job with several PSes has one per ps_index,
        # and its tensors may all use a route other than the first)
        app_id = min(config.routes)[0]
        routes = {key: route for key, route in config.routes.items() if key[0] != app_id}
        setup(replace(config, routes=routes), profile)
    target.batches_closed_loop = batched
    if drop_route:
        target.setup = setup_without_a_route
    try:
        shadows = []
        run = run_on_target(scenario, lambda: target, shadows)
    finally:
        del target.batches_closed_loop
        if drop_route:
            del target.setup
    divergence = shadows[0].divergence
    logs = {name: ([(r.time_ns, r.port, r.frame) for r in log.ingress],
                   [(r.port, r.frame, r.after) for r in log.egress])
            for name, log in run.logs.items()}
    return (run.status, logs, run.final_registers,
            None if divergence is None else
            (divergence.ingress_index, divergence.rule, divergence.instant_from))


@settings(REAL_PACKETS, max_examples=4)
@given(scenario=scenarios(max_racks=1, max_jobs=2, max_workers=4, max_pses=2, max_window=4,
                          max_seqs=4))
def test_closed_loop_batched_per_instant_runs_and_judges_as_per_frame(softswitch, scenario):
    """Closed loop: sending one switch instant's frames together and reading registers
    once per instant gives the same run (every ingress and egress frame, final
    registers) and the same lockstep verdict as frame by frame, passing and failing.
    Failing, batched lockstep may blame a later frame of the same instant (registers are
    read once per instant): the frame the per-frame run blames lies in that instant, and
    the runs agree up to it."""
    batched = _closed_loop(softswitch, scenario, True)
    assert batched == _closed_loop(softswitch, scenario, False)
    assert batched[0] == "done" and batched[3] is None, batched[3]
    failing = _closed_loop(softswitch, scenario, True, drop_route=True)
    per_frame = _closed_loop(softswitch, scenario, False, drop_route=True)
    assert failing[3] is not None, "a switch without a job's routes passed the lockstep"
    assert per_frame[3] is not None and failing[0] == per_frame[0] == "stopped"
    index, _, instant_from = failing[3]
    blamed = per_frame[3][0]
    assert instant_from <= blamed <= index, (failing[3], per_frame[3])
    if instant_from == index:    # nothing of the instant unread: same frame, same rule
        assert failing[3][:2] == per_frame[3][:2]
    for switch, (ingress, _egress) in per_frame[1].items():
        assert failing[1][switch][0][:blamed + 1] == ingress[:blamed + 1]
