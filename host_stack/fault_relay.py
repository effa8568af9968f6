"""A userspace fault relay: splices a host's link and applies a scenario's fault plan.

``python -m host_stack.fault_relay --scenario s.json --link h1:h1if:x1 --link ...``
forwards, for each host named, frames between ``inner`` (the host's side) and ``outer``
(the switch port's side); one process serves every link (fewer processes on 2 cores). Every frame goes through the reference :class:`reference.faults.FaultInjector`
(one owner of what a fault plan means), with the link named (host → rack switch) or
(rack switch → host) as in the simulator; delays are real time.

Why it exists: netem is the kernel's fault injector, but (a) some kernels ship without
``sch_netem`` (this project's CI machines do), and (b) netem cannot aim at "the 3rd
parameter packet to worker h1". The relay does both for any plan.

With ``--congestion`` the relay also stands in for the switch's queue: each frame
toward a switch gets the softswitch's test trailer (``p4sim/switchd/ports.py``: time
in ns and queue depth) with the depth the scenario's congestion plan gives that switch
at this moment of the run (plan times count from the relay's start), or the deeper
one a targeted ``congest`` fault aims at that frame, so the P4 program's egress ECN
marking acts as the simulator's does with the same plan.

Decision: each relay owns an injector with its own random stream (seeded from the
scenario seed and the host) and its own targeted-fault counters, so a targeted fault
without ``to_node``/``from_node`` counts matching frames per link, not network-wide;
a random ``budget`` is likewise per link.
"""

from __future__ import annotations

import argparse
import heapq
import random
import select
import signal
import time
import zlib

from reference.faults import FaultInjector
from reference.scenario import load_scenario

from host_stack.link import PacketLink
from host_stack.switch import trailer


def relay_seed(seed: int, host: str) -> int:
    return seed * 1_000_003 + zlib.crc32(host.encode())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m host_stack.fault_relay")
    parser.add_argument("--scenario", required=True)
    parser.add_argument("--link", action="append", required=True,
                        metavar="HOST:INNER:OUTER",
                        help="a host, its interface toward the host and toward the switch")
    parser.add_argument("--log", help="write the applied faults here (one per line)")
    parser.add_argument("--congestion", action="store_true",
                        help="append the queue depth (congestion plan, congest faults; "
                             "softswitch trailer) to frames toward the switch")
    args = parser.parse_args(argv)
    scenario = load_scenario(args.scenario)
    ends = {}
    injectors = []
    for spec in args.link:
        try:
            host, inner_name, outer_name = spec.split(":")
        except ValueError:
            parser.error(f"--link {spec!r}: expected HOST:INNER:OUTER")
        rack = scenario.topology.racks[scenario.topology.rack_index(host)].name
        injector = FaultInjector(scenario.faults,
                                 random.Random(relay_seed(scenario.seed, host)))
        injectors.append(injector)
        inner = PacketLink(inner_name)
        outer = PacketLink(outer_name)
        ends[inner.fileno()] = (inner, outer, host, rack, injector)
        ends[outer.fileno()] = (outer, inner, rack, host, injector)
    origin = time.monotonic_ns()
    racks = set(scenario.topology.switch_names)

    def toward_switch(frame: bytes, dst: str, now: int, aimed_depth: int) -> bytes:
        if not args.congestion or dst not in racks:
            return frame
        depth = max([aimed_depth] + [c.depth for c in scenario.congestion if c.switch == dst
                                     and c.start_ns <= now - origin < c.end_ns])
        return frame + trailer(time.time_ns(), depth)

    pending: list[tuple[int, int, PacketLink, bytes]] = []
    order = 0
    stopping = []
    signal.signal(signal.SIGTERM, lambda *a: stopping.append(1))
    signal.signal(signal.SIGINT, lambda *a: stopping.append(1))
    while not stopping:
        now = time.monotonic_ns()
        while pending and pending[0][0] <= now:
            _, _, link, frame = heapq.heappop(pending)
            link.send(frame)
        wait = 0.05 if not pending else max(0.0, (pending[0][0] - now) / 1e9)
        try:
            ready, _, _ = select.select(list(ends), [], [], wait)
        except InterruptedError:
            continue
        for fd in ready:
            src_link, dst_link, src, dst, injector = ends[fd]
            for frame in src_link.recv_batch(0):
                now = time.monotonic_ns()
                decision = injector.decide(now, src, dst, frame)
                frame = toward_switch(frame, dst, now, decision.queue_depth)
                for extra in decision.copies:
                    if extra == 0:
                        dst_link.send(frame)
                    else:
                        order += 1
                        heapq.heappush(pending, (now + extra, order, dst_link, frame))
    if args.log:
        with open(args.log, "w") as log:
            for entry in sorted(e for i in injectors for e in i.log):
                log.write(" ".join(str(x) for x in entry) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
