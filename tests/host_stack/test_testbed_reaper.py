"""A host-stack run killed outright leaves no namespace, veth or process behind.

A child Python process makes a :class:`host_stack.netns.Testbed` and starts a process in
one of its namespaces (as a run starts a PS or the release's worker), then is SIGKILLed:
no ``__exit__`` runs. The testbed's reaper must then empty and delete the namespaces.
Only this test's own namespaces (by their random prefix) and process are looked at."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from host_stack.netns import unavailable_reason

GONE_S = 15.0
CHILD = r"""
import sys, time
from host_stack.netns import Testbed
hosts = {"a": bytes((2, 0, 0, 0, 0, 1)), "b": bytes((2, 0, 0, 0, 0, 2))}
bed = Testbed(hosts, tag="reaptest").__enter__()
proc = bed.popen("a", ["sleep", "600"])
print(bed.prefix, proc.pid, flush=True)
time.sleep(600)
"""


def _namespaces(prefix: str) -> list[str]:
    listing = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    return [line.split()[0] for line in listing.splitlines()
            if line.split() and line.split()[0].startswith(prefix + "-")]


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for its new parent to reap it has stopped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_a_sigkilled_run_leaves_no_namespace_and_no_process():
    reason = unavailable_reason()
    if reason:
        pytest.skip(f"the testbed needs network namespaces: {reason}")
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True)
    prefix, pid = child.stdout.readline().split()
    pid = int(pid)
    assert len(_namespaces(prefix)) == 3 and _alive(pid)
    child.send_signal(signal.SIGKILL)
    child.wait()
    deadline = time.monotonic() + GONE_S
    while (_namespaces(prefix) or _alive(pid)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _namespaces(prefix) == [], "the killed run's namespaces are still there"
    assert not _alive(pid), "the process started in the killed run's namespace still runs"
