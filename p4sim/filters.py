"""TNA's ``Lpf<T, I>`` and ``Wred<T, I>`` externs: per-index state, configured by the
control plane with BfRt's ``$LPF_SPEC_*`` / ``$WRED_SPEC_*`` values, run on the
injection timestamps (``Switch.inject(timestamp_ns=...)``, the time source every p4sim
extern uses; the softswitch gives it its clock).

The models (Tofino's filters are not specified to the bit; these follow what the SDE
documents for the spec fields):

- **Lpf**, per configured cell: ``SAMPLE`` is an exponentially weighted moving average
  of the samples, ``y += a * (x - y)`` with ``a = 1 - exp(-dt / tau)``, where ``dt`` is
  the time since the cell's previous sample and ``tau`` the gain time constant when the
  sample is above the average (rising) or the decay time constant when below. ``RATE``
  integrates: ``y = y * exp(-dt / tau_gain) + x`` approximates the sum of the samples of
  the last ``tau_gain`` ns (bytes in, bytes per ``tau`` out). The output is
  ``floor(y) >> scale_down`` (``$LPF_SPEC_OUT_SCALE_DOWN_FACTOR``), saturated to T. A
  cell's first sample after configuration starts it: ``y = x``. A time constant of 0 makes
  ``a`` 1 (SAMPLE passes the sample through) and forgets everything (RATE). An
  unconfigured cell passes the sample through (it reads as SAMPLE, 0, 0, 0).
- **Wred**, per configured cell: the average ``avg`` of the samples (T's values, queue
  depths in cells as ``$WRED_SPEC_*_THRESH_CELLS`` say) is the same EWMA with
  ``$WRED_SPEC_TIME_CONSTANT_NS``; ``avg < min_thresh`` keeps the packet,
  ``avg >= max_thresh`` drops it, and between them it is dropped with probability
  ``max_probability * (avg - min) / (max - min)`` (RED's linear ramp; the random draws
  come from the Switch's ``seed``, so a run repeats). ``execute`` returns the
  constructor's ``drop_value`` or ``no_drop_value``. An unconfigured cell never drops
  (it reads as zeros).

Floating point is used for the exponentials, as the SDE's own time constants are floats;
the same inputs give the same outputs.
"""
from __future__ import annotations

import math
import random

from .errors import ControlPlaneError

LPF_TYPES = ("RATE", "SAMPLE")


class FilterSpec:
    """An Lpf or Wred instance: its name, size, sample width and (Wred) verdicts."""

    def __init__(self, name: str, size: int, width: int, drop_value: int = 0,
                 no_drop_value: int = 0):
        self.name = name
        self.size = size
        self.width = width
        self.drop_value = drop_value
        self.no_drop_value = no_drop_value


def _ewma(avg: float, last: int, x: int, ts: int, tau: float) -> float:
    dt = max(ts - last, 0)
    a = 1.0 if tau <= 0 else 1.0 - math.exp(-dt / tau)
    return avg + a * (x - avg)


def _index(spec: FilterSpec, index) -> int:
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < spec.size:
        raise ControlPlaneError(f"'{spec.name}': index {index!r} out of range 0..{spec.size - 1}")
    return index


def _non_negative(name: str, what: str, v, integer: bool = False):
    ok = isinstance(v, int) if integer else isinstance(v, (int, float))
    if not ok or isinstance(v, bool) or v < 0 or (not integer and not math.isfinite(v)):
        raise ControlPlaneError(f"'{name}': {what} must be a non-negative "
                                f"{'integer' if integer else 'number'}, got {v!r}")
    return v


class LpfCell:
    __slots__ = ("kind", "gain_ns", "decay_ns", "scale", "y", "last")

    def __init__(self, kind: str, gain_ns: float, decay_ns: float, scale: int):
        self.kind, self.gain_ns, self.decay_ns, self.scale = kind, gain_ns, decay_ns, scale
        self.y = 0.0
        self.last = None


class _Cells:
    """An Lpf's or Wred's configured cells by index."""

    def __init__(self, spec: FilterSpec, ctx):
        self.spec = spec
        self.name = spec.name
        self.size = spec.size
        self.ctx = ctx
        self.cells: dict = {}

    def reset(self, index: int | None = None) -> None:
        """Unconfigure one cell, or all."""
        if index is None:
            self.cells.clear()
        else:
            self.cells.pop(_index(self.spec, index), None)


def lpf_cell(name: str, kind: str, gain_ns: float, decay_ns: float,
             scale_down: int) -> LpfCell:
    """A configured Lpf cell (its state starts again); ControlPlaneError for a bad spec."""
    if kind not in LPF_TYPES:
        raise ControlPlaneError(f"Lpf '{name}': type {kind!r} is not one of {LPF_TYPES}")
    _non_negative(name, "gain time constant", gain_ns)
    _non_negative(name, "decay time constant", decay_ns)
    _non_negative(name, "output scale-down factor", scale_down, integer=True)
    return LpfCell(kind, float(gain_ns), float(decay_ns), scale_down)


def lpf_spec(c: LpfCell | None) -> tuple[str, float, float, int]:
    return ("SAMPLE", 0.0, 0.0, 0) if c is None else (c.kind, c.gain_ns, c.decay_ns, c.scale)


def lpf_output(c: LpfCell | None, val: int, ts: int, width: int) -> int:
    """One sample through cell ``c`` at time ``ts``; an unconfigured cell passes it."""
    if c is None:
        return val
    if c.last is None:
        c.y = float(val)
    elif c.kind == "SAMPLE":
        c.y = _ewma(c.y, c.last, val, ts, c.gain_ns if val > c.y else c.decay_ns)
    else:
        dt = max(ts - c.last, 0)
        c.y = (c.y * math.exp(-dt / c.gain_ns) if c.gain_ns > 0 else 0.0) + val
    c.last = ts if c.last is None else max(c.last, ts)
    return min(int(c.y) >> c.scale, (1 << width) - 1)


class Lpf(_Cells):
    """``Lpf<T, I>``: ``execute(val, index)`` -> the filtered value (see the module)."""

    def set(self, index: int, kind: str, gain_ns: float, decay_ns: float, scale_down: int) -> None:
        """Configure one cell (its state starts again)."""
        self.cells[_index(self.spec, index)] = lpf_cell(self.name, kind, gain_ns, decay_ns,
                                                        scale_down)

    def get(self, index: int) -> tuple[str, float, float, int]:
        return lpf_spec(self.cells.get(_index(self.spec, index)))

    def execute(self, val: int, index: int) -> int:
        return lpf_output(self.cells.get(index % self.size), val, self.ctx.ts, self.spec.width)


class WredCell:
    __slots__ = ("tau_ns", "min_thresh", "max_thresh", "max_prob", "avg", "last")

    def __init__(self, tau_ns: float, min_thresh: int, max_thresh: int, max_prob: float):
        self.tau_ns, self.min_thresh, self.max_thresh = tau_ns, min_thresh, max_thresh
        self.max_prob = max_prob
        self.avg = 0.0
        self.last = None


def wred_cell(name: str, time_constant_ns: float, min_thresh: int, max_thresh: int,
              max_probability: float) -> WredCell:
    """A configured Wred cell (its average starts again); ControlPlaneError for a bad
    spec."""
    _non_negative(name, "time constant", time_constant_ns)
    _non_negative(name, "min threshold", min_thresh, integer=True)
    _non_negative(name, "max threshold", max_thresh, integer=True)
    if min_thresh > max_thresh:
        raise ControlPlaneError(f"Wred '{name}': min threshold {min_thresh} is above "
                                f"max threshold {max_thresh}")
    if not (isinstance(max_probability, (int, float)) and 0 <= max_probability <= 1):
        raise ControlPlaneError(f"Wred '{name}': max probability must be in 0..1, "
                                f"got {max_probability!r}")
    return WredCell(float(time_constant_ns), min_thresh, max_thresh, float(max_probability))


def wred_spec(c: WredCell | None) -> tuple[float, int, int, float]:
    return (0.0, 0, 0, 0.0) if c is None else (c.tau_ns, c.min_thresh, c.max_thresh,
                                               c.max_prob)


def wred_verdict(c: WredCell | None, val: int, ts: int, spec: FilterSpec,
                 rng: random.Random) -> int:
    """One sample through cell ``c``: drop_value or no_drop_value (an unconfigured cell
    never drops)."""
    if c is None:
        return spec.no_drop_value
    c.avg = float(val) if c.last is None else _ewma(c.avg, c.last, val, ts, c.tau_ns)
    c.last = ts if c.last is None else max(c.last, ts)
    if c.avg < c.min_thresh:
        drop = False
    elif c.avg >= c.max_thresh:
        drop = True
    else:
        p = c.max_prob * (c.avg - c.min_thresh) / (c.max_thresh - c.min_thresh)
        drop = rng.random() < p
    return spec.drop_value if drop else spec.no_drop_value


class Wred(_Cells):
    """``Wred<T, I>``: ``execute(val, index)`` -> drop_value or no_drop_value."""

    def __init__(self, spec: FilterSpec, ctx, rng: random.Random):
        super().__init__(spec, ctx)
        self.rng = rng

    def set(self, index: int, time_constant_ns: float, min_thresh: int, max_thresh: int,
            max_probability: float) -> None:
        """Configure one cell (its average starts again)."""
        self.cells[_index(self.spec, index)] = wred_cell(self.name, time_constant_ns,
                                                         min_thresh, max_thresh,
                                                         max_probability)

    def get(self, index: int) -> tuple[float, int, int, float]:
        return wred_spec(self.cells.get(_index(self.spec, index)))

    def execute(self, val: int, index: int) -> int:
        return wred_verdict(self.cells.get(index % self.size), val, self.ctx.ts, self.spec,
                            self.rng)


class DirectLpf:
    """``DirectLpf<T>``: a cell per entry of the table whose ``filters`` names it (kept
    on the entry, ``Entry.filter``, like a DirectMeter's bucket); ``execute(val)`` uses
    the matched entry's; a miss or an unconfigured entry passes the value through."""

    kind = "lpf"

    def __init__(self, spec: FilterSpec, ctx):
        self.spec, self.ctx, self.name = spec, ctx, spec.name

    def cell(self, *spec) -> LpfCell:
        return lpf_cell(self.name, *spec)

    get = staticmethod(lpf_spec)

    def execute(self, val: int) -> int:
        e = self.ctx.entry
        return lpf_output(e.filter if e is not None else None, val, self.ctx.ts,
                          self.spec.width)


class DirectWred:
    """``DirectWred<T>(drop_value, no_drop_value)``: as DirectLpf, a Wred cell per entry."""

    kind = "wred"

    def __init__(self, spec: FilterSpec, ctx, rng: random.Random):
        self.spec, self.ctx, self.name, self.rng = spec, ctx, spec.name, rng

    def cell(self, *spec) -> WredCell:
        return wred_cell(self.name, *spec)

    get = staticmethod(wred_spec)

    def execute(self, val: int) -> int:
        e = self.ctx.entry
        return wred_verdict(e.filter if e is not None else None, val, self.ctx.ts, self.spec,
                            self.rng)
