"""Hypothesis: p4sim's fixed-width arithmetic equals a big-integer model (wrap-around,
saturation, slices, signed casts, shifts, concatenation, comparisons)."""
import struct

from hypothesis import example, given, settings
from hypothesis import strategies as st

from p4sim_helpers import eth
from p4sim_helpers import compiled

import p4sim

IN = struct.Struct(">BBIIbbB")
OUT_FIELDS = [  # (name, width, signed) in header order
    ("add8", 8, 0), ("sub8", 8, 0), ("mul8", 8, 0), ("sadd8", 8, 0), ("ssub8", 8, 0),
    ("add32", 32, 0), ("sub32", 32, 0), ("sadd32", 32, 0), ("ssub32", 32, 0),
    ("iadd", 8, 1), ("isub", 8, 1), ("imul", 8, 1), ("isadd", 8, 1), ("issub", 8, 1),
    ("ineg", 8, 1), ("shl8", 8, 0), ("shr8", 8, 0), ("ishr", 8, 1), ("ishl", 8, 1),
    ("cat", 16, 0), ("hi4", 4, 0), ("lo4", 4, 0), ("mid", 32, 0),
    ("sext", 32, 1), ("s2u", 8, 0), ("u2s", 8, 1), ("widen", 16, 0), ("trunc", 8, 0),
    ("catsigned", 16, 1),
    ("cmp", 8, 0), ("notv", 8, 0), ("andv", 8, 0), ("orv", 8, 0), ("xorv", 8, 0),
    ("sliced", 32, 0), ("pick", 8, 0), ("logic", 8, 0),
]


def wrap(v, w, signed=False):
    v &= (1 << w) - 1
    if signed and v >> (w - 1):
        v -= 1 << w
    return v


def sat(v, w, signed=False):
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)
    return max(lo, min(hi, v))


def model(a8, b8, a, b, sa, sb, sh):
    cmp_bits = [a8 < b8, sa < sb, a8 == b8, a >= b, sa <= sb, a != b, a8 > b8, sa > sb]
    cmp = 0
    for bit in cmp_bits:
        cmp = (cmp << 1) | int(bit)
    x = a
    x = (x & ~0xFF00) | (b8 << 8)
    x = (x & 0x0FFFFFFF) | (0xA << 28)
    return {
        "add8": wrap(a8 + b8, 8), "sub8": wrap(a8 - b8, 8), "mul8": wrap(a8 * b8, 8),
        "sadd8": sat(a8 + b8, 8), "ssub8": sat(a8 - b8, 8),
        "add32": wrap(a + b, 32), "sub32": wrap(a - b, 32),
        "sadd32": sat(a + b, 32), "ssub32": sat(a - b, 32),
        "iadd": wrap(sa + sb, 8, 1), "isub": wrap(sa - sb, 8, 1), "imul": wrap(sa * sb, 8, 1),
        "isadd": sat(sa + sb, 8, 1), "issub": sat(sa - sb, 8, 1), "ineg": wrap(-sa, 8, 1),
        "shl8": wrap(a8 << sh, 8), "shr8": a8 >> sh, "ishr": sa >> sh,
        "ishl": wrap(sa << 3, 8, 1),
        "cat": (a8 << 8) | b8, "hi4": a8 >> 4, "lo4": b8 & 0xF, "mid": (a >> 8) & 0xFFFF,
        "sext": sa, "s2u": sa & 0xFF, "u2s": wrap(a8, 8, 1), "widen": a8, "trunc": a & 0xFF,
        "catsigned": wrap(((sa & 0xFF) << 8) | b8, 16, 1),
        "cmp": cmp, "notv": a8 ^ 0xFF, "andv": a8 & b8, "orv": a8 | b8, "xorv": a8 ^ b8,
        "sliced": x, "pick": max(a8, b8),
        "logic": int((a8 > 100 and not b8 > 100) or sh == 0),
    }


def decode_out(data):
    total = sum(w for _, w, _ in OUT_FIELDS)
    v = int.from_bytes(data[:total // 8], "big")
    res = {}
    for name, w, sg in OUT_FIELDS:
        total -= w
        res[name] = wrap(v >> total, w, sg)
    return res


_sw = []


def switch():
    if not _sw:
        _sw.append(p4sim.Switch(compiled("arith.p4")))
    return _sw[0]


u8 = st.integers(0, 255)
s8 = st.integers(-128, 127)
u32 = st.one_of(st.integers(0, 2**32 - 1), st.sampled_from([0, 1, 2**31 - 1, 2**31, 2**32 - 1]))


@settings(max_examples=200, deadline=None)
@given(u8, u8, u32, u32, s8, s8, st.integers(0, 255))
@example(255, 1, 2**32 - 1, 1, 127, 1, 0)
@example(0, 1, 0, 1, -128, 1, 9)
@example(128, 128, 2**31, 2**31, -128, -128, 7)
def test_arithmetic_matches_bigint_model(a8, b8, a, b, sa, sb, sh):
    sw = switch()
    frame = eth(1, 2, 0x0800) + IN.pack(a8, b8, a, b, sa, sb, sh)
    out = sw.inject(0, frame)
    assert len(out) == 1
    got = decode_out(out[0][1][14 + IN.size:])
    assert got == model(a8, b8, a, b, sa, sb, sh)
