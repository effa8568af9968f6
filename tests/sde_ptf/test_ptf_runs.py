"""SDE-style PTF tests (tests/sde_ptf/ptf/*/test.py: BfRuntimeTest, bfrt_grpc and
ptf.testutils, unmodified SDE client) run by the ptf runner against the softswitch, and
the small TNA programs they test compiled by bf-p4c."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from p4sim.switchd.launch import LaunchError
from ptf_run import run_ptf
from sde_python import REPO

sys.path.insert(0, str(REPO / "tests" / "p4src"))
from bf_p4c_finder import find_bf_p4c  # noqa: E402

PTF_DIR = Path(__file__).resolve().parent / "ptf"
OWN_PROGRAMS = ("exact_mcast", "register_counter", "digest_learn", "meters",
                "port_metadata", "entry_handles")
# name: (program, its PTF test directory); the program's p4 name is the key
RUNS = {name: (PTF_DIR / name / f"{name}.p4", PTF_DIR / name) for name in OWN_PROGRAMS}
RUNS["atp"] = (REPO / "p4src" / "atp.p4", PTF_DIR / "atp")
EXPECTED_TESTS = {"exact_mcast": 2, "register_counter": 1, "atp": 1, "digest_learn": 1,
                  "meters": 3, "port_metadata": 1,
                  "entry_handles": 1}   # runTest classes

pytestmark = pytest.mark.xdist_group("softswitch-veth")


@pytest.mark.parametrize("name", sorted(RUNS))
def test_sde_ptf_tests_pass_on_the_softswitch(name, sde_python, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("PTF and the softswitch need root (veth pairs, raw sockets)")
    program, test_dir = RUNS[name]
    try:
        r = run_ptf(program, name, test_dir, sde_python, tmp_path)
    except LaunchError as e:
        pytest.skip(f"cannot start a softswitch on veth pairs here: {e}")
    tail = "\n".join(r.output.splitlines()[-60:])
    assert r.returncode == 0, f"ptf failed ({' '.join(r.command)}):\n{tail}"
    ran = re.search(r"^Ran (\d+) tests? in", r.output, re.M)
    assert ran and int(ran.group(1)) == EXPECTED_TESTS[name], f"ptf ran other tests:\n{tail}"
    assert re.search(r"^OK$", r.output, re.M), tail


@pytest.mark.slow
@pytest.mark.parametrize("name", OWN_PROGRAMS)
def test_bf_p4c_compiles_the_ptf_programs(name, tmp_path):
    bf_p4c, looked = find_bf_p4c()
    if bf_p4c is None:
        pytest.skip("no bf-p4c found; looked at: " + "; ".join(looked))
    program = PTF_DIR / name / f"{name}.p4"
    done = subprocess.run([bf_p4c, "--target", "tofino", "--arch", "tna", "-o",
                           str(tmp_path / "out"), str(program)],
                          capture_output=True, text=True, timeout=1800)
    out = done.stdout + done.stderr
    assert done.returncode == 0 and "0 errors" in out, out[-3000:]
    assert (tmp_path / "out" / "bfrt.json").exists()
