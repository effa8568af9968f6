"""Names of the host mutation run's mutants, and the reviewed declarations that use them.

A name must outlive edits above its line (line numbers move), so it is the file, the
operator, the column and the mutated line's text (and which of its lines, where the text
recurs): ``tests/mutation/equivalent.yaml`` declares mutants by it.
"""

from __future__ import annotations

import functools
from pathlib import Path

import yaml

EQUIVALENT = Path(__file__).with_name("equivalent.yaml")


@functools.lru_cache(maxsize=32)
def _stripped_lines(path: str, mtime_ns: int, size: int) -> tuple[str, ...]:
    """A module's lines, stripped, read once per version (a report names ~600 mutants
    of six files; the file's time and size key out a copy taken anew)."""
    return tuple(t.strip() for t in Path(path).read_text().splitlines())


def mutant_key(code: Path, mutation) -> str:
    """A mutant's name across code changes: file, operator, the mutated line's text and
    the column (line numbers move when code is added above); where the file has the same
    text on several lines, which of them (`` #2``: the second), so that a declaration
    names one mutant. The text is read from the pristine copy next to ``code`` (an
    interrupted run leaves a mutant in ``code``)."""
    path = Path(mutation.module_path)
    rel = path.relative_to(code).as_posix() if path.is_absolute() else path.as_posix()
    line, column = mutation.start_pos
    pristine = code.parent / "pristine"
    source = (pristine if pristine.is_dir() else code) / rel
    stat = source.stat()
    lines = _stripped_lines(str(source), stat.st_mtime_ns, stat.st_size)
    text = lines[line - 1]
    alike = "" if lines.count(text) == 1 else f" #{lines[:line].count(text)}"
    return f"{rel}: {mutation.operator_name.split('/')[-1]} @{column} `{text}`{alike}"


def declared() -> dict[str, str]:
    """The reviewed equivalent mutants: key -> reason."""
    entries = yaml.safe_load(EQUIVALENT.read_text()) or []
    return {e["mutant"]: e["reason"] for e in entries}
