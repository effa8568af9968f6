"""--target=softswitch: atp.p4 in the switchd on veths, driven like a tofino-model."""
from __future__ import annotations

import os

import pytest

from atp_fixtures.oracles.comparator import assert_matches, compare
from atp_fixtures.generation.corpus import trace_files
from atp_fixtures.plugin import DEFAULT_CORPUS
from atp_fixtures.running.replay import replay
from atp_fixtures.targets import open_target
from atp_fixtures.targets.base import TargetUnavailable
from p4sim.switchd.launch import LaunchError, SwitchdProcess, VethPairs
from atp_fixtures.evidence.trace import load_trace

pytestmark = pytest.mark.xdist_group("softswitch-veth")


def _existing(names):
    """Of ``names``, those still present. Only this target's own veths are looked at:
    other switches (xdist workers, host-stack tests) create softswitch* veths too."""
    return {n for n in names if os.path.exists(f"/sys/class/net/{n}")}


@pytest.fixture
def target():
    try:
        t = open_target("softswitch")
    except TargetUnavailable as e:
        pytest.skip(e.reason)
    try:
        yield t
    finally:
        held = t.interfaces
        t.close()
        assert not _existing(held), "the target left veths behind"


def _spec_traces():
    traces = [load_trace(p) for p in trace_files(DEFAULT_CORPUS)]
    return [t for t in traces if t.profile == "spec"]


def test_corpus_traces_replay_byte_for_byte_with_registers_over_grpc(target):
    """Every spec-profile corpus trace (the full set also runs in
    conformance/ --target=softswitch)."""
    traces = _spec_traces()
    assert traces
    for trace in traces:
        for sw in trace.switches.values():
            result = compare(sw, replay(sw, target, "spec"))
            assert_matches([result], f"{trace.name}:")
            assert sw.registers is None or result.registers_checked


def test_close_removes_veths_and_is_idempotent(target):
    sw = next(iter(_spec_traces()[0].switches.values()))
    target.setup(sw.config, "spec")
    ours = target.interfaces
    assert _existing(ours) == set(ours) and ours, "setup created no veths"
    target.close()
    target.close()
    assert not _existing(ours)
    assert target.interfaces == ()


def test_a_failing_daemon_leaves_no_veths(tmp_path):
    bad = tmp_path / "bad.p4"
    bad.write_text("this is not P4\n")
    try:
        pairs = VethPairs(1)
    except LaunchError as e:
        pytest.skip(f"cannot create veth pairs here: {e}")
    names = list(pairs.switch)
    with pytest.raises(LaunchError, match="exited with status 2: .*cannot load"):
        with pairs:
            SwitchdProcess(bad, {1: pairs.switch[0]}, timeout=60)
    assert not any(os.path.exists(f"/sys/class/net/{n}") for n in names)


@pytest.mark.parametrize("running, needed, serves", [
    ((False, 70000, "trailer"), (False, 30000, "trailer"), True),    # a larger pool runs it
    ((False, 30000, "trailer"), (False, 70000, "trailer"), False),   # too small a pool
    ((False, 20000, "trailer"), (True, 20000, "trailer"), False),    # another program
    ((False, 20000, "trailer"), (False, 20000, "real"), False),      # another clock
    ((False, None, "trailer"), (False, None, "trailer"), True),      # bf-p4c's build
    ((False, None, "trailer"), (False, 4096, "trailer"), False),     # wide vs tofino build
])
def test_a_daemon_is_kept_for_any_setup_its_build_serves(running, needed, serves):
    """Scenarios of alternating pool sizes must not restart the daemon each example (a
    start costs ~4 s); one with another program, clock or a larger pool must."""
    from atp_fixtures.targets.softswitch import build_serves
    assert build_serves(running, needed) is serves
