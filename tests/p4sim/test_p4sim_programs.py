"""One small P4 program per construct family; expected frames and register values are
derived by hand from the program text (comments give the derivation)."""
import struct

import numpy as np
import pytest

import p4sim

from p4sim_helpers import eth


# ------------------------------------------------------------------ l2_forward.p4
def test_exact_table_forwards_and_default_drops(switch_for):
    sw = switch_for("l2_forward.p4")
    sw.table_add("Ingress.forward", {"hdr.ethernet.dst_addr": 0x020000000001}, "set_port", {"port": 5})
    f = eth(0x020000000001, 0x020000000002, 0x0800) + b"payload"
    # set_port(5): unicast to 5; deparser re-emits ethernet unchanged, payload appended
    assert sw.inject(1, f) == [(5, f)]
    # miss -> default drop() sets drop_ctl
    assert sw.inject(1, eth(0x0300, 1) + b"x") == []
    assert sw.drops == [("ingress", "drop_ctl")]


def test_a_unicast_to_port_511_is_dropped_by_the_traffic_manager(switch_for):
    """511 is no port of a Tofino 1 (pipe 3's local port 127): the TM drops the copy,
    as P4Testgen's Tofino model does (its generated tests found p4sim sending it)."""
    sw = switch_for("l2_forward.p4")
    sw.table_add("Ingress.forward", {"hdr.ethernet.dst_addr": 9}, "set_port", {"port": 511})
    assert sw.inject(1, eth(9)) == []
    assert sw.drops[0] == ("tm", "unicast to port 511, which is no port")
    sw.table_modify("Ingress.forward", {"hdr.ethernet.dst_addr": 9}, "set_port", {"port": 510})
    assert sw.inject(1, eth(9)) == [(510, eth(9))]


def test_without_recirculation_ports_a_frame_to_port_68_leaves_on_it(switch_for):
    """Port 68 recirculates (l2_forward sends it back to 68: max_passes, then dropped);
    with no recirculation ports, as in P4Testgen's model, it is an output on 68."""
    sw = switch_for("l2_forward.p4")
    sw.table_add("Ingress.forward", {"hdr.ethernet.dst_addr": 9}, "set_port", {"port": 68})
    assert sw.recirculation_ports == {68}
    assert sw.inject(1, eth(9)) == []
    sw.recirculation_ports = ()
    assert sw.inject(1, eth(9)) == [(68, eth(9))]


def test_table_modify_delete_default(switch_for):
    sw = switch_for("l2_forward.p4")
    key = {"hdr.ethernet.dst_addr": 7}
    sw.table_add("Ingress.forward", key, "set_port", {"port": 5})
    sw.table_modify("Ingress.forward", key, "set_port", {"port": 6})
    assert sw.inject(0, eth(7)) == [(6, eth(7))]
    sw.table_delete("Ingress.forward", key)
    assert sw.inject(0, eth(7)) == []
    sw.table_set_default("Ingress.forward", "set_port", {"port": 9})
    assert sw.inject(0, eth(7)) == [(9, eth(7))]
    sw.table_add("Ingress.forward", key, "drop")
    sw.table_clear("Ingress.forward")
    assert sw.inject(0, eth(7)) == [(9, eth(7))]


def test_ports_removed_drop(switch_for):
    sw = switch_for("l2_forward.p4", ports=[1, 2])
    sw.table_set_default("Ingress.forward", "set_port", {"port": 3})
    assert sw.inject(1, eth(1)) == []
    sw.port_add(3)
    assert sw.inject(1, eth(1)) == [(3, eth(1))]
    sw.port_remove(3)
    assert sw.inject(1, eth(1)) == []


# ------------------------------------------------------------------ parser_select.p4
def _seen(frame):
    # Ingress writes nextIndex, path, v4 valid, v6 valid, tail valid, 0 into src_addr
    return tuple(frame[6:12])


def test_parser_stack_lookahead_tuple_select(switch_for):
    sw = switch_for("parser_select.p4")
    body = bytes([1, 10, 2, 20, 0, 0]) + bytes([0x45, 9]) + bytes([0xAA, 3]) + b"pp"
    out = sw.inject(1, eth(0, 0, 0x9000) + body)
    # three tags (last has kind 0), lookahead sees version 4, tail (0xAA, 3) accepted
    assert [(p, _seen(f)) for p, f in out] == [(2, (3, 4, 1, 0, 1, 0))]
    assert out[0][1][12:] == b"\x90\x00" + body


@pytest.mark.parametrize("etype,body,expect", [
    (0x8812, bytes([0x60, 1, 0x00, 0xF3]), (0, 6, 0, 1, 1, 0)),  # mask 0x88xx, v6, (_, 0xFx)
    (0x0150, bytes([0xAA, 0]), (0, 0, 0, 0, 1, 0)),              # range 0x100..0x1ff, (0xAA, _)
    (0x0800, b"zz", (0, 0, 0, 0, 0, 0)),                          # default: accept
])
def test_select_masks_ranges_defaults(switch_for, etype, body, expect):
    sw = switch_for("parser_select.p4")
    out = sw.inject(1, eth(0, 0, etype) + body)
    assert [(p, _seen(f)) for p, f in out] == [(2, expect)]


@pytest.mark.parametrize("frame,reason", [
    (eth(0, 0, 0xDEAD) + b"xx", "Reject"),                             # explicit reject
    (eth(0, 0, 0x8800) + bytes([0x44, 0, 0xAA, 0]), "HeaderTooShort"),  # verify(ihl >= 5)
    (eth(0, 0, 0x9000) + bytes([1, 1] * 5), "StackOutOfBounds"),       # 5th tag, stack of 4
    (eth(0, 0, 0x9000)[:10], "PacketTooShort"),
    (eth(0, 0, 0x8800) + bytes([0x70, 0]), "Reject"),                  # lookahead version 7
    (eth(0, 0, 0x0150) + bytes([0x11, 0x01]), "Reject"),              # no tail case matches
])
def test_parser_errors_drop(switch_for, frame, reason):
    sw = switch_for("parser_select.p4")
    assert sw.inject(1, frame) == []
    assert sw.drops == [("ingress_parser", reason)]


# ------------------------------------------------------------------ tables.p4
P = struct.Struct(">IHBBIIIIB")


def _probe(sw, addr, port, flags, c, et=0x1234):
    out = sw.inject(0, bytes(12) + et.to_bytes(2, "big") + P.pack(addr, port, flags, c, 0, 0, 0, 0, 0))
    assert len(out) == 1
    return P.unpack(out[0][1][14:])[4:]


def test_lpm_range_ternary_const_entries(switch_for):
    sw = switch_for("tables.p4")
    sw.table_add("Ingress.routes", {"hdr.probe.addr": (0x0A000000, 8)}, "set_lpm", {"v": 8})
    sw.table_add("Ingress.routes", {"hdr.probe.addr": (0x0A010000, 16)}, "set_lpm", {"v": 16})
    sw.table_add("Ingress.ranges", {"hdr.probe.port": (100, 200)}, "set_range", {"v": 1})
    sw.table_add("Ingress.classify", {"hdr.probe.flags": (0x80, 0x80), "etype": 0x1234},
                 "set_tern", {"v": 1, "sw": 10}, priority=2)
    sw.table_add("Ingress.classify", {"hdr.probe.flags": (0x81, 0x81), "etype": 0x1234},
                 "set_tern", {"v": 2, "sw": 20}, priority=1)
    # /16 wins over /8 (+1 on hit); range hit; both ternary match, priority 1 wins (sw 20+1);
    # const entry 0x01 is first
    assert _probe(sw, 0x0A010203, 150, 0x81, 1) == (17, 1, 2, 100, 21)
    # /8; range miss: default 0xFFFF | 0x10000; only prio-2 matches; 0x05 matches 0x0X
    assert _probe(sw, 0x0A020203, 99, 0x80, 5) == (9, 0x1FFFF, 1, 200, 11)
    # lpm miss: NoAction; ternary miss: miss_marker (0xEE) and switch writes 0xDEAD; '_'
    assert _probe(sw, 0x0B020203, 201, 0x01, 0x15) == (0, 0x1FFFF, 0xDEAD, 300, 0xEE)
    # exact part of the ternary table's key misses
    assert _probe(sw, 0x0B020203, 201, 0x80, 0x15, et=1) == (0, 0x1FFFF, 0xDEAD, 300, 0xEE)


def test_const_table_is_read_only(switch_for):
    sw = switch_for("tables.p4")
    with pytest.raises(p4sim.ControlPlaneError, match="Ingress.fixed"):
        sw.table_add("Ingress.fixed", {"hdr.probe.c": (1, 0xFF)}, "set_const", {"v": 1})


def test_defaultonly_action_rejected_as_entry(switch_for):
    sw = switch_for("tables.p4")
    with pytest.raises(p4sim.ControlPlaneError, match="defaultonly"):
        sw.table_add("Ingress.classify", {"hdr.probe.flags": (0, 0), "etype": 1}, "miss_marker")


# ------------------------------------------------------------------ registers.p4
O = struct.Struct(">BHIII")


def _op(sw, op, idx, arg):
    out = sw.inject(0, bytes(14) + O.pack(op, idx, arg, 0, 0))
    return O.unpack(out[0][1][14:])[3:]


def test_register_actions(switch_for):
    sw = switch_for("registers.p4")
    assert _op(sw, 1, 3, 77) == (1, 0)          # free -> claimed by 77
    assert _op(sw, 1, 3, 78) == (0, 0)          # owned by 77
    assert _op(sw, 1, 3, 77) == (1, 0)          # ours
    assert sw.register_read("Ingress.owner", 3) == 77
    _op(sw, 2, 3, 0)                            # release (no result parameter)
    assert sw.register_read("Ingress.owner", 3) == 0
    # int<32> with initial value -5, saturating add
    assert _op(sw, 3, 2, 10) == (5, 0)
    assert _op(sw, 3, 2, 0xFFFFFFF0) == ((5 - 16) & 0xFFFFFFFF, 0)
    sw.register_write("Ingress.signed_acc", 1, 2**31 - 2)
    assert _op(sw, 3, 1, 100) == (2**31 - 1, 0)  # clamps
    assert sw.register_read_all("Ingress.signed_acc").tolist()[:4] == [-5, 2**31 - 1, -11, -5]
    assert sw.register_read_all("Ingress.signed_acc").dtype == np.int32
    # bit<16> wraps (result is the old value); bit<8> saturates
    assert _op(sw, 4, 1, 0xFFFF) == (0, 255)
    assert _op(sw, 4, 1, 0x2FF) == (0xFFFF, 255)
    assert sw.register_read("Ingress.small", 1) == (0xFFFF + 0x2FF) & 0xFFFF
    # pair register
    assert _op(sw, 5, 0, 5) == (1, 0)
    assert _op(sw, 5, 0, 6) == (2, 0)
    assert sw.register_read("Ingress.pair", 0) == {"lo": 11, "hi": 2}
    arr = sw.register_read_all("Ingress.pair")
    assert arr["lo"][0] == 11 and arr["hi"][0] == 2
    # Register.write / read from the data plane
    _op(sw, 6, 4, 1234)
    assert _op(sw, 7, 4, 0) == (1234, 0)
    sw.register_reset("Ingress.owner")
    assert sw.register_read_all("Ingress.owner").sum() == 0


def test_register_second_access_in_one_pass_is_an_error(switch_for):
    sw = switch_for("registers.p4")
    with pytest.raises(p4sim.RegisterConflictError, match="Ingress.owner"):
        _op(sw, 9, 5, 1)


def test_register_control_plane_errors(switch_for):
    sw = switch_for("registers.p4")
    with pytest.raises(p4sim.ControlPlaneError, match="Ingress.tiny.*bit<8>"):
        sw.register_write("Ingress.tiny", 0, 256)
    with pytest.raises(p4sim.ControlPlaneError, match="out of range"):
        sw.register_read("Ingress.tiny", 16)
    with pytest.raises(p4sim.ControlPlaneError, match="no register named 'Ingress.nope'"):
        sw.register_read("Ingress.nope", 0)


# ------------------------------------------------------------------ traffic_manager.p4
C = struct.Struct(">BBHHHBBI")


def _tm_frame(mode, arg=0, mgid=0):
    return eth(0, 0, 0x0800) + bytes([0x45]) + bytes(19) + C.pack(mode, arg, mgid, 0, 0, 0, 0, 0)


def _tm(out):
    # (port, ipv4 ecn, cmd fields)
    return [(p, f[15] & 3, C.unpack(f[34:])) for p, f in out]


def test_unicast_egress_sees_port_and_queue_depth(switch_for):
    sw = switch_for("traffic_manager.p4")
    # ingress: passes 1, arg := 0xFF; egress: port 7, qdepth 1500 >= 1000 -> ecn 3
    assert _tm(sw.inject(0, _tm_frame(1, 7), queue_depth=lambda p: 1500 if p == 7 else 0)) == \
        [(7, 3, (1, 0xFF, 0, 0, 7, 1, 0, 1500))]
    assert _tm(sw.inject(0, _tm_frame(1, 7), queue_depth=10)) == \
        [(7, 0, (1, 0xFF, 0, 0, 7, 1, 0, 10))]


def test_multicast_rid_and_egress_drop(switch_for):
    sw = switch_for("traffic_manager.p4")
    sw.multicast_group_set(5, [(1, [1, 2]), (99, [3]), (7, [4])])
    # one copy per node port; rid 99 is dropped in egress
    assert _tm(sw.inject(0, _tm_frame(2, 0, 5))) == [
        (1, 0, (2, 0xFF, 5, 1, 1, 1, 0, 0)),
        (2, 0, (2, 0xFF, 5, 1, 2, 1, 0, 0)),
        (4, 0, (2, 0xFF, 5, 7, 4, 1, 0, 0))]
    sw.multicast_group_delete(5)
    assert sw.inject(0, _tm_frame(2, 0, 5)) == []


def test_drop_bypass_resubmit_recirculate_exit(switch_for):
    sw = switch_for("traffic_manager.p4")
    assert sw.inject(0, _tm_frame(3)) == []
    # bypass_egress: egress never writes port_seen
    assert _tm(sw.inject(0, _tm_frame(4))) == [(2, 0, (4, 0xFF, 0, 0, 0, 1, 0, 0))]
    # resubmit: the original frame again, resubmit_flag 1 and the resubmit header tag 0x42
    # in the port-metadata slot: resub_seen = 1 ++ 0x42[6:0] = 0xC2
    assert _tm(sw.inject(0, _tm_frame(5))) == [(3, 0, (5, 0xFF, 0, 0, 3, 1, 0xC2, 0))]
    # recirculation through port 68: the second ingress pass sees the deparsed frame
    assert _tm(sw.inject(0, _tm_frame(6))) == [(4, 0, (6, 0xFF, 0, 0, 4, 2, 0, 0))]
    # exit: arg is not overwritten
    assert _tm(sw.inject(0, _tm_frame(7))) == [(5, 0, (7, 0, 0, 0, 5, 1, 0, 0))]


def test_recirculation_is_bounded(switch_for):
    sw = switch_for("traffic_manager.p4", recirculation_port=4, max_passes=3)
    # mode 6 sends to 68 (a normal port now) -> leaves on 68
    assert [p for p, _ in sw.inject(0, _tm_frame(6))] == [68]
    # unicast to arg = 255 = the recirculation port; every pass sets arg := 0xFF again
    sw = switch_for("traffic_manager.p4", recirculation_port=255, max_passes=3)
    assert sw.inject(0, _tm_frame(1, 255)) == []
    assert sw.drops[-1][0] == "max_passes"


# ------------------------------------------------------------------ aggregate62.p4
def test_aggregate62_saturating_register_adds(switch_for):
    sw = switch_for("aggregate62.p4")
    sw.table_add("Ingress.forward", {"hdr.ethernet.dst_addr": 1}, "set_port", {"port": 3})
    agg = struct.Struct(">IBBHHH62i")
    vals = list(range(-31, 31))
    vals[5] = 2**31 - 10
    f = eth(1, 2, 0x0800) + bytes([0x45, 0, 0, 0, 0, 0, 0, 0, 64, 0xFD, 0, 0]) + bytes(8) + \
        agg.pack(1, 2, 0, 7, 1, 5, *vals)
    for n in (1, 2, 3):
        out = sw.inject(1, f)
        got = agg.unpack(out[0][1][34:])[6:]
        want = [max(min(v * n, 2**31 - 1), -2**31) for v in vals]
        assert list(got) == want
    assert sw.register_read("Ingress.counts", 5) == 3
    assert sw.register_read_all("Ingress.agg_61")[5] == 30 * 3


def test_switches_of_one_program_are_independent(switch_for):
    a = switch_for("registers.p4")
    b = switch_for("registers.p4")
    _op(a, 1, 3, 77)
    assert a.register_read("Ingress.owner", 3) == 77
    assert b.register_read("Ingress.owner", 3) == 0
    # table actions run in their own switch (here: a DirectCounter through the pass context)
    c = switch_for("structure.p4")
    switch_for("structure.p4")   # a second switch of the same Program, created later
    c.table_add("Ingress.counted", {"hdr.work.app_id": 7}, "count_hit")
    frame = eth(0, 0, 0x0900) + bytes(20)
    c.inject(0, frame)
    assert c.direct_counter_read("Ingress.counted", {"hdr.work.app_id": 7}) == (0, 0)  # no work header: miss
    work = bytes([9, 0, 0, 7]) + bytes(16)
    frame = eth(0, 0, 0x0800) + bytes([0x45]) + bytes(19) + work
    assert len(c.inject(0, frame)) == 1
    assert c.direct_counter_read("Ingress.counted", {"hdr.work.app_id": 7}) == (1, len(frame) + 4)  # + FCS
