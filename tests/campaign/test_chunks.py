"""A hypothesis test under a campaign deadline runs in chunks: each from a seed of its
own, sized from the pace so the last one ends near the deadline, and a failing chunk
fails the test after shrinking. A ``st.data()`` test stops without hypothesis calling
its data generation flaky (what stopping from inside an example did)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from atp_fixtures.campaign.chunks import (FIRST_CHUNK, given_runner, machine_runner,
                                          run_chunks)


class Clock:
    """Seconds advance by one per example the test runs."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _test(clock: Clock, seen: list, fail_at: int | None = None):
    @settings(max_examples=1000, database=None, deadline=None)
    @given(data=st.data())
    def searching(data):
        n = data.draw(st.integers(0, 10**9))
        if n % 3:                         # a draw that depends on a draw
            data.draw(st.lists(st.integers(), max_size=3))
        clock.now += 1
        seen.append(n)
        assert fail_at is None or len(seen) < fail_at
    return searching


def test_chunks_with_their_own_seeds_until_the_deadline():
    clock, seen, props = Clock(), [], []
    test = _test(clock, seen)
    before = (test._hypothesis_internal_use_settings, test._hypothesis_internal_use_seed)
    with given_runner(test, {}) as (run_one, ceiling):
        chunks = run_chunks(run_one, 100.0, 7, "t::searching", props, ceiling, clock)
    assert chunks >= 3 and props == [("atp_campaign_chunks", chunks)]
    assert 100 <= clock.now <= 100 + 60          # at most about one small chunk over
    assert len(seen) == clock.now and len(set(seen)) > len(seen) // 2
    assert (test._hypothesis_internal_use_settings,
            test._hypothesis_internal_use_seed) == before       # restored
    again, other = [], Clock()
    with given_runner(_test(other, again), {}) as (run_one, ceiling):
        run_chunks(run_one, 100.0, 7, "t::searching", [], ceiling, other)
    assert again[:FIRST_CHUNK] == seen[:FIRST_CHUNK]              # seeded: repeatable


def test_a_failing_chunk_fails_the_test_after_shrinking():
    clock, seen, props = Clock(), [], []
    with pytest.raises(AssertionError):
        with given_runner(_test(clock, seen, fail_at=8), {}) as (run_one, ceiling):
            run_chunks(run_one, 1000.0, 1, "t::x", props, ceiling, clock)
    assert props and props[0][0] == "atp_campaign_chunks"


def test_a_machine_runs_in_chunks_of_the_default_profile():
    """A rule-based machine builds its hypothesis run when called, from the default
    profile: each chunk is a profile of its size and a forced seed of its own."""
    from hypothesis import settings as hyp_settings
    clock, seen, props = Clock(), [], []
    before = hyp_settings.get_current_profile_name()

    def machine():
        @given(st.integers(0, 10**9))         # decorated now: today's default profile
        def run(n):
            clock.now += 1
            seen.append(n)
        run()
    with machine_runner(machine) as (run_one, ceiling):
        chunks = run_chunks(run_one, 60.0, 3, "t::machine", props, ceiling, clock)
    assert chunks >= 2 and 60 <= clock.now <= 100
    assert len(set(seen)) > len(seen) // 2        # not one chunk's examples again
    assert hyp_settings.get_current_profile_name() == before
