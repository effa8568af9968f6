"""A recorded trace says what the reference switch did with each ingress packet
(absorbed / emitted / forwarded / multicast / switched / dropped and why), keeps it
through save and load, and the comparator names it beside a divergence."""

from __future__ import annotations

import numpy as np

from atp_fixtures.oracles.comparator import compare
from atp_fixtures.evidence.trace import (EgressPacket, IngressPacket, Observed, SwitchTrace,
                                         load_trace, save_trace, trace_from_run)
from reference.control_plane import JobRoute, SwitchConfig
from reference.run import run_scenario
from reference.scenario import Scenario
from reference.switch import SwitchModel
from reference.topology import Job, Rack, Tensor, Topology
from reference.wire import AtpPacket, default_ipv4, encode


def test_recorded_trace_carries_the_verdicts_and_keeps_them(tmp_path):
    scenario = Scenario(topology=Topology((Rack("tor0", ("w0", "w1", "ps")),)),
                        jobs=(Job(1, ("w0", "w1"), ("ps",), 2, (Tensor(3, 62 * 2),)),),
                        seed=4, pool_size=8)
    trace = trace_from_run(run_scenario(scenario), "verdicts")
    sw = trace.switches["tor0"]
    assert len(sw.verdicts) == len(sw.ingress)
    fates = {v.split()[0] for v in sw.verdicts}
    assert fates == {"absorbed", "emitted", "multicast"}, sw.verdicts
    loaded = load_trace(save_trace(trace, tmp_path / "verdicts.json"))
    assert loaded.switches["tor0"].verdicts == sw.verdicts


def test_comparator_names_the_reference_verdict_of_a_divergence():
    """A frame of an unconfigured job: the reference drops it (and says why); a target
    that forwards it is reported with that verdict beside the extra frame."""
    config = SwitchConfig("tor0", 0, (1, 9), pool_size=8,
                          routes={(1, 0): JobRoute(9, True, 0)}, multicast={(1, 0): (1,)})
    frame = encode(AtpPacket(
        eth_dst=b"\xff" * 6, eth_src=bytes(6), ipv4=default_ipv4(), shim=None, bitmap=1,
        fan_in=2, flags=0, app_id=7, seq=1, agtr=3, agtr2=3,
        values=np.zeros(62, np.int32), key=0, tensor_len=62))
    switch = SwitchModel(config)
    assert switch.process(1, frame) == []
    verdict = str(switch.last_verdict)
    assert verdict == "dropped (unknown_job_dropped: no route for app_id 7)"
    trace = SwitchTrace("tor0", config, [IngressPacket(1, frame)], [], verdicts=[verdict])
    report = compare(trace, Observed([EgressPacket(9, frame, 0)], [], None)).report()
    assert "EXTRA" in report and f"the reference switch: {verdict}" in report
