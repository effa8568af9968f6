"""PTF test of flexible.p4, in the SDE's style: BfRuntimeTest, bfrt_grpc, testutils.
Run by ptf with --test-dir on a switch whose ports are given with --interface."""

import struct

from ptf import config
from ptf.testutils import simple_eth_packet, send_packet, verify_no_other_packets, \
    verify_packet

import bfrt_grpc.client as gc
from p4testutils.bfruntime_client_base_tests import BfRuntimeTest

P4_NAME = "flexible"


def ports():
    return sorted(p for (_dev, p) in config["port_map"])


class BridgedMetadataTest(BfRuntimeTest):
    """Every field of the @flexible bridged header reaches egress intact: the report
    after the Ethernet header carries them, zero-extended."""

    def setUp(self):
        BfRuntimeTest.setUp(self, 0, P4_NAME)
        self.target = gc.Target(device_id=0, pipe_id=0xffff)
        self.forward = self.bfrt_info.table_get("SwitchIngress.forward")

    def runTest(self):
        ingress, egress = ports()[0], ports()[1]
        self.forward.entry_add(
            self.target, [self.forward.make_key([gc.KeyTuple("hdr.ethernet.ether_type",
                                                             0x88B5)])],
            [self.forward.make_data([gc.DataTuple("port", egress)], "SwitchIngress.bridge")])
        dmac, smac = "a1:b2:c3:00:00:5e", "01:00:00:ab:cd:07"
        pkt = simple_eth_packet(eth_dst=dmac, eth_src=smac, eth_type=0x88B5, pktlen=64)
        eth = bytes(pkt)[:14]
        report = struct.pack(">HIBBBH", ingress, 0xA1B2C3, 0x7, 0x5E, 1, 0x0AB)
        send_packet(self, ingress, pkt)
        verify_packet(self, eth + report + bytes(pkt)[14:], egress)
        verify_no_other_packets(self)

    def tearDown(self):
        self.forward.entry_del(self.target)
        BfRuntimeTest.tearDown(self)
