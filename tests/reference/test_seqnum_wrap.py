"""``reference.seqnum``'s wrap count and predicate (issue 35, item 4: the one owner of
"this job crosses the wrap", which generators, their tests and benchmarks ask)."""

from __future__ import annotations

import pytest

from reference.seqnum import crosses_wrap, nth_seq, seq_wraps


@pytest.mark.parametrize("first,packets,wraps", [
    (1, 1, 0), (1, 65535, 0), (1, 65536, 1),            # seq 1..65535, then 1 again
    (65535, 1, 0), (65535, 2, 1),                       # 65535, then 1
    (65436, 100, 0), (65436, 101, 1), (65436, 65636, 2),
])
def test_a_job_crosses_the_wrap_when_a_packet_after_65535_is_sent(first, packets, wraps):
    assert seq_wraps(first, packets) == wraps
    assert crosses_wrap(first, packets) == (wraps > 0)
    # the same thing said by the wire seqs: some packet's seq is below the one before it
    seqs = [nth_seq(first, n) for n in range(1, min(packets, 70_000) + 1)]
    assert crosses_wrap(first, packets) == any(b < a for a, b in zip(seqs, seqs[1:]))
