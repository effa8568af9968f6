"""The control-plane API a BfRuntime server exposes: $PORT_METADATA, counter
write/clear/initial values, default-entry reset, BfRt's `$valid` key name, multicast
group 0, mirror truncation."""
import pytest

import p4sim
from test_p4sim_programs import _tm, _tm_frame
from test_p4sim_tna_semantics import cmd_of, frame

PM = "$PORT_METADATA"


def test_port_metadata_reaches_the_parser_per_ingress_port(switch_for):
    sw = switch_for("traffic_manager.p4")
    # traffic_manager.p4 unpacks port_md_t {tag, pad}; resub_seen = resubmit_flag ++ tag[6:0]
    sw.table_add(PM, {"ig_intr_md.ingress_port": 3}, None, {"tag": 0x15})
    assert _tm(sw.inject(3, _tm_frame(1, 7)))[0][2][6] == 0x15
    assert _tm(sw.inject(4, _tm_frame(1, 7)))[0][2][6] == 0          # other port: zeros
    assert sw.table_entries(PM) == [({"ig_intr_md.ingress_port": 3}, None, {"tag": 0x15, "pad": 0}, 0)]
    sw.table_modify(PM, {"ig_intr_md.ingress_port": 3}, None, {"tag": 0x16})
    assert sw.port_metadata_read(3)["tag"] == 0x16
    sw.port_metadata_set(5, bytes([0x7F]) + bytes(7))
    assert _tm(sw.inject(5, _tm_frame(1, 7)))[0][2][6] == 0x7F
    sw.table_delete(PM, {"ig_intr_md.ingress_port": 3})
    assert _tm(sw.inject(3, _tm_frame(1, 7)))[0][2][6] == 0
    with pytest.raises(p4sim.ControlPlaneError, match="already has an entry"):
        sw.table_add(PM, {"ig_intr_md.ingress_port": 5}, None, {"tag": 1})
    with pytest.raises(p4sim.ControlPlaneError, match="unknown field"):
        sw.port_metadata_set(6, {"nosuch": 1})
    with pytest.raises(p4sim.ControlPlaneError, match="bit<8>"):
        sw.port_metadata_set(6, {"tag": 256})
    with pytest.raises(p4sim.ControlPlaneError, match="bit<9>"):
        sw.port_metadata_set(512, 0)


def test_counter_write_clear_and_initial_values(switch_for):
    sw = switch_for("tna_semantics.p4")
    f = frame(3)
    sw.counter_write("Ingress.per_port", 2, packets=10, bytes=1000)
    sw.inject(2, f)
    assert sw.counter_read("Ingress.per_port", 2) == (11, 1000 + len(f) + 4)
    sw.counter_clear("Ingress.per_port")
    assert sw.counter_read("Ingress.per_port", 2) == (0, 0)
    sw.table_add("Ingress.by_mode", {"hdr.cmd.mode": 3}, "hit", {"v": 1}, counters=(5, 50))
    sw.inject(2, f)
    assert sw.direct_counter_read("Ingress.by_mode", {"hdr.cmd.mode": 3}) == (6, 50 + len(f) + 4)
    sw.direct_counter_write("Ingress.by_mode", {"hdr.cmd.mode": 3}, packets=1, bytes=2)
    assert sw.direct_counter_read("Ingress.by_mode", {"hdr.cmd.mode": 3}) == (1, 2)
    sw.direct_counter_clear("Ingress.by_mode")
    assert sw.direct_counter_read("Ingress.by_mode", {"hdr.cmd.mode": 3}) == (0, 0)
    with pytest.raises(p4sim.ControlPlaneError, match="out of range"):
        sw.counter_write("Ingress.per_port", 16, 1, 1)
    with pytest.raises(p4sim.ControlPlaneError, match="no direct counter"):
        sw.table_add("Ingress.by_valid", {"hdr.udp.$valid": 1, "hdr.cmd.mode": 7}, "mark",
                     {"v": 1}, counters=(1, 1))


def test_default_entry_reset_and_valid_key_name(switch_for):
    sw = switch_for("tna_semantics.p4")
    # BfRt spells a validity key "hdr.udp.$valid"; p4sim's own name is the expression
    sw.table_add("Ingress.by_valid", {"hdr.udp.$valid": 1, "hdr.cmd.mode": 7}, "mark", {"v": 0x77})
    assert cmd_of(sw.inject(0, frame(7))[0][1])[1] == 0x77
    sw.table_delete("Ingress.by_valid", {"hdr.udp.isValid()": 1, "hdr.cmd.mode": 7})
    sw.table_set_default("Ingress.by_valid", "NoAction")
    sw.table_set_default("Ingress.by_mode", "hit", {"v": 9})
    assert sw.table_get_default("Ingress.by_mode") == ("Ingress.hit", (9,))
    assert cmd_of(sw.inject(0, frame(3))[0][1])[1] == 9
    sw.table_reset_default("Ingress.by_mode")
    assert sw.table_get_default("Ingress.by_mode") == ("NoAction", ())
    assert cmd_of(sw.inject(0, frame(3))[0][1])[1] == 0


def test_multicast_group_zero(switch_for):
    """The PRE has a group 0; the TM replicates for mcast_grp_a once it was written
    (its validity), so a program writing mcast_grp_a = 0 uses group 0."""
    sw = switch_for("traffic_manager.p4")
    assert sw.inject(0, _tm_frame(2, 0, 0)) == []          # group 0 not configured
    sw.multicast_group_set(0, [(1, [1, 2])])
    assert [p for p, _ in sw.inject(0, _tm_frame(2, 0, 0))] == [1, 2]
    assert [p for p, _ in sw.inject(0, _tm_frame(1, 7))] == [7]   # never written: unicast only


def test_mirror_truncation(switch_for):
    sw = switch_for("tna_semantics.p4")
    sw.mirror_session_set(5, 9, max_len=20)
    f = frame(5)
    out = dict(sw.inject(0, f))
    assert out[9] == (bytes([0xAA, 5]) + f)[:20]
    sw.mirror_session_set(5, 9)                       # no truncation again
    assert dict(sw.inject(0, f))[9] == bytes([0xAA, 5]) + f
    with pytest.raises(p4sim.ControlPlaneError, match="max_len"):
        sw.mirror_session_set(5, 9, max_len=0)
