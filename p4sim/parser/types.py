"""Types: bit/int/varbit, named and generic types, stacks, type arguments and parameters."""
from ..ast import N
from ..errors import P4SyntaxError, UnsupportedError


class TypesMixin:
    """Types: bit/int/varbit, named and generic types, stacks, type arguments and parameters."""

    def parse_type(self):
        tk = self.tok
        loc = tk.loc
        if tk.kind == "kw":
            v = tk.value
            if v in ("bit", "int"):
                self.next()
                if self.accept("<"):
                    if self.at("("):
                        self.next()
                        w = self.expr()
                        self.expect(")")
                    elif self.at("num"):
                        w = N("int", self.tok.loc, value=self.tok.value, width=None, signed=False)
                        self.next()
                    else:
                        w = N("name", self.tok.loc, name=self.name("a width"))
                    self.expect(">", "'>'")
                else:
                    if v == "int":
                        return self.stack_suffix(N("infint", loc))
                    w = N("int", loc, value=1, width=None, signed=False)
                return self.stack_suffix(N("bits", loc, width=w, signed=(v == "int")))
            if v == "bool":
                self.next()
                return self.stack_suffix(N("bool", loc))
            if v == "void":
                self.next()
                return N("void", loc)
            if v == "error":
                self.next()
                return N("errortype", loc)
            if v == "string":
                self.next()
                return N("string", loc)
            if v == "varbit":
                raise UnsupportedError(loc, "unsupported type 'varbit'")
            if v in ("tuple", "list"):
                raise UnsupportedError(loc, f"unsupported type '{v}'")
        if tk.kind == ".":
            self.next()
        if self.tok.kind == "id" and self.is_type_name(self.tok.value):
            name = self.next().value
            args = []
            if self.at("<"):
                args = self.type_args()
            return self.stack_suffix(N("tname", loc, name=name, args=args))
        if tk.kind == "id" and tk.value == "_":
            self.next()
            return N("dontcare_t", loc)
        self.error(f"expected a type, found {self.tok.value!r}")

    def stack_suffix(self, t):
        while self.at("["):
            loc = self.next().loc
            size = self.expr()
            self.expect("]")
            t = N("stack", loc, elem=t, size=size)
        return t

    def type_args(self):
        self.expect("<")
        args = []
        if not self.at(">"):
            while True:
                if self.tok.kind == "id" and self.tok.value == "_":
                    self.next()
                    args.append(N("dontcare_t", self.tok.loc))
                else:
                    args.append(self.parse_type())
                if not self.accept(","):
                    break
        self.expect(">", "'>'")
        return args

    def try_type_args_call(self):
        """At '<': try to read type arguments followed by '(' (a generic call)."""
        save = self.i
        try:
            args = self.type_args()
        except P4SyntaxError:
            self.i = save
            return None
        if not self.at("("):
            self.i = save
            return None
        return args

    def prescan_generic_ret(self):
        """`T name<T>(...)`: the return type uses a type parameter declared after it."""
        names = []
        if self.tok.kind == "id" and not self.is_type_name(self.tok.value) \
                and self.is_name(self.peek()) and self.peek(2).kind == "<":
            j = self.i + 3
            while self.t[j].kind == "id":
                names.append(self.t[j].value)
                if self.t[j + 1].kind == ",":
                    j += 2
                else:
                    break
        return names

    def type_params(self):
        names = []
        if self.accept("<"):
            while True:
                names.append(self.expect("id", "a type parameter").value)
                if not self.accept(","):
                    break
            self.expect(">", "'>'")
        return names
