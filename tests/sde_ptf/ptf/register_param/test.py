"""PTF tests of register_param.p4, in the SDE's style: BfRuntimeTest, bfrt_grpc,
testutils. Run by ptf with --test-dir on a switch whose ports are given with --interface."""

from ptf import config
from ptf.testutils import simple_eth_packet, send_packet, verify_no_other_packets, \
    verify_packet

import bfrt_grpc.client as gc
from p4testutils.bfruntime_client_base_tests import BfRuntimeTest

P4_NAME = "register_param"


def ports():
    return sorted(p for (_dev, p) in config["port_map"])


class RegisterParamTest(BfRuntimeTest):
    """A source's frames pass while its count is under the budget RegisterParam; the
    control plane reads the budget, raises it, and resets it to the program's value."""

    def setUp(self):
        BfRuntimeTest.setUp(self, 0, P4_NAME)
        self.target = gc.Target(device_id=0, pipe_id=0xffff)
        self.forward = self.bfrt_info.table_get("SwitchIngress.forward")
        self.forward.info.key_field_annotation_add("hdr.ethernet.dst_addr", "mac")
        self.budget = self.bfrt_info.table_get("SwitchIngress.budget")
        self.used = self.bfrt_info.table_get("SwitchIngress.used")

    def _budget(self):
        data, _key = next(self.budget.default_entry_get(self.target))
        return data.to_dict()["value"]

    def _send(self, pkt, ingress, egress, passes):
        send_packet(self, ingress, pkt)
        if passes:
            verify_packet(self, pkt, egress)
        verify_no_other_packets(self)

    def runTest(self):
        ingress, egress = ports()[0], ports()[1]
        dmac = "00:11:22:33:44:55"
        self.forward.entry_add(
            self.target,
            [self.forward.make_key([gc.KeyTuple("hdr.ethernet.dst_addr", dmac)])],
            [self.forward.make_data([gc.DataTuple("port", egress)], "SwitchIngress.hit")])
        pkt = simple_eth_packet(eth_dst=dmac, eth_src="00:00:00:00:00:2a", pktlen=100)

        assert self._budget() == 2                    # the program's initial value
        for passes in (True, True, False):
            self._send(pkt, ingress, egress, passes)

        self.budget.default_entry_set(self.target,
                                      self.budget.make_data([gc.DataTuple("value", 5)]))
        assert self._budget() == 5
        for passes in (True, True, True, False):
            self._send(pkt, ingress, egress, passes)

        self.budget.default_entry_reset(self.target)
        assert self._budget() == 2
        self._send(pkt, ingress, egress, False)       # 5 used, budget 2 again

    def tearDown(self):
        self.forward.entry_del(self.target)
        self.used.entry_del(self.target)
        self.budget.default_entry_reset(self.target)
        BfRuntimeTest.tearDown(self)
