"""Top-level declarations (types, constants, externs, blocks) and the TNA pipeline: which block
gets which intrinsic metadata."""
from ..errors import Loc, UnsupportedError
from ..types import (Bits, BlockT, BoolT, EnumT, ExternT, HeaderT, IntT, StringT, StructT, VoidT,
                     same_type, wrap_value)
from .base import Callable, Val, cval, expr_text, serr, tdesc
from .flexible import flexible_layout, is_flexible


class DeclarationsMixin:
    """Top-level declarations (types, constants, externs, blocks) and the TNA pipeline: which
    block gets which intrinsic metadata."""

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
            if is_flexible(d):      # bf-p4c's wire layout (flexible.py)
                fields = flexible_layout(fields, lambda ft: self.scalar_t(ft).width)
            elif any(is_flexible(f) for f in d.fields):     # some fields @flexible
                fixed = [fd for fd, f in zip(fields, d.fields) if not is_flexible(f)]
                free = [fd for fd, f in zip(fields, d.fields) if is_flexible(f)]
                fields = fixed + flexible_layout(free, lambda ft: self.scalar_t(ft).width)
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
            self.pipeline_name = a.name
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
        self.block_names = [b.name for b in blocks]
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
        self.written_flags[self.ucast_slot] = self.ucast_flag
        # the TM replicates for a multicast group id that was written (valid), 0 included
        self.mcast_flags = []
        for f in ("mcast_grp_a", "mcast_grp_b"):
            flag = self.alloc(Bits(1))
            self.written_flags[ig["tm"].base + tm_t.offsets[f]] = flag
            self.mcast_flags.append(flag)
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
                slot = rbase + rt_.offsets[f]
                self.sel_fields[slot] = self.written_flags[slot] = self.alloc(Bits(1))
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
