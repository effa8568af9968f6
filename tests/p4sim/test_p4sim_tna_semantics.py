"""tna_semantics.p4: TNA meanings that p4sim must get right, each with where it is
documented (facts read from bf-p4c's p4include/tofino1_base.p4, its parde sources, and
open-p4studio's P4-16 examples; no code copied)."""
import struct
import zlib

import pytest

import p4sim
from p4sim_helpers import PROGRAMS

CMD = struct.Struct(">BBBBBBI")


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack(f">{len(data) // 2}H", data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


def ipv4(src=0x0A000001, dst=0x0A000002, ttl=64, payload_len=8 + CMD.size, checksum=None):
    h = bytearray(struct.pack(">BBHHHBBHII", 0x45, 0, 20 + payload_len, 1, 0, ttl, 17, 0, src, dst))
    h[10:12] = struct.pack(">H", csum(bytes(h)) if checksum is None else checksum)
    return bytes(h)


def udp(src, dst, sport, dport, payload):
    length = 8 + len(payload)
    pseudo = struct.pack(">IIBBH", src, dst, 0, 17, length)
    c = csum(pseudo + struct.pack(">HHHH", sport, dport, length, 0) + payload)
    return struct.pack(">HHHH", sport, dport, length, c or 0xFFFF)


def frame(mode, arg=0, src=0x0A000001, dst=0x0A000002, sport=1000, dport=2000, ip_checksum=None):
    cmd = CMD.pack(mode, arg, 0, 0, 0, 0, 0)
    return (bytes(12) + b"\x08\x00" + ipv4(src, dst, checksum=ip_checksum)
            + udp(src, dst, sport, dport, cmd) + cmd)


def cmd_of(out):
    return CMD.unpack(out[-CMD.size:])


@pytest.fixture
def sw(switch_for):
    return switch_for("tna_semantics.p4")


def test_parser_checksum_verify_is_true_on_a_wrong_checksum(sw):
    """tofino1_base.p4 calls verify() 'whether the checksum is valid', but bf-p4c
    writes the parser checksum unit's *error* bit to the destination: open-p4studio's
    tna_checksum.p4 stores it as `checksum_err_ipv4_igprs` and tags packets when true."""
    (_, good), = sw.inject(0, frame(3))
    (_, bad), = sw.inject(0, frame(3, ip_checksum=0x1234))
    assert cmd_of(good)[4] == 0
    assert cmd_of(bad)[4] == 1


def test_incremental_udp_checksum_update(sw):
    """Parser get() is the plain ones'-complement sum (the residual: the old checksum
    and the fields to be rewritten subtracted); the deparser update() over the new
    fields plus that residual yields the correct checksum (tna_checksum.p4's NAT)."""
    f = frame(1, sport=1000, dport=2000)
    (_, out), = sw.inject(0, f)
    new_src, new_port = 0x0A000063, 4000
    cmd_in, cmd_out = f[-CMD.size:], out[-CMD.size:]   # the program's own cmd rewrite
    expected = (bytes(12) + b"\x08\x00" + ipv4(new_src, 0x0A000002)  # is not checksummed
                + udp(new_src, 0x0A000002, new_port, 2000, cmd_in) + cmd_out)
    assert out == expected


def test_update_zeros_as_ones():
    """update(data, zeros_as_ones = true) encodes a 0x0000 result as 0xFFFF
    (tofino1_base.p4: 'encode all-zeros value as all-ones'), as UDP requires."""
    from p4sim.runtime import ChecksumUnit
    assert ChecksumUnit.update(0xFFFF, 16) == 0
    assert ChecksumUnit.update(0xFFFF, 16, True) == 0xFFFF
    assert ChecksumUnit.update(0x1234, 16, True) == (~0x1234) & 0xFFFF


def test_unwritten_selector_fields_trigger_nothing(sw):
    """resubmit_type, digest_type and mirror_type select the deparser's field lists
    (bf-p4c extract_deparser: `if (md.X_type == k)` becomes a selector); the field is
    invalid until written, so `== 0` on an unwritten one does not fire."""
    sw.mirror_session_set(5, 9)
    out = sw.inject(0, frame(3))
    assert [p for p, _ in out] == [1]
    assert cmd_of(out[0][1])[2] == 1               # one pass: no resubmit
    assert sw.digests() == []                      # no digest
    sw.inject(0, frame(4, arg=7))                  # digest_type = 0 written: a digest
    assert sw.digests() == [("IgDeparser.dg", {"arg": 7})]


def test_resubmit_data_without_valid_and_a_second_request(sw):
    """Resubmit.emit(hdr) carries the fields whatever hdr's validity (the deparser
    emits a field list, not a header); a resubmitted packet's own request is ignored
    and it goes on through the pipeline."""
    out = sw.inject(0, frame(2))
    assert [p for p, _ in out] == [1]
    mode, arg, passes, target, err, tag, _ = cmd_of(out[0][1])
    assert passes == 1 and tag == 0x5A        # the resubmitted pass (on the original frame)
    assert not [d for d in sw.drops if d[0] == "resubmit"]


def test_ingress_mirror_copy_is_the_original_packet(sw):
    """An ingress-to-egress mirror copy is the packet as it entered ingress, with the
    mirror header (emitted whatever its validity) in front."""
    sw.mirror_session_set(5, 9)
    f = frame(5)
    out = dict(sw.inject(0, f))
    assert out[9] == bytes([0xAA, 5]) + f
    assert out[1][14 + 8] == 1                     # the original leaves with ttl 1


def test_symmetric_hash(sw):
    """@symmetric("a", "b") on a Hash makes the pair order-independent
    (open-p4studio tna_symmetric_hash.p4). p4sim's model: the pair shares hash-matrix
    columns, i.e. the CRC of the list with a := a ^ b and b := 0."""
    (_, o1), = sw.inject(0, frame(6, src=0x0A000001, dst=0x0B000002, sport=10, dport=20))
    (_, o2), = sw.inject(0, frame(6, src=0x0B000002, dst=0x0A000001, sport=20, dport=10))
    h = cmd_of(o1)[6]
    assert h == cmd_of(o2)[6]
    assert h == zlib.crc32(struct.pack(">IIHH", 0x0A000001 ^ 0x0B000002, 0, 10 ^ 20, 0))


def test_local_const_constructor_argument_and_target_define(sw):
    """A control-local const is a compile-time constant (P4-16 spec 10.1) and may size
    an extern; p4sim defines __TARGET_TOFINO__ = 1 as the SDE's build does."""
    assert len(sw.register_read_all("Ingress.seen")) == 16
    (_, out), = sw.inject(0, frame(3))
    assert cmd_of(out)[3] == 1


def test_target_define_can_be_overridden():
    prog = p4sim.compile_file(f"{PROGRAMS}/tna_semantics.p4", defines={"__TARGET_TOFINO__": "2"})
    (_, out), = p4sim.Switch(prog).inject(0, frame(3))
    assert cmd_of(out)[3] == 0


def test_byte_counters_count_the_fcs_and_modify_keeps_direct_counters(sw):
    """Tofino counts the 4-byte Ethernet FCS in byte counters; BfRt's entry modify
    keeps the direct counter unless the counter data is given (here: reset_counters)."""
    f = frame(3)
    sw.inject(2, f)
    assert sw.counter_read("Ingress.per_port", 2) == (1, len(f) + 4)
    sw.table_add("Ingress.by_mode", {"hdr.cmd.mode": 3}, "hit", {"v": 1})
    sw.inject(2, f)
    sw.table_modify("Ingress.by_mode", {"hdr.cmd.mode": 3}, "hit", {"v": 2})
    assert sw.direct_counter_read("Ingress.by_mode", {"hdr.cmd.mode": 3}) == (1, len(f) + 4)
    (_, out), = sw.inject(2, f)
    assert cmd_of(out)[1] == 2
    sw.table_modify("Ingress.by_mode", {"hdr.cmd.mode": 3}, "hit", {"v": 2}, reset_counters=True)
    assert sw.direct_counter_read("Ingress.by_mode", {"hdr.cmd.mode": 3}) == (0, 0)


TYPED = """#include "common.p4"
struct headers_t { ethernet_h ethernet; }
struct digest_t { bit<16> ether_type; }
parser P(packet_in pkt, out headers_t hdr, out digest_t md, out ingress_intrinsic_metadata_t ig_intr_md) {
    state start { TNA_INGRESS_PROLOGUE(pkt, ig_intr_md); pkt.extract(hdr.ethernet); transition accept; }
}
control I(inout headers_t hdr, inout digest_t md, in ingress_intrinsic_metadata_t ig_intr_md,
          in ingress_intrinsic_metadata_from_parser_t p, inout ingress_intrinsic_metadata_for_deparser_t d,
          inout ingress_intrinsic_metadata_for_tm_t tm) {
    apply { tm.ucast_egress_port = 1; d.digest_type = (bit<3>)hdr.ethernet.ether_type; }
}
control D(packet_out pkt, inout headers_t hdr, in digest_t md, in ingress_intrinsic_metadata_for_deparser_t d) {
    Digest<digest_t>(2) two;
    apply { two.pack({hdr.ethernet.ether_type}); pkt.emit(hdr); }
}
EMPTY_EGRESS(headers_t, digest_t)
Pipeline(P(), I(), D(), EmptyEgressParser(), EmptyEgress(), EmptyEgressDeparser()) pipe;
Switch(pipe) main;
"""


def test_typed_digest_fires_only_for_its_type():
    """Digest(DigestType_t t) / Mirror(t) / Resubmit(t) (tofino1_base.p4): the field
    list is used when the selector field holds t (bf-p4c extract_deparser
    getDigestIndex of the constructor argument), whatever the enclosing code."""
    sw = p4sim.Switch(p4sim.compile_source(TYPED, f"{PROGRAMS}/typed.p4"))
    sw.inject(0, bytes(12) + b"\x00\x02")
    sw.inject(0, bytes(12) + b"\x00\x03")
    assert sw.digests() == [("D.two", {"ether_type": 2})]
