"""Exception hierarchy of p4sim.  Every error is a :class:`P4SimError`."""


class Loc:
    __slots__ = ("file", "line", "col")

    def __init__(self, file, line, col):
        self.file = file
        self.line = line
        self.col = col

    def __str__(self):
        return f"{self.file}:{self.line}:{self.col}"

    __repr__ = __str__


class P4SimError(Exception):
    """Base class of every error raised by p4sim."""


class FrontEndError(P4SimError):
    """An error in the P4 source; ``loc`` is the file:line:col it concerns."""

    def __init__(self, loc, msg):
        self.loc = loc
        self.msg = msg
        super().__init__(f"{loc}: {msg}")


class PreprocessorError(FrontEndError):
    pass


class P4SyntaxError(FrontEndError):
    pass


class P4SemanticError(FrontEndError):
    """Type or name error detected while compiling the program."""


class UnsupportedError(FrontEndError):
    """A valid P4 construct that p4sim does not implement."""


class ControlPlaneError(P4SimError):
    """Wrong table/register/action name, key width, value out of range, ..."""


class P4RuntimeError(P4SimError):
    """An error while executing a packet (e.g. a register executed twice in one pass)."""


class RegisterConflictError(P4RuntimeError):
    pass
