"""The Tofino SDE's own TNA example programs with their unmodified PTF tests against a
4-pipe softswitch (sde_examples.py), from the open-p4studio checkout the user names in
$OPEN_P4STUDIO; skipped, saying so, without one. Each example's test classes must pass
at least as many as docs/sde-examples.md records (ratchet: the count may only grow)."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from sde_examples import ENV_VAR, ISSUE_EXAMPLES, examples_dir, run_example
from sde_python import REPO

RECORD = REPO / "docs" / "sde-examples.md"
pytestmark = pytest.mark.xdist_group("softswitch-veth")


def recorded_passes() -> dict[str, int]:
    """Example -> classes passed, from the table of docs/sde-examples.md."""
    rows = re.findall(r"^\| `(tna_\w+)` \| (\d+) \| (\d+) \|", RECORD.read_text(), re.M)
    return {name: int(after) for name, _before, after in rows}


def test_the_record_lists_every_example_of_the_issue():
    assert set(recorded_passes()) == set(ISSUE_EXAMPLES)


@pytest.mark.slow
@pytest.mark.parametrize("name", ISSUE_EXAMPLES)
def test_sde_example_passes_as_recorded(name, sde_python, tmp_path):
    d = examples_dir()
    if d is None:
        pytest.skip(f"no open-p4studio checkout: set {ENV_VAR} to one (its "
                    f"pkgsrc/p4-examples/p4_16_programs holds the SDE's TNA examples)")
    if os.geteuid() != 0:
        pytest.skip("PTF and the softswitch need root (veth pairs, raw sockets)")
    res = run_example(d / name, sde_python, tmp_path)
    if res.note.startswith("cannot start the softswitch"):
        pytest.skip(res.note)
    want = recorded_passes()[name]
    failing = {c: o for c, o in res.classes.items() if o != "pass"}
    assert res.passed >= want, (f"{name}: {res.passed} classes passed, {want} recorded; "
                                f"not passing: {failing} {res.note} (logs: {tmp_path})")
