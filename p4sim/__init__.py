"""p4sim: a bit-exact executor of the P4-16 + TNA subset used by p4src/ (see README.md)."""
from .errors import (ControlPlaneError, FrontEndError, Loc, P4RuntimeError, P4SemanticError,
                     P4SimError, P4SyntaxError, PreprocessorError, RegisterConflictError,
                     UnsupportedError)
from .program import InternalCompilerError, Program, compile_file, compile_source
from .switch import Switch

__all__ = [
    "compile_file", "compile_source", "Program", "Switch", "P4SimError", "FrontEndError",
    "PreprocessorError", "P4SyntaxError", "P4SemanticError", "UnsupportedError",
    "ControlPlaneError", "P4RuntimeError", "RegisterConflictError", "InternalCompilerError", "Loc",
]
