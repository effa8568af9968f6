"""PTF tests of exact_mcast.p4, in the SDE's style: BfRuntimeTest, bfrt_grpc, testutils.
Run by ptf with --test-dir on a switch whose ports are given with --interface."""

from ptf import config
from ptf.testutils import simple_eth_packet, send_packet, verify_no_other_packets, \
    verify_packet, verify_packets

import bfrt_grpc.client as gc
from p4testutils.bfruntime_client_base_tests import BfRuntimeTest

P4_NAME = "exact_mcast"


def ports():
    """The device ports PTF was given (--interface DEV-PORT@IFACE), sorted."""
    return sorted(p for (_dev, p) in config["port_map"])


class ForwardTableTest(BfRuntimeTest):
    """Binds exact_mcast and finds its forward table (no runTest: ptf does not run it)."""

    def setUp(self):
        BfRuntimeTest.setUp(self, 0, P4_NAME)
        self.target = gc.Target(device_id=0, pipe_id=0xffff)
        self.forward = self.bfrt_info.table_get("SwitchIngress.forward")
        self.forward.info.key_field_annotation_add("hdr.ethernet.dst_addr", "mac")

    def tearDown(self):
        self.forward.entry_del(self.target)
        BfRuntimeTest.tearDown(self)


class ExactMatchTest(ForwardTableTest):
    """An entry per destination MAC sends the frame to its port; a miss drops it."""

    def runTest(self):
        assert self.dev_configuration.num_pipes == 1
        ingress, egress = ports()[0], ports()[1]
        dmac = "00:11:22:33:44:55"
        self.forward.entry_add(
            self.target,
            [self.forward.make_key([gc.KeyTuple("hdr.ethernet.dst_addr", dmac)])],
            [self.forward.make_data([gc.DataTuple("port", egress)], "SwitchIngress.hit")])
        resp = self.forward.entry_get(
            self.target, [self.forward.make_key([gc.KeyTuple("hdr.ethernet.dst_addr", dmac)])],
            {"from_hw": True})
        data, _key = next(resp)
        assert data.to_dict()["port"] == egress

        pkt = simple_eth_packet(eth_dst=dmac, eth_src="00:00:00:00:00:01", pktlen=100)
        send_packet(self, ingress, pkt)
        verify_packet(self, pkt, egress)
        verify_no_other_packets(self)

        miss = simple_eth_packet(eth_dst="00:11:22:33:44:66", pktlen=100)
        send_packet(self, ingress, miss)
        verify_no_other_packets(self)


class MulticastTest(ForwardTableTest):
    """A flood entry replicates the frame to every port of its multicast group's nodes."""

    def setUp(self):
        ForwardTableTest.setUp(self)
        self.node = self.bfrt_info.table_get("$pre.node")
        self.mgid = self.bfrt_info.table_get("$pre.mgid")

    def runTest(self):
        ingress, members = ports()[0], ports()[1:]
        mgid, rid = 7, 1
        self.node.entry_add(
            self.target,
            [self.node.make_key([gc.KeyTuple("$MULTICAST_NODE_ID", 1)])],
            [self.node.make_data([gc.DataTuple("$MULTICAST_RID", rid),
                                  gc.DataTuple("$MULTICAST_LAG_ID", int_arr_val=[]),
                                  gc.DataTuple("$DEV_PORT", int_arr_val=members)])])
        self.mgid.entry_add(
            self.target,
            [self.mgid.make_key([gc.KeyTuple("$MGID", mgid)])],
            [self.mgid.make_data([gc.DataTuple("$MULTICAST_NODE_ID", int_arr_val=[1]),
                                  gc.DataTuple("$MULTICAST_NODE_L1_XID_VALID",
                                               bool_arr_val=[False]),
                                  gc.DataTuple("$MULTICAST_NODE_L1_XID", int_arr_val=[0])])])
        dmac = "ff:ff:ff:ff:ff:ff"
        self.forward.entry_add(
            self.target,
            [self.forward.make_key([gc.KeyTuple("hdr.ethernet.dst_addr", dmac)])],
            [self.forward.make_data([gc.DataTuple("mgid", mgid)], "SwitchIngress.flood")])

        pkt = simple_eth_packet(eth_dst=dmac, eth_src="00:00:00:00:00:02", pktlen=80)
        send_packet(self, ingress, pkt)
        verify_packets(self, pkt, members)
        verify_no_other_packets(self)

        data, _key = next(self.mgid.entry_get(
            self.target, [self.mgid.make_key([gc.KeyTuple("$MGID", mgid)])]))
        assert data.to_dict()["$MULTICAST_NODE_ID"] == [1]

    def tearDown(self):
        self.mgid.entry_del(self.target)
        self.node.entry_del(self.target)
        ForwardTableTest.tearDown(self)
