"""Register and RegisterAction (the stateful ALU): instances, RegisterAction bodies, data-plane
read/write."""
from ..errors import UnsupportedError
from ..runtime import RegisterSpec
from ..types import Bits, IntT, StructT, same_type, wrap_value
from .base import Emitter, FnCtx, Scope, Val, serr, tdesc


class RegistersMixin:
    """Register and RegisterAction (the stateful ALU): instances, RegisterAction bodies, data-
    plane read/write."""

    def register_elem(self, d, et, args, scope, fc, qual):
        """(fields, initial values) of a register element type T and its optional
        initial value argument: bit<W>, int<W>, or a struct of two such fields."""
        if isinstance(et, Bits):
            fields = [(None, et.width, et.signed)]
        elif isinstance(et, StructT) and len(et.fields) == 2 and all(
                isinstance(ft, Bits) for _, ft in et.fields):
            fields = [(fn, ft.width, ft.signed) for fn, ft in et.fields]
        else:
            raise UnsupportedError(d.loc, f"register '{qual}': unsupported element type "
                                          f"{tdesc(et) if et else '_'} (bit<W>, int<W> or a "
                                          f"struct of two such fields)")
        init = tuple(0 for _ in fields)
        if args:
            iv = args[0]
            if len(fields) == 1:
                init = (wrap_value(self.const_in(iv, scope, fc, "initial value"), et),)
            elif iv.k == "list" and len(iv.items) == 2:
                items = [x.value if x.k == "kv" else x for x in iv.items]
                init = tuple(wrap_value(self.const_in(x, scope, fc, "initial value"), ft)
                             for x, (_, ft) in zip(items, et.fields))
            else:
                raise UnsupportedError(iv.loc, "unsupported register initial value")
        return fields, init

    def inst_Register(self, d, t, args, inst, scope, qual, fc):
        if len(t.targs) != 2:
            raise serr(d.loc, "Register needs <T, I> type arguments")
        et = t.targs[0]
        if not args:
            raise serr(d.loc, f"register '{qual}' needs a size")
        fields, init = self.register_elem(d, et, args[1:], scope, fc, qual)
        size = self.const_in(args[0], scope, fc, "register size")
        if size <= 0:
            raise serr(d.loc, f"register '{qual}' size must be positive")
        spec = RegisterSpec(qual, size, fields, init, d.loc)
        spec.aliases = self.aliases(d.pname, qual.rsplit(".", 1)[0] if "." in qual else "")
        if qual in self.registers:
            raise serr(d.loc, f"duplicate register name '{qual}'")
        self.registers[qual] = spec
        inst.pyname = self.add_object("register", spec, "R")
        inst.info.update(elem=et, idx=t.targs[1], size=size, spec=spec)

    def inst_DirectRegister(self, d, t, args, inst, scope, qual, fc):
        """A register cell per entry of the table that names it in `registers = ...`."""
        if len(t.targs) != 1:
            raise serr(d.loc, "DirectRegister needs a <T> type argument")
        fields, init = self.register_elem(d, t.targs[0], args, scope, fc, qual)
        inst.info.update(elem=t.targs[0], fields=fields, init=init, direct=True)

    def inst_DirectRegisterAction(self, d, t, args, inst, scope, qual, fc):
        if len(t.targs) != 2 or len(args) != 1:
            raise serr(d.loc, "DirectRegisterAction needs <T, U> and a DirectRegister argument")
        rv = self.expr(args[0], scope, fc, None)
        if not rv.extra or rv.extra[0] != "extern" or rv.extra[1].kind != "DirectRegister":
            raise serr(args[0].loc, "DirectRegisterAction argument must be a DirectRegister")
        if not d.init or len(d.init) != 1 or d.init[0].name != "apply":
            raise UnsupportedError(d.loc, f"DirectRegisterAction '{qual}' needs exactly one "
                                          f"'apply' method")
        inst.info["reg"] = rv.extra[1]
        inst.pyname = self.compile_register_action(inst, rv.extra[1], t.targs[1], d.init[0], scope)

    def call_DirectRegisterAction(self, inst, m, e, args, sc, fc, em, loc):
        if m != "execute":
            raise serr(loc, f"DirectRegisterAction '{inst.qual}' has no method '{m}' (only execute)")
        if fc.kind != "action":
            raise UnsupportedError(loc, "DirectRegisterAction execute outside a table action")
        self.need_args(inst, m, args, loc, 0)
        self.cov_called(inst.pyname, fc)
        return Val(code=f"{inst.pyname}(S)", t=inst.info["ut"])

    def call_DirectRegister(self, inst, m, e, args, sc, fc, em, loc):
        et = inst.info["elem"]
        if not isinstance(et, Bits):
            raise UnsupportedError(loc, f"{m}() of pair direct register '{inst.qual}'")
        if fc.kind != "action":
            raise UnsupportedError(loc, f"DirectRegister.{m} outside a table action")
        cell = f"(CTX.entry.dreg if CTX.entry is not None else [{inst.info['init'][0]}])"
        if m == "read":
            self.need_args(inst, m, args, loc, 0)
            return Val(code=f"{cell}[0]", t=et)
        if m == "write":
            self.need_args(inst, m, args, loc, 1)
            vv = self.convert(self.expr(args[0], sc, fc, em), et, loc, "register value")
            em.line(f"{cell}[0] = {vv.code}")
            return None
        raise serr(loc, f"DirectRegister '{inst.qual}' has no method '{m}'")

    def inst_RegisterAction(self, d, t, args, inst, scope, qual, fc):
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

    def call_RegisterAction(self, inst, m, e, args, sc, fc, em, loc):
        qual = inst.qual
        if m != "execute":
            raise serr(loc, f"RegisterAction '{qual}' has no method '{m}' (only execute)")
        if fc.kind not in ("control", "action"):
            raise UnsupportedError(loc, f"RegisterAction execute in a {fc.kind}")
        self.need_args(inst, m, args, loc, 1)
        iv = self.expr(args[0], sc, fc, em)
        it = self.scalar_t(iv.t)
        if not isinstance(it, (Bits, IntT)):
            raise serr(args[0].loc, f"register index must be bit<W>, not {tdesc(iv.t)}")
        code = f"{inst.pyname}(S, {iv.code})"
        self.cov_called(inst.pyname, fc)
        return Val(code=code, t=inst.info["ut"])

    def call_Register(self, inst, m, e, args, sc, fc, em, loc):
        qual = inst.qual
        if m == "read":
            self.need_args(inst, m, args, loc, 1)
            if not isinstance(inst.info["elem"], Bits):
                raise UnsupportedError(loc, f"read() of pair register '{qual}'")
            iv = self.scalar(self.expr(args[0], sc, fc, em), args[0].loc, "register index")
            return Val(code=f"{inst.pyname}.dp_read(S, {iv.code})", t=inst.info["elem"])
        if m == "write":
            self.need_args(inst, m, args, loc, 2)
            if not isinstance(inst.info["elem"], Bits):
                raise UnsupportedError(loc, f"write() of pair register '{qual}'")
            iv = self.scalar(self.expr(args[0], sc, fc, em), args[0].loc, "register index")
            vv = self.convert(self.expr(args[1], sc, fc, em), inst.info["elem"], loc, "register value")
            em.line(f"{inst.pyname}.dp_write(S, {iv.code}, {vv.code})")
            return None
        raise serr(loc, f"Register '{qual}' has no method '{m}'")

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
        direct = rinfo.get("direct", False)
        if direct:
            # the hit entry's cell; on a miss a scratch cell with the initial value
            em.line("e = CTX.entry")
            em.line(f"d = e.dreg if e is not None else {list(rinfo['init'])!r}")
            cell = [f"d[{i}]" for i in range(len(rinfo["init"]))]
        else:
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
            # idx is in range here: the cells' dict (RegisterCells.cells) directly, a
            # missing cell reading as the initial value
            init = rinfo["spec"].init
            cell = [f"{R}_c{i}[idx]" for i in range(len(init))]
            load = [f"{R}_c{i}.get(idx, {v!r})" for i, v in enumerate(init)]
        if isinstance(et, Bits):
            em.line(f"vv = {load[0] if not direct else cell[0]}")
            sc[params[0].name] = Val(code="vv", t=et, lv=("L", "vv"))
            stores = [f"{cell[0]} = vv"]
        else:
            fields = {}
            stores = []
            for i, (fname, ft) in enumerate(et.fields):
                ln = f"vv{i}"
                em.line(f"{ln} = {load[i] if not direct else cell[i]}")
                fields[fname] = Val(code=ln, t=ft, lv=("L", ln))
                stores.append(f"{cell[i]} = {ln}")
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
        fc.register = reg.qual      # whose RegisterParams it reads (bfrt.json's depends_on)
        self.cov_entry("register_action", inst.qual, fn.loc, pyname, fc, em)
        self.block(fn.body, sc, fc, em)
        for s in stores:
            em.line(s)
        em.line("return rv")
        sig = "(S)" if direct else "(S, idx)"
        self.funcs.append(f"def {pyname}{sig}:\n" + "\n".join(em.lines))
        inst.info["ut"] = ut
        return pyname
