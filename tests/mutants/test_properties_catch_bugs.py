"""Each conformance property catches at least one injected bug: the suite is run on a
reference switch with one rule broken (tests/mutants/plugin.py) and must fail, with a
message that says what went wrong."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CASES = [
    # (property module, -k selection, mutant, text the failure report must contain)
    ("test_exactly_once.py", "corpus", "no_overwrite",
     "differ from the exact sum"),
    ("test_overflow.py", "switch_saturation_path", "wrapping_add",
     "only float mode is correct"),
    ("test_reclamation.py", "lost_parameter_packets", "parameter_keeps_owner",
     "still owned after the run"),
    ("test_two_level.py", "corpus", "partial_rack_goes_up",
     "differ from the exact sum"),
    ("test_isolation.py", "corpus", "owner_ignores_app",
     "job"),
    ("test_liveness.py", "corpus", "drop_passing_resends",
     "did not finish"),
    ("test_wire_conformance.py", "corpus and ownership", "no_collision_flag",
     "DIFFERS"),
]


def _run(module: str, selection: str, mutant: str | None) -> subprocess.CompletedProcess:
    env = dict(os.environ, ATP_MUTANT=mutant or "")
    env.pop("PYTEST_XDIST_WORKER", None)
    return subprocess.run(
        [sys.executable, "-m", "pytest", f"conformance/{module}", "-k", selection,
         "-p", "tests.mutants.plugin", "-p", "no:cacheprovider", "-q", "-x",
         "--hypothesis-profile=ci", "--seed=1", "-o", "addopts=--strict-markers"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
@pytest.mark.parametrize("module,selection,mutant,evidence", CASES,
                         ids=[f"{c[0][5:-3]}-{c[2]}" for c in CASES])
def test_property_fails_on_injected_bug(module, selection, mutant, evidence):
    result = _run(module, selection, mutant)
    output = result.stdout + result.stderr
    assert result.returncode == 1, (
        f"conformance/{module} -k '{selection}' should FAIL with mutant {mutant}, "
        f"exit {result.returncode}:\n{output[-3000:]}")
    assert evidence in output, f"the failure report lacks {evidence!r}:\n{output[-3000:]}"


@pytest.mark.slow
def test_same_selections_pass_without_a_mutant():
    """Control: the selections above pass on the intact reference, so the failures are
    the injected bugs' doing."""
    for module, selection, _, _ in CASES:
        result = _run(module, selection, None)
        assert result.returncode == 0, (
            f"conformance/{module} -k '{selection}' fails without a mutant:\n"
            f"{(result.stdout + result.stderr)[-3000:]}")
