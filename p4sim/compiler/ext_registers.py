"""Register and RegisterAction (the stateful ALU): instances, RegisterAction bodies, data-plane
read/write."""
from ..errors import UnsupportedError
from ..runtime import RegisterSpec
from ..types import Bits, IntT, StructT, same_type, wrap_value
from .base import Emitter, FnCtx, Scope, Val, serr, tdesc


class RegistersMixin:
    """Register and RegisterAction (the stateful ALU): instances, RegisterAction bodies, data-
    plane read/write."""

    def inst_Register(self, d, t, args, inst, scope, qual, fc):
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
