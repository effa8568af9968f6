"""Blocks and statements."""
from ..ast import N
from ..errors import UnsupportedError


class StatementsMixin:
    """Blocks and statements."""

    def block(self):
        loc = self.expect("{", "'{'").loc
        self.push()
        stmts = []
        while not self.at("}"):
            if self.at("eof"):
                self.error("unexpected end of input in block")
            stmts.append(self.statement())
        self.expect("}")
        self.pop()
        return N("block", loc, stmts=stmts)

    def statement(self):
        self.annotations()
        tk = self.tok
        loc = tk.loc
        if tk.kind == "{":
            return self.block()
        if tk.kind == ";":
            self.next()
            return N("empty", loc)
        if tk.kind == "kw":
            v = tk.value
            if v == "if":
                self.next()
                self.expect("(")
                c = self.expr()
                self.expect(")")
                th = self.statement()
                el = None
                if self.at_kw("else"):
                    self.next()
                    el = self.statement()
                return N("if", loc, cond=c, then=th, els=el)
            if v == "switch":
                self.next()
                self.expect("(")
                e = self.expr()
                self.expect(")")
                self.expect("{")
                cases = []
                while not self.at("}"):
                    cloc = self.tok.loc
                    if self.at_kw("default"):
                        self.next()
                        label = None
                    else:
                        label = self.expr()
                    self.expect(":")
                    body = self.block() if self.at("{") else None
                    cases.append(N("swcase", cloc, label=label, body=body))
                self.expect("}")
                return N("switch", loc, expr=e, cases=cases)
            if v == "return":
                self.next()
                e = None
                if not self.at(";"):
                    e = self.expr()
                self.expect(";")
                return N("return", loc, value=e)
            if v == "exit":
                self.next()
                self.expect(";")
                return N("exit", loc)
            if v == "const":
                c = self.const_decl([])
                return N("var", c.loc, name=c.name, type=c.type, init=c.value, const=True)
            if v == "transition":
                self.error("'transition' outside a parser state")
            if v == "for":
                raise UnsupportedError(loc, "unsupported construct 'for' loop")
        if self.at_type_start() and not (tk.kind == "kw" and tk.value == "error" and self.peek().kind == "."):
            nt = self.peek()
            if tk.kind == "kw" or self.is_name(nt) or nt.kind in ("<", "[") or tk.kind == ".":
                t = self.parse_type()
                if self.at("("):
                    raise UnsupportedError(loc, "unsupported: instantiation inside a block")
                return self.var_decl_rest(t, loc)
        e = self.expr()
        if self.accept("="):
            rhs = self.expr()
            self.expect(";")
            return N("assign", loc, lhs=e, rhs=rhs)
        self.expect(";")
        if e.k != "call":
            self.error("expression statement must be a call or an assignment", tk)
        return N("callstmt", loc, call=e)
