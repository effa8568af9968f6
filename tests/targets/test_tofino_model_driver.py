"""The tofino-model and hardware drivers, run end to end here against a softswitch in
bf_switchd's place (our own veths, unique ``tgt`` names, always removed):

- the suite's own command, ``pytest conformance/ --target=tofino-model
  --testbed=fixtures/testbeds/softswitch-as-model.yaml``: the corpus replays byte for byte
  and a closed-loop property holds, with ``-n 2`` in two xdist workers;
- ``-n N`` on a testbed naming running switches (one client binds each): every worker
  binds its own share of them and runs its multi-rack scenarios on its own switches;
- the testbed path a user has (``grpc`` + ``ports``, the switch already running, as the
  Tofino model): capabilities the model lacks, device-port mapping, teardown releasing
  the binding, ``$PORT`` bring-up and an interface that is down.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from bfruntime.client import BfRuntimeClient
from atp_fixtures.oracles.comparator import assert_matches, compare
from atp_fixtures.plugin import DEFAULT_CORPUS
from atp_fixtures.running.replay import replay
from atp_fixtures.targets import open_target
from atp_fixtures.targets.base import (ATTRIBUTED_OUTPUT, QUEUE_DEPTH, READ_REGISTERS, SWITCH_CLOCK,
                                   TargetError)
from atp_fixtures.targets.softswitch import SoftswitchLauncher, softswitch_unavailable
from atp_fixtures.targets.testbed import load_testbed
from atp_fixtures.evidence.trace import load_trace
from p4src.control.aggregation import TOFINO_POOL_MAX

ROOT = Path(__file__).resolve().parents[2]
AS_MODEL = ROOT / "fixtures" / "testbeds" / "softswitch-as-model.yaml"
L2_TRACE = DEFAULT_CORPUS / "traces" / "rule-5-l2-forwarding.json"

pytestmark = pytest.mark.skipif(bool(softswitch_unavailable()),
                                reason=f"a softswitch cannot start here: "
                                       f"{softswitch_unavailable()}")


def _existing(names) -> set[str]:
    """Of ``names`` (ours only), those still present."""
    return {n for n in names if os.path.exists(f"/sys/class/net/{n}")}


def _in_two_workers(tmp_path, testbed, *tests: str) -> tuple[Path, str]:
    """``tests`` on the tofino-model target with ``testbed`` under -n 2, which must pass
    in two xdist workers; (its junit file, the end of its output)."""
    junit = tmp_path / "junit.xml"
    env = dict(os.environ, ATP_SUMMARY_JSON=str(tmp_path / "summary.json"),
               ATP_ARTIFACTS_DIR=str(tmp_path / "artifacts"))
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2", *tests,
         "--target=tofino-model", f"--testbed={testbed}", f"--junitxml={junit}"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200)
    out = r.stdout[-6000:] + r.stderr[-3000:]
    assert r.returncode == 0, out
    assert "2 workers" in r.stdout, "did not run in 2 xdist workers: " + out
    return junit, out


def test_conformance_runs_on_the_tofino_model_driver(tmp_path):
    """The corpus (wire conformance) and a closed-loop property (exactly-once, in
    lockstep with the reference) through the tofino-model driver, in two xdist workers
    (the testbed names 8 switches: 4 each)."""
    junit, out = _in_two_workers(
        tmp_path, AS_MODEL,
        "conformance/test_wire_conformance.py::test_corpus_trace_replays_identically",
        "conformance/test_exactly_once.py::test_single_worker_job_overwrites_stale_values")
    cases = ET.parse(junit).getroot().iter("testcase")
    passed, skipped = [], []
    for case in cases:
        assert case.find("failure") is None and case.find("error") is None, out
        (skipped if case.find("skipped") is not None else passed).append(case.get("name"))
    spec_traces = [load_trace(p) for p in (DEFAULT_CORPUS / "traces").glob("*.json")]
    spec_traces = [t for t in spec_traces if t.profile == "spec"]
    # the switch runs the Tofino build: a trace configuring a larger pool is skipped
    fits = {t.name for t in spec_traces
            if max(sw.config.pool_size for sw in t.switches.values()) <= TOFINO_POOL_MAX}
    assert len(fits) >= 20
    for trace in spec_traces:
        test = f"test_corpus_trace_replays_identically[{trace.name}]"
        assert test in (passed if trace.name in fits else skipped), (trace.name, out)
    assert "test_single_worker_job_overwrites_stale_values" in passed, out
    # besides the pools too large, only atp-release traces are skipped
    assert all("9." in name or name.split("[")[-1].rstrip("]") not in fits
               for name in skipped), skipped


# every port the corpus's one- and two-rack scenarios use on a switch
PARALLEL_PORTS = tuple(range(1, 13)) + (100, 101, 102, 103)


@pytest.fixture(scope="module")
def four_running_switches():
    """Four softswitches standing in for four bf_switchd + models: no trailer, so the
    driver runs as on a Tofino (stop-and-wait, registers read over BfRuntime); their
    clock stays at 0, the time the lockstep gives its shadows when the switch keeps its
    own (with real time, leak timeouts the scenarios do not plan would fire)."""
    launchers = []
    try:
        for i in range(4):
            launchers.append(SoftswitchLauncher(list(PARALLEL_PORTS), clock="zero",
                                                pool_max=None, tag=f"tgtpar{i}"))
        yield launchers
    finally:
        for launcher in launchers:
            launcher.close()


@pytest.mark.slow
def test_n_workers_each_bind_their_own_switches_of_the_testbed(tmp_path,
                                                                four_running_switches):
    """``-n 2`` on a testbed naming four running switches: two workers, each binding
    its own two (a second client binding a switch is refused, so a shared one would
    fail the run), the two-rack corpus scenarios on two switches of their worker."""
    lines = ["target: tofino-model", "p4_name: atp", "timeout_s: 30", "switches:"]
    for launcher in four_running_switches:
        lines.append(f"  - grpc: {launcher.address}")
        lines.append("    ports:")
        lines += [f"      {port}: {{interface: {iface}, device_port: {port}}}"
                  for port, iface in sorted(launcher.interfaces.items())]
    bed = tmp_path / "four-switches.yaml"
    bed.write_text("\n".join(lines) + "\n")
    junit, out = _in_two_workers(
        tmp_path, bed,
        "conformance/test_two_level.py::test_corpus_multi_rack_equals_single_switch",
        "conformance/test_exactly_once.py::test_single_worker_job_overwrites_stale_values",
        "conformance/test_reclamation.py::test_teardown_releases_dead_job")
    taken: dict[str, set[str]] = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        assert case.find("failure") is None and case.find("error") is None, out
        skipped = case.find("skipped")
        if skipped is not None:          # a corpus scenario of 4 racks: over a share of 2
            assert "this xdist worker takes 2 of the 4 switches" in skipped.get("message"), \
                (case.get("name"), out)
            continue
        props = {p.get("name"): p.get("value") for p in case.iter("property")}
        taken[case.get("name")] = set(props["atp_testbed_switches"].split(","))
    multi = [name for name in taken if "multi_rack" in name]
    assert len(multi) >= 2 and all(len(taken[name]) == 2 for name in multi), taken
    # each run's switches are one worker's share: 0 and 2, or 1 and 3 (never 0 and 1)
    assert all(s <= {"0", "2"} or s <= {"1", "3"} for s in taken.values()), taken


@pytest.fixture(scope="module")
def running_switch():
    """A softswitch on 4 ports standing in for bf_switchd + the model (real clock)."""
    launcher = SoftswitchLauncher([1, 2, 3, 4], clock="real", tag="tgtext")
    names = launcher.all_interfaces
    try:
        yield launcher
    finally:
        launcher.close()
        assert not _existing(names), "the switch left veths behind"


def _testbed(tmp_path, launcher, target: str, *, setup: str = "", extra: str = ""):
    """Suite ports 1, 2, 3, 9 (the l2 trace's) on device ports 4, 3, 2, 1."""
    lines = [f"target: {target}", f"grpc: {launcher.address}", "p4_name: atp",
             "timeout_s: 30", "port_up_timeout_s: 3", extra, "ports:"]
    for port, dev in ((1, 4), (2, 3), (3, 2), (9, 1)):
        lines.append(f"  {port}: {{interface: {launcher.interfaces[dev]}, "
                     f"device_port: {dev}{setup}}}")
    path = tmp_path / f"{target}.yaml"
    path.write_text("\n".join(lines) + "\n")
    return load_testbed(path)


def test_model_driver_on_a_running_switch(tmp_path, running_switch):
    target = open_target("tofino-model", _testbed(tmp_path, running_switch, "tofino-model"))
    try:
        assert not target.has(SWITCH_CLOCK) and not target.has(QUEUE_DEPTH)
        assert target.has(ATTRIBUTED_OUTPUT) and target.has(READ_REGISTERS)
        switch = next(iter(load_trace(L2_TRACE).switches.values()))
        result = compare(switch, replay(switch, target, "spec"))
        assert_matches([result])
        # the control plane wrote device ports: the PS route goes to device port 1
        routes = target.client.entry_get("pipe.Ingress.forwarding.job_route")
        assert [e.data["to_ps"] for e in routes] == [1]
        assert target.interfaces == ()              # it started nothing
    finally:
        target.close()
    with BfRuntimeClient(running_switch.address, p4_name="atp", timeout=10):
        pass                                        # closing released the binding


def test_without_port_stats_collect_waits_for_quiet(tmp_path, running_switch):
    bed = _testbed(tmp_path, running_switch, "tofino-model",
                   extra="port_stats: false\nquiet_ms: 300")
    target = open_target("tofino-model", bed)
    try:
        assert not target.has(ATTRIBUTED_OUTPUT)
        switch = next(iter(load_trace(L2_TRACE).switches.values()))
        target.setup(switch.config, "spec")
        first = switch.ingress[0]
        target.inject(first.port, first.frame)
        out = target.collect(0.0)
        expected = [(e.port, e.frame) for e in switch.egress if e.after == 0]
        assert expected, "the trace's first frame produces output"
        assert out == expected, (out, expected)
    finally:
        target.close()


def test_hardware_brings_ports_up_through_port_table(tmp_path, running_switch):
    bed = _testbed(tmp_path, running_switch, "hardware",
                   setup=", speed: BF_SPEED_100G, fec: BF_FEC_TYP_RS, "
                         "autoneg: PM_AN_FORCE_DISABLE")
    target = open_target("hardware", bed)
    try:
        switch = next(iter(load_trace(L2_TRACE).switches.values()))
        target.setup(switch.config, "spec")
        for entry in target.client.entry_get("$PORT"):
            assert entry.data["$SPEED"] == "BF_SPEED_100G", entry
            assert entry.data["$FEC"] == "BF_FEC_TYP_RS" and entry.data["$PORT_ENABLE"]
            assert entry.data["$AUTO_NEGOTIATION"] == "PM_AN_FORCE_DISABLE"
            assert entry.data["$PORT_UP"]
    finally:
        target.close()


def test_hardware_names_the_port_that_stays_down(tmp_path, running_switch):
    peer = running_switch.interfaces[3]
    bed = _testbed(tmp_path, running_switch, "hardware",
                   setup=", speed: BF_SPEED_25G, fec: BF_FEC_TYP_NONE")
    target = open_target("hardware", bed)
    subprocess.run(["ip", "link", "set", peer, "down"], check=True)
    try:
        _wait_port_up(running_switch.address, 3, False)
        switch = next(iter(load_trace(L2_TRACE).switches.values()))
        with pytest.raises(TargetError, match=r"^interface down: device port\(s\) \[3\] did "
                                              r"not come up within 3s .*speed/fec/autoneg"):
            target.setup(switch.config, "spec")
    finally:
        subprocess.run(["ip", "link", "set", peer, "up"], check=True)
        target.close()
        _wait_port_up(running_switch.address, 3, True)


def _wait_port_up(address: str, dev: int, up: bool, timeout: float = 30.0) -> None:
    """Until the switch's link monitor reports ``dev`` as ``up`` (it polls sysfs)."""
    with BfRuntimeClient(address, p4_name="atp", subscribe=False, bind=False,
                         timeout=10) as client:
        deadline = time.monotonic() + timeout
        while bool(client.entry_get("$PORT", {"$DEV_PORT": dev})[0].data["$PORT_UP"]) != up:
            assert time.monotonic() < deadline, f"port {dev} never went {'up' if up else 'down'}"
            time.sleep(0.1)


def test_the_as_model_softswitch_is_removed_on_close():
    target = open_target("tofino-model", load_testbed(AS_MODEL))
    try:
        switch = next(iter(load_trace(L2_TRACE).switches.values()))
        result = compare(switch, replay(switch, target, "spec"))
        assert_matches([result])
        ours = target.interfaces
        assert ours and _existing(ours) == set(ours)
        assert all(n.startswith("tgtmodel") for n in ours)
    finally:
        target.close()
    assert not _existing(ours)
    assert target.interfaces == ()
