"""A tagged register read cut into requests that fit one frame each
(``p4sim/switchd/tagged_reads.split_request``), and the parts' answers put together
(``join_answers``): what the driver sends when a segment names more cells than a
1500-byte frame holds."""

from __future__ import annotations

import pytest

from p4sim.switchd import tagged_reads


def _fake_answer(request):
    """A per-group, per-table answer as ``parse_answer`` gives it: one field whose value
    names the table and the index, so the join's order can be checked."""
    return [[((7,), [(table * 100_000 + index,) for index in indices]) for table in tables]
            for _, (tables, indices, _) in request]


@pytest.mark.parametrize("sizes", [(1,), (300,), (1200, 300), (0, 5, 2000), (350, 350)])
def test_every_request_fits_and_the_join_is_the_whole_read(sizes):
    groups = [(list(range(1, 67)), list(range(10 * n, 10 * n + size)), n % 2)
              for n, size in enumerate(sizes)]
    requests = tagged_reads.split_request(groups)
    for request in requests:
        frame = tagged_reads.request_frame([g for _, g in request])
        assert len(frame) <= tagged_reads.REQUEST_BYTES
        assert tagged_reads.parse_request(frame) == [
            (tuple(t), tuple(i), p) for _, (t, i, p) in request]
    whole = tagged_reads.join_answers(requests, [_fake_answer(r) for r in requests],
                                      len(groups))
    assert whole == [[((7,), [(table * 100_000 + index,) for index in indices])
                      for table in tables] for tables, indices, _ in groups]
    if sum(sizes) > 300:
        assert len(requests) > 1, "a read of this size must not fit one frame"


def test_a_group_whose_registers_alone_overflow_a_frame_is_refused():
    with pytest.raises(ValueError, match="do not fit"):
        tagged_reads.split_request([(list(range(400)), [0], 0)])
