"""seq arithmetic on the ring 1..65535 (spec sections 1 and 6): the one owner of it.

seq counts a job's packets from its first seq and wraps from 65535 to 1 (0 is never
used). Comparisons are serial-number arithmetic in the style of RFC 1982 over half the
ring: ``b`` is *after* ``a`` when it is 1..32767 steps ahead of it, *before* when it is
32768..65534 steps ahead (that is, 1..32767 behind). The ring has an odd size, so unlike
RFC 1982 no pair of distinct seqs is left undefined (decision; the spec says "half the
ring"). The worker, the PS, the host stack and the checkers all call these functions
instead of computing modulo 65535 themselves.
"""

from __future__ import annotations

SEQ_RING = 0xFFFF               # seqs 1..65535
SEQ_HALF = SEQ_RING // 2        # 32767: the farthest a seq can be ahead of another


def seq_add(seq: int, n: int) -> int:
    """The seq ``n`` packets after ``seq`` (``n`` may be negative), wrapping 65535 -> 1."""
    return (seq - 1 + n) % SEQ_RING + 1


def seq_diff(a: int, b: int) -> int:
    """How far ``b`` is ahead of ``a`` in serial arithmetic: in -32767..32767
    (negative when ``b`` is before ``a``)."""
    d = (b - a) % SEQ_RING
    return d if d <= SEQ_HALF else d - SEQ_RING


def seq_before_or_at(a: int, b: int) -> bool:
    """Whether ``a`` is at or behind ``b`` (serial arithmetic)."""
    return seq_diff(a, b) >= 0


def nth_seq(first: int, n: int) -> int:
    """The wire seq of a job's ``n``-th packet (``n`` from 1) when its first is ``first``."""
    return seq_add(first, n - 1)


def packet_index(first: int, seq: int) -> int:
    """The inverse of :func:`nth_seq` within one lap: ``n`` in 1..65535 with
    ``nth_seq(first, n) == seq``."""
    return (seq - first) % SEQ_RING + 1


def seq_wraps(first: int, packets: int) -> int:
    """How many times seq goes from 65535 to 1 over a job's first ``packets`` packets
    when its first seq is ``first``."""
    return (first - 1 + packets - 1) // SEQ_RING


def crosses_wrap(first: int, packets: int) -> bool:
    """Whether a job of ``packets`` packets from seq ``first`` goes from 65535 to 1 on
    the way: the long jobs of spec 10.8 that generators aim for and reports count."""
    return seq_wraps(first, packets) > 0
