"""packet_in/packet_out: extract, advance, lookahead, port metadata, emit; header
(de)serialisation."""
from ..errors import UnsupportedError
from ..types import Bits, BoolT, HeaderT, StackT, StructT
from .base import Val, addb, expr_text, serr, tdesc

# struct codes of a group of N bytes (high part first) and their sizes in bytes
GROUP_CODES = {1: "B", 2: "H", 3: "BH", 4: "I", 5: "BI", 6: "HI", 7: "BHI", 8: "Q"}
CODE_BYTES = {"B": 1, "H": 2, "I": 4, "Q": 8}


def _group_parts(nbytes):
    """[(struct code, shift of the part in the group)] of a group of ``nbytes``."""
    parts, sh = [], nbytes * 8
    for code in GROUP_CODES[nbytes]:
        sh -= CODE_BYTES[code] * 8
        parts.append((code, sh))
    return parts


class PacketIOMixin:
    """packet_in/packet_out: extract, advance, lookahead, port metadata, emit; header
    (de)serialisation."""

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
        self.gen_emit(hv, em, e.loc, cov=(fc.qual, expr_text(e.args[0].value)))
        return None

    def port_metadata_unpack(self, lv, rhs, sc, fc, em):
        if fc is None or fc.kind != "parser":
            raise serr(rhs.loc, "port_metadata_unpack outside a parser")
        t = lv.t
        if not isinstance(t, (StructT, HeaderT)) or any(ft.composite for _, ft in t.fields):
            raise UnsupportedError(rhs.loc, "port_metadata_unpack needs a flat struct/header type")
        total = sum(self.scalar_t(ft).width for _, ft in t.fields)
        if total > 64:
            raise serr(rhs.loc, f"port metadata type is {total} bits, more than 64")
        if self.port_md_fields is None:
            self.port_md_fields = [(f, self.scalar_t(ft).width) for f, ft in t.fields]
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

    def header_groups(self, t):
        """The header's fields cut into byte-aligned groups of at most 8 bytes, in order:
        [(bytes, [(field index, scalar type, shift in the group)])], or None when a
        greedy cut finds none (then the header is one big integer). A group is one to
        three struct codes, so a header of sub-byte fields (IPv4, the intrinsic
        metadata) is unpacked and packed as small integers instead of shifts of a
        100-200-bit integer."""
        groups, cur, bits = [], [], 0
        for i, (fname, ft) in enumerate(t.fields):
            st = self.scalar_t(ft)
            cur.append((i, st))
            bits += st.width
            if bits > 64:
                return None
            if bits % 8 == 0:
                fields, sh = [], bits
                for j, fst in cur:
                    sh -= fst.width
                    fields.append((j, fst, sh))
                groups.append((bits // 8, fields))
                cur, bits = [], 0
        return None if cur else groups

    def packed_fields(self, fields, bits):
        """[(field index, scalar type, shift)] of ``fields`` packed into ``bits`` bits."""
        out, sh = [], bits
        for i, (_, ft) in enumerate(fields):
            st = self.scalar_t(ft)
            sh -= st.width
            out.append((i, st, sh))
        return out

    def field_reads(self, var, fields):
        """Read expressions of the packed ``fields`` of the integer ``var``."""
        vals = []
        for _, st, sh in fields:
            if len(fields) == 1 and not st.signed and not isinstance(st, BoolT):
                c = var
            else:
                c = f"(({var} >> {sh}) & {st.mask})" if sh else f"({var} & {st.mask})"
            if isinstance(st, BoolT):
                c = f"({c} != 0)"
            elif st.signed:
                c = self.wrapc(c, st)
            vals.append(c)
        return vals

    @staticmethod
    def packed_value(base, fields):
        """The integer of the packed ``fields`` of the header at slot ``base``."""
        terms = []
        for i, st, sh in fields:
            c = f"S[{addb(base, 1 + i)}]"
            if st.signed or isinstance(st, BoolT):
                c = f"({c} & {st.mask})"
            terms.append(f"({c} << {sh})" if sh else c)
        return " | ".join(terms)

    def gen_extract(self, base, t, em, loc):
        nb = t.bits // 8
        fast, fmt = self.header_codec(t, loc)
        em.line(f"if off + {nb} > n: raise Reject('PacketTooShort')")
        nf = len(t.fields)
        end = addb(base, nf + 1)
        groups = None if fast else self.header_groups(t)
        if fast:
            st = self.struct_fmt(fmt)
            em.line(f"S[{base}:{end}] = (1,) + {st}.unpack_from(B, off)")
        elif groups is not None:
            st = self.struct_fmt(">" + "".join(GROUP_CODES[nbytes] for nbytes, _ in groups))
            names, joins = [], []
            for g, (nbytes, _) in enumerate(groups):
                parts = _group_parts(nbytes)
                if len(parts) == 1:
                    names.append(f"hg{g}")
                else:
                    pnames = [f"hg{g}_{k}" for k in range(len(parts))]
                    names += pnames
                    joins.append(f"hg{g} = " + " | ".join(
                        f"({n} << {sh})" if sh else n for n, (_, sh) in zip(pnames, parts)))
            em.line(", ".join(names) + f", = {st}.unpack_from(B, off)")
            for line in joins:
                em.line(line)
            vals = []
            for g, (_, fields) in enumerate(groups):
                vals += self.field_reads(f"hg{g}", fields)
            em.line(f"S[{base}:{end}] = (1, " + ", ".join(vals) + ",)")
        else:
            em.line(f"hv = int.from_bytes(B[off:off + {nb}], 'big')")
            vals = self.field_reads("hv", self.packed_fields(t.fields, t.bits))
            em.line(f"S[{base}:{end}] = (1, " + ", ".join(vals) + ",)")
        em.line(f"off += {nb}")

    def gen_emit(self, hv, em, loc, always=False, cov=None):
        """Emit a header (only when valid) or every header of a struct/stack; ``always``
        emits the field values whatever the validity (Resubmit/Mirror data on Tofino).
        ``cov`` = (deparser, the header's name): an emitted header counts as a coverage
        point of that deparser."""
        t = hv.t
        guard = "" if always else f"if S[{hv.base}]: "
        if isinstance(t, HeaderT) and cov is not None and not always:
            counters = self.cov_point("emit", cov[0], loc, f"emit {cov[1]}")
            if counters:
                guard += f"COV[{counters[0]}] += 1; "
        if isinstance(t, HeaderT):
            nb = t.bits // 8
            fast, fmt = self.header_codec(t, loc)
            nf = len(t.fields)
            b1 = addb(hv.base, 1)
            end = addb(hv.base, nf + 1)
            groups = None if fast else self.header_groups(t)
            if fast:
                st = self.struct_fmt(fmt)
                em.line(f"{guard}O.append({st}.pack(*S[{b1}:{end}]))")
            elif groups is not None:
                st = self.struct_fmt(">" + "".join(GROUP_CODES[nbytes] for nbytes, _ in groups))
                packed = []
                for g, (nbytes, fields) in enumerate(groups):
                    value = self.packed_value(hv.base, fields)
                    parts = _group_parts(nbytes)
                    if len(parts) == 1:
                        packed.append(value)
                        continue
                    for k, (code, sh) in enumerate(parts):
                        part = f"(_dg{g} := {value})" if k == 0 else f"_dg{g}"
                        mask = (1 << CODE_BYTES[code] * 8) - 1
                        packed.append(f"(({part} >> {sh}) & {mask})" if sh else f"({part} & {mask})")
                em.line(f"{guard}O.append({st}.pack(" + ", ".join(packed) + "))")
            else:
                value = self.packed_value(hv.base, self.packed_fields(t.fields, t.bits))
                em.line(f"{guard}O.append(({value}).to_bytes({nb}, 'big'))")
        elif isinstance(t, StructT):
            for fname, ft in t.fields:
                fv = self.field_val(hv.base, t.offsets[fname], ft)
                if not ft.composite:
                    raise UnsupportedError(loc, f"emit of struct '{t.name}' with non-header field '{fname}'")
                self.gen_emit(fv, em, loc, cov=cov and (cov[0], f"{cov[1]}.{fname}"))
        elif isinstance(t, StackT):
            for i in range(t.size):
                b = addb(hv.base, 1 + i * t.elem.nslots)
                self.gen_emit(Val(t=t.elem, base=b), em, loc,
                              cov=cov and (cov[0], f"{cov[1]}[{i}]"))
        else:
            raise serr(loc, f"emit needs a header, struct or stack, not {tdesc(t) if t else '?'}")
