"""Counter and DirectCounter."""
from ..runtime import CounterSpec
from .base import serr


class CountersMixin:
    """Counter and DirectCounter."""

    def inst_Counter(self, d, t, args, inst, scope, qual, fc):
        size = self.const_in(args[0], scope, fc, "counter size") if args else 0
        spec = CounterSpec(qual, size, "PACKETS_AND_BYTES")
        self.counters[qual] = spec
        inst.pyname = self.add_object("counter", spec, "C")

    def inst_DirectCounter(self, d, t, args, inst, scope, qual, fc):
        inst.pyname = None

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
