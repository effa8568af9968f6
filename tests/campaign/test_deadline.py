"""A hypothesis test under a campaign deadline runs in chunks: each from a seed of its
own, sized from the pace so the last one ends near the deadline, and a failing chunk
fails the test after shrinking. A ``st.data()`` test stops without hypothesis calling
its data generation flaky (what stopping from inside an example did)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from atp_fixtures.campaign.options import FIRST_CHUNK, run_chunks


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
    chunks = run_chunks(test, {}, 100.0, seed=7, nodeid="t::searching",
                        properties=props, clock=clock)
    assert chunks >= 3 and props == [("atp_campaign_chunks", chunks)]
    assert 100 <= clock.now <= 100 + 60          # at most about one small chunk over
    assert len(seen) == clock.now and len(set(seen)) > len(seen) // 2
    assert (test._hypothesis_internal_use_settings,
            test._hypothesis_internal_use_seed) == before       # restored
    again, other = [], Clock()
    run_chunks(_test(other, again), {}, 100.0, seed=7, nodeid="t::searching",
               properties=[], clock=other)
    assert again[:FIRST_CHUNK] == seen[:FIRST_CHUNK]              # seeded: repeatable


def test_a_failing_chunk_fails_the_test_after_shrinking():
    clock, seen, props = Clock(), [], []
    with pytest.raises(AssertionError):
        run_chunks(_test(clock, seen, fail_at=8), {}, 1000.0, seed=1, nodeid="t::x",
                   properties=props, clock=clock)
    assert props and props[0][0] == "atp_campaign_chunks"
