"""Liveness (spec section 10): with any finite set of faults, every job completes.

The corpus scenarios' completion is asserted by test_exactly_once's corpus test
(exactly-once checks completion first, on the same runs), so it is not restated here."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from atp_fixtures.oracles.properties import assert_completed
from atp_fixtures.generation.shaping import profile_scenarios
from atp_fixtures.generation.strategies import lossy_scenarios
from atp_fixtures.targets.base import ATTRIBUTED_OUTPUT

pytestmark = pytest.mark.requires(ATTRIBUTED_OUTPUT)


@given(data=st.data())
def test_every_job_completes_under_finite_faults(data, profile, run_on):
    assert_completed(run_on(data.draw(profile_scenarios(profile, lossy_scenarios,
                                                        faults="always"))))
