"""Spec section 2: the wire format, byte by byte."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_helpers import ACK, COLLISION, DATA_INDEX, ECN, OVERFLOW, RESEND, parse
from reference.wire import (
    AtpPacket, Shim, WireError, agtr_of, decode, default_ipv4, encode, owner_app_id, owner_seq,
    with_ipv4_ecn,
)

DST = bytes.fromhex("0a0b0c0d0e0f")
SRC = bytes.fromhex("021122334455")


def hand_frame(*, ethertype=0x0700, shim_bytes=b"", bitmap=0, fan_in=0, flags=0,
               app_id=0, seq=0, agtr=0, agtr2=0, values=(0,) * 62, key=0,
               tensor_len=0, ipv4=None) -> bytes:
    """A frame assembled by hand from the spec table (offsets 0,4,5,6,8,10,12,14,262,270)."""
    ipv4 = ipv4 if ipv4 is not None else bytes([0x45]) + bytes(19)
    atp = bytearray(274)
    struct.pack_into("!I", atp, 0, bitmap)
    atp[4] = fan_in
    atp[5] = flags
    struct.pack_into("!H", atp, 6, app_id)
    struct.pack_into("!H", atp, 8, seq)
    struct.pack_into("!H", atp, 10, agtr)
    struct.pack_into("!H", atp, 12, agtr2)
    struct.pack_into("!62i", atp, 14, *values)
    struct.pack_into("!Q", atp, 262, key)
    struct.pack_into("!I", atp, 270, tensor_len)
    return DST + SRC + struct.pack("!H", ethertype) + ipv4 + shim_bytes + bytes(atp)


@pytest.mark.rule("2")
def test_frame_sizes_are_308_and_316():
    assert len(hand_frame()) == 308
    p = decode(hand_frame())
    assert len(encode(p)) == 308
    p.shim = Shim(1, 2, 1, 0, 0)
    p.ipv4 = default_ipv4(True)
    assert len(encode(p)) == 316


@pytest.mark.rule("2")
def test_decode_hand_built_frame_reads_every_field_at_its_offset():
    values = tuple(range(-31, 31))
    data = hand_frame(bitmap=0xDEADBEEF, fan_in=0x1F, flags=0b1010_1101, app_id=0xBEEF,
                      seq=0x1234, agtr=0x4E1F, agtr2=0x9C3F, values=values,
                      key=0x0123456789ABCDEF, tensor_len=0xCAFEBABE)
    p = decode(data)
    assert p.eth_dst == DST and p.eth_src == SRC
    assert p.shim is None
    assert p.bitmap == 0xDEADBEEF
    assert p.fan_in == 0x1F
    assert p.flags == 0b1010_1101
    assert p.app_id == 0xBEEF
    assert p.seq == 0x1234
    assert p.agtr == 0x4E1F
    assert p.agtr2 == 0x9C3F
    assert list(p.values) == list(values)
    assert p.key == 0x0123456789ABCDEF
    assert p.tensor_len == 0xCAFEBABE
    # 0b1010_1101: overflow=1, ps_index=0b01, data_index=0, ecn=1, resend=1,
    # collision=0, ack=1
    assert p.overflow and p.ps_index == 1 and p.ack and p.resend and not p.collision
    assert p.owner_id == 0xBEEF1234  # app_id << 16 | seq (section 1)
    assert (owner_app_id(p.owner_id), owner_seq(p.owner_id)) == (0xBEEF, 0x1234)


@pytest.mark.rule("2")
def test_encode_matches_hand_built_frame_byte_for_byte():
    values = np.arange(62, dtype=np.int32) * -1000003
    ipv4 = default_ipv4(False)
    p = AtpPacket(eth_dst=DST, eth_src=SRC, ipv4=ipv4, bitmap=5, fan_in=3,
                  flags=RESEND | (2 << 5), app_id=7, seq=300, agtr=19999, agtr2=39999,
                  values=values, key=2**64 - 1, tensor_len=1000)
    assert encode(p) == hand_frame(bitmap=5, fan_in=3, flags=0x44, app_id=7, seq=300,
                                   agtr=19999, agtr2=39999, values=tuple(values.tolist()),
                                   key=2**64 - 1, tensor_len=1000, ipv4=ipv4)


@pytest.mark.rule("2")
@pytest.mark.parametrize("name,bit", [
    ("overflow", 7), ("data_index", 4), ("ecn", 3), ("resend", 2), ("collision", 1),
    ("ack", 0)])
def test_flag_bit_positions(name, bit):
    data = hand_frame(flags=1 << bit)
    p = decode(data)
    assert p.flags == 1 << bit
    expected = {"overflow": OVERFLOW, "data_index": DATA_INDEX, "ecn": ECN,
                "resend": RESEND, "collision": COLLISION, "ack": ACK}[name]
    assert expected == 1 << bit
    for prop in ("overflow", "resend", "collision", "ack"):
        assert getattr(p, prop) == (prop == name)
    assert p.ps_index == 0


@pytest.mark.rule("2")
@pytest.mark.parametrize("ps_index", [0, 1, 2, 3])
def test_ps_index_is_bits_6_and_5(ps_index):
    p = decode(hand_frame(flags=ps_index << 5))
    assert p.ps_index == ps_index
    assert not p.overflow and not p.ack


@pytest.mark.rule("2")
def test_two_level_shim_sits_between_ipv4_and_atp():
    shim_bytes = struct.pack("!IBBBB", 0x80000001, 3, 1, 2, 0)
    data = hand_frame(ethertype=0x0701, shim_bytes=shim_bytes, bitmap=6, app_id=9, seq=4,
                      key=11)
    assert len(data) == 316
    p = decode(data)
    assert p.shim == Shim(bitmap1=0x80000001, fan_in1=3, level=1, rack_id=2, reserved=0)
    assert (p.bitmap, p.app_id, p.seq, p.key) == (6, 9, 4, 11)
    assert encode(p) == data


@pytest.mark.rule("2")
def test_ipv4_ecn_bits_read_and_replaced():
    data = hand_frame(ipv4=bytes([0x45, 0x03]) + bytes(18))
    assert decode(data).ipv4_ecn == 3
    assert with_ipv4_ecn(bytes([0x45, 0xFC]) + bytes(18), 1)[1] == 0xFD
    assert default_ipv4(False, 3)[1] & 3 == 3
    # total length field of the IPv4 header covers ATP (+ shim)
    assert struct.unpack_from("!H", default_ipv4(False), 2)[0] == 20 + 274
    assert struct.unpack_from("!H", default_ipv4(True), 2)[0] == 20 + 8 + 274


u = lambda bits: st.integers(0, 2**bits - 1)  # noqa: E731

packets = st.builds(
    dict,
    eth_dst=st.binary(min_size=6, max_size=6), eth_src=st.binary(min_size=6, max_size=6),
    ipv4=st.binary(min_size=20, max_size=20), bitmap=u(32), fan_in=u(8), flags=u(8),
    app_id=u(16), seq=u(16), agtr=u(16), agtr2=u(16),
    values=st.lists(st.integers(-(2**31), 2**31 - 1), min_size=62, max_size=62),
    key=u(64), tensor_len=u(32),
    shim=st.none() | st.builds(Shim, u(32), u(8), u(8), u(8), u(8)),
)


@pytest.mark.rule("2")
@settings(max_examples=150, deadline=None)
@given(packets)
def test_round_trip_all_field_widths(fields):
    p = AtpPacket(**{**fields, "values": np.array(fields["values"], dtype=np.int32)})
    data = encode(p)
    # hand parse agrees with what was put in
    h = parse(data)
    assert h["ethertype"] == (0x0700 if fields["shim"] is None else 0x0701)
    assert h["len"] == (308 if fields["shim"] is None else 316)
    for name in ("bitmap", "fan_in", "flags", "app_id", "seq", "agtr", "agtr2", "key",
                 "tensor_len", "values", "eth_dst", "eth_src"):
        assert h[name] == fields[name], name
    q = decode(data)
    assert encode(q) == data
    assert q.shim == fields["shim"]
    assert q.ipv4 == fields["ipv4"]
    for name in ("bitmap", "fan_in", "flags", "app_id", "seq", "agtr", "agtr2", "key",
                 "tensor_len"):
        assert getattr(q, name) == fields[name], name
    assert q.values.tolist() == fields["values"]


# -- malformed / truncated -------------------------------------------------------------

@pytest.mark.rule("2")
@pytest.mark.parametrize("size,field,offset", [
    (34 + 0, "bitmap", 34),        # nothing of the ATP layer
    (34 + 4, "fan_in", 38),
    (34 + 5, "flags", 39),
    (34 + 7, "app_id", 40),
    (34 + 9, "seq", 42),
    (34 + 11, "agtr", 44),
    (34 + 13, "agtr2", 46),
    (34 + 100, "values", 48),
    (34 + 262, "key", 296),
    (34 + 273, "tensor_len", 304),
])
def test_truncated_frame_names_field_and_offset(size, field, offset):
    data = hand_frame()[:size]
    with pytest.raises(WireError) as info:
        decode(data)
    assert info.value.field == field
    assert info.value.offset == offset
    assert repr(field) in str(info.value) and str(offset) in str(info.value)


@pytest.mark.rule("2")
def test_truncated_inside_shim_and_ipv4_and_ethernet():
    two = hand_frame(ethertype=0x0701, shim_bytes=bytes(8))
    with pytest.raises(WireError) as info:
        decode(two[:38])
    assert info.value.field == "shim" and info.value.offset == 34
    with pytest.raises(WireError) as info:
        decode(hand_frame()[:20])
    assert info.value.field == "ipv4" and info.value.offset == 14
    with pytest.raises(WireError) as info:
        decode(b"\x00" * 10)
    assert info.value.field == "ethertype" and info.value.offset == 12
    # two-level frame truncated in its ATP layer: offsets count the shim
    with pytest.raises(WireError) as info:
        decode(two[:42 + 8])
    assert info.value.field == "seq" and info.value.offset == 42 + 8


@pytest.mark.rule("2")
def test_wrong_ethertype_and_trailing_bytes_rejected():
    with pytest.raises(WireError) as info:
        decode(hand_frame(ethertype=0x0800))
    assert info.value.field == "ethertype" and info.value.offset == 12
    assert "0x0800" in str(info.value)
    with pytest.raises(WireError) as info:
        decode(hand_frame() + b"\x00")
    assert "trailing" in str(info.value)


@pytest.mark.rule("2")
@pytest.mark.parametrize("name,value", [
    ("bitmap", 2**32), ("fan_in", 256), ("flags", -1), ("app_id", 2**16), ("seq", 2**16),
    ("agtr", 2**16), ("agtr2", -1), ("key", 2**64), ("tensor_len", 2**32)])
def test_encode_rejects_field_out_of_width(name, value):
    p = AtpPacket(**{name: value})
    with pytest.raises(WireError) as info:
        encode(p)
    assert info.value.field == name


@pytest.mark.rule("2")
def test_encode_rejects_bad_values_ipv4_and_shim():
    with pytest.raises(WireError) as info:
        encode(AtpPacket(values=np.zeros(61, np.int32)))
    assert info.value.field == "values" and info.value.offset == 14
    with pytest.raises(WireError) as info:
        encode(AtpPacket(ipv4=bytes(19)))
    assert info.value.field == "ipv4"
    with pytest.raises(WireError) as info:
        encode(AtpPacket(shim=Shim(0, 256, 0, 0, 0)))
    assert info.value.field == "shim"


# -- scapy layers decode our frames the same way ----------------------------------------

@pytest.mark.rule("2")
@settings(max_examples=25, deadline=None)
@given(packets)
def test_scapy_layers_decode_fast_codec_frames(fields):
    from scapy.layers.l2 import Ether

    from reference.scapy_layers import ATP, ATPShim

    fields = dict(fields, ipv4=default_ipv4(fields["shim"] is not None))
    p = AtpPacket(**{**fields, "values": np.array(fields["values"], dtype=np.int32)})
    data = encode(p)
    pkt = Ether(data)
    atp = pkt[ATP]
    flags = fields["flags"]
    assert atp.bitmap == fields["bitmap"]
    assert atp.fan_in == fields["fan_in"]
    assert atp.overflow == flags >> 7 & 1
    assert atp.ps_index == flags >> 5 & 3
    assert atp.data_index == flags >> 4 & 1
    assert atp.ecn == flags >> 3 & 1
    assert atp.resend == flags >> 2 & 1
    assert atp.collision == flags >> 1 & 1
    assert atp.ack == flags & 1
    assert (atp.app_id, atp.seq, atp.agtr, atp.agtr2) == (
        fields["app_id"], fields["seq"], fields["agtr"], fields["agtr2"])
    assert list(atp.values) == fields["values"]
    assert atp.key == fields["key"] and atp.tensor_len == fields["tensor_len"]
    if fields["shim"] is not None:
        s = pkt[ATPShim]
        assert (s.bitmap1, s.fan_in1, s.level, s.rack_id, s.reserved) == (
            fields["shim"].bitmap1, fields["shim"].fan_in1, fields["shim"].level,
            fields["shim"].rack_id, fields["shim"].reserved)
    else:
        assert ATPShim not in pkt
    assert bytes(pkt) == data


@pytest.mark.rule("2")
@given(st.integers(0, 0xFFFF), st.integers(0, 0xFFFF), st.booleans())
def test_agtr_of_reads_agtr_in_place(agtr, seq, two_level):
    """The in-place read the per-frame callers use gives what decode() gives, with the
    shim or without; another ethertype or a short frame has none."""
    shim = bytes(8) if two_level else b""
    frame = hand_frame(ethertype=0x0701 if two_level else 0x0700, shim_bytes=shim,
                       agtr=agtr, seq=seq, agtr2=agtr ^ 0xFFFF)
    assert agtr_of(frame) == decode(frame).agtr == agtr
    assert agtr_of(frame[:14 + 20 + len(shim) + 11]) is None
    assert agtr_of(frame[:12] + b"\x08\x00" + frame[14:]) is None
