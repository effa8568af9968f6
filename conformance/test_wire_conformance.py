"""Wire conformance (spec section 10): a switch target fed the same ingress packets as
the reference emits the same packets (bytes, ports, order per port) and ends in the same
register state. From the corpus (hand-written per-rule traces) and from generated
scenarios recorded on the reference."""

from __future__ import annotations

import pytest
from hypothesis import given

from atp_fixtures.running.closed_loop import within_pool
from atp_fixtures.oracles.comparator import assert_matches, compare
from atp_fixtures.oracles.release_deviations import SWITCH_TRACES, what
from atp_fixtures.running.replay import replay
from atp_fixtures.generation.shaping import under_profile
from atp_fixtures.generation.strategies import scenarios
from atp_fixtures.targets.base import ATTRIBUTED_OUTPUT, QUEUE_DEPTH, SWITCH_CLOCK, TWO_LEVEL
from atp_fixtures.evidence.trace import load_trace, trace_from_run
from reference.run import run_scenario


def _replay_and_compare(trace, target, profile: str) -> None:
    comparisons = [compare(switch, replay(switch, target, profile))
                   for switch in trace.switches.values()]
    assert_matches(comparisons, f"trace {trace.name} ({trace.source}) diverges on target "
                                f"{target.name!r}:")


def test_corpus_trace_replays_identically(corpus_trace, target, profile, request):
    trace = load_trace(corpus_trace)     # of the session's profile, or spec (plugin)
    if trace.deviation and profile == "atp-release" and trace.profile == "spec":
        request.applymarker(pytest.mark.xfail(
            strict=True, reason=f"known atp-release deviation {trace.deviation}"))
    _needs(trace, target)
    _replay_and_compare(trace, target, profile)


def _needs(trace, target) -> None:
    uses_level1 = any(sw.registers and sw.registers.get("level1")
                      for sw in trace.switches.values())
    for capability, used in ((TWO_LEVEL, uses_level1),
                             (QUEUE_DEPTH, any(p.queue_depth for sw in trace.switches.values()
                                               for p in sw.ingress)),
                             (SWITCH_CLOCK, any(p.time_ns for sw in trace.switches.values()
                                                for p in sw.ingress))):
        if used and not target.has(capability):
            pytest.skip(f"target {target.name!r} lacks capability {capability!r} that "
                        f"trace {trace.name} needs")
    pool = max(sw.config.pool_size for sw in trace.switches.values())
    if target.scenario_pool_max is not None and pool > target.scenario_pool_max:
        pytest.skip(f"trace {trace.name} configures a pool of {pool} aggregators; the "
                    f"program on target {target.name!r} holds {target.scenario_pool_max} "
                    f"(p4sim and the softswitch run it with --p4-build=wide; a switch, "
                    f"with atp.p4 built for a larger pool)")


@given(scenario=scenarios(max_jobs=3))
def test_generated_traces_replay_identically(scenario, target, profile):
    scenario = within_pool(under_profile(scenario, profile), target.scenario_pool_max)
    trace = trace_from_run(run_scenario(scenario), scenario.name or "generated")
    _needs(trace, target)
    _replay_and_compare(trace, target, profile)


# one spec trace per switch-visible deviation of section 9 (each has its release twin):
# atp_fixtures.oracles.release_deviations.SWITCH_TRACES
@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.deviation(section, what(section)),
                 id=f"{section}-{name}")
    for section, name in SWITCH_TRACES.items()])
def test_switch_deviation_trace(name, corpus_dir, target, profile):
    """The spec's behaviour where the release's switch deviates: a strict xfail per
    deviation under --profile=atp-release, so a release that is fixed is noticed."""
    trace = load_trace(corpus_dir / "traces" / f"{name}.json")
    _needs(trace, target)
    _replay_and_compare(trace, target, profile)


@pytest.mark.requires(ATTRIBUTED_OUTPUT)
@pytest.mark.deviation("9.3", "the release's hosts write the tensor key in host byte order")
def test_hosts_write_the_key_in_network_order(profile, run_on):
    """Section 2: every field is big-endian, the tensor key too."""
    import numpy as np

    from reference.scenario import Scenario
    from reference.topology import Job, Rack, Tensor, Topology
    from reference.wire import decode
    key = 0x0102030405060708
    scenario = Scenario(
        topology=Topology((Rack("tor0", ("w0", "w1", "ps")),)),
        jobs=(Job(1, ("w0", "w1"), ("ps",), 2,
                  (Tensor(key, 62, np.ones((2, 62), np.float32)),)),),
        seed=1, pool_size=8, profile=profile)
    run = run_on(scenario)
    keys = {decode(r.frame).key for r in run.logs["tor0"].ingress}
    assert keys == {key}, f"keys on the wire: {sorted(hex(k) for k in keys)}"
