"""Every test P4Testgen generated (tests/p4testgen/generated) on p4sim, in process.

P4Testgen's Tofino target is an executable model of Tofino semantics that the authors of
p4sim did not write: for every path it explored through a program, it gives the entries,
the input frame and the frame a Tofino sends (or that it drops it). Each such test runs
here through BfRuntime with bf-p4c's names (``p4sim_replay.py``); a disagreement is a
p4sim bug to fix, or a strict xfail in ``triage.yaml`` naming why P4Testgen's model is
not the chip there, with the evidence. The hand-written sets (tests/p4testgen/handwritten)
are in P4Testgen's format but not generated: they test this runner.
"""

from __future__ import annotations

import pytest

from p4sim_replay import ModelChanges, P4simReplay, replay_for_set
from ptf_format import FormatError
from testgen_sets import (GENERATED, HANDWRITTEN, GeneratedSet, ProgramMissing, load_sets,
                          triage, xfail_reason)

SETS = {s.name: s for s in load_sets(GENERATED) + load_sets(HANDWRITTEN)}
TRIAGE = triage()


def _cases():
    for s in SETS.values():
        try:
            s.program
        except ProgramMissing as e:     # P4Testgen's own programs, where no p4c tree is
            yield pytest.param(s.name, "", id=f"{s.name}-program-missing",
                               marks=pytest.mark.skip(reason=str(e)))
            continue
        try:
            tests = s.read().tests
        except FormatError as e:      # the whole set fails, named; collection goes on
            yield pytest.param(s.name, str(e), id=f"{s.name}-unreadable")
            continue
        for t in tests:
            marks = []
            why = xfail_reason(TRIAGE, s.name, t.name)
            if why:
                marks.append(pytest.mark.xfail(reason=why, strict=True))
            yield pytest.param(s.name, t.name, id=f"{s.name}-{t.name}", marks=marks)


_replays: dict[str, tuple[P4simReplay, dict]] = {}


@pytest.fixture(scope="module")
def replay_for():
    """The P4simReplay of a test set, made on first use in this process (compiling
    atp.p4 for p4sim takes seconds); tests come set by set, so only the two sets used
    last keep their device and server open."""
    def get(name: str):
        if name in _replays:
            _replays[name] = _replays.pop(name)         # most recently used last
        else:
            while len(_replays) >= 2:
                _replays.pop(next(iter(_replays)))[0].close()
            s: GeneratedSet = SETS[name]
            tests = {t.name: t for t in s.read().tests}
            _replays[name] = (replay_for_set(s), tests)
        return _replays[name]
    yield get
    for r, _ in _replays.values():
        r.close()
    _replays.clear()


@pytest.mark.parametrize("test_set,test", list(_cases()))
def test_p4sim_agrees_with_p4testgen(replay_for, test_set, test):
    if not test.startswith("Test"):
        pytest.fail(f"{test_set}: P4Testgen's PTF file cannot be read: {test}")
    replay, tests = replay_for(test_set)
    t = tests[test]
    outcome = replay.run(t)
    assert outcome.passed, (f"{SETS[test_set].ptf_file.name}:{t.line} {test}: "
                            f"{outcome.detail}\nP4Testgen's trace:\n{t.trace}")


def _confirmed():
    for e in TRIAGE:
        if e.confirm and "p4sim" in e.runs and e.test_set in SETS:
            for t in e.tests:
                yield pytest.param(e.test_set, t, e.confirm, id=f"{e.test_set}-{t}")


@pytest.mark.parametrize("test_set,test,confirm", list(_confirmed()))
def test_triage_reason_is_the_whole_difference(replay_for, test_set, test, confirm):
    """A triage entry that names P4Testgen's simplifications as the cause: replayed with
    them taken on (p4sim_replay.ModelChanges), the test passes, so the entry hides no
    other difference. (The strict xfail above keeps the entry from outliving it.)"""
    replay, tests = replay_for(test_set)
    assert test in tests, f"{test_set}: triage.yaml names {test}, which the set lacks"
    outcome = replay.run(tests[test], ModelChanges.named(confirm))
    assert outcome.passed, (f"{test_set} {test} still disagrees with {list(confirm)} "
                            f"taken on: {outcome.detail}")
