"""The release's job as the switch's control plane and the host rules read it
(``host_stack.release_run``, ``atp_fixtures.oracles.host_rules`` under 9.7), without
running the release."""

from __future__ import annotations

import numpy as np

from atp_fixtures.oracles.host_rules import check_host_rules
from reference.control_plane import build_switch_configs
from reference.scenario import Scenario
from reference.topology import Job, Rack, Tensor, Topology
from reference.wire import FLAG_ACK, AtpPacket, encode

from host_stack.capture import CapturedRun, PcapWriter, switch_logs
from host_stack.release_run import APP_ID, ReleaseRun, release_scenario, sent_by

RELEASE_SRC_MAC = bytes.fromhex("e41d2df3ddcc")    # common/packet.h: every host's


def _frame(flags: int, seq: int, dst: bytes, key: int = 0, agtr: int = 0) -> bytes:
    return encode(AtpPacket(eth_dst=dst, eth_src=RELEASE_SRC_MAC, flags=flags, app_id=APP_ID,
                            seq=seq, bitmap=1, fan_in=1, values=np.zeros(62, np.int32),
                            key=key, agtr=agtr))


def test_the_switch_routes_the_release_job_from_its_worker_to_its_ps():
    scenario = release_scenario()
    config = build_switch_configs(scenario.topology, scenario.jobs)["tor0"]
    topo = scenario.topology
    # the release's ps_index is key % nPS = 0
    route = config.routes[(APP_ID, 0)]
    assert route.to_ps_port == topo.host_port("ps")
    assert config.multicast[(APP_ID, 0)] == (topo.host_port("w0"),)


def test_direction_of_a_release_frame_is_read_from_its_ack_flag(tmp_path):
    """One source MAC for every host: the worker sends gradients, the PS parameter
    packets; the captured run's logs put each on the right side."""
    to_ps, to_worker = bytes.fromhex("050403020100"), bytes.fromhex("777777777700")
    gradient, parameter = _frame(0, 5, to_ps), _frame(FLAG_ACK, 5, to_worker)
    assert sent_by("w0", gradient) and not sent_by("w0", parameter)
    assert sent_by("ps", parameter) and not sent_by("ps", gradient)
    pcaps = {}
    for host, frames in {"w0": [gradient, parameter], "ps": [gradient, parameter]}.items():
        pcaps[host] = tmp_path / f"{host}.pcap"
        writer = PcapWriter(pcaps[host])
        for i, frame in enumerate(frames):
            writer.write(frame, i)
        writer.close()
    scenario = release_scenario()
    logs = ReleaseRun(tmp_path, pcaps=pcaps).captured(scenario).logs["tor0"]
    topo = scenario.topology
    assert [(r.port, r.frame) for r in logs.ingress] == [
        (topo.host_port("w0"), gradient), (topo.host_port("ps"), parameter)]
    assert sorted((r.port, r.frame) for r in logs.egress) == sorted([
        (topo.host_port("w0"), parameter), (topo.host_port("ps"), gradient)])


def _remap_violations(tmp_path, second_agtr: int) -> list:
    """Two tensors of one job pushed at once, as the release's threads push them (seq
    restarts per tensor, 9.7; one window of 2 and one slot table per tensor): tensor 0
    uses aggregators 10, 11, tensor 1 uses 20, 21; tensor 1's seq 3 reuses its slot's
    index, or ``second_agtr``."""
    profile_key = {0: 0, 1: 1 << 56}        # keys 0 and 1 in the release's host order
    topology = Topology((Rack("tor0", ("ps", "w0")),))
    tensors = tuple(Tensor(k, 4 * 62, np.zeros((1, 4 * 62), np.float32)) for k in (0, 1))
    scenario = Scenario(topology, (Job(APP_ID, ("w0",), ("ps",), 2, tensors, scale=1.0),),
                        profile="atp-release", link_latency_ns=0)
    frames = []
    for seq in (1, 2):
        for key, base in ((0, 10), (1, 20)):
            frames.append(_frame(0, seq, bytes(6), key=profile_key[key], agtr=base + seq - 1))
    for seq in (1, 2):
        for key, base in ((0, 10), (1, 20)):
            frames.append(_frame(FLAG_ACK, seq, bytes(6), key=profile_key[key],
                                 agtr=base + seq - 1))
    frames.append(_frame(0, 3, bytes(6), key=profile_key[0], agtr=10))
    frames.append(_frame(0, 3, bytes(6), key=profile_key[1], agtr=second_agtr))
    pcap = tmp_path / "w0.pcap"
    writer = PcapWriter(pcap)
    for i, frame in enumerate(frames):
        writer.write(frame, i)
    writer.close()
    run = CapturedRun(scenario, switch_logs(scenario, {"w0": pcap}, sent_by), "two tensors")
    return [v for v in check_host_rules(run) if v.rule == "7.3"]


def test_remap_under_per_tensor_seq_compares_a_slot_within_its_tensor(tmp_path):
    """Seq 3 of each tensor reuses its own tensor's slot: no 7.3 remap (compared with the
    other tensor's seq 1, it would be one); a seq 3 that takes another index is one."""
    assert _remap_violations(tmp_path, second_agtr=20) == []
    assert len(_remap_violations(tmp_path, second_agtr=33)) == 1
