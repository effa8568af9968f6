"""Fault injection (issue 2, network): frame classification, targeted and random faults."""

from __future__ import annotations

import random

import pytest

from reference_helpers import ACK, OVERFLOW, RESEND, frame, shim
from reference.faults import (
    FaultInjector, FaultPlan, FaultPlanError, RandomFaults, TargetedFault, frame_kind,
)


@pytest.mark.parametrize("flags,kind", [
    (0, "gradient"), (RESEND, "resend"), (OVERFLOW, "gradient"),
    (OVERFLOW | RESEND, "resend"), (ACK, "parameter"), (ACK | RESEND, "parameter"),
    (ACK | OVERFLOW, "float_request"), (ACK | OVERFLOW | RESEND, "parameter")])
def test_frame_kind_from_flags(flags, kind):
    assert frame_kind(frame(app_id=3, seq=9, flags=flags)) == (kind, 3, 9)
    assert frame_kind(frame(app_id=3, seq=9, flags=flags, shim=shim())) == (kind, 3, 9)


def test_frame_kind_other():
    assert frame_kind(b"\x00" * 12 + b"\x08\x00" + bytes(40))[0] == "other"


def test_targeted_fault_hits_nth_match_count_times():
    fault = TargetedFault(action="drop", kind="parameter", to_node="h1", nth=3, count=2)
    inj = FaultInjector(FaultPlan(targeted=(fault,)), random.Random(0))
    p = frame(flags=ACK)
    g = frame()
    results = []
    for i in range(6):
        assert inj.decide(i, "s0", "h1", g).copies == [0]     # gradients never match
        assert inj.decide(i, "s0", "h2", p).copies == [0]     # other host never matches
        results.append(inj.decide(i, "s0", "h1", p).copies)
    assert results == [[0], [0], [], [], [0], [0]]
    assert [e[3] for e in inj.log] == ["drop", "drop"]


def test_duplicate_and_delay_actions():
    inj = FaultInjector(FaultPlan(targeted=(
        TargetedFault(action="duplicate", seq=1),
        TargetedFault(action="delay", seq=1, delay_ns=50))), random.Random(0))
    assert inj.decide(0, "a", "b", frame(seq=1)).copies == [50, 51]
    assert inj.decide(0, "a", "b", frame(seq=2)).copies == [0]


def test_congest_sets_the_queue_depth_and_keeps_the_copies():
    """A congest fault marks what it matches with a queue depth (the deepest of several)
    and neither drops nor delays it."""
    inj = FaultInjector(FaultPlan(targeted=(
        TargetedFault(action="congest", kind="parameter", seq=5, count=2, depth=3000),
        TargetedFault(action="congest", seq=5, depth=7000),
        TargetedFault(action="delay", seq=5, delay_ns=40))), random.Random(0))
    first = inj.decide(0, "ps", "s0", frame(seq=5, flags=ACK))
    assert (first.copies, first.queue_depth) == ([40], 7000)
    second = inj.decide(1, "ps", "s0", frame(seq=5, flags=ACK))
    assert (second.copies, second.queue_depth) == ([0], 3000)   # count 2; nth 1 only
    assert inj.decide(2, "ps", "s0", frame(seq=5, flags=ACK)).queue_depth == 0
    assert inj.decide(3, "ps", "s0", frame(seq=6, flags=ACK)).queue_depth == 0
    assert [e[3] for e in inj.log] == ["congest", "congest", "delay", "congest"]
    assert FaultPlan(targeted=(TargetedFault(action="congest", depth=1),)).congests
    assert not FaultPlan(targeted=(TargetedFault(action="drop"),)).congests


def test_random_faults_respect_budget_and_seed():
    plan = FaultPlan(random=RandomFaults(drop=0.9, budget=3))
    inj = FaultInjector(plan, random.Random(1))
    drops = sum(not inj.decide(i, "a", "b", frame()).copies for i in range(50))
    assert drops == 3 and inj.random_used == 3
    a = FaultInjector(FaultPlan(random=RandomFaults(drop=0.3, duplicate=0.3)),
                      random.Random(7))
    b = FaultInjector(FaultPlan(random=RandomFaults(drop=0.3, duplicate=0.3)),
                      random.Random(7))
    assert [a.decide(i, "x", "y", frame()).copies for i in range(40)] == [
        b.decide(i, "x", "y", frame()).copies for i in range(40)]


def test_random_faults_only_on_named_links():
    inj = FaultInjector(FaultPlan(random=RandomFaults(drop=0.99, links=(("a", "b"),))),
                        random.Random(0))
    assert inj.decide(0, "b", "a", frame()).copies == [0]
    assert inj.decide(0, "a", "b", frame()).copies == []


@pytest.mark.parametrize("kwargs", [
    {"action": "explode"}, {"action": "drop", "kind": "nope"},
    {"action": "drop", "nth": 0}, {"action": "delay", "delay_ns": 0},
    {"action": "congest"}, {"action": "drop", "depth": 5}])
def test_bad_targeted_fault_rejected(kwargs):
    with pytest.raises(FaultPlanError):
        TargetedFault(**kwargs)


@pytest.mark.parametrize("kwargs", [{"drop": 1.0}, {"duplicate": -0.1}, {"budget": -1},
                                    {"jitter_ns": -1}])
def test_bad_random_faults_rejected(kwargs):
    with pytest.raises(FaultPlanError):
        RandomFaults(**kwargs)
