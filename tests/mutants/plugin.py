"""A pytest plugin that breaks one rule of the reference switch (the target under test
when ``--target=reference``), chosen by the ATP_MUTANT environment variable. Used only
by tests/mutants to show that each conformance property catches an injected bug.

    ATP_MUTANT=no_overwrite python -m pytest conformance/... -p tests.mutants.plugin
"""

from __future__ import annotations

import os

import numpy as np

from reference import aggregator, switch
from reference.aggregator import AggregatorPool, Verdict
from reference.wire import INT32_MAX

_original_gradient = AggregatorPool.gradient


def _no_overwrite(self, index, owner_id, bits, fan_in, resend, is_ecn, values, now,
                  first_completing_overwrites=True):
    """4.6 broken: a first arrival adds to the stale values instead of overwriting."""
    stale = self.values[index].copy()
    verdict = _original_gradient(self, index, owner_id, bits, fan_in, resend, is_ecn,
                                 values, now, first_completing_overwrites)
    if self.owner[index] == owner_id and self.bitmap[index] == bits:
        self.values[index] = np.clip(stale + values, -INT32_MAX - 1, INT32_MAX)
    return verdict


def _wrapping_add(current, incoming):
    """4.6 broken: int32 wrap-around instead of sticky saturation."""
    return (current + incoming).astype(np.int32).astype(np.int64)


def _owner_ignores_app(self, index, owner_id, bits, fan_in, resend, is_ecn, values, now,
                       first_completing_overwrites=True):
    """4.3 broken: ownership compares only the seq half of the owner word."""
    owner = self.owner[index]
    if owner and owner != owner_id and owner & 0xFFFF == owner_id & 0xFFFF:
        owner_id = owner
    return _original_gradient(self, index, owner_id, bits, fan_in, resend, is_ecn,
                              values, now, first_completing_overwrites)


def _parameter_keeps_owner(self, index, owner_id, now, leak_timeout_ns):
    """5 broken: parameter packets never release their aggregator."""
    return None


_original_verdict_output = switch.SwitchModel._verdict_output


def _drop_passing_resends(self, verdict, packet, frame, route, level, merged, ecn):
    """4.3 broken: a resend that is not mine is dropped instead of passed to the PS."""
    if verdict is Verdict.NOT_MINE and packet.flags & 4:
        return []
    return _original_verdict_output(self, verdict, packet, frame, route, level, merged,
                                    ecn)


def _no_collision_flag(self, verdict, packet, frame, route, level, merged, ecn):
    """4.3 broken: a colliding packet goes to the PS without its collision flag."""
    if verdict is Verdict.NOT_MINE and not packet.flags & 4:
        return [(route.to_ps_port, frame)]
    return _original_verdict_output(self, verdict, packet, frame, route, level, merged,
                                    ecn)


def _partial_rack_goes_up(merged: int, fan_in: int) -> bool:
    """8 broken: every frame an edge switch emits goes up as a whole-rack aggregate."""
    return True


MUTANTS = {
    "no_overwrite": (AggregatorPool, "gradient", _no_overwrite),
    "wrapping_add": (aggregator, "saturating_add", _wrapping_add),
    "owner_ignores_app": (AggregatorPool, "gradient", _owner_ignores_app),
    "parameter_keeps_owner": (AggregatorPool, "parameter", _parameter_keeps_owner),
    "drop_passing_resends": (switch.SwitchModel, "_verdict_output", _drop_passing_resends),
    "no_collision_flag": (switch.SwitchModel, "_verdict_output", _no_collision_flag),
    "partial_rack_goes_up": (switch.SwitchModel, "covers_whole_rack",
                             staticmethod(_partial_rack_goes_up)),
}


def pytest_configure(config) -> None:
    name = os.environ.get("ATP_MUTANT")
    if not name:
        return
    if name not in MUTANTS:
        raise ValueError(f"unknown ATP_MUTANT {name!r}; known: {', '.join(MUTANTS)}")
    owner, attribute, replacement = MUTANTS[name]
    setattr(owner, attribute, replacement)
