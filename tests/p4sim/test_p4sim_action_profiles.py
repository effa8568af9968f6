"""ActionProfile/ActionSelector in p4sim: indirect entries run their member's action,
a group's member is the one p4sim/action_profiles.py's rule picks from the selector's
Hash, and the references between entries, groups and members are kept."""
from pathlib import Path

import pytest

import p4sim
from p4sim.runtime import HashUnit

from p4sim_helpers import eth

PROGRAM = (Path(__file__).resolve().parents[1] / "sde_ptf" / "ptf" / "action_selector"
           / "action_selector.p4")
DMAC = 0x0A0000000001


@pytest.fixture(scope="module")
def program():
    return p4sim.compile_file(str(PROGRAM))


@pytest.fixture
def sw(program):
    sw = p4sim.Switch(program)
    for mid, port in ((1, 5), (2, 6), (3, 7)):
        sw.action_member_add("port_profile", mid, "set_port", {"port": port})
    sw.selector_group_add("port_selector", 10, [1, 2, 3])
    sw.table_add_group("forward", {"hdr.ethernet.dst_addr": DMAC}, 10)
    return sw


def frame(src, ether_type=0x0800):
    return eth(DMAC, src, ether_type) + bytes(46)


def out_port(sw, src, ether_type=0x0800):
    out = sw.inject(1, frame(src, ether_type))
    return out[0][0] if out else None


def test_each_packet_takes_the_member_the_selector_hash_picks(sw):
    crc16 = HashUnit(16, "CRC16")
    ports = {1: 5, 2: 6, 3: 7}
    seen = set()
    for src in range(0x1000, 0x1040):
        h = crc16.get(src << 16 | 0x0800, 64)        # selector keys in key order
        fair = [1, 2, 3][(h & 0x3FFF) % 3]             # FAIR: hash[13:0] % active
        assert sw.selector_member_for("port_selector", 10, h) == fair
        assert out_port(sw, src) == ports[fair]
        port = out_port(sw, src)
        seen.add(port)
    assert seen == {5, 6, 7}        # 64 flows spread over all three members


def test_inactive_members_are_skipped_and_an_empty_group_misses(sw):
    sw.selector_group_modify("port_selector", 10, statuses=[False, True, False])
    assert {out_port(sw, s) for s in range(0x2000, 0x2010)} == {6}
    sw.selector_group_modify("port_selector", 10, statuses=[False, False, False])
    assert out_port(sw, 0x2000) is None             # the default action drop()
    assert sw.drops == [("ingress", "drop_ctl")]


def test_a_member_change_reaches_every_entry_naming_it(sw):
    sw.table_add_member("forward", {"hdr.ethernet.dst_addr": DMAC + 1}, 2)
    sw.action_member_modify("port_profile", 2, "set_port", {"port": 9})
    out = sw.inject(1, eth(DMAC + 1, 1) + bytes(46))
    assert out[0][0] == 9
    sw.action_member_modify("port_profile", 2, "drop")
    assert sw.inject(1, eth(DMAC + 1, 1) + bytes(46)) == []


def test_references_are_kept(sw):
    with pytest.raises(p4sim.ControlPlaneError, match="member 1 is in use by group 10"):
        sw.action_member_delete("port_profile", 1)
    with pytest.raises(p4sim.ControlPlaneError, match="group 10 is in use by 1 entries"):
        sw.selector_group_delete("port_selector", 10)
    with pytest.raises(p4sim.ControlPlaneError, match="no entry with member id 99"):
        sw.selector_group_add("port_selector", 11, [99])
    with pytest.raises(p4sim.ControlPlaneError, match="no entry with group id 12"):
        sw.table_add_group("forward", {"hdr.ethernet.dst_addr": 5}, 12)
    with pytest.raises(p4sim.ControlPlaneError, match="exceed its max group size 8"):
        sw.selector_group_add("port_selector", 11, [1] + list(range(20, 28)))
    with pytest.raises(p4sim.ControlPlaneError, match="is indirect"):
        sw.table_add("forward", {"hdr.ethernet.dst_addr": 5}, "set_port", {"port": 1})
    sw.table_delete("forward", {"hdr.ethernet.dst_addr": DMAC})
    sw.selector_group_delete("port_selector", 10)
    sw.action_member_delete("port_profile", 1)
    assert sorted(sw.action_members("port_profile")) == [2, 3]


def test_an_action_profile_table_runs_its_members_action(sw):
    sw.action_member_add("vlan_profile", 7, "set_type", {"ether_type": 0x88B5})
    sw.table_add_member("retag", {"hdr.ethernet.dst_addr": DMAC}, 7)
    out = sw.inject(1, frame(0x1000))
    assert out[0][1][12:14] == b"\x88\xb5"
    with pytest.raises(p4sim.ControlPlaneError, match="has no action selector"):
        sw.table_add_group("retag", {"hdr.ethernet.dst_addr": DMAC + 1}, 10)


def test_the_deprecated_form_makes_its_profile_and_a_selector_named_sel():
    deprecated = (Path(__file__).resolve().parents[1] / "softswitch" / "programs"
                  / "action_selector_deprecated.p4")
    sw = p4sim.Switch(p4sim.compile_file(str(deprecated)))
    sw.action_member_add("SwitchIngress.port_selector", 1, "set_port", {"port": 5})
    for gid in range(4):                       # bf-p4c's 4 groups of at most 120
        sw.selector_group_add("port_selector_sel", gid, [1])
    with pytest.raises(p4sim.ControlPlaneError, match="is full"):
        sw.selector_group_add("port_selector_sel", 4, [1])
    assert sw.selector_groups("port_selector_sel")[0] == ([1], [True], 120)
    sw.table_add_group("forward", {"hdr.ethernet.dst_addr": DMAC}, 2)
    assert out_port(sw, 0x1234) == 5


def test_members_groups_and_entries_from_a_control_file(tmp_path, capsys):
    from scapy.layers.l2 import Ether
    from scapy.utils import wrpcap

    from p4sim.cli import main
    wrpcap(str(tmp_path / "in.pcap"), [Ether(frame(0x1000))])
    (tmp_path / "cp.yaml").write_text(
        "- action_member_add: [port_profile, 1, set_port, {port: 6}]\n"
        "- selector_group_add: [port_selector, 10, [1]]\n"
        f"- table_add_group: [forward, {{hdr.ethernet.dst_addr: {DMAC}}}, 10]\n")
    assert main(["run", str(PROGRAM), "--pcap", str(tmp_path / "in.pcap"), "--port", "1",
                 "--control", str(tmp_path / "cp.yaml"), "-o", str(tmp_path / "out.pcap")]) == 0
    assert "frame 1: port 6 (60 bytes)" in capsys.readouterr().out
