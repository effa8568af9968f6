"""Hypothesis over widths: for random bit<W>/int<W> (W up to 70, including widths that are
not byte multiples, so headers take the generic bit-packing path) and a random operator,
a generated program's output equals the big-integer model."""
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import p4sim

from p4sim_helpers import in_out_program
from test_p4sim_arith import sat, wrap

# %-placeholders filled per case
TEMPLATE = in_out_program("%(T)s a; %(T)s b; bit<%(PADI)d> pad;", "%(R)s r; bit<%(PADO)d> pad;",
                          "hdr.o.r = %(EXPR)s;")


def tname(w, s):
    return f"{'int' if s else 'bit'}<{w}>"


@st.composite
def cases(draw):
    w = draw(st.integers(1, 70))
    s = draw(st.booleans()) and w >= 2
    a = draw(st.integers(0, (1 << w) - 1))
    b = draw(st.integers(0, (1 << w) - 1))
    sa, sb = (wrap(a, w, 1), wrap(b, w, 1)) if s else (a, b)
    kind = draw(st.sampled_from(["+", "-", "*", "|+|", "|-|", "&", "|", "^", "<<", ">>",
                                 "cast", "slice", "++", "cmp", "/", "%"]))
    if kind in ("/", "%") and (s or b == 0):
        kind = "+"      # P4 defines / and % for unsigned values; division by 0 is tested apart
    if kind in ("+", "-", "*", "&", "|", "^"):
        expr, rw, rs = f"hdr.i.a {kind} hdr.i.b", w, s
        v = {"+": sa + sb, "-": sa - sb, "*": sa * sb, "&": a & b, "|": a | b, "^": a ^ b}[kind]
        want = wrap(v, w, s)
    elif kind in ("/", "%"):
        expr, rw, rs = f"hdr.i.a {kind} hdr.i.b", w, s
        want = a // b if kind == "/" else a % b
    elif kind in ("|+|", "|-|"):
        expr, rw, rs = f"hdr.i.a {kind} hdr.i.b", w, s
        want = sat(sa + sb if kind == "|+|" else sa - sb, w, s)
    elif kind in ("<<", ">>"):
        k = draw(st.integers(0, w + 2))
        expr, rw, rs = f"hdr.i.a {kind} {k}", w, s
        want = wrap(sa << k, w, s) if kind == "<<" else (sa >> k)
    elif kind == "cast":
        v = draw(st.integers(1, 70))
        vs = draw(st.booleans()) and v >= 2
        expr, rw, rs = f"({tname(v, vs)})hdr.i.a", v, vs
        want = wrap(sa, v, vs)
    elif kind == "slice":
        hi = draw(st.integers(0, w - 1))
        lo = draw(st.integers(0, hi))
        expr, rw, rs = f"hdr.i.a[{hi}:{lo}]", hi - lo + 1, False
        want = (a >> lo) & ((1 << (hi - lo + 1)) - 1)
    elif kind == "++":
        expr, rw, rs = "hdr.i.a ++ hdr.i.b", 2 * w, s
        want = wrap((a << w) | b, 2 * w, s)
    else:
        op = draw(st.sampled_from(["<", "<=", ">", ">=", "==", "!="]))
        expr, rw, rs = f"(bit<1>)(hdr.i.a {op} hdr.i.b)", 1, False
        want = int({"<": sa < sb, "<=": sa <= sb, ">": sa > sb, ">=": sa >= sb,
                    "==": sa == sb, "!=": sa != sb}[op])
    return w, s, a, b, expr, rw, rs, want


@settings(max_examples=40 * int(os.environ.get("P4SIM_FUZZ_SCALE", "1")), deadline=None)
@given(cases())
def test_random_width_expression(case):
    w, s, a, b, expr, rw, rs, want = case
    padi = (-2 * w) % 8 or 8
    pado = (-rw) % 8 or 8
    src = TEMPLATE % {"T": tname(w, s), "R": tname(rw, rs), "PADI": padi, "PADO": pado,
                      "EXPR": expr}
    sw = p4sim.Switch(p4sim.compile_source(src, "widths.p4"))
    nbytes_in = (2 * w + padi) // 8
    frame = (((a << w) | b) << padi).to_bytes(nbytes_in, "big")
    out = sw.inject(0, frame)
    assert len(out) == 1
    data = out[0][1]
    nbytes_out = (rw + pado) // 8
    got = wrap(int.from_bytes(data[:nbytes_out], "big") >> pado, rw, rs)
    assert got == want, (expr, tname(w, s))
    assert data[nbytes_out:] == b""   # input header was not emitted, and no payload


def test_division_by_zero_is_a_runtime_error():
    src = TEMPLATE % {"T": "bit<8>", "R": "bit<8>", "PADI": 8, "PADO": 8, "EXPR": "hdr.i.a / hdr.i.b"}
    sw = p4sim.Switch(p4sim.compile_source(src, "div.p4"))
    assert sw.inject(0, bytes([10, 3, 0])) == [(1, bytes([3, 0]))]   # 10 / 3, then pad
    with pytest.raises(p4sim.P4RuntimeError, match="division by zero"):
        sw.inject(0, bytes([10, 0, 0]))
