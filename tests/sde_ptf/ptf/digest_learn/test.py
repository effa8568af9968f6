"""PTF test of digest_learn.p4, in the SDE's style: BfRuntimeTest, bfrt_grpc, testutils.
Run by ptf with --test-dir on a switch whose ports are given with --interface."""

from ptf import config
from ptf.testutils import simple_eth_packet, send_packet, verify_no_other_packets, \
    verify_packet

import bfrt_grpc.client as gc
from p4testutils.bfruntime_client_base_tests import BfRuntimeTest

P4_NAME = "digest_learn"


def ports():
    return sorted(p for (_dev, p) in config["port_map"])


class DigestLearnTest(BfRuntimeTest):
    """An unknown source MAC comes back as a learn digest (source MAC, ingress port) on
    the stream; once the control plane adds it to `smac`, the same frame is forwarded
    without a digest."""

    def setUp(self):
        BfRuntimeTest.setUp(self, 0, P4_NAME)
        self.target = gc.Target(device_id=0, pipe_id=0xffff)
        self.smac = self.bfrt_info.table_get("SwitchIngress.smac")
        self.smac.info.key_field_annotation_add("hdr.ethernet.src_addr", "mac")
        self.dmac = self.bfrt_info.table_get("SwitchIngress.dmac")
        self.dmac.info.key_field_annotation_add("hdr.ethernet.dst_addr", "mac")
        self.learn_filter = self.bfrt_info.learn_get("learn_digest")
        self.learn_filter.info.data_field_annotation_add("src_addr", "mac")

    def runTest(self):
        ingress, egress = ports()[0], ports()[1]
        dmac, smacs = "00:11:22:33:44:55", ["00:00:00:00:aa:01", "00:00:00:00:aa:02"]
        self.dmac.entry_add(
            self.target,
            [self.dmac.make_key([gc.KeyTuple("hdr.ethernet.dst_addr", dmac)])],
            [self.dmac.make_data([gc.DataTuple("port", egress)], "SwitchIngress.hit")])

        for smac in smacs:
            pkt = simple_eth_packet(eth_dst=dmac, eth_src=smac, pktlen=80)
            send_packet(self, ingress, pkt)
            verify_packet(self, pkt, egress)
        learnt = []
        for _ in smacs:
            digest = self.interface.digest_get()
            assert digest.digest_id == self.learn_filter.info.id, digest
            for data in self.learn_filter.make_data_list(digest):
                learnt.append(data.to_dict())
        assert [(d["src_addr"], d["ingress_port"]) for d in learnt] == \
            [(smac, ingress) for smac in smacs], learnt

        for d in learnt:      # learn them as a MAC-learning control plane does
            self.smac.entry_add(
                self.target,
                [self.smac.make_key([gc.KeyTuple("hdr.ethernet.src_addr", d["src_addr"])])],
                [self.smac.make_data([], "SwitchIngress.known")])
        pkt = simple_eth_packet(eth_dst=dmac, eth_src=smacs[0], pktlen=80)
        send_packet(self, ingress, pkt)
        verify_packet(self, pkt, egress)
        verify_no_other_packets(self)
        try:
            digest = self.interface.digest_get(timeout=0.5)
        except RuntimeError:     # "Digest list not received": nothing was learnt
            digest = None
        assert digest is None, f"a known source was learnt again: {digest}"

    def tearDown(self):
        self.smac.entry_del(self.target)
        self.dmac.entry_del(self.target)
        BfRuntimeTest.tearDown(self)
