"""Hash (with CRCPolynomial and @symmetric), Random and Checksum: the externs that reduce a
field list to a number."""
from ..errors import UnsupportedError
from ..types import Bits, BoolT, EnumT, HeaderT, StructT
from .base import Val, expr_text, serr, tdesc


class HashesMixin:
    """Hash (with CRCPolynomial and @symmetric), Random and Checksum: the externs that reduce a
    field list to a number."""

    def inst_Hash(self, d, t, args, inst, scope, qual, fc):
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

    def inst_CRCPolynomial(self, d, t, args, inst, scope, qual, fc):
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

    def inst_Random(self, d, t, args, inst, scope, qual, fc):
        if len(t.targs) != 1 or not isinstance(t.targs[0], Bits):
            raise serr(d.loc, "Random needs a bit<W> type argument")
        inst.pyname = self.add_object("random", t.targs[0].width, "RN")

    def inst_Checksum(self, d, t, args, inst, scope, qual, fc):
        inst.pyname = self.add_object("checksum", None, "CK")

    def call_Hash(self, inst, m, e, args, sc, fc, em, loc):
        qual = inst.qual
        if m != "get":
            raise serr(loc, f"Hash '{qual}' has no method '{m}'")
        self.need_args(inst, m, args, loc, 1)
        code, nbits = self.concat_list(args[0], sc, fc, em, f"hash '{qual}'",
                                       inst.info.get("symmetric", ()))
        return Val(code=f"{inst.pyname}.get({code}, {nbits})", t=inst.t.targs[0])

    def call_Random(self, inst, m, e, args, sc, fc, em, loc):
        qual = inst.qual
        if m != "get":
            raise serr(loc, f"Random '{qual}' has no method '{m}'")
        return Val(code=f"{inst.pyname}.getrandbits({inst.t.targs[0].width})", t=inst.t.targs[0])

    def call_Checksum(self, inst, m, e, args, sc, fc, em, loc):
        qual = inst.qual
        ck = inst.pyname
        if m in ("add", "subtract"):
            self.need_args(inst, m, args, loc, 1)
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
