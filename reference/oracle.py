"""What every worker must receive, computed from the inputs alone (spec section 10).

For each (job, key, seq) the exact answer is ``sum over workers of q(x_w)`` when the seq
stays in integer mode, or the float sum (within float32 rounding) in float mode. Which
mode a seq ends in is partly dynamic: a seq whose inputs exceed a worker's threshold, or
whose integer sum leaves int32, must end in float mode; otherwise a partial aggregate may
still saturate on the way (its subset sum can leave int32 even when the total does not),
so either mode is correct as long as its values are.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from reference.quantize import needs_float_mode
from reference.scenario import Scenario
from reference.wire import ELEMENTS, INT32_MAX

FLOAT32_EPS = float(np.finfo(np.float32).eps)


@dataclass(frozen=True)
class ExpectedSeq:
    int_sum: np.ndarray | None     # exact int64 sum, None when integer mode is impossible
    float_sum: np.ndarray          # exact float64 sum of the float32 inputs
    float_tolerance: np.ndarray    # allowed |error| per element in float mode
    float_required: bool


@dataclass(frozen=True)
class Mismatch:
    app_id: int
    worker: int
    key: int
    seq: int
    reason: str

    def __str__(self) -> str:
        return (f"job {self.app_id} worker {self.worker} key {self.key} seq {self.seq}: "
                f"{self.reason}")


def expected_seqs(scenario: Scenario, app_id: int, key: int) -> list[ExpectedSeq]:
    """Every seq of every iteration of the tensor ``key``, in push order."""
    job = next(j for j in scenario.jobs if j.app_id == app_id)
    tensor = next(t for t in job.tensors if t.key == key)
    return [e for i in range(job.iterations)
            for e in _expected_push(job, tensor, scenario.tensor_data(job, tensor, i))]


def _expected_push(job, tensor, data: np.ndarray) -> list[ExpectedSeq]:
    padded = np.zeros((job.fan_in, tensor.packets * ELEMENTS), np.float32)
    padded[:, :tensor.length] = data
    out = []
    for s in range(tensor.packets):
        chunks = padded[:, s * ELEMENTS:(s + 1) * ELEMENTS]
        float_sum = chunks.astype(np.float64).sum(axis=0)
        tolerance = (job.fan_in * FLOAT32_EPS * np.abs(chunks.astype(np.float64)).sum(axis=0)
                     + np.abs(float_sum) * FLOAT32_EPS + 1e-45)
        worker_float = any(needs_float_mode(c, job.scale, job.effective_threshold)
                           for c in chunks)
        int_sum = None
        if not worker_float:
            int_sum = sum(_round_half_even(c.astype(np.float64) * job.scale)
                          for c in chunks)
            # a sum at a sticky value (4.6: 2^31 - 1, -(2^31 - 1), -2^31) or beyond
            # cannot come back as an integer: the PS reads it as overflow (section 6)
            if ((int_sum >= INT32_MAX) | (int_sum <= -INT32_MAX)).any():
                int_sum = None
        out.append(ExpectedSeq(int_sum, float_sum, tolerance, int_sum is None))
    return out


def _round_half_even(scaled: np.ndarray) -> np.ndarray:
    """Spec section 3's rounding, written here on purpose instead of calling
    ``reference.quantize``: an oracle that shared the workers' code would agree with a
    worker that rounds wrongly."""
    floor = np.floor(scaled)
    frac = scaled - floor
    return (floor + ((frac > 0.5) | ((frac == 0.5) & (np.mod(floor, 2) == 1)))).astype(
        np.int64)


def verify_results(run) -> list[Mismatch]:
    """Every finished worker's every seq against the oracle (killed jobs are skipped)."""
    return verify_outcomes(
        run.scenario,
        lambda app_id, w, key: run.worker_outcomes.get((app_id, w), {}).get(key),
        skip_jobs=run.killed)


def verify_outcomes(scenario, outcomes_of, skip_jobs=()) -> list[Mismatch]:
    """Exactly-once (section 10) for any host stack: ``outcomes_of(app_id, worker, key)``
    gives a worker's per-seq outcomes of a tensor (objects with ``float_mode`` and
    ``raw``), or None when the tensor never completed there."""
    mismatches: list[Mismatch] = []
    for job in scenario.jobs:
        if job.app_id in skip_jobs:
            continue
        for tensor in job.tensors:
            expected = expected_seqs(scenario, job.app_id, tensor.key)
            for w in range(job.fan_in):
                outcomes = outcomes_of(job.app_id, w, tensor.key)
                if outcomes is None:
                    mismatches.append(Mismatch(job.app_id, w, tensor.key, 0,
                                               "tensor never completed"))
                    continue
                packets = tensor.packets
                if len(outcomes) < len(expected):
                    mismatches.append(Mismatch(
                        job.app_id, w, tensor.key, 0,
                        f"iteration {len(outcomes) // packets + 1} of {job.iterations} "
                        f"never completed"))
                for n, (exp, got) in enumerate(zip(expected, outcomes)):
                    reason = check_seq(exp, got.float_mode, got.raw)
                    if reason:
                        if job.iterations > 1:
                            reason = f"iteration {n // packets + 1}: {reason}"
                        mismatches.append(Mismatch(job.app_id, w, tensor.key,
                                                   n % packets + 1, reason))
    return mismatches


def check_seq(exp: ExpectedSeq, float_mode: bool, raw: np.ndarray) -> str | None:
    """None if the received aggregate is right, else why not (first bad element)."""
    if float_mode:
        error = np.abs(raw.astype(np.float64) - exp.float_sum)
        bad = np.flatnonzero(error > exp.float_tolerance)
        if bad.size:
            i = int(bad[0])
            return (f"float element {i}: got {float(raw[i])!r}, exact sum "
                    f"{exp.float_sum[i]!r} (tolerance {exp.float_tolerance[i]:.3g})")
        return None
    if exp.int_sum is None:
        return "integer result where only float mode is correct (threshold or int32 overflow)"
    bad = np.flatnonzero(raw.astype(np.int64) != exp.int_sum)
    if bad.size:
        i = int(bad[0])
        return f"int element {i}: got {int(raw[i])}, exact sum {int(exp.int_sum[i])}"
    return None
