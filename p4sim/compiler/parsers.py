"""Parser state machines: states, transitions, select keysets."""
from ..errors import UnsupportedError
from ..runtime import ValueSetSpec
from ..types import Bits, BoolT, EnumT, ErrorT
from .base import Emitter, FnCtx, Scope, Val, serr, tdesc


class ParsersMixin:
    """Parser state machines: states, transitions, select keysets."""

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
            self.cov_count(em, self.cov_point("state", decl.name, s.loc, f"state {s.name}"))
            ssc = Scope(sc)
            for stmt in s.stmts:
                self.stmt(stmt, ssc, fc, em)
            tr = s.trans
            if tr is None:
                em.line("raise Reject('NoMatch')")
            elif tr.k == "goto":
                self.cov_count(em, self.cov_point("transition", decl.name, tr.loc,
                                                  f"{s.name} -> {tr.state}"))
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
                    self.cov_count(em, self.cov_point("transition", decl.name, c.loc,
                                                      f"{s.name} -> {c.state}"))
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

    def declare_value_set(self, d, sc, fc, qual):
        """value_set<T>(size): a set of (value, mask) the control plane fills
        (Switch.value_set_add); T must be a bit<W> (or a typedef of one)."""
        if len(d.targs) != 1:
            raise serr(d.loc, "value_set needs one type argument")
        t = self.scalar_t(self.resolve_type(d.targs[0]))
        if not isinstance(t, Bits):
            raise UnsupportedError(d.loc, f"unsupported value_set of {tdesc(t)} (bit<W> only)")
        size = self.const_in(d.size, sc, fc, "value_set size")
        if size <= 0:
            raise serr(d.loc, "value_set size must be positive")
        spec = ValueSetSpec(qual, size, t.width)
        self.value_sets[qual] = spec
        sc[d.name] = Val(extra=("value_set", self.add_object("value_set", spec, "VS"), t))

    def value_set_of(self, k, sc):
        if k.k == "ks_expr" and k.value.k == "name":
            v = sc.lookup(k.value.name)
            if v is not None and v.extra and v.extra[0] == "value_set":
                return v.extra
        return None

    def keyset_conds(self, ks, keys, knames, sc, fc, loc):
        if len(ks) == 1 and ks[0].k == "ks_default":
            return []
        if len(ks) == 1 and self.value_set_of(ks[0], sc) is not None:
            _, vs, vt = self.value_set_of(ks[0], sc)
            if len(keys) != 1 or self.scalar_t(keys[0].t) != vt:
                raise serr(loc, f"value_set of {tdesc(vt)} used to select on "
                                f"{', '.join(tdesc(k.t) for k in keys)}")
            return [f"{vs}.match({knames[0]})"]
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
