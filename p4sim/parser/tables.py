"""Table declarations and their properties."""
from ..ast import N


class TablesMixin:
    """Table declarations and their properties."""

    def table_decl(self, anns):
        loc = self.expect_kw("table").loc
        name = self.name("a table name")
        self.expect("{")
        props = {}
        while not self.at("}"):
            self.annotations()
            ploc = self.tok.loc
            is_const = False
            if self.at_kw("const"):
                self.next()
                is_const = True
            pname = self.name("a table property")
            if pname in props:
                self.error(f"table '{name}': duplicate property '{pname}'")
            if pname == "key":
                self.expect("=")
                self.expect("{")
                keys = []
                while not self.at("}"):
                    kloc = self.tok.loc
                    e = self.expr()
                    self.expect(":")
                    mk = self.expect("id", "a match kind").value
                    kanns = self.annotations()
                    self.expect(";")
                    keys.append(N("key", kloc, expr=e, match=mk, pname=self.ann_string(kanns, "name")))
                self.expect("}")
                props["key"] = N("prop", ploc, value=keys, const=is_const)
            elif pname == "actions":
                self.expect("=")
                self.expect("{")
                acts = []
                while not self.at("}"):
                    aanns = self.annotations()
                    aloc = self.tok.loc
                    e = self.expr()
                    self.expect(";")
                    acts.append(N("actref", aloc, expr=e,
                                  defaultonly=any(a.name == "defaultonly" for a in aanns),
                                  tableonly=any(a.name == "tableonly" for a in aanns)))
                self.expect("}")
                props["actions"] = N("prop", ploc, value=acts, const=is_const)
            elif pname == "entries":
                self.expect("=")
                self.expect("{")
                ents = []
                while not self.at("}"):
                    self.annotations()
                    eloc = self.tok.loc
                    ks = self.keyset_expr()
                    self.expect(":")
                    act = self.expr()
                    self.expect(";")
                    ents.append(N("entry", eloc, keys=ks, action=act))
                self.expect("}")
                props["entries"] = N("prop", ploc, value=ents, const=is_const)
            else:
                self.expect("=")
                e = self.expr()
                self.expect(";")
                props[pname] = N("prop", ploc, value=e, const=is_const)
        self.expect("}")
        return N("table", loc, name=name, props=props, anns=anns, pname=self.ann_string(anns, "name"))
