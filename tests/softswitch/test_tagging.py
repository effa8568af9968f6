"""The softswitch's tags (p4sim/switchd/tagging.py): frames run in the driver's order
whatever order they arrive in, outputs and done frames name their input."""
from __future__ import annotations

from p4sim.switchd.tagging import (GAP_TIMEOUT_S, Sequencer, done_frame, read_answer,
                                   sequenced, split_sequenced, tag_output)


def test_frames_are_released_in_seq_order_across_arrivals():
    seq = Sequencer()
    assert list(seq.offer(1, 2, "c")) == []
    assert list(seq.offer(1, 1, "b")) == []
    assert list(seq.offer(1, 0, "a")) == ["a", "b", "c"]
    assert list(seq.offer(1, 3, "d")) == ["d"]


def test_a_new_epoch_runs_what_waited_and_starts_at_zero():
    seq = Sequencer()
    assert list(seq.offer(1, 1, "late")) == []
    assert list(seq.offer(2, 1, "y")) == ["late"]
    assert list(seq.offer(2, 0, "x")) == ["x", "y"]


def test_a_gap_is_given_up_after_the_timeout():
    now = [0.0]
    seq = Sequencer(clock=lambda: now[0])
    assert list(seq.offer(1, 1, "b")) == []
    assert list(seq.expire()) == []
    now[0] += GAP_TIMEOUT_S + 0.1
    assert list(seq.expire()) == ["b"]
    assert list(seq.offer(1, 2, "c")) == ["c"]


def test_trailers_round_trip_and_untagged_frames_are_not_answers():
    frame = bytes(range(64))
    buf = bytearray(sequenced(frame, 123, 7, 5, 99))
    assert split_sequenced(buf, len(buf)) == (64, 123, 7, 5, 99)
    assert split_sequenced(bytearray(frame), 64) is None
    assert read_answer(tag_output(frame, 5, 99, 1, 2)) == ("out", 5, 99, 1, 2, frame)
    assert read_answer(done_frame(5, 99)) == ("done", 5, 99)
    assert read_answer(frame) is None
