"""Compile a parsed P4-16/TNA program into Python source, one function per block,
table action and RegisterAction.

Only the compiler writes the generated text: P4 names never reach it (every generated
identifier is a prefix plus a counter), so the user's P4 text is never evaluated.
All packet state (headers, metadata, locals of controls) lives in one flat list ``S`` of
Python ints; every field has a slot index fixed at compile time.  ``bit<W>`` values are
kept in ``0..2**W-1`` and ``int<W>`` values in ``-2**(W-1)..2**(W-1)-1``; every operation
that can leave that range is followed by masking.
"""
from .errors import Loc, P4SemanticError, UnsupportedError
from .runtime import ActionSpec, CounterSpec, KeySpec, RegisterSpec, TableSpec
from .types import (Bits, BlockT, BoolT, EnumT, ErrorT, ExternT, HeaderT, IntT,
                    MatchKindT, StackT, StringT, StructT, VoidT, nslots, same_type,
                    wrap_value)

SUPPORTED_EXTERNS = {"Register", "RegisterAction", "Hash", "CRCPolynomial", "Random",
                     "Counter", "DirectCounter", "Checksum", "Resubmit", "Digest", "Mirror"}


def serr(loc, msg):
    return P4SemanticError(loc, msg)


class Val:
    """Result of compiling an expression."""
    __slots__ = ("code", "t", "const", "lv", "base", "extra")

    def __init__(self, code=None, t=None, const=None, lv=None, base=None, extra=None):
        self.code = code      # Python expression (scalars)
        self.t = t
        self.const = const    # compile-time value, or None
        self.lv = lv          # ('S', idxcode, idxconst) | ('L', name) | ('slice', lv, hi, lo, t)
        self.base = base      # composite: base slot (int, or Python expression string)
        self.extra = extra    # special things: ('type', T), ('table', ..), ...


def tdesc(t):
    """Describe a type for an error message (None: the expression has no value type)."""
    return t.describe() if t is not None else "a non-value (action, table, extern or type)"


def cval(v, t):
    if isinstance(v, bool):
        return Val(code="True" if v else "False", t=t, const=v)
    return Val(code=repr(int(v)), t=t, const=v)


def addb(base, off):
    if isinstance(base, int):
        return base + off
    return f"({base} + {off})" if off else base


class Scope:
    def __init__(self, parent=None):
        self.parent = parent
        self.d = {}

    def lookup(self, name):
        s = self
        while s is not None:
            if name in s.d:
                return s.d[name]
            s = s.parent
        return None

    def __setitem__(self, k, v):
        self.d[k] = v


class Emitter:
    def __init__(self, indent=1):
        self.lines = []
        self.ind = indent

    def line(self, s):
        self.lines.append("    " * self.ind + s)

    def indent(self):
        self.ind += 1

    def dedent(self):
        self.ind -= 1


class FnCtx:
    def __init__(self, kind, ret=None, outs=(), qual=""):
        self.kind = kind   # control / parser / deparser / action / function / ra
        self.ret = ret
        self.outs = list(outs)
        self.qual = qual


class Callable:
    def __init__(self, kind, decl, scope, qual, short):
        self.kind = kind
        self.decl = decl
        self.scope = scope
        self.qual = qual
        self.short = short
        self.pyname = None
        self.params = None      # list of (name, dir, type, pyname or slot base)
        self.ret = None
        self.cp_params = None   # control-plane params (for table actions)


class Inst:
    """An extern, control or parser instance."""

    def __init__(self, kind, qual, decl, t):
        self.kind = kind
        self.qual = qual
        self.decl = decl
        self.t = t
        self.pyname = None
        self.info = {}


def expr_text(e):
    k = e.k
    if k == "name":
        return ("." if e.get("top") else "") + e.name
    if k == "member":
        return f"{expr_text(e.expr)}.{e.name}"
    if k == "index":
        return f"{expr_text(e.expr)}[{expr_text(e.index)}]"
    if k == "slice":
        return f"{expr_text(e.expr)}[{expr_text(e.hi)}:{expr_text(e.lo)}]"
    if k == "int":
        return str(e.value)
    if k == "binop":
        return f"{expr_text(e.left)} {e.op} {expr_text(e.right)}"
    if k == "call":
        return f"{expr_text(e.fn)}()"
    return k


class Compiler:
    def __init__(self, decls, filename):
        self.decls = decls
        self.filename = filename
        self.types = {}
        self.glob = Scope()
        self.nslots = 1
        self.uidn = 0
        self.funcs = []          # generated function source blocks
        self.objects = []        # (pyname, kind, spec)
        self.structs = {}        # format -> pyname
        self.tables = {}         # qual -> TableSpec
        self.registers = {}
        self.counters = {}
        self.error_members = []
        self.error_t = ErrorT(self.error_members)
        self.match_kinds = set()
        self.ucast_slot = None
        self.ucast_flag = None
        self.instances = []
        self.pipeline = None
        self.layout = {}
        self.cur_loc = None
        self.compiled_blocks = set()
        self.sel_fields = {}     # deparser selector slot -> its "written" flag slot
        self.gress = None        # "ig"/"eg" while compiling a pipeline block

    # ------------------------------------------------------------ helpers
    def uid(self, prefix):
        self.uidn += 1
        return f"{prefix}{self.uidn}"

    def alloc(self, t):
        base = self.nslots
        self.nslots += nslots(t)
        return base

    def struct_fmt(self, fmt):
        if fmt not in self.structs:
            name = self.uid("ST")
            self.structs[fmt] = name
        return self.structs[fmt]

    def add_object(self, kind, spec, prefix):
        name = self.uid(prefix)
        self.objects.append((name, kind, spec))
        return name

    def scalar(self, v, loc, what):
        """``v`` if it is a number (bit/int/enum/bool value), else a located error: the
        generated code never sees a header, struct or non-value where a number belongs."""
        t = self.scalar_t(v.t)
        if v.code is None or not isinstance(t, (Bits, IntT)):
            raise serr(loc, f"{what} must be a number, not {tdesc(v.t)}")
        return v

    def const_in(self, node, scope, fc, what):
        """A compile-time integer evaluated in ``scope`` (control-local constants too)."""
        v = self.expr(node, scope, fc, None)
        if v.const is None or isinstance(v.const, bool):
            raise serr(node.loc, f"{what} must be a compile-time integer constant")
        return int(v.const)

    def const_int(self, node, what="value"):
        v = self.expr(node, self.glob, None, None)
        if v.const is None or isinstance(v.const, bool):
            raise serr(node.loc, f"{what} must be a compile-time integer constant")
        return int(v.const)

    @staticmethod
    def aliases(pname, scope_qual):
        """Extra control-plane names from @name("x") (scoped) or @name(".x") (global)."""
        if not pname:
            return []
        if pname.startswith("."):
            return [pname[1:]]
        return [f"{scope_qual}.{pname}" if scope_qual else pname]

    # ------------------------------------------------------------ types
    def resolve_type(self, node, tparams=None, allow_dontcare=False):
        k = node.k
        if k == "dontcare_t" and not allow_dontcare:
            raise serr(node.loc, "'_' is not a type here")
        if k == "bits":
            w = self.const_int(node.width, "bit width")
            if w <= 0 or w > 4096:
                raise serr(node.loc, f"invalid bit width {w}")
            return Bits(w, node.signed)
        if k == "bool":
            return BoolT()
        if k == "infint":
            return IntT()
        if k == "void":
            return VoidT()
        if k == "errortype":
            return self.error_t
        if k == "string":
            return StringT()
        if k == "dontcare_t":
            return None
        if k == "stack":
            elem = self.resolve_type(node.elem, tparams)
            if not isinstance(elem, HeaderT):
                raise serr(node.loc, f"header stack element must be a header, not {tdesc(elem)}")
            size = self.const_int(node.size, "stack size")
            if size <= 0:
                raise serr(node.loc, "header stack size must be positive")
            return StackT(elem, size)
        if k == "tname":
            if tparams and node.name in tparams:
                return tparams[node.name]
            t = self.types.get(node.name)
            if t is None:
                raise serr(node.loc, f"unknown type '{node.name}'")
            if isinstance(t, ExternT):
                return ExternT(t.name, t.decl, [self.resolve_type(a, tparams, True) for a in node.args])
            if node.args and not isinstance(t, BlockT):
                raise serr(node.loc, f"type '{node.name}' is not generic")
            return t
        raise serr(node.loc, f"not a type: {k}")

    def scalar_t(self, t):
        if isinstance(t, EnumT) and t.underlying is not None:
            return t.underlying
        return t

    # ------------------------------------------------------------ top level
    def compile(self):
        for d in self.decls:
            self.declare(d)
        main = self.glob.lookup("main")
        if main is None or main.extra is None or main.extra[0] != "package":
            self.check_unused_blocks()
            raise serr(self.decls[-1].loc if self.decls else Loc(self.filename, 1, 1),
                       "program has no package instance named 'main' (e.g. Switch(pipe) main;)")
        self.compile_main(main.extra[1])
        self.check_unused_blocks()

    def check_unused_blocks(self):
        """Type-check parsers/controls the pipeline does not use (as p4c would)."""
        for d in self.decls:
            if d.k not in ("parser", "control") or id(d) in self.compiled_blocks:
                continue
            binds = []
            for p in d.params:
                t = self.resolve_type(p.type)
                if isinstance(t, ExternT) and t.name in ("packet_in", "packet_out"):
                    binds.append(Val(extra=("packet", t.name[7:])))
                elif t is None or isinstance(t, (ExternT, BlockT)):
                    raise UnsupportedError(p.loc, f"unsupported parameter type for '{p.name}'")
                elif t.composite:
                    base = self.alloc(t)
                    binds.append(Val(t=t, base=base, lv=("C", base)))
                else:
                    base = self.alloc(t)
                    binds.append(Val(code=f"S[{base}]", t=t, lv=("S", str(base), base)))
            if d.k == "parser":
                self.compile_parser(d, binds)
            else:
                deparser = bool(binds) and binds[0].extra is not None and binds[0].extra[1] == "out"
                self.compile_control(d, d.name + "(unused)", binds, deparser)

    def declare(self, d):
        self.cur_loc = d.loc
        k = d.k
        if k == "error_decl":
            for n in d.names:
                if n not in self.error_members:
                    self.error_members.append(n)
        elif k == "match_kind_decl":
            self.match_kinds.update(d.names)
        elif k == "typedef":
            t = self.resolve_type(d.type)
            if t is None or isinstance(t, (ExternT, BlockT)):
                raise UnsupportedError(d.loc, f"unsupported typedef '{d.name}' of a non-data type")
            self.types[d.name] = t
        elif k == "header":
            fields = []
            for f in d.fields:
                ft = self.resolve_type(f.type)
                ft2 = self.scalar_t(ft)
                if not isinstance(ft2, (Bits, BoolT)):
                    raise UnsupportedError(f.loc, f"header '{d.name}' field '{f.name}': "
                                                  f"unsupported field type {tdesc(ft)}")
                fields.append((f.name, ft))
            ht = HeaderT(d.name, fields)
            self.types[d.name] = ht
        elif k == "struct":
            fields = []
            for f in d.fields:
                ft = self.resolve_type(f.type)
                if ft is None or isinstance(ft, (ExternT, BlockT, VoidT, IntT, StringT)):
                    raise UnsupportedError(f.loc, f"struct '{d.name}' field '{f.name}': "
                                                  f"unsupported field type")
                fields.append((f.name, ft))
            self.types[d.name] = StructT(d.name, fields)
        elif k == "enum":
            und = self.resolve_type(d.underlying) if d.underlying else None
            members = {}
            et = EnumT(d.name, members, und)
            for i, m in enumerate(d.members):
                if und is not None:
                    members[m.name] = wrap_value(self.const_int(m.value, "enum value"), und)
                else:
                    members[m.name] = i
            self.types[d.name] = et
        elif k == "const":
            t = self.resolve_type(d.type)
            v = self.expr(d.value, self.glob, None, None)
            if v.const is None:
                raise serr(d.loc, f"constant '{d.name}' needs a compile-time value")
            cv = self.convert(v, t, d.loc, f"constant '{d.name}'")
            self.glob[d.name] = cval(cv.const, t)
        elif k == "extern":
            self.types[d.name] = ExternT(d.name, d)
        elif k == "extern_fn":
            self.glob[d.name] = Val(extra=("extern_fn", d))
        elif k in ("parser", "control", "parser_type", "control_type", "package"):
            self.types[d.name] = BlockT(k, d.name, d)
        elif k in ("action", "function"):
            cal = Callable(k, d, self.glob, d.name, d.name)
            self.glob[d.name] = Val(extra=(k, cal))
            self.ensure_callable(cal)
        elif k == "instance":
            t = self.resolve_type(d.type)
            if isinstance(t, BlockT) and t.kind == "package":
                self.glob[d.name] = Val(extra=("package", d))
            else:
                self.instantiate(d, self.glob, d.name, None)
        else:
            raise UnsupportedError(d.loc, f"unsupported top-level declaration '{k}'")

    # ------------------------------------------------------------ pipeline
    def block_of(self, arg, what):
        v = arg.value
        if v.k == "call" and v.fn.k == "name" and not v.args:
            t = self.types.get(v.fn.name)
            if isinstance(t, BlockT) and t.kind in ("parser", "control"):
                return t.decl
        if v.k == "name":
            b = self.glob.lookup(v.name)
            if b is not None and b.extra and b.extra[0] == "package":
                return b.extra[1]
        raise UnsupportedError(arg.loc, f"unsupported {what} argument '{expr_text(v)}'")

    def compile_main(self, main_decl):
        t = self.resolve_type(main_decl.type)
        if t.name != "Switch":
            raise UnsupportedError(main_decl.loc, f"main must be a TNA 'Switch' package, not '{t.name}'")
        if len(main_decl.args) != 1:
            raise UnsupportedError(main_decl.loc, "only a Switch with one pipeline (pipe0) is supported")
        a = main_decl.args[0].value
        if a.k == "name":
            pv = self.glob.lookup(a.name)
            if pv is None or not pv.extra or pv.extra[0] != "package":
                raise serr(a.loc, f"'{a.name}' is not a Pipeline instance")
            pipe = pv.extra[1]
            pargs = pipe.args
            ploc = pipe.loc
        elif a.k == "call":
            pargs = a.args
            ploc = a.loc
        else:
            raise UnsupportedError(a.loc, "unsupported Switch argument")
        if len(pargs) != 6:
            raise UnsupportedError(ploc, "Pipeline needs 6 blocks (ingress parser, ingress, "
                                         "ingress deparser, egress parser, egress, egress deparser)")
        blocks = [self.block_of(x, "Pipeline") for x in pargs]
        kinds = ["parser", "control", "control", "parser", "control", "control"]
        for b, kd, x in zip(blocks, kinds, pargs):
            if b.k != kd:
                raise serr(x.loc, f"Pipeline argument '{b.name}' must be a {kd}")
        T = self.types
        intr = {n: T[n] for n in (
            "ingress_intrinsic_metadata_t", "ingress_intrinsic_metadata_for_tm_t",
            "ingress_intrinsic_metadata_from_parser_t", "ingress_intrinsic_metadata_for_deparser_t",
            "egress_intrinsic_metadata_t", "egress_intrinsic_metadata_from_parser_t",
            "egress_intrinsic_metadata_for_deparser_t", "egress_intrinsic_metadata_for_output_port_t")}

        def role(name, t):
            base = self.alloc(t)
            self.layout[name] = (base, t)
            return Val(t=t, base=base, lv=("C", base))

        def data_t(block, i, what):
            if len(block.params) <= i:
                raise serr(block.loc, f"{block.k} '{block.name}' needs a {what} parameter")
            return self.resolve_type(block.params[i].type)

        ig = {}
        ig["H"] = role("ig_hdr", data_t(blocks[0], 1, "header"))
        ig["M"] = role("ig_md", data_t(blocks[0], 2, "metadata"))
        ig["intr"] = role("ig_intr_md", intr["ingress_intrinsic_metadata_t"])
        ig["tm"] = role("ig_tm_md", intr["ingress_intrinsic_metadata_for_tm_t"])
        ig["prsr"] = role("ig_prsr_md", intr["ingress_intrinsic_metadata_from_parser_t"])
        ig["dprsr"] = role("ig_dprsr_md", intr["ingress_intrinsic_metadata_for_deparser_t"])
        tm_t = intr["ingress_intrinsic_metadata_for_tm_t"]
        self.ucast_slot = ig["tm"].base + tm_t.offsets["ucast_egress_port"]
        self.ucast_flag = self.alloc(Bits(1))
        self.layout["ucast_valid"] = (self.ucast_flag, Bits(1))
        eg = {}
        eg["H"] = role("eg_hdr", data_t(blocks[3], 1, "header"))
        eg["M"] = role("eg_md", data_t(blocks[3], 2, "metadata"))
        eg["intr"] = role("eg_intr_md", intr["egress_intrinsic_metadata_t"])
        eg["prsr"] = role("eg_prsr_md", intr["egress_intrinsic_metadata_from_parser_t"])
        eg["dprsr"] = role("eg_dprsr_md", intr["egress_intrinsic_metadata_for_deparser_t"])
        eg["oport"] = role("eg_oport_md", intr["egress_intrinsic_metadata_for_output_port_t"])
        # digest_type/resubmit_type/mirror_type select the deparser's digest, resubmit and
        # mirror field lists only once written (they are invalid until then on Tofino)
        for rname, fields in (("ig_dprsr_md", ("digest_type", "resubmit_type", "mirror_type")),
                              ("eg_dprsr_md", ("mirror_type",))):
            rbase, rt_ = self.layout[rname]
            for f in fields:
                self.sel_fields[rbase + rt_.offsets[f]] = self.alloc(Bits(1))
        PK_IN = Val(extra=("packet", "in"))
        PK_OUT = Val(extra=("packet", "out"))
        roles = [
            [PK_IN, ig["H"], ig["M"], ig["intr"], ig["tm"], ig["prsr"]],
            [ig["H"], ig["M"], ig["intr"], ig["prsr"], ig["dprsr"], ig["tm"]],
            [PK_OUT, ig["H"], ig["M"], ig["dprsr"], ig["intr"], ig["prsr"]],
            [PK_IN, eg["H"], eg["M"], eg["intr"], eg["prsr"]],
            [eg["H"], eg["M"], eg["intr"], eg["prsr"], eg["dprsr"], eg["oport"]],
            [PK_OUT, eg["H"], eg["M"], eg["dprsr"], eg["intr"], eg["prsr"]],
        ]
        names = []
        for i, (b, rl) in enumerate(zip(blocks, roles)):
            self.gress = "ig" if i < 3 else "eg"
            if len(b.params) > len(rl):
                raise serr(b.loc, f"{b.k} '{b.name}' has {len(b.params)} parameters; TNA allows {len(rl)}")
            binds = []
            for p, r in zip(b.params, rl):
                pt = self.resolve_type(p.type)
                if r.extra:
                    if not (isinstance(pt, ExternT) and pt.name == ("packet_in" if r.extra[1] == "in" else "packet_out")):
                        raise serr(p.loc, f"parameter '{p.name}' of '{b.name}' must be packet_{r.extra[1]}")
                elif not same_type(pt, r.t):
                    raise serr(p.loc, f"parameter '{p.name}' of '{b.name}' has type {tdesc(pt)}, "
                                      f"expected {tdesc(r.t)}")
                binds.append(r)
            if b.k == "parser":
                names.append(self.compile_parser(b, binds))
            else:
                deparser = bool(binds) and binds[0].extra is not None
                names.append(self.compile_control(b, b.name, binds, deparser))
        self.gress = None
        self.pipeline = names

    # ------------------------------------------------------------ instances
    def instantiate(self, d, scope, qual, fc):
        t = self.resolve_type(d.type)
        name = d.name
        if isinstance(t, BlockT):
            if t.kind not in ("control", "parser"):
                raise UnsupportedError(d.loc, f"unsupported instantiation of {t.kind} '{t.name}'")
            if d.args:
                raise UnsupportedError(d.loc, f"{t.kind} constructor arguments are not supported")
            inst = Inst(t.kind, qual, t.decl, t)
            scope[name] = Val(extra=("control_inst", inst))
            return
        if not isinstance(t, ExternT):
            raise serr(d.loc, f"cannot instantiate {tdesc(t) if t else '_'}")
        if t.name not in SUPPORTED_EXTERNS:
            raise UnsupportedError(d.loc, f"unsupported extern '{t.name}'")
        args = [a.value for a in d.args]
        inst = Inst(t.name, qual, d, t)
        v = Val(t=t, extra=("extern", inst))
        if t.name == "Register":
            if len(t.targs) != 2:
                raise serr(d.loc, "Register needs <T, I> type arguments")
            et = t.targs[0]
            if isinstance(et, (Bits,)):
                fields = [(None, et.width, et.signed)]
            elif isinstance(et, StructT) and len(et.fields) == 2 and all(
                    isinstance(ft, Bits) for _, ft in et.fields):
                fields = [(fn, ft.width, ft.signed) for fn, ft in et.fields]
            else:
                raise UnsupportedError(d.loc, f"register '{qual}': unsupported element type "
                                              f"{tdesc(et) if et else '_'} (bit<W>, int<W> or a "
                                              f"struct of two such fields)")
            if not args:
                raise serr(d.loc, f"register '{qual}' needs a size")
            size = self.const_in(args[0], scope, fc, "register size")
            if size <= 0:
                raise serr(d.loc, f"register '{qual}' size must be positive")
            init = tuple(0 for _ in fields)
            if len(args) > 1:
                iv = args[1]
                if len(fields) == 1:
                    init = (wrap_value(self.const_in(iv, scope, fc, "initial value"), et),)
                elif iv.k == "list" and len(iv.items) == 2:
                    items = [x.value if x.k == "kv" else x for x in iv.items]
                    init = tuple(wrap_value(self.const_in(x, scope, fc, "initial value"), ft)
                                 for x, (_, ft) in zip(items, et.fields))
                else:
                    raise UnsupportedError(iv.loc, "unsupported register initial value")
            spec = RegisterSpec(qual, size, fields, init, d.loc)
            spec.aliases = self.aliases(d.pname, qual.rsplit(".", 1)[0] if "." in qual else "")
            if qual in self.registers:
                raise serr(d.loc, f"duplicate register name '{qual}'")
            self.registers[qual] = spec
            inst.pyname = self.add_object("register", spec, "R")
            inst.info.update(elem=et, idx=t.targs[1], size=size, spec=spec)
        elif t.name == "RegisterAction":
            if len(t.targs) != 3 or len(args) != 1:
                raise serr(d.loc, "RegisterAction needs <T, I, U> and a register argument")
            rv = self.expr(args[0], scope, fc, None)
            if not rv.extra or rv.extra[0] != "extern" or rv.extra[1].kind != "Register":
                raise serr(args[0].loc, "RegisterAction argument must be a Register")
            reg = rv.extra[1]
            if not d.init or len(d.init) != 1 or d.init[0].name != "apply":
                raise UnsupportedError(d.loc, f"RegisterAction '{qual}' needs exactly one "
                                              f"'apply' method")
            inst.pyname = self.compile_register_action(inst, reg, t.targs[2], d.init[0], scope)
        elif t.name == "Hash":
            if len(t.targs) != 1 or not isinstance(t.targs[0], Bits):
                raise serr(d.loc, "Hash needs a bit<W> type argument")
            if not args:
                raise serr(d.loc, "Hash needs an algorithm")
            algo = self.expr(args[0], scope, fc, None)
            if not isinstance(algo.t, EnumT) or algo.t.name != "HashAlgorithm_t" or algo.const is None:
                raise serr(args[0].loc, "Hash algorithm must be a HashAlgorithm_t member")
            aname = [k for k, vv in algo.t.members.items() if vv == algo.const][0]
            custom = None
            if aname not in ("IDENTITY", "CRC8", "CRC16", "CRC32", "CRC64", "CUSTOM"):
                raise UnsupportedError(args[0].loc, f"unsupported hash algorithm '{aname}'")
            if len(args) > 1:
                pv = self.expr(args[1], scope, fc, None)
                if not pv.extra or pv.extra[0] != "extern" or pv.extra[1].kind != "CRCPolynomial":
                    raise serr(args[1].loc, "second Hash argument must be a CRCPolynomial")
                custom = pv.extra[1].info["params"]
                aname = "CUSTOM"
            elif aname == "CUSTOM":
                raise serr(d.loc, "CUSTOM hash needs a CRCPolynomial")
            inst.pyname = self.add_object("hash", (t.targs[0].width, aname, custom), "H")
            inst.info["symmetric"] = [
                (an.body[0].value, an.body[2].value, an.loc) for an in (d.get("anns") or ())
                if an.name == "symmetric" and len(an.body) == 3 and an.body[0].kind == "str"
                and an.body[2].kind == "str"]
        elif t.name == "CRCPolynomial":
            if len(args) != 6 or not t.targs or not isinstance(t.targs[0], Bits):
                raise serr(d.loc, "CRCPolynomial<bit<W>>(coeff, reversed, msb, extended, init, xor)")
            vals = [self.expr(a, scope, fc, None) for a in args]
            if any(x.const is None for x in vals):
                raise serr(d.loc, "CRCPolynomial arguments must be constants")
            w = t.targs[0].width
            coeff = int(vals[0].const)
            if vals[2].const:   # msb: coefficient includes the x^W term
                coeff &= (1 << w) - 1
            if vals[3].const:
                raise UnsupportedError(d.loc, "CRCPolynomial 'extended' is not supported")
            inst.info["params"] = (w, coeff, int(vals[4].const), bool(vals[1].const), int(vals[5].const))
        elif t.name == "Random":
            if len(t.targs) != 1 or not isinstance(t.targs[0], Bits):
                raise serr(d.loc, "Random needs a bit<W> type argument")
            inst.pyname = self.add_object("random", t.targs[0].width, "RN")
        elif t.name == "Counter":
            size = self.const_in(args[0], scope, fc, "counter size") if args else 0
            spec = CounterSpec(qual, size, "PACKETS_AND_BYTES")
            self.counters[qual] = spec
            inst.pyname = self.add_object("counter", spec, "C")
        elif t.name == "DirectCounter":
            inst.pyname = None
        elif t.name == "Checksum":
            inst.pyname = self.add_object("checksum", None, "CK")
        elif t.name in ("Resubmit", "Mirror"):
            inst.pyname = None
            if args:
                inst.info["type_id"] = self.const_in(args[0], scope, fc, f"{t.name} type")
        elif t.name == "Digest":
            if args:
                inst.info["type_id"] = self.const_in(args[0], scope, fc, "Digest type")
            dt = t.targs[0] if t.targs else None
            if not isinstance(dt, (StructT, HeaderT)) or any(ft.composite for _, ft in dt.fields):
                raise UnsupportedError(d.loc, f"Digest '{qual}' needs a struct of scalar fields")
            inst.pyname = self.add_object("digest", (qual, [f for f, _ in dt.fields]), "DG")
            inst.info["t"] = dt
        scope[name] = v

    # ------------------------------------------------------------ register action
    def compile_register_action(self, inst, reg, ut, fn, scope):
        pyname = self.uid("ra")
        rinfo = reg.info
        et = rinfo["elem"]
        sc = Scope(scope)
        em = Emitter(1)
        params = fn.params
        if not 1 <= len(params) <= 2:
            raise serr(fn.loc, f"RegisterAction '{inst.qual}' apply needs (inout value[, out result])")
        pvt = self.resolve_type(params[0].type)
        if not same_type(pvt, et) and not (isinstance(pvt, StructT) and isinstance(et, StructT)
                                           and pvt.name == et.name):
            raise serr(params[0].loc, f"RegisterAction '{inst.qual}': value type {tdesc(pvt)} does "
                                      f"not match register element type {tdesc(et)}")
        size = rinfo["size"]
        R = reg.pyname
        em.line(f"r = {R}")
        em.line("if r.last is S:")
        em.line("    r.conflict()")
        em.line("r.last = S")
        if size & (size - 1) == 0:
            em.line(f"idx &= {size - 1}")
        else:
            em.line(f"idx %= {size}")
        if isinstance(et, Bits):
            em.line(f"vv = {R}_d0[idx]")
            sc[params[0].name] = Val(code="vv", t=et, lv=("L", "vv"))
            stores = [f"{R}_d0[idx] = vv"]
        else:
            fields = {}
            stores = []
            for i, (fname, ft) in enumerate(et.fields):
                ln = f"vv{i}"
                em.line(f"{ln} = {R}_d{i}[idx]")
                fields[fname] = Val(code=ln, t=ft, lv=("L", ln))
                stores.append(f"{R}_d{i}[idx] = {ln}")
            sc[params[0].name] = Val(t=et, extra=("lstruct", fields))
        if len(params) == 2:
            rt = self.resolve_type(params[1].type)
            if not same_type(rt, ut):
                raise serr(params[1].loc, f"RegisterAction '{inst.qual}': result type {tdesc(rt)} "
                                          f"does not match U = {tdesc(ut)}")
            em.line("rv = 0")
            sc[params[1].name] = Val(code="rv", t=ut, lv=("L", "rv"))
        else:
            em.line("rv = 0")
        fc = FnCtx("ra", qual=inst.qual)
        self.block(fn.body, sc, fc, em)
        for s in stores:
            em.line(s)
        em.line("return rv")
        self.funcs.append(f"def {pyname}(S, idx):\n" + "\n".join(em.lines))
        inst.info["ut"] = ut
        return pyname

    # ------------------------------------------------------------ parsers
    def compile_parser(self, decl, binds):
        self.compiled_blocks.add(id(decl))
        pyname = self.uid("prs")
        sc = Scope(self.glob)
        for p, b in zip(decl.params, binds):
            sc[p.name] = b
        fc = FnCtx("parser", qual=decl.name)
        em = Emitter(1)
        em.line("n = len(B)")
        self.control_locals(decl, sc, fc, decl.name, em)
        states = {s.name: i for i, s in enumerate(decl.states)}
        for s in decl.states:
            if s.name in ("accept", "reject"):
                raise serr(s.loc, f"state '{s.name}' cannot be declared")
        if "start" not in states:
            raise serr(decl.loc, f"parser '{decl.name}' has no 'start' state")
        em.line(f"st = {states['start']}")
        em.line("steps = 0")
        em.line("while True:")
        em.indent()
        for i, s in enumerate(decl.states):
            em.line(("if" if i == 0 else "elif") + f" st == {i}:")
            em.indent()
            ssc = Scope(sc)
            for stmt in s.stmts:
                self.stmt(stmt, ssc, fc, em)
            tr = s.trans
            if tr is None:
                em.line("raise Reject('NoMatch')")
            elif tr.k == "goto":
                self.goto(tr.state, tr.loc, states, em)
            else:
                keys = [self.expr(x, ssc, fc, em) for x in tr.exprs]
                for kv in keys:
                    if not isinstance(self.scalar_t(kv.t), (Bits, BoolT, EnumT, ErrorT)):
                        raise serr(tr.loc, "select key must be a scalar")
                knames = []
                for j, kv in enumerate(keys):
                    kn = f"k{j}"
                    em.line(f"{kn} = {kv.code}")
                    knames.append(kn)
                first = True
                for c in tr.cases:
                    conds = self.keyset_conds(c.keys, keys, knames, ssc, fc, c.loc)
                    cond = " and ".join(conds) if conds else "True"
                    em.line(("if " if first else "elif ") + cond + ":")
                    first = False
                    em.indent()
                    self.goto(c.state, c.loc, states, em)
                    em.dedent()
                if first:
                    em.line("raise Reject('NoMatch')")
                else:
                    em.line("else:")
                    em.line("    raise Reject('NoMatch')")
            em.dedent()
        em.dedent()
        self.funcs.append(f"def {pyname}(S, B, off):\n" + "\n".join(em.lines))
        return pyname

    def goto(self, name, loc, states, em):
        if name == "accept":
            em.line("return off")
        elif name == "reject":
            em.line("raise Reject('Reject')")
        elif name in states:
            em.line(f"st = {states[name]}")
            em.line("steps += 1")
            em.line("if steps > 1024: raise Reject('ParserTimeout')")
            em.line("continue")
        else:
            raise serr(loc, f"unknown parser state '{name}'")

    def keyset_conds(self, ks, keys, knames, sc, fc, loc):
        if len(ks) == 1 and ks[0].k == "ks_default":
            return []
        if len(ks) != len(keys):
            raise serr(loc, f"select case has {len(ks)} keysets for {len(keys)} keys")
        conds = []
        for k, kv, kn in zip(ks, keys, knames):
            kt = self.scalar_t(kv.t)
            if k.k == "ks_default":
                continue
            if k.k == "ks_expr":
                v = self.const_of(k.value, sc, fc, kt, "select case value")
                conds.append(f"{kn} == {v!r}")
            elif k.k == "ks_mask":
                v = self.const_of(k.value, sc, fc, kt, "select case value")
                m = self.const_of(k.mask, sc, fc, kt, "select case mask")
                um = m & ((1 << kt.width) - 1)
                conds.append(f"({kn} & {um}) == {v & um}")
            elif k.k == "ks_range":
                lo = self.const_of(k.low, sc, fc, kt, "range low")
                hi = self.const_of(k.high, sc, fc, kt, "range high")
                conds.append(f"{lo} <= {kn} <= {hi}")
        return conds

    def const_of(self, node, sc, fc, t, what):
        v = self.expr(node, sc, fc, None)
        if v.const is None:
            raise serr(node.loc, f"{what} must be a compile-time constant")
        c = self.convert(v, t, node.loc, what)
        return int(c.const)

    # ------------------------------------------------------------ controls
    def control_locals(self, decl, sc, fc, qual, em):
        for loc_ in decl.locals:
            k = loc_.k
            if k == "var":
                t = self.resolve_type(loc_.type)
                self.declare_var(loc_, t, sc, fc, em, static=True)
            elif k == "const":
                t = self.resolve_type(loc_.type)
                v = self.expr(loc_.value, sc, fc, em)
                if v.const is None:
                    raise serr(loc_.loc, f"constant '{loc_.name}' needs a compile-time value")
                sc[loc_.name] = cval(self.convert(v, t, loc_.loc, loc_.name).const, t)
            elif k == "action":
                cal = Callable("action", loc_, sc, f"{qual}.{loc_.name}", loc_.name)
                sc[loc_.name] = Val(extra=("action", cal))
                self.ensure_callable(cal)   # type-check every action, used or not
            elif k == "table":
                sc[loc_.name] = Val(extra=("table", self.compile_table(loc_, sc, fc, qual)))
            elif k == "instance":
                self.instantiate(loc_, sc, f"{qual}.{loc_.name}", fc)
            else:
                raise UnsupportedError(loc_.loc, f"unsupported declaration '{k}' in '{decl.name}'")

    def compile_control(self, decl, qual, binds, deparser=False):
        self.compiled_blocks.add(id(decl))
        pyname = self.uid("dep" if deparser else "ctl")
        sc = Scope(self.glob)
        for p, b in zip(decl.params, binds):
            sc[p.name] = b
        fc = FnCtx("deparser" if deparser else "control", qual=qual)
        em = Emitter(1)
        self.control_locals(decl, sc, fc, qual, em)
        body = Emitter(1)
        self.block(decl.body, Scope(sc), fc, body)
        em.lines.extend(body.lines)
        em.line("return")
        sig = "(S, O)" if deparser else "(S)"
        # control-level initialisers run at the start of each apply
        self.funcs.append(f"def {pyname}{sig}:\n" + "\n".join(em.lines))
        return pyname

    def declare_var(self, d, t, sc, fc, em, static):
        if t is None or isinstance(t, (ExternT, BlockT, VoidT, StringT)):
            raise UnsupportedError(d.loc, f"unsupported variable type for '{d.name}'")
        if isinstance(t, IntT):
            if d.init is None:
                raise serr(d.loc, f"'{d.name}' of type int needs a constant initialiser")
            v = self.expr(d.init, sc, fc, em)
            if v.const is None:
                raise serr(d.loc, f"'{d.name}' of type int needs a constant initialiser")
            sc[d.name] = v
            return
        if d.get("const"):
            v = self.expr(d.init, sc, fc, em)
            if v.const is not None:
                sc[d.name] = cval(self.convert(v, t, d.loc, d.name).const, t)
                return
        if t.composite:
            base = self.alloc(t)
            val = Val(t=t, base=base, lv=("C", base))
            # composite locals start invalid / zero on every execution
            em.line(f"S[{base}:{base + t.nslots}] = ZERO[:{t.nslots}]")
            sc[d.name] = val
            if d.init is not None:
                self.assign_to(val, d.init, sc, fc, em, d.loc)
            return
        if static:
            slot = self.alloc(t)
            val = Val(code=f"S[{slot}]", t=t, lv=("S", str(slot), slot))
            em.line(f"S[{slot}] = {'False' if isinstance(t, BoolT) else '0'}")
        else:
            name = self.uid("v")
            val = Val(code=name, t=t, lv=("L", name))
            em.line(f"{name} = {'False' if isinstance(t, BoolT) else '0'}")
        sc[d.name] = val
        if d.init is not None:
            self.assign_to(val, d.init, sc, fc, em, d.loc)

    # ------------------------------------------------------------ tables
    def compile_table(self, d, sc, fc, qual):
        qname = f"{qual}.{d.name}"
        props = d.props
        for p in props:
            if p not in ("key", "actions", "default_action", "size", "entries", "counters"):
                raise UnsupportedError(props[p].loc, f"table '{qname}': unsupported property '{p}'")
        keys = []
        keycode = []
        for kd in (props["key"].value if "key" in props else []):
            kv = self.expr(kd.expr, sc, fc, None)
            kt = self.scalar_t(kv.t)
            if not isinstance(kt, (Bits, BoolT, ErrorT, EnumT)):
                raise serr(kd.loc, f"table '{qname}': key '{expr_text(kd.expr)}' is not a scalar")
            if kd.match not in ("exact", "ternary", "lpm", "range"):
                raise UnsupportedError(kd.loc, f"table '{qname}': unsupported match kind '{kd.match}'")
            kname = kd.pname or expr_text(kd.expr)
            keys.append(KeySpec(kname, kd.match, kt.width, getattr(kt, "signed", False)))
            keycode.append(kv.code)
        if sum(1 for k in keys if k.match == "lpm") > 1:
            raise serr(d.loc, f"table '{qname}': at most one lpm key")
        if "actions" not in props:
            raise serr(d.loc, f"table '{qname}' has no actions")
        actions = []
        for ar in props["actions"].value:
            e = ar.expr
            if e.k == "call":
                if e.args:
                    raise UnsupportedError(ar.loc, f"table '{qname}': action arguments in the "
                                                   f"actions list are not supported")
                e = e.fn
            av = self.expr(e, sc, fc, None)
            if not av.extra or av.extra[0] != "action":
                raise serr(ar.loc, f"table '{qname}': '{expr_text(e)}' is not an action")
            cal = av.extra[1]
            self.ensure_callable(cal)
            if any(p[1] for p in cal.params):
                raise UnsupportedError(ar.loc, f"table '{qname}': action '{cal.qual}' has directional "
                                               f"parameters")
            actions.append(ActionSpec(cal.qual, cal.short, cal.pyname, cal.cp_params,
                                      ar.defaultonly, ar.tableonly))

        def find_action(node, what):
            e = node
            args = []
            if e.k == "call":
                args = e.args
                e = e.fn
            text = expr_text(e)
            av = self.expr(e, sc, fc, None)
            if not av.extra or av.extra[0] != "action":
                raise serr(node.loc, f"table '{qname}': {what} '{text}' is not an action")
            cal = av.extra[1]
            idx = [i for i, a in enumerate(actions) if a.name == cal.qual]
            if not idx:
                raise serr(node.loc, f"table '{qname}': {what} '{text}' is not in its actions list")
            i = idx[0]
            if len(args) != len(cal.cp_params):
                raise serr(node.loc, f"table '{qname}': {what} '{text}' needs {len(cal.cp_params)} "
                                     f"arguments")
            vals = []
            for a, (pn, w, sg) in zip(args, cal.cp_params):
                v = self.expr(a.value, sc, fc, None)
                if v.const is None:
                    raise serr(a.loc, f"table '{qname}': argument '{pn}' must be constant")
                vals.append(wrap_value(int(v.const), Bits(w, sg)))
            return i, tuple(vals)

        if "default_action" in props:
            dprop = props["default_action"]
            default = find_action(dprop.value, "default action")
            dconst = dprop.const
        else:
            noop = [i for i, a in enumerate(actions) if a.short == "NoAction"]
            if noop:
                default = (noop[0], ())
            else:
                actions.append(ActionSpec("NoAction", "NoAction", "NOOP", [], True, False))
                default = (len(actions) - 1, ())
            dconst = False
        size = self.const_in(props["size"].value, sc, fc, "table size") if "size" in props else 0
        has_dc = False
        if "counters" in props:
            cv = self.expr(props["counters"].value, sc, fc, None)
            if not cv.extra or cv.extra[0] != "extern" or cv.extra[1].kind != "DirectCounter":
                raise serr(props["counters"].loc, f"table '{qname}': counters must be a DirectCounter")
            has_dc = True
        const_entries = []
        if "entries" in props:
            for prio, ent in enumerate(props["entries"].value):
                if len(ent.keys) != len(keys):
                    raise serr(ent.loc, f"table '{qname}': entry has {len(ent.keys)} keys, "
                                        f"table has {len(keys)}")
                norm = []
                for kn, ks in zip(ent.keys, keys):
                    t = Bits(ks.width, ks.signed)
                    full = (1 << ks.width) - 1
                    if kn.k == "ks_default":
                        norm.append((1, 0, 0) if ks.match != "range" else (2, -(1 << 64), 1 << 64))
                    elif kn.k == "ks_expr":
                        v = self.const_of(kn.value, sc, fc, t, "entry key")
                        norm.append((0, v, None) if ks.match == "exact" else
                                    ((2, v, v) if ks.match == "range" else (1, v & full, full)))
                    elif kn.k == "ks_mask":
                        v = self.const_of(kn.value, sc, fc, t, "entry key")
                        m = self.const_of(kn.mask, sc, fc, t, "entry mask") & full
                        if ks.match not in ("ternary", "lpm"):
                            raise serr(kn.loc, f"table '{qname}': mask on {ks.match} key '{ks.name}'")
                        norm.append((1, v & m, m))
                    elif kn.k == "ks_range":
                        if ks.match != "range":
                            raise serr(kn.loc, f"table '{qname}': range on {ks.match} key '{ks.name}'")
                        norm.append((2, self.const_of(kn.low, sc, fc, t, "range"),
                                     self.const_of(kn.high, sc, fc, t, "range")))
                aidx, args = find_action(ent.action, "entry action")
                if all(k.match == "exact" for k in keys):
                    key = tuple(n[1] for n in norm)
                else:
                    key = tuple(norm)
                const_entries.append(((key, norm), aidx, args, prio))
        spec = TableSpec(qname, keys, actions, default, dconst, const_entries, size, has_dc, d.loc)
        spec.aliases = self.aliases(d.pname, qual)
        if qname in self.tables:
            raise serr(d.loc, f"duplicate table '{qname}'")
        self.tables[qname] = spec
        pyname = self.add_object("table", spec, "T")
        kc = "(" + "".join(f"{c}, " for c in keycode) + ")"
        return {"pyname": pyname, "spec": spec, "keycode": kc, "qual": qname}

    # ------------------------------------------------------------ actions / functions
    def ensure_callable(self, cal):
        if cal.pyname is not None:
            return
        d = cal.decl
        cal.pyname = self.uid("act" if cal.kind == "action" else "fn")
        sc = Scope(cal.scope)
        params = []
        argnames = []
        outs = []
        cp = []
        em = Emitter(1)
        for p in d.params:
            t = self.resolve_type(p.type)
            if t is None or isinstance(t, (ExternT, BlockT, IntT)):
                raise UnsupportedError(p.loc, f"{cal.kind} '{cal.qual}': unsupported parameter type "
                                              f"for '{p.name}'")
            if t.composite:
                base = self.alloc(t)
                sc[p.name] = Val(t=t, base=base, lv=("C", base))
                params.append((p.name, p.dir, t, base))
            else:
                an = self.uid("a")
                argnames.append(an)
                sc[p.name] = Val(code=an, t=t, lv=("L", an))
                params.append((p.name, p.dir, t, an))
                if p.dir in ("out", "inout"):
                    outs.append(an)
                if not p.dir:
                    st = self.scalar_t(t)
                    cp.append((p.name, st.width, getattr(st, "signed", False)))
        cal.params = params
        cal.cp_params = cp
        ret = VoidT()
        if cal.kind == "function":
            ret = self.resolve_type(d.ret)
        cal.ret = ret
        cal.outs = outs
        fc = FnCtx(cal.kind, ret=ret, outs=outs, qual=cal.qual)
        self.block(d.body, sc, fc, em)
        em.line(self.return_stmt(fc, None))
        sig = ", ".join(["S"] + argnames)
        self.funcs.append(f"def {cal.pyname}({sig}):\n" + "\n".join(em.lines))

    def return_stmt(self, fc, valcode):
        items = []
        if fc.ret is not None and not isinstance(fc.ret, VoidT):
            items.append(valcode if valcode is not None else "0")
        items += fc.outs
        if not items:
            return "return"
        if len(items) == 1:
            return f"return {items[0]}"
        return "return (" + ", ".join(items) + ")"

    def call_callable(self, cal, e, sc, fc, em, stmt):
        self.ensure_callable(cal)
        args = self.bind_args(cal.decl.params, e.args, e.loc, cal.qual)
        argcodes = []
        writebacks = []
        copyouts = []
        for (pname, pdir, t, where), a in zip(cal.params, args):
            if a is None:
                raise serr(e.loc, f"call of '{cal.qual}': missing argument '{pname}'")
            if t.composite:
                av = self.expr(a, sc, fc, em)
                if not av.t or not same_type(av.t, t) and not (getattr(av.t, "name", 1) == getattr(t, "name", 2)):
                    raise serr(a.loc, f"argument '{pname}' of '{cal.qual}' must be {tdesc(t)}")
                if pdir in ("in", "inout", ""):
                    em.line(f"S[{where}:{where + t.nslots}] = S[{av.base}:{addb(av.base, t.nslots)}]")
                if pdir in ("out", "inout"):
                    copyouts.append(f"S[{av.base}:{addb(av.base, t.nslots)}] = S[{where}:{where + t.nslots}]")
                continue
            if pdir in ("out", "inout"):
                av = self.expr(a, sc, fc, em)
                if av.lv is None:
                    raise serr(a.loc, f"argument '{pname}' of '{cal.qual}' must be an lvalue")
                if not same_type(self.scalar_t(av.t), self.scalar_t(t)) and not isinstance(av.t, type(t)):
                    raise serr(a.loc, f"argument '{pname}' of '{cal.qual}': {tdesc(av.t)} "
                                      f"vs {tdesc(t)}")
                argcodes.append(av.code if pdir == "inout" else "0")
                writebacks.append(av)
            else:
                av = self.expr(a, sc, fc, em)
                argcodes.append(self.convert(av, t, a.loc, f"argument '{pname}' of '{cal.qual}'").code)
        call = f"{cal.pyname}(" + ", ".join(["S"] + argcodes) + ")"
        hasret = not isinstance(cal.ret, VoidT)
        nres = (1 if hasret else 0) + len(writebacks)
        if not stmt:
            if writebacks or copyouts:
                raise UnsupportedError(e.loc, f"call of '{cal.qual}' with out parameters inside an "
                                              f"expression")
            if not hasret:
                raise serr(e.loc, f"'{cal.qual}' returns no value")
            return Val(code=call, t=cal.ret)
        if nres == 0:
            em.line(call)
        elif nres == 1:
            tmp = self.uid("r")
            em.line(f"{tmp} = {call}")
            if writebacks:
                self.store(writebacks[0], tmp, em)
        else:
            tmps = [self.uid("r") for _ in range(nres)]
            em.line(", ".join(tmps) + f" = {call}")
            for wb, tmp in zip(writebacks, tmps[1:] if hasret else tmps):
                self.store(wb, tmp, em)
        for c in copyouts:
            em.line(c)
        return None

    def bind_args(self, params, args, loc, what):
        res = [None] * len(params)
        pos = 0
        names = [p.name for p in params]
        for a in args:
            if a.name is not None:
                if a.name not in names:
                    raise serr(a.loc, f"'{what}' has no parameter '{a.name}'")
                res[names.index(a.name)] = a.value
            else:
                if pos >= len(params):
                    raise serr(a.loc, f"too many arguments for '{what}'")
                res[pos] = a.value
                pos += 1
        for i, p in enumerate(params):
            if res[i] is None and p.default is not None:
                res[i] = p.default
            if res[i] is not None and res[i].k == "dontcare":
                res[i] = None if p.dir != "out" else res[i]
        return res

    # ------------------------------------------------------------ control instances
    def apply_control_inst(self, inst, e, sc, fc, em):
        d = inst.decl
        args = self.bind_args(d.params, e.args, e.loc, inst.qual)
        if "binding" not in inst.info:
            binds = []
            for p, a in zip(d.params, args):
                t = self.resolve_type(p.type)
                if isinstance(t, ExternT):
                    if t.name in ("packet_in", "packet_out"):
                        binds.append(Val(extra=("packet", t.name[7:])))
                        continue
                    raise UnsupportedError(p.loc, f"{inst.kind} '{d.name}': extern parameter '{p.name}'")
                av = self.expr(a, sc, fc, em) if a is not None else None
                if av is not None and av.lv is not None and av.lv[0] == "C" and isinstance(av.base, int):
                    binds.append(Val(t=t, base=av.base, lv=("C", av.base)))
                elif av is not None and av.lv is not None and av.lv[0] == "S" and av.lv[2] is not None:
                    binds.append(Val(code=av.code, t=t, lv=av.lv))
                else:
                    base = self.alloc(t)
                    if t.composite:
                        binds.append(Val(t=t, base=base, lv=("C", base)))
                    else:
                        binds.append(Val(code=f"S[{base}]", t=t, lv=("S", str(base), base)))
            inst.info["binding"] = binds
            inst.info["fn"] = "PENDING"
            if inst.kind == "parser":
                inst.info["fn"] = self.compile_parser(d, binds)
            else:
                dep = bool(binds) and binds[0].extra is not None and binds[0].extra[1] == "out"
                inst.info["dep"] = dep
                inst.info["fn"] = self.compile_control(d, inst.qual, binds, dep)
        binds = inst.info["binding"]
        post = []
        for p, a, b in zip(d.params, args, binds):
            if a is None:
                continue
            av = self.expr(a, sc, fc, em)
            if b.extra is not None:   # packet_in / packet_out: the caller's own
                if av.extra != b.extra:
                    raise serr(a.loc, f"argument '{p.name}' of '{inst.qual}' must be packet_{b.extra[1]}")
                continue
            t = b.t
            if t.composite:
                if av.base == b.base:
                    continue
                if not same_type(av.t, t) and getattr(av.t, "name", None) != getattr(t, "name", 0):
                    raise serr(a.loc, f"argument '{p.name}' of '{inst.qual}' must be {tdesc(t)}")
                if p.dir in ("in", "inout", ""):
                    em.line(f"S[{b.base}:{b.base + t.nslots}] = S[{av.base}:{addb(av.base, t.nslots)}]")
                if p.dir in ("out", "inout"):
                    post.append(f"S[{av.base}:{addb(av.base, t.nslots)}] = S[{b.base}:{b.base + t.nslots}]")
            else:
                if av.lv is not None and av.lv[0] == "S" and av.lv[2] == b.lv[2]:
                    continue
                if p.dir in ("in", "inout", ""):
                    self.store(b, self.convert(av, t, a.loc, p.name).code, em)
                if p.dir in ("out", "inout"):
                    if av.lv is None:
                        raise serr(a.loc, f"argument '{p.name}' must be an lvalue")
                    post.append(("store", av, b.code))
        if inst.kind == "parser":
            em.line(f"off = {inst.info['fn']}(S, B, off)")
        elif inst.info.get("dep"):
            em.line(f"{inst.info['fn']}(S, O)")
        else:
            em.line(f"{inst.info['fn']}(S)")
        for x in post:
            if isinstance(x, tuple):
                self.store(x[1], x[2], em)
            else:
                em.line(x)

    # ------------------------------------------------------------ statements
    def block(self, b, sc, fc, em):
        start = len(em.lines)
        inner = Scope(sc)
        for s in b.stmts:
            self.stmt(s, inner, fc, em)
        if len(em.lines) == start:
            em.line("pass")

    def stmt(self, s, sc, fc, em):
        self.cur_loc = s.loc
        k = s.k
        if k == "block":
            self.block(s, sc, fc, em)
        elif k == "empty":
            pass
        elif k == "assign":
            lv = self.expr(s.lhs, sc, fc, em)
            if lv.lv is None and lv.extra is None:
                raise serr(s.loc, f"cannot assign to '{expr_text(s.lhs)}'")
            if lv.extra is not None and lv.extra[0] != "lstruct":
                raise serr(s.loc, f"cannot assign to '{expr_text(s.lhs)}'")
            self.assign_to(lv, s.rhs, sc, fc, em, s.loc, expr_text(s.lhs))
        elif k == "callstmt":
            v = self.call(s.call, sc, fc, em, stmt=True)
            if v is not None and v.code is not None:
                em.line(v.code)
        elif k == "if":
            c = self.expr(s.cond, sc, fc, em)
            if not isinstance(c.t, BoolT):
                raise serr(s.cond.loc, f"if condition must be bool, not {tdesc(c.t) if c.t else '?'}")
            em.line(f"if {c.code}:")
            em.indent()
            self.stmt_block(s.then, sc, fc, em)
            em.dedent()
            if s.els is not None:
                em.line("else:")
                em.indent()
                self.stmt_block(s.els, sc, fc, em)
                em.dedent()
        elif k == "switch":
            self.switch(s, sc, fc, em)
        elif k == "var":
            t = self.resolve_type(s.type)
            self.declare_var(s, t, sc, fc, em, static=False)
        elif k == "return":
            if fc.kind in ("control", "deparser"):
                if s.value is not None:
                    raise serr(s.loc, "return with a value in a control")
                em.line("return")
            elif fc.kind in ("action", "function"):
                code = None
                if s.value is not None:
                    if isinstance(fc.ret, VoidT):
                        raise serr(s.loc, "return with a value in a void function/action")
                    code = self.convert(self.expr(s.value, sc, fc, em), fc.ret, s.loc, "return value").code
                elif fc.ret is not None and not isinstance(fc.ret, VoidT):
                    raise serr(s.loc, "return without a value")
                em.line(self.return_stmt(fc, code))
            else:
                raise UnsupportedError(s.loc, f"unsupported 'return' in {fc.kind}")
        elif k == "exit":
            if fc.kind in ("parser", "ra", "deparser"):
                raise UnsupportedError(s.loc, f"unsupported 'exit' in {fc.kind}")
            em.line("raise ExitBlock()")
        else:
            raise UnsupportedError(s.loc, f"unsupported statement '{k}'")

    def stmt_block(self, s, sc, fc, em):
        start = len(em.lines)
        self.stmt(s, Scope(sc), fc, em)
        if len(em.lines) == start:
            em.line("pass")

    def switch(self, s, sc, fc, em):
        e = s.expr
        ev = self.expr(e, sc, fc, em)
        tmp = self.uid("sw")
        if ev.extra and ev.extra[0] == "action_run":
            tinfo = ev.extra[1]
            em.line(f"{tmp} = {ev.code}")
            acts = tinfo["spec"].actions

            def label_val(lab):
                text = expr_text(lab)
                for i, a in enumerate(acts):
                    if text in (a.short, a.name):
                        return i
                raise serr(lab.loc, f"switch label '{text}' is not an action of table "
                                    f"'{tinfo['qual']}'")
        else:
            st = self.scalar_t(ev.t)
            if not isinstance(st, (Bits, EnumT, ErrorT)):
                raise serr(e.loc, "switch expression must be table.apply().action_run or a bit<W>/enum")
            em.line(f"{tmp} = {ev.code}")

            def label_val(lab):
                return self.const_of(lab, sc, fc, st, "switch label")
        pending = []
        first = True
        seen_default = False
        for c in s.cases:
            if c.label is None:
                seen_default = True
                pending.append(None)
            else:
                pending.append(label_val(c.label))
            if c.body is None:
                continue
            if None in pending:
                if first:
                    em.line("if True:")
                else:
                    em.line("else:")
            else:
                vals = ", ".join(str(v) for v in pending)
                em.line(("if " if first else "elif ") + f"{tmp} in ({vals},):")
            first = False
            em.indent()
            self.block(c.body, sc, fc, em)
            em.dedent()
            pending = []
            if seen_default:
                break
        if pending:
            raise serr(s.loc, "switch case without a body at the end")

    # ------------------------------------------------------------ assignment
    def store(self, lv, code, em):
        kind = lv.lv[0]
        if kind == "S":
            em.line(f"S[{lv.lv[1]}] = {code}")
            if lv.lv[2] is not None and lv.lv[2] == self.ucast_slot:
                em.line(f"S[{self.ucast_flag}] = 1")
            elif lv.lv[2] in self.sel_fields:
                em.line(f"S[{self.sel_fields[lv.lv[2]]}] = 1")
        elif kind == "L":
            em.line(f"{lv.lv[1]} = {code}")
        elif kind == "slice":
            _, plv, hi, lo, pt = lv.lv
            w = hi - lo + 1
            m = ((1 << w) - 1) << lo
            full = (1 << pt.width) - 1
            tmp = self.uid("s")
            em.line(f"{tmp} = {code}")
            pcode = plv_code(plv)
            newv = f"(({pcode} & {full ^ m}) | (({tmp} << {lo}) & {m}))"
            if pt.signed:
                h = 1 << (pt.width - 1)
                newv = f"((({newv}) + {h}) & {full}) - {h}"
            self.store(Val(lv=plv), newv, em)
        else:
            raise serr(self.cur_loc, "internal: bad lvalue")

    def assign_to(self, lv, rhs, sc, fc, em, loc, target=None):
        t = lv.t
        if lv.extra and lv.extra[0] == "lstruct":
            if rhs.k != "list":
                rv = self.expr(rhs, sc, fc, em)
                if rv.extra and rv.extra[0] == "lstruct":
                    for fname, fv in lv.extra[1].items():
                        self.store(fv, rv.extra[1][fname].code, em)
                    return
                raise UnsupportedError(loc, "unsupported assignment to a register value struct")
            items = self.list_items(rhs, t, loc)
            for (fname, ft), item in zip(t.fields, items):
                fv = lv.extra[1][fname]
                self.store(fv, self.convert(self.expr(item, sc, fc, em), ft, item.loc, fname).code, em)
            return
        if t is not None and t.composite:
            if rhs.k == "list":
                if isinstance(t, StackT):
                    raise UnsupportedError(loc, "unsupported list assignment to a header stack")
                items = self.list_items(rhs, t, loc)
                if isinstance(t, HeaderT):
                    em.line(f"S[{lv.base}] = 1")
                for (fname, ft), item in zip(t.fields, items):
                    fv = self.field_val(lv.base, t.offsets[fname], ft)
                    if ft.composite:
                        self.assign_to(fv, item, sc, fc, em, item.loc)
                    else:
                        rv = self.expr(item, sc, fc, em)
                        self.store(fv, self.convert(rv, ft, item.loc, fname).code, em)
                return
            if rhs.k == "call" and rhs.fn.k == "name" and rhs.fn.name == "port_metadata_unpack":
                self.port_metadata_unpack(lv, rhs, sc, fc, em)
                return
            rv = self.expr(rhs, sc, fc, em)
            if rv.t is None or not (same_type(rv.t, t) or getattr(rv.t, "name", None) == getattr(t, "name", 0)):
                raise serr(loc, f"cannot assign {tdesc(rv.t) if rv.t else '?'} to {tdesc(t)}")
            em.line(f"S[{lv.base}:{addb(lv.base, t.nslots)}] = S[{rv.base}:{addb(rv.base, t.nslots)}]")
            return
        rv = self.expr(rhs, sc, fc, em, want=t)
        self.store(lv, self.convert(rv, t, loc, f"assignment to '{target or 'variable'}'").code, em)

    def list_items(self, rhs, t, loc):
        if rhs.named:
            byname = {it.name: it.value for it in rhs.items}
            items = []
            for fname, _ in t.fields:
                if fname not in byname:
                    raise serr(loc, f"initialiser for {tdesc(t)} lacks field '{fname}'")
                items.append(byname.pop(fname))
            if byname:
                raise serr(loc, f"{tdesc(t)} has no field(s) {sorted(byname)}")
            return items
        if len(rhs.items) != len(t.fields):
            raise serr(loc, f"{tdesc(t)} has {len(t.fields)} fields, initialiser has {len(rhs.items)}")
        return rhs.items

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

    # ------------------------------------------------------------ expressions
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
            a = self.expr(e.then, sc, fc, em)
            b = self.expr(e.els, sc, fc, em)
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
        b = self.expr(e.right, sc, fc, em)
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

    # ------------------------------------------------------------ calls
    def concat_list(self, node, sc, fc, em, what, symmetric=()):
        """A list expression or a single value as (code, nbits) of its bit concatenation.

        ``symmetric`` lists pairs of field names (TNA's ``@symmetric`` on a Hash): the
        pair's hash-matrix columns are shared, so the data hashed is the list with the
        first field replaced by ``a ^ b`` and the second by 0 -- independent of order."""
        items = node.items if node.k == "list" else [node]
        if node.k == "list" and node.named:
            items = [it.value for it in items]
        fields = []   # (name, code, width, signed) in list order, most significant first
        for it in items:
            v = self.expr(it, sc, fc, em)
            t = self.scalar_t(v.t)
            if v.t is not None and v.t.composite:
                if isinstance(v.t, (HeaderT, StructT)):
                    for fname, ft in v.t.fields:
                        if ft.composite:
                            raise UnsupportedError(it.loc, f"{what}: nested struct in field list")
                        fv = self.field_val(v.base, v.t.offsets[fname], ft)
                        fst = self.scalar_t(ft)
                        fields.append((f"{expr_text(it)}.{fname}", fv.code, fst.width,
                                       fst.signed or isinstance(fst, BoolT)))
                    continue
                raise UnsupportedError(it.loc, f"{what}: unsupported field type")
            if isinstance(t, BoolT):
                fields.append((expr_text(it), f"(1 if {v.code} else 0)", 1, False))
                continue
            if not isinstance(t, Bits):
                raise serr(it.loc, f"{what}: field list elements need a fixed width "
                                   f"(got {tdesc(v.t) if v.t else '?'})")
            fields.append((expr_text(it), v.code, t.width, t.signed))
        names = [f[0] for f in fields]
        for a, b, loc in symmetric:
            if a not in names or b not in names:
                raise serr(loc, f"{what}: @symmetric field '{a if a not in names else b}' is not "
                                f"in the field list {names}")
            i, j = names.index(a), names.index(b)
            if fields[i][2] != fields[j][2]:
                raise serr(loc, f"{what}: @symmetric fields '{a}' and '{b}' differ in width")
            w = fields[i][2]
            ca = f"({fields[i][1]} & {(1 << w) - 1})" if fields[i][3] else fields[i][1]
            cb = f"({fields[j][1]} & {(1 << w) - 1})" if fields[j][3] else fields[j][1]
            fields[i] = (a, f"({ca} ^ {cb})", w, False)
            fields[j] = (b, "0", w, False)
        terms = []
        total = 0
        for _, code, w, sg in reversed(fields):
            c = f"({code} & {(1 << w) - 1})" if sg else code
            if c != "0":
                terms.append(f"({c} << {total})" if total else c)
            total += w
        return ("(" + " | ".join(terms) + ")" if terms else "0"), total

    def call(self, e, sc, fc, em, stmt):
        fn = e.fn
        if fn.k == "name":
            fv = self.expr(fn, sc, fc, em)
            ex = fv.extra
            if ex and ex[0] in ("action", "function"):
                if ex[0] == "action" and fc is not None and fc.kind == "ra":
                    raise UnsupportedError(e.loc, "unsupported: action call in a RegisterAction")
                return self.call_callable(ex[1], e, sc, fc, em, stmt)
            if ex and ex[0] == "extern_fn":
                return self.extern_fn(ex[1], e, sc, fc, em, stmt)
            raise serr(e.loc, f"'{fn.name}' is not callable")
        if fn.k != "member":
            raise UnsupportedError(e.loc, "unsupported call")
        mv = self.expr(fn, sc, fc, em)
        if not mv.extra or mv.extra[0] != "method":
            raise serr(e.loc, f"'{expr_text(fn)}' is not a method")
        recv, mname = mv.extra[1], mv.extra[2]
        rex = recv.extra
        nargs = len(e.args)
        if rex is None:
            t = recv.t
            if isinstance(t, HeaderT):
                if nargs:
                    raise serr(e.loc, f"{mname}() takes no arguments")
                if mname == "isValid":
                    return Val(code=f"(S[{recv.base}] == 1)", t=BoolT())
                if not stmt:
                    raise serr(e.loc, f"{mname}() has no value")
                em.line(f"S[{recv.base}] = {1 if mname == 'setValid' else 0}")
                return None
            if isinstance(t, StackT):
                cnt = self.const_int_in(e.args[0].value, sc, fc, "push/pop count") if e.args else 1
                em.line(f"STACK_SHIFT(S, {recv.base}, {t.size}, {t.elem.nslots}, "
                        f"{cnt if mname == 'push_front' else -cnt})")
                return None
            raise serr(e.loc, f"no method '{mname}' on {tdesc(t) if t else '?'}")
        kind = rex[0]
        if kind == "packet":
            return self.packet_method(rex[1], mname, e, sc, fc, em, stmt)
        if kind == "table":
            if mname != "apply" or nargs:
                raise serr(e.loc, f"table '{rex[1]['qual']}' has only apply()")
            if fc is None or fc.kind not in ("control",):
                raise serr(e.loc, f"table '{rex[1]['qual']}' applied outside a control apply block")
            code = f"{rex[1]['pyname']}.run(S, {rex[1]['keycode']})"
            if stmt:
                em.line(code)
                return None
            tmpcode = code
            return Val(extra=("apply_result", rex[1], tmpcode))
        if kind == "control_inst":
            if mname != "apply":
                raise serr(e.loc, f"{rex[1].kind} instance has only apply()")
            if not stmt:
                raise serr(e.loc, "control apply() has no value")
            need = {"parser": ("parser",), "control": ("control", "deparser")}[rex[1].kind]
            if fc is None or fc.kind not in need:
                raise UnsupportedError(e.loc, f"{rex[1].kind} apply inside a {fc.kind if fc else 'declaration'}")
            if rex[1].info.get("fn") == "PENDING":
                raise serr(e.loc, "recursive control application")
            self.apply_control_inst(rex[1], e, sc, fc, em)
            return None
        if kind == "extern":
            return self.extern_method(rex[1], mname, e, sc, fc, em, stmt)
        raise serr(e.loc, f"cannot call '{mname}' here")

    def extern_fn(self, d, e, sc, fc, em, stmt):
        if d.name == "verify":
            if fc is None or fc.kind != "parser":
                raise serr(e.loc, "verify() outside a parser")
            if len(e.args) != 2:
                raise serr(e.loc, "verify(bool, error) needs 2 arguments")
            c = self.expr(e.args[0].value, sc, fc, em)
            er = self.expr(e.args[1].value, sc, fc, em)
            if not isinstance(c.t, BoolT) or er.const is None:
                raise serr(e.loc, "verify(bool condition, error.X)")
            em.line(f"if not {c.code}:")
            em.line(f"    raise Reject({self.error_members[er.const]!r})")
            return None
        if d.name == "port_metadata_unpack":
            raise UnsupportedError(e.loc, "port_metadata_unpack is supported only as the right-hand "
                                          "side of an assignment")
        raise UnsupportedError(e.loc, f"unsupported extern function '{d.name}'")

    def port_metadata_unpack(self, lv, rhs, sc, fc, em):
        if fc is None or fc.kind != "parser":
            raise serr(rhs.loc, "port_metadata_unpack outside a parser")
        t = lv.t
        if not isinstance(t, (StructT, HeaderT)) or any(ft.composite for _, ft in t.fields):
            raise UnsupportedError(rhs.loc, "port_metadata_unpack needs a flat struct/header type")
        total = sum(self.scalar_t(ft).width for _, ft in t.fields)
        if total > 64:
            raise serr(rhs.loc, f"port metadata type is {total} bits, more than 64")
        em.line("if off + 8 > n: raise Reject('PacketTooShort')")
        em.line("pv = int.from_bytes(B[off:off + 8], 'big')")
        sh = 64
        if isinstance(t, HeaderT):
            em.line(f"S[{lv.base}] = 1")
        for fname, ft in t.fields:
            st = self.scalar_t(ft)
            sh -= st.width
            fv = self.field_val(lv.base, t.offsets[fname], ft)
            code = f"((pv >> {sh}) & {st.mask})"
            if isinstance(st, BoolT):
                code = f"({code} != 0)"
            elif st.signed:
                code = self.wrapc(code, st)
            self.store(fv, code, em)
        em.line("off += 8")

    def packet_method(self, direction, mname, e, sc, fc, em, stmt):
        if direction == "in":
            if fc is None or fc.kind != "parser":
                raise UnsupportedError(e.loc, f"packet_in.{mname} outside a parser state")
            if mname == "extract":
                if len(e.args) != 1:
                    raise UnsupportedError(e.loc, "extract with a variable-size argument (varbit)")
                hv = self.expr(e.args[0].value, sc, fc, em)
                if hv.extra and hv.extra[0] == "stack_next":
                    st = hv.extra[1]
                    t = st.t
                    em.line(f"if S[{st.base}] >= {t.size}: raise Reject('StackOutOfBounds')")
                    em.line(f"hb = {addb(st.base, 1)} + S[{st.base}] * {t.elem.nslots}")
                    self.gen_extract("hb", t.elem, em, e.loc)
                    em.line(f"S[{st.base}] += 1")
                    return None
                if not isinstance(hv.t, HeaderT):
                    raise serr(e.loc, f"extract needs a header, not {tdesc(hv.t) if hv.t else '?'}")
                self.gen_extract(hv.base, hv.t, em, e.loc)
                return None
            if mname == "advance":
                if len(e.args) != 1:
                    raise serr(e.loc, "advance(bit<32> sizeInBits) takes one argument")
                v = self.scalar(self.expr(e.args[0].value, sc, fc, em), e.loc, "advance amount")
                if v.const is not None:
                    if v.const % 8:
                        raise UnsupportedError(e.loc, "advance by a number of bits that is not a "
                                                      "multiple of 8")
                    em.line(f"off += {v.const // 8}")
                else:
                    em.line(f"off += ADV({v.code})")
                em.line("if off > n: raise Reject('PacketTooShort')")
                return None
            if mname == "lookahead":
                if len(e.targs) != 1:
                    raise serr(e.loc, "lookahead<T>() needs a type argument")
                t = self.resolve_type(e.targs[0])
                if isinstance(t, HeaderT):
                    # decode into scratch slots without advancing the cursor
                    base = self.alloc(t)
                    em.line("off0 = off")
                    self.gen_extract(base, t, em, e.loc)
                    em.line("off = off0")
                    return Val(t=t, base=base, lv=None)
                if not isinstance(t, Bits):
                    raise UnsupportedError(e.loc, f"lookahead of type {tdesc(t) if t else '_'} "
                                                  f"(bit<W> and headers are supported)")
                nb = (t.width + 7) // 8
                code = f"LOOK(B, off, {nb}, {nb * 8 - t.width}, {t.mask})"
                if t.signed:
                    code = self.wrapc(code, t)
                return Val(code=code, t=t)
            if mname == "length":
                return Val(code="(len(B) * 8 & 0xffffffff)", t=Bits(32))
            raise UnsupportedError(e.loc, f"unsupported packet_in method '{mname}'")
        if mname != "emit":
            raise serr(e.loc, f"packet_out has no method '{mname}'")
        if fc is None or fc.kind != "deparser":
            raise UnsupportedError(e.loc, "emit outside a deparser apply block")
        hv = self.expr(e.args[0].value, sc, fc, em)
        self.gen_emit(hv, em, e.loc)
        return None

    def header_codec(self, t, loc):
        if t.bits % 8:
            raise UnsupportedError(loc, f"header '{t.name}' is {t.bits} bits, not a whole number of bytes")
        fmt = ">"
        fast = True
        for fname, ft in t.fields:
            st = self.scalar_t(ft)
            w = st.width
            if w in (8, 16, 32, 64) and not isinstance(st, BoolT):
                fmt += {8: "b", 16: "h", 32: "i", 64: "q"}[w] if st.signed else {8: "B", 16: "H", 32: "I", 64: "Q"}[w]
            else:
                fast = False
        return fast, fmt

    def gen_extract(self, base, t, em, loc):
        nb = t.bits // 8
        fast, fmt = self.header_codec(t, loc)
        em.line(f"if off + {nb} > n: raise Reject('PacketTooShort')")
        nf = len(t.fields)
        end = addb(base, nf + 1)
        if fast:
            st = self.struct_fmt(fmt)
            em.line(f"S[{base}:{end}] = (1,) + {st}.unpack_from(B, off)")
        else:
            em.line(f"hv = int.from_bytes(B[off:off + {nb}], 'big')")
            vals = []
            sh = t.bits
            for fname, ft in t.fields:
                st = self.scalar_t(ft)
                sh -= st.width
                c = f"((hv >> {sh}) & {st.mask})" if sh else f"(hv & {st.mask})"
                if isinstance(st, BoolT):
                    c = f"({c} != 0)"
                elif st.signed:
                    c = self.wrapc(c, st)
                vals.append(c)
            em.line(f"S[{base}:{end}] = (1, " + ", ".join(vals) + ",)")
        em.line(f"off += {nb}")

    def gen_emit(self, hv, em, loc, always=False):
        """Emit a header (only when valid) or every header of a struct/stack; ``always``
        emits the field values whatever the validity (Resubmit/Mirror data on Tofino)."""
        t = hv.t
        guard = "" if always else f"if S[{hv.base}]: "
        if isinstance(t, HeaderT):
            nb = t.bits // 8
            fast, fmt = self.header_codec(t, loc)
            nf = len(t.fields)
            b1 = addb(hv.base, 1)
            end = addb(hv.base, nf + 1)
            if fast:
                st = self.struct_fmt(fmt)
                em.line(f"{guard}O.append({st}.pack(*S[{b1}:{end}]))")
            else:
                terms = []
                sh = t.bits
                for i, (fname, ft) in enumerate(t.fields):
                    st = self.scalar_t(ft)
                    sh -= st.width
                    c = f"S[{addb(hv.base, 1 + i)}]"
                    if st.signed or isinstance(st, BoolT):
                        c = f"({c} & {st.mask})"
                    terms.append(f"({c} << {sh})" if sh else c)
                em.line(f"{guard}O.append((" + " | ".join(terms) + f").to_bytes({nb}, 'big'))")
        elif isinstance(t, StructT):
            for fname, ft in t.fields:
                fv = self.field_val(hv.base, t.offsets[fname], ft)
                if not ft.composite:
                    raise UnsupportedError(loc, f"emit of struct '{t.name}' with non-header field '{fname}'")
                self.gen_emit(fv, em, loc)
        elif isinstance(t, StackT):
            for i in range(t.size):
                b = addb(hv.base, 1 + i * t.elem.nslots)
                self.gen_emit(Val(t=t.elem, base=b), em, loc)
        else:
            raise serr(loc, f"emit needs a header, struct or stack, not {tdesc(t) if t else '?'}")

    def named_args(self, e, names, required, what):
        """Bind a call's positional and ``name = value`` arguments to ``names``."""
        res = [None] * len(names)
        pos = 0
        for a in e.args:
            if a.name is not None:
                if a.name not in names:
                    raise serr(a.loc, f"{what} has no parameter '{a.name}'")
                res[names.index(a.name)] = a.value
            else:
                if pos >= len(names):
                    raise serr(a.loc, f"too many arguments for {what}")
                res[pos] = a.value
                pos += 1
        for i in range(required):
            if res[i] is None:
                raise serr(e.loc, f"{what} needs the argument '{names[i]}'")
        return res

    SELECTORS = {("Mirror", "emit"): "mirror_type", ("Resubmit", "emit"): "resubmit_type",
                 ("Digest", "pack"): "digest_type"}

    def extern_method(self, inst, m, e, sc, fc, em, stmt):
        """A `Mirror(t)`/`Resubmit(t)`/`Digest(t)` field list is used only when the
        deparser's selector field was written with t (bf-p4c's extract_deparser)."""
        field = self.SELECTORS.get((inst.kind, m))
        tid = inst.info.get("type_id")
        role = {"ig": "ig_dprsr_md", "eg": "eg_dprsr_md"}.get(self.gress)
        if field is None or tid is None or role is None or field not in self.layout[role][1].offsets:
            return self.extern_method_body(inst, m, e, sc, fc, em, stmt)
        base, t = self.layout[role]
        slot = base + t.offsets[field]
        em.line(f"if S[{self.sel_fields[slot]}] and S[{slot}] == {tid}:")
        em.indent()
        start = len(em.lines)
        r = self.extern_method_body(inst, m, e, sc, fc, em, stmt)
        if len(em.lines) == start:
            em.line("pass")
        em.dedent()
        return r

    def extern_method_body(self, inst, m, e, sc, fc, em, stmt):
        k = inst.kind
        args = [a.value for a in e.args]
        loc = e.loc
        qual = inst.qual

        def need(n):
            if len(args) != n:
                raise serr(loc, f"{k}.{m} of '{qual}' takes {n} argument(s)")

        if fc is None:
            raise serr(loc, f"{k}.{m} outside a block")
        if k == "RegisterAction":
            if m != "execute":
                raise serr(loc, f"RegisterAction '{qual}' has no method '{m}' (only execute)")
            if fc.kind not in ("control", "action"):
                raise UnsupportedError(loc, f"RegisterAction execute in a {fc.kind}")
            need(1)
            iv = self.expr(args[0], sc, fc, em)
            it = self.scalar_t(iv.t)
            if not isinstance(it, (Bits, IntT)):
                raise serr(args[0].loc, f"register index must be bit<W>, not {tdesc(iv.t)}")
            code = f"{inst.pyname}(S, {iv.code})"
            return Val(code=code, t=inst.info["ut"])
        if k == "Register":
            if m == "read":
                need(1)
                if not isinstance(inst.info["elem"], Bits):
                    raise UnsupportedError(loc, f"read() of pair register '{qual}'")
                iv = self.scalar(self.expr(args[0], sc, fc, em), args[0].loc, "register index")
                return Val(code=f"{inst.pyname}.dp_read(S, {iv.code})", t=inst.info["elem"])
            if m == "write":
                need(2)
                if not isinstance(inst.info["elem"], Bits):
                    raise UnsupportedError(loc, f"write() of pair register '{qual}'")
                iv = self.scalar(self.expr(args[0], sc, fc, em), args[0].loc, "register index")
                vv = self.convert(self.expr(args[1], sc, fc, em), inst.info["elem"], loc, "register value")
                em.line(f"{inst.pyname}.dp_write(S, {iv.code}, {vv.code})")
                return None
            raise serr(loc, f"Register '{qual}' has no method '{m}'")
        if k == "Hash":
            if m != "get":
                raise serr(loc, f"Hash '{qual}' has no method '{m}'")
            need(1)
            code, nbits = self.concat_list(args[0], sc, fc, em, f"hash '{qual}'",
                                           inst.info.get("symmetric", ()))
            return Val(code=f"{inst.pyname}.get({code}, {nbits})", t=inst.t.targs[0])
        if k == "Random":
            if m != "get":
                raise serr(loc, f"Random '{qual}' has no method '{m}'")
            return Val(code=f"{inst.pyname}.getrandbits({inst.t.targs[0].width})", t=inst.t.targs[0])
        if k == "Counter":
            if m != "count":
                raise serr(loc, f"Counter '{qual}' has no method '{m}'")
            idx, adj = self.named_args(e, ("index", "adjust_byte_count"), 1, f"Counter.count of '{qual}'")
            iv = self.scalar(self.expr(idx, sc, fc, em), idx.loc, "counter index")
            adj = ", " + self.scalar(self.expr(adj, sc, fc, em), adj.loc, "adjust_byte_count").code if adj else ""
            em.line(f"{inst.pyname}.count({iv.code}{adj})")
            return None
        if k == "DirectCounter":
            if m != "count":
                raise serr(loc, f"DirectCounter '{qual}' has no method '{m}'")
            (adj,) = self.named_args(e, ("adjust_byte_count",), 0, f"DirectCounter.count of '{qual}'")
            adj = ", " + self.scalar(self.expr(adj, sc, fc, em), adj.loc, "adjust_byte_count").code if adj else ""
            em.line(f"count_direct(CTX{adj})")
            return None
        if k == "Checksum":
            ck = inst.pyname
            if m in ("add", "subtract"):
                need(1)
                code, nbits = self.concat_list(args[0], sc, fc, em, f"checksum '{qual}'")
                em.line(f"{ck}.{m}({code}, {nbits})")
                return None
            if m == "verify":
                return Val(code=f"{ck}.verify()", t=BoolT())
            if m == "get":
                return Val(code=f"{ck}.get()", t=Bits(16))
            if m == "update":
                data, zao = self.named_args(e, ("data", "zeros_as_ones"), 1, f"Checksum.update of '{qual}'")
                code, nbits = self.concat_list(data, sc, fc, em, f"checksum '{qual}'")
                zcode = "False"
                if zao is not None:
                    zv = self.expr(zao, sc, fc, em)
                    if not isinstance(zv.t, BoolT):
                        raise serr(zao.loc, "zeros_as_ones must be a bool")
                    zcode = zv.code
                return Val(code=f"{ck}.update({code}, {nbits}, {zcode})", t=Bits(16))
            if m == "subtract_all_and_deposit":
                raise UnsupportedError(loc, "unsupported Checksum.subtract_all_and_deposit "
                                            "(residual checksum over the payload)")
            raise serr(loc, f"Checksum '{qual}' has no method '{m}'")
        if k == "Digest":
            if m != "pack":
                raise serr(loc, f"Digest '{qual}' has no method '{m}'")
            if fc.kind != "deparser":
                raise serr(loc, "Digest.pack outside a deparser")
            need(1)
            dt = inst.info["t"]
            if args[0].k == "list":
                items = self.list_items(args[0], dt, loc)
                codes = [self.convert(self.expr(it, sc, fc, em), ft, it.loc, fn).code
                         for it, (fn, ft) in zip(items, dt.fields)]
                em.line(f"{inst.pyname}.pack((" + "".join(c + ", " for c in codes) + "))")
                return None
            dv = self.expr(args[0], sc, fc, em)
            if dv.t is None or getattr(dv.t, "name", None) != dt.name:
                raise serr(loc, f"Digest '{qual}' packs {tdesc(dt)}, not {tdesc(dv.t)}")
            first = 1 if isinstance(dt, HeaderT) else 0
            em.line(f"{inst.pyname}.pack(tuple(S[{addb(dv.base, first)}:{addb(dv.base, first + len(dt.fields))}]))")
            return None
        if k == "Mirror":
            if m != "emit":
                raise serr(loc, f"Mirror '{qual}' has no method '{m}'")
            if fc.kind != "deparser":
                raise serr(loc, "Mirror.emit outside a deparser")
            if len(args) not in (1, 2):
                raise serr(loc, f"Mirror.emit of '{qual}' takes (session_id[, header])")
            sv = self.convert(self.expr(args[0], sc, fc, em), Bits(10), args[0].loc, "mirror session id")
            if len(args) == 2:
                hv = self.expr(args[1], sc, fc, em)
                if not isinstance(hv.t, HeaderT):
                    raise UnsupportedError(loc, "Mirror.emit needs a header as its mirror header")
                o = Emitter(em.ind)
                o.line("O2 = []")
                self.gen_emit(hv, o, loc, always=True)
                for ln in o.lines:
                    em.lines.append(ln.replace("O.append", "O2.append"))
                em.line(f"CTX.mirrors.append(({sv.code}, b''.join(O2)))")
            else:
                em.line(f"CTX.mirrors.append(({sv.code}, b''))")
            return None
        if k == "Resubmit":
            if m != "emit":
                raise serr(loc, f"Resubmit '{qual}' has no method '{m}'")
            if fc.kind != "deparser":
                raise serr(loc, "Resubmit.emit outside the ingress deparser")
            if args:
                hv = self.expr(args[0], sc, fc, em)
                if not isinstance(hv.t, HeaderT) or hv.t.bits > 64:
                    raise UnsupportedError(loc, "Resubmit.emit needs a header of at most 64 bits")
                o = Emitter(em.ind)
                o.line("O2 = []")
                self.gen_emit(hv, o, loc, always=True)
                for ln in o.lines:
                    em.lines.append(ln.replace("O.append", "O2.append"))
                em.line("CTX.resubmit = b''.join(O2)")
            else:
                em.line("CTX.resubmit = b''")
            return None
        raise UnsupportedError(loc, f"unsupported extern method {k}.{m}")


def plv_code(lv):
    kind = lv[0]
    if kind == "S":
        return f"S[{lv[1]}]"
    if kind == "L":
        return lv[1]
    if kind == "slice":
        _, plv, hi, lo, pt = lv
        return f"(({plv_code(plv)} >> {lo}) & {(1 << (hi - lo + 1)) - 1})"
    raise ValueError(kind)
