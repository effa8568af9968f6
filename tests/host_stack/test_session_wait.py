"""How a host-stack run waits for its workers (host_stack/session.py ``_wait_workers``):
a crashed host ends the wait at once, naming it, instead of after the budget; the
workers left are stopped. Real processes, no namespaces (no root)."""

from __future__ import annotations

import subprocess
import sys
import time
from types import SimpleNamespace

from host_stack.session import _wait_workers


def _proc(code: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", code])


def _run():
    return SimpleNamespace(worker_status={}, errors=[])


def test_a_ps_that_exits_while_workers_run_ends_the_wait():
    run, heard = _run(), []
    workers = {"h0": _proc("import time; time.sleep(60)"),
               "h1": _proc("import time; time.sleep(60)")}
    pses = {"ps": _proc("raise SystemExit(3)")}
    started = time.monotonic()
    _wait_workers(run, workers, pses, 60, heard.append)
    assert time.monotonic() - started < 10
    assert run.worker_status == {"h0": -9, "h1": -9} and sorted(heard) == ["h0", "h1"]
    assert run.errors == ["PS ps exited with status 3 while workers ran (see its log); "
                          "the other workers were stopped"]
    assert all(p.poll() is not None for p in workers.values())


def test_a_worker_that_fails_ends_the_wait_and_one_that_succeeds_does_not():
    run = _run()
    workers = {"h0": _proc("raise SystemExit(0)"),
               "h1": _proc("import time; time.sleep(0.5); raise SystemExit(1)"),
               "h2": _proc("import time; time.sleep(60)")}
    ps = _proc("import time; time.sleep(60)")
    try:
        _wait_workers(run, workers, {"ps": ps}, 60, None)
    finally:
        ps.kill()
        ps.wait()
    assert run.worker_status == {"h0": 0, "h1": 1, "h2": -9}
    assert run.errors == ["worker h1 exited with status 1 (see its log); the other "
                          "workers were stopped"]


def test_workers_still_running_at_the_limit_are_stopped_and_named():
    run = _run()
    workers = {"h0": _proc("import time; time.sleep(60)")}
    ps = _proc("import time; time.sleep(60)")
    try:
        _wait_workers(run, workers, {"ps": ps}, 0.5, None)
    finally:
        ps.kill()
        ps.wait()
    assert run.worker_status == {"h0": -9}
    assert run.errors == ["worker h0 did not exit within the budget"]
    assert workers["h0"].poll() is not None
