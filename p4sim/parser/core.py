"""The token cursor, errors, the scoped table of type names (how P4's type/identifier ambiguity
is resolved) and annotations."""
from ..ast import N
from ..errors import P4SyntaxError

BINOPS = {
    "||": 2, "&&": 3, "==": 4, "!=": 4, "<": 5, ">": 5, "<=": 5, ">=": 5,
    "|": 6, "^": 7, "&": 8, "<<": 9, ">>": 9, "++": 10, "+": 10, "-": 10,
    "|+|": 10, "|-|": 10, "*": 11, "/": 11, "%": 11,
}
# keywords that P4-16 allows as ordinary names (nonTypeName)
NAME_KWS = {"apply", "key", "actions", "state", "entries", "type"}


class ParserCore:
    """The token cursor, errors, the scoped table of type names (how P4's type/identifier
    ambiguity is resolved) and annotations."""

    def __init__(self, tokens):
        self.t = tokens
        self.i = 0
        self.scopes = [set()]

    @property
    def tok(self):
        return self.t[self.i]

    def peek(self, k=1):
        j = min(self.i + k, len(self.t) - 1)
        return self.t[j]

    def at(self, kind, value=None):
        tk = self.t[self.i]
        if value is None:
            return tk.kind == kind
        return tk.kind == kind and tk.value == value

    def at_kw(self, v):
        tk = self.t[self.i]
        return tk.kind == "kw" and tk.value == v

    def next(self):
        tk = self.t[self.i]
        if tk.kind != "eof":
            self.i += 1
        return tk

    def error(self, msg, tok=None):
        tok = tok or self.tok
        raise P4SyntaxError(tok.loc, msg)

    def expect(self, kind, what=None):
        tk = self.tok
        if tk.kind != kind:
            self.error(f"expected {what or repr(kind)}, found {tk.value!r}")
        return self.next()

    def expect_kw(self, v):
        if not self.at_kw(v):
            self.error(f"expected '{v}', found {self.tok.value!r}")
        return self.next()

    def accept(self, kind):
        if self.tok.kind == kind:
            return self.next()
        return None

    def name(self, what="a name"):
        tk = self.tok
        if tk.kind == "id" or (tk.kind == "kw" and tk.value in NAME_KWS):
            self.next()
            return tk.value
        self.error(f"expected {what}, found {tk.value!r}")

    def is_name(self, tk=None):
        tk = tk or self.tok
        return tk.kind == "id" or (tk.kind == "kw" and tk.value in NAME_KWS)

    def is_type_name(self, s):
        return any(s in sc for sc in self.scopes)

    def declare_type(self, s):
        self.scopes[-1].add(s)

    def push(self, names=()):
        self.scopes.append(set(names))

    def pop(self):
        self.scopes.pop()

    def at_type_start(self, tk=None):
        tk = tk or self.tok
        if tk.kind == "kw" and tk.value in ("bit", "int", "bool", "varbit", "void", "error",
                                            "string", "tuple", "list"):
            return True
        if tk.kind == "id" and self.is_type_name(tk.value):
            return True
        if tk.kind == "." and self.peek().kind == "id" and self.is_type_name(self.peek().value):
            return True
        return False

    def annotations(self):
        anns = []
        while self.at("@"):
            loc = self.next().loc
            if self.tok.kind not in ("id", "kw"):
                self.error("expected annotation name")
            name = self.next().value
            body = []
            if self.at("("):
                depth = 0
                while True:
                    tk = self.next()
                    if tk.kind == "eof":
                        self.error("unterminated annotation", tk)
                    if tk.kind == "(":
                        depth += 1
                    elif tk.kind == ")":
                        depth -= 1
                        if depth == 0:
                            break
                    if depth >= 1 and not (tk.kind == "(" and depth == 1):
                        body.append(tk)
            elif self.at("["):
                depth = 0
                while True:
                    tk = self.next()
                    if tk.kind == "eof":
                        self.error("unterminated annotation", tk)
                    if tk.kind == "[":
                        depth += 1
                    elif tk.kind == "]":
                        depth -= 1
                        if depth == 0:
                            break
            anns.append(N("annotation", loc, name=name, body=body))
        return anns

    @staticmethod
    def ann_string(anns, name):
        for a in anns:
            if a.name == name and a.body and a.body[0].kind == "str":
                return a.body[0].value
        return None
