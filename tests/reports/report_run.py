"""Run a test file in a fresh pytest process (the plugin as a user meets it) and read
back its outcome counts."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path


@dataclass
class SuiteRun:
    returncode: int
    output: str
    outcomes: dict[str, int]


def run_suite(path: Path, source: str, *args: str, env: dict[str, str] | None = None,
              timeout: float = 300) -> SuiteRun:
    """Write ``source`` as ``path/test_demo.py`` and run pytest on it there (artifacts
    under ``path/artifacts``, the summary under ``path/reports``)."""
    (path / "test_demo.py").write_text(textwrap.dedent(source))
    environ = {**os.environ, "ATP_ARTIFACTS_DIR": str(path / "artifacts"), **(env or {})}
    environ.pop("ATP_SUMMARY_JSON", None)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=",
         "--rootdir", str(path), "test_demo.py", "--target=reference", *args],
        cwd=path, env=environ, capture_output=True, text=True, timeout=timeout)
    output = proc.stdout + proc.stderr
    last = [line for line in output.splitlines() if " in " in line and "=" in line]
    outcomes = {}
    if last:
        for count, word in re.findall(r"(\d+) (passed|failed|skipped|xfailed|xpassed|"
                                      r"errors?)", last[-1]):
            outcomes[word] = int(count)
    return SuiteRun(proc.returncode, output, outcomes)
