"""PTF tests of register_counter.p4, in the SDE's style: BfRuntimeTest, bfrt_grpc,
testutils. Run by ptf with --test-dir on a switch whose ports are given with --interface."""

from ptf import config
from ptf.testutils import simple_eth_packet, send_packet, verify_no_other_packets, \
    verify_packet

import bfrt_grpc.client as gc
from p4testutils.bfruntime_client_base_tests import BfRuntimeTest

P4_NAME = "register_counter"


def ports():
    return sorted(p for (_dev, p) in config["port_map"])


class RegisterCounterTest(BfRuntimeTest):
    """Frames bump the register cell of their source and the counter of their ingress
    port; both are read back (registers one value per pipe, after a Sync), written and
    cleared through BfRuntime."""

    def setUp(self):
        BfRuntimeTest.setUp(self, 0, P4_NAME)
        self.target = gc.Target(device_id=0, pipe_id=0xffff)
        self.forward = self.bfrt_info.table_get("SwitchIngress.forward")
        self.forward.info.key_field_annotation_add("hdr.ethernet.dst_addr", "mac")
        self.register = self.bfrt_info.table_get("SwitchIngress.per_source")
        self.counter = self.bfrt_info.table_get("SwitchIngress.rx_frames")

    def _register(self, index):
        self.register.operations_execute(self.target, "Sync")
        data, _key = next(self.register.entry_get(
            self.target,
            [self.register.make_key([gc.KeyTuple("$REGISTER_INDEX", index)])],
            {"from_hw": False}))
        return data.to_dict()["SwitchIngress.per_source.f1"]

    def runTest(self):
        num_pipes = self.dev_configuration.num_pipes
        ingress, egress = ports()[0], ports()[1]
        dmac, source_index = "00:11:22:33:44:55", 0x2A
        self.forward.entry_add(
            self.target,
            [self.forward.make_key([gc.KeyTuple("hdr.ethernet.dst_addr", dmac)])],
            [self.forward.make_data([gc.DataTuple("port", egress)], "SwitchIngress.hit")])

        pkt = simple_eth_packet(eth_dst=dmac, eth_src="00:00:00:00:00:%02x" % source_index,
                                pktlen=100)
        for _ in range(3):
            send_packet(self, ingress, pkt)
            verify_packet(self, pkt, egress)
        verify_no_other_packets(self)

        assert self._register(source_index) == [3] * num_pipes
        self.counter.operations_execute(self.target, "Sync")
        data, _key = next(self.counter.entry_get(
            self.target, [self.counter.make_key([gc.KeyTuple("$COUNTER_INDEX", ingress)])],
            {"from_hw": True}))
        counts = data.to_dict()
        assert counts["$COUNTER_SPEC_PKTS"] == 3
        assert counts["$COUNTER_SPEC_BYTES"] == 3 * (100 + 4)   # the FCS counts

        self.register.entry_add(
            self.target,
            [self.register.make_key([gc.KeyTuple("$REGISTER_INDEX", source_index)])],
            [self.register.make_data([gc.DataTuple("SwitchIngress.per_source.f1", 40)])])
        send_packet(self, ingress, pkt)
        verify_packet(self, pkt, egress)
        assert self._register(source_index) == [41] * num_pipes

        self.register.entry_del(self.target)
        assert self._register(source_index) == [0] * num_pipes

    def tearDown(self):
        self.forward.entry_del(self.target)
        self.counter.entry_del(self.target)
        BfRuntimeTest.tearDown(self)
