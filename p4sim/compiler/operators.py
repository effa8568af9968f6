"""Operators, casts and implicit conversions, with the wrap-around/saturation of fixed-width
arithmetic."""
from ..errors import UnsupportedError
from ..types import Bits, BoolT, EnumT, ErrorT, IntT, same_type, wrap_value
from .base import Val, cval, serr, tdesc


class OperatorsMixin:
    """Operators, casts and implicit conversions, with the wrap-around/saturation of fixed-
    width arithmetic."""

    def unify(self, a, b, loc, op):
        ta, tb = self.scalar_t(a.t), self.scalar_t(b.t)
        if isinstance(ta, IntT) and isinstance(tb, IntT):
            return a, b, IntT()
        if isinstance(ta, IntT) and isinstance(tb, Bits):
            return self.convert(a, tb, loc, f"operand of '{op}'"), b, tb
        if isinstance(tb, IntT) and isinstance(ta, Bits):
            return a, self.convert(b, ta, loc, f"operand of '{op}'"), ta
        if isinstance(ta, Bits) and isinstance(tb, Bits):
            if ta != tb:
                raise serr(loc, f"operands of '{op}' have different types: {ta.describe()} and "
                                f"{tb.describe()} (cast one of them)")
            return a, b, ta
        if isinstance(ta, BoolT) and isinstance(tb, BoolT):
            return a, b, ta
        if isinstance(a.t, EnumT) and isinstance(b.t, EnumT) and a.t.name == b.t.name:
            return a, b, a.t
        if isinstance(ta, ErrorT) and isinstance(tb, ErrorT):
            return a, b, ta
        raise serr(loc, f"operands of '{op}' have incompatible types: "
                        f"{tdesc(a.t) if a.t else '?'} and {tdesc(b.t) if b.t else '?'}")

    def binop(self, e, sc, fc, em):
        op = e.op
        a = self.expr(e.left, sc, fc, em)
        conditional = op in ("&&", "||")       # the right operand may not be evaluated
        self.cov_cond += conditional
        try:
            b = self.expr(e.right, sc, fc, em)
        finally:
            self.cov_cond -= conditional
        loc = e.loc
        if op in ("&&", "||"):
            if not (isinstance(a.t, BoolT) and isinstance(b.t, BoolT)):
                raise serr(loc, f"operands of '{op}' must be bool")
            if a.const is not None and b.const is not None:
                return cval(bool(a.const and b.const) if op == "&&" else bool(a.const or b.const), BoolT())
            return Val(code=f"({a.code} {'and' if op == '&&' else 'or'} {b.code})", t=BoolT())
        if op == "++":
            ta, tb = self.scalar_t(a.t), self.scalar_t(b.t)
            if not isinstance(ta, Bits) or not isinstance(tb, Bits):
                raise serr(loc, "operands of '++' must be bit<W>/int<W> with known widths")
            rt = Bits(ta.width + tb.width, ta.signed)
            ua = a.code if not ta.signed else f"({a.code} & {ta.mask})"
            ub = b.code if not tb.signed else f"({b.code} & {tb.mask})"
            if a.const is not None and b.const is not None:
                return cval(wrap_value(((a.const & ta.mask) << tb.width) | (b.const & tb.mask), rt), rt)
            code = f"(({ua} << {tb.width}) | {ub})"
            if rt.signed:
                code = self.wrapc(code, rt)
            return Val(code=code, t=rt)
        if op in ("<<", ">>"):
            ta, tb = self.scalar_t(a.t), self.scalar_t(b.t)
            if isinstance(tb, Bits) and tb.signed:
                raise serr(loc, f"shift amount must be unsigned, not {tb.describe()}")
            if not isinstance(tb, (Bits, IntT)):
                raise serr(loc, "shift amount must be an integer")
            if isinstance(ta, IntT):
                if a.const is None or b.const is None:
                    raise serr(loc, "shift of an int needs constant operands")
                if b.const < 0 or b.const > 4096:
                    raise serr(loc, "shift amount out of range")
                return cval(a.const << b.const if op == "<<" else a.const >> b.const, IntT())
            if not isinstance(ta, Bits):
                raise serr(loc, f"cannot shift a value of type {tdesc(a.t)}")
            if b.const is not None:
                s = int(b.const)
                if s < 0:
                    raise serr(loc, "negative shift amount")
                if a.const is not None:
                    v = a.const << s if op == "<<" else a.const >> s
                    return cval(wrap_value(v, ta), ta)
                if op == "<<":
                    if s >= ta.width:
                        return cval(0, ta)
                    return Val(code=self.wrapc(f"({a.code} << {s})", ta), t=ta)
                if s >= ta.width:
                    return Val(code=f"({a.code} >> {ta.width})", t=ta)
                return Val(code=f"({a.code} >> {s})", t=ta)
            if op == "<<":
                return Val(code=f"({self.wrapc(f'({a.code} << {b.code})', ta)} if {b.code} < {ta.width} else 0)",
                           t=ta)
            return Val(code=f"({a.code} >> min({b.code}, {ta.width}))", t=ta)
        a, b, t = self.unify(a, b, loc, op)
        if op in ("==", "!=", "<", ">", "<=", ">="):
            if op not in ("==", "!=") and not isinstance(t, (Bits, IntT)):
                raise serr(loc, f"'{op}' needs numeric operands")
            if a.const is not None and b.const is not None:
                r = {"==": a.const == b.const, "!=": a.const != b.const, "<": a.const < b.const,
                     ">": a.const > b.const, "<=": a.const <= b.const, ">=": a.const >= b.const}[op]
                return cval(r, BoolT())
            return Val(code=f"({a.code} {op} {b.code})", t=BoolT())
        if isinstance(t, (BoolT, EnumT, ErrorT)):
            raise serr(loc, f"'{op}' is not defined on {tdesc(t)}")
        if isinstance(t, IntT):
            if a.const is None or b.const is None:
                raise serr(loc, "int arithmetic needs constant operands")
            x, y = a.const, b.const
            if op in ("/", "%") and y == 0:
                raise serr(loc, "division by zero")
            if op in ("|+|", "|-|"):
                raise serr(loc, f"'{op}' needs a fixed-width type")
            r = {"+": lambda: x + y, "-": lambda: x - y, "*": lambda: x * y, "/": lambda: x // y,
                 "%": lambda: x % y, "&": lambda: x & y, "|": lambda: x | y, "^": lambda: x ^ y}[op]()
            return cval(r, IntT())
        # fixed width
        if a.const is not None and b.const is not None:
            x, y = a.const, b.const
            if op in ("/", "%"):
                if y == 0:
                    raise serr(loc, "division by zero")
                if t.signed:
                    raise UnsupportedError(loc, f"'{op}' on signed values")
            if op == "|+|":
                r = self.sat(x + y, t)
            elif op == "|-|":
                r = self.sat(x - y, t)
            else:
                r = {"+": lambda: x + y, "-": lambda: x - y, "*": lambda: x * y, "/": lambda: x // y,
                     "%": lambda: x % y, "&": lambda: x & y, "|": lambda: x | y, "^": lambda: x ^ y}[op]()
            return cval(wrap_value(r, t), t)
        A, B = a.code, b.code
        if op in ("&", "|", "^"):
            return Val(code=f"({A} {op} {B})", t=t)
        if op in ("+", "-", "*"):
            return Val(code=self.wrapc(f"({A} {op} {B})", t), t=t)
        if op in ("/", "%"):
            if t.signed:
                raise UnsupportedError(loc, f"'{op}' on signed values")
            return Val(code=f"DIV({A}, {B})" if op == "/" else f"MOD({A}, {B})", t=t)
        if op in ("|+|", "|-|"):
            pop = "+" if op == "|+|" else "-"
            tv = self.uid("_q")
            if t.signed:
                h = 1 << (t.width - 1)
                lo, hi = -h, h - 1
            else:
                lo, hi = 0, t.mask
            # clamp without min/max calls: (q if lo <= (q := a op b) <= hi else ...)
            return Val(code=f"({tv} if {lo} <= ({tv} := {A} {pop} {B}) <= {hi} else "
                            f"({hi} if {tv} > {hi} else {lo}))", t=t)
        raise UnsupportedError(loc, f"unsupported operator '{op}'")

    @staticmethod
    def sat(v, t):
        if t.signed:
            h = 1 << (t.width - 1)
            return max(min(v, h - 1), -h)
        return max(min(v, t.mask), 0)

    @staticmethod
    def wrapc(code, t):
        if t.signed:
            h = 1 << (t.width - 1)
            return f"((({code}) + {h} & {t.mask}) - {h})"
        return f"({code} & {t.mask})"

    def unop(self, e, sc, fc, em):
        v = self.expr(e.expr, sc, fc, em)
        op = e.op
        t = self.scalar_t(v.t)
        if op == "!":
            if not isinstance(t, BoolT):
                raise serr(e.loc, "'!' needs a bool operand")
            if v.const is not None:
                return cval(not v.const, BoolT())
            return Val(code=f"(not {v.code})", t=BoolT())
        if isinstance(t, IntT):
            if v.const is None:
                raise serr(e.loc, "int operand must be constant")
            r = {"-": -v.const, "+": v.const, "~": ~v.const}[op]
            return cval(r, IntT())
        if not isinstance(t, Bits):
            raise serr(e.loc, f"'{op}' needs a numeric operand, not {tdesc(v.t) if v.t else '?'}")
        if v.const is not None:
            r = {"-": -v.const, "+": v.const, "~": ~v.const}[op]
            return cval(wrap_value(r, t), t)
        if op == "+":
            return Val(code=v.code, t=t)
        if op == "-":
            return Val(code=self.wrapc(f"(-{v.code})", t), t=t)
        if t.signed:
            return Val(code=f"(~{v.code})", t=t)
        return Val(code=f"({v.code} ^ {t.mask})", t=t)

    def cast(self, v, t, loc):
        st = self.scalar_t(t)
        vt = self.scalar_t(v.t)
        if isinstance(t, EnumT):
            if isinstance(v.t, EnumT) and v.t.name == t.name:
                return v
            if t.underlying is None or not isinstance(vt, (Bits, IntT)):
                raise serr(loc, f"cannot cast {tdesc(v.t) if v.t else '?'} to {tdesc(t)}")
            vv = self.cast(v, t.underlying, loc)
            return Val(code=vv.code, t=t, const=vv.const)
        if isinstance(st, BoolT):
            if isinstance(vt, BoolT):
                return v
            if isinstance(vt, Bits) and vt.width == 1 or (isinstance(vt, IntT) and v.const in (0, 1)):
                if v.const is not None:
                    return cval(bool(v.const), BoolT())
                return Val(code=f"({v.code} != 0)", t=BoolT())
            raise serr(loc, f"cannot cast {tdesc(v.t) if v.t else '?'} to bool (only bit<1>)")
        if isinstance(st, Bits):
            if isinstance(vt, BoolT):
                if st.width != 1:
                    raise serr(loc, f"cannot cast bool to {tdesc(st)} (only bit<1>)")
                if v.const is not None:
                    return cval(int(v.const), st)
                return Val(code=f"(1 if {v.code} else 0)", t=st)
            if isinstance(vt, IntT):
                if v.const is None:
                    raise serr(loc, "int cast needs a constant")
                return cval(wrap_value(v.const, st), st)
            if isinstance(vt, Bits):
                if v.const is not None:
                    return cval(wrap_value(v.const, st), st)
                if vt.signed == st.signed and vt.width == st.width:
                    return Val(code=v.code, t=st)
                if not st.signed:
                    if not vt.signed and st.width >= vt.width:
                        return Val(code=v.code, t=st)
                    return Val(code=f"({v.code} & {st.mask})", t=st)
                # to signed
                if vt.signed and st.width >= vt.width:
                    return Val(code=v.code, t=st)
                if not vt.signed and st.width > vt.width:
                    return Val(code=v.code, t=st)
                return Val(code=self.wrapc(v.code, st), t=st)
            raise serr(loc, f"cannot cast {tdesc(v.t) if v.t else '?'} to {tdesc(st)}")
        if isinstance(st, IntT):
            if v.const is not None:
                return cval(v.const, IntT())
        if v.t is not None and same_type(v.t, t):
            return v
        raise serr(loc, f"unsupported cast to {tdesc(t) if t else '?'}")

    def convert(self, v, t, loc, what):
        """Implicit conversion of v to type t (assignment/argument/initialiser)."""
        st = self.scalar_t(t)
        vt = v.t
        if isinstance(st, Bits):
            if isinstance(vt, IntT):
                if v.const is None:
                    raise serr(loc, f"{what}: non-constant int")
                return cval(wrap_value(v.const, st), t)
            vst = self.scalar_t(vt)
            if isinstance(vst, Bits) and vst == st:
                if isinstance(t, EnumT) and not (isinstance(vt, EnumT) and vt.name == t.name):
                    raise serr(loc, f"{what}: cannot convert {tdesc(vt)} to {tdesc(t)} implicitly")
                return v
            raise serr(loc, f"{what}: type mismatch: expected {tdesc(t)}, got "
                            f"{tdesc(vt) if vt else '?'}")
        if isinstance(t, BoolT):
            if isinstance(vt, BoolT):
                return v
            raise serr(loc, f"{what}: expected bool, got {tdesc(vt) if vt else '?'}")
        if isinstance(t, EnumT):
            if isinstance(vt, EnumT) and vt.name == t.name:
                return v
            raise serr(loc, f"{what}: expected {tdesc(t)}, got {tdesc(vt) if vt else '?'}")
        if isinstance(t, ErrorT):
            if isinstance(vt, ErrorT):
                return v
            raise serr(loc, f"{what}: expected error, got {tdesc(vt) if vt else '?'}")
        if isinstance(t, IntT):
            if v.const is not None and isinstance(vt, (IntT, Bits)):
                return cval(v.const, IntT())
        raise serr(loc, f"{what}: cannot convert {tdesc(vt) if vt else '?'} to "
                        f"{tdesc(t) if t else '?'}")
