"""Recursive-descent parser for the P4-16 subset p4sim supports.

The type-name / identifier ambiguity of P4-16 is resolved the way p4c's lexer feedback
does it: the parser keeps a scoped table of names declared as types (headers, structs,
typedefs, enums, externs, parsers, controls, packages and type parameters) and consults it
wherever a type and an expression may both start.

Modules: core.py (tokens, type-name scopes, annotations), types.py, declarations.py,
tables.py, states.py (parser states), statements.py, expressions.py.
"""
from ..lexer import tokenize
from .declarations import DeclarationsMixin
from .tables import TablesMixin
from .states import StatesMixin
from .statements import StatementsMixin
from .expressions import ExpressionsMixin
from .types import TypesMixin
from .core import ParserCore


class Parser(DeclarationsMixin, TablesMixin, StatesMixin, StatementsMixin, ExpressionsMixin,
             TypesMixin, ParserCore):
    """Recursive descent over the token list; program() returns the declarations."""


def parse(text, filename="<string>", builtin_types=()):
    p = Parser(tokenize(text, filename))
    p.scopes[0].update(builtin_types)
    return p.program()
