"""PTF tests of meters.p4, in the SDE's style: BfRuntimeTest, bfrt_grpc, testutils.
Run by ptf with --test-dir on a switch whose ports are given with --interface.

Colours: MeterColor_t GREEN 0, YELLOW 1, RED 3, read from the frame's ether_type
(DirectMeter << 8 | Meter). Rates of 0 make the colours depend on the burst sizes only
(no refill however slow the run); the refill test gives 1 packet/s and waits."""

import time

from ptf import config
from ptf.testutils import simple_eth_packet, send_packet, verify_no_other_packets, \
    verify_packet

import bfrt_grpc.client as gc
from p4testutils.bfruntime_client_base_tests import BfRuntimeTest

P4_NAME = "meters"
GREEN, YELLOW, RED = 0, 1, 3
UNLIMITED = (1 << 64) - 1
DMAC = "00:11:22:33:44:55"
SOURCE = 0x07            # the Meter's index: the source MAC's low byte
FRAME_LEN = 80           # + 4 bytes of FCS that BYTES meters count: 672 bits


def ports():
    return sorted(p for (_dev, p) in config["port_map"])


class MeterBase(BfRuntimeTest):
    def setUp(self):
        BfRuntimeTest.setUp(self, 0, P4_NAME)
        self.target = gc.Target(device_id=0, pipe_id=0xffff)
        self.policer = self.bfrt_info.table_get("SwitchIngress.policer")
        self.policer.info.key_field_annotation_add("hdr.ethernet.dst_addr", "mac")
        self.meter = self.bfrt_info.table_get("SwitchIngress.per_source")
        self.ingress, self.egress = ports()[0], ports()[1]

    def add_flow(self, cir, pir, cbs, pbs):
        self.policer.entry_add(
            self.target,
            [self.policer.make_key([gc.KeyTuple("hdr.ethernet.dst_addr", DMAC)])],
            [self.policer.make_data([gc.DataTuple("port", self.egress),
                                     gc.DataTuple("$METER_SPEC_CIR_PPS", cir),
                                     gc.DataTuple("$METER_SPEC_PIR_PPS", pir),
                                     gc.DataTuple("$METER_SPEC_CBS_PKTS", cbs),
                                     gc.DataTuple("$METER_SPEC_PBS_PKTS", pbs)],
                                    "SwitchIngress.forward")])

    def set_cell(self, cir, pir, cbs, pbs):
        self.meter.entry_add(
            self.target,
            [self.meter.make_key([gc.KeyTuple("$METER_INDEX", SOURCE)])],
            [self.meter.make_data([gc.DataTuple("$METER_SPEC_CIR_KBPS", cir),
                                   gc.DataTuple("$METER_SPEC_PIR_KBPS", pir),
                                   gc.DataTuple("$METER_SPEC_CBS_KBITS", cbs),
                                   gc.DataTuple("$METER_SPEC_PBS_KBITS", pbs)])])

    def colours(self):
        """Send one frame; the (direct, indexed) colours it comes out with."""
        pkt = simple_eth_packet(eth_dst=DMAC, eth_src="00:00:00:00:00:%02x" % SOURCE,
                                eth_type=0xFFFF, pktlen=FRAME_LEN)
        send_packet(self, self.ingress, pkt)
        got = self.dataplane.poll(port_number=self.egress, timeout=2)
        assert not isinstance(got, self.dataplane.PollFailure), \
            f"no frame on port {self.egress}"
        sent, out = bytes(pkt), bytes(got.packet)
        assert out[:12] + out[14:len(sent)] == sent[:12] + sent[14:], \
            "the frame changed beyond its ether_type"
        return out[12], out[13]

    def tearDown(self):
        self.policer.entry_del(self.target)
        self.meter.entry_del(self.target)
        BfRuntimeTest.tearDown(self)


class BurstColoursTest(MeterBase):
    """Two-rate three-colour marking by burst size: a PACKETS DirectMeter (CBS 2, PBS
    4 packets) and a BYTES Meter (CBS 2, PBS 4 kbit of 672-bit frames); what was
    configured reads back, and an index never written reads as unlimited."""

    def runTest(self):
        self.add_flow(cir=0, pir=0, cbs=2, pbs=4)
        self.set_cell(cir=0, pir=0, cbs=2, pbs=4)
        seen = [self.colours() for _ in range(6)]
        assert [d for d, _ in seen] == [GREEN, GREEN, YELLOW, YELLOW, RED, RED], seen
        # bytes: 2000 bits hold two green frames, 4000 bits five non-red ones
        assert [i for _, i in seen] == [GREEN, GREEN, YELLOW, YELLOW, YELLOW, RED], seen
        verify_no_other_packets(self)

        data, _ = next(self.policer.entry_get(
            self.target,
            [self.policer.make_key([gc.KeyTuple("hdr.ethernet.dst_addr", DMAC)])],
            {"from_hw": True}))
        d = data.to_dict()
        assert (d["port"], d["$METER_SPEC_CIR_PPS"], d["$METER_SPEC_PIR_PPS"],
                d["$METER_SPEC_CBS_PKTS"], d["$METER_SPEC_PBS_PKTS"]) == \
            (self.egress, 0, 0, 2, 4), d
        cells = {k.to_dict()["$METER_INDEX"]["value"]: v.to_dict()
                 for v, k in self.meter.entry_get(self.target, None, {"from_hw": True})}
        assert len(cells) == 256
        assert cells[SOURCE]["$METER_SPEC_CBS_KBITS"] == 2
        assert cells[SOURCE]["$METER_SPEC_PBS_KBITS"] == 4
        assert cells[SOURCE + 1]["$METER_SPEC_CIR_KBPS"] == UNLIMITED

        # deleting the cell unconfigures it: every frame is green again
        self.meter.entry_del(
            self.target, [self.meter.make_key([gc.KeyTuple("$METER_INDEX", SOURCE)])])
        assert self.colours()[1] == GREEN


class ByteCountAdjustTest(MeterBase):
    """MeterByteCountAdjust adds bytes to what a BYTES meter counts: a 672-bit frame
    is green in a 1 kbit bucket, a frame counted 50 bytes longer (1072 bits) is red."""

    def runTest(self):
        self.add_flow(cir=UNLIMITED, pir=UNLIMITED, cbs=UNLIMITED, pbs=UNLIMITED)
        self.set_cell(cir=0, pir=0, cbs=1, pbs=1)
        assert self.colours() == (GREEN, GREEN)
        self.meter.attribute_meter_bytecount_adjust_set(self.target, 50)
        attr = next(self.meter.attribute_get(self.target, "MeterByteCountAdjust"))
        assert attr["byte_count_adjust"] == 50, attr
        self.set_cell(cir=0, pir=0, cbs=1, pbs=1)     # full buckets again
        assert self.colours() == (GREEN, RED)
        self.meter.attribute_meter_bytecount_adjust_set(self.target, 0)


class RefillTest(MeterBase):
    """Rates refill the buckets over the switch's clock: at 1 packet/s with bursts of
    one packet, a second frame right after the first is red, one a second later green."""

    def runTest(self):
        self.add_flow(cir=1, pir=1, cbs=1, pbs=1)
        assert self.colours()[0] == GREEN
        assert self.colours()[0] == RED
        time.sleep(1.2)
        assert self.colours()[0] == GREEN
