"""``run_scenario``: build the network a scenario describes, run it, collect a ``Run``."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from reference.aggregator import AggregatorState
from reference.control_plane import SwitchConfig, build_switch_configs, probe_app_id
from reference.host_order import key_on_wire
from reference.faults import FaultInjector
from reference.network import Network, SwitchLog
from reference.placement import slot_indexes
from reference.profiles import Profile, profile_named
from reference.ps import IndexRegistry, ParameterServer, SeqResult
from reference.scenario import Scenario
from reference.switch import SwitchModel
from reference.topology import JobLayout
from reference.wire import ETHERTYPE_ATP, ETHERTYPE_ATP_TWO_LEVEL, FLAG_ACK, decode
from reference.worker import SeqOutcome, Worker

Snapshot = dict[str, dict[int, AggregatorState]]


@dataclass
class Run:
    scenario: Scenario
    status: str                       # done | idle | time | events | stopped
    time_ns: int
    events: int
    logs: dict[str, SwitchLog]
    # time -> switch -> (ingress records seen before the snapshot, snapshot)
    checkpoints: dict[int, dict[str, tuple[int, Snapshot]]]
    final_registers: dict[str, Snapshot]
    worker_results: dict[tuple[int, int], dict[int, np.ndarray]]
    # (app, worker) -> key -> outcome of every seq of every iteration, in push order
    worker_outcomes: dict[tuple[int, int], dict[int, list[SeqOutcome]]]
    ps_results: dict[tuple[int, int], dict[tuple[int, int], SeqResult]]
    counters: Counter
    occupancy: list[tuple[int, str, int]]
    finished_at: dict[int, int]
    killed: set[int]
    unfinished: list[int]
    fault_log: list = field(default_factory=list)
    # (time, switch, app_id, seq): a gradient of a seq the PS had already completed took a
    # free aggregator (a straggler re-take, section 10); counted from the occupancy
    retakes: list[tuple[int, str, int, int]] = field(default_factory=list)
    # the switches as the run left them (for the reclamation sweep and teardown checks)
    switches: dict = field(default_factory=dict)
    probe_app_id: int | None = None   # the probe job configured on every switch
    end_ns: int = 0                   # the network clock when the run stopped

    @property
    def completed(self) -> bool:
        return not self.unfinished

    def owned_aggregators(self) -> dict[str, list[tuple[str, int, int]]]:
        """(level, index, owner) of every owned aggregator at the end, per switch."""
        out = {}
        for name, snap in self.final_registers.items():
            out[name] = [(level, i, s.owner) for level, regs in snap.items()
                         for i, s in regs.items() if s.owner]
        return out

    def summary(self) -> str:
        s = self.scenario
        lines = [
            f"scenario {s.name or '(unnamed)'}: seed {s.seed}, profile {s.profile}, "
            f"{len(s.topology.racks)} rack(s), {len(s.jobs)} job(s), pool P={s.pool_size}",
            f"status {self.status} after {self.events} events, "
            f"{self.time_ns / 1e6:.3f} ms simulated",
        ]
        for job in s.jobs:
            if job.app_id in self.killed:
                state = "killed"
            elif job.app_id in self.finished_at:
                state = f"finished at {self.finished_at[job.app_id] / 1e6:.3f} ms"
            else:
                state = "DID NOT FINISH"
            laps = (f" x {job.iterations} iterations from seq {job.first_seq}"
                    if job.iterations > 1 or job.first_seq != 1 else "")
            lines.append(f"  job {job.app_id}: {job.fan_in} worker(s), {len(job.pses)} PS, "
                         f"S={job.window}, {len(job.tensors)} tensor(s){laps}, "
                         f"{job.packets} seq(s): {state}")
        keys = ("switch.collisions", "worker.resends", "worker.hole_resends",
                "worker.timeout_resends", "ps.float_fallbacks", "ps.collision_remaps",
                "ps.stragglers", "ps.stale_forgets", "switch.ecn_marked", "faults")
        lines.append("  " + ", ".join(f"{k.split('.')[-1]} {self.counters[k]}"
                                      for k in keys))
        owned = {n: len(v) for n, v in self.owned_aggregators().items() if v}
        lines.append(f"  owned aggregators at the end: {owned or 'none'}; re-taken by "
                     f"stragglers: {len(self.retakes)}")
        return "\n".join(lines)


SwitchFactory = Callable[[SwitchConfig, Profile], SwitchModel]


def run_scenario(scenario: Scenario, switch_factory: SwitchFactory | None = None,
                 stop: Callable[[], bool] | None = None) -> Run:
    """Run a scenario to completion (or its time/event budget).

    ``switch_factory`` builds each rack switch; by default the reference
    :class:`SwitchModel`. A switch under test can stand in for it if it offers the same
    ``process``/``teardown_job``/``snapshot``/``occupied``/``counters``. ``stop`` ends
    the run early (status "stopped") once it holds: a checker that has already seen the
    switch under test go wrong gains nothing from the rest of the run.

    The steps, in order: build the network (switches, hosts, links, queues), attach the
    PSes and workers (each worker starts at time 0), schedule the kills, teardowns and
    checkpoints, run until every job is done or killed (then let frames in flight land),
    collect the Run."""
    run = _ScenarioRun(scenario, switch_factory or SwitchModel)
    run.build_network()
    run.attach_hosts()
    run.schedule_kills()
    run.schedule_checkpoints()
    status = run.run_until_done(stop or (lambda: False))
    return run.collect(status)


class _Occupancy:
    """Each switch's owned aggregators over time, and the stragglers that re-took one:
    a gradient of a seq its PS had already completed that made the count grow."""

    def __init__(self, net: Network, profile: Profile,
                 pses: dict[tuple[int, int], ParameterServer]):
        self.net, self.profile, self.pses = net, profile, pses
        self.series: list[tuple[int, str, int]] = []
        self.last: dict[str, int] = {}
        self.retakes: list[tuple[int, str, int, int]] = []

    def record(self, name: str, switch: SwitchModel, frame: bytes | None = None) -> None:
        occupied = switch.occupied
        if occupied is not None and self.last.get(name) != occupied:
            grown = occupied - self.last.get(name, 0)
            self.last[name] = occupied
            self.series.append((self.net.now, name, occupied))
            if grown > 0 and frame is not None:
                straggler = self.completed_gradient(frame)
                if straggler is not None:
                    self.retakes.extend([(self.net.now, name, *straggler)] * grown)

    def completed_gradient(self, frame: bytes) -> tuple[int, int] | None:
        """(app_id, seq) if ``frame`` is a gradient of a seq its PS already completed."""
        ethertype = frame[12] << 8 | frame[13]
        if ethertype not in (ETHERTYPE_ATP, ETHERTYPE_ATP_TWO_LEVEL):
            return None
        packet = decode(frame)
        ps = self.pses.get((packet.app_id, packet.ps_index))
        if packet.flags & FLAG_ACK or ps is None:
            return None
        if not ps.has_completed(key_on_wire(packet.key, self.profile), packet.seq):
            return None
        return packet.app_id, packet.seq


class _ScenarioRun:
    """One run of :func:`run_scenario`, step by step (each step a method, in order)."""

    def __init__(self, scenario: Scenario, factory: SwitchFactory):
        self.scenario = scenario
        self.factory = factory
        self.profile = profile_named(scenario.profile)
        self.topo = scenario.topology
        self.probe = probe_app_id(scenario.jobs)
        self.injector = FaultInjector(scenario.faults, random.Random(scenario.seed))
        self.net = Network(self.injector, scenario.link_latency_ns)
        self.pses: dict[tuple[int, int], ParameterServer] = {}
        self.workers: dict[tuple[int, int], Worker] = {}
        self.occupancy = _Occupancy(self.net, self.profile, self.pses)
        self.killed: set[int] = set()
        self.checkpoints: dict[int, dict[str, tuple[int, Snapshot]]] = {}
        self.finished_at: dict[int, int] = {}

    def build_network(self) -> None:
        """A switch per rack (the factory's), hosts on their ports, racks fully meshed
        by their uplinks, the scenario's congestion as egress queue depths."""
        scenario, topo, net = self.scenario, self.topo, self.net
        configs = build_switch_configs(
            topo, scenario.jobs, pool_size=scenario.pool_size,
            aggregator_timeout_ns=scenario.aggregator_timeout_ns,
            ecn_threshold=scenario.ecn_threshold, probe=self.probe)
        for name, config in configs.items():
            net.add_switch(name, self.factory(config, self.profile))
        for r, rack in enumerate(topo.racks):
            for host in rack.hosts:
                net.add_host(host)
                net.connect(host, 0, rack.name, topo.host_port(host))
            for o in range(r + 1, len(topo.racks)):
                net.connect(rack.name, topo.uplink_port(o), topo.racks[o].name,
                            topo.uplink_port(r))
        congestion = scenario.congestion
        if congestion:
            def depth(switch: str, now: int) -> int:
                return max((c.depth for c in congestion
                            if c.switch == switch and c.start_ns <= now < c.end_ns),
                           default=0)
            net.queue_depth = depth
        net.on_switch_processed = lambda name, switch: self.occupancy.record(
            name, switch, net.logs[name].ingress[-1].frame)

    def attach_hosts(self) -> None:
        """Each job's PSes and workers on their hosts; every worker starts at time 0."""
        scenario, topo, net = self.scenario, self.topo, self.net
        registry = IndexRegistry(scenario.pool_size,
                                 None if self.profile.ps_first_unused_index else scenario.seed)
        for job in scenario.jobs:
            layout = JobLayout(job, topo)
            slots = slot_indexes(job.app_id, job.window, scenario.pool_size)
            registry.claim(slots)
            ps_macs = [topo.host_mac(h) for h in job.pses]
            for i, host in enumerate(job.pses):
                ps = ParameterServer(job, i, layout, topo.host_mac(host), self.profile,
                                     registry, scenario.t_stale_ns)
                self.pses[(job.app_id, i)] = ps
                net.attach(host, ps)
            pushes = scenario.pushes(job)
            for w, host in enumerate(job.workers):
                worker = Worker(job, w, layout, topo.host_mac(host), ps_macs, slots,
                                scenario.pool_size,
                                [(t.key, data[w]) for _, t, data in pushes], self.profile)
                self.workers[(job.app_id, w)] = worker
                net.attach(host, worker)

                def start(h=host, wk=worker):
                    net.send_from_host(h, wk.start(net.now))
                    net.arm_timer(h, wk)
                net.at(0, start)

    def schedule_kills(self) -> None:
        """A killed job's hosts stop; its control-plane teardown follows if given."""
        net = self.net
        for kill in self.scenario.kills:
            def die(app_id=kill.app_id):
                self.killed.add(app_id)
                for (a, _), wk in self.workers.items():
                    if a == app_id:
                        wk.killed = True
                for (a, _), ps in self.pses.items():
                    if a == app_id:
                        ps.killed = True
            net.at(kill.at_ns, die)
            if kill.teardown_after_ns is not None:
                def teardown(app_id=kill.app_id):
                    for name, switch in net.switches.items():
                        if getattr(switch, "teardown_job", None) is not None:
                            switch.teardown_job(app_id)
                        self.occupancy.record(name, switch)
                net.at(kill.at_ns + kill.teardown_after_ns, teardown)

    def schedule_checkpoints(self) -> None:
        """At each checkpoint, every switch's registers and how many frames it had."""
        net = self.net
        for t in self.scenario.checkpoints_ns:
            def snap(t=t):
                self.checkpoints[t] = {n: (len(net.logs[n].ingress), s.snapshot())
                                       for n, s in net.switches.items()}
            net.at(t, snap)

    def all_done(self) -> bool:
        """Every job finished (noting when) or killed."""
        for job in self.scenario.jobs:
            a = job.app_id
            if a in self.finished_at or a in self.killed:
                continue
            if all(self.workers[(a, w)].finished for w in range(job.fan_in)):
                self.finished_at[a] = self.net.now
            else:
                return False
        return True

    def run_until_done(self, stopped: Callable[[], bool]) -> str:
        """The event loop until every job is done (then until frames in flight land),
        ``stopped`` holds, or the budget is spent; the run's status."""
        scenario, net = self.scenario, self.net
        status = net.run(lambda: stopped() or self.all_done(), scenario.max_time_ns,
                         scenario.max_events)
        if status == "done" and not stopped():
            # let frames still in flight land (late duplicates and the like)
            net.run(stopped, scenario.max_time_ns, scenario.max_events)
        return "stopped" if stopped() else status

    def collect(self, status: str) -> Run:
        """The Run: results, outcomes, counters, logs, registers, occupancy."""
        net, workers, pses = self.net, self.workers, self.pses
        app_ids = [job.app_id for job in self.scenario.jobs]
        unfinished = [a for a in app_ids
                      if a not in self.finished_at and a not in self.killed]
        counters: Counter = Counter()
        for switch in net.switches.values():
            for k, v in switch.counters.items():
                counters[f"switch.{k}"] += v
        for wk in workers.values():
            for k, v in wk.counters.items():
                counters[f"worker.{k}"] += v
        for ps in pses.values():
            for k, v in ps.counters.items():
                counters[f"ps.{k}"] += v
        counters["faults"] = len(self.injector.log)
        counters["straggler_retakes"] = len(self.occupancy.retakes)
        worker_results = {(a, w): {k: wk.tensor_result(k) for k in wk.done}
                          for (a, w), wk in workers.items()}
        worker_outcomes = {(a, w): {k: list(v) for k, v in wk.outcomes.items()}
                           for (a, w), wk in workers.items()}
        ps_results = {key: {ks: ps.result(*ks) for ks in ps.completed()}
                      for key, ps in pses.items()}
        done = status == "done"
        return Run(
            scenario=self.scenario, status=status,
            time_ns=max(self.finished_at.values(), default=0) if done else net.now,
            events=net.events, logs=net.logs, checkpoints=self.checkpoints,
            final_registers={n: s.snapshot() for n, s in net.switches.items()},
            worker_results=worker_results, worker_outcomes=worker_outcomes,
            ps_results=ps_results, counters=counters, occupancy=self.occupancy.series,
            finished_at=self.finished_at, killed=self.killed, unfinished=unfinished,
            fault_log=self.injector.log, retakes=self.occupancy.retakes,
            switches=dict(net.switches), probe_app_id=self.probe, end_ns=net.now)
