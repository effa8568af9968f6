"""PTF test of entry_handles.p4, in the SDE's style: BfRuntimeTest, bfrt_grpc, testutils.
Run by ptf with --test-dir on a switch whose ports are given with --interface."""

from ptf import config
from ptf.testutils import simple_eth_packet, send_packet, verify_no_other_packets, \
    verify_packet

import bfrt_grpc.client as gc
from p4testutils.bfruntime_client_base_tests import BfRuntimeTest

P4_NAME = "entry_handles"
MACS = ("00:11:22:33:44:01", "00:11:22:33:44:02")


def ports():
    return sorted(p for (_dev, p) in config["port_map"])


class EntryHandlesTest(BfRuntimeTest):
    """Handles name entries (read by handle, key only too); modify keeps the entry's
    direct counter with reset_stats off and clears it by default; deleting a missing
    entry fails, unless ignore_not_found says it may be missing."""

    def setUp(self):
        BfRuntimeTest.setUp(self, 0, P4_NAME)
        self.target = gc.Target(device_id=0, pipe_id=0xffff)
        self.forward = self.bfrt_info.table_get("SwitchIngress.forward")
        self.forward.info.key_field_annotation_add("hdr.ethernet.dst_addr", "mac")

    def key(self, mac):
        return self.forward.make_key([gc.KeyTuple("hdr.ethernet.dst_addr", mac)])

    def data(self, port):
        return self.forward.make_data([gc.DataTuple("port", port)], "SwitchIngress.hit")

    def packets(self, mac):
        data, _ = next(self.forward.entry_get(self.target, [self.key(mac)], {"from_hw": True}))
        return data.to_dict()["$COUNTER_SPEC_PKTS"]

    def runTest(self):
        ingress, p1, p2 = ports()[:3]
        self.forward.entry_add(self.target, [self.key(m) for m in MACS],
                               [self.data(p1), self.data(p2)])

        handles = [self.forward.handle_get(self.target, [self.key(m)]) for m in MACS]
        assert len(set(handles)) == 2, handles
        for mac, port, h in zip(MACS, (p1, p2), handles):
            data, key = next(self.forward.entry_get(self.target, None, {"from_hw": False},
                                                    handle=h))
            assert key.to_dict()["hdr.ethernet.dst_addr"]["value"] == mac
            assert data.to_dict()["port"] == port
        # a key-only read by handle answers the entry's target too (bf_switchd's server
        # sets entry_tgt then; the SDE's ExactMatchEntryTgtTest reads it)
        _data, key, _target = next(self.forward.entry_get(
            self.target, None, {"from_hw": False, "key_only": True}, handle=handles[1]))
        assert key.to_dict()["hdr.ethernet.dst_addr"]["value"] == MACS[1]

        pkt = simple_eth_packet(eth_dst=MACS[0], pktlen=64)
        for _ in range(2):
            send_packet(self, ingress, pkt)
            verify_packet(self, pkt, p1)
        assert self.packets(MACS[0]) == 2
        # modify keeps the statistics when asked to, and the entry keeps its handle
        self.forward.entry_mod(self.target, [self.key(MACS[0])], [self.data(p2)],
                               flags={"reset_stats": False})
        assert self.packets(MACS[0]) == 2
        assert self.forward.handle_get(self.target, [self.key(MACS[0])]) == handles[0]
        send_packet(self, ingress, pkt)
        verify_packet(self, pkt, p2)
        assert self.packets(MACS[0]) == 3
        self.forward.entry_mod(self.target, [self.key(MACS[0])], [self.data(p1)])
        assert self.packets(MACS[0]) == 0          # entry_mod resets them by default
        verify_no_other_packets(self)

        self.forward.entry_del(self.target, [self.key(MACS[1])])
        try:
            self.forward.handle_get(self.target, [self.key(MACS[1])])
            raise AssertionError("a deleted entry still has a handle")
        except gc.BfruntimeReadWriteRpcException:
            pass
        try:
            self.forward.entry_del(self.target, [self.key(MACS[1])])
            raise AssertionError("deleting a missing entry succeeded")
        except gc.BfruntimeReadWriteRpcException:
            pass
        self.forward.entry_del(self.target, [self.key(MACS[1])],
                               metadata=[("ignore_not_found", "1")])

    def tearDown(self):
        self.forward.entry_del(self.target)
        BfRuntimeTest.tearDown(self)
