"""A pytest plugin for the host mutation run (tests/mutation/host_mutation.py): the run's
worker and PS processes import the host code from ``$ATP_HOST_CODE`` (a copy that the
mutation tool mutates), while the suite that judges them (the reference workers that
replay the captures, the oracles) imports the intact checkout.

    ATP_HOST_CODE=/tmp/copy python -m pytest conformance/test_host_stack.py \
        --target=softswitch -p tests.mutation.plugin

With ``$ATP_HOST_COVERAGE`` (a directory) as well, the host processes run under
coverage.py and each test's processes write their data under its own subdirectory
(tests/mutation/line_map.py reads them: which tests run which line of the copy).
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

import pytest

from host_stack import session

COVERAGE_RC = "coverage.rc"       # in $ATP_HOST_COVERAGE, written by line_map.py


def host_code_template(template: str, code: Path, coverage: Path | None = None) -> str:
    """``template`` (a ``{python} -m host_stack.<role>`` command) run on ``code``:
    ``python -P`` keeps the working directory off ``sys.path``, so ``PYTHONPATH``
    comes before the editable install (coverage.py's ``run -m`` keeps to that too)."""
    python = shlex.quote(sys.executable)
    runner = f"{python} -P -m "
    if coverage is not None:
        rc = shlex.quote(str(coverage / COVERAGE_RC))
        runner = f"{python} -P -m coverage run --rcfile={rc} -m "
    return template.replace(f"{python} -m ",
                            f"env PYTHONPATH={shlex.quote(str(code))} {runner}", 1)


def test_directory(coverage: Path, nodeid: str) -> Path:
    """Where one test's host processes write their coverage data."""
    return coverage / re.sub(r"[^\w.-]+", "_", nodeid)


def pytest_configure(config) -> None:
    code = os.environ.get("ATP_HOST_CODE")
    if not code:
        return
    if not (Path(code) / "host_stack" / "worker.py").is_file():
        raise ValueError(f"ATP_HOST_CODE={code}: no host_stack/worker.py there; point it "
                         f"at the copy of the host code the mutation run mutates")
    coverage = os.environ.get("ATP_HOST_COVERAGE")
    coverage = Path(coverage) if coverage else None
    default = session.HostStackCommand()
    session.HostStackCommand.__init__.__defaults__ = (
        host_code_template(default.worker, Path(code), coverage),
        host_code_template(default.ps, Path(code), coverage),
        f"{default.name}, host code from {code}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Under ``$ATP_HOST_COVERAGE``, this test's host processes (which inherit the
    environment through ``ip netns exec``) write to their own directory."""
    coverage = os.environ.get("ATP_HOST_COVERAGE")
    if not coverage:
        yield
        return
    where = test_directory(Path(coverage), item.nodeid)
    where.mkdir(parents=True, exist_ok=True)
    (where / "nodeid").write_text(item.nodeid)
    os.environ["COVERAGE_FILE"] = str(where / ".coverage")
    try:
        yield
    finally:
        os.environ.pop("COVERAGE_FILE", None)
