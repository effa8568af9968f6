"""A deterministic discrete-event network: hosts and switches joined by links.

Time is integer nanoseconds. Events at the same time run in the order they were
scheduled, so a run is a pure function of the scenario (every random draw comes from one
``random.Random`` seeded by the scenario). Each transmission goes through the fault
injector of its link; each switch logs its ingress (with time and queue depth) and its
egress, in order — the raw material of traces.

A switch that offers ``prefetch`` (a switch under test behind real interfaces, where
each frame is a round trip) is shown, before the first of them runs, every frame that
the very next events deliver to it at the same instant: they are already decided (what
these frames cause is scheduled after them, even on a link without latency), so it may
send them together. The events still run one by one, in the same order, so the run is
the same as without.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Callable, Protocol

from reference.faults import FaultInjector
from reference.switch import SwitchModel


@dataclass(frozen=True)
class IngressRecord:
    time_ns: int
    port: int
    frame: bytes
    queue_depth: int
    verdict: str = ""   # what the switch did with it, when it says (SwitchModel does)


@dataclass(frozen=True)
class EgressRecord:
    time_ns: int
    port: int
    frame: bytes
    after: int  # index of the ingress record that produced it


@dataclass
class SwitchLog:
    ingress: list[IngressRecord] = field(default_factory=list)
    egress: list[EgressRecord] = field(default_factory=list)


class HostApp(Protocol):
    """What a host runs (workers and PSes): frames in, frames out, an optional timer."""

    def on_frame(self, frame: bytes, now: int) -> list[bytes]: ...

    def deadline(self) -> int | None: ...

    def on_timeout(self, now: int) -> list[bytes]: ...


class Network:
    def __init__(self, injector: FaultInjector, latency_ns: int):
        self.injector = injector
        self.latency_ns = latency_ns
        self.now = 0
        self.events = 0
        self._queue: list[tuple[int, int, Callable[[], None]]] = []
        self._order = 0
        self.switches: dict[str, SwitchModel] = {}
        self.logs: dict[str, SwitchLog] = {}
        self.hosts: dict[str, list[HostApp]] = {}
        # (node, port) -> (peer node, peer port); hosts use port 0
        self.links: dict[tuple[str, int], tuple[str, int]] = {}
        self.queue_depth: Callable[[str, int], int] = lambda switch, now: 0
        self.on_switch_processed: Callable[[str, SwitchModel], None] = lambda n, s: None
        self._timer_due: dict[int, int] = {}

    # -- building -----------------------------------------------------------------
    def add_switch(self, name: str, switch: SwitchModel) -> None:
        self.switches[name] = switch
        self.logs[name] = SwitchLog()

    def add_host(self, name: str) -> None:
        self.hosts.setdefault(name, [])

    def attach(self, host: str, app: HostApp) -> None:
        self.hosts[host].append(app)

    def connect(self, a: str, a_port: int, b: str, b_port: int) -> None:
        self.links[(a, a_port)] = (b, b_port)
        self.links[(b, b_port)] = (a, a_port)

    # -- scheduling ---------------------------------------------------------------
    def at(self, time_ns: int, action: Callable[[], None]) -> None:
        self._order += 1
        heapq.heappush(self._queue, (time_ns, self._order, action))

    def transmit(self, node: str, port: int, frame: bytes) -> None:
        """Put a frame on the link leaving (node, port); faults decide its copies."""
        peer = self.links.get((node, port))
        if peer is None:
            return  # an unconnected port: the frame leaves the modelled world
        peer_node, peer_port = peer
        decision = self.injector.decide(self.now, node, peer_node, frame)
        for extra in decision.copies:
            self.at(self.now + self.latency_ns + extra,
                    _Delivery(self, peer_node, peer_port, frame, decision.queue_depth))

    def depth_at(self, node: str, aimed: int) -> int:
        """The egress queue depth a frame meets at switch ``node`` now: the congestion
        plan's, or deeper where a targeted ``congest`` fault aimed at the frame."""
        return max(self.queue_depth(node, self.now), aimed)

    def _deliver(self, node: str, port: int, frame: bytes, aimed_depth: int = 0) -> None:
        switch = self.switches.get(node)
        if switch is not None:
            depth = self.depth_at(node, aimed_depth)
            log = self.logs[node]
            out = switch.process(port, frame, self.now, depth)
            verdict = getattr(switch, "last_verdict", None)
            log.ingress.append(IngressRecord(self.now, port, frame, depth,
                                             "" if verdict is None else str(verdict)))
            for out_port, out_frame in out:
                log.egress.append(EgressRecord(self.now, out_port, out_frame,
                                               len(log.ingress) - 1))
                self.transmit(node, out_port, out_frame)
            self.on_switch_processed(node, switch)
            return
        for app in self.hosts.get(node, ()):
            self.send_from_host(node, app.on_frame(frame, self.now))
            self.arm_timer(node, app)

    def send_from_host(self, host: str, frames: list[bytes]) -> None:
        for frame in frames:
            self.transmit(host, 0, frame)

    def arm_timer(self, host: str, app: HostApp) -> None:
        """Schedule the app's timer if it has a deadline we have not scheduled yet."""
        deadline = app.deadline()
        if deadline is None or self._timer_due.get(id(app)) == deadline:
            return
        self._timer_due[id(app)] = deadline

        def fire(h=host, a=app, due=deadline):
            if self._timer_due.get(id(a)) != due:
                return
            del self._timer_due[id(a)]
            self.send_from_host(h, a.on_timeout(self.now))
            self.arm_timer(h, a)

        self.at(deadline, fire)

    # -- running ------------------------------------------------------------------
    def run(self, until: Callable[[], bool], max_time_ns: int, max_events: int) -> str:
        """Run events until ``until()`` holds. Returns "done", "idle" (nothing left to
        happen), "time" or "events" (a budget ran out)."""
        while self._queue:
            if until():
                return "done"
            time_ns, _, action = heapq.heappop(self._queue)
            if time_ns > max_time_ns:
                self.now = max_time_ns
                return "time"
            if self.events >= max_events:
                return "events"
            self.now = time_ns
            self.events += 1
            if isinstance(action, _Delivery) and not action.prefetched:
                self._prefetch(action, max_events)
            action()
        return "done" if until() else "idle"

    def _prefetch(self, first: "_Delivery", max_events: int) -> None:
        """Show a prefetching switch ``first`` and the deliveries to it that are the
        next events at this instant (within the event budget)."""
        switch = self.switches.get(first.node)
        prefetch = getattr(switch, "prefetch", None)
        if prefetch is None:
            return
        taken = []
        while (self._queue and self.events + len(taken) < max_events
               and self._queue[0][0] == self.now and isinstance(self._queue[0][2], _Delivery)
               and self._queue[0][2].node == first.node):
            taken.append(heapq.heappop(self._queue))
        for entry in taken:
            entry[2].prefetched = True
            heapq.heappush(self._queue, entry)
        prefetch([(d.port, d.frame, self.now, self.depth_at(first.node, d.aimed_depth))
                  for d in [first] + [entry[2] for entry in taken]])


@dataclass(eq=False)
class _Delivery:
    """A frame arriving at (node, port): an event the run loop can look into."""
    net: Network
    node: str
    port: int
    frame: bytes
    aimed_depth: int = 0            # a targeted congest fault's queue depth
    prefetched: bool = False        # shown to the switch with an earlier one

    def __call__(self) -> None:
        self.net._deliver(self.node, self.port, self.frame, self.aimed_depth)
