"""PTF tests of lpf_wred.p4, in the SDE's style: BfRuntimeTest, bfrt_grpc, testutils.
Run by ptf with --test-dir on a switch whose ports are given with --interface.

A frame's sample is its ether_type; it comes out with the Lpf's output as ether_type
and the Wred's verdict (0xDD drop, 0x11 keep) as the source MAC's low byte. Time
constants of 0 (follow at once) or 10^12 ns (barely move in a run's milliseconds) keep
the outputs independent of how fast the run is."""

from ptf import config
from ptf.testutils import simple_eth_packet, send_packet, verify_no_other_packets

import bfrt_grpc.client as gc
from p4testutils.bfruntime_client_base_tests import BfRuntimeTest

P4_NAME = "lpf_wred"
DMAC = "00:11:22:33:44:55"
CELL = 7
DROP, KEEP = 0xDD, 0x11
SLOW = 1e12


def ports():
    return sorted(p for (_dev, p) in config["port_map"])


class FilterBase(BfRuntimeTest):
    def setUp(self):
        BfRuntimeTest.setUp(self, 0, P4_NAME)
        self.target = gc.Target(device_id=0, pipe_id=0xffff)
        self.dmac = self.bfrt_info.table_get("SwitchIngress.dmac")
        self.dmac.info.key_field_annotation_add("hdr.ethernet.dst_addr", "mac")
        self.lpf = self.bfrt_info.table_get("SwitchIngress.smooth")
        self.wred = self.bfrt_info.table_get("SwitchIngress.early_drop")
        self.ingress, self.egress = ports()[0], ports()[1]
        self.dmac.entry_add(
            self.target, [self.dmac.make_key([gc.KeyTuple("hdr.ethernet.dst_addr", DMAC)])],
            [self.dmac.make_data([gc.DataTuple("port", self.egress)], "SwitchIngress.forward")])

    def run_sample(self, sample):
        """(Wred verdict, Lpf output) of one frame carrying ``sample``."""
        pkt = simple_eth_packet(eth_dst=DMAC, eth_src="00:00:00:00:00:%02x" % CELL,
                                eth_type=sample, pktlen=64)
        send_packet(self, self.ingress, pkt)
        got = self.dataplane.poll(port_number=self.egress, timeout=2)
        assert not isinstance(got, self.dataplane.PollFailure), "no frame came out"
        out = bytes(got.packet)
        return out[11], int.from_bytes(out[12:14], "big")

    def set_lpf(self, kind, gain, decay, scale):
        self.lpf.entry_add(
            self.target, [self.lpf.make_key([gc.KeyTuple("$LPF_INDEX", CELL)])],
            [self.lpf.make_data([gc.DataTuple("$LPF_SPEC_TYPE", str_val=kind),
                                 gc.DataTuple("$LPF_SPEC_GAIN_TIME_CONSTANT_NS", float_val=gain),
                                 gc.DataTuple("$LPF_SPEC_DECAY_TIME_CONSTANT_NS",
                                              float_val=decay),
                                 gc.DataTuple("$LPF_SPEC_OUT_SCALE_DOWN_FACTOR", scale)])])

    def tearDown(self):
        self.dmac.entry_del(self.target)
        self.lpf.entry_del(self.target)
        self.wred.entry_del(self.target)
        BfRuntimeTest.tearDown(self)


class LpfTest(FilterBase):
    """SAMPLE: the average follows a rise at once (gain 0) and a fall slowly (decay
    10^12 ns); RATE: the output integrates the samples, scaled down by 2^N; the spec
    reads back."""

    def runTest(self):
        assert self.run_sample(1234) == (KEEP, 1234)      # unconfigured: passed through
        self.set_lpf("SAMPLE", 0.0, SLOW, 0)
        assert self.run_sample(1000)[1] == 1000
        falling = self.run_sample(0)[1]
        assert 990 <= falling <= 1000, falling
        assert self.run_sample(3000)[1] == 3000

        data, _ = next(self.lpf.entry_get(
            self.target, [self.lpf.make_key([gc.KeyTuple("$LPF_INDEX", CELL)])],
            {"from_hw": False}))
        d = data.to_dict()
        assert d["$LPF_SPEC_TYPE"] == "SAMPLE" and d["$LPF_SPEC_OUT_SCALE_DOWN_FACTOR"] == 0
        assert d["$LPF_SPEC_GAIN_TIME_CONSTANT_NS"] == 0.0
        assert abs(d["$LPF_SPEC_DECAY_TIME_CONSTANT_NS"] - SLOW) < SLOW * 1e-6

        self.lpf.entry_mod(
            self.target, [self.lpf.make_key([gc.KeyTuple("$LPF_INDEX", CELL)])],
            [self.lpf.make_data([gc.DataTuple("$LPF_SPEC_TYPE", str_val="RATE"),
                                 gc.DataTuple("$LPF_SPEC_GAIN_TIME_CONSTANT_NS", float_val=SLOW),
                                 gc.DataTuple("$LPF_SPEC_DECAY_TIME_CONSTANT_NS", float_val=SLOW),
                                 gc.DataTuple("$LPF_SPEC_OUT_SCALE_DOWN_FACTOR", 2)])])
        outs = [self.run_sample(400)[1] for _ in range(3)]
        assert [abs(o - e) <= 1 for o, e in zip(outs, (100, 200, 300))] == [True] * 3, outs
        verify_no_other_packets(self)


class WredTest(FilterBase):
    """The sample as the average (time constant 0): below the min threshold frames are
    kept, from the max threshold on dropped, in between dropped with probability up to
    max_probability (0 here, so kept); the spec reads back."""

    def runTest(self):
        key = self.wred.make_key([gc.KeyTuple("$WRED_INDEX", CELL)])
        self.wred.entry_add(
            self.target, [key],
            [self.wred.make_data([gc.DataTuple("$WRED_SPEC_TIME_CONSTANT_NS", float_val=0.0),
                                  gc.DataTuple("$WRED_SPEC_MIN_THRESH_CELLS", 100),
                                  gc.DataTuple("$WRED_SPEC_MAX_THRESH_CELLS", 200),
                                  gc.DataTuple("$WRED_SPEC_MAX_PROBABILITY", float_val=0.0)])])
        assert [self.run_sample(s)[0] for s in (99, 150, 199, 200, 5000)] == \
            [KEEP, KEEP, KEEP, DROP, DROP]
        data, _ = next(self.wred.entry_get(self.target, [key], {"from_hw": False}))
        d = data.to_dict()
        assert (d["$WRED_SPEC_MIN_THRESH_CELLS"], d["$WRED_SPEC_MAX_THRESH_CELLS"]) == (100, 200)

        self.wred.entry_mod(
            self.target, [key],
            [self.wred.make_data([gc.DataTuple("$WRED_SPEC_TIME_CONSTANT_NS", float_val=0.0),
                                  gc.DataTuple("$WRED_SPEC_MIN_THRESH_CELLS", 0),
                                  gc.DataTuple("$WRED_SPEC_MAX_THRESH_CELLS", 200),
                                  gc.DataTuple("$WRED_SPEC_MAX_PROBABILITY", float_val=1.0)])])
        verdicts = [self.run_sample(100)[0] for _ in range(40)]     # p = 0.5
        assert 5 <= verdicts.count(DROP) <= 35, verdicts
        self.wred.entry_del(self.target, [key])
        assert self.run_sample(5000)[0] == KEEP                  # unconfigured: kept
        verify_no_other_packets(self)
