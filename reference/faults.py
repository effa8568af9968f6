"""Fault plans for links: seeded random faults and an explicit schedule.

A random plan drops/duplicates/reorders/delays each frame with a probability, on every
link or on the links named; a ``budget`` caps how many faults it may cause (a finite
set of faults, for liveness). A targeted fault acts on the n-th frame that matches a
description, e.g. "drop the 3rd parameter packet to worker host h1"; its ``congest``
action makes that frame meet a switch queue ``depth`` deep (the egress ECN marking of
section 5 then acts on what the switch sends for it), so congestion can be aimed at
traffic ("every parameter packet of seqs 17 to 48 from the PS") where a congestion plan
by time hits whatever a real run happens to send in its windows.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from reference.wire import (
    ETHERTYPE_ATP, ETHERTYPE_ATP_TWO_LEVEL, FLAG_ACK, FLAG_OVERFLOW, FLAG_RESEND, ETH_LEN,
    IPV4_LEN, SHIM_LEN,
)

KINDS = ("gradient", "resend", "parameter", "float_request", "other", "any")
ACTIONS = ("drop", "duplicate", "delay", "congest")


class FaultPlanError(ValueError):
    """A fault description that cannot be applied; says which field and what is allowed."""


def frame_kind(frame: bytes) -> tuple[str, int, int]:
    """(kind, app_id, seq) of a frame, read straight from the bytes."""
    ethertype = frame[12] << 8 | frame[13] if len(frame) >= 14 else 0
    if ethertype == ETHERTYPE_ATP:
        at = ETH_LEN + IPV4_LEN
    elif ethertype == ETHERTYPE_ATP_TWO_LEVEL:
        at = ETH_LEN + IPV4_LEN + SHIM_LEN
    else:
        return "other", 0, 0
    flags = frame[at + 5]
    app_id = frame[at + 6] << 8 | frame[at + 7]
    seq = frame[at + 8] << 8 | frame[at + 9]
    if flags & FLAG_ACK:
        kind = ("float_request" if flags & FLAG_OVERFLOW and not flags & FLAG_RESEND
                else "parameter")
    else:
        kind = "resend" if flags & FLAG_RESEND else "gradient"
    return kind, app_id, seq


@dataclass(frozen=True)
class RandomFaults:
    drop: float = 0.0
    duplicate: float = 0.0
    reorder: float = 0.0
    reorder_delay_ns: int = 5_000
    jitter_ns: int = 0
    budget: int | None = None
    links: tuple[tuple[str, str], ...] | None = None  # (from node, to node); None = all

    def __post_init__(self) -> None:
        for name in ("drop", "duplicate", "reorder"):
            p = getattr(self, name)
            if not 0.0 <= p < 1.0:
                raise FaultPlanError(f"random fault {name}={p}: a probability in [0, 1)")
        if self.reorder_delay_ns < 0 or self.jitter_ns < 0:
            raise FaultPlanError("delays must be non-negative nanoseconds")
        if self.budget is not None and self.budget < 0:
            raise FaultPlanError("budget must be a non-negative count of faults")


@dataclass(frozen=True)
class TargetedFault:
    action: str
    kind: str = "any"
    app_id: int | None = None
    seq: int | None = None
    to_node: str | None = None
    from_node: str | None = None
    nth: int = 1
    count: int = 1
    delay_ns: int = 0
    depth: int = 0          # congest: the queue depth the frame meets at the switch

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise FaultPlanError(f"targeted fault action {self.action!r}: expected one of "
                                 f"{', '.join(ACTIONS)}")
        if self.kind not in KINDS:
            raise FaultPlanError(f"targeted fault kind {self.kind!r}: expected one of "
                                 f"{', '.join(KINDS)}")
        if self.nth < 1 or self.count < 1:
            raise FaultPlanError("targeted fault nth and count start at 1")
        if self.action == "delay" and self.delay_ns <= 0:
            raise FaultPlanError("a delay fault needs delay_ns > 0")
        if (self.action == "congest") != (self.depth > 0):
            raise FaultPlanError("a congest fault needs depth > 0, and only a congest "
                                 "fault has a depth")

    def matches(self, kind: str, app_id: int, seq: int, src: str, dst: str) -> bool:
        return ((self.kind == "any" or self.kind == kind)
                and (self.app_id is None or self.app_id == app_id)
                and (self.seq is None or self.seq == seq)
                and (self.to_node is None or self.to_node == dst)
                and (self.from_node is None or self.from_node == src))


@dataclass(frozen=True)
class FaultPlan:
    random: RandomFaults | None = None
    targeted: tuple[TargetedFault, ...] = ()

    @property
    def congests(self) -> bool:
        """Whether a targeted fault sets queue depths (a run must carry them to the
        switch: on real interfaces, the relay's trailer)."""
        return any(t.action == "congest" for t in self.targeted)


@dataclass
class FaultDecision:
    """What happens to one transmission: the extra delays of each copy (empty = drop),
    and the queue depth a ``congest`` fault gives it at the switch it goes to."""

    copies: list[int] = field(default_factory=lambda: [0])
    applied: list[str] = field(default_factory=list)
    queue_depth: int = 0


class FaultInjector:
    """Applies a plan to each transmission; every random draw comes from ``rng``."""

    def __init__(self, plan: FaultPlan, rng: random.Random):
        self.plan = plan
        self.rng = rng
        self.matched = [0] * len(plan.targeted)
        self.random_used = 0
        self.log: list[tuple[int, str, str, str, str, int, int]] = []

    def decide(self, now: int, src: str, dst: str, frame: bytes) -> FaultDecision:
        decision = FaultDecision()
        plan = self.plan
        if not plan.targeted and plan.random is None:
            return decision
        kind, app_id, seq = frame_kind(frame)
        for i, fault in enumerate(plan.targeted):
            if fault.matches(kind, app_id, seq, src, dst):
                self.matched[i] += 1
                if fault.nth <= self.matched[i] < fault.nth + fault.count:
                    if fault.action == "congest":
                        decision.applied.append("congest")
                        decision.queue_depth = max(decision.queue_depth, fault.depth)
                    else:
                        self._apply(decision, fault.action, fault.delay_ns)
        rand = plan.random
        if rand is not None and (rand.links is None or (src, dst) in rand.links):
            self._random(decision, rand)
        for action in decision.applied:
            self.log.append((now, src, dst, action, kind, app_id, seq))
        return decision

    def _random(self, decision: FaultDecision, rand: RandomFaults) -> None:
        rng = self.rng
        draws = (rng.random(), rng.random(), rng.random())
        jitter = rng.randrange(rand.jitter_ns + 1) if rand.jitter_ns else 0
        if jitter:
            decision.copies = [d + jitter for d in decision.copies]
        for draw, p, action, delay in zip(
                draws, (rand.drop, rand.duplicate, rand.reorder),
                ("drop", "duplicate", "delay"), (0, 0, rand.reorder_delay_ns)):
            if draw < p and self._budget_left(rand):
                self.random_used += 1
                self._apply(decision, action, delay)

    def _budget_left(self, rand: RandomFaults) -> bool:
        return rand.budget is None or self.random_used < rand.budget

    @staticmethod
    def _apply(decision: FaultDecision, action: str, delay_ns: int) -> None:
        decision.applied.append(action)
        if action == "drop":
            decision.copies = []
        elif action == "duplicate":
            decision.copies = decision.copies + [c + 1 for c in decision.copies]
        else:
            decision.copies = [c + delay_ns for c in decision.copies]
