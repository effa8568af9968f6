"""Canonical forms of what a program may write in any order: const entries and parser
select cases. Two programs whose tables and parsers look up alike compile alike after
this (filters.canonical_compile), so a swap of rows that cannot match the same key, a
row an earlier one covers, or a default no key reaches is no mutant.
"""
from __future__ import annotations

from ..ast import N


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
                                 lambda i: repr((entries[i][0][1], entries[i][1:3])),
                                 lambda i: entries[i][1:3])
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
                                     lambda i: repr((sets[i], trans.cases[i].state)),
                                     lambda i: trans.cases[i].state)
            trans.cases = [trans.cases[i] for i in order]


def canonicalize(canon):
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


def _canonical_order(items, sets, key, outcome):
    """The entries in an order that keeps every overlapping pair with different outcomes
    (``outcome(i)``: the action and its data, the next state) as written -- which one
    wins there -- and sorts the rest: the same list for every equivalent order (where two
    entries match the same key, the first match is one of the same outcome either way)."""
    pending = list(items)
    out = []
    while pending:
        ready = [i for n, i in enumerate(pending)
                 if not any(_overlap(sets[j], sets[i]) and outcome(j) != outcome(i)
                            for j in pending[:n])]
        first = min(ready, key=key)
        out.append(first)
        pending.remove(first)
    return out
