"""Stopping the processes a run started, one way for every caller: SIGTERM to all of
them at once (they wind down in parallel: a PS writes its result, a capture flushes),
one grace time for all, then SIGKILL for any still running, so none is left for the
testbed's reaper to find."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterable


def stop(procs: Iterable[subprocess.Popen], grace_s: float = 5.0) -> list[subprocess.Popen]:
    """Stop every process of ``procs``; the ones that did not end within ``grace_s`` of
    SIGTERM and were killed."""
    procs = list(procs)
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
    deadline = time.monotonic() + grace_s
    killed = []
    for proc in procs:
        try:
            proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            killed.append(proc)
    return killed
