"""Expressions: names, members, stack indexes, slices, constants."""
from ..errors import UnsupportedError
from ..types import (Bits, BoolT, EnumT, ErrorT, ExternT, HeaderT, IntT, MatchKindT, StackT,
                     StringT, StructT, wrap_value)
from .base import Val, addb, cval, expr_text, serr, tdesc


class ExpressionsMixin:
    """Expressions: names, members, stack indexes, slices, constants."""

    def field_val(self, base, off, ft):
        b = addb(base, off)
        if ft.composite:
            return Val(t=ft, base=b, lv=("C", b))
        if isinstance(b, int):
            return Val(code=f"S[{b}]", t=ft, lv=("S", str(b), b))
        return Val(code=f"S[{b}]", t=ft, lv=("S", b, None))

    def expr(self, e, sc, fc, em, want=None):
        k = e.k
        if k == "int":
            if e.width:
                t = Bits(e.width, e.signed)
                return cval(wrap_value(e.value, t), t)
            return cval(e.value, IntT())
        if k == "bool":
            return cval(e.value, BoolT())
        if k == "string":
            return Val(t=StringT(), const=e.value, extra=("string",))
        if k == "name":
            v = sc.lookup(e.name) if sc is not None else None
            if v is None:
                v = self.glob.lookup(e.name)
            if v is None:
                t = self.types.get(e.name)
                if t is not None:
                    return Val(extra=("type", t))
                if e.name in self.match_kinds:
                    return Val(t=MatchKindT(), extra=("match_kind", e.name))
                raise serr(e.loc, f"undeclared name '{e.name}'")
            return v
        if k == "member":
            return self.member(e, sc, fc, em)
        if k == "index":
            return self.index(e, sc, fc, em)
        if k == "slice":
            return self.slice(e, sc, fc, em)
        if k == "binop":
            return self.binop(e, sc, fc, em)
        if k == "unop":
            return self.unop(e, sc, fc, em)
        if k == "cast":
            t = self.resolve_type(e.type)
            return self.cast(self.expr(e.expr, sc, fc, em), t, e.loc)
        if k == "cond":
            c = self.expr(e.cond, sc, fc, em)
            if not isinstance(c.t, BoolT):
                raise serr(e.loc, "condition of ?: must be bool")
            self.cov_cond += 1
            try:
                a = self.expr(e.then, sc, fc, em)
                b = self.expr(e.els, sc, fc, em)
            finally:
                self.cov_cond -= 1
            a, b, t = self.unify(a, b, e.loc, "?:")
            if not a.t.scalar:
                raise UnsupportedError(e.loc, "unsupported ?: on non-scalar values")
            if c.const is not None:
                return a if c.const else b
            return Val(code=f"({a.code} if {c.code} else {b.code})", t=t)
        if k == "call":
            v = self.call(e, sc, fc, em, stmt=False)
            if v is None:
                raise serr(e.loc, "call has no value")
            return v
        if k == "list":
            raise UnsupportedError(e.loc, "unsupported use of a list expression here")
        if k == "dontcare":
            raise UnsupportedError(e.loc, "unsupported use of '_' here")
        raise UnsupportedError(e.loc, f"unsupported expression '{k}'")

    def member(self, e, sc, fc, em):
        name = e.name
        if e.expr.k == "name" and e.expr.name == "error":
            if name not in self.error_members:
                raise serr(e.loc, f"no error '{name}' declared")
            return cval(self.error_members.index(name), self.error_t)
        bv = self.expr(e.expr, sc, fc, em)
        ex = bv.extra
        if ex is not None:
            if ex[0] == "type":
                t = ex[1]
                if isinstance(t, EnumT):
                    if name not in t.members:
                        raise serr(e.loc, f"enum '{t.name}' has no member '{name}'")
                    return cval(t.members[name], t)
                if isinstance(t, ErrorT):
                    pass
                raise serr(e.loc, f"type '{getattr(t, 'name', '?')}' has no member '{name}'")
            if ex[0] == "lstruct":
                if name not in ex[1]:
                    raise serr(e.loc, f"{tdesc(bv.t)} has no field '{name}'")
                return ex[1][name]
            if ex[0] == "apply_result":
                tinfo, code = ex[1], ex[2]
                if name == "hit":
                    return Val(code=f"{code}[0]", t=BoolT())
                if name == "miss":
                    return Val(code=f"(not {code}[0])", t=BoolT())
                if name == "action_run":
                    return Val(code=f"{code}[1]", extra=("action_run", tinfo))
                raise serr(e.loc, f"table apply result has no member '{name}'")
            return Val(extra=("method", bv, name))
        t = bv.t
        if isinstance(t, (HeaderT, StructT)):
            if name in t.offsets:
                fv = self.field_val(bv.base, t.offsets[name], t.ftypes[name])
                slot = fv.lv[2] if fv.lv[0] == "S" else None
                if fc is not None and fc.kind == "deparser" and slot in self.sel_fields:
                    # an unwritten selector is invalid: it equals no value (-1)
                    return Val(code=f"(S[{slot}] if S[{self.sel_fields[slot]}] else -1)",
                               t=fv.t, lv=fv.lv)
                return fv
            if isinstance(t, HeaderT) and name in ("isValid", "setValid", "setInvalid"):
                return Val(extra=("method", bv, name))
            raise serr(e.loc, f"{tdesc(t)} has no field '{name}'")
        if isinstance(t, StackT):
            esz = t.elem.nslots
            if name == "next":
                return Val(t=t.elem, extra=("stack_next", bv))
            if name == "last":
                b = f"({addb(bv.base, 1)} + STK(S[{bv.base}] - 1, {t.size}) * {esz})"
                return Val(t=t.elem, base=b, lv=("C", b))
            if name == "lastIndex":
                return Val(code=f"((S[{bv.base}] - 1) & 0xffffffff)", t=Bits(32))
            if name == "nextIndex":
                return Val(code=f"S[{bv.base}]", t=Bits(32))
            if name == "size":
                return cval(t.size, Bits(32))
            if name in ("push_front", "pop_front"):
                return Val(extra=("method", bv, name))
            raise serr(e.loc, f"header stack has no member '{name}'")
        if isinstance(t, ExternT) or t is None:
            return Val(extra=("method", bv, name))
        raise serr(e.loc, f"'{expr_text(e.expr)}' of type {tdesc(t)} has no member '{name}'")

    def index(self, e, sc, fc, em):
        bv = self.expr(e.expr, sc, fc, em)
        t = bv.t
        if not isinstance(t, StackT):
            raise serr(e.loc, f"'{expr_text(e.expr)}' is not a header stack")
        iv = self.scalar(self.expr(e.index, sc, fc, em), e.index.loc, "header stack index")
        esz = t.elem.nslots
        if iv.const is not None:
            i = int(iv.const)
            if not 0 <= i < t.size:
                raise serr(e.loc, f"index {i} out of bounds for stack of size {t.size}")
            b = addb(bv.base, 1 + i * esz)
        else:
            b = f"({addb(bv.base, 1)} + STK({iv.code}, {t.size}) * {esz})"
        return Val(t=t.elem, base=b, lv=("C", b))

    def slice(self, e, sc, fc, em):
        bv = self.expr(e.expr, sc, fc, em)
        t = self.scalar_t(bv.t)
        hi = self.const_int_in(e.hi, sc, fc, "slice bound")
        lo = self.const_int_in(e.lo, sc, fc, "slice bound")
        if isinstance(t, IntT) and bv.const is not None:
            w = hi - lo + 1
            return cval((bv.const >> lo) & ((1 << w) - 1), Bits(w))
        if not isinstance(t, Bits):
            raise serr(e.loc, f"cannot slice a value of type {tdesc(bv.t) if bv.t else '?'}")
        if not (0 <= lo <= hi < t.width):
            raise serr(e.loc, f"slice [{hi}:{lo}] out of range for {tdesc(t)}")
        w = hi - lo + 1
        m = (1 << w) - 1
        rt = Bits(w)
        if bv.const is not None:
            return cval((bv.const >> lo) & m, rt)
        code = f"(({bv.code} >> {lo}) & {m})" if lo else f"({bv.code} & {m})"
        lv = None
        if bv.lv is not None and bv.lv[0] in ("S", "L", "slice"):
            lv = ("slice", bv.lv, hi, lo, t)
        return Val(code=code, t=rt, lv=lv)

    def const_int_in(self, node, sc, fc, what):
        v = self.expr(node, sc, fc, None)
        if v.const is None or isinstance(v.const, bool):
            raise serr(node.loc, f"{what} must be a compile-time integer constant")
        return int(v.const)

    def const_of(self, node, sc, fc, t, what):
        v = self.expr(node, sc, fc, None)
        if v.const is None:
            raise serr(node.loc, f"{what} must be a compile-time constant")
        c = self.convert(v, t, node.loc, what)
        return int(c.const)
