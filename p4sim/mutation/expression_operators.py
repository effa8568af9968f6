"""Operators on expressions: relational and arithmetic/bitwise operator replacement, a
dropped ``!`` or ``~``, a negated ``?:``, constants and masks (+-1, single-bit flips)
and deleted hash inputs. A mixin of operators.Operators (its ``add``, ``words``,
``index_of``, ``text_of``, ``hashes``)."""
from __future__ import annotations

from .edits import Edit

RELATIONAL = {"==": ["!="], "!=": ["=="], "<": ["<=", ">"], "<=": ["<", ">="],
              ">": [">=", "<"], ">=": [">", "<="], "&&": ["||"], "||": ["&&"]}
ARITHMETIC = {"+": ["-"], "-": ["+"], "*": ["+"], "&": ["|"], "|": ["&", "^"], "^": ["|"],
              "<<": [">>"], ">>": ["<<"], "|+|": ["+"], "|-|": ["-"], "/": ["*"],
              "%": ["/"]}


class ExpressionOperators:
    """The expression operators of Operators."""

    def expression(self, e) -> None:
        if e is None or "span" not in e.__dict__:
            return
        k = e.k
        if k == "binop":
            self.binop(e)
            self.expression(e.left)
            self.expression(e.right)
        elif k == "unop":
            if e.op in ("!", "~"):
                op = "negate_cond" if e.op == "!" else "unary"
                self.add(op, e.span[0], f"'{e.op}' dropped from "
                         f"'{self.words(*e.span)}'", Edit(e.span[0], e.span[0], ""))
            self.expression(e.expr)
        elif k == "cond":
            self.add("negate_cond", e.cond.span[0], f"condition "
                     f"'{self.words(*e.cond.span)}' of ?: negated",
                     Edit(*e.cond.span, "!(\0)"))
            for n in (e.cond, e.then, e.els):
                self.expression(n)
        elif k == "int":
            self.constant(e)
        elif k in ("cast", "slice", "index", "member"):
            self.expression(e.expr)
        elif k == "call":
            fn = e.fn
            hashed = (fn.k == "member" and fn.name == "get" and fn.expr.k == "name"
                      and fn.expr.name in self.hashes)
            for arg in e.args:
                v = arg.value
                if hashed and v.k == "list" and len(v.items) > 1:
                    self.hash_inputs(fn.expr.name, v)
                self.expression(v)
        elif k == "list":
            for item in e.items:
                self.expression(item.value if item.k == "kv" else item)

    def binop(self, e) -> None:
        i = self.operator_token(e)
        if i is None:
            return
        for table, op in ((RELATIONAL, "relational"), (ARITHMETIC, "arithmetic")):
            for repl in table.get(e.op, []):
                self.add(op, i, f"'{e.op}' replaced by '{repl}' in "
                         f"'{self.words(*e.span)}'", Edit(i, i, repl))

    def operator_token(self, e):
        """Token index of a binary operator (``>>`` is two '>' tokens: not mutated)."""
        i = self.index_of.get((e.loc.file, e.loc.line, e.loc.col))
        if i is None or self.tokens[i].kind != e.op:
            return None
        return i

    def constant(self, e) -> None:
        i = e.span[0]
        text = self.text_of(i)
        value, width = e.value, e.width
        prefix, body = _split_width(text)
        hexa = body[:2].lower() in ("0x", "0b")
        limit = (1 << width) if width else None
        candidates = [(value + 1, "+1")]
        if value > 0:
            candidates.append((value - 1, "-1"))
        if hexa and value:
            hi = value.bit_length() - 1
            lo = (value & -value).bit_length() - 1
            candidates.append((value ^ (1 << hi), f"bit {hi} flipped"))
            if lo != hi:
                candidates.append((value ^ (1 << lo), f"bit {lo} flipped"))
            if limit is None or (1 << (hi + 1)) < limit:
                candidates.append((value | (1 << (hi + 1)), f"bit {hi + 1} flipped"))
        seen = set()
        for v, how in candidates:
            if v < 0 or (limit is not None and v >= limit) or v in seen or v == value:
                continue
            seen.add(v)
            self.add("constant", i, f"constant {text} {how}: {prefix}{_spell(v, body)}",
                     Edit(i, i, prefix + _spell(v, body)))

    def hash_inputs(self, hash_name, lst) -> None:
        items = lst.items
        for n, item in enumerate(items):
            if n + 1 < len(items):
                first, last = item.span[0], items[n + 1].span[0] - 1
            else:
                first, last = items[n - 1].span[1] + 1, item.span[1]
            self.add("del_hash_input", item.span[0], f"hash {hash_name}: input "
                     f"'{self.words(*item.span)}' deleted", Edit(first, last, ""))


def _split_width(text: str) -> tuple[str, str]:
    """'8w0x7f' -> ('8w', '0x7f')."""
    for n, ch in enumerate(text):
        if not ch.isdigit():
            if ch in "ws" and n > 0:
                return text[:n + 1], text[n + 1:]
            break
    return "", text


def _spell(value: int, like: str) -> str:
    """``value`` written in the base of the literal ``like``."""
    low = like[:2].lower()
    digits = len(like) - 2
    if low == "0x":
        spec = "x" if like[2:].islower() or like[2:].isdigit() else "X"
        return like[:2] + format(value, f"0{digits}{spec}")
    if low == "0b":
        return like[:2] + format(value, f"0{digits}b")
    return str(value)
