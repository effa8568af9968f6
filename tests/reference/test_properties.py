"""Spec section 10, checked on the switch alone with hypothesis: at every moment an
aggregator's values equal the sum of the contributions of the workers in its bitmap, each
counted once, and every frame that leaves for the PS carries exactly the sum of the
workers in its bitmap."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_helpers import ACK, PS_PORT, RESEND, config, frame, parse, vals
from reference.switch import SwitchModel

N = 4
CONTRIB = [vals(*[(w + 1) * 1000 + i for i in range(62)]) for w in range(N)]

steps = st.lists(
    st.one_of(
        st.tuples(st.just("grad"), st.integers(0, N - 1), st.booleans()),
        st.tuples(st.just("param"), st.just(0), st.just(False))),
    min_size=1, max_size=40)


def expected_sum(bitmap):
    return [sum(int(CONTRIB[w][i]) for w in range(N) if bitmap >> w & 1) for i in range(62)]


@pytest.mark.rule("10")
@settings(max_examples=150, deadline=None)
@given(steps)
def test_aggregator_holds_exactly_the_workers_in_its_bitmap(script):
    sw = SwitchModel(config())
    for t, (kind, w, resend) in enumerate(script, start=1):
        if kind == "grad":
            f = frame(bitmap=1 << w, fan_in=N, values=CONTRIB[w],
                      flags=RESEND if resend else 0)
            out = sw.process(1 + w % 3, f, now=t)
            for port, data in out:
                assert port == PS_PORT
                got = parse(data)
                assert got["values"] == expected_sum(got["bitmap"])
                assert got["collision"] == 0
        else:
            sw.process(PS_PORT, frame(flags=ACK, bitmap=(1 << N) - 1, fan_in=N), now=t)
        r = sw.read_aggregators([5])[5]
        if r.owner:
            assert r.owner == 1 << 16 | 1
            assert r.bitmap != 0
            assert list(r.values) == expected_sum(r.bitmap)
            assert r.count == bin(r.bitmap).count("1")   # single-worker packets
        else:
            assert r.bitmap == 0 and r.count == 0
