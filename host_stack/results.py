"""The result files host processes write, so that tests judge any host stack alike.

A worker writes one JSON object::

    {"host": "h1", "app_id": 1, "worker": 0, "elapsed_s": 0.12, "completed": true,
     "counters": {...},
     "tensors": {"<key>": [{"float_mode": false, "ecn": false,
                            "values": [62 int32]}, ...one per seq...]}}

(one per seq of every iteration, in push order, for a job of several iterations)

``counters`` holds at least ``malformed``: the ATP frames (ethertype 0x0700/0x0701)
the host received and could not handle. A switch that conforms sends none: the
host-stack tests require the count (``HostRun.unparsed``) and require it 0; the rest
are the stack's own (ours: the reference worker's, plus ``link_sent``/``link_received``).

``values`` are the aggregate as on the wire: int32 sums, or in float mode the float32
bit patterns read as int32 (so the file is exact). An external host stack that writes
this format is judged by the same tests (see ``fixtures/testbeds`` ``host_stack``).
A host that is a worker of several jobs writes ``{"jobs": [<one object per job>]}``.
A PS writes ``{"host", "app_id", "ps_index", "counters", "completed_seqs", "held_seqs"}``
(or ``{"jobs": [...]}``), if it writes a result at all; its ``counters`` hold ``malformed``
too, required and required 0 like a worker's. ``held_seqs`` (optional) is how many
(key, seq) the PS still holds state for when it stops: where it is written, the tests
hold it to the state lifetime of spec 6.6 (at most S once every seq completed).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from reference.ps import ParameterServer
from reference.worker import SeqOutcome, Worker


class ResultError(ValueError):
    """A result file that is missing or malformed; names the file and the field."""


def write_json_atomically(path: Path, data: dict) -> None:
    """Write via a temporary file and rename: a reader never sees half a file."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data))
    os.replace(tmp, path)


def worker_result(worker: Worker, host: str, elapsed_s: float) -> dict:
    tensors = {}
    for key, outcomes in worker.outcomes.items():
        seqs = []
        for outcome in outcomes:
            raw = np.asarray(outcome.raw)
            bits = raw.view(np.int32) if outcome.float_mode else raw.astype(np.int32)
            seqs.append({"float_mode": outcome.float_mode, "ecn": outcome.ecn,
                         "values": [int(v) for v in bits]})
        tensors[str(key)] = seqs
    return {"host": host, "app_id": worker.job.app_id, "worker": worker.w,
            "elapsed_s": elapsed_s, "completed": worker.finished,
            "counters": dict(worker.counters), "tensors": tensors}


def ps_result(ps: ParameterServer, host: str) -> dict:
    return {"host": host, "app_id": ps.job.app_id, "ps_index": ps.ps_index,
            "counters": dict(ps.counters), "completed_seqs": len(ps.completed()),
            "held_seqs": len(ps.seqs)}


def read_ps_result(path: Path) -> dict:
    """A PS's result file as written (one job, or ``{"jobs": [...]}``), each entry
    checked for ``app_id`` and a ``counters`` object."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except ValueError as exc:
        raise ResultError(f"{path}: not JSON ({exc})") from None
    for entry in ps_entries(data):
        if not (isinstance(entry, dict) and "app_id" in entry
                and isinstance(entry.get("counters"), dict)):
            raise ResultError(f"{path}: malformed PS result (an entry without app_id or "
                              f"a counters object); see the format in "
                              f"host_stack/results.py")
    return data


def ps_entries(data) -> list:
    """One entry per job of a PS result."""
    return data["jobs"] if isinstance(data, dict) and "jobs" in data else [data]


@dataclass
class WorkerResult:
    app_id: int
    worker: int
    completed: bool
    elapsed_s: float
    counters: dict
    outcomes: dict[int, list[SeqOutcome]]


def read_worker_results(path: Path) -> list[WorkerResult]:
    """The result(s) in one worker file (one per job the host works for)."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise ResultError(f"{path}: no result file (the worker did not finish writing "
                          f"it; see its log next to it)") from None
    except ValueError as exc:
        raise ResultError(f"{path}: not JSON ({exc})") from None
    entries = data["jobs"] if isinstance(data, dict) and "jobs" in data else [data]
    return [_worker_entry(path, entry) for entry in entries]


def _worker_entry(path: Path, data) -> WorkerResult:
    try:
        outcomes = {}
        for key, seqs in data["tensors"].items():
            got = []
            for entry in seqs:
                bits = np.asarray(entry["values"], dtype=np.int64).astype(np.int32)
                raw = bits.view(np.float32).copy() if entry["float_mode"] else bits
                got.append(SeqOutcome(bool(entry["float_mode"]), raw, bool(entry["ecn"])))
            outcomes[int(key)] = got
        return WorkerResult(int(data["app_id"]), int(data["worker"]),
                            bool(data["completed"]), float(data["elapsed_s"]),
                            dict(data["counters"]), outcomes)
    except (KeyError, TypeError, ValueError) as exc:
        raise ResultError(f"{path}: malformed worker result ({exc!r}); see the format "
                          f"in host_stack/results.py") from None
