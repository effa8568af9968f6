"""A mutant: one single-point change of the program's source, with a stable id.

The id is ``operator@file:line:col#n``: the operator, where in the source the change is
(the file relative to the program's directory or include directory), and its ordinal
among that operator's mutants at that place, so the same program yields the same ids on
every run and a declared equivalent or a recorded survivor keeps its name.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class SourceEdit:
    path: str                 # the file as the program names it
    start: int
    end: int
    text: str


@dataclass
class Mutant:
    id: str
    operator: str
    file: str                 # relative name (see module docstring)
    line: int
    col: int
    description: str
    edits: tuple[SourceEdit, ...] = field(default_factory=tuple)

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def files(self) -> list[str]:
        return sorted({e.path for e in self.edits})

    def mutated_text(self, path: str) -> str:
        text = Path(path).read_text(encoding="utf-8")
        for e in sorted((e for e in self.edits if e.path == path), key=lambda e: -e.start):
            text = text[:e.start] + e.text + text[e.end:]
        return text

    def diff(self, relative: dict[str, str] | None = None) -> str:
        """Unified diff of the change (file names as ``relative`` maps them)."""
        out = []
        for path in self.files():
            name = (relative or {}).get(path, path)
            before = Path(path).read_text(encoding="utf-8").splitlines(keepends=True)
            after = self.mutated_text(path).splitlines(keepends=True)
            out.extend(difflib.unified_diff(before, after, f"a/{name}", f"b/{name}", n=2))
        return "".join(out)

    def write(self, dest_of) -> None:
        """Write each changed file, mutated, to ``dest_of(path)`` (e.g. in a copy of the
        program's directory)."""
        for path in self.files():
            Path(dest_of(path)).write_text(self.mutated_text(path), encoding="utf-8")

    def to_json(self) -> dict:
        return {"id": self.id, "operator": self.operator, "location": self.location,
                "description": self.description}
