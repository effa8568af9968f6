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
from ptf_run import PtfNotRunnable, run_ptf, thrift_pd_imports
from sde_python import REPO

sys.path.insert(0, str(REPO / "tests" / "p4src"))
from bf_p4c_finder import find_bf_p4c  # noqa: E402

PTF_DIR = Path(__file__).resolve().parent / "ptf"
OWN_PROGRAMS = ("exact_mcast", "register_counter", "action_selector", "register_param",
                "flexible", "digest_learn", "meters", "port_metadata", "entry_handles",
                "lpf_wred")
# name: (program, its PTF test directory); the program's p4 name is the key
RUNS = {name: (PTF_DIR / name / f"{name}.p4", PTF_DIR / name) for name in OWN_PROGRAMS}
RUNS["atp"] = (REPO / "p4src" / "atp.p4", PTF_DIR / "atp")
EXPECTED_TESTS = {"exact_mcast": 2, "register_counter": 1, "atp": 1,
                  "action_selector": 2, "register_param": 1, "flexible": 1,
                  "digest_learn": 1, "meters": 3, "port_metadata": 1, "entry_handles": 1,
                  "lpf_wred": 2}   # runTest classes

FLEXIBLE_GOLDEN = "bf-p4c-flexible_packing.log"

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
    except PtfNotRunnable as e:
        pytest.skip(str(e))
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
    # a program with @flexible headers keeps bf-p4c's packing log as a golden (-g
    # writes it), which tests/p4sim/test_p4sim_flexible.py compares with p4sim's layout
    golden = PTF_DIR / name / FLEXIBLE_GOLDEN
    debug = ["-g"] if golden.exists() else []
    done = subprocess.run([bf_p4c, "--target", "tofino", "--arch", "tna", *debug, "-o",
                           str(tmp_path / "out"), str(program)],
                          capture_output=True, text=True, timeout=1800)
    out = done.stdout + done.stderr
    assert done.returncode == 0 and "0 errors" in out, out[-3000:]
    assert (tmp_path / "out" / "bfrt.json").exists()
    if debug:
        log = tmp_path / "out" / "pipe" / "logs" / "flexible_packing.log"
        assert log.read_text() == golden.read_text()


def test_a_thrift_pd_test_is_skipped_naming_pd_base_tests(sde_python, tmp_path):
    """An SDE test on the Thrift PD base class cannot run here; run_ptf says so (file,
    line, the missing pd_base_tests) before it starts a switch, and the suite skips
    with that reason."""
    tests = tmp_path / "pd_test"
    tests.mkdir()
    (tests / "test.py").write_text("import logging\n"
                                   "from pd_base_tests import ThriftInterfaceDataPlane\n")
    with pytest.raises(PtfNotRunnable) as e:
        run_ptf(RUNS["register_counter"][0], "register_counter", tests, sde_python, tmp_path)
    msg = str(e.value)
    assert f"{tests / 'test.py'}:2 imports pd_base_tests" in msg
    assert "Thrift" in msg and "BfRuntimeTest" in msg
    for name, (_program, test_dir) in RUNS.items():     # ours all run
        assert thrift_pd_imports(test_dir) == [], name
