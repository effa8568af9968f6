"""host_stack.stopping: every process stopped, the stubborn ones killed and named."""

from __future__ import annotations

import subprocess
import sys

from host_stack.stopping import stop

IGNORES_SIGTERM = ("import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
                   "print('ready', flush=True); time.sleep(60)")


def _start(code: str) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == "ready\n"
    return proc


def test_sigterm_first_then_sigkill_for_the_ones_that_ignore_it():
    polite = _start("import time; print('ready', flush=True); time.sleep(60)")
    stubborn = _start(IGNORES_SIGTERM)
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    try:
        assert stop([polite, stubborn, ended], grace_s=1.0) == [stubborn]
    finally:
        for proc in (polite, stubborn):
            proc.kill()
            proc.wait()
            proc.stdout.close()
    assert polite.returncode == -15 and stubborn.returncode == -9
