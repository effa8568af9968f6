"""Killing a softswitch run mid-way leaves no switch process and no veth behind.

A real run — pytest running a conformance test on ``--target=softswitch`` — is started
as a subprocess; once its daemon forwards frames, the run (or its xdist worker, or its
daemon and then the run) is killed, and every process and interface *that run created*
must be gone. Only that run's own daemons and veths are looked at (by pid and by the
interfaces on the daemon's command line): other softswitches may run concurrently on
this machine. The mechanisms are in ``p4sim/switchd/lifecycle.py``.
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from atp_fixtures.targets.softswitch import softswitch_unavailable
from p4sim.switchd.launch import VethPairs
from p4sim.switchd import lifecycle
from p4sim.switchd.lifecycle import (identity_alive, mark_owned, owner_of, process_identity,
                                      record_pending, sweep_stale)

REPO = Path(__file__).resolve().parents[2]
# long enough (minutes) that it is always killed mid-way
RUN = ["conformance/test_wire_conformance.py", "--target=softswitch", "-p", "no:cacheprovider",
       "-q", "--seed=7"]
# generated two-rack scenarios (100 examples: minutes), each rack switch a daemon of the pool
RUN_MULTI_SWITCH = ["conformance/test_two_level.py", "-k", "test_multi_rack_equals_single_switch",
                    "-p", "no:cacheprovider", "-q", "--seed=7", "--hypothesis-profile=dev"]
# ... on the softswitch target's pool, and on the testbed's switches through the
# tofino-model driver (softswitches in bf_switchd's place, one per rack switch; two, so
# that both are forwarding when the run is killed; a kill between a veth's creation and
# its mark is the pending records' case, tested below)
MULTI_SWITCH_TARGETS = {
    "softswitch": ["--target=softswitch"],
    "tofino-model": ["--target=tofino-model", "--testbed={two_switches}"]}
START_S = 180.0        # the inner pytest's start, atp.p4's compile in the daemon, traffic
GONE_S = 15.0
# how long a signalled pytest may take to finish its teardown and exit (SIGINT lets the
# running test end first): only a bound on a broken run, not the property checked
EXIT_S = 120.0

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("softswitch-veth")]


@pytest.fixture(autouse=True)
def _root():
    missing = softswitch_unavailable()
    if missing:
        pytest.skip(missing)


def _ppid(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _descendants(root: int) -> list[int]:
    parents = {int(p): _ppid(int(p)) for p in os.listdir("/proc") if p.isdigit()}
    found, frontier = [], [root]
    while frontier:
        pid = frontier.pop()
        children = [c for c, pp in parents.items() if pp == pid]
        found += children
        frontier += children
    return found


def _cmdline(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    except OSError:
        return []


def _interfaces_with_peers(names: list[str]) -> set[str]:
    """``names`` and their veth peers (by the peer's ifindex in ``iflink``)."""
    by_index = {}
    for n in os.listdir("/sys/class/net"):
        try:
            by_index[(Path("/sys/class/net") / n / "ifindex").read_text().strip()] = n
        except OSError:
            continue
    out = set(names)
    for n in names:
        try:
            peer = by_index.get((Path("/sys/class/net") / n / "iflink").read_text().strip())
        except OSError:
            continue
        if peer:
            out.add(peer)
    return out


class Daemon:
    """A softswitch daemon of the run: its identity and the interfaces it was given."""

    def __init__(self, pid: int):
        self.pid = pid
        self.identity = process_identity(pid)
        self.parent = _ppid(pid)
        ports = [a for a in _cmdline(pid) if re.fullmatch(r"\d+@\S+", a)]
        self.interfaces = _interfaces_with_peers([p.split("@", 1)[1] for p in ports])

    def forwarding(self) -> bool:
        """Frames went into the switch (the run is mid-way, not starting)."""
        for n in self.interfaces:
            try:
                if int((Path("/sys/class/net") / n / "statistics" / "tx_packets")
                       .read_text()) > 0:
                    return True
            except OSError:
                continue
        return False


def _daemons_of(run: subprocess.Popen) -> list[Daemon]:
    return [Daemon(p) for p in _descendants(run.pid)
            if "p4sim.switchd" in _cmdline(p)]


def _start_run(extra: list[str] = ()) -> tuple[subprocess.Popen, Daemon]:
    run, busy = _start([*RUN, *extra], daemons=1)
    return run, busy[0]


def _start(args: list[str], daemons: int) -> tuple[subprocess.Popen, list[Daemon]]:
    """An inner pytest run, once ``daemons`` of its softswitches forward frames."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("CI", None)
    run = subprocess.Popen([sys.executable, "-m", "pytest", *args], cwd=REPO, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           start_new_session=True)
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        busy = [d for d in _daemons_of(run) if d.identity and d.forwarding()]
        if len(busy) >= daemons:
            return run, busy
        if run.poll() is not None:
            pytest.fail(f"the inner run exited ({run.returncode}) before {daemons} of its "
                        f"softswitches forwarded frames")
        time.sleep(0.2)
    _kill(run)
    pytest.fail(f"{daemons} of the inner run's softswitches did not forward frames within "
                f"{START_S:.0f}s")


def _kill(run: subprocess.Popen) -> None:
    if run.poll() is None:
        os.killpg(run.pid, signal.SIGKILL)
    run.wait()


def _assert_gone(daemons: list[Daemon]) -> None:
    deadline = time.monotonic() + GONE_S
    while time.monotonic() < deadline:
        alive = [d.pid for d in daemons if identity_alive(d.identity)]
        left = sorted(n for d in daemons for n in d.interfaces
                      if os.path.exists(f"/sys/class/net/{n}"))
        if not alive and not left:
            return
        time.sleep(0.2)
    pytest.fail(f"left behind: daemons {alive}, interfaces {left}")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL],
                         ids=["SIGTERM", "SIGINT", "SIGKILL"])
def test_killing_pytest_mid_run_leaves_nothing(sig):
    run, daemon = _start_run()
    try:
        os.kill(run.pid, sig)
        try:
            run.wait(EXIT_S)
        except subprocess.TimeoutExpired:
            # SIGINT lets the running hypothesis test go on to its end (minutes on the
            # softswitch); the run is then killed below, and what must hold is the same:
            # its daemon and veths go away
            pass
    finally:
        _kill(run)
    _assert_gone([daemon])


@pytest.mark.parametrize("target", sorted(MULTI_SWITCH_TARGETS))
def test_killing_a_multi_switch_run_leaves_none_of_its_daemons(target, tmp_path):
    """A two-level run takes a softswitch per rack switch from its pool (the softswitch
    target's, or the testbed's switches): SIGKILLed mid-way (nothing of pytest runs),
    every one of them stops and takes its veths."""
    two_switches = tmp_path / "two-switches.yaml"
    two_switches.write_text((REPO / "fixtures" / "testbeds" / "softswitch-as-model.yaml")
                            .read_text().replace("switches: 8", "switches: 2"))
    args = [a.format(two_switches=two_switches) for a in MULTI_SWITCH_TARGETS[target]]
    run, daemons = _start([*RUN_MULTI_SWITCH, *args], daemons=2)
    seen = {d.pid: d for d in daemons}
    try:
        for d in _daemons_of(run):
            if d.identity:              # not one that stopped since (a restart)
                seen.setdefault(d.pid, d)
        assert {d.parent for d in daemons} == {run.pid}, "the pool is the run's own"
        os.kill(run.pid, signal.SIGKILL)
        run.wait(EXIT_S)
    finally:
        _kill(run)
    _assert_gone(list(seen.values()))


def test_a_crashed_xdist_worker_leaves_nothing():
    """The worker (the daemon's parent) dies; its daemon goes. xdist starts a replacement
    worker, which starts a daemon of its own; then the controller is SIGTERMed (no
    teardown runs): the replacement worker must follow it, and its daemon and veths go
    too (``atp_fixtures.running.worker_lifetime``; once, the replacement outlived the
    run by minutes, holding a daemon and 37 veths)."""
    run, daemon = _start_run(["-n", "1"])
    seen = {daemon.pid: daemon}
    workers = set()
    try:
        assert daemon.parent != run.pid, "under -n the daemon's parent is a worker"
        os.kill(daemon.parent, signal.SIGKILL)
        _assert_gone([daemon])
        replacement = _replacement_daemon(run, daemon)
        seen[replacement.pid] = replacement
        workers = {replacement.parent: process_identity(replacement.parent)}
        assert replacement.parent != daemon.parent and _ppid(replacement.parent) == run.pid
        for d in _daemons_of(run):
            seen.setdefault(d.pid, d)
        os.kill(run.pid, signal.SIGTERM)
        run.wait(EXIT_S)
    finally:
        _kill(run)
    _assert_gone(list(seen.values()))
    deadline = time.monotonic() + GONE_S
    while any(w and identity_alive(w) for w in workers.values()):
        assert time.monotonic() < deadline, \
            f"the replacement xdist worker {list(workers)} outlived its controller"
        time.sleep(0.2)


def _replacement_daemon(run: subprocess.Popen, crashed: Daemon) -> Daemon:
    """The daemon a replacement worker of ``run`` starts after ``crashed``'s worker died."""
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        fresh = [d for d in _daemons_of(run) if d.pid != crashed.pid and d.identity
                 and d.parent != crashed.parent and d.forwarding()]
        if fresh:
            return fresh[0]
        if run.poll() is not None:
            pytest.fail(f"the inner run exited ({run.returncode}) before a replacement "
                        f"worker's softswitch forwarded frames")
        time.sleep(0.2)
    pytest.fail(f"no replacement worker's softswitch forwarded frames within {START_S:.0f}s")


def test_killing_daemon_and_pytest_is_swept_by_the_next_start():
    """Both SIGKILLed at once: nobody is left to clean, so the next softswitch start
    deletes the dead run's marked veths (and only those)."""
    run, daemon = _start_run()
    os.kill(daemon.pid, signal.SIGKILL)
    _kill(run)
    left = {n for n in daemon.interfaces if os.path.exists(f"/sys/class/net/{n}")}
    assert left, "the double kill should have left the veths for the sweep"
    with VethPairs(1, tag="sweeptest"):
        pass
    _assert_gone([daemon])


def test_the_sweep_deletes_only_marked_interfaces_of_dead_creators():
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    dead_identity = f"{dead.pid}:0"      # gone, and no process started at tick 0 anyway
    with VethPairs(3, tag="sweepunit") as pairs:
        stale, live, unmarked = pairs.switch
        mark_owned(stale, dead_identity)
        subprocess.run(["ip", "link", "set", "dev", unmarked, "alias", "someone else's"],
                       check=True)
        assert owner_of(live) == process_identity(os.getpid())
        assert sweep_stale(pairs.switch) == [stale]
        assert not os.path.exists(f"/sys/class/net/{stale}")
        assert not os.path.exists(f"/sys/class/net/{pairs.peer[0]}")
        assert all(os.path.exists(f"/sys/class/net/{n}") for n in (live, unmarked))


def test_a_name_another_run_holds_is_drawn_again(monkeypatch):
    """Concurrent runs share the name space: the same random part twice must not fail."""
    import p4sim.switchd.launch as launch
    draws = iter(["zz", "zz", "zy"])
    monkeypatch.setattr(launch.random, "choices", lambda *a, **k: next(draws))
    with VethPairs(1, tag="nametest") as first, VethPairs(1, tag="nametest") as second:
        assert first.switch == ["nametestzz0a"] and second.switch == ["nametestzy0a"]


def test_a_pair_killed_before_its_mark_is_swept_by_its_pending_record(tmp_path,
                                                                       monkeypatch):
    """``ip link add`` sets no alias: a creator killed before marking its pair leaves it
    unmarked, and only its pending record tells the sweep whose it was. A dead
    recorder's unmarked pair goes with its record; a live recorder's stays."""
    monkeypatch.setattr(lifecycle, "PENDING", tmp_path / "pending")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    names = {who: f"pend{who[0]}{os.getpid() % 0xfffff:x}" for who in ("dead", "live")}
    try:
        for name in names.values():
            subprocess.run(["ip", "link", "add", name + "a", "type", "veth", "peer", "name",
                            name + "b"], check=True, capture_output=True)
        dead_record = record_pending(names["dead"] + "a", f"{dead.pid}:0")
        live_record = record_pending(names["live"] + "a", process_identity(os.getpid()))
        assert owner_of(names["dead"] + "a") is None          # unmarked: out of mark reach
        assert names["dead"] + "a" in sweep_stale()
        assert not os.path.exists(f"/sys/class/net/{names['dead']}b")
        assert not dead_record.exists()
        assert os.path.exists(f"/sys/class/net/{names['live']}a") and live_record.exists()
    finally:
        for name in names.values():
            if os.path.exists(f"/sys/class/net/{name}a"):
                subprocess.run(["ip", "link", "del", name + "a"], capture_output=True)


# a plugin for the inner run below: each VethPairs' close waits longer than xdist gives a
# worker that reported itself finished before killing it (10 s), as closing four
# softswitches of 37 veth pairs each took in CI
SLOW_VETH_CLOSE = '''
import time
from p4sim.switchd import launch

_close = launch.VethPairs.close


def _slow_close(self):
    if self.switch:
        time.sleep(12)
    _close(self)


launch.VethPairs.close = _slow_close
'''


def test_an_xdist_worker_closes_its_switches_before_it_reports_finished(tmp_path):
    """A worker stops its softswitches and deletes their veths while its session
    finishes, not at exit: once it has reported itself finished, xdist kills it after
    10 s, and a close cut short there (the daemon stopped, the veths not yet deleted)
    left 28 veth pairs after a green CI. The session's leftover check names any."""
    (tmp_path / "slow_veth_close.py").write_text(SLOW_VETH_CLOSE)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), str(tmp_path)]))
    env.pop("CI", None)
    run = subprocess.run([sys.executable, "-m", "pytest", *RUN, "-k", "ecn-from-ipv4",
                          "-n", "1", "-p", "slow_veth_close"], cwd=REPO, env=env,
                         capture_output=True, text=True, timeout=START_S + 60)
    out = run.stdout + run.stderr
    assert "1 passed" in out, out
    assert "left behind by this test session" not in out, out
    assert run.returncode == 0, out
