"""Where a run's outputs go, as a new user meets them: every folder a run writes is
ignored by git and removed by ``make clean``, and the project's own tests never write
the user's ``reports/summary.json`` or ``reports/artifacts``."""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
from pathlib import Path
from types import SimpleNamespace

from atp_fixtures.report.artifacts import failure_folder
from atp_fixtures.report.summary import summary_path

ROOT = Path(__file__).resolve().parents[2]


def _written_by_runs() -> set[str]:
    """The output folders the CI script and the Makefile name, plus the plugin's own."""
    text = (ROOT / ".ci" / "run").read_text() + (ROOT / "Makefile").read_text()
    named = set(re.findall(r"(reports/allure-[a-z-]+|reports/(?:summary|p4-coverage)-[a-z0-9-]+"
                           r"\.json)", text))
    return named | {"reports/artifacts", "reports/summary.json", "reports/allure-results"}


def test_every_output_is_ignored_by_git():
    ignored = {line.strip().rstrip("/") for line in (ROOT / ".gitignore").read_text()
               .splitlines()}
    missing = sorted(path for path in _written_by_runs()
                     if not any(fnmatch.fnmatch(path, pattern) for pattern in ignored))
    assert not missing, f".gitignore lacks {missing}"


def test_make_clean_removes_every_output():
    dry = subprocess.run(["make", "-n", "clean"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert dry.returncode == 0, dry.stderr
    removed = set(dry.stdout.split())
    missing = sorted(_written_by_runs() - removed)
    assert not missing, f"make clean leaves {missing}:\n{dry.stdout}"


def test_suite_runs_started_by_the_tests_write_outside_the_checkout():
    reports = ROOT / "reports"
    summary = summary_path(ROOT)
    artifacts = Path(os.environ["ATP_ARTIFACTS_DIR"])
    for path in (summary, artifacts):
        assert reports not in path.parents, (
            f"{path}: a suite run started by make test would overwrite the user's own")


def test_the_artifacts_folder_is_read_when_needed_not_at_import(monkeypatch, tmp_path):
    """$ATP_ARTIFACTS_DIR set after the suite's modules were imported moves a failing
    test's folder and the host-stack runs' work folders (the conformance modules ask
    ``atp_fixtures.report.artifacts`` each time; none reads the variable itself)."""
    import conformance.test_host_stack as host_stack_tests
    workdirs = []

    def run_on_testbed(scenario, workdir, **options):
        workdirs.append(workdir)
        return SimpleNamespace(summary=lambda: "not run")

    monkeypatch.setattr(host_stack_tests, "run_on_testbed", run_on_testbed)
    node = SimpleNamespace(name="test_x", nodeid="conformance/test_h.py::test_x")
    scenario = host_stack_tests.load("parameter-loss")
    for root in (tmp_path / "first", tmp_path / "second"):
        monkeypatch.setenv("ATP_ARTIFACTS_DIR", str(root))
        for folder in ("host_stack", "host_stack_external"):
            host_stack_tests.run_scenario_here(SimpleNamespace(node=node), scenario,
                                               "bridge", folder)
            assert workdirs[-1] == root / folder / "test_x"
        assert failure_folder(node) == root / "conformance_test_h.py_test_x"
    readers = sorted(p.name for p in (ROOT / "conformance").glob("*.py")
                     if "ATP_ARTIFACTS_DIR" in p.read_text())
    assert not readers, f"{readers} read $ATP_ARTIFACTS_DIR themselves"
