"""atp_mini.p4: an ATP-like aggregator; expectations follow the protocol spec, section 4."""
import struct

import pytest

ATP = struct.Struct(">IBBHHHH4i")
MAXI = 2**31 - 1


def flags(ack=0, resend=0, overflow=0, collision=0, ecn=0):
    return overflow << 7 | ecn << 3 | resend << 2 | collision << 1 | ack


def pkt(app, seq, bitmap, fan_in, vals, agtr=3, ipecn=0, **fl):
    eth = (0xAA).to_bytes(6, "big") + (0xBB).to_bytes(6, "big") + b"\x07\x00"
    ip = bytes([0x45, ipecn, 0, 0, 0, 0, 0, 0, 64, 0xFD, 0, 0]) + bytes(8)
    return eth + ip + ATP.pack(bitmap, fan_in, flags(**fl), app, seq, agtr, 0, *vals)


def decode(frame):
    b, n, f, app, seq, agtr, agtr2, *vals = ATP.unpack(frame[34:])
    return {"bitmap": b, "flags": f, "app": app, "seq": seq, "vals": vals, "ipecn": frame[15] & 3}


@pytest.fixture
def sw(switch_for):
    s = switch_for("atp_mini.p4")
    s.table_add("Ingress.ps_port", {"hdr.atp.app_id": 5, "hdr.atp.ps_index": 0}, "to_ps", {"port": 9})
    s.table_add("Ingress.ps_port", {"hdr.atp.app_id": 6, "hdr.atp.ps_index": 0}, "to_ps", {"port": 8})
    s.table_add("Ingress.job_group", {"hdr.atp.app_id": 5}, "to_workers", {"mgid": 3})
    s.multicast_group_set(3, [(0, [1, 2])])
    return s


def test_aggregation_completion_collision_and_release(sw):
    ident = 5 << 16 | 1
    # worker 0: first arrival claims aggregator 3, is absorbed
    assert sw.inject(1, pkt(5, 1, 0b01, 2, [1, 2, 3, 4])) == []
    assert sw.register_read("Ingress.owner", 3) == ident
    assert sw.register_read("Ingress.bitmap", 3) == 1
    assert sw.register_read("Ingress.count", 3) == 1
    assert [sw.register_read(f"Ingress.values_{i}", 3) for i in range(4)] == [1, 2, 3, 4]
    # duplicate of worker 0: nothing new, not complete -> absorbed, state unchanged
    assert sw.inject(1, pkt(5, 1, 0b01, 2, [1, 2, 3, 4])) == []
    assert sw.register_read("Ingress.count", 3) == 1
    # worker 1 completes: values saturate (sticky), bitmap merged, to the PS on port 9
    out = sw.inject(2, pkt(5, 1, 0b10, 2, [10, MAXI, -5, 0]), queue_depth=150)
    assert [p for p, _ in out] == [9]
    d = decode(out[0][1])
    assert d["bitmap"] == 0b11 and d["vals"] == [11, MAXI, -2, 4]
    assert d["flags"] == flags(ecn=1) and d["ipecn"] == 3     # egress queue 150 >= 100
    # another job hashed to the same aggregator: collision, forwarded to its PS unchanged
    out = sw.inject(3, pkt(6, 1, 0b1, 1, [7, 7, 7, 7]))
    assert [(p, decode(f)["flags"], decode(f)["vals"]) for p, f in out] == \
        [(8, flags(collision=1), [7, 7, 7, 7])]
    # worker 1 again after completion: the aggregate is sent again (sticky MAXI stays)
    out = sw.inject(2, pkt(5, 1, 0b10, 2, [1, -1, 1, 1]))
    assert [(p, decode(f)["vals"], decode(f)["bitmap"]) for p, f in out] == \
        [(9, [11, MAXI, -2, 4], 0b11)]
    # parameter packet from the PS: aggregator released, multicast to the job's workers
    out = sw.inject(9, pkt(5, 1, 0b11, 2, [11, MAXI, -2, 4], ack=1))
    assert [p for p, _ in out] == [1, 2]
    assert sw.register_read("Ingress.owner", 3) == 0
    assert sw.register_read("Ingress.bitmap", 3) == 0
    # next use of the aggregator overwrites the stale values
    assert sw.inject(1, pkt(5, 2, 0b01, 2, [5, 5, 5, 5])) == []
    assert sw.register_read_all("Ingress.values_1")[3] == 5


def test_resend_flushes_partial_aggregate(sw):
    assert sw.inject(1, pkt(5, 1, 0b01, 3, [1, 1, 1, 1])) == []
    out = sw.inject(1, pkt(5, 1, 0b01, 3, [1, 1, 1, 1], resend=1))
    # resend by the owner: released, treated as complete, flushes what is there
    assert [(p, decode(f)["bitmap"], decode(f)["vals"]) for p, f in out] == [(9, 0b01, [1, 1, 1, 1])]
    assert sw.register_read("Ingress.owner", 3) == 0
    assert sw.register_read("Ingress.count", 3) == 0


def test_float_mode_bypasses_state(sw):
    out = sw.inject(1, pkt(5, 1, 0b01, 2, [1, 2, 3, 4], overflow=1))
    assert [p for p, _ in out] == [9]
    assert sw.register_read("Ingress.owner", 3) == 0
