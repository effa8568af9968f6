"""A scenario: topology, jobs and their gradients, pool, faults, timing, one seed.

Scenarios round-trip through plain JSON-able dicts (CLI input, trace files). Reading one
checks every field and names it by path (``jobs[0].window``) in the error;
:func:`load_scenario` is the one reader of a scenario file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from reference.control_plane import (
    DEFAULT_AGGREGATOR_TIMEOUT_NS, DEFAULT_ECN_THRESHOLD, DEFAULT_POOL_SIZE,
    build_switch_configs,
)
from reference.placement import slot_indexes
from reference.faults import FaultPlan, FaultPlanError, RandomFaults, TargetedFault
from reference.profiles import PROFILES
from reference.ps import DEFAULT_T_STALE_NS
from reference.quantize import DEFAULT_SCALE
from reference.topology import Job, Rack, Tensor, Topology, TopologyError

DEFAULT_LINK_LATENCY_NS = 1_000


class ScenarioError(ValueError):
    """A scenario description that cannot run; the message names the field by path."""


@dataclass(frozen=True)
class Congestion:
    """Egress queue depth ``depth`` at switch ``switch`` during [start_ns, end_ns)."""

    switch: str
    start_ns: int
    end_ns: int
    depth: int


@dataclass(frozen=True)
class Kill:
    """Job ``app_id`` dies at ``at_ns``; the control plane tears it down
    ``teardown_after_ns`` later (None: never)."""

    app_id: int
    at_ns: int
    teardown_after_ns: int | None = 0


@dataclass(frozen=True)
class Scenario:
    topology: Topology
    jobs: tuple[Job, ...]
    seed: int = 0
    profile: str = "spec"
    pool_size: int = DEFAULT_POOL_SIZE
    aggregator_timeout_ns: int = DEFAULT_AGGREGATOR_TIMEOUT_NS
    ecn_threshold: int = DEFAULT_ECN_THRESHOLD
    link_latency_ns: int = DEFAULT_LINK_LATENCY_NS
    faults: FaultPlan = field(default_factory=FaultPlan)
    congestion: tuple[Congestion, ...] = ()
    kills: tuple[Kill, ...] = ()
    checkpoints_ns: tuple[int, ...] = ()
    max_time_ns: int = 10_000_000_000
    max_events: int = 5_000_000
    name: str = ""
    # T_stale of every PS (section 6, rev. 4): forget a job after this long without a
    # fresh packet (reference.ps explains the default)
    t_stale_ns: int = DEFAULT_T_STALE_NS

    @property
    def sets_queue_depths(self) -> bool:
        """Whether switches see queue depths other than 0: a congestion plan (by time)
        or a targeted ``congest`` fault (by frame)."""
        return bool(self.congestion) or self.faults.congests

    def tensor_data(self, job: Job, tensor: Tensor, iteration: int = 0) -> np.ndarray:
        """The [workers, length] float32 gradients of a tensor in an iteration: explicit,
        or drawn from the scenario seed (so a scenario file stays small).

        Each iteration's gradients differ from the last one's, so that an answer from an
        earlier lap cannot pass for the right one (decision): drawn data is drawn again
        per iteration (iteration 0 as before); explicit data is rotated by ``iteration``
        elements along the tensor and negated in odd iterations, which keeps every
        magnitude (so the worker thresholds and the overflow paths it was chosen for)."""
        if tensor.data is not None:
            data = np.asarray(tensor.data, dtype=np.float32)
            if iteration:
                data = np.roll(data, iteration, axis=1)
                if iteration % 2:
                    data = -data
            return data
        seed = [self.seed, job.app_id, tensor.key & 0xFFFFFFFF] + (
            [iteration] if iteration else [])
        rng = np.random.default_rng(seed)
        return (rng.standard_normal((job.fan_in, tensor.length)) * 0.01).astype(np.float32)

    def pushes(self, job: Job) -> list[tuple[int, Tensor, np.ndarray]]:
        """(iteration, tensor, [workers, length] data) of every push of a job, in the
        order its workers push them: every tensor, in order, once per iteration."""
        return [(i, t, self.tensor_data(job, t, i))
                for i in range(job.iterations) for t in job.tensors]

    # -- JSON -----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "seed": self.seed,
            "profile": self.profile,
            "pool_size": self.pool_size,
            "aggregator_timeout_ns": self.aggregator_timeout_ns,
            "ecn_threshold": self.ecn_threshold,
            "link_latency_ns": self.link_latency_ns,
            "max_time_ns": self.max_time_ns,
            "max_events": self.max_events,
            # written only when set, so that the files of earlier scenarios stay as they were
            **({"t_stale_ns": self.t_stale_ns}
               if self.t_stale_ns != DEFAULT_T_STALE_NS else {}),
            "topology": {"racks": [_rack_to_dict(r) for r in self.topology.racks]},
            "jobs": [_job_to_dict(j) for j in self.jobs],
            "faults": _faults_to_dict(self.faults),
            "congestion": [vars_of(c) for c in self.congestion],
            "kills": [vars_of(k) for k in self.kills],
            "checkpoints_ns": list(self.checkpoints_ns),
        }

    @classmethod
    def from_dict(cls, data: Any) -> "Scenario":
        r = _Reader(data, "scenario")
        topo = r.obj("topology")
        try:
            topology = Topology(tuple(
                Rack(rr.str("name"), tuple(rr.list_of_str("hosts")),
                     tuple(rr.list_of_int("ports", [])), rr.int("uplink", None))
                for rr in topo.objs("racks")))
        except TopologyError as exc:
            raise ScenarioError(f"scenario.topology: {exc}") from None
        jobs = tuple(_job_from(jr) for jr in r.objs("jobs"))
        if not jobs:
            raise ScenarioError("scenario.jobs: at least one job is needed")
        profile = r.str("profile", "spec")
        if profile not in PROFILES:
            raise ScenarioError(f"scenario.profile: {profile!r} is not one of "
                                f"{', '.join(sorted(PROFILES))}")
        scenario = cls(
            topology=topology,
            jobs=jobs,
            seed=r.int("seed", 0),
            profile=profile,
            pool_size=r.int("pool_size", DEFAULT_POOL_SIZE, low=1, high=0x10000),
            aggregator_timeout_ns=r.int("aggregator_timeout_ns",
                                        DEFAULT_AGGREGATOR_TIMEOUT_NS, low=0),
            ecn_threshold=r.int("ecn_threshold", DEFAULT_ECN_THRESHOLD, low=0),
            link_latency_ns=r.int("link_latency_ns", DEFAULT_LINK_LATENCY_NS, low=0),
            faults=_faults_from(r.obj("faults", {})),
            congestion=tuple(
                Congestion(c.str("switch"), c.int("start_ns", low=0), c.int("end_ns", low=0),
                           c.int("depth", low=0)) for c in r.objs("congestion", [])),
            kills=tuple(
                Kill(k.int("app_id", low=1), k.int("at_ns", low=0),
                     k.int("teardown_after_ns", 0, low=0, optional=True))
                for k in r.objs("kills", [])),
            checkpoints_ns=tuple(r.list_of_int("checkpoints_ns", [])),
            max_time_ns=r.int("max_time_ns", 10_000_000_000, low=1),
            max_events=r.int("max_events", 5_000_000, low=1),
            t_stale_ns=r.int("t_stale_ns", DEFAULT_T_STALE_NS, low=1),
            name=r.str("name", ""),
        )
        r.done()
        scenario.validate()
        return scenario

    def validate(self) -> None:
        """Cross-field checks (jobs against topology, kills and congestion against jobs
        and switches)."""
        try:
            build_switch_configs(self.topology, self.jobs, pool_size=self.pool_size)
            for job in self.jobs:
                slot_indexes(job.app_id, job.window, self.pool_size)
        except ValueError as exc:
            raise ScenarioError(f"scenario.jobs: {exc}") from None
        app_ids = {j.app_id for j in self.jobs}
        for i, kill in enumerate(self.kills):
            if kill.app_id not in app_ids:
                raise ScenarioError(f"scenario.kills[{i}].app_id: no job {kill.app_id}")
        for i, c in enumerate(self.congestion):
            if c.switch not in self.topology.switch_names:
                raise ScenarioError(
                    f"scenario.congestion[{i}].switch: no switch {c.switch!r}; switches "
                    f"are {', '.join(self.topology.switch_names)}")
        nodes = set(self.topology.hosts) | set(self.topology.switch_names)
        for i, t in enumerate(self.faults.targeted):
            for end in (t.to_node, t.from_node):
                if end is not None and end not in nodes:
                    raise ScenarioError(f"scenario.faults.targeted[{i}]: no node {end!r}")


def load_scenario(path: str | Path, profile: str | None = None, **fields: Any) -> Scenario:
    """The scenario in JSON file ``path``: the one reader of scenario files (corpus,
    counterexamples, command lines), so every caller reports a bad file the same way.

    ``profile`` and any other top-level ``fields`` replace the file's before it is
    read, so they are checked as the file's own would be. A file that cannot be read,
    is not JSON or is not a valid scenario raises ``ScenarioError`` naming the file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScenarioError(f"cannot read scenario {str(path)!r}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON "
                            f"({exc.msg})") from None
    if isinstance(data, dict):
        if profile is not None:
            data["profile"] = profile
        data.update(fields)
    try:
        return Scenario.from_dict(data)
    except ScenarioError as exc:
        raise ScenarioError(f"{path}: {exc}") from None


def vars_of(obj) -> dict[str, Any]:
    return dict(obj.__dict__)


def _rack_to_dict(rack: Rack) -> dict[str, Any]:
    """A rack; its ports and uplink only when set (spec 8a placements), so files of
    racks on the default ports keep their form."""
    out: dict[str, Any] = {"name": rack.name, "hosts": list(rack.hosts)}
    if rack.ports:
        out["ports"] = list(rack.ports)
    if rack.uplink is not None:
        out["uplink"] = rack.uplink
    return out


def _job_to_dict(job: Job) -> dict[str, Any]:
    return {
        "app_id": job.app_id, "workers": list(job.workers), "pses": list(job.pses),
        "window": job.window, "scale": job.scale, "threshold": job.threshold,
        "congestion_control": job.congestion_control,
        # written only when set, so that files of one-iteration jobs stay as they were
        **({"iterations": job.iterations} if job.iterations != 1 else {}),
        **({"first_seq": job.first_seq} if job.first_seq != 1 else {}),
        "tensors": [{"key": t.key, "length": t.length,
                     "data": None if t.data is None else np.asarray(t.data).tolist()}
                    for t in job.tensors],
    }


def _job_from(r: "_Reader") -> Job:
    tensors = []
    for tr in r.objs("tensors"):
        length = tr.int("length", low=1)
        data = tr.raw("data", None)
        array = None
        if data is not None:
            try:
                array = np.asarray(data, dtype=np.float32)
            except (TypeError, ValueError):
                raise ScenarioError(f"{tr.path}.data: expected a list of per-worker lists "
                                    f"of numbers") from None
        tensors.append(Tensor(tr.int("key", low=0, high=2**64 - 1), length, array))
        tr.done()
    threshold = r.raw("threshold", None)
    if threshold is not None and not isinstance(threshold, (int, float)):
        raise ScenarioError(f"{r.path}.threshold: expected a number or null")
    job = Job(
        app_id=r.int("app_id", low=1, high=0xFFFF),
        workers=tuple(r.list_of_str("workers")),
        pses=tuple(r.list_of_str("pses")),
        window=r.int("window", low=1, high=0xFFFF),
        tensors=tuple(tensors),
        scale=float(r.raw("scale", DEFAULT_SCALE)),
        threshold=None if threshold is None else float(threshold),
        congestion_control=bool(r.raw("congestion_control", False)),
        iterations=r.int("iterations", 1, low=1),
        first_seq=r.int("first_seq", 1, low=1, high=0xFFFF),
    )
    r.done()
    return job


def _faults_to_dict(plan: FaultPlan) -> dict[str, Any]:
    out: dict[str, Any] = {"targeted": [_targeted_to_dict(t) for t in plan.targeted]}
    if plan.random is not None:
        rand = vars_of(plan.random)
        if rand["links"] is not None:
            rand["links"] = [list(link) for link in rand["links"]]
        out["random"] = rand
    return out


def _targeted_to_dict(fault: TargetedFault) -> dict[str, Any]:
    """A targeted fault; its depth only on a congest fault, so files of the other
    actions keep their form."""
    out = vars_of(fault)
    if fault.action != "congest":
        del out["depth"]
    return out


def _faults_from(r: "_Reader") -> FaultPlan:
    try:
        rand = None
        if r.has("random"):
            rr = r.obj("random")
            links = rr.raw("links", None)
            probabilities = {name: rr.float(name, 0.0)
                             for name in ("drop", "duplicate", "reorder")}
            for name, p in probabilities.items():
                if not 0.0 <= p < 1.0:
                    raise ScenarioError(f"{rr.path}.{name}: {p} is not a probability in "
                                        f"[0, 1)")
            rand = RandomFaults(
                **probabilities,
                reorder_delay_ns=rr.int("reorder_delay_ns", 5_000, low=0),
                jitter_ns=rr.int("jitter_ns", 0, low=0),
                budget=rr.int("budget", None, low=0, optional=True),
                links=None if links is None else tuple(tuple(link) for link in links))
            rr.done()
        targeted = []
        for tr in r.objs("targeted", []):
            targeted.append(TargetedFault(
                action=tr.str("action"), kind=tr.str("kind", "any"),
                app_id=tr.int("app_id", None, optional=True),
                seq=tr.int("seq", None, optional=True),
                to_node=tr.str("to_node", None, optional=True),
                from_node=tr.str("from_node", None, optional=True),
                nth=tr.int("nth", 1, low=1), count=tr.int("count", 1, low=1),
                delay_ns=tr.int("delay_ns", 0, low=0), depth=tr.int("depth", 0, low=0)))
            tr.done()
        r.done()
        return FaultPlan(rand, tuple(targeted))
    except FaultPlanError as exc:
        raise ScenarioError(f"{r.path}: {exc}") from None


_MISSING = object()


class _Reader:
    """Typed access to one JSON object, with its path for error messages; ``done()``
    rejects keys nobody read (a typo must not be ignored)."""

    def __init__(self, data: Any, path: str):
        if not isinstance(data, dict):
            raise ScenarioError(f"{path}: expected an object, got {type(data).__name__}")
        self.data = data
        self.path = path
        self.seen: set[str] = set()

    def has(self, key: str) -> bool:
        return key in self.data

    def raw(self, key: str, default: Any = _MISSING) -> Any:
        self.seen.add(key)
        if key not in self.data:
            if default is _MISSING:
                raise ScenarioError(f"{self.path}.{key}: missing (required)")
            return default
        return self.data[key]

    def int(self, key: str, default: Any = _MISSING, *, low: int | None = None,
            high: int | None = None, optional: bool = False) -> Any:
        value = self.raw(key, default)
        if value is None and (optional or default is None):
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise ScenarioError(f"{self.path}.{key}: expected an integer, got {value!r}")
        if (low is not None and value < low) or (high is not None and value > high):
            raise ScenarioError(f"{self.path}.{key}: {value} is outside "
                                f"[{low if low is not None else '-inf'}, "
                                f"{high if high is not None else 'inf'}]")
        return value

    def float(self, key: str, default: Any = _MISSING) -> float:
        value = self.raw(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ScenarioError(f"{self.path}.{key}: expected a number, got {value!r}")
        return float(value)

    def str(self, key: str, default: Any = _MISSING, optional: bool = False) -> Any:
        value = self.raw(key, default)
        if value is None and (optional or default is None):
            return None
        if not isinstance(value, str):
            raise ScenarioError(f"{self.path}.{key}: expected a string, got {value!r}")
        return value

    def list_of_str(self, key: str, default: Any = _MISSING) -> list[str]:
        value = self.raw(key, default)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ScenarioError(f"{self.path}.{key}: expected a list of strings")
        return value

    def list_of_int(self, key: str, default: Any = _MISSING) -> list[int]:
        value = self.raw(key, default)
        if not isinstance(value, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise ScenarioError(f"{self.path}.{key}: expected a list of integers")
        return value

    def obj(self, key: str, default: Any = _MISSING) -> "_Reader":
        return _Reader(self.raw(key, default), f"{self.path}.{key}")

    def objs(self, key: str, default: Any = _MISSING) -> list["_Reader"]:
        value = self.raw(key, default)
        if not isinstance(value, list):
            raise ScenarioError(f"{self.path}.{key}: expected a list of objects")
        return [_Reader(v, f"{self.path}.{key}[{i}]") for i, v in enumerate(value)]

    def done(self) -> None:
        unknown = sorted(set(self.data) - self.seen)
        if unknown:
            raise ScenarioError(f"{self.path}: unknown field(s) {', '.join(unknown)}")
