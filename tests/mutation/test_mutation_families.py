"""Each scenario family written for survivors of a mutation run kills the mutants it
names (and passes on atp.p4 as it is): the conformance test that runs the family fails
on a copy of p4src/ with the mutant in it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from p4sim.mutation import generate

from atp_fixtures.generation.mutation_families import FAMILIES
from atp_fixtures.mutation.program import ATP_PROGRAM, ProgramUnderTest

ROOT = Path(__file__).resolve().parents[2]


def _family_test(family) -> list[str]:
    module = "test_two_level.py" if family.two_level else "test_exactly_once.py"
    return [f"conformance/{module}", "-k", f"mutation_family and {family.name}"]


def _suite(family, p4src: Path | None, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    if p4src is not None:
        env["ATP_P4SRC"] = str(p4src)
    return subprocess.run([sys.executable, "-m", "pytest", *_family_test(family),
                           "--target=p4sim", "-q", "-x", "-p", "no:cacheprovider",
                           "-o", "addopts=--strict-markers"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)


CASES = [(name, mid) for name, f in FAMILIES.items() for mid in f.kills]


@pytest.mark.slow
@pytest.mark.parametrize("name", list(FAMILIES))
def test_family_passes_on_atp_p4(name, tmp_path):
    done = _suite(FAMILIES[name], None, tmp_path)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    assert "1 passed" in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("name,mutant_id", CASES, ids=[f"{n}-{m}" for n, m in CASES])
def test_family_kills_its_mutant(name, mutant_id, tmp_path):
    program = ProgramUnderTest(ATP_PROGRAM, [], {}, "wide")
    mutants = {m.id: m for m in generate(str(ATP_PROGRAM), [], program.build_defines())}
    assert mutant_id in mutants, f"{mutant_id} is no longer a mutant of atp.p4: update {name}"
    copy = program.copy_to(tmp_path)
    program.write_mutant(copy, mutants[mutant_id])
    done = _suite(FAMILIES[name], copy.main.parent, tmp_path)
    assert done.returncode == 1, (f"family {name} lets {mutant_id} through "
                                  f"(exit {done.returncode}):\n{(done.stdout + done.stderr)[-3000:]}")
