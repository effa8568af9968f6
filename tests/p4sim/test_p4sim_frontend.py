"""Parser-level checks: p4c's operator precedence, the type-name/identifier ambiguity
(casts, generic calls vs comparisons, '>>' closing nested type arguments)."""
import pytest

import p4sim
from p4sim.lexer import tokenize
from p4sim.parser import Parser


def parse_expr(text, types=()):
    p = Parser(tokenize(text, "e.p4"))
    p.scopes[0].update(types)
    e = p.expr()
    assert p.tok.kind == "eof", f"trailing input at {p.tok}"
    return show(e)


def show(e):
    k = e.k
    if k == "name":
        return e.name
    if k == "int":
        return str(e.value)
    if k == "member":
        return f"{show(e.expr)}.{e.name}"
    if k == "binop":
        return f"({show(e.left)} {e.op} {show(e.right)})"
    if k == "unop":
        return f"({e.op}{show(e.expr)})"
    if k == "cast":
        return f"(cast {show_t(e.type)} {show(e.expr)})"
    if k == "call":
        targs = ",".join(show_t(t) for t in e.targs)
        return f"{show(e.fn)}<{targs}>(" + ",".join(show(a.value) for a in e.args) + ")"
    if k == "slice":
        return f"{show(e.expr)}[{show(e.hi)}:{show(e.lo)}]"
    if k == "cond":
        return f"({show(e.cond)} ? {show(e.then)} : {show(e.els)})"
    return k


def show_t(t):
    if t.k == "bits":
        return f"{'int' if t.signed else 'bit'}<{show(t.width)}>"
    if t.k == "tname":
        return t.name + (f"<{','.join(show_t(a) for a in t.args)}>" if t.args else "")
    return t.k


@pytest.mark.parametrize("text,tree", [
    ("a & b == c", "((a & b) == c)"),            # p4c: bitwise binds tighter than ==
    ("a | b ^ c & d", "(a | (b ^ (c & d)))"),
    ("a + b << 2", "((a + b) << 2)"),
    ("a ++ b + c", "((a ++ b) + c)"),
    ("a < b && c > d", "((a < b) && (c > d))"),
    ("a >> 2 >> 1", "((a >> 2) >> 1)"),
    ("a |+| b * c", "(a |+| (b * c))"),
    ("x ? a : b ? c : d", "(x ? a : (b ? c : d))"),
    ("-a[7:0]", "(-a[7:0])"),
    ("!a || b && c", "((!a) || (b && c))"),
])
def test_precedence(text, tree):
    assert parse_expr(text) == tree


def test_type_name_ambiguity():
    # '(T) x' is a cast only when T names a type
    assert parse_expr("(T) x", types={"T"}) == "(cast T x)"
    p = Parser(tokenize("(T) x", "e.p4"))
    assert show(p.expr()) == "T" and p.tok.value == "x"   # a parenthesised name, then 'x'
    # generic call vs comparisons
    assert parse_expr("pkt.lookahead<bit<8>>()") == "pkt.lookahead<bit<8>>()"
    assert parse_expr("f<T>(x)", types={"T"}) == "f<T>(x)"
    assert parse_expr("a < b > (c)") == "((a < b) > c)"
    assert parse_expr("a < b && c > (d)") == "((a < b) && (c > d))"
    # '>>' written without a space is a shift; '> >' is two comparisons' worth of tokens
    assert parse_expr("a >> b") == "(a >> b)"
    with pytest.raises(p4sim.P4SyntaxError):
        parse_expr("a > > b")


def test_nested_type_arguments_close_with_shift_token():
    src = """
    #include <tna.p4>
    struct s_t { bit<8> x; }
    control C(inout s_t s) {
        Register<bit<32>, bit<16>>(4) r;
        RegisterAction<bit<32>, bit<16>, bit<32>>(r) ra = {
            void apply(inout bit<32> v, out bit<32> rv) { rv = v; }
        };
        apply { }
    }
    """
    with pytest.raises(p4sim.P4SemanticError, match="no package instance named 'main'"):
        p4sim.compile_source(src, "g.p4")   # parses and type-checks; only 'main' missing
    # the unused control is type-checked too
    with pytest.raises(p4sim.P4SemanticError, match="g.p4:7:64: undeclared name 'nope'"):
        p4sim.compile_source(src.replace("rv = v;", "rv = nope;"), "g.p4")
