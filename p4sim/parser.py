"""Recursive-descent parser for the P4-16 subset p4sim supports.

The type-name / identifier ambiguity of P4-16 is resolved the way p4c's lexer feedback
does it: the parser keeps a scoped table of names declared as types (headers, structs,
typedefs, enums, externs, parsers, controls, packages and type parameters) and consults it
wherever a type and an expression may both start.
"""
from .ast import N
from .errors import P4SyntaxError, UnsupportedError
from .lexer import tokenize

BINOPS = {
    "||": 2, "&&": 3, "==": 4, "!=": 4, "<": 5, ">": 5, "<=": 5, ">=": 5,
    "|": 6, "^": 7, "&": 8, "<<": 9, ">>": 9, "++": 10, "+": 10, "-": 10,
    "|+|": 10, "|-|": 10, "*": 11, "/": 11, "%": 11,
}
# keywords that P4-16 allows as ordinary names (nonTypeName)
NAME_KWS = {"apply", "key", "actions", "state", "entries", "type"}


class Parser:
    def __init__(self, tokens):
        self.t = tokens
        self.i = 0
        self.scopes = [set()]

    # ----- token helpers
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

    # ----- type-name scopes
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

    # ----- annotations
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

    # ----- types
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

    # ----- program
    def program(self):
        decls = []
        while not self.at("eof"):
            d = self.declaration()
            if d is not None:
                decls.append(d)
        return decls

    def declaration(self):
        anns = self.annotations()
        tk = self.tok
        loc = tk.loc
        if self.accept(";"):
            return None
        if tk.kind == "kw":
            v = tk.value
            if v == "const":
                return self.const_decl(anns)
            if v in ("header", "struct"):
                self.next()
                name = self.expect("id", f"{v} name").value
                self.declare_type(name)
                tps = self.type_params()
                if tps:
                    raise UnsupportedError(loc, f"unsupported: generic {v} '{name}'")
                fields = self.field_list()
                return N(v, loc, name=name, fields=fields, anns=anns)
            if v == "header_union":
                raise UnsupportedError(loc, "unsupported construct 'header_union'")
            if v in ("typedef", "type"):
                self.next()
                t = self.parse_type()
                name = self.expect("id", "a type name").value
                self.expect(";")
                self.declare_type(name)
                return N("typedef", loc, name=name, type=t, newtype=(v == "type"))
            if v == "enum":
                return self.enum_decl(anns)
            if v in ("error", "match_kind"):
                self.next()
                self.expect("{")
                names = []
                while not self.at("}"):
                    names.append(self.expect("id", "a member name").value)
                    if not self.accept(","):
                        break
                self.expect("}")
                return N(v + "_decl", loc, names=names)
            if v == "extern":
                return self.extern_decl(anns)
            if v in ("parser", "control"):
                return self.block_decl(v, anns)
            if v == "package":
                self.next()
                name = self.expect("id").value
                self.declare_type(name)
                tps = self.type_params()
                self.push(tps)
                params = self.params()
                self.pop()
                self.expect(";")
                return N("package", loc, name=name, tparams=tps, params=params)
            if v == "action":
                return self.action_decl(anns)
            if v == "value_set":
                raise UnsupportedError(loc, "unsupported construct 'value_set'")
        if self.at_type_start():
            t = self.parse_type()
            if self.at("("):
                return self.instantiation(t, anns, loc)
            # function declaration
            name = self.name("a function name")
            tps = self.type_params()
            self.push(tps)
            params = self.params()
            if self.at("{"):
                body = self.block()
                self.pop()
                return N("function", loc, name=name, ret=t, tparams=tps, params=params, body=body)
            self.pop()
            self.expect("{", "'{'")
        self.error(f"expected a declaration, found {tk.value!r}")

    def const_decl(self, anns):
        loc = self.expect_kw("const").loc
        t = self.parse_type()
        name = self.name("a constant name")
        self.expect("=")
        e = self.expr()
        self.expect(";")
        return N("const", loc, name=name, type=t, value=e)

    def field_list(self):
        self.expect("{")
        fields = []
        while not self.at("}"):
            anns = self.annotations()
            loc = self.tok.loc
            t = self.parse_type()
            fname = self.name("a field name")
            self.expect(";")
            fields.append(N("field", loc, name=fname, type=t, anns=anns))
        self.expect("}")
        return fields

    def enum_decl(self, anns):
        loc = self.expect_kw("enum").loc
        underlying = None
        if self.at_kw("bit") or self.at_kw("int"):
            underlying = self.parse_type()
        name = self.expect("id", "an enum name").value
        self.declare_type(name)
        self.expect("{")
        members = []
        while not self.at("}"):
            mloc = self.tok.loc
            mname = self.expect("id", "an enum member").value
            val = None
            if self.accept("="):
                val = self.expr()
            elif underlying is not None:
                self.error(f"serializable enum member '{mname}' needs a value")
            members.append(N("member", mloc, name=mname, value=val))
            if not self.accept(","):
                break
        self.expect("}")
        return N("enum", loc, name=name, underlying=underlying, members=members)

    def extern_decl(self, anns):
        loc = self.expect_kw("extern").loc
        # object form: extern Name<T..> { ... }
        if self.at("id") and (self.peek().kind == "{" or self.peek().kind == "<"):
            save = self.i
            name = self.next().value
            tps = self.type_params() if self.at("<") else []
            if self.at("{"):
                self.declare_type(name)
                self.push(tps)
                self.next()
                methods = []
                while not self.at("}"):
                    manns = self.annotations()
                    mloc = self.tok.loc
                    abstract = False
                    if self.at_kw("abstract"):
                        self.next()
                        abstract = True
                    if self.at("id") and self.tok.value == name and self.peek().kind == "(":
                        self.next()
                        params = self.params()
                        self.expect(";")
                        methods.append(N("ctor", mloc, params=params))
                        continue
                    self.push(self.prescan_generic_ret())
                    rt = self.parse_type()
                    mname = self.name("a method name")
                    mtps = self.type_params()
                    self.push(mtps)
                    params = self.params()
                    self.pop()
                    self.pop()
                    self.expect(";")
                    methods.append(N("method", mloc, name=mname, ret=rt, tparams=mtps,
                                     params=params, abstract=abstract, anns=manns))
                self.expect("}")
                self.pop()
                return N("extern", loc, name=name, tparams=tps, methods=methods)
            self.i = save
        self.push(self.prescan_generic_ret())
        rt = self.parse_type()
        name = self.name("an extern function name")
        tps = self.type_params()
        self.push(tps)
        params = self.params()
        self.pop()
        self.pop()
        self.expect(";")
        return N("extern_fn", loc, name=name, ret=rt, tparams=tps, params=params)

    def params(self):
        self.expect("(")
        ps = []
        if not self.at(")"):
            while True:
                anns = self.annotations()
                loc = self.tok.loc
                d = ""
                if self.tok.kind == "kw" and self.tok.value in ("in", "out", "inout"):
                    d = self.next().value
                t = self.parse_type()
                pname = self.name("a parameter name")
                default = None
                if self.accept("="):
                    default = self.expr()
                ps.append(N("param", loc, name=pname, dir=d, type=t, default=default,
                            optional=any(a.name == "optional" for a in anns)))
                if not self.accept(","):
                    break
        self.expect(")")
        return ps

    def block_decl(self, kind, anns):
        loc = self.next().loc
        name = self.expect("id", f"a {kind} name").value
        self.declare_type(name)
        tps = self.type_params()
        self.push(tps)
        params = self.params()
        if self.accept(";"):
            self.pop()
            return N(kind + "_type", loc, name=name, tparams=tps, params=params)
        if tps:
            raise UnsupportedError(loc, f"unsupported: generic {kind} '{name}'")
        ctor_params = []
        if self.at("("):
            ctor_params = self.params()
            if ctor_params:
                raise UnsupportedError(loc, f"unsupported: {kind} constructor parameters on '{name}'")
        self.expect("{")
        self.push()
        locals_ = []
        states = []
        body = None
        while not self.at("}"):
            lanns = self.annotations()
            lloc = self.tok.loc
            if kind == "parser" and self.at_kw("state"):
                states.append(self.parser_state(lanns))
            elif kind == "control" and self.at_kw("apply"):
                self.next()
                body = self.block()
            elif self.at_kw("action"):
                locals_.append(self.action_decl(lanns))
            elif self.at_kw("table"):
                locals_.append(self.table_decl(lanns))
            elif self.at_kw("const"):
                locals_.append(self.const_decl(lanns))
            elif self.at_kw("value_set"):
                raise UnsupportedError(lloc, "unsupported construct 'value_set'")
            elif self.at_type_start():
                t = self.parse_type()
                if self.at("("):
                    locals_.append(self.instantiation(t, lanns, lloc))
                else:
                    locals_.append(self.var_decl_rest(t, lloc))
            else:
                self.error(f"unexpected {self.tok.value!r} in {kind} '{name}'")
        self.expect("}")
        self.pop()
        self.pop()
        if kind == "control" and body is None:
            self.error(f"control '{name}' has no apply block")
        return N(kind, loc, name=name, params=params, locals=locals_, states=states, body=body,
                 anns=anns)

    def var_decl_rest(self, t, loc):
        name = self.name("a variable name")
        init = None
        if self.accept("="):
            init = self.expr()
        self.expect(";")
        return N("var", loc, name=name, type=t, init=init)

    def instantiation(self, t, anns, loc):
        args = self.args()
        name = self.name("an instance name")
        init = None
        if self.accept("="):
            # object initializer: { method declarations }
            self.expect("{")
            methods = []
            while not self.at("}"):
                self.annotations()
                mloc = self.tok.loc
                rt = self.parse_type()
                mname = self.name("a method name")
                params = self.params()
                body = self.block()
                methods.append(N("function", mloc, name=mname, ret=rt, tparams=[], params=params,
                                 body=body))
            self.expect("}")
            init = methods
        self.expect(";")
        return N("instance", loc, type=t, args=args, name=name, init=init,
                 anns=anns, pname=self.ann_string(anns, "name"))

    def args(self):
        self.expect("(")
        args = []
        if not self.at(")"):
            while True:
                loc = self.tok.loc
                if self.is_name() and self.peek().kind == "=" and self.peek(2).kind != "=":
                    nm = self.next().value
                    self.next()
                    args.append(N("arg", loc, name=nm, value=self.expr()))
                elif self.at("id") and self.tok.value == "_":
                    self.next()
                    args.append(N("arg", loc, name=None, value=N("dontcare", loc)))
                else:
                    args.append(N("arg", loc, name=None, value=self.expr()))
                if not self.accept(","):
                    break
        self.expect(")")
        return args

    def action_decl(self, anns):
        loc = self.expect_kw("action").loc
        name = self.name("an action name")
        params = self.params()
        body = self.block()
        return N("action", loc, name=name, params=params, body=body, anns=anns,
                 pname=self.ann_string(anns, "name"))

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

    # ----- parser states
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

    # ----- statements
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

    # ----- expressions
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


def parse(text, filename="<string>", builtin_types=()):
    p = Parser(tokenize(text, filename))
    p.scopes[0].update(builtin_types)
    return p.program()
