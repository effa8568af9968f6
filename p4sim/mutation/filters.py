"""The two filters before a mutant is worth a test run.

``refused``: p4sim does not compile it (a syntax, type or width error, or a construct p4sim
refuses) -- not a program a Tofino would run either, so no test can be asked to kill it.
``equivalent``: it compiles to the very program the original compiles to -- the same
generated code and the same tables, const entries, defaults, registers and externs -- so
no input can tell the two apart (a constant rewritten to the same value, a deleted entry
that a later identical one shadows, ...). Both are counted, neither is run.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from .. import compile_file
from ..ast import N
from ..errors import Loc, P4SimError

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


def canonical_tables(program) -> dict[tuple, tuple[list[int], bool]]:
    """Per table with const entries (by its file:line:col): the entries' canonical order
    -- an entry that an earlier one covers entirely never matches (dropped), entries
    that cannot match the same key are in no order (sorted) -- and whether an entry
    matches every key (then the default never runs)."""
    out = {}
    for spec in program.tables.values():
        entries = spec.const_entries
        if not entries:
            continue
        sets = [_match_set(e[0][1], spec.keys) for e in entries]
        if any(s is None for s in sets):              # a range key: kept as written
            continue
        live = [i for i in range(len(entries))
                if not any(_covers(sets[j], sets[i]) for j in range(i))]
        order = _canonical_order(live, sets,
                                 lambda i: repr((entries[i][0][1], entries[i][1:3])))
        catch_all = next((i for i in live if all(m == 0 for _, m in sets[i])), None)
        out[(spec.loc.file, spec.loc.line, spec.loc.col)] = (order, catch_all)
    return out


_ANY = (1 << 128) - 1      # an exact select value: every bit compared (widths unknown here)


def _select_sets(case, consts):
    """[(value, mask)] of a select case, or None when a keyset is not a plain value,
    named constant, mask or default."""
    out = []
    for ks in case.keys:
        if ks.k == "ks_default":
            out.append((0, 0))
            continue
        if ks.k not in ("ks_expr", "ks_mask"):
            return None
        value = _const_value(ks.value, consts)
        mask = _ANY if ks.k == "ks_expr" else _const_value(ks.mask, consts)
        if value is None or mask is None:
            return None
        out.append((value & mask, mask))
    return out


def _const_value(e, consts):
    if e.k == "int":
        return e.value
    if e.k == "name":
        return consts.get(e.name)
    return None


def _canonical_selects(decls) -> None:
    """Parser select cases in canonical order, a case an earlier one covers dropped: the
    same parser for every order of cases that cannot match the same key."""
    consts = {d.name: d.value.value for d in decls
              if d.k == "const" and d.value is not None and d.value.k == "int"}
    for d in decls:
        for state in (d.get("states") or []) if d.k == "parser" else []:
            trans = state.trans
            if trans is None or trans.k != "select":
                continue
            sets = [_select_sets(c, consts) for c in trans.cases]
            if any(x is None for x in sets):
                continue
            live = [i for i in range(len(sets))
                    if not any(_covers(sets[j], sets[i]) for j in range(i))]
            order = _canonical_order(live, sets,
                                     lambda i: repr((sets[i], trans.cases[i].state)))
            trans.cases = [trans.cases[i] for i in order]


def _canonicalize(canon):
    """A transform for compile_file: const entries in canonical order; an unreachable
    default replaced by the action of the entry that matches every key; parser select
    cases in canonical order."""
    def transform(decls):
        _canonical_selects(decls)
        stack = list(decls)
        while stack:
            n = stack.pop()
            if not isinstance(n, N):
                continue
            if n.k == "table" and "entries" in n.props:
                where = (n.loc.file, n.loc.line, n.loc.col)
                if where in canon:
                    order, catch_all = canon[where]
                    entries = n.props["entries"].value
                    n.props["entries"].value = [entries[i] for i in order]
                    if catch_all is not None:
                        old = n.props.get("default_action")
                        n.props["default_action"] = N(
                            "prop", old.loc if old is not None else n.loc,
                            value=entries[catch_all].action,
                            const=old.const if old is not None else False)
                continue
            for v in vars(n).values():
                if isinstance(v, N):
                    stack.append(v)
                elif isinstance(v, list):
                    stack.extend(v)
    return transform


def _match_set(norm, keys):
    """[(value, mask)] per key field, or None for a range field."""
    out = []
    for (kind, v, m), key in zip(norm, keys):
        full = (1 << key.width) - 1
        if kind == 0:
            out.append((v & full, full))
        elif kind == 1:
            out.append((v & m, m))
        else:
            return None
    return out


def _covers(a, b) -> bool:
    """Every key b matches, a matches."""
    return all(ma & mb == ma and vb & ma == va for (va, ma), (vb, mb) in zip(a, b))


def _overlap(a, b) -> bool:
    return all((va ^ vb) & ma & mb == 0 for (va, ma), (vb, mb) in zip(a, b))


def _canonical_order(items, sets, key):
    """The entries in an order that keeps every overlapping pair as written (which one
    wins there) and sorts the rest: the same list for every equivalent order."""
    pending = list(items)
    out = []
    while pending:
        ready = [i for n, i in enumerate(pending)
                 if not any(_overlap(sets[j], sets[i]) for j in pending[:n])]
        first = min(ready, key=key)
        out.append(first)
        pending.remove(first)
    return out


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
                        transform=_canonicalize(canonical_tables(first)))


def program_fingerprint(path, include_dirs=(), defines=None) -> str:
    """The fingerprint of the program at ``path`` (canonical tables): what a mutant's is
    compared with."""
    return fingerprint(canonical_compile(path, include_dirs, defines))
