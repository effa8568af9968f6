"""Tagged frames: many frames in flight, each output attributed to its input.

A driver that must keep the switch's per-packet order across ports, yet not wait for
each frame (``fixtures/targets/bfrt_ptf.py``'s pipelined mode), ends every frame with
the *sequenced trailer* ``P4SQ`` + time_ns (8) + queue depth (4) + epoch (2) + seq (4),
big-endian (``--clock trailer`` only; the 16-byte ``P4SC`` trailer of ports.py stays
as it is). The softswitch then

- runs the frames of an epoch in ``seq`` order whatever port they came in on and
  however the kernel interleaved the ports (:class:`Sequencer`); a new epoch starts at
  seq 0 (a driver starts one per batch after a reset);
- ends each output of frame ``seq`` with the *output tag* ``P4SO`` + epoch (2) + seq
  (4) + the output's index (2) + the number of outputs (2), so the driver knows which
  input it belongs to and when it has them all;
- answers a frame with no output by a *done frame* on the ingress port (ethertype
  ``DONE_ETHERTYPE``, payload ``P4SD`` + epoch + seq), not counted in the port's
  statistics.

A gap (a frame lost before the switch) would stall the epoch; after ``GAP_TIMEOUT_S``
the waiting frames run in order anyway, so the driver sees the loss as a missing answer.
A real Tofino has none of this; only the softswitch target uses it.
"""

from __future__ import annotations

import struct
import time
from typing import Iterator

SEQ_MAGIC = b"P4SQ"
SEQ_TRAILER = struct.Struct("!4sQIHI")
OUT_MAGIC = b"P4SO"
OUT_TAG = struct.Struct("!4sHIHH")
DONE_MAGIC = b"P4SD"
DONE_ETHERTYPE = 0x88B5                 # IEEE local experimental
DONE = struct.Struct("!6s6sH4sHI")
GAP_TIMEOUT_S = 1.0


def sequenced(frame: bytes, time_ns: int, depth: int, epoch: int, seq: int) -> bytes:
    return frame + SEQ_TRAILER.pack(SEQ_MAGIC, time_ns, depth, epoch, seq)


def split_sequenced(buf, n: int):
    """(length without trailer, time_ns, depth, epoch, seq), or None if untagged."""
    size = SEQ_TRAILER.size
    if n < size or bytes(buf[n - size:n - size + 4]) != SEQ_MAGIC:
        return None
    _, ts, depth, epoch, seq = SEQ_TRAILER.unpack_from(buf, n - size)
    return n - size, ts, depth, epoch, seq


def tag_output(frame: bytes, epoch: int, seq: int, index: int, count: int) -> bytes:
    return frame + OUT_TAG.pack(OUT_MAGIC, epoch, seq, index, count)


def done_frame(epoch: int, seq: int) -> bytes:
    return DONE.pack(b"\0" * 6, b"\0" * 6, DONE_ETHERTYPE, DONE_MAGIC, epoch, seq)


def read_answer(frame: bytes):
    """What a frame from a tagging switch answers: ``("out", epoch, seq, index, count,
    untagged frame)``, ``("done", epoch, seq)``, or None (an untagged frame)."""
    if len(frame) == DONE.size and frame[12:14] == DONE_ETHERTYPE.to_bytes(2, "big") \
            and frame[14:18] == DONE_MAGIC:
        _, _, _, _, epoch, seq = DONE.unpack(frame)
        return ("done", epoch, seq)
    size = OUT_TAG.size
    if len(frame) >= size and frame[-size:-size + 4] == OUT_MAGIC:
        _, epoch, seq, index, count = OUT_TAG.unpack_from(frame, len(frame) - size)
        return ("out", epoch, seq, index, count, frame[:-size])
    return None


class Sequencer:
    """Releases the tagged frames of the current epoch in seq order."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.epoch: int | None = None
        self.next_seq = 0
        self.waiting: dict[int, tuple] = {}
        self._since = 0.0

    def offer(self, epoch: int, seq: int, item: tuple) -> Iterator[tuple]:
        """Frames ready to run after ``item`` (epoch ``epoch``, number ``seq``) came in."""
        if epoch != self.epoch:
            yield from self.flush()
            self.epoch, self.next_seq = epoch, 0
        if seq < self.next_seq:             # a duplicate or a late straggler: run it now
            yield item
            return
        if not self.waiting:
            self._since = self.clock()
        self.waiting[seq] = item
        yield from self._release()

    def _release(self) -> Iterator[tuple]:
        while self.next_seq in self.waiting:
            yield self.waiting.pop(self.next_seq)
            self.next_seq += 1
            self._since = self.clock()

    def expire(self) -> Iterator[tuple]:
        """After a gap older than GAP_TIMEOUT_S, the waiting frames in order."""
        if self.waiting and self.clock() - self._since > GAP_TIMEOUT_S:
            yield from self.flush()

    def flush(self) -> Iterator[tuple]:
        for seq in sorted(self.waiting):
            self.next_seq = seq + 1
            yield self.waiting.pop(seq)
