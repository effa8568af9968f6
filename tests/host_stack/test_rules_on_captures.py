"""The host rules judged on captured frames (``host_stack.capture.switch_logs`` +
``atp_fixtures.oracles.host_rules``): a worker that breaks collision remap or the timeout resend
is caught, a correct one is not. Frames are built by hand, as a capture would hold them."""

from __future__ import annotations

import numpy as np

from atp_fixtures.oracles.host_rules import check_host_rules
from reference.network import EgressRecord, IngressRecord, SwitchLog
from reference.quantize import quantize
from reference.scenario import Scenario
from reference.wire import (
    ELEMENTS, FLAG_ACK, FLAG_COLLISION, FLAG_RESEND, AtpPacket, encode,
)

from host_stack.capture import CapturedRun

SCENARIO = Scenario.from_dict({
    "name": "rules-on-captures", "seed": 3, "link_latency_ns": 0,
    "topology": {"racks": [{"name": "tor0", "hosts": ["h0", "ps"]}]},
    "jobs": [{"app_id": 1, "workers": ["h0"], "pses": ["ps"], "window": 2,
              "tensors": [{"key": 1, "length": 4 * ELEMENTS}]}],
    "faults": {"targeted": []},
})
JOB = SCENARIO.jobs[0]
TOPO = SCENARIO.topology
DATA = SCENARIO.tensor_data(JOB, JOB.tensors[0])[0]


def gradient(s: int, agtr: int, resend: bool = False) -> tuple[str, bytes]:
    chunk = DATA[(s - 1) * ELEMENTS:s * ELEMENTS]
    return "in", encode(AtpPacket(
        eth_dst=TOPO.host_mac("ps"), eth_src=TOPO.host_mac("h0"), bitmap=1, fan_in=1,
        flags=FLAG_RESEND if resend else 0, app_id=1, seq=s, agtr=agtr,
        agtr2=(agtr + SCENARIO.pool_size) & 0xFFFF,                   # D12, as hosts fill it
        values=quantize(chunk, JOB.scale), key=1, tensor_len=4 * ELEMENTS))


def parameter(s: int, agtr: int, remap_to: int | None = None) -> tuple[str, bytes]:
    chunk = DATA[(s - 1) * ELEMENTS:s * ELEMENTS]
    flags = FLAG_ACK | (FLAG_COLLISION if remap_to is not None else 0)
    return "out", encode(AtpPacket(
        eth_dst=TOPO.host_mac("h0"), eth_src=TOPO.host_mac("ps"), bitmap=1, fan_in=1,
        flags=flags, app_id=1, seq=s, agtr=agtr, agtr2=agtr,
        values=quantize(chunk, JOB.scale), key=1,
        tensor_len=remap_to if remap_to is not None else 4 * ELEMENTS))


def judged(frames) -> list[str]:
    """The rules broken by the worker whose port saw ``frames`` in this order."""
    log = SwitchLog()
    port = TOPO.host_port("h0")
    for position, (direction, frame) in enumerate(frames, start=1):
        if direction == "in":
            log.ingress.append(IngressRecord(position, port, frame, 0))
        else:
            log.egress.append(EgressRecord(position, port, frame, -1))
    run = CapturedRun(SCENARIO, {"tor0": log}, "hand-built capture")
    return sorted({v.rule for v in check_host_rules(run)})


def test_a_correct_worker_breaks_no_rule():
    assert np.asarray(DATA).size == 4 * ELEMENTS
    assert judged([gradient(1, 10), gradient(2, 11), parameter(1, 10, remap_to=20),
                   gradient(3, 20), gradient(2, 11, resend=True),
                   gradient(3, 20, resend=True), parameter(2, 11), gradient(4, 11),
                   parameter(3, 20), parameter(4, 11)]) == []


def test_a_worker_that_ignores_a_collision_breaks_the_remap_rule():
    assert judged([gradient(1, 10), gradient(2, 11), parameter(1, 10, remap_to=20),
                   gradient(3, 10), parameter(2, 11), gradient(4, 11),
                   parameter(3, 10), parameter(4, 11)]) == ["7.3"]


def test_a_timeout_resend_that_leaves_out_an_unacknowledged_seq_is_caught():
    # after the parameter packet of 1, seqs 2 and 3 are in flight; the resend of 2 is
    # no hole resend (nothing later than 2 is acknowledged), so it is a timeout resend
    # and must resend 3 as well
    frames = [gradient(1, 10), gradient(2, 11), parameter(1, 10), gradient(3, 10),
              gradient(2, 11, resend=True), parameter(2, 11), gradient(4, 11),
              parameter(3, 10), parameter(4, 11)]
    assert judged(frames) == ["7.2"]


def test_a_hole_resend_needs_no_whole_window():
    # the parameter packet of 3 came first: 2 is a hole and is resent alone
    assert judged([gradient(1, 10), gradient(2, 11), parameter(1, 10), gradient(3, 10),
                   parameter(3, 10), gradient(2, 11, resend=True), parameter(2, 11),
                   gradient(4, 11), parameter(4, 11)]) == []


def float_request(s: int) -> tuple[str, bytes]:
    from reference.wire import FLAG_OVERFLOW
    direction, frame = parameter(s, 10)
    packet = bytearray(frame)
    packet[14 + 20 + 5] |= FLAG_OVERFLOW
    return direction, bytes(packet)


def float_resend(s: int, agtr: int) -> tuple[str, bytes]:
    from reference.wire import FLAG_OVERFLOW
    direction, frame = gradient(s, agtr, resend=True)
    packet = bytearray(frame)
    packet[14 + 20 + 5] |= FLAG_OVERFLOW
    return direction, bytes(packet)


def test_float_request_counts_once_the_worker_answered_it():
    # an integer timeout resend of 1 may cross the float request at the port ...
    crossing = [gradient(1, 10), gradient(2, 11), float_request(1),
                gradient(1, 10, resend=True), gradient(2, 11, resend=True)]
    assert "7.4" not in judged(crossing)
    # ... but after the worker answered it in float mode, an integer 1 is a violation
    assert "7.4" in judged([gradient(1, 10), gradient(2, 11), float_request(1),
                                float_resend(1, 10), gradient(1, 10, resend=True)])
