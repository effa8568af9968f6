"""Coverage of a P4 program by the packets a run gave it: which parser states and
transitions, control statements and if/switch arms, actions, table hits/misses and const
entries, RegisterAction arms and deparser emits the packets took, and how often.

Why it is this cheap (on by default): the compiler numbers the *counters* it needs, one per
straight-line stretch of generated code (a block's entry, each arm, each state, each
transition, each table outcome), and emits ``COV[i] += 1`` there only. Points that
necessarily run together (the statements of one block) share a counter, so a packet
pays one increment per block it enters, not one per statement. A table's "hit" of a
const table is the sum of its entries' counters.

A point's ``id`` names it without its line number (``kind block | source text``, plus
``#n`` for a repeat), so ids survive edits elsewhere in a file and a list of ids (a
declaration of unreachable points) is reviewable; ``file:line`` is where it is.

Decision: statements after a call of an action or nested control that executes ``exit``
are counted with their block (atp.p4 has no ``exit``); statements after an ``if`` or
``switch`` whose arms ``return``/``exit`` get a counter of their own.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Iterable, Iterator

FORMAT = "p4sim-coverage/1"
# what each kind of point is, for reports
KINDS = {
    "state": "parser state", "transition": "parser transition",
    "statement": "statement", "branch": "if/switch arm", "action": "action",
    "function": "function", "table": "table hit/miss", "entry": "const entry",
    "register_action": "RegisterAction", "emit": "deparser emit",
}


@dataclass(frozen=True)
class Point:
    """One coverable point; its hit count is the sum of the COV slots ``counters`` minus
    those of ``minus``."""
    id: str
    kind: str
    block: str        # the qualified control/parser/action/table name it belongs to
    file: str
    line: int
    text: str         # what it is, e.g. "if (c.owner == 0 ...) { -> true"
    counters: tuple = ()
    minus: tuple = ()  # counters subtracted from the sum (an if's false arm)

    def where(self) -> str:
        return f"{self.file}:{self.line}"


class PointTable:
    """The compiler's side: hands out counters and records points (ids made unique).

    A point's counters may be *references*: an int (a counter), ``"@name"`` (the entry of
    a generated function, resolved by :meth:`finish` to the sum of its call sites'
    counters when every call site is known, else to a counter of its own) or
    ``("-", ref)`` (subtracted: an if's false arm is its statement's count minus its true
    arm's). So an action called from a const entry, a RegisterAction executed in an
    action and the false arm of an if cost no increment of their own."""

    def __init__(self, root: str | None = None):
        self.points: list[Point] = []
        self.ncounters = 0
        self._ids: dict[str, int] = {}
        self._lines: dict[str, list[str]] = {}
        self._root = root
        self._calls: dict[str, list | None] = {}    # "@fn" -> call sites' refs, None: unknown

    def counter(self) -> int:
        self.ncounters += 1
        return self.ncounters - 1

    def function(self, pyname: str) -> str:
        """The reference of a generated function's entry (see :meth:`called`)."""
        ref = f"@{pyname}"
        self._calls.setdefault(ref, [])
        return ref

    def called(self, pyname: str, refs) -> None:
        """A call site of ``pyname``, run exactly as often as the sum of ``refs``; None:
        a call site whose count is not known (then the function counts itself)."""
        ref = f"@{pyname}"
        sites = self._calls.setdefault(ref, [])
        if sites is None or refs is None:
            self._calls[ref] = None
        else:
            sites.append(tuple(refs))

    def finish(self, source: str) -> str:
        """Resolve every point's references to counters; the functions that must count
        themselves get a counter in ``source`` (their ``COV[@fn]`` marker line), the
        others lose the marker."""
        own = {ref: self.counter() for ref, sites in self._calls.items() if sites is None}

        def flat(ref, sign, depth=0):
            if isinstance(ref, int):
                return [(sign, ref)]
            if isinstance(ref, tuple):
                return flat(ref[1], -sign, depth + 1)
            if ref in own:
                return [(sign, own[ref])]
            if depth > 64:
                raise ValueError(f"coverage: recursive calls of {ref}")
            return [x for site in self._calls.get(ref) or () for r in site
                    for x in flat(r, sign, depth + 1)]

        for i, p in enumerate(self.points):
            terms = [x for r in p.counters for x in flat(r, 1)]
            plus = tuple(c for sg, c in terms if sg > 0)
            minus = tuple(c for sg, c in terms if sg < 0)
            self.points[i] = Point(p.id, p.kind, p.block, p.file, p.line, p.text, plus, minus)
        lines = []
        for line in source.split("\n"):
            if "COV[@" in line:
                ref = line[line.index("[") + 1:line.index("]")]
                if ref not in own:
                    continue
                line = line.replace(f"COV[{ref}]", f"COV[{own[ref]}]")
            lines.append(line)
        return "\n".join(lines)

    def add(self, kind: str, block: str, loc, text: str | None,
            counters: Iterable[int]) -> Point:
        """A point at ``loc``; ``text`` None: the source line there."""
        file = self._relative(loc.file)
        if text is None:
            text = self.source_line(loc.file, loc.line) or kind
        base = f"{kind} {block} | {text}"
        n = self._ids.get(base, 0) + 1
        self._ids[base] = n
        pid = base if n == 1 else f"{base} #{n}"
        p = Point(pid, kind, block, file, loc.line, text, tuple(counters))
        self.points.append(p)
        return p

    def source_line(self, file: str, line: int) -> str:
        """The stripped text of ``file:line`` ('' when the file cannot be read)."""
        if file not in self._lines:
            try:
                with open(file, encoding="utf-8") as handle:
                    self._lines[file] = handle.read().splitlines()
            except OSError:
                self._lines[file] = []
        lines = self._lines[file]
        return " ".join(lines[line - 1].split()) if 0 < line <= len(lines) else ""

    def _relative(self, file: str) -> str:
        if self._root and os.path.isabs(file):
            rel = os.path.relpath(file, self._root)
            if not rel.startswith(".."):
                return rel
        return file


class Coverage:
    """Points with their hit counts; merges, views and the JSON form."""

    def __init__(self, points: Iterable[Point], hits: Iterable[int]):
        self.points = list(points)
        self.hits = list(hits)

    @classmethod
    def of(cls, points: list[Point], counts: list[int]) -> "Coverage":
        return cls(points, [sum(counts[c] for c in p.counters) - sum(counts[c] for c in p.minus)
                            for p in points])

    def __iter__(self) -> Iterator[tuple[Point, int]]:
        return iter(zip(self.points, self.hits))

    def hits_of(self, point_id: str) -> int:
        for p, n in self:
            if p.id == point_id:
                return n
        raise KeyError(point_id)

    def uncovered(self, excluded: Iterable[str] = ()) -> list[Point]:
        skip = set(excluded)
        return [p for p, n in self if n == 0 and p.id not in skip]

    def merged(self, other: "Coverage") -> "Coverage":
        """The sum of two runs of the same program (same point ids)."""
        mine = {p.id: i for i, p in enumerate(self.points)}
        if set(mine) != {p.id for p in other.points}:
            raise ValueError("coverage of two different programs cannot be merged")
        hits = list(self.hits)
        for p, n in other:
            hits[mine[p.id]] += n
        return Coverage(self.points, hits)

    def figure(self, excluded: Iterable[str] = ()) -> tuple[int, int]:
        """(covered, coverable) over the points not in ``excluded``."""
        skip = set(excluded)
        pts = [(p, n) for p, n in self if p.id not in skip]
        return sum(1 for _, n in pts if n), len(pts)

    def per_group(self, key) -> dict[str, tuple[int, int]]:
        """{group: (covered, points)} for ``key(point)`` (e.g. file, block)."""
        out: dict[str, list[int]] = {}
        for p, n in self:
            c = out.setdefault(key(p), [0, 0])
            c[0] += bool(n)
            c[1] += 1
        return {k: (v[0], v[1]) for k, v in sorted(out.items())}

    def line_hits(self) -> dict[str, dict[int, tuple[int, int]]]:
        """{file: {line: (hits of the least-hit point on it, points on it)}}: a line is
        covered when all its points are."""
        out: dict[str, dict[int, tuple[int, int]]] = {}
        for p, n in self:
            lines = out.setdefault(p.file, {})
            low, count = lines.get(p.line, (n, 0))
            lines[p.line] = (min(low, n), count + 1)
        return out

    def to_dict(self) -> dict:
        return {"format": FORMAT,
                "points": [{"id": p.id, "kind": p.kind, "block": p.block, "file": p.file,
                            "line": p.line, "text": p.text, "hits": n} for p, n in self]}

    @classmethod
    def from_dict(cls, data: dict) -> "Coverage":
        if data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} document")
        pts = [Point(d["id"], d["kind"], d["block"], d["file"], d["line"], d["text"])
               for d in data["points"]]
        return cls(pts, [d["hits"] for d in data["points"]])

    def write(self, path) -> None:
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(self.to_dict(), handle, indent=1)
            handle.write("\n")

    def lines(self, excluded: Iterable[str] = (), limit: int | None = None) -> list[str]:
        """The figure, then one line per uncovered point (file:line, kind, what)."""
        covered, total = self.figure(excluded)
        pct = 100.0 * covered / total if total else 100.0
        out = [f"{covered}/{total} points covered ({pct:.1f}%)"]
        missing = self.uncovered(excluded)
        for p in missing[:limit]:
            out.append(f"  uncovered {p.where()}: {KINDS.get(p.kind, p.kind)} {p.block}: {p.text}")
        if limit is not None and len(missing) > limit:
            out.append(f"  ... and {len(missing) - limit} more")
        return out
