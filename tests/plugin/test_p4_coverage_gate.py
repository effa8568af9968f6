"""The P4 coverage gate (atp_fixtures.oracles.p4_coverage): a point only one scenario family
reaches is named by the gate once that family is gone (each family of
``atp_fixtures.generation.coverage_families``, against the real declarations);
declarations of unreachable points are checked against the build."""
import json
from pathlib import Path

import pytest

from atp_fixtures.generation.coverage_families import FAMILIES
from atp_fixtures.oracles import p4_coverage
from atp_fixtures.running.closed_loop import run_on_target
from atp_fixtures.targets import open_target
from atp_fixtures.targets import p4sim as driver
from reference.scenario import load_scenario
from p4sim.coverage import Coverage, Point

SCENARIOS = Path(__file__).resolve().parents[2] / "fixtures" / "corpus" / "scenarios"


def _coverage_of(scenarios, profile="spec", build="wide"):
    program = driver.program_of(profile, build)
    program.coverage_reset()
    for scenario in scenarios:
        assert run_on_target(scenario, lambda: open_target("p4sim", p4_build=build)).completed
    return program.coverage()


def _declare(tmp_path, monkeypatch, baseline, unreachable=(), builds=None):
    path = tmp_path / "unreachable.yaml"
    path.write_text(json.dumps({"spec": {
        "unreachable": {i: "no scenario of this test reaches it" for i in unreachable},
        "not_yet_covered": list(baseline)}, **({"builds": builds} if builds else {})}))
    monkeypatch.setattr(p4_coverage, "UNREACHABLE", path)             # JSON is YAML


@pytest.fixture(scope="module")
def family_coverage():
    """Each registered family's coverage alone, on the wide build (where every family
    reaches its points) under the spec profile."""
    return {name: _coverage_of([family.build("spec")]) for name, family in FAMILIES.items()}


@pytest.mark.parametrize("name", list(FAMILIES))
def test_removing_a_family_fails_the_gate_naming_the_points_only_it_reaches(
        name, family_coverage, tmp_path, capsys):
    """The real declarations (p4src/coverage-unreachable.yaml) excuse none of the points
    a family exists for: with the family in FAMILIES they are covered, without it the
    gate fails naming each of them."""
    family = FAMILIES[name]
    alone = family_coverage[name]
    assert {pid for pid in family.reaches if alone.hits_of(pid) == 0} == set()
    others = [cov for other, cov in family_coverage.items() if other != name]
    without = others[0]
    for cov in others[1:]:
        without = without.merged(cov)
    with_it = without.merged(alone)
    lost = [pid for pid in family.reaches if without.hits_of(pid) == 0]
    assert lost == list(family.reaches)           # no other family reaches any of them
    declared = p4_coverage.declared_for("spec", "wide")
    assert not set(lost) & declared.excluded()
    assert set(lost) <= {p.id for p in without.uncovered(declared.excluded())}
    assert not set(lost) & {p.id for p in with_it.uncovered()}
    path = tmp_path / "p4-coverage-spec.json"
    p4_coverage.write(without, path, "wide")
    capsys.readouterr()
    assert p4_coverage.main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "coverage gate FAILED (spec)" in out
    where = {p.id: p.where() for p in without.points}
    for pid in lost:
        assert f"uncovered point {where[pid]}: {pid}" in out


def test_a_family_s_points_are_declared_unreachable_in_the_builds_it_cannot_reach_them():
    """full-pool's 65536 pool does not fit the tofino build: builds.tofino says so, with
    a reason, for exactly its points."""
    for family in FAMILIES.values():
        for build in set(driver.BUILDS) - set(family.builds):
            declared = p4_coverage.build_declarations(build)
            assert set(family.reaches) <= set(declared), (family.name, build)


def test_a_build_declares_what_only_its_register_size_makes_unreachable(tmp_path,
                                                                      monkeypatch):
    """builds.<build> excuses a point in that build's coverage files only."""
    cov = _cov([3, 0])
    _declare(tmp_path, monkeypatch, [], builds={"tofino": {"statement C | s1": "why"}})
    for build, ok in (("tofino", True), ("wide", False)):
        path = tmp_path / build / "p4-coverage-spec.json"
        path.parent.mkdir()
        p4_coverage.write(cov, path, build)
        assert p4_coverage.load(path)[1] == build
        assert p4_coverage.main(["check", str(path)]) == (0 if ok else 1)
    assert p4_coverage.main(["baseline", str(tmp_path / "wide" / "p4-coverage-spec.json")]) == 0
    assert p4_coverage.declared_for("spec").baseline == ["statement C | s1"]
    assert p4_coverage.build_declarations("tofino") == {"statement C | s1": "why"}
    assert p4_coverage.main(["baseline", str(tmp_path / "tofino" / "p4-coverage-spec.json")]) == 0
    assert p4_coverage.declared_for("spec").baseline == []          # the build excuses it


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
