"""Command-line plumbing shared by the worker and PS programs: the scenario option
(read by ``reference.scenario.load_scenario``), signals, the ready file, and user errors printed without a traceback."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from typing import Callable

from reference.scenario import ScenarioError

from host_stack.link import LinkError
from host_stack.results import ResultError
from host_stack.roles import RoleError

USER_ERRORS = (ScenarioError, RoleError, LinkError, ResultError, ValueError)


def add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--iface", default="eth0",
                        help="interface to send and receive ATP frames on (default eth0)")
    parser.add_argument("--scenario", help="scenario JSON (reference.scenario format); "
                        "without it the DMLC_* launcher variables describe the job")
    parser.add_argument("--host", help="this host's name in the scenario")
    parser.add_argument("--out", help="write the result JSON here when done")
    parser.add_argument("--ready", help="touch this file once the socket is open")
    parser.add_argument("--budget-s", type=float, default=60.0,
                        help="give up after this many seconds (default 60)")


def on_stop_signals(stop: Callable[[], None]) -> None:
    """SIGTERM/SIGINT end the loop cleanly so results are still written."""
    def handler(signum, frame):
        stop()
    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


def touch(path: str | None) -> None:
    if path:
        Path(path).touch()


def run_main(main: Callable[[], int]) -> None:
    """Exit with main's status; a user error is one line on stderr, status 2."""
    try:
        sys.exit(main())
    except USER_ERRORS as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
