"""Every construct of a program that p4sim refuses, each with its file:line -- not only
the first, which is all a compile can report (it stops there).

One owner per rule: what p4sim supports is what the compiler's dispatch tables
(``compiler/externs.py``: INSTANTIATE, CALL) list, so an extern that gains support
there (in any engineer's change) stops being reported here without touching this
module. The scan finds the extern instances of unsupported types anywhere in the
program (top level, controls, parsers); every other refusal is the compiler's own
``UnsupportedError``, added when its line is not already listed.
"""
from __future__ import annotations

from .ast import N
from .compiler.externs import INSTANTIATE
from .errors import FrontEndError, Loc, UnsupportedError
from .parser import parse
from .preprocess import preprocess
from .program import Program, compile_source


def _nodes(node):
    """Every AST node under ``node`` (itself included), depth first."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, N):
            yield n
            stack.extend(v for v in vars(n).values() if isinstance(v, (N, list, tuple)))
        elif isinstance(n, (list, tuple)):
            stack.extend(n)


def refused_externs(decls) -> list[tuple[Loc, str]]:
    """(loc, what) of each instance of an extern type the compiler cannot instantiate."""
    externs = {d.name for d in decls if d.k == "extern"}
    out = []
    for n in _nodes(decls):
        if n.k != "instance" or n.type.k != "tname":
            continue
        t = n.type.name
        if t in externs and t not in INSTANTIATE:
            out.append((n.loc, f"unsupported extern '{t}' (instance '{n.name}')"))
    return out


def check_program(path: str, include_dirs=(), defines=None) -> tuple[Program | None, list]:
    """(the compiled program or None, [(loc, what)] of every refused construct found).
    A syntax or semantic error that is not a refusal is raised (the program is wrong,
    not beyond p4sim)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    decls = parse(preprocess(text, path, include_dirs, defines), path)
    refused = refused_externs(decls)
    try:
        return compile_source(text, path, include_dirs, defines, coverage=False), refused
    except UnsupportedError as e:
        if not any((loc.file, loc.line) == (e.loc.file, e.loc.line) for loc, _ in refused):
            refused.append((e.loc, e.msg))
    except FrontEndError:
        if not refused:
            raise
        # an error past a refused construct may be its consequence: the refusals say why
    return None, sorted(refused, key=lambda r: (r[0].file, r[0].line, r[0].col))
