"""Racks, hosts, jobs and how a job's workers map onto racks (spec sections 1 and 8).

Validated on construction: every error names the job/host/rack at fault and says what
would be accepted, because scenario files are written by people.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from reference.quantize import DEFAULT_SCALE, default_threshold
from reference.wire import ELEMENTS

MAX_WORKERS = 32
MAX_PSES = 4
HOST_PORT_BASE = 1
UPLINK_PORT_BASE = 100


class TopologyError(ValueError):
    """A topology or job description that cannot run; the message says how to fix it."""


MAX_PORT = 511             # device ports are 9 bits


@dataclass(frozen=True)
class Rack:
    """A rack: its switch (named after it) and its hosts. ``ports``: the switch port of
    each host (default ``1 + i``); ``uplink``: the port, on every other rack's switch,
    of the link to this rack (default ``100 + its index``). Both place jobs in a
    switch's pipes (spec 8a: port p is in pipe p >> 7)."""

    name: str
    hosts: tuple[str, ...]
    ports: tuple[int, ...] = ()
    uplink: int | None = None


@dataclass(frozen=True)
class Topology:
    """Racks, each with one switch (named after the rack) and its hosts.

    Host ``i`` of a rack sits on switch port ``1 + i`` (or the rack's ``ports[i]``);
    rack switches are fully meshed, the link to rack ``j`` on port ``100 + j`` (or rack
    ``j``'s ``uplink``) of every other switch.
    """

    racks: tuple[Rack, ...]

    def __post_init__(self) -> None:
        if not self.racks:
            raise TopologyError("a topology needs at least one rack")
        seen_racks: set[str] = set()
        seen_hosts: dict[str, str] = {}
        for rack in self.racks:
            if not rack.name or rack.name in seen_racks:
                raise TopologyError(f"rack name {rack.name!r} is empty or used twice")
            seen_racks.add(rack.name)
            if len(rack.hosts) > UPLINK_PORT_BASE - HOST_PORT_BASE:
                raise TopologyError(f"rack {rack.name!r} has {len(rack.hosts)} hosts; "
                                    f"at most {UPLINK_PORT_BASE - HOST_PORT_BASE} fit")
            if rack.ports and len(rack.ports) != len(rack.hosts):
                raise TopologyError(f"rack {rack.name!r} names {len(rack.ports)} ports for "
                                    f"{len(rack.hosts)} hosts; give one port per host")
            if len(set(rack.ports)) != len(rack.ports) or any(
                    not 0 <= p <= MAX_PORT for p in rack.ports):
                raise TopologyError(f"rack {rack.name!r}: ports {list(rack.ports)} must be "
                                    f"distinct device ports 0..{MAX_PORT}")
            for host in rack.hosts:
                if host in seen_hosts:
                    raise TopologyError(f"host {host!r} is in rack {seen_hosts[host]!r} "
                                        f"and again in rack {rack.name!r}")
                seen_hosts[host] = rack.name
                if host in seen_racks:
                    raise TopologyError(f"{host!r} names both a host and a rack")

    @cached_property
    def rack_of(self) -> dict[str, int]:
        return {h: r for r, rack in enumerate(self.racks) for h in rack.hosts}

    @property
    def switch_names(self) -> list[str]:
        return [rack.name for rack in self.racks]

    @property
    def hosts(self) -> list[str]:
        return [h for rack in self.racks for h in rack.hosts]

    def host_port(self, host: str) -> int:
        rack = self.racks[self.rack_index(host)]
        i = rack.hosts.index(host)
        return rack.ports[i] if rack.ports else HOST_PORT_BASE + i

    def rack_index(self, host: str) -> int:
        try:
            return self.rack_of[host]
        except KeyError:
            raise TopologyError(
                f"unknown host {host!r}; hosts are {', '.join(self.hosts)}") from None

    def uplink_port(self, to_rack: int) -> int:
        uplink = self.racks[to_rack].uplink
        return UPLINK_PORT_BASE + to_rack if uplink is None else uplink

    def host_mac(self, host: str) -> bytes:
        """A locally administered MAC: 02:00:port[8]:00:rack:port[7:0] (02:00:00:00:
        rack:port for the ports below 256)."""
        rack, port = self.rack_index(host), self.host_port(host)
        return bytes((0x02, 0, port >> 8, 0, rack, port & 0xFF))


@dataclass(frozen=True)
class Tensor:
    """One ATP key: ``length`` elements; ``data`` is the per-worker gradient [N, L]
    (float32) or None to draw it from the scenario seed."""

    key: int
    length: int
    data: np.ndarray | None = field(default=None, compare=False, repr=False)

    @property
    def packets(self) -> int:
        return -(-self.length // ELEMENTS)


@dataclass(frozen=True)
class Job:
    """A training job (tenant). Worker ``w`` is ``workers[w]`` and owns bit ``1 << w``
    (single rack) or its index within its rack (two-level, section 8).

    A long job (section 10, rev. 3) pushes its tensors, in order, ``iterations`` times
    (the same keys every iteration, like training), and its first packet has seq
    ``first_seq`` (a test may start a job anywhere on the ring, e.g. just before the
    wrap)."""

    app_id: int
    workers: tuple[str, ...]
    pses: tuple[str, ...]
    window: int
    tensors: tuple[Tensor, ...]
    scale: float = DEFAULT_SCALE
    threshold: float | None = None
    congestion_control: bool = False
    iterations: int = 1
    first_seq: int = 1

    @property
    def fan_in(self) -> int:
        return len(self.workers)

    @property
    def effective_threshold(self) -> float:
        return self.threshold if self.threshold is not None else default_threshold(
            self.fan_in)

    def ps_index_of(self, key: int) -> int:
        return key % len(self.pses)

    @property
    def packets(self) -> int:
        """Packets the job sends in all (every iteration of every tensor)."""
        return self.iterations * sum(t.packets for t in self.tensors)

    def validate(self, topology: Topology) -> None:
        name = f"job {self.app_id}"
        if not 1 <= self.app_id <= 0xFFFF:
            raise TopologyError(f"{name}: app_id must be in 1..65535")
        if not 1 <= len(self.workers) <= MAX_WORKERS:
            raise TopologyError(f"{name}: needs 1..{MAX_WORKERS} workers, "
                                f"has {len(self.workers)}")
        if not 1 <= len(self.pses) <= MAX_PSES:
            raise TopologyError(f"{name}: needs 1..{MAX_PSES} PSes, has {len(self.pses)}")
        if len(set(self.workers)) != len(self.workers):
            raise TopologyError(f"{name}: a host is listed twice among the workers")
        if len(set(self.pses)) != len(self.pses):
            raise TopologyError(f"{name}: a host is listed twice among the PSes")
        for role, hosts in (("worker", self.workers), ("PS", self.pses)):
            for host in hosts:
                if host not in topology.rack_of:
                    raise TopologyError(
                        f"{name}: {role} host {host!r} is in no rack; hosts are "
                        f"{', '.join(topology.hosts)}")
        both = set(self.workers) & set(self.pses)
        if both:
            raise TopologyError(f"{name}: host {sorted(both)[0]!r} is both worker and PS")
        if not 1 <= self.window <= 0xFFFF:
            raise TopologyError(f"{name}: window S must be in 1..65535, got {self.window}")
        if self.iterations < 1:
            raise TopologyError(f"{name}: iterations must be at least 1, got "
                                f"{self.iterations}")
        if not 1 <= self.first_seq <= 0xFFFF:
            raise TopologyError(f"{name}: first_seq must be in 1..65535 (seq 0 is never "
                                f"used), got {self.first_seq}")
        if self.scale <= 0:
            raise TopologyError(f"{name}: scale must be positive, got {self.scale}")
        keys = [t.key for t in self.tensors]
        if len(set(keys)) != len(keys):
            raise TopologyError(f"{name}: tensor keys must be distinct, got {keys}")
        for tensor in self.tensors:
            if not 0 <= tensor.key < 2**64:
                raise TopologyError(f"{name}: tensor key {tensor.key} does not fit u64")
            if not 1 <= tensor.length or tensor.packets > 0xFFFF:
                raise TopologyError(
                    f"{name}: tensor {tensor.key} has {tensor.length} elements; needs "
                    f"1..{0xFFFF * ELEMENTS} (seq is 16 bits)")
            if tensor.data is not None and tensor.data.shape != (self.fan_in, tensor.length):
                raise TopologyError(
                    f"{name}: tensor {tensor.key} data has shape {tensor.data.shape}, "
                    f"expected (workers, length) = ({self.fan_in}, {tensor.length})")
        layout = JobLayout(self, topology)
        for r, members in enumerate(layout.rack_workers):
            if layout.two_level and len(members) > MAX_WORKERS:
                raise TopologyError(f"{name}: rack {r} holds too many workers")


class JobLayout:
    """How a job maps onto racks: job-local rack ids, worker bits, fan-ins."""

    def __init__(self, job: Job, topology: Topology):
        self.job = job
        worker_racks = [topology.rack_index(w) for w in job.workers]
        ps_racks = [topology.rack_index(p) for p in job.pses]
        # job-local rack ids follow topology order of the racks that hold workers
        self.racks: list[int] = sorted(set(worker_racks))
        self.two_level = len(set(worker_racks) | set(ps_racks)) > 1
        self.ps_racks = ps_racks
        self.rack_id_of_worker = [self.racks.index(r) for r in worker_racks]
        self.rack_workers: list[list[int]] = [[] for _ in self.racks]
        for w, rid in enumerate(self.rack_id_of_worker):
            self.rack_workers[rid].append(w)
        self.local_index = [self.rack_workers[rid].index(w)
                            for w, rid in enumerate(self.rack_id_of_worker)]

    def worker_bit(self, w: int) -> int:
        return 1 << (self.local_index[w] if self.two_level else w)

    def worker_fan_in(self, w: int) -> int:
        if self.two_level:
            return len(self.rack_workers[self.rack_id_of_worker[w]])
        return self.job.fan_in

    @property
    def rack_count(self) -> int:
        return len(self.racks)

    def workers_in(self, rack_id: int, bitmap: int) -> int:
        """Global worker mask of the rack-local ``bitmap`` of job-local rack ``rack_id``."""
        if not 0 <= rack_id < len(self.rack_workers):
            return 0
        mask = 0
        for local, w in enumerate(self.rack_workers[rack_id]):
            if bitmap >> local & 1:
                mask |= 1 << w
        return mask

    def workers_of_racks(self, bitmap1: int) -> int:
        mask = 0
        for rid, members in enumerate(self.rack_workers):
            if bitmap1 >> rid & 1:
                for w in members:
                    mask |= 1 << w
        return mask
