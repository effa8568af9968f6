"""Where each token of the preprocessed program is written in the source files.

The lexer's locations come from the preprocessor's ``#line`` markers: a token written
where it stands has the file:line of its text, but a token a macro produced stands on
the line of the macro's use (``VALUE_REGISTER(0)`` becomes one long line of 31
RegisterActions' worth of tokens). A mutation must edit the text that produced the token:
the use site, or the body of the ``#define``. So each source line is walked next to the
tokens the preprocessor made of it, and a macro use is expanded token by token through its
definition (parameters, nested macros, and ``##`` pasting, whose result has no single
place and is left unmapped). A token that cannot be placed for certain is not mutated.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..lexer import _TOKEN_RE


@dataclass(frozen=True)
class Place:
    """Characters ``start:end`` of ``path``; ``origin`` is the macro definition whose body
    holds them (None: the file's own text)."""
    path: str
    start: int
    end: int
    origin: str | None = None

    def line_col(self, text: str) -> tuple[int, int]:
        line = text.count("\n", 0, self.start) + 1
        return line, self.start - (text.rfind("\n", 0, self.start) + 1) + 1


@dataclass
class SourceToken:
    text: str
    start: int
    end: int
    line: int
    pasted: bool = False          # built by ## or # in a macro body: no single place


@dataclass
class Define:
    name: str
    params: list[str] | None      # None: an object-like macro
    body: list[SourceToken]
    origin: str
    path: str


@dataclass
class SourceFile:
    path: str
    text: str
    tokens: list[SourceToken] = field(default_factory=list)   # outside directives
    defines: dict[str, list[Define]] = field(default_factory=dict)
    first_on_line: dict[int, int] = field(default_factory=dict)


_DIRECTIVE = re.compile(r"[ \t]*#")
_DEFINE = re.compile(r"[ \t]*#[ \t]*define[ \t]+([A-Za-z_][A-Za-z0-9_]*)(\([^)]*\))?")


def _lex(text: str, start: int, end: int, line: int) -> list[SourceToken]:
    """Tokens of text[start:end] (comments and backslash-newlines skipped; ``a ## b``
    and ``#x`` become one pasted token)."""
    out: list[SourceToken] = []
    pos = start
    paste_next = False
    while pos < end:
        if text.startswith("\\\n", pos):
            pos += 2
            line += 1
            continue
        if text[pos] == "#":
            paste = text.startswith("##", pos)
            pos += 2 if paste else 1
            if paste and out:
                out[-1].pasted = True
            paste_next = True
            continue
        m = _TOKEN_RE.match(text, pos, end)
        if not m:
            pos += 1
            continue
        kind = m.lastgroup
        if kind == "nl":
            line += 1
        elif kind == "comment":
            line += m.group(kind).count("\n")
        elif kind != "ws":
            tok = SourceToken(m.group(kind), pos, m.end(), line)
            if paste_next and out and out[-1].pasted:
                prev = out[-1]               # a ## b: one token, no single place
                out[-1] = SourceToken(prev.text + tok.text, prev.start, tok.end, prev.line,
                                      pasted=True)
            else:
                tok.pasted = paste_next
                out.append(tok)
            paste_next = False
        pos = m.end()
    return out


def load_source(path: str) -> SourceFile:
    """A source file's tokens outside preprocessor directives, and its #defines."""
    text = Path(path).read_text(encoding="utf-8")
    src = SourceFile(path, text)
    pos, line, n = 0, 1, len(text)
    at_line_start = True
    while pos < n:
        if at_line_start and _DIRECTIVE.match(text, pos):
            eol = text.find("\n", pos)
            eol = n if eol < 0 else eol
            while eol < n and text[eol - 1] == "\\":           # continuation lines
                nxt = text.find("\n", eol + 1)
                eol = n if nxt < 0 else nxt
            m = _DEFINE.match(text, pos, eol)
            if m:
                params = None
                if m.group(2) is not None:
                    params = [p.strip() for p in m.group(2)[1:-1].split(",") if p.strip()]
                origin = f"{path}:{line}:#define {m.group(1)}"
                body = _lex(text, m.end(), eol, line)
                src.defines.setdefault(m.group(1), []).append(
                    Define(m.group(1), params, body, origin, path))
            line += text.count("\n", pos, eol)
            pos = eol
            continue
        m = _TOKEN_RE.match(text, pos)
        if not m:
            pos += 1
            at_line_start = False
            continue
        kind = m.lastgroup
        value = m.group(kind)
        if kind == "nl":
            line += 1
            at_line_start = True
        elif kind == "ws":
            pass
        else:
            at_line_start = False
            if kind == "comment":
                line += value.count("\n")
            else:
                src.first_on_line.setdefault(line, len(src.tokens))
                src.tokens.append(SourceToken(value, pos, m.end(), line))
        pos = m.end()
    return src


class _Mismatch(Exception):
    pass


class SourceMap:
    """Token index of the preprocessed program -> the Place that produced it."""

    def __init__(self, pre: str, tokens, roots: list[str]):
        self.pre = pre
        self.tokens = tokens
        self.roots = [str(Path(r).resolve()) for r in roots]
        self.files: dict[str, SourceFile | None] = {}
        self.places: dict[int, Place] = {}
        # the text that made each token where it is used: the token itself, or the whole
        # macro use (NAME or NAME(args)) that expanded to it
        self.use_sites: dict[int, Place] = {}
        self._build()

    def text_of(self, i: int) -> str:
        tok = self.tokens[i]
        if tok.kind == "num":
            start = tok.end
            while start > 0 and (self.pre[start - 1].isalnum() or self.pre[start - 1] == "_"):
                start -= 1
            return self.pre[start:tok.end]
        if tok.kind == "str":
            return '"' + tok.value + '"'
        return tok.value

    def source(self, path: str) -> SourceFile | None:
        if path not in self.files:
            resolved = str(Path(path).resolve())
            mine = Path(path).is_file() and any(
                resolved == r or resolved.startswith(r.rstrip("/") + "/") for r in self.roots)
            self.files[path] = load_source(path) if mine else None
        return self.files[path]

    def _build(self) -> None:
        i, n = 0, len(self.tokens) - 1            # the last token is eof
        for path in sorted({t.loc.file for t in self.tokens[:n]}):
            self.source(path)                     # every file's #defines, before aligning
        for root in self.roots:                   # and those of headers of defines only
            for path in sorted(Path(root).rglob("*"))[:2000]:
                if path.suffix in (".p4", ".h", ".p4h") and path.is_file() and \
                        str(path) not in self.files and \
                        all(Path(f).resolve() != path for f in self.files):
                    self.source(str(path))
        self._all_defines = self._defines()
        while i < n:
            loc = self.tokens[i].loc
            j = i
            while j < n and self.tokens[j].loc.file == loc.file and \
                    self.tokens[j].loc.line == loc.line:
                j += 1
            src = self.source(loc.file)
            if src is not None and loc.line in src.first_on_line:
                self._align_line(src, src.first_on_line[loc.line], i, j)
            i = j

    def _defines(self) -> dict[str, list[Define]]:
        merged: dict[str, list[Define]] = {}
        for f in self.files.values():
            if f is not None:
                for name, ds in f.defines.items():
                    merged.setdefault(name, []).extend(ds)
        return merged

    def _align_line(self, src: SourceFile, r: int, first: int, end: int) -> None:
        defines = self._all_defines
        e = first
        raw = src.tokens
        while e < end and r < len(raw):
            found: list[tuple[int, Place]] = []
            e0, r0 = e, r
            try:
                e, r = self._align_one(raw, r, e, end, {}, defines, src.path, None, found, ())
            except _Mismatch:
                return
            finally:
                for idx, place in found:
                    self.places.setdefault(idx, place)
            use = Place(src.path, raw[r0].start, raw[r - 1].end)
            for idx in range(e0, e):
                self.use_sites.setdefault(idx, use)

    def _align_one(self, seq, j, e, end, env, defines, path, origin, found, active):
        """Align source token seq[j] (and, for a macro use, its arguments) with the
        preprocessed tokens from ``e``; returns (next e, next j)."""
        tok = seq[j]
        if tok.pasted:                    # values_##i: copied whole, never edited inside
            found.append((e, Place(path, tok.start, tok.end, origin)))
            return e + 1, j + 1
        name = tok.text
        if name in env and len(env[name][0]) == 1 and j + 1 < len(seq) and \
                seq[j + 1].text == "(" and env[name][0][0].text in defines:
            name = env[name][0][0].text   # M(0, 4) with M an argument naming a macro
        elif name in env:
            arg, arg_env, arg_path, arg_origin = env[name]
            k = 0
            while k < len(arg):
                e, k = self._align_one(arg, k, e, end, arg_env, defines, arg_path,
                                       arg_origin, found, active)
            return e, j + 1
        if name in defines and name not in active:
            for d in defines[name]:
                attempt: list[tuple[int, Place]] = []
                try:
                    if d.params is None:
                        e2 = self._expand(d, {}, e, end, defines, attempt, active)
                        found.extend(attempt)
                        return e2, j + 1
                    if j + 1 < len(seq) and seq[j + 1].text == "(":
                        args, after = _split_args(seq, j + 2)
                        denv = {p: (a, env, path, origin) for p, a in zip(d.params, args)}
                        e2 = self._expand(d, denv, e, end, defines, attempt, active)
                        found.extend(attempt)
                        return e2, after
                except _Mismatch:
                    continue
        if e >= end or self.text_of(e) != tok.text:
            raise _Mismatch()
        found.append((e, Place(path, tok.start, tok.end, origin)))
        return e + 1, j + 1

    def _expand(self, d: Define, env, e, end, defines, found, active):
        k = 0
        while k < len(d.body):
            e, k = self._align_one(d.body, k, e, end, env, defines, d.path, d.origin,
                                   found, active + (d.name,))
        return e


def _split_args(seq, j):
    """The argument token lists of a macro use whose '(' is before seq[j]; and the index
    after its ')'."""
    args, cur, depth = [], [], 0
    while j < len(seq):
        t = seq[j].text
        if t == ")" and depth == 0:
            args.append(cur)
            return args, j + 1
        if t == "," and depth == 0:
            args.append(cur)
            cur = []
        else:
            if t in ("(", "[", "{"):
                depth += 1
            elif t in (")", "]", "}"):
                depth -= 1
            cur.append(seq[j])
        j += 1
    raise _Mismatch()
