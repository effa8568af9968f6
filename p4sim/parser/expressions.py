"""Expressions by precedence climbing."""
from ..ast import N
from ..errors import P4SyntaxError, UnsupportedError
from .core import BINOPS


class ExpressionsMixin:
    """Expressions by precedence climbing."""

    def expr(self, minprec=1):
        lhs = self.unary()
        while True:
            tk = self.tok
            op = tk.kind
            if op == ">" and self.peek().kind == ">" and self.peek().loc.col == tk.loc.col + 1 \
                    and self.peek().loc.line == tk.loc.line:
                op = ">>"
            if op == "?" and minprec <= 1:
                self.next()
                a = self.expr(1)
                self.expect(":")
                b = self.expr(1)
                lhs = N("cond", tk.loc, cond=lhs, then=a, els=b)
                continue
            prec = BINOPS.get(op)
            if prec is None or prec < minprec:
                return lhs
            self.next()
            if op == ">>":
                self.next()
            rhs = self.expr(prec + 1)
            lhs = N("binop", tk.loc, op=op, left=lhs, right=rhs)

    def unary(self):
        tk = self.tok
        if tk.kind in ("!", "~", "-", "+"):
            self.next()
            e = self.unary()
            return N("unop", tk.loc, op=tk.kind, expr=e)
        if tk.kind == "(":
            # cast?
            nt = self.peek()
            if self.at_type_start(nt) and not (nt.kind == "kw" and nt.value == "error"
                                               and self.peek(2).kind == "."):
                save = self.i
                self.next()
                try:
                    t = self.parse_type()
                    ok = self.at(")")
                except P4SyntaxError:
                    ok = False
                if ok:
                    self.next()
                    e = self.unary()
                    return N("cast", tk.loc, type=t, expr=e)
                self.i = save
        return self.postfix(self.primary())

    def primary(self):
        tk = self.tok
        loc = tk.loc
        k = tk.kind
        if k == "num":
            self.next()
            w, s = tk.extra
            return N("int", loc, value=tk.value, width=w, signed=s)
        if k == "str":
            self.next()
            return N("string", loc, value=tk.value)
        if k == "kw":
            v = tk.value
            if v in ("true", "false"):
                self.next()
                return N("bool", loc, value=(v == "true"))
            if v == "error":
                self.next()
                self.expect(".")
                return N("member", loc, expr=N("name", loc, name="error"), name=self.name())
            if v in ("bit", "int", "bool"):
                # e.g. bit<8>.max? not supported
                raise UnsupportedError(loc, f"unsupported expression starting with type '{v}'")
        if k == "(":
            self.next()
            e = self.expr()
            self.expect(")")
            return e
        if k == "{":
            self.next()
            items = []
            named = False
            while not self.at("}"):
                iloc = self.tok.loc
                if self.is_name() and self.peek().kind == "=":
                    nm = self.next().value
                    self.next()
                    items.append(N("kv", iloc, name=nm, value=self.expr()))
                    named = True
                else:
                    items.append(self.expr())
                if not self.accept(","):
                    break
            self.expect("}")
            if named and not all(it.k == "kv" for it in items):
                raise P4SyntaxError(loc, "an initialiser list cannot mix 'name = value' and "
                                         "positional entries")
            return N("list", loc, items=items, named=named)
        if k == ".":
            self.next()
            return N("name", loc, name=self.name(), top=True)
        if self.is_name():
            self.next()
            if tk.value == "_":
                return N("dontcare", loc)
            return N("name", loc, name=tk.value)
        self.error(f"expected an expression, found {tk.value!r}")

    def postfix(self, e):
        while True:
            tk = self.tok
            if tk.kind == ".":
                self.next()
                name = self.name("a member name")
                e = N("member", tk.loc, expr=e, name=name)
            elif tk.kind == "[":
                self.next()
                a = self.expr()
                if self.accept(":"):
                    b = self.expr()
                    self.expect("]")
                    e = N("slice", tk.loc, expr=e, hi=a, lo=b)
                else:
                    self.expect("]")
                    e = N("index", tk.loc, expr=e, index=a)
            elif tk.kind == "(":
                args = self.args()
                e = N("call", tk.loc, fn=e, targs=[], args=args)
            elif tk.kind == "<" and e.k in ("name", "member"):
                targs = self.try_type_args_call()
                if targs is None:
                    return e
                args = self.args()
                e = N("call", tk.loc, fn=e, targs=targs, args=args)
            else:
                return e
