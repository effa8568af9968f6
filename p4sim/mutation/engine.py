"""generate(): every mutant of a P4 program, from its parsed source.

The program is preprocessed and parsed exactly as p4sim compiles it (so a mutant exists
only in code a build really compiles: the ``#if`` branch of another build is not
mutated), the operators propose edits on the parsed nodes, and each edit becomes a change
of the source text through the source map. Two proposals that land on the same text (a
``#define`` body expanded 31 times) are one mutant.
"""
from __future__ import annotations

import os
from pathlib import Path

from ..preprocess import preprocess
from .mutant import Mutant, SourceEdit
from .operators import Operators
from .source_map import SourceMap
from .spans import parse_with_spans


class Unmappable(Exception):
    """An edit whose tokens have no single place in the source."""


def generate(path: str, include_dirs=(), defines=None) -> list[Mutant]:
    """Every mutant of the program ``path`` under ``defines`` (ids stable across runs)."""
    path = str(path)
    text = Path(path).read_text(encoding="utf-8")
    pre = preprocess(text, path, include_dirs, defines)
    decls, tokens = parse_with_spans(pre, path)
    roots = [os.path.dirname(os.path.abspath(path))] + [str(d) for d in include_dirs]
    smap = SourceMap(pre, tokens, roots)
    proposals = Operators(decls, tokens, smap.text_of).all()
    relative = relative_names(smap, roots)
    seen: set = set()
    counts: dict[tuple, int] = {}
    mutants = []
    for p in proposals:
        try:
            edits = tuple(_source_edit(smap, e) for e in p.edits)
        except Unmappable:
            continue
        key = (p.operator, tuple(sorted((e.path, e.start, e.end, e.text) for e in edits)))
        if key in seen or any(smap.files[e.path].text[e.start:e.end] == e.text for e in edits
                              if len(edits) == 1):
            continue
        seen.add(key)
        place = smap.places[p.anchor]
        src = smap.files[place.path]
        line, col = place.line_col(src.text)
        name = relative[place.path]
        n = counts[(p.operator, name, line, col)] = counts.get((p.operator, name, line, col), -1) + 1
        mutants.append(Mutant(f"{p.operator}@{name}:{line}:{col}#{n}", p.operator, name, line,
                              col, p.description, edits))
    return mutants


def relative_names(smap: SourceMap, roots) -> dict[str, str]:
    """Each mutable source file's name relative to the first root that holds it."""
    out = {}
    for path, src in smap.files.items():
        if src is None:
            continue
        resolved = Path(path).resolve()
        for root in roots:
            try:
                out[path] = str(resolved.relative_to(Path(root).resolve()))
                break
            except ValueError:
                continue
    return out


def _place_range(smap: SourceMap, first: int, last: int):
    """The source text of tokens first..last: where they are written, or, when their
    ends come from different places (a range that starts or ends inside a macro use),
    the text of the uses around them."""
    for places in (smap.places, smap.use_sites):
        a, b = places.get(first), places.get(last)
        if a is not None and b is not None and a.path == b.path and \
                a.origin == b.origin and a.start <= b.end:
            return a.path, a.start, b.end
    raise Unmappable()


def _source_edit(smap: SourceMap, edit) -> SourceEdit:
    if edit.first > edit.last:
        raise Unmappable()
    path, start, end = _place_range(smap, edit.first, edit.last)
    text = smap.files[path].text
    new = edit.template.replace("\0", text[start:end])
    if edit.copy is not None:
        cpath, cstart, cend = _place_range(smap, *edit.copy)
        new = new.replace("\1", smap.files[cpath].text[cstart:cend])
    return SourceEdit(path, start, end, new)
