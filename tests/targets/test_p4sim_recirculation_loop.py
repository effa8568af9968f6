"""A program that sends a frame round forever fails on the p4sim target (which drops
it after MAX_PASSES) instead of passing because no frame shows the loop: a mutant of
atp.p4 that promoted a single-rack frame without workers up, pass after pass, survived
every test until the driver said so."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from p4sim.mutation import generate

from atp_fixtures.mutation.program import ATP_PROGRAM, ProgramUnderTest

ROOT = Path(__file__).resolve().parents[2]
TRACE = "rule-8-single-rack-frame-at-upper-without-workers"


def _replay(p4src: Path | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    if p4src is not None:
        env["ATP_P4SRC"] = str(p4src)
    return subprocess.run([sys.executable, "-m", "pytest", "conformance/test_wire_conformance.py",
                           "-k", TRACE, "--target=p4sim", "--p4-build=tofino", "-q", "-n", "0",
                           "-p", "no:cacheprovider", "-o", "addopts=--strict-markers"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def test_a_recirculation_loop_fails_the_trace(tmp_path):
    program = ProgramUnderTest(ATP_PROGRAM, [], {}, "tofino")
    loop = next(m for m in generate(str(ATP_PROGRAM), [], program.build_defines())
                if m.id == "entry_action@atp.p4:236:69#4")
    assert "promote_up" in loop.description
    copy = program.copy_to(tmp_path)
    program.write_mutant(copy, loop)
    done = _replay(copy.main.parent)
    assert done.returncode == 1, done.stdout[-2000:]
    assert "RecirculationLoop" in done.stdout and "recirculate it forever" in done.stdout
    intact = _replay(None)
    assert intact.returncode == 0, intact.stdout[-2000:]
