"""A proposed mutant before it is placed in the source: edits of token ranges."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Edit:
    first: int
    last: int
    template: str = ""                    # \0: the range's own text, \1: copy's text
    copy: tuple[int, int] | None = None


@dataclass
class Proposal:
    operator: str
    anchor: int                           # token index the mutant is located at
    description: str
    edits: list[Edit] = field(default_factory=list)
