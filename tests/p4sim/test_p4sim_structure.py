"""structure.p4: typedef/enum/const, functions, nested controls, local structs, switch on
values, Hash/Checksum/Counter/DirectCounter externs."""
import binascii
import struct
import zlib

import pytest

W = struct.Struct(">BBHHIHHHBB")


def ipv4(ttl=64, checksum=None):
    h = bytearray([0x45, 0, 0, 20 + W.size, 0, 1, 0, 0, ttl, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2])
    if checksum is None:
        s = sum(struct.unpack(">10H", bytes(h)))
        while s >> 16:
            s = (s & 0xFFFF) + (s >> 16)
        checksum = (~s) & 0xFFFF
    h[10:12] = checksum.to_bytes(2, "big")
    return bytes(h)


def crc16_arc(data):  # textbook CRC-16/ARC (poly 0x8005 reflected, init 0)
    crc = 0
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc


@pytest.fixture
def sw(switch_for):
    return switch_for("structure.p4")


def run(sw, kind, x, app=7, slot=3, ip=None):
    f = bytes(12) + b"\x08\x00" + (ip or ipv4()) + W.pack(kind, x, app, slot, 0, 0, 0, 0, 0, 0)
    out = sw.inject(0, f)
    assert len(out) == 1
    o = out[0][1]
    return o[14:-W.size], W.unpack(o[-W.size:])


def test_nested_control_const_entry_and_top_level_action(sw):
    ip, w = run(sw, 1, 5)
    # Arith.t const entry ADD: x = 5 + 10 + k(1); default branch: mark_ttl -> ttl 63,
    # deparser recomputes the checksum; color stays GREEN (2); checksum verified (1)
    assert w == (1, 16, 7, 3, 0, 0, 0, 0, 2, 1)
    assert ip == ipv4(ttl=63)


def test_local_struct_initialisers_and_enum(sw):
    _, w = run(sw, 2, 5)
    # p = {5, twice(5)=10}; q = {a = p.b, b = p.a}; x = q.a = 10; color RED (1)
    assert w == (2, 10, 7, 3, 0, 0, 0, 0, 1, 1)


def test_hash_algorithms(sw):
    _, w = run(sw, 3, 5, app=7, slot=3)
    data = bytes([0, 7, 0, 3])   # {app_id, slot}
    assert w[4] == zlib.crc32(data)
    assert w[5] == crc16_arc(data)
    assert w[6] == 0x0003                                  # identity: low 16 bits
    assert w[7] == binascii.crc_hqx(data, 0xFFFF)          # CRC-16/CCITT-FALSE


def test_set_invalid_removes_header(sw):
    ip, w = run(sw, 4, 5)
    assert ip == b"" and w[0] == 4


def test_checksum_verify_in_parser(sw):
    """TNA: parser Checksum.verify() is true when the checksum is wrong (the program
    stores it as checksum_err, as open-p4studio's tna_checksum.p4 does)."""
    ip, w = run(sw, 9, 5, ip=ipv4(checksum=0x1234))
    assert w[9] == 0                 # bad checksum seen by the parser
    assert ip == ipv4(ttl=63)        # deparser update fixes it
    _, w = run(sw, 9, 5)
    assert w[9] == 1                 # a correct checksum: verify() is false


def test_counters(sw):
    sw.table_add("Ingress.counted", {"hdr.work.app_id": 7}, "count_hit")
    run(sw, 1, 0)
    run(sw, 1, 0)
    run(sw, 2, 0, app=8)
    frame_len = 14 + 20 + W.size + 4      # byte counters include the 4-byte FCS
    assert sw.counter_read("Ingress.per_kind", 1) == (2, 2 * frame_len)
    assert sw.counter_read("Ingress.per_kind", 2) == (1, frame_len)
    assert sw.direct_counter_read("Ingress.counted", {"hdr.work.app_id": 7}) == (2, 2 * frame_len)
