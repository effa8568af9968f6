"""The mutation operators: each walks the parsed program (nodes with token spans) and
proposes single-point defects as edits of token ranges.

An edit replaces tokens ``first..last`` by ``template``, in which ``\\0`` stands for
their own source text and ``\\1`` for the text of ``copy`` (another token range), so a
negation or a swap keeps the program's own spelling. Which operators exist, and what a
realistic bug of each kind is, is decided here; where the text lives (a file or a
``#define``) is source_map's business.
"""
from __future__ import annotations

from typing import Iterator

from ..ast import N
from .edits import Edit, Proposal
from .expression_operators import ExpressionOperators
from .spans import children, statement_end

OPERATORS = ("relational", "arithmetic", "unary", "constant", "negate_if", "negate_cond",
             "negate_ra_if", "switch_arm", "ra_return_swap", "ra_return_order", "del_stmt",
             "del_apply", "del_emit", "del_hash_input", "del_entry", "swap_entries",
             "entry_action", "del_default", "default_action", "swap_select")


class Operators(ExpressionOperators):
    """Proposals for one program: ``Operators(decls, tokens, text_of).all()``."""

    def __init__(self, decls, tokens, text_of):
        self.decls = decls
        self.tokens = tokens
        self.text_of = text_of            # token index -> its source spelling
        self.index_of = {}
        for i, t in enumerate(tokens):
            self.index_of.setdefault((t.loc.file, t.loc.line, t.loc.col), i)
        self.hashes = set()
        self.actions: dict[str, N] = {}
        for n in _walk(decls):
            if n.k == "instance" and n.type.k == "tname" and n.type.name == "Hash":
                self.hashes.add(n.name)
            if n.k == "action":
                self.actions.setdefault(n.name, n)
        self.out: list[Proposal] = []

    def idx(self, node) -> int:
        return self.index_of[(node.loc.file, node.loc.line, node.loc.col)]

    def words(self, first: int, last: int) -> str:
        return " ".join(self.text_of(i) for i in range(first, last + 1))

    def add(self, op, anchor, desc, *edits):
        self.out.append(Proposal(op, anchor, desc, list(edits)))

    def all(self) -> list[Proposal]:
        for d in self.decls:
            self.declaration(d)
        return self.out

    # -- declarations -------------------------------------------------------------------

    def declaration(self, d) -> None:
        if d.k in ("parser", "control"):
            for local in d.locals:
                self.declaration(local)
            for state in d.get("states") or []:
                self.parser_state(state)
            if d.body is not None:
                self.block(d.body)
        elif d.k in ("action", "function"):
            self.block(d.body)
        elif d.k == "table":
            self.table(d)
        elif d.k == "const":
            self.expression(d.value)
        elif d.k == "var" and d.init is not None:
            self.expression(d.init)
        elif d.k == "instance" and d.init:
            is_ra = d.type.k == "tname" and d.type.name in ("RegisterAction", "DirectRegisterAction")
            for method in d.init:
                if is_ra:
                    self.register_action(d, method)
                else:
                    self.block(method.body)

    def register_action(self, inst, method) -> None:
        outs = [p.name for p in method.params if p.dir == "out"]
        self.block(method.body, ra=inst.name)
        if not outs:
            return
        rv = outs[0]
        returns = [s for s in _walk([method.body]) if s.k == "assign" and
                   s.lhs.k == "name" and s.lhs.name == rv]
        texts = [self.words(*s.rhs.span) for s in returns]
        for a in range(len(returns)):
            for b in range(a + 1, len(returns)):
                if texts[a] != texts[b]:
                    ra_, rb = returns[a].rhs, returns[b].rhs
                    self.add("ra_return_swap", ra_.span[0],
                             f"RegisterAction {inst.name} returns {texts[b]} where it "
                             f"returned {texts[a]}, and the other way round",
                             Edit(*ra_.span, "\1", copy=rb.span),
                             Edit(*rb.span, "\1", copy=ra_.span))
                    break
        for blk in [n for n in _walk([method.body]) if n.k == "block"]:
            stmts = blk.stmts
            if len(stmts) < 2:
                continue
            for pos, s in ((0, stmts[0]), (len(stmts) - 1, stmts[-1])):
                if s in returns:
                    other = stmts[-1] if pos == 0 else stmts[0]
                    where = "after" if pos == 0 else "before"
                    tmpl = "\0 \1" if pos == 0 else "\1 \0"
                    self.add("ra_return_order", s.span[0],
                             f"RegisterAction {inst.name} sets {rv} {where} updating the "
                             f"register (returns the {'new' if pos == 0 else 'old'} value)",
                             Edit(*s.span, ""), Edit(*other.span, tmpl, copy=s.span))

    def table(self, t) -> None:
        props = t.props
        names = {a.expr.name: a.expr.span for a in props["actions"].value
                 if a.expr.k == "name"} if "actions" in props else {}
        if "entries" in props:
            entries = props["entries"].value
            spans = [(self.idx(e), statement_end(self.tokens, self.idx(e))) for e in entries]
            for n, (e, span) in enumerate(zip(entries, spans)):
                for ks in e.keys:
                    self.keyset(ks)
                self.add("del_entry", span[0], f"table {t.name}: const entry "
                         f"'{self.words(*span)}' deleted", Edit(*span, ""))
                if n + 1 < len(entries):
                    nxt = spans[n + 1]
                    self.add("swap_entries", span[0], f"table {t.name}: const entries "
                             f"{n} and {n + 1} in the other order",
                             Edit(*span, "\1", copy=nxt), Edit(*nxt, "\1", copy=span))
                self.action_choices("entry_action", t, e.action, names,
                                    f"table {t.name}: const entry {n} runs")
                self.expression(e.action)           # its action data (masks, ports)
        if "default_action" in props:
            prop = props["default_action"]
            first = self.idx(prop)
            last = statement_end(self.tokens, first)
            self.add("del_default", first, f"table {t.name}: default_action "
                     f"'{self.words(prop.value.span[0], prop.value.span[1])}' deleted "
                     f"(NoAction)", Edit(first, last, ""))
            self.action_choices("default_action", t, prop.value, names,
                                f"table {t.name}: default action")
            self.expression(prop.value)

    def action_choices(self, op, t, call, names, what) -> None:
        if call.k != "call" or call.fn.k != "name":
            return
        current = call.fn.name
        nargs = len(call.args)
        for name, span in names.items():
            if name == current:
                continue
            decl = self.actions.get(name)
            params = len(decl.params) if decl is not None else 0
            if params != nargs:
                continue
            args = "" if nargs == 0 else self.words(call.args[0].value.span[0],
                                                     call.args[-1].value.span[1])
            self.add(op, call.span[0], f"{what} {name}({args}) instead of {current}",
                     Edit(call.fn.span[0], call.fn.span[1], "\1", copy=span))

    def parser_state(self, state) -> None:
        self.statements(state.stmts)
        trans = state.trans
        if trans is None or trans.k != "select":
            return
        spans = [(self.idx(c), statement_end(self.tokens, self.idx(c))) for c in trans.cases]
        for n, case in enumerate(trans.cases):
            for ks in case.keys:
                self.keyset(ks)
            if n + 1 < len(trans.cases):
                a, b = spans[n], spans[n + 1]
                self.add("swap_select", a[0], f"parser state {state.name}: select cases "
                         f"'{self.words(*a)}' and '{self.words(*b)}' swapped",
                         Edit(*a, "\1", copy=b), Edit(*b, "\1", copy=a))

    def keyset(self, ks) -> None:
        for n in children(ks):
            self.expression(n)

    # -- statements ---------------------------------------------------------------------

    def block(self, blk, ra=None) -> None:
        if blk is not None:
            self.statements(blk.stmts, ra)

    def statements(self, stmts, ra=None) -> None:
        for s in stmts:
            self.statement(s, ra)

    def statement(self, s, ra) -> None:
        k = s.k
        if k == "block":
            self.statements(s.stmts, ra)
        elif k == "if":
            op = "negate_ra_if" if ra else "negate_if"
            where = f" in RegisterAction {ra}" if ra else ""
            self.add(op, s.cond.span[0], f"if ({self.words(*s.cond.span)}){where} negated",
                     Edit(*s.cond.span, "!(\0)"))
            self.expression(s.cond)
            self.statement(s.then, ra)
            if s.els is not None:
                self.statement(s.els, ra)
        elif k == "switch":
            self.switch(s, ra)
        elif k == "assign":
            self.deletion(s, "del_stmt", f"'{self.words(*s.span)}' deleted")
            if s.lhs.k in ("slice", "index"):
                pass
            self.expression(s.rhs)
        elif k == "callstmt":
            fn = s.call.fn
            if fn.k == "member" and fn.name == "apply":
                self.deletion(s, "del_apply", f"table apply '{self.words(*s.span)}' deleted")
            elif fn.k == "member" and fn.name == "emit":
                self.deletion(s, "del_emit", f"emit '{self.words(*s.span)}' deleted")
            else:
                self.deletion(s, "del_stmt", f"'{self.words(*s.span)}' deleted")
            for arg in s.call.args:
                self.expression(arg.value)
        elif k in ("exit", "return"):
            self.deletion(s, "del_stmt", f"'{self.words(*s.span)}' deleted")
            if k == "return" and s.value is not None:
                self.expression(s.value)
        elif k == "var" and s.init is not None:
            self.expression(s.init)

    def deletion(self, s, op, desc) -> None:
        self.add(op, s.span[0], desc, Edit(*s.span, ""))

    def switch(self, s, ra) -> None:
        labelled = [c for c in s.cases if c.label is not None]
        for a, b in zip(labelled, labelled[1:]):
            la, lb = a.label.span, b.label.span
            self.add("switch_arm", la[0], f"switch arms {self.words(*la)} and "
                     f"{self.words(*lb)} swapped", Edit(*la, "\1", copy=lb),
                     Edit(*lb, "\1", copy=la))
        for c in s.cases:
            if c.body is not None:
                self.block(c.body, ra)

def _walk(nodes) -> Iterator[N]:
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if isinstance(n, N):
            yield n
            stack.extend(children(n))
