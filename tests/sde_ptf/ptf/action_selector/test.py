"""PTF tests of action_selector.p4, in the SDE's style: BfRuntimeTest, bfrt_grpc,
testutils. Run by ptf with --test-dir on a switch whose ports are given with --interface."""

from ptf import config
from ptf.testutils import simple_eth_packet, send_packet, verify_no_other_packets, \
    verify_packet, verify_packet_any_port

import bfrt_grpc.client as gc
from p4testutils.bfruntime_client_base_tests import BfRuntimeTest

P4_NAME = "action_selector"
DMAC = "00:11:22:33:44:55"


def ports():
    return sorted(p for (_dev, p) in config["port_map"])


class ProfileTest(BfRuntimeTest):
    """Binds action_selector and finds its tables (no runTest: ptf does not run it)."""

    def setUp(self):
        BfRuntimeTest.setUp(self, 0, P4_NAME)
        self.target = gc.Target(device_id=0, pipe_id=0xffff)
        self.forward = self.bfrt_info.table_get("SwitchIngress.forward")
        self.forward.info.key_field_annotation_add("hdr.ethernet.dst_addr", "mac")
        self.retag = self.bfrt_info.table_get("SwitchIngress.retag")
        self.retag.info.key_field_annotation_add("hdr.ethernet.dst_addr", "mac")
        self.port_profile = self.bfrt_info.table_get("SwitchIngress.port_profile")
        self.vlan_profile = self.bfrt_info.table_get("SwitchIngress.vlan_profile")
        self.selector = self.bfrt_info.table_get("SwitchIngress.port_selector")
        self.get_member = self.bfrt_info.table_get("SwitchIngress.port_selector_get_member")

    def add_port_member(self, member_id, port):
        self.port_profile.entry_add(
            self.target,
            [self.port_profile.make_key([gc.KeyTuple("$ACTION_MEMBER_ID", member_id)])],
            [self.port_profile.make_data([gc.DataTuple("port", port)], "SwitchIngress.set_port")])

    def forward_key(self):
        return [self.forward.make_key([gc.KeyTuple("hdr.ethernet.dst_addr", DMAC)])]

    def tearDown(self):
        # entries first, then groups, then members: each still names the next
        for table in (self.forward, self.retag, self.selector, self.port_profile,
                      self.vlan_profile):
            table.entry_del(self.target)
        BfRuntimeTest.tearDown(self)


class ActionProfileTest(ProfileTest):
    """Entries name members; a member's change reaches the entries naming it."""

    def runTest(self):
        ingress, egress = ports()[0], ports()[1]
        self.add_port_member(1, egress)
        self.forward.entry_add(self.target, self.forward_key(),
                               [self.forward.make_data([gc.DataTuple("$ACTION_MEMBER_ID", 1)])])
        self.vlan_profile.entry_add(
            self.target,
            [self.vlan_profile.make_key([gc.KeyTuple("$ACTION_MEMBER_ID", 7)])],
            [self.vlan_profile.make_data([gc.DataTuple("ether_type", 0x88B5)],
                                         "SwitchIngress.set_type")])
        self.retag.entry_add(
            self.target, [self.retag.make_key([gc.KeyTuple("hdr.ethernet.dst_addr", DMAC)])],
            [self.retag.make_data([gc.DataTuple("$ACTION_MEMBER_ID", 7)])])

        pkt = simple_eth_packet(eth_dst=DMAC, eth_src="00:00:00:00:00:01", eth_type=0x0800,
                                pktlen=100)
        exp = simple_eth_packet(eth_dst=DMAC, eth_src="00:00:00:00:00:01", eth_type=0x88B5,
                                pktlen=100)
        send_packet(self, ingress, pkt)
        verify_packet(self, exp, egress)
        verify_no_other_packets(self)

        data, _key = next(self.retag.entry_get(
            self.target, [self.retag.make_key([gc.KeyTuple("hdr.ethernet.dst_addr", DMAC)])],
            {"from_hw": False}))
        assert data.to_dict()["$ACTION_MEMBER_ID"] == 7
        data, _key = next(self.vlan_profile.entry_get(
            self.target, [self.vlan_profile.make_key([gc.KeyTuple("$ACTION_MEMBER_ID", 7)])],
            {"from_hw": False}))
        assert data.to_dict()["ether_type"] == 0x88B5

        self.port_profile.entry_mod(
            self.target,
            [self.port_profile.make_key([gc.KeyTuple("$ACTION_MEMBER_ID", 1)])],
            [self.port_profile.make_data([], "SwitchIngress.drop")])
        send_packet(self, ingress, pkt)
        verify_no_other_packets(self)


class ActionSelectorTest(ProfileTest):
    """A group's flows spread over its active members, each flow always on one; a
    member marked inactive takes no flow; the group reads back as written."""

    def runTest(self):
        ingress, members = ports()[0], ports()[1:3]
        for mid, port in zip((1, 2), members):
            self.add_port_member(mid, port)
        group_key = [self.selector.make_key([gc.KeyTuple("$SELECTOR_GROUP_ID", 10)])]
        self.selector.entry_add(self.target, group_key, [self.selector.make_data([
            gc.DataTuple("$MAX_GROUP_SIZE", 8),
            gc.DataTuple("$ACTION_MEMBER_ID", int_arr_val=[1, 2]),
            gc.DataTuple("$ACTION_MEMBER_STATUS", bool_arr_val=[True, True])])])
        self.forward.entry_add(self.target, self.forward_key(), [
            self.forward.make_data([gc.DataTuple("$SELECTOR_GROUP_ID", 10)])])

        flows = [simple_eth_packet(eth_dst=DMAC, eth_src="00:00:00:00:%02x:%02x" % (i, i * 7),
                                   pktlen=100) for i in range(16)]
        chosen = []
        for pkt in flows:
            send_packet(self, ingress, pkt)
            chosen.append(members[verify_packet_any_port(self, pkt, members)[0]])
        verify_no_other_packets(self)
        assert set(chosen) == set(members), chosen     # 16 flows use both members
        for pkt, port in zip(flows, chosen):           # and each flow sticks to one
            send_packet(self, ingress, pkt)
            verify_packet(self, pkt, port)

        data, _key = next(self.selector.entry_get(self.target, group_key, {"from_hw": False}))
        group = data.to_dict()
        assert group["$ACTION_MEMBER_ID"] == [1, 2]
        assert group["$ACTION_MEMBER_STATUS"] == [True, True]
        assert group["$MAX_GROUP_SIZE"] == 8
        for hash_value in range(4):                    # p4sim's rule: active[hash % n]
            data, _key = next(self.get_member.entry_get(self.target, [
                self.get_member.make_key([gc.KeyTuple("$SELECTOR_GROUP_ID", 10),
                                          gc.KeyTuple("hash_value", hash_value)])]))
            assert data.to_dict()["$ACTION_MEMBER_ID"] == [1, 2][hash_value % 2]

        self.selector.entry_mod(self.target, group_key, [self.selector.make_data([
            gc.DataTuple("$ACTION_MEMBER_ID", int_arr_val=[1, 2]),
            gc.DataTuple("$ACTION_MEMBER_STATUS", bool_arr_val=[False, True])])])
        for pkt in flows:
            send_packet(self, ingress, pkt)
            verify_packet(self, pkt, members[1])
        verify_no_other_packets(self)
