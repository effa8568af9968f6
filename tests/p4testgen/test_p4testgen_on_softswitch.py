"""P4Testgen's PTF files, unmodified, through ``ptf`` against the softswitch, with the
Tofino SDE's own client (``bfrt_grpc``, ``BfRuntimeTest``), as they would run against
bf_switchd and the Tofino model: the program in ``python -m p4sim.switchd``, a veth pair
per port the tests use, ``ptf --test-dir`` over the set's folder (tests/sde_ptf/ptf_run.py).

Every test must pass except those ``triage.yaml`` expects to fail on the softswitch, and
those must fail (strict). In ``make test``: the hand-written sets and the generated sets
listed under ``softswitch_ci`` in programs.yaml; every set with ``ATP_P4TESTGEN_PTF=all``
(``make p4testgen-ptf``). P4Testgen's template waits 2 s for stray packets after every
test, so a set costs about 2 s a test.
"""

from __future__ import annotations

import os
import re

import pytest

from p4sim.switchd.launch import LaunchError
from ptf_run import PtfNotRunnable, run_ptf
from testgen_sets import (GENERATED, HANDWRITTEN, load_sets, softswitch_ci_sets, triage,
                          xfail_reason)

SETS = {s.name: s for s in load_sets(GENERATED) + load_sets(HANDWRITTEN)}
ALL = os.environ.get("ATP_P4TESTGEN_PTF") == "all"
CI = set(softswitch_ci_sets())
_RAN = re.compile(r"^Ran (\d+) tests? in", re.M)
_FAILED = re.compile(r"^(?:FAIL|ERROR): \S+ \((?:[\w.]*\.)?(Test\d+)(?:\.\w+)?\)", re.M)

pytestmark = pytest.mark.xdist_group("softswitch-veth")


def failed_tests(output: str) -> set[str]:
    """The ``Test<N>`` classes unittest's summary lists as FAIL or ERROR."""
    return set(_FAILED.findall(output))


def ports_of(test_set) -> tuple[int, ...]:
    ports = set()
    for t in test_set.read().tests:
        ports.add(t.ingress_port)
        if t.expected is not None:
            ports.add(t.expected.port)
    return tuple(sorted(ports))


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
    tests = [t.name for t in s.read().tests]
    expected_failures = {t for t in tests
                         if xfail_reason(triage(), name, t, run="softswitch")}
    try:
        r = run_ptf(s.program, s.p4_name, s.folder.resolve(), sde_python_dir, tmp_path,
                    ports=ports_of(s), switchd_args=switchd_args(s))
    except LaunchError as e:
        pytest.skip(f"cannot start a softswitch on veth pairs here: {e}")
    except PtfNotRunnable as e:
        pytest.fail(f"P4Testgen's PTF file cannot run here: {e}")
    tail = "\n".join(r.output.splitlines()[-80:])
    ran = _RAN.search(r.output)
    assert ran and int(ran.group(1)) == len(tests), \
        f"ptf ran other tests than the {len(tests)} of {s.ptf_file}:\n{tail}"
    failed = failed_tests(r.output)
    assert failed == expected_failures, (
        f"unexpected failures {sorted(failed - expected_failures)}, unexpected passes "
        f"{sorted(expected_failures - failed)} (triage.yaml, runs: softswitch)\n"
        f"{' '.join(r.command)}\n{tail}")
