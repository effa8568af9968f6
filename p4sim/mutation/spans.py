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
            elif isinstance(v, dict):             # a table's properties
                stack[:0] = list(v.values())
    return out


def fill_spans(node, tokens) -> None:
    """Give every node without a span the union of its children's spans; a postfix
    node (``a.b``, ``a[i]``, ``a[h:l]``, ``f(x)``) spans from its base to its end (the
    ``postfix`` production starts after the base, so its own record is not used)."""
    kids = children(node)
    for kid in kids:
        fill_spans(kid, tokens)
    base = {"member": "expr", "index": "expr", "slice": "expr", "call": "fn"}.get(node.k)
    base_node = node.get(base) if base is not None else None
    if isinstance(base_node, N) and "span" in base_node.__dict__:
        first, last = getattr(node, base).span
        if node.k == "member":
            node.span = (first, last + 2)            # . name
        else:
            node.span = (first, _closing(tokens, last + 1))
    elif "span" not in node.__dict__:
        spans = [k.span for k in kids if "span" in k.__dict__]
        if spans:
            node.span = (min(s[0] for s in spans), max(s[1] for s in spans))


def _closing(tokens, i: int) -> int:
    """Index of the bracket closing the '(' / '[' / '<' at ``i`` (a call's type
    arguments ``f<T>(x)`` run on to its argument list)."""
    pairs = {"(": ")", "[": "]", "<": ">"}
    while True:
        opening = tokens[i].kind
        depth = 0
        for j in range(i, len(tokens)):
            if tokens[j].kind == opening:
                depth += 1
            elif tokens[j].kind == pairs[opening]:
                depth -= 1
                if depth == 0:
                    break
        if opening == "<" and j + 1 < len(tokens) and tokens[j + 1].kind == "(":
            i = j + 1
            continue
        return j


def parse_with_spans(text: str, filename: str, builtin_types=()):
    """(declarations, tokens) of preprocessed ``text``, every node with a ``span``."""
    tokens = tokenize(text, filename)
    parser = SpanParser(tokens)
    parser.scopes[0].update(builtin_types)
    decls = parser.program()
    for d in decls:
        fill_spans(d, tokens)
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
