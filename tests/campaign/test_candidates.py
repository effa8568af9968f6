"""New failures become corpus candidates (with rule, seeds, target, program hash), a
counterexample the corpus or the candidates hold is not written again, and a reviewed
candidate is promoted into the corpus with the tests that replay it from then on."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from atp_fixtures.campaign.candidates import (PROVENANCE_SUFFIX, CandidateError, Found,
                                              promote, write_candidate)
from atp_fixtures.targets.program import sources_digest
from reference.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "fixtures" / "corpus"
KNOWN = CORPUS / "counterexamples" / "straggler_leaks_aggregator.json"


@pytest.fixture
def corpus(tmp_path) -> Path:
    copy = tmp_path / "corpus"
    shutil.copytree(CORPUS, copy, ignore=shutil.ignore_patterns("candidates"))
    return copy


def _found(path: Path = KNOWN, **changes) -> Found:
    data = load_scenario(path).to_dict()
    data.update(changes)
    return Found("scenario", data, "")


def test_a_counterexample_the_corpus_holds_is_not_new(tmp_path, corpus):
    renamed = _found(name="the same scenario under another name")
    assert write_candidate(renamed, tmp_path / "cand", corpus, {}) is None


def test_a_new_counterexample_is_written_once_with_its_provenance(tmp_path, corpus):
    found = _found(seed=424242)
    facts = {"rule": "4.5", "property": "exactly_once", "target": "p4sim",
             "test_seed": 7, "session_seed": 1, "program_hash": "abc"}
    path = write_candidate(found, tmp_path / "cand", corpus, facts)
    assert path is not None and path.name == (f"exactly_once-rule-4.5-"
                                              f"{found.fingerprint[:10]}.json")
    assert load_scenario(path).seed == 424242
    record = yaml.safe_load(path.with_name(path.stem + PROVENANCE_SUFFIX).read_text())
    assert record["kind"] == "scenario" and record["fingerprint"] == found.fingerprint
    assert {k: record[k] for k in facts} == facts
    assert write_candidate(found, tmp_path / "cand", corpus, facts) is None


def test_promotion_refuses_bad_names_and_clashes(tmp_path, corpus):
    path = write_candidate(_found(seed=99), tmp_path / "cand", corpus, {"test": "t"})
    with pytest.raises(CandidateError, match="says what broke"):
        promote(path, "Bad Name!", corpus, collect=False)
    with pytest.raises(CandidateError, match="exists already"):
        promote(path, "straggler_leaks_aggregator", corpus, collect=False)
    with pytest.raises(CandidateError, match="not a candidate"):
        promote(KNOWN, "x", corpus, collect=False)
    assert path.exists()                     # nothing moved on a refusal


def _suite(args: list[str], env: dict | None = None) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("CI", "PYTEST_XDIST_WORKER", "ATP_MUTANT")}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "conformance/test_exactly_once.py",
         "-p", "no:cacheprovider", "-o", "addopts=--strict-markers", "--target=reference",
         *args], cwd=ROOT, env=dict(clean, **(env or {})), capture_output=True, text=True,
        timeout=600)


def test_a_found_bug_becomes_a_candidate_and_is_promoted_with_its_replaying_tests(
        tmp_path, corpus):
    """Mutant completion_early (rule 4.5) against the generated closed-loop test: the
    shrunk scenario becomes a candidate naming the rule, seeds, target and program; a
    second machine finding it again adds nothing; promoted, the corpus test replays it:
    it fails with the mutant and passes without."""
    mutant = {"ATP_MUTANT": "completion_early"}
    candidates, db = tmp_path / "cand", tmp_path / "db"
    common = ["-p", "tests.mutants.plugin", f"--corpus={corpus}", f"--example-db={db}",
              f"--corpus-candidates={candidates}", "-k", "results_are_exact_sums and not corpus"]
    first = _suite(["--seed=1", *common], mutant)
    assert first.returncode == 1, first.stdout[-3000:]
    written = sorted(candidates.glob("*.json"))
    assert len(written) == 1 and written[0].name.startswith("exactly_once-rule-4.5-")
    record = yaml.safe_load(written[0].with_name(written[0].stem + PROVENANCE_SUFFIX)
                            .read_text())
    assert record["rule"] == "4.5" and record["target"] == "reference"
    assert record["session_seed"] == 1 and isinstance(record["test_seed"], int)
    assert record["program_hash"] == sources_digest(ROOT / "reference", ".py")  # what reference runs
    assert record["test"] == "conformance/test_exactly_once.py::test_results_are_exact_sums"
    assert record["example_db"] == str(db)
    again = _suite(["--seed=2", *common], mutant)
    assert again.returncode == 1 and sorted(candidates.glob("*.json")) == written

    done = promote(written[0], "completion_one_early", corpus)
    assert done.path == corpus / "counterexamples" / "completion_one_early.json"
    assert load_scenario(done.path).name.startswith("completion_one_early (found by ")
    assert not written[0].exists() and done.provenance.exists()
    replay = "conformance/test_exactly_once.py::test_corpus_results_are_exact_sums" \
             "[completion_one_early]"
    assert replay in done.replayed_by
    assert replay in yaml.safe_load(done.provenance.read_text())["replayed_by"]
    selected = ["-k", "completion_one_early", f"--corpus={corpus}"]
    caught = _suite(["-p", "tests.mutants.plugin", *selected], mutant)
    assert caught.returncode == 1, caught.stdout[-3000:]
    fixed = _suite(selected)
    assert fixed.returncode == 0, fixed.stdout[-3000:]


def test_the_same_test_and_rule_again_is_a_sighting_of_the_pending_candidate(
        tmp_path, corpus):
    """Each round shrinks one bug to another scenario (its seeds differ): while the
    first candidate awaits review, the others count as its sightings."""
    facts = {"rule": "4.5", "test": "conformance/t.py::test_x", "session_seed": 1}
    first = write_candidate(_found(seed=1001), tmp_path / "cand", corpus, facts)
    assert first is not None
    again = write_candidate(_found(seed=1002), tmp_path / "cand", corpus,
                            facts | {"session_seed": 2})
    other_rule = write_candidate(_found(seed=1003), tmp_path / "cand", corpus,
                                 facts | {"rule": "4.3"})
    assert again is None and other_rule is not None
    record = yaml.safe_load(first.with_name(first.stem + PROVENANCE_SUFFIX).read_text())
    assert record["sightings"] == 2 and record["also_seen"][0]["session_seed"] == 2
