"""Values, scopes and emitters the compiler passes around, and small helpers."""
from ..errors import P4SemanticError


def serr(loc, msg):
    return P4SemanticError(loc, msg)


class Val:
    """Result of compiling an expression."""
    __slots__ = ("code", "t", "const", "lv", "base", "extra")

    def __init__(self, code=None, t=None, const=None, lv=None, base=None, extra=None):
        self.code = code      # Python expression (scalars)
        self.t = t
        self.const = const    # compile-time value, or None
        self.lv = lv          # ('S', idxcode, idxconst) | ('L', name) | ('slice', lv, hi, lo, t)
        self.base = base      # composite: base slot (int, or Python expression string)
        self.extra = extra    # special things: ('type', T), ('table', ..), ...


def tdesc(t):
    """Describe a type for an error message (None: the expression has no value type)."""
    return t.describe() if t is not None else "a non-value (action, table, extern or type)"


def cval(v, t):
    if isinstance(v, bool):
        return Val(code="True" if v else "False", t=t, const=v)
    return Val(code=repr(int(v)), t=t, const=v)


def addb(base, off):
    if isinstance(base, int):
        return base + off
    return f"({base} + {off})" if off else base


class Scope:
    def __init__(self, parent=None):
        self.parent = parent
        self.d = {}

    def lookup(self, name):
        s = self
        while s is not None:
            if name in s.d:
                return s.d[name]
            s = s.parent
        return None

    def __setitem__(self, k, v):
        self.d[k] = v


class Emitter:
    def __init__(self, indent=1):
        self.lines = []
        self.ind = indent

    def line(self, s):
        self.lines.append("    " * self.ind + s)

    def indent(self):
        self.ind += 1

    def dedent(self):
        self.ind -= 1


class FnCtx:
    def __init__(self, kind, ret=None, outs=(), qual=""):
        self.kind = kind   # control / parser / deparser / action / function / ra
        self.ret = ret
        self.outs = list(outs)
        self.qual = qual
        self.cov = None    # the coverage counter of the straight-line stretch being compiled


class Callable:
    def __init__(self, kind, decl, scope, qual, short):
        self.kind = kind
        self.decl = decl
        self.scope = scope
        self.qual = qual
        self.short = short
        self.pyname = None
        self.params = None      # list of (name, dir, type, pyname or slot base)
        self.ret = None
        self.cp_params = None   # control-plane params (for table actions)


class Inst:
    """An extern, control or parser instance."""

    def __init__(self, kind, qual, decl, t):
        self.kind = kind
        self.qual = qual
        self.decl = decl
        self.t = t
        self.pyname = None
        self.info = {}


def expr_text(e):
    k = e.k
    if k == "name":
        return ("." if e.get("top") else "") + e.name
    if k == "member":
        return f"{expr_text(e.expr)}.{e.name}"
    if k == "index":
        return f"{expr_text(e.expr)}[{expr_text(e.index)}]"
    if k == "slice":
        return f"{expr_text(e.expr)}[{expr_text(e.hi)}:{expr_text(e.lo)}]"
    if k == "int":
        return str(e.value)
    if k == "binop":
        return f"{expr_text(e.left)} {e.op} {expr_text(e.right)}"
    if k == "call":
        return f"{expr_text(e.fn)}()"
    return k


def plv_code(lv):
    kind = lv[0]
    if kind == "S":
        return f"S[{lv[1]}]"
    if kind == "L":
        return lv[1]
    if kind == "slice":
        _, plv, hi, lo, pt = lv
        return f"(({plv_code(plv)} >> {lo}) & {(1 << (hi - lo + 1)) - 1})"
    raise ValueError(kind)
