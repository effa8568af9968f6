"""What every test of the project shares: the conformance suite's outputs go to this
session's temporary folder.

Many tests start the suite in a fresh pytest process from the checkout (mutants, the
command line, the release program). Left to its defaults, each such run would write
``reports/summary.json`` and ``reports/artifacts/<test>/`` of the checkout, so
``make test`` would overwrite the summary of the user's last ``make conformance`` with
its own few tests and leave failure folders behind although everything passed. The
plugin reads both places from the environment, which the children inherit.
"""

from __future__ import annotations

import os

import pytest

OUTPUT_VARIABLES = ("ATP_SUMMARY_JSON", "ATP_ARTIFACTS_DIR")


@pytest.fixture(autouse=True, scope="session")
def suite_outputs_outside_the_checkout(tmp_path_factory):
    folder = tmp_path_factory.mktemp("suite-outputs")
    saved = {name: os.environ.get(name) for name in OUTPUT_VARIABLES}
    os.environ["ATP_SUMMARY_JSON"] = str(folder / "summary.json")
    os.environ["ATP_ARTIFACTS_DIR"] = str(folder / "artifacts")
    yield folder
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
