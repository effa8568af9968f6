"""The parameter server of one job and one ps_index (spec section 6).

Decisions where the spec is silent (documented for the P4/host teams):
- The PS sums integer contributions in int64. A sum that reaches one of the sticky
  values (``2^31 - 1``, ``-(2^31 - 1)``, ``-2^31``) or leaves int32 (two partial
  aggregates, each in range) is treated like revealed switch overflow: the seq enters
  float mode and a float request goes out. Otherwise the result would silently wrap; and
  a sum at a sticky value is what the switch would have shown as overflow, so both paths
  agree.
- "First unused pool index" for a collision remap comes from an :class:`IndexRegistry`
  shared by all PSes of a run (the release keeps such a table in shared memory): every
  index any job's slot table uses is claimed; the fresh index is the smallest unclaimed
  one, or the packet's own index when the pool is exhausted. Under the release (9.10)
  the registry walks a shuffled list of the pool instead (shuffled once with the run's
  seed, so runs repeat), still skipping claimed indexes, and parameter packets carry
  ``bitmap = 1``.
- **State lifetime** (section 6, rev. 3): when seq ``t`` completes, the PS forgets all
  of its state at or behind the *frontier* ``t - S`` (serial arithmetic,
  :mod:`reference.seqnum`); the frontier only moves forward. A later packet at or
  behind it is a straggler: counted in ``stragglers``, nothing counted, no state made,
  nothing sent. Before the first completion there is no frontier (a job may start at
  any seq). The frontier is per PS (one ps_index of one job): a PS knows only the seqs
  of its own keys, and every seq at or behind another PS's frontier is acknowledged by
  every worker as well, so it only lets that PS keep a little longer what it could
  forget. Its limit (docs/protocol.md D21): a PS that sees nothing while the job sends
  more than 32767 - S packets to its other PSes takes its next packets for stragglers
  (half the ring cannot tell far ahead from behind). Under the release's per-tensor
  seq (9.7) the PS has no safe point to forget: a seq frontier would take the next
  tensor's seq 1 for a straggler, and forgetting a tensor once all its seqs completed
  loses the answer to the resend of a worker whose parameter packet was lost (the job
  never finishes; the release-profile suite found it). So under 9.7 the PS keeps its
  state as before rev. 3, and a key pushed again meets it: part of 9.7's cross-tensor
  contamination (decision).
- A float request copies the triggering packet's header, sets ack and overflow, clears
  resend/collision/data_index and carries zero values; parameter packets and float
  requests leave with the PS's MAC as source and the broadcast MAC as destination.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from reference.host_order import key_on_wire
from reference.profiles import Profile
from reference.seqnum import seq_add, seq_before_or_at, seq_diff
from reference.topology import Job, JobLayout
from reference.wire import (
    BROADCAST_MAC, ELEMENTS, FLAG_ACK, FLAG_COLLISION, FLAG_DATA_INDEX, FLAG_OVERFLOW,
    FLAG_RESEND, INT32_MAX, PS_INDEX_MASK, AtpPacket, decode, encode,
)


class IndexRegistry:
    """Pool indexes claimed by the jobs' slot tables (for collision remaps).

    ``shuffle_seed``: None walks the pool in order (the spec's first unused index);
    an int walks it in the order of a list shuffled with that seed (the release, 9.10)."""

    def __init__(self, pool_size: int, shuffle_seed: int | None = None):
        self.pool_size = pool_size
        self.claimed: set[int] = set()
        self._order: list[int] | range = range(pool_size)
        if shuffle_seed is not None:
            order = list(range(pool_size))
            random.Random(shuffle_seed).shuffle(order)
            self._order = order
        self._next = 0

    def claim(self, indexes) -> None:
        self.claimed.update(indexes)

    def fresh(self, fallback: int) -> int:
        while self._next < self.pool_size and self._order[self._next] in self.claimed:
            self._next += 1
        if self._next >= self.pool_size:
            return fallback
        index = self._order[self._next]
        self.claimed.add(index)
        return index


def _sticky(values: np.ndarray) -> np.ndarray:
    """Elements at a sticky value of spec 4.6 (``2^31 - 1``, ``-(2^31 - 1)``,
    ``-2^31``) or beyond int32: what switch overflow looks like (section 6)."""
    return (values >= INT32_MAX) | (values <= -INT32_MAX)


@dataclass
class SeqState:
    counted: int = 0                 # global worker mask
    total: np.ndarray = field(default_factory=lambda: np.zeros(ELEMENTS, np.int64))
    float_mode: bool = False
    collided: bool = False
    parameter: bytes | None = None   # the parameter packet, once complete


@dataclass(frozen=True)
class SeqResult:
    """What the PS decided for one (key, seq)."""

    float_mode: bool
    values: tuple  # ints (int mode) or float32 values (float mode)
    collided: bool


class ParameterServer:
    def __init__(self, job: Job, ps_index: int, layout: JobLayout, mac: bytes,
                 profile: Profile, registry: IndexRegistry):
        self.job = job
        self.ps_index = ps_index
        self.layout = layout
        self.mac = mac
        self.profile = profile
        self.registry = registry
        self.all_workers = (1 << job.fan_in) - 1
        self.seqs: dict[tuple[int, int], SeqState] = {}
        self.frontier: int | None = None     # state at or behind it is forgotten
        self.counters: Counter[str] = Counter()
        self.killed = False

    def contributors(self, packet: AtpPacket) -> int:
        """The global workers a packet carries (section 8 for two-level frames)."""
        shim = packet.shim
        if shim is None:
            return packet.bitmap & self.all_workers
        if shim.level == 1:
            return self.layout.workers_of_racks(shim.bitmap1)
        return self.layout.workers_in(shim.rack_id, packet.bitmap)

    def on_frame(self, frame: bytes, now: int = 0) -> list[bytes]:
        if self.killed:
            return []
        packet = decode(frame)
        if (packet.flags & FLAG_ACK or packet.app_id != self.job.app_id
                or packet.ps_index != self.ps_index):
            self.counters["ignored"] += 1
            return []
        if self.is_straggler(packet.seq):
            self.counters["stragglers"] += 1
            return []
        key = key_on_wire(packet.key, self.profile)
        state = self.seqs.setdefault((key, packet.seq), SeqState())
        if state.parameter is not None:                  # duplicate after completion
            self.counters["parameters_resent"] += 1
            return [state.parameter]
        if packet.flags & FLAG_COLLISION:
            state.collided = True
        contrib = self.contributors(packet)
        if packet.flags & FLAG_OVERFLOW:
            return self._float_packet(state, packet, contrib)
        if state.float_mode:                              # int packet for a float seq
            return [self._float_request(packet)]
        values = packet.values.astype(np.int64)
        if _sticky(values).any():                          # revealed switch overflow
            return self._enter_float_mode(state, packet)
        if contrib == self.all_workers:
            state.counted = contrib
            state.total = values
        elif contrib and not contrib & state.counted:
            total = state.total + values
            if _sticky(total).any():
                return self._enter_float_mode(state, packet)
            state.counted |= contrib
            state.total = total
        else:
            self.counters["overlapping_ignored"] += 1
            return []
        return self._maybe_complete(state, packet)

    def _float_packet(self, state: SeqState, packet: AtpPacket, contrib: int) -> list[bytes]:
        out: list[bytes] = []
        counts = self.profile.ps_counts_first_float or bool(packet.flags & FLAG_RESEND)
        if not state.float_mode:
            out += self._enter_float_mode(state, packet)
        elif not counts:
            out.append(self._float_request(packet))
        if not counts:
            return out
        if contrib and not contrib & state.counted:
            bits = packet.values
            state.total = (state.total + bits.view(np.float32)).astype(np.float32)
            state.counted |= contrib
        else:
            self.counters["overlapping_ignored"] += 1
        return out + self._maybe_complete(state, packet)

    def _enter_float_mode(self, state: SeqState, packet: AtpPacket) -> list[bytes]:
        self.counters["float_fallbacks"] += 1
        state.float_mode = True
        state.counted = 0
        state.total = np.zeros(ELEMENTS, np.float32)
        return [self._float_request(packet)]

    def _float_request(self, packet: AtpPacket) -> bytes:
        self.counters["float_requests"] += 1
        request = packet.copy()
        request.flags = (packet.flags & PS_INDEX_MASK) | FLAG_ACK | FLAG_OVERFLOW
        request.values = np.zeros(ELEMENTS, np.int32)
        request.eth_src = self.mac
        request.eth_dst = BROADCAST_MAC
        return encode(request)

    def _maybe_complete(self, state: SeqState, packet: AtpPacket) -> list[bytes]:
        if state.counted != self.all_workers:
            return []
        param = packet.copy()
        flags = (packet.flags | FLAG_ACK) & ~FLAG_DATA_INDEX & ~FLAG_COLLISION
        if state.float_mode:
            flags |= FLAG_OVERFLOW
            if self.profile.ps_counts_first_float:      # spec: always resend
                flags |= FLAG_RESEND
            param.values = state.total.astype(np.float32).view(np.int32)
        else:
            flags &= ~FLAG_OVERFLOW
            param.values = state.total.astype(np.int32)
        if state.collided:
            flags |= FLAG_COLLISION
            param.tensor_len = self.registry.fresh(packet.agtr)
            self.counters["collision_remaps"] += 1
        if not self.profile.ps_first_unused_index:        # the release (9.10)
            param.bitmap = 1
        param.flags = flags
        param.eth_src = self.mac
        param.eth_dst = BROADCAST_MAC
        state.parameter = encode(param)
        self.counters["parameters"] += 1
        self._forget(packet)
        return [state.parameter]

    # -- state lifetime (section 6, rev. 3) ---------------------------------------------
    def is_straggler(self, seq: int) -> bool:
        """Whether ``seq`` is at or behind the frontier: its state is gone for good."""
        return self.frontier is not None and seq_before_or_at(seq, self.frontier)

    def _forget(self, completed: AtpPacket) -> None:
        if not self.profile.seq_across_tensors:          # 9.7: no safe point
            return
        frontier = seq_add(completed.seq, -self.job.window)
        if self.frontier is not None and seq_diff(self.frontier, frontier) <= 0:
            return
        self.frontier = frontier
        for k in [k for k in self.seqs if seq_before_or_at(k[1], frontier)]:
            del self.seqs[k]

    def deadline(self) -> int | None:
        return None  # the PS only answers; it never times out

    def on_timeout(self, now: int) -> list[bytes]:
        return []

    def result(self, key: int, seq: int) -> SeqResult | None:
        state = self.seqs.get((key, seq))
        if state is None or state.parameter is None:
            return None
        if state.float_mode:
            values = tuple(float(v) for v in state.total.astype(np.float32))
        else:
            values = tuple(int(v) for v in state.total)
        return SeqResult(state.float_mode, values, state.collided)

    def completed(self) -> list[tuple[int, int]]:
        """The (key, seq) whose parameter packet the PS still holds."""
        return [k for k, s in self.seqs.items() if s.parameter is not None]

    def has_completed(self, key: int, seq: int) -> bool:
        """Whether (key, seq) completed: held, or forgotten behind the frontier."""
        state = self.seqs.get((key, seq))
        return (state is not None and state.parameter is not None) or self.is_straggler(seq)

