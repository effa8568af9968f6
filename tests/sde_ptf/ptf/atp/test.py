"""PTF test of p4src/atp.p4 in the SDE's style: BfRuntimeTest binds the program, the
project's control plane configures one ATP job through the SDE client (sde_facade), and
gradient frames sent with testutils.send_packet must come out as the aggregate the
reference switch model computes for the same frames (verify_packet)."""

import numpy as np
from ptf import config
from ptf.testutils import send_packet, verify_no_other_packets, verify_packet

import bfrt_grpc.client as gc
from p4testutils.bfruntime_client_base_tests import BfRuntimeTest

from p4src.control import AtpControlPlane
from p4src.control.aggregation import TOFINO_POOL_MAX
from reference.control_plane import JobRoute, SwitchConfig
from reference.switch import SwitchModel
from reference.wire import AtpPacket, decode, encode
from sde_facade import SdeFacade

APP_ID = 1


def ports():
    return sorted(p for (_dev, p) in config["port_map"])


def job_config():
    """One job on this switch: workers on the first two ports, its PS on the third."""
    w0, w1, ps = ports()[:3]
    return SwitchConfig("tor0", 0, (w0, w1, ps), pool_size=64,
                        routes={(APP_ID, 0): JobRoute(ps, True, 0)},
                        multicast={(APP_ID, 0): (w0, w1)}, mgid={(APP_ID, 0): 1})


def gradient(worker, values, agtr):
    padded = list(values) + [0] * (62 - len(values))
    return encode(AtpPacket(bitmap=1 << worker, fan_in=2, flags=0, app_id=APP_ID, seq=1,
                            agtr=agtr, values=np.array(padded)))


class AggregationTest(BfRuntimeTest):
    """Two workers' gradients for one aggregator become one packet for the PS."""

    def setUp(self):
        BfRuntimeTest.setUp(self, 0, "atp")
        self.target = gc.Target(device_id=0, pipe_id=0xffff)
        self.control = AtpControlPlane(SdeFacade(self.bfrt_info, self.target),
                                       TOFINO_POOL_MAX)
        self.control.configure(job_config())

    def runTest(self):
        w0, w1, ps = ports()[:3]
        model = SwitchModel(job_config())
        first = gradient(0, [1, -2, 3] + [0] * 58 + [7], agtr=5)
        second = gradient(1, [10, 20, 30] + [0] * 58 + [-1], agtr=5)
        assert model.process(w0, first, 0) == []
        [(out_port, aggregate)] = model.process(w1, second, 0)
        assert out_port == ps and decode(aggregate).bitmap == 0b11

        send_packet(self, w0, first)
        verify_no_other_packets(self)
        send_packet(self, w1, second)
        verify_packet(self, aggregate, ps)
        verify_no_other_packets(self)

        # the aggregator's registers, read back through the SDE client
        state = self.control.registers.read(5)
        assert (state.owner, state.bitmap, state.count) == (APP_ID << 16 | 1, 0b11, 2)
        assert state.values[61] == 6

    def tearDown(self):
        self.control.clear()
        BfRuntimeTest.tearDown(self)
