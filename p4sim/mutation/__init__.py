"""Mutation testing of P4 programs: single-point mutants of the parsed source.

``generate(path, include_dirs, defines)`` gives every mutant of a program (operators in
operators.py, where their text lives in source_map.py, ids and diffs in mutant.py);
``filters`` drops the mutants p4sim refuses and the ones it compiles to the original's
program (canonical.py: the order-free forms of const entries and select cases). Running a test suite on the survivors of the filters is the caller's business
(atp_fixtures.mutation for the ATP conformance suite).
"""
from .engine import generate
from .mutant import Mutant, SourceEdit
from .operators import OPERATORS

__all__ = ["generate", "Mutant", "SourceEdit", "OPERATORS"]
