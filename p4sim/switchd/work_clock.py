"""Where the daemon's time goes: seconds and counts per kind of work (frames through
the pipe, BfRuntime Reads and Writes), shown in the status line (SIGUSR1 and at exit).

A driver's wall time per example splits into its own Python, its round trips and the
daemon's work behind them; this is the daemon's side of that breakdown
(``benchmarks/real_packets_profile.py`` reads it). Two ``perf_counter`` calls per frame
or RPC, so it stays on.
"""

from __future__ import annotations

import re
import threading
import time
from contextlib import contextmanager
from typing import Iterator

KINDS = ("frames", "read", "write", "tagged reads")


class WorkClock:
    """Seconds and counts per kind; safe from the data path and gRPC threads at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.seconds = dict.fromkeys(KINDS, 0.0)
        self.counts = dict.fromkeys(KINDS, 0)

    def add(self, kind: str, seconds: float, count: int = 1) -> None:
        with self._lock:
            self.seconds[kind] += seconds
            self.counts[kind] += count

    @contextmanager
    def timing(self, kind: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.add(kind, time.perf_counter() - start)

    def line(self) -> str:
        """``work: frames=N/1.234s read=N/0.500s write=N/0.100s tagged_reads=...``"""
        with self._lock:
            return "work: " + " ".join(f"{k.replace(' ', '_')}={self.counts[k]}/"
                                       f"{self.seconds[k]:.3f}s" for k in KINDS)


def parse_work(line: str) -> dict[str, tuple[int, float]] | None:
    """``{kind: (count, seconds)}`` from the last ``work:`` part of a status line."""
    found = re.findall(r"work: ((?:\w+=\d+/[\d.]+s ?)+)", line)
    if not found:
        return None
    return {k: (int(n), float(s)) for k, n, s in re.findall(r"(\w+)=(\d+)/([\d.]+)s",
                                                             found[-1])}
