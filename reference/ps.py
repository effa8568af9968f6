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
- **State lifetime** (section 6, rev. 3 and rev. 4's frontier freshness): the PS forgets
  all of its state at or behind the *frontier* (serial arithmetic,
  :mod:`reference.seqnum`); the frontier only moves forward. A later packet at or behind
  it is a straggler: counted in ``stragglers``, nothing counted, no state made, nothing
  sent. The frontier is per PS (one ps_index of one job): a PS knows only the seqs of
  its own keys, and every seq at or behind another PS's frontier is acknowledged by
  every worker as well, so it only lets that PS keep a little longer what it could
  forget.
- **Where the frontier moves** (decision; docs/protocol.md D28). Rev. 4 (a) moves it to
  ``t - S`` on every fresh packet ``t``. Taken literally that loses liveness: a packet
  that reaches the PS with only *some* workers in it (a collided or float-mode packet,
  a partial resend flush, every packet on a fabric without aggregation) proves only
  that *those* workers hold the answers at or behind ``t - S``; a worker whose
  parameter packet for ``s <= t - S`` was lost resends ``s``, finds it behind the
  frontier, is dropped as a straggler, and the job hangs (the hand-worked test
  ``test_6_partial_packet_does_not_forget_what_another_worker_lacks``). So the PS keeps,
  per worker, the latest seq it has seen that worker send (a packet's contributors,
  section 8 for two-level frames, sent its seq), and the frontier becomes the later of
  itself and ``m - S``, ``m`` the earliest of those marks once every worker has one.
  A packet carrying every worker (a completion, a complete aggregate) gives exactly
  rev. 4's ``t - S``; a completion gives rev. 3's rule. Before every worker has a
  mark there is no frontier (a job may start at any seq).
- **T_stale** (rev. 4 (b)): a PS that has received no fresh packet of its job for
  ``t_stale_ns`` (default :data:`DEFAULT_T_STALE_NS`) forgets the job's state,
  its frontier and its marks before it judges the next packet, so a frontier made stale
  by a long idle (the job sent more than 32767 - S packets to its other PSes) costs at
  most ``T_stale`` of dropped packets. "For T_stale" is ``now - last_fresh >= t_stale_ns``
  (decision). T_stale must exceed the longest time a frame can stay in the network
  *and* the longest interval between a worker's resends of a seq it lacks (decision
  D28): otherwise the PS forgets a completed seq whose parameter packet one worker
  lost, that worker's resend finds no state, and the seq never completes again (the
  other workers have their answer and never resend; the hand-worked scenario
  ``test_t_stale_below_the_start_timeout_loses_a_late_resend``). The spec's default,
  10 ms, is below section 7's start timeout (50 ms before a worker has heard
  anything), so the reference's default is 100 ms; a scenario sets its own
  (``Scenario.t_stale_ns``), and the host stack's PS, whose workers back off up to
  1 s, has its own (``host_stack.roles.HOST_T_STALE_NS``). Also, a PS idle for almost
  exactly a lap (65535 - 2S to 65535 packets) in less than T_stale meets its own old
  seqs *ahead* of its stale frontier: nothing in a seq tells laps apart, so the
  multi-PS scenarios keep clear of such idles (a bound like the long-jobs property's
  on delays).
- Under the release's per-tensor seq (9.7) the PS has no safe point to forget: a seq
  frontier would take the next tensor's seq 1 for a straggler, and forgetting a tensor
  once all its seqs completed loses the answer to the resend of a worker whose
  parameter packet was lost (the job never finishes; the release-profile suite found
  it). So under 9.7 the PS keeps its state as before rev. 3 (no frontier, no marks, no
  T_stale), and a key pushed again meets it: part of 9.7's cross-tensor
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


# T_stale (section 6, rev. 4): see the module docstring for why not the spec's 10 ms
DEFAULT_T_STALE_NS = 100_000_000


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
                 profile: Profile, registry: IndexRegistry,
                 t_stale_ns: int = DEFAULT_T_STALE_NS):
        self.job = job
        self.ps_index = ps_index
        self.layout = layout
        self.mac = mac
        self.profile = profile
        self.registry = registry
        self.t_stale_ns = t_stale_ns
        self.all_workers = (1 << job.fan_in) - 1
        self.seqs: dict[tuple[int, int], SeqState] = {}
        self._keys_at: dict[int, set[int]] = {}    # seq -> keys with state (forgetting)
        self.frontier: int | None = None     # state at or behind it is forgotten
        # worker -> the latest seq this PS has seen it send (where the frontier may go)
        self.marks: list[int | None] = [None] * job.fan_in
        self.last_fresh: int | None = None   # when the last fresh packet arrived
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
        contrib = self.contributors(packet)
        if self._judge(packet, contrib, now):
            self.counters["stragglers"] += 1
            return []
        key = key_on_wire(packet.key, self.profile)
        state = self._state(key, packet.seq)
        if state.parameter is not None:                  # duplicate after completion
            self.counters["parameters_resent"] += 1
            return [state.parameter]
        if packet.flags & FLAG_COLLISION:
            state.collided = True
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
        return [state.parameter]

    # -- state lifetime (section 6, rev. 3 and rev. 4) ----------------------------------
    def _judge(self, packet: AtpPacket, contrib: int, now: int) -> bool:
        """Whether ``packet`` (carrying the workers ``contrib``) is a straggler; if not,
        it is fresh and moves the frontier (6.6, 6.7). T_stale is checked first: a
        frontier older than that is not used to judge. Under 9.7 nothing is judged."""
        if not self.profile.seq_across_tensors:
            return False
        if self.last_fresh is not None and now - self.last_fresh >= self.t_stale_ns:
            self._forget_job()
        if self.is_straggler(packet.seq):
            return True
        self.last_fresh = now
        self._mark(contrib, packet.seq)
        return False

    def is_straggler(self, seq: int) -> bool:
        """Whether ``seq`` is at or behind the frontier: its state is gone for good."""
        return self.frontier is not None and seq_before_or_at(seq, self.frontier)

    def _state(self, key: int, seq: int) -> SeqState:
        state = self.seqs.get((key, seq))
        if state is None:
            state = self.seqs[(key, seq)] = SeqState()
            self._keys_at.setdefault(seq, set()).add(key)
        return state

    def _mark(self, contrib: int, seq: int) -> None:
        """The workers in ``contrib`` sent ``seq``: each holds the parameter packet of
        every seq at or behind ``seq - S`` (section 7's window); once every worker has a
        mark, everything at or behind the earliest mark minus S is answered everywhere."""
        marks = self.marks
        for w in range(len(marks)):
            if contrib >> w & 1:
                mark = marks[w]
                if mark is None or seq_diff(mark, seq) > 0:
                    marks[w] = seq
        if None in marks:
            return
        earliest = marks[0]
        for mark in marks[1:]:
            if seq_diff(earliest, mark) < 0:
                earliest = mark
        self._advance(seq_add(earliest, -self.job.window))

    def _advance(self, frontier: int) -> None:
        """Move the frontier to ``frontier`` if that is later, forgetting what it passes
        (by walking the passed seqs, or all state when that is shorter)."""
        old = self.frontier
        if old is not None and seq_diff(old, frontier) <= 0:
            return
        self.frontier = frontier
        if old is not None and seq_diff(old, frontier) < len(self._keys_at):
            passed = [seq_add(old, i) for i in range(1, seq_diff(old, frontier) + 1)]
        else:
            passed = [seq for seq in self._keys_at if seq_before_or_at(seq, frontier)]
        for seq in passed:
            for key in self._keys_at.pop(seq, ()):
                del self.seqs[(key, seq)]

    def _forget_job(self) -> None:
        """T_stale passed without a fresh packet: the frontier may be stale (serial
        comparison with it is then meaningless), so all of it goes."""
        self.counters["stale_forgets"] += 1
        self.seqs.clear()
        self._keys_at.clear()
        self.frontier = None
        self.marks = [None] * self.job.fan_in
        self.last_fresh = None

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

