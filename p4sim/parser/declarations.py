"""Declarations: the program, headers/structs/enums, externs, parsers/controls, instances,
actions."""
from ..ast import N
from ..errors import UnsupportedError


class DeclarationsMixin:
    """Declarations: the program, headers/structs/enums, externs, parsers/controls, instances,
    actions."""

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
                if kind != "parser":
                    raise UnsupportedError(lloc, "unsupported construct 'value_set' outside a parser")
                self.next()
                targs = self.type_args()
                self.expect("(")
                size = self.expr()
                self.expect(")")
                vname = self.name("a value_set name")
                self.expect(";")
                locals_.append(N("value_set", lloc, targs=targs, size=size, name=vname))
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
