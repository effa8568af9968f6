"""The host mutation run's line map (tests/mutation/line_map.py): which test's host
processes ran which statement, read from real coverage.py data of real subprocesses
started by a pytest run with the run's plugin; and the lookup a judge makes."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

from tests.mutation import line_map
from tests.mutation.plugin import host_code_template

ROOT = Path(__file__).resolve().parents[2]
HOST = textwrap.dedent("""\
    import sys


    def main(role):
        total = (1 +
                 2)
        if role == "worker":
            total += 1          # line 8: the worker's only
        else:
            total -= 1          # line 10: the PS's only
        if role == "nobody":
            total = 0           # line 12: no test's
        # a comment
        return total


    main(sys.argv[1])
""")
TESTS = textwrap.dedent("""\
    import os, subprocess, sys, time


    def _run(role):
        subprocess.run([sys.executable, "-P", "-m", "coverage", "run",
                        "--rcfile=" + os.environ["RC"], "-m", "host_stack.fake", role],
                       env=dict(os.environ, PYTHONPATH=os.environ["CODE"]), check=True)


    def test_worker():
        _run("worker")
        time.sleep(0.3)


    def test_ps():
        _run("ps")
""")


def test_the_map_names_the_tests_whose_processes_ran_each_statement(tmp_path):
    code = tmp_path / "code"
    (code / "host_stack").mkdir(parents=True)
    (code / "host_stack" / "__init__.py").write_text("")
    (code / "host_stack" / "fake.py").write_text(HOST)
    (tmp_path / "test_fake.py").write_text(TESTS)
    directory = tmp_path / "coverage"
    env = dict(os.environ, CODE=str(code), RC=str(directory / "coverage.rc"))
    env.pop("PYTEST_XDIST_WORKER", None)
    argv = [sys.executable, "-m", "pytest", str(tmp_path / "test_fake.py"), "-q",
            "-p", "no:cacheprovider", "-p", "tests.mutation.plugin", "--rootdir",
            str(tmp_path), "-c", os.devnull]
    found, status, how = line_map.build(code, argv, env, directory, ("host_stack/fake.py",))
    assert status == 0, how
    lines = found.lines["host_stack/fake.py"]
    worker = next(t for t in found.seconds if t.endswith("test_worker"))
    ps = next(t for t in found.seconds if t.endswith("test_ps"))
    assert lines[8] == {worker} and lines[10] == {ps} and lines[5] == {worker, ps}
    assert 12 not in lines
    saved = tmp_path / "map.json"
    found.save(saved)
    again = line_map.LineMap.load(saved)
    assert again == found
    fast_first = again.tests_for(code, {"host_stack/fake.py": {6}})    # 2nd line of 5's
    assert fast_first == [ps, worker]
    assert again.tests_for(code, {"host_stack/fake.py": {12}}) == []
    assert again.tests_for(code, {"host_stack/fake.py": {13}}) is None  # a comment


def test_changed_lines_are_numbered_as_in_the_intact_copy(tmp_path):
    pristine, code = tmp_path / "pristine", tmp_path / "code"
    for top in (pristine, code):
        (top / "host_stack").mkdir(parents=True)
        (top / "host_stack" / "fake.py").write_text(HOST)
        (top / "host_stack" / "other.py").write_text("x = 1\n")
    (code / "host_stack" / "fake.py").write_text(HOST.replace("total += 1", "total -= 1"))
    changed = line_map.changed_lines(code, pristine, ("host_stack/fake.py",
                                                      "host_stack/other.py"))
    assert changed == {"host_stack/fake.py": {8}}
    (code / "host_stack" / "other.py").write_text("")          # a statement deleted
    changed = line_map.changed_lines(code, pristine, ("host_stack/other.py",))
    assert changed == {"host_stack/other.py": {1}}


def test_host_processes_run_under_coverage_only_when_mapping():
    from host_stack.session import HostStackCommand
    worker = HostStackCommand().worker
    plain = host_code_template(worker, Path("/c"))
    mapped = host_code_template(worker, Path("/c"), Path("/m"))
    assert "coverage" not in plain
    assert " -P -m coverage run --rcfile=/m/coverage.rc -m host_stack.worker " in mapped


def test_a_mutant_no_test_runs_survives_without_a_run(tmp_path, capsys):
    """The judge's answer for a line outside the map: exit 0 (survived), ``UNRUN`` first,
    so the report counts it apart; nothing is started."""
    from tests.mutation import host_mutation, judge
    for top in ("pristine", "code"):
        for rel in host_mutation.MUTATED:
            (tmp_path / top / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / top / rel).write_text((ROOT / rel).read_text())
    rel = "host_stack/worker.py"
    text = (ROOT / rel).read_text()
    number = next(i for i, line in enumerate(text.splitlines(), 1)
                  if line.startswith(("import ", "from ")))      # a one-line statement
    lines = text.splitlines()
    lines[number - 1] = lines[number - 1] + "  # mutated"
    (tmp_path / "code" / rel).write_text("\n".join(lines) + "\n")
    line_map.LineMap({}, {}).save(tmp_path / line_map.MAP_FILE)
    assert judge.main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{judge.UNRUN}: no test of {judge.JUDGE} runs {rel}:{number} ")


def test_a_new_map_forgets_the_tests_of_an_earlier_one(tmp_path):
    """The map's folder keeps one folder per test of the run that made it; one left by
    an earlier map (a test renamed since) would make every judge naming it run nothing."""
    stale = tmp_path / "coverage" / "a-test-renamed-since"
    stale.mkdir(parents=True)
    (stale / "nodeid").write_text("conformance/test_host_stack.py::test_renamed_since")
    found, _, _ = line_map.build(tmp_path / "code", [sys.executable, "-c", "pass"],
                              dict(os.environ), tmp_path / "coverage", ())
    assert not stale.exists() and found.lines == {}

