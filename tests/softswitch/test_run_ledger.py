"""The run's ledger names what a session left behind (``p4sim.switchd.lifecycle``), and
nothing that went away in time or belongs to another run."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from atp_fixtures.targets.softswitch import softswitch_unavailable
from p4sim.switchd.launch import VethPairs
from p4sim.switchd.lifecycle import (RUN_LEDGER, leftovers, note_created, open_run_ledger,
                                      remove_leftovers)


@pytest.fixture
def ledger(monkeypatch, tmp_path) -> Path:
    """A ledger of this test alone (nested in the session's, as an inner session's is)."""
    monkeypatch.setenv(RUN_LEDGER, str(tmp_path))
    folder = open_run_ledger()
    assert folder.parent == tmp_path and os.environ[RUN_LEDGER] == str(folder)
    return folder


def _sleeper(env: dict) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], env=env)


def test_a_process_that_inherited_the_ledger_is_named_until_it_ends(ledger):
    child = _sleeper(dict(os.environ))
    stranger = _sleeper({k: v for k, v in os.environ.items() if k != RUN_LEDGER})
    try:
        [left] = leftovers(ledger, grace_s=0.5)
        assert left.startswith(f"process {child.pid} (parent {os.getpid()})")
        assert "time.sleep(120)" in left
        remove_leftovers(ledger)
        child.wait(5)
        assert leftovers(ledger, grace_s=0.5) == []
        assert stranger.poll() is None, "another run's process is not touched"
    finally:
        for p in (child, stranger):
            p.kill()
            p.wait()


def test_an_outer_ledger_counts_an_inner_sessions_processes(ledger, monkeypatch):
    outer = ledger
    inner = open_run_ledger()               # an inner pytest run opens its own
    assert inner.parent == outer
    child = _sleeper(dict(os.environ))
    try:
        assert len(leftovers(outer, grace_s=0.2)) == 1
        assert len(leftovers(inner, grace_s=0.2)) == 1
    finally:
        child.kill()
        child.wait()


def test_a_recorded_veth_or_namespace_left_is_named_and_removed(ledger):
    missing = softswitch_unavailable()
    if missing:
        pytest.skip(missing)
    pairs = VethPairs(1, tag="ledger")
    name = f"hostst-ledger-{os.getpid()}"
    subprocess.run(["ip", "netns", "add", name], check=True, capture_output=True)
    note_created("netns", name)
    try:
        veth, netns = leftovers(ledger, grace_s=0.2)
        assert veth.startswith(f"veth {pairs.switch[0]} (alias: {os.getpid()}:")
        assert netns == f"network namespace {name}"
        remove_leftovers(ledger)
        assert not Path("/sys/class/net", pairs.switch[0]).exists()
        assert not Path("/run/netns", name).exists()
        assert leftovers(ledger, grace_s=0.2) == []
    finally:
        pairs.close()
        subprocess.run(["ip", "netns", "del", name], capture_output=True)


def test_a_veth_deleted_in_time_is_not_a_leftover(ledger):
    missing = softswitch_unavailable()
    if missing:
        pytest.skip(missing)
    with VethPairs(1, tag="ledger"):
        pass
    assert leftovers(ledger, grace_s=0.2) == []


LEAVES_A_PROCESS = '''
import subprocess, sys

def test_starts_a_detached_process_and_forgets_it():
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)  # leak-probe"],
                     start_new_session=True)
'''


@pytest.mark.parametrize("xdist", [[], ["-n", "1"]], ids=["in-process", "xdist"])
def test_a_session_that_leaves_a_process_fails_naming_it(tmp_path, xdist):
    """The plugin ``make test`` runs under: a green session that leaves a process behind
    exits 1, names it, and removes it."""
    (tmp_path / "test_leak.py").write_text(LEAVES_A_PROCESS)
    env = {k: v for k, v in os.environ.items() if k != RUN_LEDGER}
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                          "-p", "atp_fixtures.running.leftover_check", "--target=reference",
                          *xdist, "test_leak.py"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "1 passed" in out and "left behind by this test session" in out, out
    assert "time.sleep(300)  # leak-probe" in out
    still = subprocess.run(["pgrep", "-f", "leak-probe"], capture_output=True, text=True)
    assert still.stdout.strip() == "", "the leftover was removed after it was named"
