"""Overflow (spec section 10): a seq whose inputs exceed the worker threshold, or whose
integer sum leaves int32 (sticky saturation at the switch), still completes with the
correct float result."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import numpy as np

from atp_fixtures.oracles.properties import PropertyViolation, assert_exactly_once
from atp_fixtures.generation.shaping import profile_scenarios
from atp_fixtures.generation.strategies import overflow_scenarios
from atp_fixtures.targets.base import ATTRIBUTED_OUTPUT
from reference.scenario import Scenario, load_scenario
from reference.topology import Job, Rack, Tensor, Topology
from reference.wire import decode

pytestmark = pytest.mark.requires(ATTRIBUTED_OUTPUT)


def _float_seqs(run) -> int:
    return sum(1 for per_key in run.worker_outcomes.values()
               for outcomes in per_key.values() for o in outcomes if o.float_mode)


@given(data=st.data())
def test_overflowing_seqs_complete_with_float_results(data, profile, run_on):
    run = run_on(data.draw(profile_scenarios(profile, overflow_scenarios, overflow=True)))
    assert_exactly_once(run)


def test_worker_threshold_path(corpus_dir, profile, run_on):
    """Inputs above (2^31-1)/N go as floats from the worker; the PS counts floats."""
    run = run_on(load_scenario(corpus_dir / "scenarios" / "overflow-worker-threshold.json",
                               profile))
    assert_exactly_once(run)
    if run.counters["worker.float_packets"] == 0 or _float_seqs(run) == 0:
        raise PropertyViolation(f"no seq took the float path\n{run.summary()}")


def test_switch_saturation_path(corpus_dir, profile, run_on):
    """Each input fits int32, the sum does not: the switch saturates (sticky), the PS
    sees a bound value, falls back to float mode and still gets the exact float sum."""
    run = run_on(load_scenario(corpus_dir / "scenarios" / "overflow-switch-saturation.json",
                               profile))
    assert_exactly_once(run)
    if run.counters["ps.float_fallbacks"] == 0:
        raise PropertyViolation(f"the PS never saw switch saturation\n{run.summary()}")


@pytest.mark.rule("6.1")
@pytest.mark.parametrize("first", [-1.0, 0.5], ids=["-1.0-first", "0.5-first"])
def test_legal_sum_behind_a_sticky_minus_int32_max_input(first, profile, run_on):
    """2 workers, scale = threshold = 2147483647.0, inputs -1.0 and 0.5: q(-1.0) =
    -(2^31 - 1), a sticky value (4.6), so the switch's aggregate stays -2147483647 in
    either arrival order although the sum q(-1.0) + q(0.5) = -1073741823 fits. The PS
    must read -(2^31 - 1) as revealed overflow (section 6) and complete the seq in float
    mode: every worker gets -0.5, never the integer -2147483647."""
    second = 0.5 if first == -1.0 else -1.0
    scale = 2147483647.0
    scenario = Scenario(
        topology=Topology((Rack("tor0", ("w0", "w1", "ps")),)),
        jobs=(Job(1, ("w0", "w1"), ("ps",), 1,
                  (Tensor(0, 1, np.array([[first], [second]], np.float32)),),
                  scale=scale, threshold=scale),),
        seed=3, pool_size=4, profile=profile)
    run = run_on(scenario)
    arrivals = [decode(r.frame) for r in run.logs["tor0"].ingress]
    first_gradient = next(p for p in arrivals if not p.flags & 1)
    assert int(first_gradient.values[0]) == round(first * scale), "arrival order"
    assert_exactly_once(run)
    for w in range(2):
        (outcome,) = run.worker_outcomes[(1, w)][0]
        assert outcome.float_mode, f"worker {w} got an integer result {outcome.raw[0]}"
        assert float(outcome.raw[0]) == -0.5


def _one_seq(profile: str, inputs: tuple[float, float], threshold: float | None) -> Scenario:
    return Scenario(
        topology=Topology((Rack("tor0", ("w0", "w1", "ps")),)),
        jobs=(Job(1, ("w0", "w1"), ("ps",), 1,
                  (Tensor(0, 1, np.array([[inputs[0]], [inputs[1]]], np.float32)),),
                  threshold=threshold),),
        seed=5, pool_size=4, profile=profile)


@pytest.mark.deviation("9.5", "the PS answers a float packet that is not a resend with a "
                              "float request and does not count it")
def test_float_packets_from_the_worker_threshold_are_counted_at_once(profile, run_on):
    """Both inputs exceed the worker threshold ((2^31 - 1) / 2 at scale 1e6): both
    workers send float-mode packets. The PS enters float mode on the first (a float
    request goes out) and counts it (section 6), so the second completes the seq: the
    parameter packet reaches the switch before any float resend does."""
    run = run_on(_one_seq(profile, (1500.0, -2000.0), None))
    assert_exactly_once(run)
    assert run.counters["worker.float_packets"] >= 2
    order = []
    for record in run.logs["tor0"].ingress:
        p = decode(record.frame)
        if p.flags & 1 and (p.flags & 0x04 or not p.flags & 0x80):
            order.append("parameter")
        elif not p.flags & 1 and p.flags & 0x04:
            order.append("float resend")
    assert order and order[0] == "parameter", (
        f"switch ingress order {order}: the seq needed a resend to complete\n"
        f"{run.summary()}")


@pytest.mark.deviation("9.6", "workers do not resend at once on a float request")
def test_float_request_is_answered_at_once(profile, run_on):
    """Inputs below the threshold (2^31 - 1 here), sum above int32: the switch
    saturates, the PS sends a float request, and each worker resends the seq in float
    mode at once (section 7) — the only seq completes without a worker timeout."""
    run = run_on(_one_seq(profile, (1500.0, 1500.0), 2147483647.0))
    assert_exactly_once(run)
    assert run.counters["ps.float_requests"] >= 1
    assert run.counters["worker.timeouts"] == 0, run.summary()
