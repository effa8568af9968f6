"""The aggregator pool and the per-aggregator rules of spec sections 4 and 5.

State is register-shaped (owner/bitmap/count/ecn/stamp per index, 62 values per index)
so that a snapshot reads like the P4 registers. Scalars live in Python lists (fast scalar
access), values in one int64 numpy array (fast 62-wide saturating adds).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from reference.wire import ELEMENTS, INT32_MAX, INT32_MIN, owner_app_id

STAMP_MASK = 0xFFFFFFFF


class Verdict(Enum):
    NOT_MINE = "not_mine"   # forward to the PS unchanged (collision unless a resend)
    ABSORBED = "absorbed"   # dropped, its values kept in the aggregator
    EMIT = "emit"           # leaves for the PS with the aggregate


@dataclass(frozen=True)
class AggregatorState:
    """One aggregator as its registers read."""

    owner: int
    bitmap: int
    count: int
    ecn: int
    stamp: int
    values: tuple[int, ...]

    def to_dict(self) -> dict:
        return {"owner": self.owner, "bitmap": self.bitmap, "count": self.count,
                "ecn": self.ecn, "stamp": self.stamp, "values": list(self.values)}


def saturating_add(current: np.ndarray, incoming: np.ndarray) -> np.ndarray:
    """Element-wise sticky saturating add (spec 4.6): an element already at
    ``±(2^31 - 1)`` or ``-2^31`` stays as it is; a sum clamps to ``[-2^31, 2^31 - 1]``.

    Decision beyond the spec: an *incoming* element at one of those values is sticky
    too (the result takes it). Otherwise a rack aggregate that saturated at an edge
    switch could be added to an opposite value at the upper switch and come out as a
    plausible integer, hiding the overflow from the PS (found by hypothesis on a
    two-level job). For level-0 worker packets this changes nothing that matters: an
    input at a bound only forces the PS's float fallback, whose result is exact.
    int64 in, int64 out."""
    total = current + incoming
    np.minimum(total, INT32_MAX, out=total)
    np.maximum(total, INT32_MIN, out=total)
    incoming_sticky = (incoming >= INT32_MAX) | (incoming <= -INT32_MAX)
    if incoming_sticky.any():
        total[incoming_sticky] = incoming[incoming_sticky]
    sticky = (current >= INT32_MAX) | (current <= -INT32_MAX)
    if sticky.any():
        total[sticky] = current[sticky]
    return total


def _touches_bound(values: np.ndarray) -> bool:
    """Any element at a sticky value (``±(2^31 - 1)`` or ``-2^31``) or beyond."""
    return bool(values.max() >= INT32_MAX or values.min() <= -INT32_MAX)


class AggregatorPool:
    def __init__(self, size: int):
        self.size = size
        self.owner = [0] * size
        self.bitmap = [0] * size
        self.count = [0] * size
        self.ecn = [0] * size
        self.stamp = [0] * size
        self.values = np.zeros((size, ELEMENTS), dtype=np.int64)
        self.occupied = 0
        self.touched: set[int] = set()
        # whether any value of the aggregator sits at a bound (sticky saturation); lets
        # the common case skip the clamp and the sticky mask
        self.at_bound = [False] * size

    # -- section 4: gradient packets ---------------------------------------------------
    def gradient(
        self,
        index: int,
        owner_id: int,
        bits: int,
        fan_in: int,
        resend: bool,
        is_ecn: bool,
        values: np.ndarray,
        now: int,
        first_completing_overwrites: bool = True,
        flush_clears_ecn: bool = True,
        ecn_flag_after_update: bool = True,
    ) -> tuple[Verdict, int, bool]:
        """Rules 4.3–4.7 on aggregator ``index``. Returns (verdict, merged bitmap, ecn
        flag of the output: the ECN register after this packet's update, or before it
        under 9.9).

        An ``index`` outside the pool (``>= P``: agtr is 16 bits, P is configurable) is
        never used as an index: NOT_MINE, no state read or written (4.3).
        ``flush_clears_ecn``: a resend flush clears the ECN register after the flushed
        packet took its mark (4.4; False is the release, 9.8).
        On EMIT the aggregate is ``self.values[index]``."""
        if not 0 <= index < self.size:               # 4.3 outside the pool: not mine
            return Verdict.NOT_MINE, 0, False
        owner = self.owner[index]
        if resend:                                   # 4.3 a resend is mine only if owned
            if owner != owner_id:
                return Verdict.NOT_MINE, 0, False
            self.owner[index] = 0                    # ... and then released
            self.occupied -= 1
        elif owner == 0:
            self.owner[index] = owner_id
            self.occupied += 1
        elif owner != owner_id:
            return Verdict.NOT_MINE, 0, False
        self.touched.add(index)
        self.stamp[index] = now & STAMP_MASK         # 4.4
        prev = self.bitmap[index]
        new = bits & ~prev
        merged = bits | prev
        self.bitmap[index] = 0 if resend else merged
        ecn_before = self.ecn[index]
        ecn = ecn_before | int(is_ecn)
        self.ecn[index] = 0 if resend and flush_clears_ecn else ecn
        if not ecn_flag_after_update:                # 9.9: the value before the update
            ecn = ecn_before
        if resend:                                   # 4.5 a resend flushes
            self.count[index] = 0
            count = 0
            complete = True
        else:
            count = self.count[index]
            if new:
                count = (count + 1) & 0xFF
                self.count[index] = count
            complete = bool(new) and count == fan_in
        if new:                                      # 4.6
            if prev == 0 and (first_completing_overwrites or not complete):
                self.values[index] = values
                self.at_bound[index] = _touches_bound(values)
            else:
                current = self.values[index]
                total = current + values
                if (self.at_bound[index] or _touches_bound(total)
                        or _touches_bound(values)):
                    total = saturating_add(current, values)
                    self.at_bound[index] = _touches_bound(total)
                self.values[index] = total
        if complete or (not new and count == fan_in):  # 4.7
            return Verdict.EMIT, merged, bool(ecn)
        return Verdict.ABSORBED, merged, bool(ecn)

    # -- section 5: parameter packets -------------------------------------------------
    def parameter(self, index: int, owner_id: int, now: int,
                  leak_timeout_ns: int | None) -> str | None:
        """Release on a parameter packet. Returns "owner", "leak" or None. An index
        outside the pool changes nothing (section 5)."""
        if not 0 <= index < self.size:
            return None
        owner = self.owner[index]
        if owner == owner_id:
            reason = "owner"
        elif (leak_timeout_ns is not None and owner != 0
              and ((now & STAMP_MASK) - self.stamp[index]) & STAMP_MASK > leak_timeout_ns):
            reason = "leak"
        else:
            return None
        self._release(index)
        return reason

    def _release(self, index: int) -> None:
        if self.owner[index]:
            self.occupied -= 1
        self.owner[index] = 0
        self.bitmap[index] = 0
        self.count[index] = 0
        self.ecn[index] = 0

    def release_job(self, app_id: int) -> int:
        """Control-plane teardown: release every aggregator the job owns; returns how many."""
        released = 0
        for index, owner in enumerate(self.owner):
            if owner and owner_app_id(owner) == app_id:
                self._release(index)
                released += 1
        return released

    # -- register access -----------------------------------------------------------
    def read(self, index: int) -> AggregatorState:
        """The aggregator's registers; an index outside the pool holds no state and
        reads as an empty aggregator (a 9.11 trace read under the spec profile)."""
        if not 0 <= index < self.size:
            return AggregatorState(0, 0, 0, 0, 0, (0,) * ELEMENTS)
        return AggregatorState(
            self.owner[index], self.bitmap[index], self.count[index], self.ecn[index],
            self.stamp[index], tuple(self.values[index].tolist()))

    def snapshot(self) -> dict[int, AggregatorState]:
        """Every aggregator ever written (untouched ones are all zero)."""
        return {i: self.read(i) for i in sorted(self.touched)}

    def owned(self) -> list[int]:
        return [i for i in sorted(self.touched) if self.owner[i]]
