"""PTF test of port_metadata.p4, in the SDE's style: BfRuntimeTest, bfrt_grpc, testutils.
Run by ptf with --test-dir on a switch whose ports are given with --interface."""

from ptf import config
from ptf.testutils import simple_eth_packet, send_packet, verify_no_other_packets, \
    verify_packet

import bfrt_grpc.client as gc
from p4testutils.bfruntime_client_base_tests import BfRuntimeTest

P4_NAME = "port_metadata"


def ports():
    return sorted(p for (_dev, p) in config["port_map"])


class PortMetadataTest(BfRuntimeTest):
    """Each ingress port's $PORT_METADATA entry (written, read back, modified, deleted
    through BfRuntime) decides where its frames go and the tag they carry."""

    def setUp(self):
        BfRuntimeTest.setUp(self, 0, P4_NAME)
        self.target = gc.Target(device_id=0, pipe_id=0xffff)
        self.port_md = self.bfrt_info.table_get("SwitchIngressParser.$PORT_METADATA")

    def _key(self, port):
        return self.port_md.make_key([gc.KeyTuple("ig_intr_md.ingress_port", port)])

    def _send(self, ingress, egress, tag):
        pkt = simple_eth_packet(eth_dst="00:11:22:33:44:55", eth_type=0x0800, pktlen=64)
        send_packet(self, ingress, pkt)
        if egress is not None:
            exp = simple_eth_packet(eth_dst="00:11:22:33:44:55", eth_type=tag, pktlen=64)
            verify_packet(self, exp, egress)
        verify_no_other_packets(self)

    def runTest(self):
        a, b, c = ports()[:3]
        self.port_md.entry_add(
            self.target, [self._key(a), self._key(b)],
            [self.port_md.make_data([gc.DataTuple("tag", 0x1111), gc.DataTuple("out_port", c),
                                     gc.DataTuple("reserved", 0)]),
             self.port_md.make_data([gc.DataTuple("tag", 0x2222), gc.DataTuple("out_port", a),
                                     gc.DataTuple("reserved", 0)])])
        self._send(a, c, 0x1111)
        self._send(b, a, 0x2222)
        self._send(c, None, None)          # no entry: zeros, out_port 0 drops

        data, key = next(self.port_md.entry_get(self.target, [self._key(b)], {"from_hw": False}))
        assert data.to_dict()["tag"] == 0x2222 and data.to_dict()["out_port"] == a
        assert key.to_dict()["ig_intr_md.ingress_port"]["value"] == b
        entries = list(self.port_md.entry_get(self.target, None, {"from_hw": False}))
        assert sorted(k.to_dict()["ig_intr_md.ingress_port"]["value"]
                      for _d, k in entries) == [a, b]

        self.port_md.entry_mod(
            self.target, [self._key(a)],
            [self.port_md.make_data([gc.DataTuple("tag", 0x3333), gc.DataTuple("out_port", b),
                                     gc.DataTuple("reserved", 0)])])
        self._send(a, b, 0x3333)
        self.port_md.entry_del(self.target, [self._key(a)])
        self._send(a, None, None)
        self._send(b, a, 0x2222)

    def tearDown(self):
        self.port_md.entry_del(self.target)
        BfRuntimeTest.tearDown(self)
