"""Front-end fuzzing: random and mutated P4 text never crashes p4sim with anything but a
located P4SimError (file:line:col).  Bounded: a fixed number of examples, no deadline."""
import os
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import p4sim

from p4sim_helpers import PROGRAMS

# P4SIM_FUZZ_SCALE=10 multiplies the example counts for a longer local fuzzing run
SCALE = int(os.environ.get("P4SIM_FUZZ_SCALE", "1"))
LOC_RE = re.compile(r"^[^:\n]+:\d+:\d+: ")
SEEDS = {name: open(os.path.join(PROGRAMS, name)).read()
         for name in ("l2_forward.p4", "parser_select.p4", "tables.p4", "registers.p4",
                      "structure.p4", "traffic_manager.p4", "misc.p4", "subparser.p4",
                      "atp_mini.p4", "mirror.p4")}
TOKENS = ["header", "struct", "control", "parser", "state", "transition", "select", "apply",
          "action", "table", "key", "actions", "default_action", "const", "entries", "extern",
          "typedef", "enum", "if", "else", "switch", "return", "exit", "bit", "int", "bool",
          "<", ">", ">>", "<<", "(", ")", "{", "}", "[", "]", ";", ":", ",", ".", "=", "==",
          "+", "-", "|+|", "&&&", "..", "++", "!", "~", "?", "@name(\"x\")", "8w255", "0x1F",
          "4s-1", "x", "hdr", "Register", "RegisterAction", "Hash", "main", "Switch",
          "Pipeline", "#include <tna.p4>\n", "\n", "\"str\"", "_", "default", "accept",
          "reject", "/* c */", "// c\n", "#define X 1\n", "X"]


def check(text, name="fuzz.p4"):
    try:
        prog = p4sim.compile_source(text, name)
    except p4sim.InternalCompilerError as e:   # located, but a p4sim defect: report it
        raise AssertionError(f"internal compiler error: {e}") from e
    except p4sim.P4SimError as e:
        assert LOC_RE.match(str(e)), f"error without location: {e!r}"
        assert isinstance(e, p4sim.FrontEndError)
        return None
    return prog


def run_once(prog):
    try:
        sw = p4sim.Switch(prog)
        for port in (1, 68):
            sw.inject(port, bytes(range(64)) * 2)
            sw.inject(port, bytes(12) + b"\x08\x00" + bytes(range(100)))
    except p4sim.P4SimError as e:
        # generated code of a program that compiled must not fail inside Python itself
        assert "error while executing the program" not in str(e), str(e)


@settings(max_examples=150 * SCALE, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(TOKENS), max_size=60))
def test_random_token_soup(tokens):
    check(" ".join(tokens))


@settings(max_examples=60 * SCALE, deadline=None)
@given(st.text(max_size=200))
def test_random_text(text):
    check(text)


@st.composite
def mutated(draw):
    name = draw(st.sampled_from(sorted(SEEDS)))
    text = SEEDS[name]
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["delete", "insert", "duplicate", "replace"]))
        i = draw(st.integers(0, len(text)))
        j = min(len(text), i + draw(st.integers(1, 40)))
        if kind == "delete":
            text = text[:i] + text[j:]
        elif kind == "insert":
            text = text[:i] + " " + draw(st.sampled_from(TOKENS)) + " " + text[i:]
        elif kind == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        else:
            text = text[:i] + draw(st.sampled_from(TOKENS)) + text[j:]
    return name, text


@settings(max_examples=120 * SCALE, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated())
def test_mutated_programs(case):
    name, text = case
    prog = check(text, os.path.join(PROGRAMS, "mutant_" + name))
    if prog is not None:
        run_once(prog)


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|0x[0-9a-fA-F]+|[0-9]+w?[0-9]*|\|\+\||\|-\||&&|\|\||==|!=|<=|>=|<<|[-+*/%&|^<>=!~]")
_OPS = ["+", "-", "*", "/", "%", "&", "|", "^", "<<", "==", "!=", "<", ">", "<=", ">=",
        "&&", "||", "|+|", "|-|", "=", "!", "~"]


@st.composite
def token_mutated(draw):
    """Swap a word for another word of the same program (names, numbers, operators):
    mostly well-formed programs with type and name errors in them."""
    name = draw(st.sampled_from(sorted(SEEDS)))
    text = SEEDS[name]
    spans = [m.span() for m in _WORD.finditer(text)]
    words = sorted({text[a:b] for a, b in spans if text[a].isalpha() or text[a] == "_"})
    for _ in range(draw(st.integers(1, 2))):
        a, b = draw(st.sampled_from(spans))
        old = text[a:b]
        if old[0].isdigit():
            new = str(draw(st.sampled_from([0, 1, 7, 8, 15, 16, 31, 32, 33, 64, 255, 65536])))
        elif old[0].isalpha() or old[0] == "_":
            new = draw(st.sampled_from(words))
        else:
            new = draw(st.sampled_from(_OPS))
        text = text[:a] + new + text[b:]
        spans = [m.span() for m in _WORD.finditer(text)]
    return name, text


@settings(max_examples=120 * SCALE, deadline=None, suppress_health_check=list(HealthCheck))
@given(token_mutated())
def test_token_mutated_programs(case):
    name, text = case
    prog = check(text, os.path.join(PROGRAMS, "mutant_" + name))
    if prog is not None:
        run_once(prog)
