"""Where a run's outputs go, as a new user meets them: every folder a run writes is
ignored by git and removed by ``make clean``, and the project's own tests never write
the user's ``reports/summary.json`` or ``reports/artifacts``."""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
from pathlib import Path

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
