"""The campaign deadline inside a hypothesis test: before it, examples run; after it, a
test that has not failed stops with a skip naming its example count, while one that
failed keeps running (shrinking). Hypothesis's own signals are not failures."""

from __future__ import annotations

import pytest
from hypothesis.errors import StopTest, UnsatisfiedAssumption

from atp_fixtures.campaign.options import _until


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_examples_run_before_the_deadline_and_skip_after():
    clock, calls = Clock(), []
    example = _until(10.0, calls.append, clock)
    example(1)
    example(2)
    clock.now = 10.0
    with pytest.raises(pytest.skip.Exception, match="after 2 examples"):
        example(3)
    assert calls == [1, 2]


@pytest.mark.parametrize("signal", [StopTest(0), UnsatisfiedAssumption()])
def test_an_overrun_or_a_rejection_is_no_failure(signal):
    clock = Clock()

    def inner():
        raise signal
    example = _until(10.0, inner, clock)
    with pytest.raises(type(signal)):
        example()
    clock.now = 11.0
    with pytest.raises(pytest.skip.Exception, match="after 1 examples"):
        example()


def test_a_failure_keeps_shrinking_past_the_deadline():
    clock, runs = Clock(), []

    def inner():
        runs.append(clock.now)
        raise AssertionError("the property broke")
    example = _until(10.0, inner, clock)
    with pytest.raises(AssertionError):
        example()
    clock.now = 11.0
    with pytest.raises(AssertionError):        # not a skip: shrinking goes on
        example()
    assert runs == [0.0, 11.0]
