"""The errors a user of --target=tofino-model/hardware hits, each one clear line: no
server, wrong program bound (tables or fields missing, named), another program name, a
server past its deadline, a second client already bound. Against real gRPC servers on
loopback (our BfRuntime server in process, or a stalling one); no root needed."""
from __future__ import annotations

import contextlib
import socket
import time
from concurrent import futures
from pathlib import Path

import grpc
import pytest

import p4sim
from bfruntime.service import generic_handler
from bfruntime.client import BfRuntimeClient
from bfruntime.info import BfrtInfo
from atp_fixtures.generation.corpus import trace_files
from atp_fixtures.plugin import DEFAULT_CORPUS
from atp_fixtures.targets import open_target
from atp_fixtures.targets.atp_schema import missing_for_atp, pool_max_of
from atp_fixtures.targets.base import TargetError, TargetUnavailable
from atp_fixtures.targets.p4sim import compiled_program
from atp_fixtures.targets.testbed import load_testbed
from atp_fixtures.evidence.trace import load_trace
from p4sim.switchd.bfrt_schema import fixed_schema, program_schema
from p4sim.switchd.device import SoftDevice
from p4sim.switchd.server import BfRuntimeServer
from suite_cli import run_on_tofino_model

ROOT = Path(__file__).resolve().parents[2]
L2_FORWARD = ROOT / "tests" / "p4sim" / "programs" / "l2_forward.p4"
POOL = 16      # a small build of atp.p4: quick to compile, same schema


@contextlib.contextmanager
def serving(program, p4_name: str):
    srv = BfRuntimeServer(SoftDevice(program, p4_name, None), "127.0.0.1:0")
    srv.start()
    try:
        yield f"127.0.0.1:{srv.port}"
    finally:
        srv.stop(0)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _testbed(tmp_path, grpc_addr: str, p4_name: str = "atp", timeout_s: float = 2):
    path = tmp_path / "bed.yaml"
    path.write_text(f"target: tofino-model\ngrpc: {grpc_addr}\np4_name: {p4_name}\n"
                    f"timeout_s: {timeout_s}\nports:\n  1: lo\n")
    return path, load_testbed(path)


def _unavailable(testbed) -> str:
    with pytest.raises(TargetUnavailable) as info:
        open_target("tofino-model", testbed)
    return info.value.reason


def test_no_server_says_where_and_how_to_start_one(tmp_path):
    addr = f"127.0.0.1:{_free_port()}"
    path, bed = _testbed(tmp_path, addr)
    reason = _unavailable(bed)
    assert reason == (f"no BfRuntime server at {addr} — start run_switchd.sh -p atp "
                      f"(testbed {path}, key 'grpc')")


def test_no_server_on_the_command_line_is_one_line_without_traceback(tmp_path):
    addr = f"127.0.0.1:{_free_port()}"
    path, _ = _testbed(tmp_path, addr)
    code, out = run_on_tofino_model(f"--testbed={path}")
    assert code == 4, out
    lines = [line for line in out.splitlines() if "no BfRuntime server" in line]
    assert len(lines) == 1 and lines[0].startswith(
        f"ERROR: target 'tofino-model' is unavailable: no BfRuntime server at {addr}"), out
    assert "Traceback" not in out


def test_hardware_without_testbed_names_the_example():
    with pytest.raises(TargetUnavailable, match="--target=hardware needs --testbed=FILE .*"
                                                "hardware.example.yaml"):
        open_target("hardware", None)


def test_another_program_bound_lists_what_atp_needs(tmp_path):
    with serving(p4sim.compile_file(str(L2_FORWARD)), "atp") as addr:
        path, bed = _testbed(tmp_path, addr)
        reason = _unavailable(bed)
    assert reason.startswith(f"wrong program bound: 'atp' at {addr} is not the ATP program "
                             f"(p4src/atp.p4): its bfrt.json lacks table "
                             f"pipe.Ingress.forwarding.l2, table "
                             f"pipe.Ingress.forwarding.job_route"), reason
    assert reason.endswith(f"(testbed {path}, key 'p4_name'; build p4src/atp.p4 and start "
                           f"run_switchd.sh -p atp)"), reason


def test_program_name_not_on_the_switch(tmp_path):
    with serving(p4sim.compile_file(str(L2_FORWARD)), "l2_forward") as addr:
        path, bed = _testbed(tmp_path, addr, p4_name="atp")
        reason = _unavailable(bed)
    assert "wrong program bound: program 'atp' is not on the switch" in reason, reason
    assert "it has ['l2_forward']" in reason and f"testbed {path}, key 'p4_name'" in reason


@pytest.fixture(scope="module")
def atp_program():
    return compiled_program(False, POOL)


def test_a_missing_field_is_named_with_its_table(atp_program):
    schema = program_schema(atp_program)
    assert missing_for_atp(BfrtInfo("atp", schema, fixed_schema())) == []
    for table in schema["tables"]:
        if table["name"] == "pipe.Ingress.forwarding.job_route":
            table["key"] = [k for k in table["key"] if k["name"] != "hdr.atp.ps_index"]
        if table["name"] == "pipe.Ingress.aggregator.owner_stamp":
            table["data"] = [d for d in table["data"]
                             if d["singleton"]["name"] != "Ingress.aggregator.owner_stamp.stamp"]
    info = BfrtInfo("atp", schema, fixed_schema())
    assert missing_for_atp(info) == [
        "key field hdr.atp.ps_index of table pipe.Ingress.forwarding.job_route",
        "data field Ingress.aggregator.owner_stamp.stamp of register "
        "pipe.Ingress.aggregator.owner_stamp"]
    assert pool_max_of(info) == POOL


@pytest.mark.parametrize("client_id, refused", [
    (1, r"BIND to 'atp' failed: .*already bound by client 1"),
    (0, r"Subscribe of client 0 refused: ALREADY_EXISTS: client id 0 is already subscribed"),
])
def test_a_second_client_already_bound(tmp_path, atp_program, client_id, refused):
    config = next(iter(load_trace(trace_files(DEFAULT_CORPUS)[0]).switches.values())).config
    with serving(atp_program, "atp") as addr:
        _, bed = _testbed(tmp_path, addr)
        with BfRuntimeClient(addr, p4_name="atp", client_id=client_id, timeout=10):
            target = open_target("tofino-model", bed)               # probing binds nothing
            try:
                with pytest.raises(TargetError, match=r"^a second client: " + refused
                                   + r".*Close the other client"):
                    target.setup(config, "spec")
            finally:
                target.close()


def test_a_second_switch_that_does_not_answer_fails_before_any_run(tmp_path, atp_program):
    """A testbed naming two switches: the session's driver probes both, so a rack switch
    that is not up is named (its item and address) before any multi-rack test runs."""
    down = f"127.0.0.1:{_free_port()}"
    with serving(atp_program, "atp") as addr:
        path = tmp_path / "bed.yaml"
        path.write_text(f"target: tofino-model\ntimeout_s: 2\nswitches:\n"
                        f"  - {{grpc: '{addr}', ports: {{1: lo}}}}\n"
                        f"  - {{grpc: '{down}'}}\n")
        reason = _unavailable(load_testbed(path))
    assert reason == (f"no BfRuntime server at {down} — start run_switchd.sh -p atp "
                      f"(testbed {path}: switches[1], key 'grpc')"), reason


class _Stalling:
    """Answers nothing in time."""

    def GetForwardingPipelineConfig(self, request, context):
        time.sleep(3)
        return None


def test_a_server_past_its_deadline_says_raise_timeout(tmp_path):
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    server.add_generic_rpc_handlers((generic_handler(_Stalling()),))
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        path, bed = _testbed(tmp_path, f"127.0.0.1:{port}", timeout_s=1)
        reason = _unavailable(bed)
    finally:
        server.stop(0)
    assert reason.startswith(f"the BfRuntime server at 127.0.0.1:{port} did not answer "
                             f"within the deadline"), reason
    assert reason.endswith(f"raise 'timeout_s' in testbed {path}"), reason
