"""p4sim's parser, recording on every node the token range it was parsed from.

The AST keeps only where a node starts; a mutation replaces or deletes a whole construct,
so it needs where the construct ends too. ``SpanParser`` wraps the parser's productions
and sets ``node.span = (first token index, last token index)`` on the node each returns
(the innermost production wins, so ``(a + b)`` spans ``a + b``); nodes built inside a
production (a chain of binary operators, table entries, select cases) get theirs from
their children or from ``statement_end``.
"""
from __future__ import annotations

from ..ast import N
from ..lexer import tokenize
from ..parser import Parser

_PRODUCTIONS = ("statement", "block", "expr", "unary", "primary", "postfix",
                "simple_keyset", "parser_state", "table_decl", "instantiation",
                "action_decl", "const_decl", "var_decl_rest")


class SpanParser(Parser):
    """Parser whose productions record their token span on the node they return."""


def _spanning(name):
    base = getattr(Parser, name)

    def production(self, *args, **kwargs):
        first = self.i
        node = base(self, *args, **kwargs)
        if isinstance(node, N) and "span" not in node.__dict__:
            node.span = (first, self.i - 1)
        return node
    production.__name__ = name
    return production


for _name in _PRODUCTIONS:
    setattr(SpanParser, _name, _spanning(_name))


def children(node):
    """The nodes directly under ``node`` (lists flattened), in field order."""
    out = []
    for key, value in vars(node).items():
        if key in ("loc", "span"):
            continue
        stack = [value]
        while stack:
            v = stack.pop(0)
            if isinstance(v, N):
                out.append(v)
            elif isinstance(v, (list, tuple)):
                stack[:0] = list(v)
    return out


def fill_spans(node) -> None:
    """Give every node without a span the union of its children's spans."""
    kids = children(node)
    for kid in kids:
        fill_spans(kid)
    if "span" not in node.__dict__:
        spans = [k.span for k in kids if "span" in k.__dict__]
        if spans:
            node.span = (min(s[0] for s in spans), max(s[1] for s in spans))


def parse_with_spans(text: str, filename: str, builtin_types=()):
    """(declarations, tokens) of preprocessed ``text``, every node with a ``span``."""
    tokens = tokenize(text, filename)
    parser = SpanParser(tokens)
    parser.scopes[0].update(builtin_types)
    decls = parser.program()
    for d in decls:
        fill_spans(d)
    return decls, tokens


def statement_end(tokens, first: int) -> int:
    """Index of the ';' that ends the construct starting at token ``first`` (brackets
    balanced), e.g. a table entry or a select case."""
    depth = 0
    for i in range(first, len(tokens)):
        kind = tokens[i].kind
        if kind in ("(", "[", "{"):
            depth += 1
        elif kind in (")", "]", "}"):
            depth -= 1
        elif kind == ";" and depth == 0:
            return i
    raise ValueError(f"no ';' after {tokens[first].loc}")
