"""The control-plane state each rack switch needs, derived from a topology and its jobs.

One source for every target: the reference switch reads it directly, the p4sim and
Tofino drivers turn it into table entries and multicast groups.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reference.topology import Job, JobLayout, Topology, TopologyError

DEFAULT_POOL_SIZE = 20000
DEFAULT_AGGREGATOR_TIMEOUT_NS = 5_000_000
DEFAULT_ECN_THRESHOLD = 1000


@dataclass(frozen=True)
class JobRoute:
    """What a switch does with one (app_id, ps_index): where the PS is, whether this is
    the PS's own rack switch (the upper, section 8) and which job-local rack it serves."""

    to_ps_port: int
    is_upper: bool
    local_rack_id: int | None


class SwitchConfigError(ValueError):
    """A switch configuration the switch cannot run; the message names the route and
    says how to fix it."""


@dataclass
class SwitchConfig:
    name: str
    switch_id: int
    ports: tuple[int, ...]
    pool_size: int = DEFAULT_POOL_SIZE
    aggregator_timeout_ns: int = DEFAULT_AGGREGATOR_TIMEOUT_NS
    ecn_threshold: int = DEFAULT_ECN_THRESHOLD
    routes: dict[tuple[int, int], JobRoute] = field(default_factory=dict)
    multicast: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)
    l2: dict[bytes, int] = field(default_factory=dict)
    # PRE multicast group id of each (app_id, ps_index), numbered from 1 per switch
    mgid: dict[tuple[int, int], int] = field(default_factory=dict)

    def ps_ports(self, app_id: int) -> tuple[int, ...]:
        """The ports of the job's PSes on this switch (each route's ``to_ps_port``, D24),
        once each, in route order: under the release (9.12, rev. 4) a parameter packet
        is multicast only when it enters on one of them, whatever ps_index it carries
        (the release's ``multicast_table`` key has no PS index; its set-up writes one
        entry per PS port of the job)."""
        return tuple(dict.fromkeys(route.to_ps_port for (app, _), route
                                   in sorted(self.routes.items()) if app == app_id))


def probe_app_id(jobs: list[Job] | tuple[Job, ...]) -> int:
    """The app_id of the reclamation probe job (section 10): the largest one no job of
    the run uses."""
    used = {job.app_id for job in jobs}
    app_id = 0xFFFF
    while app_id in used:
        app_id -= 1
    return app_id


def build_switch_configs(
    topology: Topology,
    jobs: list[Job] | tuple[Job, ...],
    *,
    pool_size: int = DEFAULT_POOL_SIZE,
    aggregator_timeout_ns: int = DEFAULT_AGGREGATOR_TIMEOUT_NS,
    ecn_threshold: int = DEFAULT_ECN_THRESHOLD,
    probe: int | None = None,
) -> dict[str, SwitchConfig]:
    """Per rack switch: ports, job routes, multicast groups and the L2 table.

    ``probe``: the app_id of a probe job to configure on every switch (ps_index 0, its
    PS on the switch's first port, multicast to that port): the reclamation sweep of
    section 10 sends its parameter packets after a run. It sends no gradients, so it
    never owns an aggregator."""
    if not 1 <= pool_size <= 0x10000:
        raise TopologyError(f"pool size P must be in 1..65536 (agtr is 16 bits), "
                            f"got {pool_size}")
    ids = [job.app_id for job in jobs]
    if len(set(ids)) != len(ids):
        raise TopologyError(f"app_id values must be distinct, got {ids}")
    configs: dict[str, SwitchConfig] = {}
    n_racks = len(topology.racks)
    for r, rack in enumerate(topology.racks):
        ports = [topology.host_port(h) for h in rack.hosts]
        ports += [topology.uplink_port(o) for o in range(n_racks) if o != r]
        config = SwitchConfig(rack.name, r, tuple(ports), pool_size,
                              aggregator_timeout_ns, ecn_threshold)
        for host in topology.hosts:
            hr = topology.rack_index(host)
            config.l2[topology.host_mac(host)] = (
                topology.host_port(host) if hr == r else topology.uplink_port(hr))
        configs[rack.name] = config

    for job in jobs:
        job.validate(topology)
        layout = JobLayout(job, topology)
        for ps_index, ps_host in enumerate(job.pses):
            ps_rack = topology.rack_index(ps_host)
            for r, rack in enumerate(topology.racks):
                local_rack_id = layout.racks.index(r) if r in layout.racks else None
                is_upper = r == ps_rack
                if local_rack_id is None and not is_upper:
                    continue
                config = configs[rack.name]
                to_ps = (topology.host_port(ps_host) if is_upper
                         else topology.uplink_port(ps_rack))
                config.routes[(job.app_id, ps_index)] = JobRoute(
                    to_ps, is_upper, local_rack_id)
                group = [topology.host_port(job.workers[w])
                         for w in range(job.fan_in)
                         if topology.rack_index(job.workers[w]) == r]
                if is_upper:
                    group += [topology.uplink_port(o) for o in layout.racks if o != r]
                config.multicast[(job.app_id, ps_index)] = tuple(sorted(group))
                config.mgid[(job.app_id, ps_index)] = len(config.mgid) + 1
    if probe is not None:
        for config in configs.values():
            config.routes[(probe, 0)] = JobRoute(config.ports[0], True, 0)
            config.multicast[(probe, 0)] = (config.ports[0],)
            config.mgid[(probe, 0)] = len(config.mgid) + 1
    return configs


def check_switch_config(config: SwitchConfig) -> None:
    """Reject a configuration that would aggregate without ever releasing.

    A route must either aggregate this rack's workers (``local_rack_id`` set; 0 for a
    single-rack job) or be the PS's own rack switch of a multi-rack job
    (``is_upper``). A route with neither would take aggregators for the job's frames
    that no parameter packet releases (section 5 releases level 0 only where the route
    names a local rack). The pool must fit the 16-bit agtr field."""
    if not 1 <= config.pool_size <= 0x10000:
        raise SwitchConfigError(
            f"switch {config.name!r}: pool size P must be in 1..65536 (agtr is 16 "
            f"bits), got {config.pool_size}")
    for (app_id, ps_index), route in sorted(config.routes.items()):
        where = f"switch {config.name!r}, route for app_id {app_id} ps_index {ps_index}"
        if route.local_rack_id is None and not route.is_upper:
            raise SwitchConfigError(
                f"{where}: local_rack_id is unset and is_upper is false, so the switch "
                f"would neither aggregate the job's workers nor serve as its PS's rack "
                f"switch; a single-rack job's route is is_upper=True, local_rack_id=0")
        if route.local_rack_id is not None and not 0 <= route.local_rack_id <= 0xFF:
            raise SwitchConfigError(
                f"{where}: local_rack_id {route.local_rack_id} does not fit the shim's "
                f"8-bit rack_id")
