"""Headers of sub-byte fields are extracted and emitted through byte-aligned groups of
struct codes (p4sim.compiler.packet_io.header_groups) instead of one big integer: for
random layouts (bit<W>/int<W>, W 1..64, groups of 1..8 bytes, and layouts no group cut
fits) every field reads as the bits of the frame, and extract + emit gives the frame back."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import p4sim

from p4sim_helpers import in_out_program
from test_p4sim_arith import wrap



def _program(fields):
    decl = " ".join(f"{'int' if s else 'bit'}<{w}> f{i};" for i, (w, s) in enumerate(fields))
    outs = " ".join(f"bit<64> o{i};" for i in range(len(fields)))
    copies = " ".join(
        f"hdr.o.o{i} = (bit<64>)(int<64>)hdr.i.f{i};" if s else f"hdr.o.o{i} = (bit<64>)hdr.i.f{i};"
        for i, (_, s) in enumerate(fields))
    return in_out_program(decl, outs, copies, "pkt.emit(hdr.i); pkt.emit(hdr.o);")


@st.composite
def layouts(draw):
    fields = draw(st.lists(st.tuples(st.integers(1, 64), st.booleans()), min_size=1,
                           max_size=9))
    fields = [(w, s and w >= 2) for w, s in fields]
    pad = -sum(w for w, _ in fields) % 8
    if pad:
        fields.append((pad, False))
    total = sum(w for w, _ in fields)
    frame = draw(st.integers(0, (1 << total) - 1)).to_bytes(total // 8, "big")
    return fields, frame


def _check(fields, frame):
    sw = p4sim.Switch(p4sim.compile_source(_program(fields), "groups.p4"))
    out = sw.inject(0, frame)
    assert len(out) == 1
    data = out[0][1]
    assert data[:len(frame)] == frame                    # extract + emit: the same bytes
    value, sh = int.from_bytes(frame, "big"), len(frame) * 8
    for i, (w, s) in enumerate(fields):
        sh -= w
        bits = (value >> sh) & ((1 << w) - 1)
        want = wrap(wrap(bits, w, True), 64, False) if s else bits
        at = len(frame) + 8 * i
        assert int.from_bytes(data[at:at + 8], "big") == want, (i, w, s)


@settings(max_examples=40, deadline=None)
@given(layouts())
def test_random_layouts_read_the_frame_bits_and_emit_the_frame(layout):
    _check(*layout)


@pytest.mark.parametrize("fields", [
    [(4, False), (4, False), (6, False), (2, False), (16, False)],     # IPv4's first bytes
    [(1, False), (1, False), (2, False), (3, False), (9, False), (48, False)],  # intrinsic
    [(48, False), (48, False), (16, False)],         # Ethernet: 6-byte groups (H + I)
    [(3, True), (5, False), (12, True), (4, True)],  # signed fields inside groups
    [(36, False), (36, False)],                      # no cut of <= 8 bytes: one integer
    [(7, False), (1, True), (24, False), (40, False), (56, False), (8, False)],
])
def test_known_layouts(fields):
    total = sum(w for w, _ in fields)
    for pattern in (0, (1 << total) - 1, 0xA5A5A5A5A5A5A5A5A5A5A5A5A5A5A5A5 & ((1 << total) - 1)):
        _check(fields, pattern.to_bytes(total // 8, "big"))


def test_the_atp_headers_take_the_grouped_path():
    """atp.p4's Ethernet, IPv4, ATP and intrinsic-metadata headers are all grouped:
    nothing in the generated program unpacks a header as one big integer any more."""
    from atp_fixtures.targets.p4sim import compiled_program
    source = compiled_program(False).python_source
    assert "int.from_bytes" not in source and ".to_bytes(" not in source
