"""Parser states, transitions and select keysets."""
from ..ast import N


class StatesMixin:
    """Parser states, transitions and select keysets."""

    def parser_state(self, anns):
        loc = self.expect_kw("state").loc
        name = self.name("a state name")
        self.expect("{")
        stmts = []
        trans = None
        while not self.at("}"):
            if self.at_kw("transition"):
                tloc = self.next().loc
                if self.at_kw("select"):
                    sloc = self.next().loc
                    self.expect("(")
                    exprs = [self.expr()]
                    while self.accept(","):
                        exprs.append(self.expr())
                    self.expect(")")
                    self.expect("{")
                    cases = []
                    while not self.at("}"):
                        self.annotations()
                        cloc = self.tok.loc
                        ks = self.keyset_expr()
                        self.expect(":")
                        st = self.name("a state name")
                        self.expect(";")
                        cases.append(N("case", cloc, keys=ks, state=st))
                    self.expect("}")
                    trans = N("select", sloc, exprs=exprs, cases=cases)
                else:
                    st = self.name("a state name")
                    self.expect(";")
                    trans = N("goto", tloc, state=st)
                if not self.at("}"):
                    self.error("statements after 'transition' are not allowed")
                break
            stmts.append(self.statement())
        self.expect("}")
        return N("state", loc, name=name, stmts=stmts, trans=trans)

    def keyset_expr(self):
        """Returns a list of simple keysets (a tuple keyset gives several)."""
        if self.at("("):
            save = self.i
            self.next()
            items = [self.simple_keyset()]
            while self.accept(","):
                items.append(self.simple_keyset())
            if self.accept(")") and (len(items) > 1 or self.at(":")):
                if len(items) > 1 or items[0].k != "ks_expr":
                    return items
            self.i = save
        return [self.simple_keyset()]

    def simple_keyset(self):
        loc = self.tok.loc
        if self.at_kw("default"):
            self.next()
            return N("ks_default", loc)
        if self.at("id") and self.tok.value == "_":
            self.next()
            return N("ks_default", loc)
        e = self.expr()
        if self.accept("&&&"):
            m = self.expr()
            return N("ks_mask", loc, value=e, mask=m)
        if self.accept(".."):
            h = self.expr()
            return N("ks_range", loc, low=e, high=h)
        return N("ks_expr", loc, value=e)
