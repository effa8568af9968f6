"""The comparator's report on a trace that does not match what the target did: what a
person reads first when a regression appears."""

from __future__ import annotations

import re

import pytest

from corpus_helpers import trace_dict
from atp_fixtures.evidence.text import describe_frame
from atp_fixtures.oracles.comparator import compare
from atp_fixtures.evidence.trace import EgressPacket, Observed, trace_from_dict
from atp_fixtures.running.replay import replay
from atp_fixtures.targets import open_target

ECN = "rule-4.1-ecn-from-ipv4"
PARAM = "rule-5-parameter-release"


def run(data, switch="tor0", edit_observed=None):
    trace = trace_from_dict(data, "<test>")
    sw = trace.switches[switch]
    target = open_target("reference")
    observed = replay(sw, target, trace.profile)
    if edit_observed is not None:
        edit_observed(observed)
    return compare(sw, observed)


def tor0(data):
    return data["switches"]["tor0"]


def test_unchanged_trace_matches():
    comparison = run(trace_dict(ECN))
    assert comparison.ok and comparison.first is None
    assert comparison.report() == ("switch tor0: 4 ingress packets, 3 frames expected, 3 "
                                   "observed; all frames match; registers match")


def test_changed_flag_differs_by_flag_name():
    data = trace_dict(ECN)
    tor0(data)["egress"][0]["packet"]["flags"] = "ecn|collision"
    comparison = run(data)
    assert not comparison.ok
    [m] = comparison.mismatches
    assert (m.kind, m.port, m.position) == ("differs", 9, 0)
    assert [d.field for d in m.fields] == ["flags"]
    report = comparison.report()
    assert report.splitlines()[0].endswith(
        "1 differing, 0 missing, 0 extra; 0 register difference(s)")
    assert "first divergence: DIFFERS port 9 frame #1, after ingress #1 (port 2 at 20 ns: " \
           "gradient app 1 seq 1 bitmap 0x2 agtr 5 flags -)" in report
    assert re.search(r"flags\s+expected ecn\|collision\s+observed ecn$", report, re.M), report


def test_the_lockstep_renders_a_mismatch_as_the_comparator_does():
    """One renderer of MISSING / EXTRA / DIFFERS lines: the lockstep's report shows the
    comparator's frame mismatch with the same frames and fields, its sides named."""
    from atp_fixtures.evidence.divergence import Divergence
    data = trace_dict(ECN)
    tor0(data)["egress"][0]["packet"]["flags"] = "ecn|collision"
    del tor0(data)["egress"][1]
    comparison = run(data)
    differs, extra = sorted(comparison.mismatches, key=lambda m: m.kind)
    assert (differs.kind, extra.kind) == ("differs", "extra")
    ingress = comparison.trace.ingress[1]
    report = Divergence("tor0", 1, ingress.port, ingress.time_ns, 0, ingress.frame,
                        [differs, extra]).report().splitlines()
    expected, observed = (describe_frame(p.frame) for p in (differs.expected,
                                                            differs.observed))
    assert (f"DIFFERS on port 9: the reference emits {expected}; the target emits "
            f"{observed}") in report
    assert any(re.fullmatch(r"    flags\s+expected ecn\|collision\s+observed ecn", line)
               for line in report), report
    assert (f"EXTRA on port 9: the target emits {describe_frame(extra.observed.frame)}"
            in report)
    assert sum(line.startswith(("DIFFERS ", "EXTRA ", "MISSING ")) for line in report) == 2


def test_missing_frame_names_the_port():
    """The target did not emit a frame the trace expects."""
    data = trace_dict(PARAM)

    def drop_first_on_port_1(observed: Observed):
        first = next(i for i, p in enumerate(observed.egress) if p.port == 1)
        del observed.egress[first]

    comparison = run(data, edit_observed=drop_first_on_port_1)
    [m] = comparison.mismatches          # per-port alignment: no cascade on port 1
    assert (m.kind, m.port, m.position) == ("missing", 1, 0)
    assert "first divergence: MISSING port 1 frame #1, after ingress #3 (port 9 at 40 ns: " \
           "parameter app 1 seq 1 bitmap 0x3 agtr 5 flags ecn|ack): expected parameter " \
           "app 1 seq 1 bitmap 0x3 agtr 5 flags ecn|ack" in comparison.report()


def test_expected_frame_the_target_does_not_send_is_missing():
    data = trace_dict(ECN)
    extra = dict(tor0(data)["egress"][1], port=3)
    tor0(data)["egress"].append(extra)
    comparison = run(data)
    [m] = comparison.mismatches
    assert (m.kind, m.port) == ("missing", 3)
    assert "MISSING port 3 frame #1, after ingress #2" in comparison.report()


def test_extra_frame():
    data = trace_dict(ECN)
    del tor0(data)["egress"][1]                 # the target sends it, the trace does not
    comparison = run(data)
    [m] = comparison.mismatches
    assert (m.kind, m.port, m.position) == ("extra", 9, 1)
    assert m.cause == 2
    assert ("first divergence: EXTRA port 9 frame #2, after ingress #2 (port 1 at 30 ns: "
            "gradient app 1 seq 2 bitmap 0x1 agtr 6 flags -): observed gradient app 1 seq 2 "
            "bitmap 0x1 agtr 6 flags -") in comparison.report()


def test_extra_frame_injected_into_observed():
    data = trace_dict(ECN)

    def add(observed: Observed):
        observed.egress.append(EgressPacket(7, observed.egress[0].frame, 3))

    comparison = run(data, edit_observed=add)
    [m] = comparison.mismatches
    assert (m.kind, m.port) == ("extra", 7)
    assert "EXTRA port 7 frame #1, after ingress #3" in comparison.report()


def test_changed_value_shows_index_expected_observed():
    data = trace_dict(ECN)
    tor0(data)["egress"][0]["packet"]["values"] = {"0": 16, "1": 7, "61": -1}
    comparison = run(data)
    [m] = comparison.mismatches
    [values] = m.fields
    assert values.field == "values"
    text = comparison.report()
    assert "values      2 of 62 elements differ: [0] 16 → 15, [61] -1 → 0 " \
           "(expected → observed)" in text, text


def test_many_value_differences_are_abbreviated():
    data = trace_dict(ECN)
    tor0(data)["egress"][0]["packet"]["values"] = {str(i): 1000 + i for i in range(20)}
    text = run(data).report()
    assert "20 of 62 elements differ: [0] 1000 → 15, [1] 1001 → 7, [2] 1002 → 0" in text
    assert "[7] 1007 → 0, … 12 more (expected → observed)" in text


def test_register_delta_names_level_index_and_field():
    data = trace_dict(ECN)
    tor0(data)["registers"]["level0"]["6"]["count"] = 2
    tor0(data)["registers"]["level0"]["7"]["owner"] = 65538
    comparison = run(data)
    assert not comparison.mismatches
    assert [(d.when, d.level, d.index) for d in comparison.register_deltas] == [
        ("at the end", "level0", 6), ("at the end", "level0", 7)]
    text = comparison.report()
    assert text.splitlines()[0].endswith("0 differing, 0 missing, 0 extra; "
                                         "2 register difference(s)")
    assert "registers at the end, level0[6]:\n    count       expected 2" in text
    assert re.search(r"level0\[7\]:\n\s+owner\s+expected 0x00010002 \(app 1 seq 2\)\s+"
                     r"observed 0x00010003 \(app 1 seq 3\)", text), text


def test_checkpoint_delta_on_level1_names_when():
    data = trace_dict("rule-8-upper-aggregates-level1")
    checkpoint = tor0(data)["checkpoints"][0]
    checkpoint["registers"]["level1"]["5"]["bitmap"] = 2
    checkpoint["registers"]["level1"]["5"]["values"] = {"0": 30}
    comparison = run(data)
    [delta] = comparison.register_deltas
    assert (delta.when, delta.level, delta.index) == ("after ingress #0", "level1", 5)
    assert [d.field for d in delta.fields] == ["bitmap", "values"]
    text = comparison.report()
    assert re.search(r"registers after ingress #0, level1\[5\]:\n\s+bitmap\s+expected 0x2\s+"
                     r"observed 0x1\n\s+values\s+1 of 62 elements differ: \[1\] 0 → 1", text)


def test_only_stated_register_fields_are_compared():
    data = trace_dict(ECN)
    for state in tor0(data)["registers"]["level0"].values():
        for name in ("bitmap", "count", "ecn", "stamp", "values"):
            del state[name]
    tor0(data)["checkpoints"] = []
    assert run(data).ok
    tor0(data)["registers"]["level0"]["5"]["owner"] = 0
    [delta] = run(data).register_deltas
    assert [d.field for d in delta.fields] == ["owner"]


def test_shim_field_difference_on_two_level_frame():
    data = trace_dict("rule-8-whole-rack-goes-up")
    data["switches"]["tor1"]["egress"][0]["packet"]["shim"]["level"] = 0
    comparison = run(data, "tor1")
    [m] = comparison.mismatches
    assert [d.field for d in m.fields] == ["level"]
    assert "level 1 rack 1 bitmap1 0x2" in comparison.report()


def test_non_atp_frame_difference_is_shown_as_bytes():
    data = trace_dict("rule-5-l2-forwarding")
    frame = tor0(data)["egress"][0]["frame"]
    tor0(data)["egress"][0]["frame"] = frame[:-2] + "00"
    comparison = run(data)
    [m] = comparison.mismatches
    assert (m.kind, m.port) == ("differs", 2)
    last = len(bytes.fromhex(frame)) - 1
    assert [str(d) for d in m.fields] == [
        f"byte {last:<6} expected 0x00                     observed 0xa5"]
    assert "60-byte non-ATP frame 02000000000202000000000188b5a5a5…" in comparison.report()


def test_first_divergence_is_the_earliest_cause():
    data = trace_dict(PARAM)
    tor0(data)["egress"][5]["packet"]["values"] = {"0": 4}      # port 3, after #5
    tor0(data)["egress"][0]["packet"]["flags"] = "-"              # port 9, after #1
    comparison = run(data)
    assert comparison.first.cause == 1 and comparison.first.port == 9
    assert comparison.report().splitlines()[1].startswith("first divergence: DIFFERS port 9")
    assert "then: DIFFERS port 3 frame #1, after ingress #5" in comparison.report()


def test_describe_frame_names_the_packet_kind():
    data = trace_dict("rule-5-float-request-multicast")
    trace = trace_from_dict(data)
    ingress = trace.switches["tor0"].ingress
    assert describe_frame(ingress[0].frame).startswith("gradient app 1 seq 1")
    assert describe_frame(ingress[2].frame).startswith("float request app 1 seq 1")
    assert describe_frame(ingress[4].frame).startswith("parameter app 1 seq 1")
    assert describe_frame(ingress[4].frame).endswith("flags overflow|resend|ack")


@pytest.mark.parametrize("name", [ECN, PARAM, "rule-8-parameter-releases-both-levels"])
def test_a_dropped_ingress_shows_up(name):
    """Sanity of the whole path: replaying a trace with one ingress packet removed is
    never reported as a match."""
    data = trace_dict(name)
    for switch in data["switches"].values():
        removed = len(switch["ingress"]) - 1
        del switch["ingress"][removed]
        switch["egress"] = [e for e in switch["egress"] if e["after"] != removed]
        switch["checkpoints"] = [c for c in switch["checkpoints"] if c["after"] != removed]
    trace = trace_from_dict(data)
    target = open_target("reference")
    assert not all(compare(sw, replay(sw, target)).ok for sw in trace.switches.values())
