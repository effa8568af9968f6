"""One worker of one job (spec section 7): windowing, loss recovery, collision remap,
float requests and the optional AIMD window.

Decisions where the spec is silent:
- Tensors go one after another in the job's order (and, for a long job, again in every
  iteration); the next starts once every seq of the current one has its parameter
  packet. The job's first packet has seq ``job.first_seq`` (1 unless a test starts the
  job elsewhere on the ring; section 10). Under the release's per-tensor seq (9.7)
  every tensor starts at that first seq.
- **seq continues across a job's tensors** (spec section 1: the k-th packet of the job
  has seq ``nth_seq(first_seq, k)``, wrapping 65535 -> 1). The release restarts it at 1 for every tensor (9.7,
  profile switch ``seq_across_tensors``): then a straggler of the previous tensor (a
  delayed duplicate or resend of its seq ``s``) carries the same owner word
  ``app_id << 16 | s`` as seq ``s`` of the next tensor and is merged into that
  aggregator, corrupting its sum (hypothesis found this:
  fixtures/corpus/counterexamples/stale_straggler_next_tensor*.json). Continuing seqs
  make owner words unique for 65535 packets. A packet's slot is
  ``reference.placement.slot_of`` of its position (its seq before wrapping: consecutive
  packets take consecutive slots across the wrap too; decision D26).
- The window slides (section 7, rev. 3; the release's ``last_ACK + window``): with
  ``A`` the highest seq of the tensor such that it and every seq before it have their
  parameter packet, seq ``t`` goes out only when ``t <= A + w``. ``w`` is S without
  congestion control and ``min(S, cwnd // 308)`` with it (more than S in flight would
  make ``seq`` and ``seq + S`` share an aggregator). New seqs go out only when ``A``
  moves (at start, ``A`` is the seq before the tensor's first): a parameter packet that
  fills no hole at the front lets out nothing, even when AIMD grew the window (the spec:
  "a parameter packet that does not move A lets out nothing"). Since tensors go one
  after another, ``A`` never lags into the previous tensor.
  The AIMD window boundary is the highest seq sent when the last adjustment happened.
- The timer: 50 ms before the first packet of the job arrives, 200 µs after; any frame of
  the job restarts it; on expiry every sent, unacknowledged seq is resent. Both are
  constructor arguments (the spec's values by default): the host stack drives this
  class with real time, where a Python process's round trip over veths is longer than
  200 µs and the spec's value would resend every window.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from reference.host_order import key_on_wire
from reference.placement import slot_of
from reference.profiles import Profile
from reference.seqnum import nth_seq, packet_index
from reference.quantize import bits_float, dequantize, float_bits, needs_float_mode, quantize
from reference.topology import Job, JobLayout
from reference.wire import (
    ELEMENTS, FLAG_ACK, FLAG_COLLISION, FLAG_ECN, FLAG_OVERFLOW, FLAG_RESEND, FRAME_LEN,
    PS_INDEX_SHIFT, AtpPacket, Shim, decode, default_ipv4, encode,
)

START_TIMEOUT_NS = 50_000_000
TIMEOUT_NS = 200_000
CWND_MIN = FRAME_LEN
CWND_MAX = 100 * FRAME_LEN
CWND_STEP = 1500


@dataclass
class SeqOutcome:
    """What the worker received for one seq: the aggregate, as on the wire."""

    float_mode: bool
    raw: np.ndarray                # int32 aggregate, or float32 values in float mode
    ecn: bool


@dataclass
class TensorProgress:
    key: int
    length: int
    data: np.ndarray               # this worker's gradient, float32 [length]
    packets: int
    base: int = 0                  # packets of the job's earlier tensors
    next_seq: int = 1
    ack_front: int = 0             # A: every seq 1..ack_front has its parameter packet
    sent: set[int] = field(default_factory=set)
    acked: dict[int, SeqOutcome] = field(default_factory=dict)
    hole_resent: set[int] = field(default_factory=set)
    float_seqs: set[int] = field(default_factory=set)

    def unacked_sent(self) -> list[int]:
        """Sent seqs without a parameter packet: all lie between ``A`` and the next
        seq (the sliding window), so this looks at S seqs at most, not the tensor."""
        return [s for s in range(self.ack_front + 1, self.next_seq)
                if s in self.sent and s not in self.acked]

    def position(self, s: int) -> int:
        """This tensor's ``s``-th packet's seq before wrapping (its slot's input, D26)."""
        return self.base + s

    def wire_seq(self, s: int) -> int:
        """The seq on the wire of this tensor's ``s``-th packet (see module docstring)."""
        return nth_seq(1, self.position(s))

    def local_seq(self, wire: int) -> int:
        return packet_index(nth_seq(1, self.base + 1), wire)

    def advance_ack_front(self) -> bool:
        """Move ``A`` over the acknowledged seqs at the front; whether it moved."""
        before = self.ack_front
        while self.ack_front + 1 in self.acked:
            self.ack_front += 1
        return self.ack_front != before


class Worker:
    def __init__(self, job: Job, w: int, layout: JobLayout, mac: bytes,
                 ps_macs: list[bytes], slot_table: list[int], pool_size: int,
                 tensors: list[tuple[int, np.ndarray]], profile: Profile, *,
                 timeout_ns: int = TIMEOUT_NS, start_timeout_ns: int = START_TIMEOUT_NS,
                 keep_outcomes: bool = True):
        self.job = job
        self.timeout_ns = timeout_ns
        self.start_timeout_ns = start_timeout_ns
        self.w = w
        self.layout = layout
        self.mac = mac
        self.ps_macs = ps_macs
        self.slots = list(slot_table)
        self.pool_size = pool_size
        self.profile = profile
        self.bit = layout.worker_bit(w)
        self.fan_in = layout.worker_fan_in(w)
        self.ipv4 = default_ipv4(layout.two_level)
        self.queue = [(key, data) for key, data in tensors]
        self.done: dict[int, TensorProgress] = {}      # key -> its latest push
        # key -> the outcome of every seq of every push of it, in push order; a worker
        # that trains for hours (host_stack.api) keeps only ``done``
        self.keep_outcomes = keep_outcomes
        self.outcomes: dict[int, list[SeqOutcome]] = {}
        self.current: TensorProgress | None = None
        self.seq_base = 0
        self.cwnd = job.window * FRAME_LEN
        self.cc_boundary = 0
        self.cc_ecn_seen = False
        self.heard_anything = False
        self.last_heard = 0
        self.counters: Counter[str] = Counter()
        self.killed = False

    # -- lifecycle --------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.current is None and not self.queue

    def start(self, now: int) -> list[bytes]:
        self.last_heard = now
        return self._next_tensor()

    def _next_tensor(self) -> list[bytes]:
        out: list[bytes] = []
        while self.queue:
            key, data = self.queue.pop(0)
            packets = -(-len(data) // ELEMENTS)
            base = self.job.first_seq - 1 + (
                self.seq_base if self.profile.seq_across_tensors else 0)      # 9.7
            self.current = TensorProgress(key, len(data), data, packets, base)
            self.seq_base += packets
            out += self._send_new()
            if out:
                return out
        self.current = None
        return out

    def window(self) -> int:
        if not self.job.congestion_control:
            return self.job.window
        return max(1, min(self.job.window, self.cwnd // FRAME_LEN))

    def _send_new(self) -> list[bytes]:
        """Send every new seq the sliding window admits: ``t <= A + w`` (section 7)."""
        t = self.current
        out = []
        limit = min(t.packets, t.ack_front + self.window())
        while t.next_seq <= limit:
            out.append(self._frame(t.next_seq, resend=False))
            t.sent.add(t.next_seq)
            t.next_seq += 1
        if self.job.congestion_control and not self.cc_boundary:
            self.cc_boundary = t.next_seq - 1
        return out

    # -- building packets -------------------------------------------------------------
    def _frame(self, s: int, resend: bool) -> bytes:
        t = self.current
        chunk = t.data[(s - 1) * ELEMENTS:s * ELEMENTS]
        if len(chunk) < ELEMENTS:
            chunk = np.concatenate([chunk, np.zeros(ELEMENTS - len(chunk), np.float32)])
        ps_index = self.job.ps_index_of(t.key)
        flags = ps_index << PS_INDEX_SHIFT
        if resend:
            flags |= FLAG_RESEND
            self.counters["resends"] += 1
        float_mode = s in t.float_seqs or needs_float_mode(
            chunk, self.job.scale, self.job.effective_threshold)
        if float_mode:
            flags |= FLAG_OVERFLOW
            values = float_bits(chunk)
            self.counters["float_packets"] += 1
        else:
            values = quantize(chunk, self.job.scale)
        seq = t.wire_seq(s)
        agtr = self.slots[slot_of(t.position(s), self.job.window)]
        shim = None
        if self.layout.two_level:
            shim = Shim(0, self.layout.rack_count, 0, self.layout.rack_id_of_worker[self.w], 0)
        packet = AtpPacket(
            eth_dst=self.ps_macs[ps_index], eth_src=self.mac, ipv4=self.ipv4, shim=shim,
            bitmap=self.bit, fan_in=self.fan_in, flags=flags, app_id=self.job.app_id,
            seq=seq, agtr=agtr, agtr2=(agtr + self.pool_size) & 0xFFFF, values=values,
            key=key_on_wire(t.key, self.profile), tensor_len=t.length)
        self.counters["sent"] += 1
        return encode(packet)

    # -- receiving --------------------------------------------------------------------
    def on_frame(self, frame: bytes, now: int) -> list[bytes]:
        packet = decode(frame)
        if self.killed or packet.app_id != self.job.app_id or not packet.flags & FLAG_ACK:
            return []
        self.heard_anything = True
        self.last_heard = now
        t = self.current
        if t is None or key_on_wire(packet.key, self.profile) != t.key:
            self.counters["stale_ignored"] += 1
            return []
        s = t.local_seq(packet.seq)
        if packet.flags & FLAG_OVERFLOW and not packet.flags & FLAG_RESEND:
            return self._float_request(s)
        if s in t.acked or s not in t.sent:
            self.counters["duplicate_parameters"] += 1
            return []
        return self._parameter(packet, s)

    def _float_request(self, s: int) -> list[bytes]:
        t = self.current
        if s in t.acked or s not in t.sent:
            return []
        t.float_seqs.add(s)
        self.counters["float_requests"] += 1
        if self.profile.worker_resends_on_float_request:
            return [self._frame(s, resend=True)]
        return []

    def _parameter(self, packet: AtpPacket, s: int) -> list[bytes]:
        t = self.current
        float_mode = bool(packet.flags & FLAG_OVERFLOW)
        raw = (bits_float(packet.values) if float_mode
               else packet.values.copy())
        ecn = bool(packet.flags & FLAG_ECN)
        t.acked[s] = SeqOutcome(float_mode, raw, ecn)
        if packet.flags & FLAG_COLLISION:
            self.slots[slot_of(t.position(s), self.job.window)] = packet.tensor_len
            self.counters["remaps"] += 1
        out: list[bytes] = []
        # every unacknowledged seq lies after A, so only s > A + 1 can leave holes
        holes = [h for h in range(t.ack_front + 1, s) if h in t.sent
                 and h not in t.acked and h not in t.hole_resent]
        for h in holes:
            t.hole_resent.add(h)
            self.counters["hole_resends"] += 1
            out.append(self._frame(h, resend=True))
        moved = t.advance_ack_front()
        if self.job.congestion_control:
            self._aimd(s, ecn)
        if moved:
            out += self._send_new()
        if len(t.acked) == t.packets:
            self.done[t.key] = t
            if self.keep_outcomes:
                self.outcomes.setdefault(t.key, []).extend(
                    t.acked[s] for s in range(1, t.packets + 1))
            self.current = None
            out += self._next_tensor()
        return out

    def _aimd(self, s: int, ecn: bool) -> None:
        self.cc_ecn_seen |= ecn
        if s < self.cc_boundary:
            return
        if self.cc_ecn_seen:
            self.cwnd //= 2
            self.counters["window_halved"] += 1
        else:
            self.cwnd += CWND_STEP
        self.cwnd = max(CWND_MIN, min(CWND_MAX, self.cwnd))
        self.cwnd -= self.cwnd % FRAME_LEN
        self.cc_ecn_seen = False
        self.cc_boundary = self.current.next_seq - 1 + self.window()

    # -- the timer ------------------------------------------------------------------
    def deadline(self) -> int | None:
        if self.killed or self.current is None:
            return None
        timeout = self.timeout_ns if self.heard_anything else self.start_timeout_ns
        return self.last_heard + timeout

    def on_timeout(self, now: int) -> list[bytes]:
        deadline = self.deadline()
        if deadline is None or now < deadline:
            return []
        self.last_heard = now
        self.counters["timeouts"] += 1
        out = []
        for s in self.current.unacked_sent():
            self.counters["timeout_resends"] += 1
            out.append(self._frame(s, resend=True))
        return out

    # -- results ----------------------------------------------------------------------
    def tensor_result(self, key: int) -> np.ndarray | None:
        """The dequantized (or float) result of a finished tensor (its latest push),
        float64 [length]."""
        t = self.done.get(key)
        if t is None:
            return None
        parts = []
        for s in range(1, t.packets + 1):
            outcome = t.acked[s]
            parts.append(outcome.raw.astype(np.float64) if outcome.float_mode
                         else dequantize(outcome.raw, self.job.scale))
        return np.concatenate(parts)[:t.length]
