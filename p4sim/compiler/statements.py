"""Statements and assignment (stores into slots, slices, composites)."""
from ..errors import UnsupportedError
from ..types import Bits, BoolT, EnumT, ErrorT, HeaderT, StackT, VoidT, same_type
from .base import Scope, Val, addb, expr_text, plv_code, serr, tdesc


def may_leave(node):
    """Whether a statement contains a ``return`` or ``exit`` (its successors may not run)."""
    if getattr(node, "k", None) in ("return", "exit"):
        return True
    for child in (getattr(node, a, None) for a in ("then", "els", "stmts", "cases", "body")):
        if isinstance(child, list):
            if any(may_leave(x) for x in child):
                return True
        elif child is not None and hasattr(child, "k") and may_leave(child):
            return True
    return False


class StatementsMixin:
    """Statements and assignment (stores into slots, slices, composites)."""

    def block(self, b, sc, fc, em):
        start = len(em.lines)
        inner = Scope(sc)
        for s in b.stmts:
            self.stmt(s, inner, fc, em)
        if len(em.lines) == start:
            em.line("pass")

    def stmt(self, s, sc, fc, em):
        self.cur_loc = s.loc
        k = s.k
        if fc.cov is not None and k not in ("block", "empty"):
            self.cov_point("statement", fc.qual, s.loc, counters=fc.cov)
        if k == "block":
            self.block(s, sc, fc, em)
        elif k == "empty":
            pass
        elif k == "assign":
            lv = self.expr(s.lhs, sc, fc, em)
            if lv.lv is None and lv.extra is None:
                raise serr(s.loc, f"cannot assign to '{expr_text(s.lhs)}'")
            if lv.extra is not None and lv.extra[0] != "lstruct":
                raise serr(s.loc, f"cannot assign to '{expr_text(s.lhs)}'")
            self.assign_to(lv, s.rhs, sc, fc, em, s.loc, expr_text(s.lhs))
        elif k == "callstmt":
            v = self.call(s.call, sc, fc, em, stmt=True)
            if v is not None and v.code is not None:
                em.line(v.code)
        elif k == "if":
            c = self.expr(s.cond, sc, fc, em)
            if not isinstance(c.t, BoolT):
                raise serr(s.cond.loc, f"if condition must be bool, not {tdesc(c.t) if c.t else '?'}")
            em.line(f"if {c.code}:")
            em.indent()
            true = self.arm(s.then, s.loc, "true", None, sc, fc, em)
            em.dedent()
            # the false arm, written or not: the if's count minus the true arm's
            false = fc.cov + (("-", true[0]),) if true else None
            if s.els is not None:
                em.line("else:")
                em.indent()
                self.arm(s.els, s.loc, "false", false, sc, fc, em)
                em.dedent()
            elif false:
                self.cov_point("branch", fc.qual, s.loc, self.arm_text(s.loc, "false"), false)
            if may_leave(s):
                self.cov_segment(fc, em)
        elif k == "switch":
            self.switch(s, sc, fc, em)
            if may_leave(s):
                self.cov_segment(fc, em)
        elif k == "var":
            t = self.resolve_type(s.type)
            self.declare_var(s, t, sc, fc, em, static=False)
        elif k == "return":
            if fc.kind in ("control", "deparser"):
                if s.value is not None:
                    raise serr(s.loc, "return with a value in a control")
                em.line("return")
            elif fc.kind in ("action", "function"):
                code = None
                if s.value is not None:
                    if isinstance(fc.ret, VoidT):
                        raise serr(s.loc, "return with a value in a void function/action")
                    code = self.convert(self.expr(s.value, sc, fc, em), fc.ret, s.loc, "return value").code
                elif fc.ret is not None and not isinstance(fc.ret, VoidT):
                    raise serr(s.loc, "return without a value")
                em.line(self.return_stmt(fc, code))
            else:
                raise UnsupportedError(s.loc, f"unsupported 'return' in {fc.kind}")
        elif k == "exit":
            if fc.kind in ("parser", "ra", "deparser"):
                raise UnsupportedError(s.loc, f"unsupported 'exit' in {fc.kind}")
            em.line("raise ExitBlock()")
        else:
            raise UnsupportedError(s.loc, f"unsupported statement '{k}'")

    def arm(self, s, loc, which, counters, sc, fc, em):
        """An if arm, a branch point: ``counters`` None: a counter of its own (emitted
        here), else the references it is counted by. Returns the point's counters."""
        outer = fc.cov
        counters = self.cov_point("branch", fc.qual, loc, self.arm_text(loc, which), counters) \
            if outer is not None else ()
        if counters and isinstance(counters[0], int) and len(counters) == 1:
            self.cov_count(em, counters)
        fc.cov = counters or outer
        self.stmt_block(s, sc, fc, em)
        fc.cov = outer
        return counters

    def arm_text(self, loc, which):
        return f"{self.cov.source_line(loc.file, loc.line) or 'if'} -> {which}"

    def stmt_block(self, s, sc, fc, em):
        start = len(em.lines)
        self.stmt(s, Scope(sc), fc, em)
        if len(em.lines) == start:
            em.line("pass")

    def switch(self, s, sc, fc, em):
        e = s.expr
        ev = self.expr(e, sc, fc, em)
        tmp = self.uid("sw")
        if ev.extra and ev.extra[0] == "action_run":
            tinfo = ev.extra[1]
            em.line(f"{tmp} = {ev.code}")
            acts = tinfo["spec"].actions

            def label_val(lab):
                text = expr_text(lab)
                for i, a in enumerate(acts):
                    if text in (a.short, a.name):
                        return i
                raise serr(lab.loc, f"switch label '{text}' is not an action of table "
                                    f"'{tinfo['qual']}'")
        else:
            st = self.scalar_t(ev.t)
            if not isinstance(st, (Bits, EnumT, ErrorT)):
                raise serr(e.loc, "switch expression must be table.apply().action_run or a bit<W>/enum")
            em.line(f"{tmp} = {ev.code}")

            def label_val(lab):
                return self.const_of(lab, sc, fc, st, "switch label")
        pending = []
        first = True
        seen_default = False
        for c in s.cases:
            if c.label is None:
                seen_default = True
                pending.append(None)
            else:
                pending.append(label_val(c.label))
            if c.body is None:
                continue
            if None in pending:
                if first:
                    em.line("if True:")
                else:
                    em.line("else:")
            else:
                vals = ", ".join(str(v) for v in pending)
                em.line(("if " if first else "elif ") + f"{tmp} in ({vals},):")
            first = False
            em.indent()
            outer = fc.cov
            if outer is not None:
                label = "default" if c.label is None else expr_text(c.label)
                counters = self.cov_point("branch", fc.qual, c.loc,
                                          self.arm_text(s.loc, f"case {label}"))
                self.cov_count(em, counters)
                fc.cov = counters or outer
            self.block(c.body, sc, fc, em)
            fc.cov = outer
            em.dedent()
            pending = []
            if seen_default:
                break
        if pending:
            raise serr(s.loc, "switch case without a body at the end")

    def store(self, lv, code, em):
        kind = lv.lv[0]
        if kind == "S":
            em.line(f"S[{lv.lv[1]}] = {code}")
            if lv.lv[2] in self.written_flags:
                em.line(f"S[{self.written_flags[lv.lv[2]]}] = 1")
        elif kind == "L":
            em.line(f"{lv.lv[1]} = {code}")
        elif kind == "slice":
            _, plv, hi, lo, pt = lv.lv
            w = hi - lo + 1
            m = ((1 << w) - 1) << lo
            full = (1 << pt.width) - 1
            tmp = self.uid("s")
            em.line(f"{tmp} = {code}")
            pcode = plv_code(plv)
            newv = f"(({pcode} & {full ^ m}) | (({tmp} << {lo}) & {m}))"
            if pt.signed:
                h = 1 << (pt.width - 1)
                newv = f"((({newv}) + {h}) & {full}) - {h}"
            self.store(Val(lv=plv), newv, em)
        else:
            raise serr(self.cur_loc, "internal: bad lvalue")

    def assign_to(self, lv, rhs, sc, fc, em, loc, target=None):
        t = lv.t
        if lv.extra and lv.extra[0] == "lstruct":
            if rhs.k != "list":
                rv = self.expr(rhs, sc, fc, em)
                if rv.extra and rv.extra[0] == "lstruct":
                    for fname, fv in lv.extra[1].items():
                        self.store(fv, rv.extra[1][fname].code, em)
                    return
                raise UnsupportedError(loc, "unsupported assignment to a register value struct")
            items = self.list_items(rhs, t, loc)
            for (fname, ft), item in zip(t.fields, items):
                fv = lv.extra[1][fname]
                self.store(fv, self.convert(self.expr(item, sc, fc, em), ft, item.loc, fname).code, em)
            return
        if t is not None and t.composite:
            if rhs.k == "list":
                if isinstance(t, StackT):
                    raise UnsupportedError(loc, "unsupported list assignment to a header stack")
                items = self.list_items(rhs, t, loc)
                if isinstance(t, HeaderT):
                    em.line(f"S[{lv.base}] = 1")
                for (fname, ft), item in zip(t.fields, items):
                    fv = self.field_val(lv.base, t.offsets[fname], ft)
                    if ft.composite:
                        self.assign_to(fv, item, sc, fc, em, item.loc)
                    else:
                        rv = self.expr(item, sc, fc, em)
                        self.store(fv, self.convert(rv, ft, item.loc, fname).code, em)
                return
            if rhs.k == "call" and rhs.fn.k == "name" and rhs.fn.name == "port_metadata_unpack":
                self.port_metadata_unpack(lv, rhs, sc, fc, em)
                return
            rv = self.expr(rhs, sc, fc, em)
            if rv.t is None or not (same_type(rv.t, t) or getattr(rv.t, "name", None) == getattr(t, "name", 0)):
                raise serr(loc, f"cannot assign {tdesc(rv.t) if rv.t else '?'} to {tdesc(t)}")
            em.line(f"S[{lv.base}:{addb(lv.base, t.nslots)}] = S[{rv.base}:{addb(rv.base, t.nslots)}]")
            return
        rv = self.expr(rhs, sc, fc, em, want=t)
        self.store(lv, self.convert(rv, t, loc, f"assignment to '{target or 'variable'}'").code, em)

    def list_items(self, rhs, t, loc):
        if rhs.named:
            byname = {it.name: it.value for it in rhs.items}
            items = []
            for fname, _ in t.fields:
                if fname not in byname:
                    raise serr(loc, f"initialiser for {tdesc(t)} lacks field '{fname}'")
                items.append(byname.pop(fname))
            if byname:
                raise serr(loc, f"{tdesc(t)} has no field(s) {sorted(byname)}")
            return items
        if len(rhs.items) != len(t.fields):
            raise serr(loc, f"{tdesc(t)} has {len(t.fields)} fields, initialiser has {len(rhs.items)}")
        return rhs.items
