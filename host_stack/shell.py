"""The I/O shell: drives one reference host state machine with real time and a socket.

The reference worker and PS (:mod:`reference.worker`, :mod:`reference.ps`) are pure:
frames and a time in, frames out, plus a ``deadline()`` for the next timer. The
discrete-event network calls them with simulated nanoseconds; this loop calls the same
methods with ``time.monotonic_ns()`` and frames from an AF_PACKET socket, so every
protocol rule (window, resends, float requests, AIMD, PS dedupe) has one owner.
"""

from __future__ import annotations

import time
from typing import Callable

from reference.network import HostApp
from reference.wire import WireError

from host_stack.link import PacketLink


class HostLoop:
    """Runs ``app`` over ``link`` until a condition holds, the time budget is spent, or
    ``stop()`` is called (from a signal handler)."""

    def __init__(self, link: PacketLink, app: HostApp,
                 clock: Callable[[], int] = time.monotonic_ns):
        self.link = link
        self.app = app
        self.clock = clock
        self.malformed = 0
        self._stopping = False

    def stop(self) -> None:
        self._stopping = True

    def send(self, frames: list[bytes]) -> None:
        send = self.link.send
        for frame in frames:
            send(frame)

    def run(self, until: Callable[[], bool] = lambda: False,
            budget_s: float | None = None, idle_poll_s: float = 0.1) -> bool:
        """Serve frames and timers; True when ``until()`` held, False on budget/stop."""
        clock = self.clock
        app = self.app
        give_up = None if budget_s is None else clock() + int(budget_s * 1e9)
        while not until():
            if self._stopping:
                return False
            now = clock()
            if give_up is not None and now >= give_up:
                return False
            deadline = app.deadline()
            if deadline is not None and now >= deadline:
                self.send(app.on_timeout(now))
                continue
            wait_ns = idle_poll_s * 1e9
            if deadline is not None:
                wait_ns = min(wait_ns, deadline - now)
            if give_up is not None:
                wait_ns = min(wait_ns, give_up - now)
            for frame in self.link.recv_batch(max(wait_ns, 0) / 1e9):
                try:
                    out = app.on_frame(frame, clock())
                except WireError:
                    self.malformed += 1
                    continue
                if out:
                    self.send(out)
        return True
