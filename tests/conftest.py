"""What every test of the project shares: the conformance suite's outputs go to a
temporary folder of this session, not to the checkout's ``reports/``.

The plugin writes a summary at the end of any session in which tests used a target
(some of the project's own tests do, in process), and many tests start the suite in a
fresh pytest process from the checkout (mutants, the command line, the release program).
Left to its defaults, ``make test`` would overwrite the summary of the user's last
``make conformance`` with its own few tests, and leave failure folders in
``reports/artifacts`` although everything passed. The plugin reads both places from the
environment, which xdist workers and the suites they start inherit; the controller sets
them at configure time, before anything is written, and removes the folder at the end.

That ``make test`` leaves nothing running is the plugin's too: it loads
``atp_fixtures.running.leftover_check`` in every session.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

OUTPUT_VARIABLES = ("ATP_SUMMARY_JSON", "ATP_ARTIFACTS_DIR")
_SAVED = pytest.StashKey[tuple[Path, dict]]()


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):      # an xdist worker: the controller's are inherited
        return
    folder = Path(tempfile.mkdtemp(prefix="atp-test-suite-outputs-"))
    config.stash[_SAVED] = folder, {name: os.environ.get(name) for name in OUTPUT_VARIABLES}
    os.environ["ATP_SUMMARY_JSON"] = str(folder / "summary.json")
    os.environ["ATP_ARTIFACTS_DIR"] = str(folder / "artifacts")


def pytest_unconfigure(config: pytest.Config) -> None:
    saved = config.stash.get(_SAVED, None)
    if saved is None:
        return
    folder, values = saved
    for name, value in values.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    shutil.rmtree(folder, ignore_errors=True)
