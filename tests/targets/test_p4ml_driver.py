"""The tofino-model driver bound to the release's p4ml.p4 through a testbed ``program:``
section: it checks the bound program against the name map, refuses a profile other than
atp-release and a mismatched program in one line each, and configures, reads back and
resets the program through BfRuntime (against the softswitch's gRPC server serving
p4ml.p4's bfrt.json; the full setup also opens PTF on ``lo``, which needs root)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import p4sim
from atp_fixtures.targets import open_target
from atp_fixtures.targets.base import TWO_LEVEL, TargetError, TargetUnavailable
from atp_fixtures.targets.p4ml_names import DEFAULT_MAP
from atp_fixtures.targets.testbed import TestbedError, load_testbed
from p4sim.switchd.server import BfRuntimeServer
from p4sim.switchd.device import SoftDevice
from reference.aggregator import AggregatorState
from reference.control_plane import JobRoute, SwitchConfig

from schema_switch import SchemaDevice, release_schema
from suite_cli import run_on_tofino_model

ROOT = Path(__file__).resolve().parents[2]
L2_FORWARD = ROOT / "tests" / "p4sim" / "programs" / "l2_forward.p4"
SHIPPED = ROOT / "fixtures" / "testbeds" / "p4ml-tofino-model.yaml"
CONFIG = SwitchConfig("r0", 0, (1,), pool_size=100, routes={(5, 0): JobRoute(1, True, 0)},
                      multicast={(5, 0): (1,)}, mgid={(5, 0): 1},
                      l2={b"\x02\x00\x00\x00\x00\x01": 1})


@pytest.fixture
def server():
    """A BfRuntime server on loopback serving p4ml.p4's schema as program 'p4ml'."""
    device = SchemaDevice(release_schema(), "p4ml")
    srv = BfRuntimeServer(device, "127.0.0.1:0")
    srv.start()
    yield device, f"127.0.0.1:{srv.port}"
    srv.stop(0)


@pytest.fixture
def wrong_program():
    """A BfRuntime server on loopback binding another program (l2_forward) under the
    name 'p4ml': the name matches the testbed, the tables do not match the map."""
    srv = BfRuntimeServer(SoftDevice(p4sim.compile_file(str(L2_FORWARD)), "p4ml", None),
                          "127.0.0.1:0")
    srv.start()
    yield srv.port
    srv.stop(0)


def _bed(tmp_path, addr: str, extra: str = "", program: str | None = None):
    program = program if program is not None else (
        f"program:\n  name: p4ml\n  names: {DEFAULT_MAP}\n  loopback_port: 68\n")
    path = tmp_path / "bed.yaml"
    path.write_text(f"target: tofino-model\ngrpc: {addr}\np4_name: p4ml\ntimeout_s: 5\n"
                    f"port_stats: false\nquiet_ms: 50\n{program}ports:\n  1: lo\n{extra}")
    return path, load_testbed(path)


def test_the_shipped_release_testbed_selects_the_map_and_the_loopback_port():
    bed = load_testbed(SHIPPED, check_interfaces=False)
    assert bed.target == "tofino-model" and bed.p4_name == "p4ml"
    assert bed.program.loopback_port == 68
    assert Path(bed.program.names.path).resolve() == DEFAULT_MAP
    switch, = bed.switches
    assert 68 not in {switch.device_port(p) for p in switch.ports}
    hw = load_testbed(SHIPPED.with_name("p4ml-hardware.example.yaml"), check_interfaces=False)
    assert hw.target == "hardware" and hw.program.loopback_port == 20
    hw_switch, = hw.switches
    assert 20 not in {hw_switch.device_port(p) for p in hw_switch.ports}
    assert hw_switch.port_setup


def test_the_release_program_probes_clean_and_declares_what_it_lacks(tmp_path, server):
    _, addr = server
    _, bed = _bed(tmp_path, addr)
    target = open_target("tofino-model", bed)
    try:
        assert TWO_LEVEL not in target.capabilities            # no two-level mode
        assert target.profiles == frozenset({"atp-release"})
    finally:
        target.close()


def test_a_program_that_does_not_match_the_map_is_refused_naming_what_is_missing(
        tmp_path, wrong_program):
    path, bed = _bed(tmp_path, f"127.0.0.1:{wrong_program}")
    with pytest.raises(TargetUnavailable) as info:
        open_target("tofino-model", bed)
    reason = info.value.reason
    assert reason.startswith(
        f"wrong program bound: 'p4ml' at 127.0.0.1:{wrong_program} does not match the name map "
        f"{DEFAULT_MAP} of the release's p4ml.p4: its bfrt.json lacks table pipe.forward, "
        f"table pipe.outPort_table"), reason
    assert reason.endswith(f"(testbed {path}, key 'p4_name'; start run_switchd.sh -p p4ml "
                           f"with p4ml.p4 built by the release's SDE, or correct the name "
                           f"in {DEFAULT_MAP} if your SDE's bfrt.json names it "
                           f"differently)"), reason
    assert "\n" not in reason


def test_a_profile_other_than_atp_release_is_refused_in_one_line(tmp_path, server):
    device, addr = server
    _, bed = _bed(tmp_path, addr)
    target = open_target("tofino-model", bed)
    try:
        with pytest.raises(TargetError) as info:
            target.setup(CONFIG, "spec")
    finally:
        target.close()
    assert str(info.value) == (f"testbed {bed.path} binds the ATP release's p4ml.p4, which "
                               f"implements the release's behaviour only: run with "
                               f"--profile=atp-release")
    assert not device.writes                                  # nothing was written


@pytest.mark.skipif(os.geteuid() != 0, reason="PTF's dataplane opens a raw socket on lo, "
                                              "which needs root")
def test_setup_read_back_and_reset_drive_the_release_program(tmp_path, server):
    device, addr = server
    _, bed = _bed(tmp_path, addr)
    target = open_target("tofino-model", bed)
    try:
        target.setup(CONFIG, "atp-release")
        assert target.pool_max == 20000
        routes = {(e["key"]["ig_intr_md.ingress_port"], e["key"]["p4ml.dataIndex"]):
                  (e["action"], e["data"]["egress_spec"])
                  for e in device.table_entries("pipe.outPort_table")}
        assert routes == {(1, 0): ("set_egr_and_set_index", 68), (68, 1): ("set_egr", 1)}
        device.set_register("pipe.appID_and_Seq", 3, 5 << 16 | 1)
        device.set_register("pipe.register31", 3 + 100, 7)     # element 61: agtr + P
        state = target.read_aggregators([3])[3]
        assert state == AggregatorState(5 << 16 | 1, 0, 0, 0, 0, (0,) * 61 + (7,))
        target.teardown_job(5)          # atp-release: the release has no teardown (9.4)
        assert device.registers["pipe.appID_and_Seq"][3]
        target.reset()
        assert not any(device.entries.values()) and not device.registers.get(
            "pipe.appID_and_Seq")
    finally:
        target.close()


@pytest.mark.parametrize("program, message", [
    ("program: p4ml\n", ": program must be a mapping, e.g. program: {name: p4ml, names: "
                        "p4ml-names.yaml, loopback_port: 68}"),
    ("program: {name: atp, loopback_port: 68}\n",
     ": program.name must be p4ml (the ATP release's program; leave 'program' out for "
     "p4src/atp.p4), got 'atp'"),
    ("program: {name: p4ml}\n",
     ": program.loopback_port must be the device port p4ml.p4's second pass re-enters on "
     "(a port in loopback, or 68, pipe 0's recirculation port), got None"),
    (f"program: {{name: p4ml, loopback_port: 1, names: {DEFAULT_MAP}}}\n",
     ": program.loopback_port 1 is also a port under 'ports'; the loopback port carries the "
     "second pass only, give it a device port no interface maps to"),
    ("program: {name: p4ml, loopback_port: 68, names: absent.yaml}\n",
     ": program.names: name map '{dir}/absent.yaml' does not exist; point 'program.names' "
     "of the testbed at a map such as p4ml-names.yaml"),
    ("program: {name: p4ml, loopback_port: 68, name_map: x}\n",
     ": program: unknown field(s) name_map; known: name, names, loopback_port"),
])
def test_a_bad_program_section_is_one_line_naming_file_key_and_fix(tmp_path, program,
                                                                   message):
    with pytest.raises(TestbedError) as info:
        _bed(tmp_path, "127.0.0.1:1", program=program)
    path = tmp_path / "bed.yaml"
    assert str(info.value) == f"{path}" + message.replace("{dir}", str(tmp_path))


def test_the_command_line_says_the_program_does_not_match_without_traceback(
        tmp_path, wrong_program):
    path, _ = _bed(tmp_path, f"127.0.0.1:{wrong_program}")
    code, out = run_on_tofino_model("--profile=atp-release", f"--testbed={path}")
    assert code == 4, out
    lines = [line for line in out.splitlines() if "does not match the name map" in line]
    assert len(lines) == 1 and lines[0].startswith(
        "ERROR: target 'tofino-model' is unavailable: wrong program bound: 'p4ml'"), out
    assert "Traceback" not in out


def test_the_command_line_refuses_the_spec_profile_at_session_start(tmp_path, server):
    """A p4ml.p4 testbed under the default profile: one usage line before any test."""
    device, addr = server
    path, _ = _bed(tmp_path, addr)
    code, out = run_on_tofino_model(f"--testbed={path}")
    assert code == 4, out
    assert (f"ERROR: --target=tofino-model with --testbed={path} runs profile(s) atp-release "
            f"only, not 'spec'; pass --profile=atp-release") in out, out
    assert "Traceback" not in out and not device.writes
