"""Tokenizer for preprocessed P4-16 text (understands ``#line`` markers)."""
import re

from .errors import Loc, P4SyntaxError

KEYWORDS = {
    "action", "apply", "bit", "bool", "const", "control", "default", "else", "enum",
    "error", "exit", "extern", "false", "header", "header_union", "if", "in", "inout",
    "int", "key", "match_kind", "out", "parser", "package", "return", "select", "state",
    "struct", "switch", "table", "transition", "true", "tuple", "typedef", "type",
    "varbit", "void", "actions", "entries", "abstract", "value_set", "string",
    "list", "for",
}

PUNCT = [
    "&&&", "|+|", "|-|", "..", "++", "&&", "||", "==", "!=", "<=", ">=", "<<",
    "{", "}", "(", ")", "[", "]", ";", ":", ",", ".", "=", "<", ">", "+", "-", "*",
    "/", "%", "&", "|", "^", "~", "!", "?", "@",
]

_TOKEN_RE = re.compile(r"""
  (?P<ws>[ \t\r\f\v]+)
| (?P<nl>\n)
| (?P<comment>//[^\n]*|/\*.*?\*/)
| (?P<num>(?:[0-9]+[ws])?(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|0[dD][0-9_]+|[0-9][0-9_]*))
| (?P<id>[A-Za-z_][A-Za-z0-9_]*)
| (?P<str>"(?:[^"\\\n]|\\.)*")
| (?P<punct>&&&|\|\+\||\|-\||\.\.|\+\+|&&|\|\||==|!=|<=|>=|<<|[{}()\[\];:,.=<>+\-*/%&|^~!?@])
""", re.S | re.X)

_LINE_RE = re.compile(r'[ \t]*#[ \t]*(?:line[ \t]+)?([0-9]+)(?:[ \t]+"((?:[^"\\]|\\.)*)")?[^\n]*')
_PRAGMA_RE = re.compile(r'[ \t]*#[^\n]*')


class Token:
    __slots__ = ("kind", "value", "loc", "end", "extra")

    def __init__(self, kind, value, loc, end, extra=None):
        self.kind = kind      # 'id', 'kw', 'num', 'str', punctuation text, 'eof'
        self.value = value
        self.loc = loc
        self.end = end        # absolute end offset (for adjacency of '>' '>')
        self.extra = extra    # for numbers: (width, signed) or None

    def __repr__(self):
        return f"Token({self.kind!r}, {self.value!r}, {self.loc})"


def parse_int_literal(text, loc):
    width = None
    signed = False
    m = re.match(r"([0-9]+)([ws])(.*)$", text)
    body = text
    if m:
        width = int(m.group(1))
        signed = m.group(2) == "s"
        body = m.group(3)
        if width == 0:
            raise P4SyntaxError(loc, f"integer literal '{text}' has width 0")
    b = body.replace("_", "")
    try:
        if b[:2] in ("0x", "0X"):
            v = int(b[2:], 16)
        elif b[:2] in ("0b", "0B"):
            v = int(b[2:], 2)
        elif b[:2] in ("0o", "0O"):
            v = int(b[2:], 8)
        elif b[:2] in ("0d", "0D"):
            v = int(b[2:], 10)
        else:
            v = int(b, 10)
    except ValueError:
        raise P4SyntaxError(loc, f"malformed integer literal '{text}'") from None
    return v, width, signed


def tokenize(text, filename="<string>"):
    toks = []
    pos = 0
    n = len(text)
    line = 1
    line_start = 0
    fname = filename
    at_line_start = True
    while pos < n:
        if at_line_start and text[pos] in " \t#":
            m = _LINE_RE.match(text, pos)
            if m and text[pos:m.end()].lstrip().startswith("#"):
                line = int(m.group(1))
                if m.group(2) is not None:
                    fname = m.group(2)
                pos = m.end()
                if pos < n and text[pos] == "\n":
                    pos += 1
                line_start = pos
                continue
            m = _PRAGMA_RE.match(text, pos)
            if m and text[pos:m.end()].lstrip().startswith("#pragma"):
                pos = m.end()   # compiler hints (#pragma): no semantics in p4sim
                continue
            if m and text[pos:m.end()].lstrip().startswith("#"):
                raise P4SyntaxError(Loc(fname, line, 1),
                                    f"unexpected preprocessor directive '{m.group(0).strip()[:40]}'")
        m = _TOKEN_RE.match(text, pos)
        if not m:
            raise P4SyntaxError(Loc(fname, line, pos - line_start + 1),
                                f"unexpected character {text[pos]!r}")
        kind = m.lastgroup
        s = m.group(kind)
        loc = Loc(fname, line, pos - line_start + 1)
        if kind == "nl":
            line += 1
            line_start = m.end()
            at_line_start = True
            pos = m.end()
            continue
        if kind == "ws":
            pos = m.end()
            continue
        at_line_start = False
        if kind == "comment":
            nls = s.count("\n")
            if nls:
                line += nls
                line_start = pos + s.rfind("\n") + 1
                at_line_start = False
            pos = m.end()
            continue
        if kind == "num":
            v, w, sg = parse_int_literal(s, loc)
            toks.append(Token("num", v, loc, m.end(), (w, sg)))
        elif kind == "id":
            toks.append(Token("kw" if s in KEYWORDS else "id", s, loc, m.end()))
        elif kind == "str":
            toks.append(Token("str", s[1:-1], loc, m.end()))
        else:
            toks.append(Token(s, s, loc, m.end()))
        pos = m.end()
    toks.append(Token("eof", "<end of input>", Loc(fname, line, pos - line_start + 1), pos))
    return toks
