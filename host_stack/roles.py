"""Which reference state machines a host runs, built from a scenario or a launcher config.

A scenario (``reference.scenario``) names hosts, jobs and tensors; the host stack builds
for ``host`` exactly the objects ``reference.run.run_scenario`` builds for it (same slot
tables, MACs, index registry and gradients), so a real run and a simulated run of one
scenario are comparable seq by seq.

Decision (spec silent): every PS process claims all jobs' slot tables in its own
:class:`IndexRegistry`. In the simulator one registry is shared by all PSes; over real
processes two PSes could hand out the same fresh index after a collision, which costs
only another collision (the fresh index is a hint, never a correctness matter).
"""

from __future__ import annotations

from dataclasses import dataclass

from reference.network import HostApp
from reference.placement import slot_indexes
from reference.profiles import profile_named
from reference.ps import IndexRegistry, ParameterServer
from reference.scenario import Scenario
from reference.topology import Job, JobLayout, Rack, Topology
from reference.worker import START_TIMEOUT_NS, Worker

# A Python process's round trip over veths (and through a software switch) is 0.1-2 ms,
# so the spec's 200 µs timer would resend every window; see reference.worker.
HOST_TIMEOUT_NS = 5_000_000
HOST_START_TIMEOUT_NS = START_TIMEOUT_NS * 4
# T_stale of a host PS (spec section 6, rev. 4): it must exceed the longest gap between a
# worker's resends of a seq it lacks, else the PS forgets a completed seq whose parameter
# packet that worker lost (reference.ps). Our worker's timer backs off up to
# host_stack.shell.MAX_BACKOFF_NS (1 s), so twice that. ``python -m host_stack.ps
# --t-stale-ms`` sets another (an external stack's workers may resend sooner).
HOST_T_STALE_NS = 2_000_000_000


class RoleError(ValueError):
    """A host that has nothing to do in the scenario, or a launcher config that is wrong."""


@dataclass
class Role:
    kind: str            # "worker" or "ps"
    app_id: int
    index: int           # worker number w, or ps_index
    host: str
    app: Worker | ParameterServer


class Multiplex:
    """Several roles on one host (e.g. a worker of job 1 and of job 2): every frame goes
    to every role, as the simulator delivers it to every app of a host."""

    def __init__(self, apps: list[HostApp]):
        self.apps = apps

    def on_frame(self, frame: bytes, now: int) -> list[bytes]:
        out: list[bytes] = []
        for app in self.apps:
            out += app.on_frame(frame, now)
        return out

    def deadline(self) -> int | None:
        deadlines = [d for d in (a.deadline() for a in self.apps) if d is not None]
        return min(deadlines) if deadlines else None

    def on_timeout(self, now: int) -> list[bytes]:
        out: list[bytes] = []
        for app in self.apps:
            out += app.on_timeout(now)
        return out


def roles_from_scenario(scenario: Scenario, host: str, *,
                        timeout_ns: int = HOST_TIMEOUT_NS,
                        start_timeout_ns: int = HOST_START_TIMEOUT_NS,
                        t_stale_ns: int = HOST_T_STALE_NS) -> list[Role]:
    """Every worker and PS that ``host`` runs in ``scenario``. The timers and T_stale
    are the host's (real time, real processes), not the scenario's simulated ones."""
    topo = scenario.topology
    if host not in topo.rack_of:
        raise RoleError(f"host {host!r} is not in the scenario; hosts are "
                        f"{', '.join(topo.hosts)}")
    profile = profile_named(scenario.profile)
    registry = IndexRegistry(scenario.pool_size)
    slots = {}
    for job in scenario.jobs:
        slots[job.app_id] = slot_indexes(job.app_id, job.window, scenario.pool_size)
        registry.claim(slots[job.app_id])
    roles: list[Role] = []
    for job in scenario.jobs:
        layout = JobLayout(job, topo)
        if host in job.pses:
            i = job.pses.index(host)
            roles.append(Role("ps", job.app_id, i, host, ParameterServer(
                job, i, layout, topo.host_mac(host), profile, registry, t_stale_ns)))
        if host in job.workers:
            w = job.workers.index(host)
            tensors = [(t.key, data[w]) for _, t, data in scenario.pushes(job)]
            roles.append(Role("worker", job.app_id, w, host, Worker(
                job, w, layout, topo.host_mac(host), [topo.host_mac(p) for p in job.pses],
                slots[job.app_id], scenario.pool_size, tensors, profile,
                timeout_ns=timeout_ns, start_timeout_ns=start_timeout_ns)))
    if not roles:
        raise RoleError(f"host {host!r} is neither a worker nor a PS of any job")
    return roles


def single_job_topology(num_workers: int, num_servers: int) -> Topology:
    """Workers ``worker0..`` and PSes ``server0..`` behind one switch ``tor``."""
    workers = tuple(f"worker{i}" for i in range(num_workers))
    pses = tuple(f"server{i}" for i in range(num_servers))
    return Topology((Rack("tor", workers + pses),))


def single_job(app_id: int, num_workers: int, num_servers: int, window: int, *,
               scale: float, congestion_control: bool,
               first_seq: int = 1) -> tuple[Job, JobLayout]:
    """A job and its single-rack layout for hosts started by the launcher (no scenario),
    on :func:`single_job_topology`."""
    topo = single_job_topology(num_workers, num_servers)
    workers = tuple(h for h in topo.hosts if h.startswith("worker"))
    pses = tuple(h for h in topo.hosts if h.startswith("server"))
    job = Job(app_id=app_id, workers=workers, pses=pses, window=window, tensors=(),
              scale=scale, congestion_control=congestion_control, first_seq=first_seq)
    try:
        job.validate(topo)
    except ValueError as exc:
        raise RoleError(str(exc)) from None
    return job, JobLayout(job, topo)
