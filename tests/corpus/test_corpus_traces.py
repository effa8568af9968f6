"""Every hand-written trace of fixtures/corpus/traces loads and replays with zero
differences (frames and registers) on the reference target, under its own profile."""

from __future__ import annotations

import json
import re

import pytest

from atp_fixtures.oracles.comparator import assert_matches
from corpus_helpers import TRACE_FILES, replay_all, trace_dict
from atp_fixtures.evidence.trace import load_trace

IDS = [p.stem for p in TRACE_FILES]

# the rules of spec sections 4, 5 and 8 that a switch shows (4.4, stamp and the ecn
# register, is pinned inside the 4.1, 4.3, 4.7 and 5 traces)
RULES = {"4.1", "4.2", "4.3", "4.5", "4.6", "4.7", "5", "8"}


def test_the_corpus_is_there():
    assert len(TRACE_FILES) >= 20, [p.name for p in TRACE_FILES]


@pytest.mark.parametrize("path", TRACE_FILES, ids=IDS)
def test_trace_replays_on_reference_with_zero_differences(path):
    trace = load_trace(path)
    comparisons = replay_all(trace)
    for name, comparison in comparisons.items():
        assert_matches([comparison], f"{path.name} [{name}]")
        assert comparison.registers_checked, f"{path.name} [{name}]: registers not read"
        assert "all frames match; registers match" in comparison.report()


@pytest.mark.parametrize("path", TRACE_FILES, ids=IDS)
def test_trace_says_what_it_pins_down(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "atp-trace/1"
    assert data["name"] == path.stem
    assert re.fullmatch(r"\d+(\.\d+)?", data["rule"]), data["rule"]
    assert path.stem.startswith(f"rule-{data['rule']}-")
    assert len(data["description"]) > 80
    assert data.get("profile", "spec") in ("spec", "atp-release")
    for name, switch in data["switches"].items():
        assert switch["ingress"], name
        assert "registers" in switch, f"{name}: final registers are not stated"
        for i, egress in enumerate(switch["egress"]):
            assert "after" in egress, f"{name}.egress[{i}] does not say its ingress"


def test_every_switch_rule_has_a_trace():
    covered = {trace_dict(p.name)["rule"] for p in TRACE_FILES}
    assert RULES <= covered, sorted(RULES - covered)


DEVIATING = [p for p in TRACE_FILES if "deviation" in trace_dict(p.name)]


def test_deviations_are_marked():
    assert {trace_dict(p.name)["deviation"] for p in DEVIATING} >= {"9.1", "9.4", "9.8", "9.9"}


@pytest.mark.parametrize("path", DEVIATING, ids=[p.stem for p in DEVIATING])
def test_deviation_trace_fails_under_the_release_profile(path):
    """A spec trace marked with a section-9 deviation really differs under atp-release
    (so xfail(strict) there is meaningful), and its release twin says how."""
    data = trace_dict(path.name)
    assert data["profile"] == "spec"
    assert re.fullmatch(r"9\.\d+", data["deviation"])
    trace = load_trace(path)
    assert not all(c.ok for c in replay_all(trace, "atp-release").values())
    twins = [p for p in TRACE_FILES
             if trace_dict(p.name).get("profile") == "atp-release"
             and trace_dict(p.name)["rule"] == data["deviation"]]
    assert twins, f"no atp-release twin with rule {data['deviation']}"


@pytest.mark.parametrize("path", [p for p in TRACE_FILES
                                  if trace_dict(p.name).get("profile") == "atp-release"],
                         ids=lambda p: p.stem)
def test_release_twin_fails_under_the_spec_profile(path):
    trace = load_trace(path)
    assert not all(c.ok for c in replay_all(trace, "spec").values())


UNMARKED_SPEC = [p for p in TRACE_FILES
                 if trace_dict(p.name).get("profile", "spec") == "spec"
                 and "deviation" not in trace_dict(p.name)]


@pytest.mark.parametrize("path", UNMARKED_SPEC, ids=[p.stem for p in UNMARKED_SPEC])
def test_unmarked_spec_trace_also_holds_under_the_release_profile(path):
    """Only traces marked with a deviation may differ under atp-release: the marks are
    complete, so --profile atp-release fails on nothing else."""
    trace = load_trace(path)
    for name, comparison in replay_all(trace, "atp-release").items():
        assert_matches([comparison], f"{path.name} [{name}] under atp-release")


def test_the_readme_example_loads_and_replays():
    from corpus_helpers import ROOT
    from atp_fixtures.evidence.trace import trace_from_dict
    text = (ROOT / "fixtures" / "corpus" / "README.md").read_text(encoding="utf-8")
    block = text.split("```json\n", 1)[1].split("```", 1)[0]
    trace = trace_from_dict(json.loads(block), "README.md")
    assert trace.rule == "4.5"
    assert all(c.ok for c in replay_all(trace).values())
