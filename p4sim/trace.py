"""The path one packet takes through a program, like bmv2's log: per pipeline pass, the
parser states, tables (hit/miss, the const entry), actions, RegisterActions and the
if/switch arms it ran, each with ``file:line``.

No instrumentation of its own: the coverage counters (``p4sim.coverage``) are read
before and after each stage of the packet (an ingress pass, an egress copy), and a
point whose hits grew ran in that stage. So a program compiled with ``coverage=False``
has no path to show, and the order within a stage is the program's (where the point is
declared), not the order of execution; "x2" marks a point run twice in one stage.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Callable

from .coverage import Point

# the kinds a path shows (statements, transitions and emits would drown it)
SHOWN = ("state", "table", "entry", "action", "register_action", "branch")
LABELS = {"state": "parser state", "table": "table", "entry": "const entry",
          "action": "action", "register_action": "RegisterAction", "branch": "arm"}


@dataclass
class Stage:
    """One pass of the packet (or of a copy) through a part of the pipe."""
    label: str                                   # e.g. "ingress pass 1, port 3"
    points: list[tuple[Point, int]] = field(default_factory=list)   # (point, hits)

    def lines(self, indent: str = "    ", root: str | None = None,
              kinds: tuple[str, ...] = SHOWN) -> list[str]:
        """One line per point of ``kinds`` (``file:line``, relative to ``root`` when it
        is under it); alike points (the same line, kind and text: one table per value
        slice of a macro) are one line naming the first and last."""
        out = [f"{indent[:-2]}{self.label}:"]
        groups: dict[tuple, list[tuple[Point, int]]] = {}
        for p, n in self.points:
            if p.kind in kinds:
                groups.setdefault((p.file, p.line, p.kind, p.text), []).append((p, n))
        for alike in groups.values():
            p, n = alike[0]
            what = (f"{p.block} {p.text}" if p.kind == "table" else
                    f"{p.block}: {p.text}" if p.kind in ("entry", "branch") else
                    p.text if p.kind == "state" else p.block)
            if len(alike) > 1:     # one per value slice of a macro: first … last
                last = alike[-1][0].block.rsplit(".", 1)[-1]
                what = what.replace(p.block, f"{p.block} … {last}", 1) + f" ({len(alike)} alike)"
            more = f" (x{n})" if n > 1 else ""
            out.append(f"{indent}{_where(p, root):<24} {LABELS[p.kind]:<14} {what}{more}")
        return out


def _where(p: Point, root: str | None) -> str:
    if root:
        rel = os.path.relpath(os.path.abspath(p.file), root)
        if not rel.startswith(".."):
            return f"{rel}:{p.line}"
    return p.where()


@dataclass
class PacketPath:
    stages: list[Stage] = field(default_factory=list)

    def points(self) -> list[Point]:
        """Every point the packet ran, stage by stage."""
        return [p for s in self.stages for p, _ in s.points]

    def lines(self, indent: str = "    ", root: str | None = None,
              kinds: tuple[str, ...] = SHOWN) -> list[str]:
        if not self.stages:
            return [f"{indent[:-2]}(no stage ran)"]
        return [line for s in self.stages for line in s.lines(indent, root, kinds)]


class Tracer:
    """Records the stages of the packets a Switch runs while it is the switch's
    ``tracer`` (see :meth:`packet`)."""

    def __init__(self, program):
        if not program.coverage_points:
            raise ValueError("the program was compiled without coverage counters "
                             "(coverage=False): no packet path to record")
        self.counts = program.coverage_counts
        self.points = program.coverage_points
        self.path = PacketPath()

    def stage(self, label: str, run: Callable, *args):
        before = list(self.counts)
        try:
            return run(*args)
        finally:
            delta = [a - b for a, b in zip(self.counts, before)]
            hit = []
            for p in self.points:
                n = sum(delta[c] for c in p.counters) - sum(delta[c] for c in p.minus)
                if n > 0:
                    hit.append((p, n))
            self.path.stages.append(Stage(label, hit))

    def packet(self, switch, port: int, frame: bytes, **inject) -> tuple[list, PacketPath]:
        """``switch.inject(port, frame, **inject)`` with its path recorded."""
        self.path = PacketPath()
        switch.tracer = self
        try:
            out = switch.inject(port, frame, **inject)
        finally:
            switch.tracer = None
        return out, self.path


def trace_packet(switch, port: int, frame: bytes, **inject) -> tuple[list, PacketPath]:
    """Run one frame on ``switch`` and return (its output, its path)."""
    return Tracer(switch.program).packet(switch, port, frame, **inject)

