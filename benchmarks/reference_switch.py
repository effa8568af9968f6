"""Throughput of the reference switch model, side by side with its own codec.

Prints, from one run on one core: the fast codec's encode+decode rate, gradient packets
per second through ``SwitchModel.process`` (a job's windows: every worker's gradient
packet, then the parameter packet that releases the aggregator), and gradient packets
per second through a whole ``run_scenario`` (hosts, network, faults included), each as a
ratio to the codec rate. Target (issue 2): >= 100,000 switch packets/s.

    python benchmarks/reference_switch.py [--seqs N] [--workers N]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from reference.control_plane import build_switch_configs
from reference.faults import FaultPlan, RandomFaults
from reference.placement import slot_indexes, slot_of
from reference.run import run_scenario
from reference.scenario import Scenario
from reference.switch import SwitchModel
from reference.topology import Job, Rack, Tensor, Topology
from reference.wire import ELEMENTS, FLAG_ACK, AtpPacket, decode, encode


def build(workers: int, seqs: int, window: int):
    hosts = tuple(f"w{i}" for i in range(workers)) + ("ps",)
    topo = Topology((Rack("tor0", hosts),))
    job = Job(1, hosts[:-1], ("ps",), window, (Tensor(9, seqs * ELEMENTS),))
    config = build_switch_configs(topo, [job], pool_size=20000)["tor0"]
    slots = slot_indexes(1, window, 20000)
    rng = np.random.default_rng(0)
    stream = []
    for s in range(1, seqs + 1):
        agtr = slots[slot_of(s, window)]
        for w in range(workers):
            pkt = AtpPacket(bitmap=1 << w, fan_in=workers, app_id=1, seq=s, agtr=agtr,
                            values=rng.integers(-1000, 1000, ELEMENTS, dtype=np.int32),
                            key=9, tensor_len=seqs * ELEMENTS)
            stream.append((topo.host_port(hosts[w]), encode(pkt), False))
        param = AtpPacket(flags=FLAG_ACK, bitmap=(1 << workers) - 1, fan_in=workers,
                          app_id=1, seq=s, agtr=agtr, key=9)
        stream.append((topo.host_port("ps"), encode(param), True))
    return config, stream


def codec_rate(frames: list[bytes]) -> float:
    start = time.perf_counter()
    for frame in frames:
        encode(decode(frame))
    return len(frames) / (time.perf_counter() - start)


def switch_rate(config, stream) -> float:
    switch = SwitchModel(config)
    gradients = sum(1 for _, _, is_param in stream if not is_param)
    start = time.perf_counter()
    for port, frame, _ in stream:
        switch.process(port, frame)
    elapsed = time.perf_counter() - start
    assert switch.occupied == 0, "benchmark stream left aggregators owned"
    return gradients / elapsed


def closed_loop_scenario(workers: int, seqs: int, window: int) -> Scenario:
    """One job on one switch with 1 % random loss: the closed loop every target's
    benchmark times, so their rates compare."""
    hosts = tuple(f"w{i}" for i in range(workers)) + ("ps",)
    return Scenario(
        topology=Topology((Rack("tor0", hosts),)),
        jobs=(Job(1, hosts[:-1], ("ps",), window, (Tensor(9, seqs * ELEMENTS),)),),
        seed=1, pool_size=20000,
        faults=FaultPlan(random=RandomFaults(drop=0.01)))


def gradients_per_second(run, elapsed: float) -> float:
    """Gradient frames that entered the switch, per second of the run."""
    gradients = sum(1 for rec in run.logs["tor0"].ingress if not rec.frame[39] & FLAG_ACK)
    return gradients / elapsed


def scenario_rate(workers: int, seqs: int, window: int) -> float:
    scenario = closed_loop_scenario(workers, seqs, window)
    start = time.perf_counter()
    run = run_scenario(scenario)
    elapsed = time.perf_counter() - start
    assert run.completed
    return gradients_per_second(run, elapsed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seqs", type=int, default=4000)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--window", type=int, default=64)
    args = parser.parse_args()
    config, stream = build(args.workers, args.seqs, args.window)
    frames = [frame for _, frame, is_param in stream if not is_param]
    codec_rate(frames[:2000])  # warm up
    codec = codec_rate(frames)
    switch = switch_rate(config, stream)
    scenario = scenario_rate(args.workers, max(1, args.seqs // 4), args.window)
    print(f"fast codec encode+decode : {codec:12,.0f} frames/s")
    print(f"switch model (gradients) : {switch:12,.0f} packets/s  "
          f"ratio to codec {switch / codec:.2f}  target >= 100,000: "
          f"{'met' if switch >= 100_000 else 'NOT met'}")
    print(f"full scenario (gradients): {scenario:12,.0f} packets/s  "
          f"ratio to codec {scenario / codec:.2f}")


if __name__ == "__main__":
    main()
