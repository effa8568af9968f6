"""Calls: actions, functions, methods of headers/stacks/tables/instances, extern functions;
argument binding."""
from ..errors import UnsupportedError
from ..types import Bits, BoolT, HeaderT, StackT, VoidT, same_type
from ..runtime import CHAIN_MAX
from .base import Val, addb, expr_text, serr, tdesc

# compile ``t.apply();`` of small const tables inline (tests compare with False)
INLINE_CONST_APPLY = True


class CallsMixin:
    """Calls: actions, functions, methods of headers/stacks/tables/instances, extern functions;
    argument binding."""

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
        self.cov_called(cal.pyname, fc)
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
            tinfo = rex[1]
            code = f"{tinfo['pyname']}.run(S, {tinfo['keycode']})"
            if stmt and self.inline_const_apply(tinfo, em):
                return None
            for a in tinfo["spec"].actions:    # which action runs is the entries' choice
                self.cov_called(a.fn_name, None)    # (no fc: a call site of unknown count)
            cov = tinfo["cov"]
            if cov["entries"] or cov["hit"] is not None:
                code = f"TABLE_COV(COV, {code}, {cov['hit']}, {cov['default']}, CTX)"
            if stmt:
                em.line(code)
                return None
            return Val(extra=("apply_result", tinfo, code))
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
        if d.name in ("min", "max"):
            if len(e.args) != 2:
                raise serr(e.loc, f"{d.name}(a, b) needs 2 arguments")
            a, b, t = self.unify(self.expr(e.args[0].value, sc, fc, em),
                                 self.expr(e.args[1].value, sc, fc, em), e.loc, d.name)
            if not isinstance(t, Bits):
                raise serr(e.loc, f"{d.name} needs bit<W>/int<W> operands, not {tdesc(t)}")
            return Val(code=f"{d.name}({a.code}, {b.code})", t=t)
        if d.name == "port_metadata_unpack":
            raise UnsupportedError(e.loc, "port_metadata_unpack is supported only as the right-hand "
                                          "side of an assignment")
        raise UnsupportedError(e.loc, f"unsupported extern function '{d.name}'")

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

    def inline_const_apply(self, tinfo, em):
        """``table.apply();`` of a small const table as an if-chain right in the control:
        the key fields compared in place, the entry's action called with its constant
        arguments, the context's entry set as Table.run sets it (direct counters, meters
        and registers read it); the default action on a miss, read from the table at run
        time (the control plane may change it). Same as Table.run, minus the key tuple
        and two calls per apply (tests/p4sim/test_p4sim_table_index.py). Returns False
        for a table this does not cover (entries the control plane may change, range
        keys, more than CHAIN_MAX entries): the caller then calls Table.run."""
        spec = tinfo["spec"]
        entries = spec.const_entries
        if not INLINE_CONST_APPLY or not entries or len(entries) > CHAIN_MAX or \
                any(kind == 2 for (_, norm), _, _, _ in entries for kind, _, _ in norm):
            return False
        T = tinfo["pyname"]
        k = self.uid("k")
        used = sorted({j for (_, norm), _, _, _ in entries
                       for j, (kind, _, b) in enumerate(norm) if kind == 0 or b})
        for j in used:
            em.line(f"{k}_{j} = {tinfo['keycodes'][j]}")
        covered = False
        for i, ((_, norm), aidx, args, _) in enumerate(entries):
            conds = []
            for j, (kind, a, b) in enumerate(norm):
                if kind == 0:
                    conds.append(f"{k}_{j} == {a!r}")
                elif b:                                   # a mask of 0 matches anything
                    conds.append(f"({k}_{j} & {b!r}) == {a!r}")
            if conds:
                em.line(f"{'if' if i == 0 else 'elif'} {' and '.join(conds)}:")
            elif i:
                em.line("else:")
            else:
                em.line("if True:")
            em.indent()
            entry = tinfo["cov"]["entries"][i:i + 1]
            self.cov_count(em, entry)
            if self.cov is not None:     # the entry's action runs as often as the entry
                self.cov.called(spec.actions[aidx].fn_name, entry or None)
            em.line(f"CTX.entry = {T}_E[{i}]")
            em.line(f"{spec.actions[aidx].fn_name}(S{''.join(f', {v!r}' for v in args)})")
            em.dedent()
            if not conds:
                covered = True
                break
        if not covered:
            em.line("else:")
            em.indent()
            em.line(f"{k}_r = {T}.default_result")
            default = tinfo["cov"]["default"]
            if default is not None:      # counted per default action: it runs as often
                em.line(f"COV[{default!r}[{k}_r[1]]] += 1")
            for i, a in enumerate(spec.actions):
                if not a.tableonly and self.cov is not None:
                    self.cov.called(a.fn_name, None if default is None else default[i:i + 1])
            em.line("CTX.entry = None")
            em.line(f"{k}_r[2](S, *{k}_r[3])")
            em.dedent()
        return True
