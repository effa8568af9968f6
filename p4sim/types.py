"""Compile-time types of p4sim's P4 subset and the slot layout of composite types."""


class Type:
    composite = False
    scalar = True

    def __repr__(self):
        return self.describe()


class Bits(Type):
    def __init__(self, width, signed=False):
        self.width = width
        self.signed = signed
        self.mask = (1 << width) - 1

    def describe(self):
        return f"{'int' if self.signed else 'bit'}<{self.width}>"

    def __eq__(self, o):
        return isinstance(o, Bits) and o.width == self.width and o.signed == self.signed

    def __hash__(self):
        return hash((self.width, self.signed))


class BoolT(Type):
    width = 1
    signed = False

    def describe(self):
        return "bool"

    def __eq__(self, o):
        return isinstance(o, BoolT)

    def __hash__(self):
        return 1


class IntT(Type):
    """Arbitrary-precision integer (literals and int constants)."""

    def describe(self):
        return "int"

    def __eq__(self, o):
        return isinstance(o, IntT)

    def __hash__(self):
        return 2


class StringT(Type):
    def describe(self):
        return "string"


class VoidT(Type):
    def describe(self):
        return "void"


class ErrorT(Type):
    width = 16  # stored as a small integer (index of the error member)
    signed = False

    def __init__(self, members):
        self.members = members

    def describe(self):
        return "error"


class MatchKindT(Type):
    def describe(self):
        return "match_kind"


class EnumT(Type):
    def __init__(self, name, members, underlying=None):
        self.name = name
        self.members = members          # name -> int value
        self.underlying = underlying    # Bits or None
        self.width = underlying.width if underlying else 32
        self.signed = underlying.signed if underlying else False

    def describe(self):
        return f"enum {self.name}"


class HeaderT(Type):
    composite = True
    scalar = False

    def __init__(self, name, fields):
        self.name = name
        self.fields = fields  # list of (name, Type)
        self.offsets = {}
        self.ftypes = {}
        off = 1  # slot 0 is the validity bit
        for fname, ft in fields:
            self.offsets[fname] = off
            self.ftypes[fname] = ft
            off += 1
        self.nslots = off
        self.bits = sum(ft.width for _, ft in fields)

    def describe(self):
        return f"header {self.name}"


class StructT(Type):
    composite = True
    scalar = False

    def __init__(self, name, fields):
        self.name = name
        self.fields = fields
        self.offsets = {}
        self.ftypes = {}
        off = 0
        for fname, ft in fields:
            self.offsets[fname] = off
            self.ftypes[fname] = ft
            off += nslots(ft)
        self.nslots = off

    def describe(self):
        return f"struct {self.name}"


class StackT(Type):
    composite = True
    scalar = False

    def __init__(self, elem, size):
        self.elem = elem
        self.size = size
        self.nslots = 1 + size * elem.nslots  # slot 0: nextIndex

    def describe(self):
        return f"{self.elem.name}[{self.size}]"


class ExternT(Type):
    scalar = False

    def __init__(self, name, decl, targs=()):
        self.name = name
        self.decl = decl
        self.targs = list(targs)

    def describe(self):
        return f"extern {self.name}"


class BlockT(Type):
    """A parser/control/package type."""
    scalar = False

    def __init__(self, kind, name, decl):
        self.kind = kind
        self.name = name
        self.decl = decl

    def describe(self):
        return f"{self.kind} {self.name}"


def nslots(t):
    if t.composite:
        return t.nslots
    return 1


def same_type(a, b):
    if a is b:
        return True
    if isinstance(a, (Bits, BoolT, IntT)) or isinstance(b, (Bits, BoolT, IntT)):
        return a == b
    if isinstance(a, StackT) and isinstance(b, StackT):
        return a.size == b.size and same_type(a.elem, b.elem)
    if isinstance(a, ErrorT) and isinstance(b, ErrorT):
        return True
    return False


def wrap_value(v, t):
    """Wrap a Python int into the value range of scalar type t."""
    if isinstance(t, BoolT):
        return bool(v)
    if isinstance(t, (Bits, EnumT, ErrorT)):
        w = t.width
        m = (1 << w) - 1
        if t.signed:
            h = 1 << (w - 1)
            return ((v + h) & m) - h
        return v & m
    return v
