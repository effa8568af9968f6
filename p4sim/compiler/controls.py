"""Controls, their locals, nested control/parser instances, actions and functions (one
generated Python function each)."""
from ..errors import UnsupportedError
from ..types import BlockT, BoolT, ExternT, IntT, StringT, VoidT, same_type
from .base import Callable, Emitter, FnCtx, Scope, Val, addb, cval, serr, tdesc


class ControlsMixin:
    """Controls, their locals, nested control/parser instances, actions and functions (one
    generated Python function each)."""

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
            elif k == "value_set":
                self.declare_value_set(loc_, sc, fc, f"{qual}.{loc_.name}")
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
        self.cov_segment_start(fc, body)
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
        self.cov_entry(cal.kind, cal.qual, d.loc, cal.pyname, fc, em)
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
