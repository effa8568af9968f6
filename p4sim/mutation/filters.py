"""The two filters before a mutant is worth a test run.

``refused``: p4sim does not compile it (a syntax, type or width error, or a construct p4sim
refuses) -- not a program a Tofino would run either, so no test can be asked to kill it.
``equivalent``: it compiles to the very program the original compiles to -- the same
generated code and the same tables, const entries, defaults, registers and externs,
both compiled with their const entries and select cases in canonical order (canonical.py)
-- so no input can tell the two apart (a constant rewritten to the same value, a row
another one shadows, two disjoint rows swapped, ...). Both are counted, neither is run.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from .. import compile_file
from ..ast import N
from ..errors import Loc, P4SimError
from .canonical import canonical_tables, canonicalize

_SKIPPED_FIELDS = {"loc", "cov_entries", "coverage_points", "coverage_counts", "code"}


def fingerprint(program) -> str:
    """A digest of everything of a compiled program that decides its behaviour: its
    generated code and its objects (tables with their const entries and defaults,
    registers, counters, value sets, ...), source locations left out."""
    h = hashlib.sha256(program.python_source.encode())
    seen: set[int] = set()

    def feed(x, depth=0):
        if depth > 40:
            return
        if isinstance(x, (str, int, float, bool, type(None), bytes)):
            h.update(repr(x).encode())
        elif isinstance(x, (Loc, N)):
            return                    # where, and the source as written: not behaviour
        elif isinstance(x, dict):
            h.update(b"{")
            for k in sorted(x, key=repr):
                feed(k, depth + 1)
                feed(x[k], depth + 1)
            h.update(b"}")
        elif isinstance(x, (list, tuple, set, frozenset)):
            h.update(b"[")
            items = sorted(x, key=repr) if isinstance(x, (set, frozenset)) else x
            for v in items:
                feed(v, depth + 1)
            h.update(b"]")
        elif hasattr(x, "tolist"):
            feed(x.tolist(), depth + 1)
        elif hasattr(x, "__dict__") or hasattr(x, "__slots__"):
            if id(x) in seen:
                h.update(b"@")
                return
            seen.add(id(x))
            h.update(type(x).__name__.encode())
            fields = dict(getattr(x, "__dict__", {}))
            for slot in getattr(type(x), "__slots__", ()):
                if hasattr(x, slot):
                    fields[slot] = getattr(x, slot)
            for k in sorted(fields):
                if k not in _SKIPPED_FIELDS and not callable(fields[k]):
                    h.update(k.encode())
                    feed(fields[k], depth + 1)
        else:
            h.update(type(x).__name__.encode())

    for name in ("tables", "registers", "counters", "meters", "value_sets", "structs",
                 "layout", "pipeline", "types", "objects"):
        h.update(name.encode())
        feed(getattr(program, name, None))
    return h.hexdigest()


def compile_verdict(path: Path, include_dirs, defines, original: str) -> tuple[str, str]:
    """("refused", the error) / ("equivalent", "") / ("compiles", "") for the program at
    ``path``, against the original's ``fingerprint``."""
    try:
        program = canonical_compile(path, include_dirs, defines)
    except P4SimError as e:
        return "refused", str(e)
    except RecursionError:
        return "refused", "program nested too deeply"
    return ("equivalent", "") if fingerprint(program) == original else ("compiles", "")


def canonical_compile(path, include_dirs, defines):
    """p4sim's program of ``path`` with every table's const entries in canonical order
    (see canonical_tables), so that two programs whose tables look up alike compile
    alike; the fingerprint of the original is taken from this too."""
    includes = [str(d) for d in include_dirs]
    first = compile_file(str(path), include_dirs=includes, defines=defines, coverage=False)
    return compile_file(str(path), include_dirs=includes, defines=defines, coverage=False,
                        transform=canonicalize(canonical_tables(first)))


def program_fingerprint(path, include_dirs=(), defines=None) -> str:
    """The fingerprint of the program at ``path`` (canonical tables): what a mutant's is
    compared with."""
    return fingerprint(canonical_compile(path, include_dirs, defines))
