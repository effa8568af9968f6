"""Resubmit, Mirror and Digest: the deparser's field lists, selected by
resubmit_type/mirror_type/digest_type."""
from ..errors import UnsupportedError
from ..types import Bits, BoolT, HeaderT, StructT
from .base import Emitter, addb, serr, tdesc


class DeparserExternsMixin:
    """Resubmit, Mirror and Digest: the deparser's field lists, selected by
    resubmit_type/mirror_type/digest_type."""

    SELECTORS = {("Mirror", "emit"): "mirror_type", ("Resubmit", "emit"): "resubmit_type",
                 ("Digest", "pack"): "digest_type"}

    def inst_Resubmit(self, d, t, args, inst, scope, qual, fc):
        inst.pyname = None
        if args:
            inst.info["type_id"] = self.const_in(args[0], scope, fc, f"{t.name} type")

    def inst_Digest(self, d, t, args, inst, scope, qual, fc):
        if args:
            inst.info["type_id"] = self.const_in(args[0], scope, fc, "Digest type")
        dt = t.targs[0] if t.targs else None
        if not isinstance(dt, (StructT, HeaderT)) or any(ft.composite for _, ft in dt.fields):
            raise UnsupportedError(d.loc, f"Digest '{qual}' needs a struct of scalar fields")
        # (name, field names, field widths): the widths give BfRt's learn fields
        inst.pyname = self.add_object("digest", (qual, [f for f, _ in dt.fields],
                                                 [self.scalar_t(ft).width for _, ft in dt.fields]),
                                      "DG")
        inst.info["t"] = dt

    def call_Digest(self, inst, m, e, args, sc, fc, em, loc):
        qual = inst.qual
        if m != "pack":
            raise serr(loc, f"Digest '{qual}' has no method '{m}'")
        if fc.kind != "deparser":
            raise serr(loc, "Digest.pack outside a deparser")
        self.need_args(inst, m, args, loc, 1)
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

    def call_Mirror(self, inst, m, e, args, sc, fc, em, loc):
        qual = inst.qual
        if m != "emit":
            raise serr(loc, f"Mirror '{qual}' has no method '{m}'")
        if fc.kind != "deparser":
            raise serr(loc, "Mirror.emit outside a deparser")
        if len(args) not in (1, 2):
            raise serr(loc, f"Mirror.emit of '{qual}' takes (session_id[, header])")
        sv = self.convert(self.expr(args[0], sc, fc, em), Bits(10), args[0].loc, "mirror session id")
        if len(args) == 2:
            code = self.field_list_bytes(args[1], e, sc, fc, em, loc, f"Mirror.emit of '{qual}'")
            em.line(f"CTX.mirrors.append(({sv.code}, {code}))")
        else:
            em.line(f"CTX.mirrors.append(({sv.code}, b''))")
        return None

    def call_Resubmit(self, inst, m, e, args, sc, fc, em, loc):
        qual = inst.qual
        if m != "emit":
            raise serr(loc, f"Resubmit '{qual}' has no method '{m}'")
        if fc.kind != "deparser":
            raise serr(loc, "Resubmit.emit outside the ingress deparser")
        if args:
            code = self.field_list_bytes(args[0], e, sc, fc, em, loc, f"Resubmit.emit of '{qual}'",
                                         max_bits=64)
            em.line(f"CTX.resubmit = {code}")
        else:
            em.line("CTX.resubmit = b''")
        return None

    def selected(self, inst, m, em, lower):
        """A `Mirror(t)`/`Resubmit(t)`/`Digest(t)` field list is used only when the
        deparser's selector field was written with t (bf-p4c's extract_deparser)."""
        field = self.SELECTORS[(inst.kind, m)]
        tid = inst.info.get("type_id")
        role = {"ig": "ig_dprsr_md", "eg": "eg_dprsr_md"}.get(self.gress)
        if tid is None or role is None or field not in self.layout[role][1].offsets:
            return lower()
        base, t = self.layout[role]
        slot = base + t.offsets[field]
        em.line(f"if S[{self.sel_fields[slot]}] and S[{slot}] == {tid}:")
        em.indent()
        start = len(em.lines)
        r = lower()
        if len(em.lines) == start:
            em.line("pass")
        em.dedent()
        return r

    def field_list_bytes(self, node, e, sc, fc, em, loc, what, max_bits=None):
        """Python code for the bytes of a Mirror/Resubmit field list: a header (its
        fields whatever its validity) or a list expression typed by emit<T>'s T."""
        if node.k == "list":
            if len(e.targs) != 1:
                raise serr(loc, f"{what}: a list needs the header type, emit<T>(...)")
            t = self.resolve_type(e.targs[0])
            if not isinstance(t, HeaderT):
                raise UnsupportedError(loc, f"{what}: emit<T> with T = {tdesc(t)} (a header is needed)")
            if max_bits is not None and t.bits > max_bits:
                raise UnsupportedError(loc, f"{what}: {t.bits} bits, more than {max_bits}")
            self.header_codec(t, loc)       # whole bytes
            items = self.list_items(node, t, loc)
            terms, sh = [], t.bits
            for item, (fname, ft) in zip(items, t.fields):
                st = self.scalar_t(ft)
                sh -= st.width
                c = self.convert(self.expr(item, sc, fc, em), ft, item.loc, fname).code
                if st.signed or isinstance(st, BoolT):
                    c = f"({c} & {st.mask})"
                terms.append(f"({c} << {sh})" if sh else c)
            return f"(({' | '.join(terms) or '0'}).to_bytes({t.bits // 8}, 'big'))"
        hv = self.expr(node, sc, fc, em)
        if not isinstance(hv.t, HeaderT) or (max_bits is not None and hv.t.bits > max_bits):
            raise UnsupportedError(loc, f"{what} needs a header" +
                                   (f" of at most {max_bits} bits" if max_bits else "") +
                                   " or a list expression")
        o = Emitter(em.ind)
        o.line("O2 = []")
        self.gen_emit(hv, o, loc, always=True)
        for ln in o.lines:
            em.lines.append(ln.replace("O.append", "O2.append"))
        return "b''.join(O2)"
