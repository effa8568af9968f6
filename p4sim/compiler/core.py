"""State shared by every part of the compiler: slots, generated names, objects, constants and
type resolution."""
import os

from ..types import (Bits, BlockT, BoolT, EnumT, ErrorT, ExternT, HeaderT, IntT, StackT, StringT,
                     VoidT, nslots)
from ..coverage import PointTable
from ..preprocess import INCLUDE_DIR
from .base import Scope, serr, tdesc


class CompilerCore:
    """State shared by every part of the compiler: slots, generated names, objects, constants
    and type resolution."""

    def __init__(self, decls, filename, coverage=True):
        self.decls = decls
        # coverage points and counters (p4sim.coverage); None: compiled without coverage
        self.cov = PointTable(os.getcwd()) if coverage else None
        self.cov_cond = 0        # > 0 while compiling an operand evaluated conditionally
        self.filename = filename
        self.types = {}
        self.glob = Scope()
        self.nslots = 1
        self.uidn = 0
        self.funcs = []          # generated function source blocks
        self.objects = []        # (pyname, kind, spec)
        self.structs = {}        # format -> pyname
        self.tables = {}         # qual -> TableSpec
        self.registers = {}
        self.counters = {}
        self.meters = {}
        self.value_sets = {}
        self.pipeline_name = None   # `pipe` of `Pipeline(...) pipe; Switch(pipe) main;`
        self.error_members = []
        self.error_t = ErrorT(self.error_members)
        self.match_kinds = set()
        self.ucast_slot = None
        self.ucast_flag = None
        self.mcast_flags = []
        self.written_flags = {}  # intrinsic slot whose validity matters -> its flag slot
        self.port_md_fields = None  # [(name, width)] of the port_metadata_unpack<T> type
        self.instances = []
        self.pipeline = None
        self.block_names = None     # type names of the Pipeline's six blocks
        self.layout = {}
        self.cur_loc = None
        self.compiled_blocks = set()
        self.sel_fields = {}     # deparser selector slot -> its "written" flag slot
        self.gress = None        # "ig"/"eg" while compiling a pipeline block

    def cov_point(self, kind, block, loc, text=None, counters=None):
        """Record a coverage point of the program's own source (p4sim's core.p4/tna.p4
        have none); ``counters`` None: a new counter. Returns its counters, or () when
        nothing is recorded (no coverage, or a point of p4sim's include files)."""
        if not self.cov_here(loc):
            return ()
        if counters is None:
            counters = (self.cov.counter(),)
        self.cov.add(kind, block, loc, text, counters)
        return tuple(counters)

    def cov_here(self, loc):
        """Whether points at ``loc`` are recorded (coverage on, the program's own file)."""
        return self.cov is not None and loc is not None and \
            os.path.dirname(os.path.abspath(loc.file)) != INCLUDE_DIR

    def cov_count(self, em, counters):
        """Emit the increment of a point's own counter (nothing when there is none)."""
        for c in counters[:1]:
            em.line(f"COV[{c}] += 1")

    def cov_entry(self, kind, qual, loc, pyname, fc, em):
        """The entry point of a generated function (action, function, RegisterAction):
        counted by its call sites when they are all known (PointTable.finish), so its
        ``COV[@fn]`` line is only a marker until then."""
        if not self.cov_here(loc):
            return
        ref = self.cov.function(pyname)
        self.cov_point(kind, qual, loc, counters=(ref,))
        em.line(f"COV[{ref}] += 1")
        fc.cov = (ref,)

    def cov_called(self, pyname, fc):
        """A call of ``pyname`` at the current point of ``fc``: run as often as its
        straight-line stretch, unless under a condition (``&&``, ``||``, ``?:``)."""
        if self.cov is not None:
            known = fc is not None and fc.cov is not None and not self.cov_cond
            self.cov.called(pyname, fc.cov if known else None)

    def cov_segment_start(self, fc, em):
        """The counter of a control's apply block (its statements carry the points)."""
        if self.cov is not None:
            fc.cov = ()
            self.cov_segment(fc, em)

    def cov_segment(self, fc, em):
        """Start a new straight-line stretch: the statements compiled next count on a new
        counter (emitted here), e.g. after an if whose arm may return."""
        if self.cov is not None and fc is not None and fc.cov is not None:
            fc.cov = (self.cov.counter(),)
            em.line(f"COV[{fc.cov[0]}] += 1")

    def uid(self, prefix):
        self.uidn += 1
        return f"{prefix}{self.uidn}"

    def alloc(self, t):
        base = self.nslots
        self.nslots += nslots(t)
        return base

    def struct_fmt(self, fmt):
        if fmt not in self.structs:
            name = self.uid("ST")
            self.structs[fmt] = name
        return self.structs[fmt]

    def add_object(self, kind, spec, prefix):
        name = self.uid(prefix)
        self.objects.append((name, kind, spec))
        return name

    def scalar(self, v, loc, what):
        """``v`` if it is a number (bit/int/enum/bool value), else a located error: the
        generated code never sees a header, struct or non-value where a number belongs."""
        t = self.scalar_t(v.t)
        if v.code is None or not isinstance(t, (Bits, IntT)):
            raise serr(loc, f"{what} must be a number, not {tdesc(v.t)}")
        return v

    def const_in(self, node, scope, fc, what):
        """A compile-time integer evaluated in ``scope`` (control-local constants too)."""
        v = self.expr(node, scope, fc, None)
        if v.const is None or isinstance(v.const, bool):
            raise serr(node.loc, f"{what} must be a compile-time integer constant")
        return int(v.const)

    def const_int(self, node, what="value"):
        v = self.expr(node, self.glob, None, None)
        if v.const is None or isinstance(v.const, bool):
            raise serr(node.loc, f"{what} must be a compile-time integer constant")
        return int(v.const)

    @staticmethod
    def aliases(pname, scope_qual):
        """Extra control-plane names from @name("x") (scoped) or @name(".x") (global)."""
        if not pname:
            return []
        if pname.startswith("."):
            return [pname[1:]]
        return [f"{scope_qual}.{pname}" if scope_qual else pname]

    def resolve_type(self, node, tparams=None, allow_dontcare=False):
        k = node.k
        if k == "dontcare_t" and not allow_dontcare:
            raise serr(node.loc, "'_' is not a type here")
        if k == "bits":
            w = self.const_int(node.width, "bit width")
            if w <= 0 or w > 4096:
                raise serr(node.loc, f"invalid bit width {w}")
            return Bits(w, node.signed)
        if k == "bool":
            return BoolT()
        if k == "infint":
            return IntT()
        if k == "void":
            return VoidT()
        if k == "errortype":
            return self.error_t
        if k == "string":
            return StringT()
        if k == "dontcare_t":
            return None
        if k == "stack":
            elem = self.resolve_type(node.elem, tparams)
            if not isinstance(elem, HeaderT):
                raise serr(node.loc, f"header stack element must be a header, not {tdesc(elem)}")
            size = self.const_int(node.size, "stack size")
            if size <= 0:
                raise serr(node.loc, "header stack size must be positive")
            return StackT(elem, size)
        if k == "tname":
            if tparams and node.name in tparams:
                return tparams[node.name]
            t = self.types.get(node.name)
            if t is None:
                raise serr(node.loc, f"unknown type '{node.name}'")
            if isinstance(t, ExternT):
                return ExternT(t.name, t.decl, [self.resolve_type(a, tparams, True) for a in node.args])
            if node.args and not isinstance(t, BlockT):
                raise serr(node.loc, f"type '{node.name}' is not generic")
            return t
        raise serr(node.loc, f"not a type: {k}")

    def scalar_t(self, t):
        if isinstance(t, EnumT) and t.underlying is not None:
            return t.underlying
        return t
