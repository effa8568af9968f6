"""Lpf and Wred (their models: p4sim/filters.py)."""
from ..filters import FilterSpec
from ..types import Bits
from .base import Val, serr


class FiltersMixin:
    """Lpf and Wred (their models: p4sim/filters.py)."""

    def _filter_spec(self, d, t, args, scope, fc, qual, nargs):
        if len(t.targs) != 2 or not isinstance(t.targs[0], Bits) or t.targs[0].signed:
            raise serr(d.loc, f"{t.name} '{qual}' needs a bit<W> sample type: {t.name}<bit<W>, I>")
        if len(args) != nargs:
            raise serr(d.loc, f"{t.name} '{qual}' takes {nargs} constructor argument(s)")
        size = self.const_in(args[0], scope, fc, f"{t.name} size")
        if size <= 0:
            raise serr(d.loc, f"{t.name} '{qual}' size must be positive")
        verdicts = [self.const_in(a, scope, fc, f"{t.name} value") & 0xFF for a in args[1:]]
        return FilterSpec(qual, size, t.targs[0].width, *verdicts)

    def inst_Lpf(self, d, t, args, inst, scope, qual, fc):
        inst.pyname = self.add_object("lpf", self._filter_spec(d, t, args, scope, fc, qual, 1), "LP")

    def inst_Wred(self, d, t, args, inst, scope, qual, fc):
        inst.pyname = self.add_object("wred", self._filter_spec(d, t, args, scope, fc, qual, 3), "WR")

    def _filter_call(self, inst, m, args, sc, fc, em, loc, result_t):
        if m != "execute":
            raise serr(loc, f"{inst.kind} '{inst.qual}' has no method '{m}'")
        self.need_args(inst, m, args, loc, 2)
        sample_t, index_t = inst.t.targs
        v = self.convert(self.expr(args[0], sc, fc, em), sample_t, args[0].loc,
                         f"{inst.kind}.execute value")
        i = self.convert(self.expr(args[1], sc, fc, em), index_t, args[1].loc,
                         f"{inst.kind}.execute index")
        return Val(code=f"{inst.pyname}.execute({v.code}, {i.code})", t=result_t)

    def inst_DirectLpf(self, d, t, args, inst, scope, qual, fc):
        inst.info["spec"] = self._direct_filter_spec(d, t, args, scope, fc, qual, 0)
        inst.pyname = self.add_object("direct_lpf", inst.info["spec"], "DL")

    def inst_DirectWred(self, d, t, args, inst, scope, qual, fc):
        inst.info["spec"] = self._direct_filter_spec(d, t, args, scope, fc, qual, 2)
        inst.pyname = self.add_object("direct_wred", inst.info["spec"], "DW")

    def _direct_filter_spec(self, d, t, args, scope, fc, qual, nargs):
        if len(t.targs) != 1 or not isinstance(t.targs[0], Bits) or t.targs[0].signed:
            raise serr(d.loc, f"{t.name} '{qual}' needs a bit<W> sample type: {t.name}<bit<W>>")
        if len(args) != nargs:
            raise serr(d.loc, f"{t.name} '{qual}' takes {nargs} constructor argument(s)")
        verdicts = [self.const_in(a, scope, fc, f"{t.name} value") & 0xFF for a in args]
        return FilterSpec(qual, 0, t.targs[0].width, *verdicts)

    def _direct_filter_call(self, inst, m, args, sc, fc, em, loc, result_t):
        if m != "execute":
            raise serr(loc, f"{inst.kind} '{inst.qual}' has no method '{m}'")
        if fc is None or fc.kind != "action":
            raise serr(loc, f"{inst.kind} '{inst.qual}'.execute runs in an action of the "
                            f"table whose 'filters' names it")
        self.need_args(inst, m, args, loc, 1)
        v = self.convert(self.expr(args[0], sc, fc, em), inst.t.targs[0], args[0].loc,
                         f"{inst.kind}.execute value")
        return Val(code=f"{inst.pyname}.execute({v.code})", t=result_t)

    def call_DirectLpf(self, inst, m, e, args, sc, fc, em, loc):
        return self._direct_filter_call(inst, m, args, sc, fc, em, loc, inst.t.targs[0])

    def call_DirectWred(self, inst, m, e, args, sc, fc, em, loc):
        return self._direct_filter_call(inst, m, args, sc, fc, em, loc, Bits(8))

    def call_Lpf(self, inst, m, e, args, sc, fc, em, loc):
        return self._filter_call(inst, m, args, sc, fc, em, loc, inst.t.targs[0])

    def call_Wred(self, inst, m, e, args, sc, fc, em, loc):
        return self._filter_call(inst, m, args, sc, fc, em, loc, Bits(8))
