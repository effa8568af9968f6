"""The program under test is never ambiguous (atp_fixtures.targets.program): the
two-clones case of issue 37 (a second checkout run with the first one's editable-install
venv) stops loudly or, with --p4src, runs the second checkout's program, with its corpus
and artifacts there; the header and the summary name the program and its hash."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from atp_fixtures.targets.program import ProgramChoiceError, choose_program

ROOT = Path(__file__).resolve().parents[2]
# a P4 defect the selection below catches (tests/p4src/test_p4src_mutants.py's
# collision_flag_not_set)
MUTANT = ("atp.p4", "hdr.atp.collision = 1;", "hdr.atp.collision = 0;")
SELECTION = "corpus and collision"


def _second_clone(tmp_path: Path) -> Path:
    """What a second clone holds for one conformance module, with a broken atp.p4."""
    clone = tmp_path / "second"
    (clone / "conformance").mkdir(parents=True)
    shutil.copy(ROOT / "pytest.ini", clone)
    for name in ("__init__.py", "test_wire_conformance.py"):
        shutil.copy(ROOT / "conformance" / name, clone / "conformance")
    shutil.copytree(ROOT / "fixtures", clone / "fixtures",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "p4src", clone / "p4src",
                    ignore=shutil.ignore_patterns("control", "*.py", "__pycache__"))
    file, old, new = MUTANT
    source = (clone / "p4src" / file).read_text()
    assert source.count(old) == 1
    (clone / "p4src" / file).write_text(source.replace(old, new))
    return clone


def _run(clone: Path, *options: str) -> subprocess.CompletedProcess:
    """This checkout's venv (the "first clone's") run in ``clone``, as a user would."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("ATP_P4SRC", "ATP_ARTIFACTS_DIR", "ATP_SUMMARY_JSON",
                        "PYTEST_XDIST_WORKER")}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "conformance/test_wire_conformance.py", "-k",
         SELECTION, "-p", "no:cacheprovider", "-q", "-x", "-n", "0", *options],
        cwd=clone, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_a_second_clone_on_the_first_clones_venv_fails_loudly(tmp_path):
    """The old behaviour ran the harness's own p4src/ here and passed (the broken
    program of the clone went untested)."""
    clone = _second_clone(tmp_path)
    result = _run(clone)
    output = result.stdout + result.stderr
    assert result.returncode == 4, f"exit {result.returncode}:\n{output[-3000:]}"
    assert f"this run started in the checkout {clone}" in output, output[-3000:]
    assert f"imported from {ROOT}" in output and f"--p4src={clone / 'p4src'}" in output
    assert "passed" not in output


@pytest.mark.slow
def test_with_p4src_the_second_clone_runs_its_own_program_corpus_and_artifacts(tmp_path):
    clone = _second_clone(tmp_path)
    result = _run(clone, f"--p4src={clone / 'p4src'}")
    output = result.stdout + result.stderr
    assert result.returncode == 1, (f"the clone's broken atp.p4 must fail "
                                    f"(exit {result.returncode}):\n{output[-3000:]}")
    header = f"atp: program under test {clone / 'p4src' / 'atp.p4'} (--p4src), sha256 "
    assert header in output and f"harness imported from {ROOT}" in output, output[:3000]
    artifacts = list((clone / "reports" / "artifacts").glob("*/observed.json"))
    assert artifacts, "the failure's artifacts must go to the run's checkout"
    recorded = json.loads(artifacts[0].read_text())["results"]["program"]
    assert recorded["program"] == str(clone / "p4src" / "atp.p4")
    summary = json.loads((clone / "reports" / "summary.json").read_text())
    program = summary["sections"]["program"]
    assert program["program"] == recorded["program"]
    assert program["sha256"] == recorded["sha256"] and program["sha256"] in output


def test_choice_order_and_errors(tmp_path):
    clone = tmp_path / "clone"
    (clone / "fixtures").mkdir(parents=True)
    (clone / "fixtures" / "plugin.py").write_text("")
    (clone / "p4src").mkdir()
    (clone / "p4src" / "atp.p4").write_text("// a program\n")
    harness = tmp_path / "harness"
    (harness / "p4src").mkdir(parents=True)
    # the run's own checkout, when it is the harness's
    own = choose_program(clone, environ={}, harness=clone)
    assert own.p4src == clone / "p4src" and own.chosen_by == "the run's checkout"
    # outside any checkout: the harness's program
    outside = choose_program(tmp_path, environ={}, harness=harness)
    assert outside.p4src == harness / "p4src" and outside.checkout == harness
    # another checkout's harness: refused, unless the program is named
    with pytest.raises(ProgramChoiceError, match="another checkout's install"):
        choose_program(clone, environ={}, harness=harness)
    named = choose_program(clone, None, {"ATP_P4SRC": str(clone / "p4src")}, harness)
    assert named.chosen_by == "$ATP_P4SRC" and named.checkout == clone
    option = choose_program(clone, str(clone / "p4src"), {"ATP_P4SRC": "/nowhere"}, harness)
    assert option.chosen_by == "--p4src"
    with pytest.raises(ProgramChoiceError, match=r"--p4src=/nowhere: .*does not exist"):
        choose_program(clone, "/nowhere", {}, harness)
    before = option.digest()
    assert len(before) == 16
    (clone / "p4src" / "atp.p4").write_text("// another program\n")
    assert option.digest() != before
