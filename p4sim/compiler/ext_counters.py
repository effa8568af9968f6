"""Counter, DirectCounter, Meter and DirectMeter (colour model: runtime.MeterBucket)."""
from ..errors import UnsupportedError
from ..runtime import CounterSpec, MeterSpec
from ..types import Bits, EnumT
from .base import Val, serr


class CountersMixin:
    """Counter, DirectCounter, Meter and DirectMeter (colour model: runtime.MeterBucket)."""

    def inst_Counter(self, d, t, args, inst, scope, qual, fc):
        size = self.const_in(args[0], scope, fc, "counter size") if args else 0
        spec = CounterSpec(qual, size, self.counter_type(args[1:], scope, fc))
        self.counters[qual] = spec
        inst.pyname = self.add_object("counter", spec, "C")

    def counter_type(self, args, scope, fc):
        """The CounterType_t member name (PACKETS, BYTES, PACKETS_AND_BYTES); both counts
        are kept whatever it is, the name is for the control plane's schema."""
        if not args:
            return "PACKETS_AND_BYTES"
        ct = self.expr(args[0], scope, fc, None)
        if not isinstance(ct.t, EnumT) or ct.t.name != "CounterType_t" or ct.const is None:
            raise serr(args[0].loc, "expected a CounterType_t member")
        return [k for k, v in ct.t.members.items() if v == ct.const][0]

    def inst_DirectCounter(self, d, t, args, inst, scope, qual, fc):
        inst.pyname = None
        inst.info["counter_type"] = self.counter_type(args, scope, fc)

    def call_Counter(self, inst, m, e, args, sc, fc, em, loc):
        qual = inst.qual
        if m != "count":
            raise serr(loc, f"Counter '{qual}' has no method '{m}'")
        idx, adj = self.named_args(e, ("index", "adjust_byte_count"), 1, f"Counter.count of '{qual}'")
        iv = self.scalar(self.expr(idx, sc, fc, em), idx.loc, "counter index")
        adj = ", " + self.scalar(self.expr(adj, sc, fc, em), adj.loc, "adjust_byte_count").code if adj else ""
        em.line(f"{inst.pyname}.count({iv.code}{adj})")
        return None

    def call_DirectCounter(self, inst, m, e, args, sc, fc, em, loc):
        qual = inst.qual
        if m != "count":
            raise serr(loc, f"DirectCounter '{qual}' has no method '{m}'")
        (adj,) = self.named_args(e, ("adjust_byte_count",), 0, f"DirectCounter.count of '{qual}'")
        adj = ", " + self.scalar(self.expr(adj, sc, fc, em), adj.loc, "adjust_byte_count").code if adj else ""
        em.line(f"count_direct(CTX{adj})")
        return None

    def meter_spec(self, d, t, args, scope, fc, qual, size):
        """MeterType_t and the optional (red, yellow, green) values the meter returns."""
        if not args:
            raise serr(d.loc, f"{t.name} '{qual}' needs a MeterType_t")
        mt = self.expr(args[0], scope, fc, None)
        if not isinstance(mt.t, EnumT) or mt.t.name != "MeterType_t" or mt.const is None:
            raise serr(args[0].loc, f"{t.name} '{qual}': expected MeterType_t.PACKETS or .BYTES")
        kind = [k for k, v in mt.t.members.items() if v == mt.const][0]
        colors = (0, 1, 3)
        if len(args) == 4:
            red, yellow, green = (self.const_in(a, scope, fc, "meter colour value") & 0xFF
                                  for a in args[1:])
            colors = (green, yellow, red)
        elif len(args) != 1:
            raise serr(d.loc, f"{t.name} '{qual}': arguments ({'size, ' if size else ''}type"
                              f"[, red, yellow, green])")
        return MeterSpec(qual, size, kind, colors)

    def inst_Meter(self, d, t, args, inst, scope, qual, fc):
        if not args:
            raise serr(d.loc, f"Meter '{qual}' needs a size")
        size = self.const_in(args[0], scope, fc, "meter size")
        if size <= 0:
            raise serr(d.loc, f"Meter '{qual}' size must be positive")
        spec = self.meter_spec(d, t, args[1:], scope, fc, qual, size)
        self.meters[qual] = spec
        inst.pyname = self.add_object("meter", spec, "MT")

    def inst_DirectMeter(self, d, t, args, inst, scope, qual, fc):
        spec = self.meter_spec(d, t, args, scope, fc, qual, 0)
        inst.info["spec"] = spec
        inst.pyname = self.add_object("direct_meter", spec, "DM")

    def meter_args(self, e, names, required, sc, fc, em, what):
        """execute([index,] [color,] [adjust_byte_count]): the colour is told apart from
        the byte adjustment by its type (MeterColor_t), as TNA's overloads are."""
        pos = [a for a in e.args if a.name is None]
        named = {a.name: a.value for a in e.args if a.name is not None}
        vals = {}
        rest = list(names)
        for a in pos:
            if not rest:
                raise serr(a.loc, f"too many arguments for {what}")
            n = rest.pop(0)
            if n == "color":
                v = self.expr(a.value, sc, fc, em)
                if not (isinstance(v.t, EnumT) and v.t.name == "MeterColor_t"):
                    n = rest.pop(0) if rest else n
                    vals[n] = a.value
                    continue
            vals[n] = a.value
        for k, v in named.items():
            if k not in names:
                raise serr(e.loc, f"{what} has no parameter '{k}'")
            vals[k] = v
        for n in names[:required]:
            if n not in vals:
                raise serr(e.loc, f"{what} needs the argument '{n}'")
        code = []
        if "index" in names:
            iv = self.scalar(self.expr(vals["index"], sc, fc, em), vals["index"].loc, "meter index")
            code.append(iv.code)
        if "color" in vals:
            cv = self.expr(vals["color"], sc, fc, em)
            if not (isinstance(cv.t, EnumT) and cv.t.name == "MeterColor_t"):
                raise serr(vals["color"].loc, f"{what}: color must be a MeterColor_t")
            code.append(cv.code)
        else:
            code.append("0")
        if "adjust_byte_count" in vals:
            a = vals["adjust_byte_count"]
            code.append(self.scalar(self.expr(a, sc, fc, em), a.loc, "adjust_byte_count").code)
        return ", ".join(code)

    def call_Meter(self, inst, m, e, args, sc, fc, em, loc):
        if m != "execute":
            raise serr(loc, f"Meter '{inst.qual}' has no method '{m}'")
        code = self.meter_args(e, ("index", "color", "adjust_byte_count"), 1, sc, fc, em,
                               f"Meter.execute of '{inst.qual}'")
        return Val(code=f"{inst.pyname}.execute({code})", t=Bits(8))

    def call_DirectMeter(self, inst, m, e, args, sc, fc, em, loc):
        if m != "execute":
            raise serr(loc, f"DirectMeter '{inst.qual}' has no method '{m}'")
        if fc.kind != "action":
            raise UnsupportedError(loc, "DirectMeter execute outside a table action")
        code = self.meter_args(e, ("color", "adjust_byte_count"), 0, sc, fc, em,
                               f"DirectMeter.execute of '{inst.qual}'")
        return Val(code=f"direct_meter({inst.pyname}, CTX, {code})", t=Bits(8))
