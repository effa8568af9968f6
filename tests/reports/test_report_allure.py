"""What allure receives from a run (a fresh pytest process): labels, parameters, the
link to the spec rule, the failure's diff/traces/plot, environment and categories."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from broken_target import FAILING_TEST
from report_run import run_suite


def _results(path) -> dict[str, dict]:
    out = {}
    for result in (path / "allure").glob("*-result.json"):
        data = json.loads(result.read_text())
        out[data["name"]] = data
    return out


@pytest.fixture(scope="module")
def failing_run(tmp_path_factory):
    """One fresh pytest process for the whole module: a failing replay, a pass, a skip."""
    path = tmp_path_factory.mktemp("allure-run")
    result = run_suite(path, FAILING_TEST, "--alluredir=allure", "--seed=11")
    assert result.outcomes == {"failed": 1, "passed": 1, "skipped": 1}, result.output
    return SimpleNamespace(path=path), result


def test_labels_parameters_and_spec_link(failing_run):
    run, _ = failing_run
    data = _results(run.path)["test_collision_is_flagged"]
    labels = {(label["name"], label["value"]) for label in data["labels"]}
    assert {("epic", "reference"), ("feature", "demo"), ("story", "trace replay"),
            ("severity", "normal")} <= labels
    params = {p["name"]: p for p in data["parameters"]}
    assert params["profile"]["value"] == "'spec'" and params["target"]["value"] == "'reference'"
    assert params["session seed"]["value"] == "11" and params["seed"]["excluded"]
    assert len(params["program hash"]["value"].strip("'")) == 16
    assert {"url": "docs/protocol.md#rule-4-3", "type": "link"}.items() <= \
        data["links"][0].items()
    assert data["links"][0]["name"].startswith("spec 4.3 ")


def test_failure_carries_diff_traces_pcaps_and_plot(failing_run):
    run, result = failing_run
    data = _results(run.path)["test_collision_is_flagged"]
    assert "atp-divergent" in data["descriptionHtml"]
    attachments = {a["name"]: a for a in data["attachments"]}
    assert {"diff (expected vs observed)", "register deltas", "trace expected",
            "pcap expected", "trace observed", "pcap observed",
            "occupancy and seqs in flight"} <= set(attachments)
    folder = run.path / "allure"
    png = (folder / attachments["occupancy and seqs in flight"]["source"]).read_bytes()
    assert png[:4] == b"\x89PNG"
    deltas = (folder / attachments["register deltas"]["source"]).read_text()
    assert "level0[5]: bitmap expected 0x3 observed 0x83" in deltas
    pcap = (folder / attachments["pcap observed"]["source"]).read_bytes()
    assert pcap[:4] == bytes.fromhex("4d3cb2a1")  # nanosecond pcap, little-endian
    assert "field-level diff written to" in result.output


def test_passing_and_skipped_tests_carry_no_failure_attachments(failing_run):
    run, _ = failing_run
    results = _results(run.path)
    assert not results["test_passes"].get("attachments")
    assert results["test_needs_teleportation"]["status"] == "skipped"


def test_environment_and_categories(failing_run):
    run, _ = failing_run
    folder = run.path / "allure"
    env = dict(line.split("=", 1) for line in
               (folder / "environment.properties").read_text().splitlines())
    assert env["target"] == "reference" and env["session_seed"] == "11"
    assert env["git_revision"] and env["version.numpy"] != "not installed"
    categories = json.loads((folder / "categories.json").read_text())
    names = [c["name"] for c in categories]
    assert names == ["Protocol violations", "Wire mismatches",
                     "Target or infrastructure errors",
                     "Skipped: target or capability missing"]


def test_categories_sort_real_messages():
    """The category patterns match the messages the suite really produces (JS and Java
    both search with these; Python's fullmatch with DOTALL is the strict reading)."""
    import re

    from atp_fixtures.report.allure import CATEGORIES
    by_name = {c["name"]: re.compile(c["messageRegex"]) for c in CATEGORIES}
    assert by_name["Protocol violations"].fullmatch(
        "atp_fixtures.oracles.properties.PropertyViolation: exactly-once: 1 seq result(s) differ\n..")
    assert by_name["Wire mismatches"].fullmatch(
        "atp_fixtures.oracles.comparator.TraceMismatch: trace t diverges on target "
        "'p4sim':\nswitch tor0 ...")
    assert not by_name["Protocol violations"].fullmatch(
        "atp_fixtures.oracles.comparator.TraceMismatch: trace t diverges on target "
        "'p4sim':\nswitch tor0 ...")
    assert not by_name["Protocol violations"].fullmatch(
        "AssertionError: trace t diverges on target 'p4sim':\nDIFFERS port 8")
    # by the kind of evidence the failure carries, not by words of its text: a lockstep
    # divergence of registers only (no DIFFERS/MISSING/EXTRA line) is a wire mismatch,
    # words alone are not
    assert by_name["Wire mismatches"].fullmatch(
        "atp_fixtures.running.lockstep.LockstepDivergence: lockstep: switch tor0 diverged "
        "from the reference switch after ingress #7 (...)\nrule: 4.4 ...\nregisters after "
        "ingress #7, level0[5] (reference → target):\n    stamp ...")
    assert not by_name["Wire mismatches"].fullmatch(
        "AssertionError: the PS got seq 3 twice; DIFFERS, MISSING or EXTRA are words here")
    assert by_name["Skipped: target or capability missing"].fullmatch(
        "target 'tofino-model' is unavailable: no Tofino SDE found")


def test_closed_loop_failure_on_the_reference_says_the_frames_match(tmp_path):
    result = run_suite(tmp_path, """
        from reference.scenario import Scenario
        from reference.topology import Job, Rack, Tensor, Topology

        def test_property(run_on):
            run = run_on(Scenario(
                topology=Topology((Rack("tor0", ("w0", "w1", "ps")),)),
                jobs=(Job(1, ("w0", "w1"), ("ps",), 2, (Tensor(3, 100),)),), seed=5))
            assert not run.completed, "pretend the property failed"
    """, "--alluredir=allure")
    assert result.outcomes == {"failed": 1}, result.output
    data = _results(tmp_path)["test_property"]
    assert "equal the reference switch" in data["descriptionHtml"]
    names = {a["name"] for a in data["attachments"]}
    assert {"shrunk scenario", "trace run0", "occupancy and seqs in flight"} <= names
    labels = {(label["name"], label["value"]) for label in data["labels"]}
    assert ("story", "hand-written scenarios") in labels


def test_hypothesis_failure_shows_only_the_shrunk_examples_diff(tmp_path):
    """Every failing example before shrinking made a diff too; the page shows the last
    one's (hypothesis replays the shrunk example last)."""
    result = run_suite(tmp_path, """
        import sys
        from hypothesis import given, settings, strategies as st
        sys.path.insert(0, %r)
        from broken_target import COLLISION_TRACE, DropsCollisionFlag
        from atp_fixtures.oracles.comparator import assert_matches, compare
        from atp_fixtures.running.replay import replay
        from atp_fixtures.evidence.trace import load_trace

        @settings(max_examples=30, database=None, derandomize=True)
        @given(n=st.integers(0, 20))
        def test_generated(n, target):
            switch = load_trace(COLLISION_TRACE).switches["tor0"]
            comparison = compare(switch, replay(switch, DropsCollisionFlag(), "spec"))
            if n >= 3:
                assert_matches([comparison])
    """ % str(Path(__file__).parent), "--alluredir=allure")
    assert result.outcomes == {"failed": 1}, result.output
    html = _results(tmp_path)["test_generated"]["descriptionHtml"]
    assert html.count("<h3>switch tor0</h3>") == 1
