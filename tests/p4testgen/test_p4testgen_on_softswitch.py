"""P4Testgen's PTF files, unmodified, through ``ptf`` against the softswitch, with the
Tofino SDE's own client (``bfrt_grpc``, ``BfRuntimeTest``), as they would run against
bf_switchd and the Tofino model: the program in ``python -m p4sim.switchd``, a veth pair
per port the tests use, ``ptf --test-dir`` over the set's folder (tests/sde_ptf/ptf_run.py).

Every test must pass except those ``triage.yaml`` expects to fail on the softswitch, and
those must fail (strict). P4Testgen writes each test as if it ran alone, but its
template's ``tearDown`` removes only the table entries it added (default overrides,
register cells and RegisterParams stay), so a test that fails in the run of the whole
file, and each test triage.yaml expects to fail (its pass may be another test's state
too), runs again alone on a fresh device (``VERIFY_AND_WARM_INIT_BEGIN_AND_END``, what the
SDE client's ``clear_all_tables`` sends): its verdict is that run's; one that then
passes is printed as a leak of the template, not counted as a failure. In ``make test``: the hand-written sets and the generated sets
listed under ``softswitch_ci`` in programs.yaml; every set with ``ATP_P4TESTGEN_PTF=all``
(``make p4testgen-ptf``). P4Testgen's template waits 2 s for stray packets after every
test, so a set costs about 2 s a test.
"""

from __future__ import annotations

import os
import re

import pytest

from bfruntime import bfruntime_pb2 as pb
from bfruntime.client import BfRuntimeClient
from p4sim.switchd.launch import LaunchError
from ptf_run import PTF_TIMEOUT_S, PtfNotRunnable, ptf_session
from testgen_sets import (GENERATED, HANDWRITTEN, ProgramMissing, load_sets,
                          softswitch_ci_sets, triage, xfail_reason)

SETS = {s.name: s for s in load_sets(GENERATED) + load_sets(HANDWRITTEN)}
ALL = os.environ.get("ATP_P4TESTGEN_PTF") == "all"
CI = set(softswitch_ci_sets())
PER_TEST_S = 6         # the template's 2 s wait, the test itself and a margin for load
_RAN = re.compile(r"^Ran (\d+) tests? in", re.M)
# ptf's summary: "FAIL: <module>.Test3"; unittest's: "FAIL: runTest (<module>.Test3)"
_FAILED = re.compile(r"^(?:FAIL|ERROR): (?:\w+ \()?(?:\w+\.)*?(Test\d+)\b", re.M)

pytestmark = pytest.mark.xdist_group("softswitch-veth")


def failed_tests(output: str) -> set[str]:
    """The ``Test<N>`` classes ptf's (unittest's) summary lists as FAIL or ERROR."""
    return set(_FAILED.findall(output))


def ports_of(test_set) -> tuple[int, ...]:
    ports = set()
    for t in test_set.read().tests:
        ports.add(t.ingress_port)
        if t.expected is not None:
            ports.add(t.expected.port)
    return tuple(sorted(ports))


def warm_init(address: str, p4_name: str) -> None:
    """A fresh device for ``p4_name``, asked as the SDE client's ``clear_all_tables``
    asks it."""
    c = BfRuntimeClient(address, p4_name=p4_name, subscribe=False, bind=False)
    try:
        A = pb.SetForwardingPipelineConfigRequest
        req = A(device_id=c.device_id, client_id=c.client_id,
                action=A.VERIFY_AND_WARM_INIT_BEGIN_AND_END)
        req.config.add().p4_name = p4_name
        c.stub.SetForwardingPipelineConfig(req, timeout=c.timeout)
    finally:
        c.close()


def switchd_args(test_set) -> list[str]:
    args = []
    for k, v in test_set.defines.items():
        args += ["-D", k if v is None else f"{k}={v}"]
    for d in test_set.include_dirs:
        args += ["-I", str(d)]
    return args


@pytest.mark.parametrize("name", sorted(SETS))
def test_p4testgen_ptf_file_passes_on_the_softswitch(name, sde_python_dir, tmp_path):
    s = SETS[name]
    if not (ALL or s.handwritten or name in CI):
        pytest.skip(f"{name} is not in the softswitch CI selection (programs.yaml "
                    f"softswitch_ci); run every set with make p4testgen-ptf")
    if os.geteuid() != 0:
        pytest.skip("PTF and the softswitch need root (veth pairs, raw sockets)")
    try:
        s.program
    except ProgramMissing as e:
        pytest.skip(str(e))
    tests = [t.name for t in s.read().tests]
    expected_failures = {t for t in tests
                         if xfail_reason(triage(), name, t, run="softswitch")}
    try:
        with ptf_session(s.program, s.p4_name, s.folder.resolve(), sde_python_dir, tmp_path,
                         ports=ports_of(s), switchd_args=switchd_args(s)) as session:
            # P4Testgen's template waits 2 s for stray packets after each test: an atp.p4
            # set of 400 is over 13 min, so the budget grows with the set
            r = session.run(s.folder.resolve(),
                            timeout_s=max(PTF_TIMEOUT_S, PER_TEST_S * len(tests)))
            tail = "\n".join(r.output.splitlines()[-80:])
            ran = _RAN.search(r.output)
            assert ran and int(ran.group(1)) == len(tests), \
                f"ptf ran other tests than the {len(tests)} of {s.ptf_file}:\n{tail}"
            assert r.returncode == 0 or failed_tests(r.output), \
                f"ptf failed (exit {r.returncode}) without a failed test in its summary:\n{tail}"
            # each test whose shared-run verdict is not the expected pass runs again alone
            # on a fresh device, and that verdict counts: a failure may be state an
            # earlier test left, and so may the pass of a triaged test (atp-tofino
            # Test269 passed after others: an earlier packet had filled the register
            # cell it reads, which P4Testgen sets at index 0)
            alone = {}
            for t in sorted(failed_tests(r.output) | expected_failures):
                warm_init(session.address, s.p4_name)
                alone[t] = session.run(s.folder.resolve(), (f"{s.p4_name}.{t}",))
    except LaunchError as e:
        pytest.skip(f"cannot start a softswitch on veth pairs here: {e}")
    except PtfNotRunnable as e:
        pytest.fail(f"P4Testgen's PTF file cannot run here: {e}")
    failed = {t for t, rr in alone.items() if rr.returncode != 0 or failed_tests(rr.output)}
    leaked = sorted(set(alone) - failed)
    if leaked:
        print(f"{name}: {leaked} failed after other tests and passed alone on a fresh "
              f"device (state P4Testgen's tearDown leaves behind)")
    if s.handwritten:       # the hand-written sets say which of their tests leak
        assert leaked == s.provenance.get("leaks_in_a_shared_run", []), leaked
    details = "\n".join(f"--- {t} alone: {' '.join(alone[t].command)}\n"
                        + "\n".join(alone[t].output.splitlines()[-40:])
                        for t in sorted(failed - expected_failures))
    assert failed == expected_failures, (
        f"unexpected failures {sorted(failed - expected_failures)}, unexpected passes "
        f"{sorted(expected_failures - failed)} (triage.yaml, runs: softswitch)\n"
        f"{' '.join(r.command)}\n{tail}\n{details}")
