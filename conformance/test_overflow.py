"""Overflow (spec section 10): a seq whose inputs exceed the worker threshold, or whose
integer sum leaves int32 (sticky saturation at the switch), still completes with the
correct float result."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fixtures.corpus import load_scenario
from fixtures.properties import PropertyViolation, assert_exactly_once
from fixtures.shaping import profile_scenarios
from fixtures.strategies import overflow_scenarios
from fixtures.targets.base import ATTRIBUTED_OUTPUT

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


def test_corpus_overflow(corpus_scenario, corpus_scenario_for, run_on):
    assert_exactly_once(run_on(corpus_scenario_for(corpus_scenario)))
