"""Shared helpers for the corpus tests: where the corpus lives, loading a trace as a
plain dict to mutate, and replaying a trace on the reference target."""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from pathlib import Path

from atp_fixtures.evidence.comparison import Comparison
from atp_fixtures.oracles.comparator import compare
from atp_fixtures.running.replay import replay
from atp_fixtures.targets import open_target
from atp_fixtures.evidence.trace import Trace

ROOT = Path(__file__).resolve().parents[2]
TRACES = ROOT / "fixtures" / "corpus" / "traces"
TRACE_FILES = sorted(TRACES.glob("*.json"))


@lru_cache(maxsize=None)
def _raw(name: str) -> str:
    return (TRACES / name).read_text(encoding="utf-8")


def trace_dict(name: str) -> dict:
    """A corpus trace as a fresh, mutable dict (``name`` without or with '.json')."""
    if not name.endswith(".json"):
        name += ".json"
    return copy.deepcopy(json.loads(_raw(name)))


def write_json(path: Path, data) -> Path:
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def replay_all(trace: Trace, profile: str | None = None) -> dict[str, Comparison]:
    """Replay every switch of ``trace`` on a fresh reference target; comparisons by
    switch name."""
    target = open_target("reference")
    out = {}
    for name, switch in trace.switches.items():
        out[name] = compare(switch, replay(switch, target, profile or trace.profile))
    target.close()
    return out
