"""The switch model as someone drives it by hand: every ingress frame has a verdict
(absorbed / emitted / forwarded / multicast / switched / dropped, with the counter it
bumped), frames of an unconfigured job or ps_index are counted by name, and a route
that would aggregate without ever releasing is rejected when the switch is built."""

from __future__ import annotations

import pytest

from reference_helpers import (
    ACK, COLLISION, MCAST, OVERFLOW, PS_MAC, PS_PORT, RESEND, config, frame, parse, vals,
)
from reference.control_plane import JobRoute, SwitchConfigError
from reference.switch import SwitchModel, SwitchVerdict


def verdict_of(sw, port, f, now=1):
    out, verdict = sw.process_with_verdict(port, f, now)
    assert sw.last_verdict is verdict
    return out, verdict


@pytest.mark.rule("4.7")
def test_absorbed_and_emitted_are_told_apart_by_the_verdict():
    sw = SwitchModel(config())
    out, v = verdict_of(sw, 1, frame(bitmap=1, fan_in=2, values=vals(1)))
    assert out == [] and (v.fate, v.reason) == ("absorbed", "absorbed")
    out, v = verdict_of(sw, 2, frame(bitmap=2, fan_in=2, values=vals(2)), now=2)
    assert len(out) == 1 and (v.fate, v.reason) == ("emitted", "emitted")
    assert parse(out[0][1])["values"][0] == 3


@pytest.mark.rule("4.3")
def test_collision_and_resend_pass_are_forwarded_verdicts():
    sw = SwitchModel(config())
    sw.process(1, frame(app_id=2, bitmap=1, fan_in=2), now=1)
    out, v = verdict_of(sw, 1, frame(bitmap=1, fan_in=2))
    assert (v.fate, v.reason) == ("forwarded", "collisions")
    assert parse(out[0][1])["flags"] & COLLISION
    _, v = verdict_of(sw, 1, frame(bitmap=1, fan_in=2, flags=RESEND))
    assert (v.fate, v.reason) == ("forwarded", "resend_passed")
    _, v = verdict_of(sw, 1, frame(bitmap=1, fan_in=2, flags=OVERFLOW))
    assert (v.fate, v.reason) == ("forwarded", "float_forwarded")


@pytest.mark.rule("4.3")
def test_agtr_outside_the_pool_is_counted_and_named():
    sw = SwitchModel(config(pool_size=16))
    _, v = verdict_of(sw, 1, frame(bitmap=1, fan_in=2, agtr=40))
    assert (v.fate, v.reason) == ("forwarded", "collisions")
    assert "outside the pool" in v.detail and "P=16" in v.detail
    _, v = verdict_of(sw, PS_PORT, frame(flags=ACK, agtr=40))
    assert v.fate == "multicast" and "outside the pool" in v.detail
    assert sw.counters["agtr_outside_pool"] == 2


@pytest.mark.rule("5")
@pytest.mark.parametrize("ack", [0, ACK])
def test_unconfigured_job_and_ps_index_are_dropped_under_named_counters(ack):
    sw = SwitchModel(config())
    out, v = verdict_of(sw, 1, frame(app_id=0x7777, flags=ack))
    assert out == [] and (v.fate, v.reason) == ("dropped", "unknown_job_dropped")
    assert "app_id 30583" in v.detail
    out, v = verdict_of(sw, 1, frame(app_id=1, ps_index=3, flags=ack))
    assert out == [] and (v.fate, v.reason) == ("dropped", "unknown_ps_index_dropped")
    assert "ps_index 3" in v.detail
    assert sw.counters["unknown_job_dropped"] == 1
    assert sw.counters["unknown_ps_index_dropped"] == 1
    assert sw.snapshot() == {"level0": {}, "level1": {}}


@pytest.mark.rule("5")
def test_parameter_packets_and_l2_have_their_verdicts():
    sw = SwitchModel(config())
    p = frame(flags=ACK)
    out, v = verdict_of(sw, PS_PORT, p)
    assert out == [(q, p) for q in MCAST] and v == SwitchVerdict("multicast", "parameters")
    _, v = verdict_of(sw, PS_PORT, frame(flags=ACK | OVERFLOW))
    assert v.reason == "float_requests"
    l2 = PS_MAC + b"\x02\x00\x00\x00\x00\x07\x08\x00" + bytes(30)
    out, v = verdict_of(sw, 1, l2)
    assert out == [(PS_PORT, l2)] and v.fate == "switched"
    out, v = verdict_of(sw, 1, b"\x02\x00\x00\x00\x00\xee" + l2[6:])
    assert out == [] and (v.fate, v.reason) == ("dropped", "l2_dropped")
    assert str(v).startswith("dropped (l2_dropped: no L2 entry")


@pytest.mark.rule("5")
def test_route_that_neither_aggregates_nor_is_upper_is_rejected():
    routes = {(1, 0): JobRoute(to_ps_port=PS_PORT, is_upper=False, local_rack_id=None)}
    with pytest.raises(SwitchConfigError, match=r"app_id 1 ps_index 0.*local_rack_id "
                                                r"is unset.*local_rack_id=0"):
        SwitchModel(config(routes=routes))


@pytest.mark.rule("5")
def test_single_rack_frames_on_a_route_without_local_rack_are_dropped_by_name():
    """An upper-switch route without workers here (local_rack_id unset) would take an
    aggregator for a single-rack frame that no parameter packet releases."""
    routes = {(1, 0): JobRoute(to_ps_port=PS_PORT, is_upper=True, local_rack_id=None)}
    sw = SwitchModel(config(routes=routes, multicast={(1, 0): MCAST}))
    out, v = verdict_of(sw, 1, frame(bitmap=1, fan_in=1, values=vals(3)))
    assert out == [] and (v.fate, v.reason) == ("dropped", "no_local_rack_dropped")
    assert "local_rack_id" in v.detail
    assert sw.occupied == 0 and sw.snapshot()["level0"] == {}


@pytest.mark.rule("5")
def test_pool_too_large_for_agtr_is_rejected():
    with pytest.raises(SwitchConfigError, match="65536"):
        SwitchModel(config(pool_size=0x10001))


@pytest.mark.rule("2")
def test_a_frame_ending_inside_its_atp_layer_is_dropped_by_name():
    """D29: a truncated ATP frame is dropped (a Tofino's parser cannot extract it) and
    touches no aggregator; single-rack and two-level alike."""
    sw = SwitchModel(config())
    whole = frame(bitmap=1, fan_in=1, values=vals(3))
    for cut in (14, 42, 200, len(whole) - 1):       # ethertype only .. one byte short
        out, v = verdict_of(sw, 1, whole[:cut])
        assert out == [] and (v.fate, v.reason) == ("dropped", "malformed_dropped")
        assert f"{cut} bytes" in v.detail
    assert sw.occupied == 0 and sw.snapshot()["level0"] == {}
    out, v = verdict_of(sw, 1, whole)
    assert (v.fate, len(out)) == ("emitted", 1)


@pytest.mark.rule("8")
def test_rack_bit_is_a_bit_of_a_32_bit_word():
    """D29: bitmap1 := 1 << rack_id in 32 bits; a rack id of 32 or more leaves none."""
    assert [SwitchModel.rack_bit(r) for r in (0, 1, 31, 32, 40, 255)] == [
        1, 2, 1 << 31, 0, 0, 0]
