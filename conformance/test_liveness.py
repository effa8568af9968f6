"""Liveness (spec section 10): with any finite set of faults, every job completes."""

from __future__ import annotations

import pytest
from hypothesis import assume, given

from fixtures.corpus import load_scenario
from fixtures.properties import assert_completed
from fixtures.shaping import is_profile_safe, under_profile
from fixtures.strategies import lossy_scenarios
from fixtures.targets.base import ATTRIBUTED_OUTPUT

pytestmark = pytest.mark.requires(ATTRIBUTED_OUTPUT)


@given(scenario=lossy_scenarios())
def test_every_job_completes_under_finite_faults(scenario, profile, run_on):
    scenario = under_profile(scenario, profile)
    assume(is_profile_safe(scenario, profile))
    assert_completed(run_on(scenario))


def test_corpus_every_job_completes(corpus_scenario, profile, run_on):
    assert_completed(run_on(load_scenario(corpus_scenario, profile)))
