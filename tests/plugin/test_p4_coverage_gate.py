"""The P4 coverage gate (atp_fixtures.oracles.p4_coverage): a point only one scenario family reaches
is named by the gate once that family is gone; declarations of unreachable points are
checked against the build."""
import json
from pathlib import Path

import pytest

from atp_fixtures.oracles import p4_coverage
from atp_fixtures.running.closed_loop import run_on_target
from atp_fixtures.generation.corpus import load_scenario
from atp_fixtures.targets import open_target
from atp_fixtures.targets import p4sim as driver
from p4sim.coverage import Coverage, Point

SCENARIOS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus" / "scenarios"


def _coverage_of(names):
    program = driver.compiled_program(False)
    program.coverage_reset()
    for name in names:
        assert run_on_target(load_scenario(SCENARIOS / f"{name}.json"),
                             lambda: open_target("p4sim")).completed
    return program.coverage()


def _declare(tmp_path, monkeypatch, baseline, unreachable=()):
    path = tmp_path / "unreachable.yaml"
    path.write_text(json.dumps({"spec": {
        "unreachable": {i: "no scenario of this test reaches it" for i in unreachable},
        "not_yet_covered": list(baseline)}}))             # JSON is YAML
    monkeypatch.setattr(p4_coverage, "UNREACHABLE", path)


def test_removing_the_only_family_reaching_a_point_fails_the_gate_naming_it(
        tmp_path, monkeypatch, capsys):
    families = ["collisions-small-pool", "two-level-partial-flush"]
    both = _coverage_of(families)
    without = _coverage_of(families[:1])            # the two-level family removed
    lost = {p.id for p in without.uncovered()} - {p.id for p in both.uncovered()}
    assert any("two_level" in pid for pid in lost), sorted(lost)[:5]
    # everything the full set misses is the baseline: the full set passes the gate ...
    _declare(tmp_path, monkeypatch, [p.id for p in both.uncovered()])
    full = tmp_path / "p4-coverage-spec.json"
    both.write(full)
    assert p4_coverage.main(["check", str(full)]) == 0
    # ... the set without the two-level family fails it, naming each point it lost
    partial = tmp_path / "partial" / "p4-coverage-spec.json"
    partial.parent.mkdir()
    without.write(partial)
    capsys.readouterr()
    assert p4_coverage.main(["check", str(partial)]) == 1
    out = capsys.readouterr().out
    for pid in lost:
        assert f": {pid}" in out
    assert "coverage gate FAILED (spec)" in out


def _cov(hits):
    points = [Point(f"statement C | s{i}", "statement", "C", "p4src/x.p4", i + 1, f"s{i}")
              for i in range(len(hits))]
    return Coverage(points, hits)


def test_declarations_must_stay_true(tmp_path, monkeypatch):
    _declare(tmp_path, monkeypatch, [])
    cov = _cov([3, 0, 0])
    Declared = p4_coverage.Declared
    assert p4_coverage.verdict(cov, Declared({"statement C | s1": "why"},
                                             ["statement C | s2"])) == []
    problems = p4_coverage.verdict(cov, Declared({"statement C | s0": "why"},
                                                 ["statement C | gone"]))
    where = str(tmp_path / "unreachable.yaml")
    assert problems == [
        "uncovered point p4src/x.p4:2: statement C | s1",
        "uncovered point p4src/x.p4:3: statement C | s2",
        f"declared in {where} but the build has no such point: statement C | gone",
        "declared unreachable but covered (3 hits) p4src/x.p4:1: statement C | s0"]
    # a baseline point that got covered is news, not a failure
    assert p4_coverage.verdict(cov, Declared({}, ["statement C | s0", "statement C | s1",
                                                  "statement C | s2"])) == []
    assert p4_coverage.newly_covered(cov, Declared({}, ["statement C | s0"])) == \
        ["statement C | s0"]


def test_uncovered_prints_entries_to_paste_and_bad_files_are_one_line(tmp_path, monkeypatch,
                                                                       capsys):
    _declare(tmp_path, monkeypatch, [])
    path = tmp_path / "p4-coverage-spec.json"
    _cov([1, 0]).write(path)
    assert p4_coverage.main(["uncovered", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[2:] == [
        '    "statement C | s1":   # p4src/x.p4:2']
    (tmp_path / "p4-coverage-spec.json").write_text("{}")
    assert p4_coverage.main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and len(err.splitlines()) == 1
    with pytest.raises(p4_coverage.CoverageFileError):
        p4_coverage.profile_of(tmp_path / "coverage.json")


def test_novelty_scores_the_counters_a_run_took_first_in_its_test():
    from atp_fixtures.oracles.p4_coverage import Novelty
    scenario = load_scenario(SCENARIOS / "two-level-partial-flush.json")
    novelty = Novelty("spec", "wide")
    novelty.start()
    assert run_on_target(scenario, lambda: open_target("p4sim")).completed
    first = novelty.score()
    assert first > 100
    novelty.start()                    # the same run again reaches nothing new ...
    assert run_on_target(scenario, lambda: open_target("p4sim")).completed
    assert novelty.target("outside hypothesis") == 0
    other = Novelty("spec", "wide")            # ... but is all new to another test
    other.start()
    assert run_on_target(scenario, lambda: open_target("p4sim")).completed
    assert other.score() == first


def test_allure_result_shows_the_figure_uncovered_lines_and_the_source(tmp_path):
    from atp_fixtures.report.p4_coverage import write_allure_result
    points = [Point("statement C | a", "statement", "C", "p4src/atp.p4", 3, "a"),
              Point("branch C | b", "branch", "C", "p4src/atp.p4", 4, "b -> true")]
    path = write_allure_result(tmp_path, Coverage(points, [5, 0]), "spec",
                               p4_coverage.Declared(), "p4sim")
    result = json.loads(path.read_text())
    assert result["status"] == "failed"
    assert "uncovered point p4src/atp.p4:4: branch C | b" in result["statusDetails"]["message"]
    assert "<b>1/2</b> reachable points" in result["descriptionHtml"]
    assert "<code>p4src/atp.p4:4</code>" in result["descriptionHtml"]
    source = (tmp_path / result["attachments"][0]["source"]).read_text()
    assert "<tr class='h'><td>3</td><td>5</td>" in source
    assert "<tr class='m'><td>4</td><td>0</td>" in source
    baseline = p4_coverage.Declared({}, ["branch C | b"])
    again = json.loads(write_allure_result(tmp_path, Coverage(points, [5, 0]), "spec",
                                           baseline, "p4sim").read_text())
    assert again["status"] == "passed"


def test_baseline_rewrites_a_profile_from_a_run_and_names_the_changes(tmp_path, monkeypatch,
                                                                      capsys):
    _declare(tmp_path, monkeypatch, ["statement C | s0", "statement C | gone"],
             unreachable=["statement C | s2"])
    path = tmp_path / "p4-coverage-spec.json"
    _cov([4, 0, 0]).write(path)             # s0 now covered, s1 new and uncovered
    assert p4_coverage.main(["check", str(path)]) == 1
    capsys.readouterr()
    assert p4_coverage.main(["baseline", str(path)]) == 0
    out = capsys.readouterr().out
    assert "not_yet_covered, added: statement C | s1" in out
    assert "not_yet_covered, dropped (covered): statement C | s0" in out
    assert "not_yet_covered, dropped (gone): statement C | gone" in out
    declared = p4_coverage.declared_for("spec")
    assert declared.baseline == ["statement C | s1"]
    assert declared.unreachable == {"statement C | s2": "no scenario of this test reaches it"}
    assert p4_coverage.declared_for("atp-release").baseline == []
    assert "# p4src/x.p4:2" in p4_coverage.UNREACHABLE.read_text()
    assert p4_coverage.main(["check", str(path)]) == 0
