"""Testbed files: the shipped ones load, and each user error is one line naming the
file, the key and the fix — also through pytest's command line, without a traceback."""
from __future__ import annotations

from pathlib import Path

import pytest

from atp_fixtures.plugin import DEFAULT_CORPUS
from atp_fixtures.targets.capacity import too_many_switches_reason
from atp_fixtures.targets.session import SessionState, switch_share
from atp_fixtures.targets.testbed import PortSetup, load_testbed
from atp_fixtures.targets import testbed as testbed_files
from suite_cli import run_on_tofino_model

ROOT = Path(__file__).resolve().parents[2]
TESTBEDS = ROOT / "fixtures" / "testbeds"


def _write(tmp_path, text: str) -> Path:
    path = tmp_path / "bed.yaml"
    path.write_text(text)
    return path


def test_shipped_tofino_model_testbed_maps_device_port_n_to_veth_2n_plus_1():
    bed = load_testbed(TESTBEDS / "tofino-model.yaml", check_interfaces=False)
    switch, = bed.switches                  # a file without 'switches:' names one
    assert bed.target == "tofino-model" and switch.grpc == "127.0.0.1:50052"
    assert switch.p4_name == "atp" and bed.switch_count == 1
    for port, iface in switch.ports.items():
        assert iface == f"veth{2 * switch.device_port(port) + 1}", (port, iface)
    # uplinks (suite ports 100+) sit on device ports of pipe 0 (Tofino has no port 100 there)
    assert {switch.device_port(p) for p in (100, 101, 102)} == {13, 14, 15}
    assert bed.softswitch is None and bed.timeout_s >= 30


def test_shipped_hardware_example_brings_ports_up_through_port_settings():
    bed = load_testbed(TESTBEDS / "hardware.example.yaml", check_interfaces=False)
    switch, = bed.switches
    assert bed.target == "hardware"
    assert switch.port_setup[0] == PortSetup("BF_SPEED_100G", "BF_FEC_TYP_RS",
                                             "PM_AN_FORCE_DISABLE")
    assert set(switch.port_setup) == {switch.device_port(p) for p in switch.ports}


def test_shipped_softswitch_testbeds_start_their_own_switch():
    model = load_testbed(TESTBEDS / "softswitch-as-model.yaml")
    assert model.target == "tofino-model" and model.softswitch is not None
    assert model.softswitch.clock == "trailer" and 100 in model.softswitch.ports
    assert model.switches == ()       # the started softswitches provide grpc and ports
    assert model.switch_count == 8    # under CI's -n 2, 4 a worker: the softswitch pool's limit
    soft = load_testbed(TESTBEDS / "softswitch.yaml")
    assert soft.target == "softswitch" and soft.softswitch.pool_max == 20000


def test_shipped_two_switch_example_names_two_endpoints_in_rack_order():
    bed = load_testbed(TESTBEDS / "two-tofino-models.example.yaml", check_interfaces=False)
    assert bed.switch_count == 2
    first, second = bed.switches
    assert (first.grpc, second.grpc) == ("10.10.0.1:50052", "10.10.0.2:50052")
    assert first.p4_name == second.p4_name == "atp"       # the top-level default
    assert first.device_port(100) == second.device_port(100) == 13
    assert not set(first.ports.values()) & set(second.ports.values())
    assert first.where.endswith("switches[0]") and second.where.endswith("switches[1]")


@pytest.mark.parametrize("name, target, count", [
    ("two-tofino-models.example.yaml", "tofino-model", 2),
    ("tofino-model.yaml", "tofino-model", 1),
    ("hardware.example.yaml", "hardware", 1),
    ("softswitch-as-model.yaml", "tofino-model", 8)])
def test_a_run_has_as_many_rack_switches_as_the_testbed_names(name, target, count):
    """The session's limit on rack switches is the testbed's count; beyond it the skip
    names the file, its count and how to add switches (no driver is opened here)."""
    bed = load_testbed(TESTBEDS / name, check_interfaces=False)
    state = SessionState(target, "spec", bed, DEFAULT_CORPUS, seed=0)
    assert state.max_switches == count
    reason = too_many_switches_reason(state, count + 1)
    assert f"testbed {bed.path}, which names {count}: to check such scenarios" in reason
    assert ("softswitch.switches" if bed.softswitch else "under its 'switches:'") in reason


@pytest.mark.parametrize("count, workers, shares", [
    (4, 1, [(0, 1, 2, 3)]),
    (4, 2, [(0, 2), (1, 3)]),
    (5, 2, [(0, 2, 4), (1, 3)]),
    (8, 2, [(0, 2, 4, 6), (1, 3, 5, 7)]),
    (3, 3, [(0,), (1,), (2,)])])
def test_xdist_workers_take_disjoint_shares_of_the_testbed_switches(count, workers, shares):
    """Under -n, each worker binds only its own switches (one client binds a switch):
    the shares cover the testbed once, and a worker's rack-switch limit is its share."""
    assert [switch_share(count, w, workers) for w in range(workers)] == shares
    bed = load_testbed(TESTBEDS / "softswitch-as-model.yaml", check_interfaces=False)
    state = SessionState("tofino-model", "spec", bed, DEFAULT_CORPUS, seed=0,
                         switches=shares[-1])
    assert state.max_switches == len(shares[-1])
    if len(shares[-1]) < bed.switch_count:
        assert (f"this xdist worker takes {len(shares[-1])} of the {bed.switch_count} "
                f"switches of testbed {bed.path}") in too_many_switches_reason(state, 9)


def test_more_workers_than_switches_is_refused_by_the_share():
    with pytest.raises(ValueError, match="a testbed of 2 switch"):
        switch_share(2, 2, 3)


def test_a_switch_item_overrides_the_top_level_program_name(tmp_path):
    path = _write(tmp_path, "p4_name: atp\nswitches:\n  - {grpc: 'h:1', ports: {1: lo}}\n"
                            "  - {grpc: 'h:2', p4_name: atp2, device_id: 1}\n")
    first, second = load_testbed(path).switches
    assert (first.p4_name, second.p4_name) == ("atp", "atp2")
    assert (second.device_id, second.ports) == (1, {})


@pytest.mark.parametrize("text, expected", [
    ("target: tofino-model\nports:\n  1: tgtnosuch0\n",
     "ports.1: device port 1 maps to interface 'tgtnosuch0', which does not exist on "
     "this machine; create it"),
    ("target: tofino-model\ngrpc: localhost\n", "'grpc' must be HOST:PORT"),
    ("target: tofino-model\nport: {1: lo}\n", "unknown field(s) port; known:"),
    ("ports:\n  1: {interface: lo, speed: BF_SPEED_100G}\n",
     "ports.1: give both 'speed' (e.g. BF_SPEED_100G) and 'fec'"),
    ("ports:\n  1: {interface: lo, devport: 3}\n", "ports.1: unknown field(s) devport"),
    ("ports:\n  1: {interface: lo, device_port: -1}\n", "ports.1.device_port must be"),
    ("ports:\n  1: lo\n  2: lo\n", "ports.2: interface 'lo' is mapped twice"),
    ("ports:\n  x: lo\n", "ports.x: the key must be a port number"),
    ("softswitch: {ports: [1, 2]}\ngrpc: 127.0.0.1:50052\n",
     "'softswitch' starts the switch itself, so 'grpc' and 'ports' come from it"),
    ("softswitch: {ports: []}\n", "softswitch.ports must be a list of distinct device ports"),
    ("softswitch: {ports: [1], clock: fast}\n", "softswitch.clock must be 'trailer'"),
    ("softswitch: {ports: [1], profile: v2}\n", "softswitch.profile must be 'spec'"),
    ("timeout_s: 0\n", "'timeout_s' must be a positive number"),
    ("port_stats: maybe\n", "'port_stats' must be true or false"),
    ("target: [\n", "not valid YAML"),
    # several switches: each message names the switch's item and how to fix it
    ("switches:\n  - {grpc: 'h:1', ports: {1: tgtnosuch0}}\n",
     "switches[0].ports.1: device port 1 maps to interface 'tgtnosuch0', which does not "
     "exist"),
    ("switches:\n  - {grpc: 'h:1'}\n  - {grpc: 'h:1'}\n",
     "switches[1]: grpc h:1 device_id 0 is also switches[0]'s; each rack switch must be "
     "its own switch"),
    ("switches:\n  - {grpc: 'h:1', ports: {1: lo}}\n  - {grpc: 'h:2', ports: {2: lo}}\n",
     "switches[1]: interface 'lo' is also a port of switches[0]"),
    ("switches:\n  - {ports: {1: lo}}\n", "switches[0]: needs 'grpc'"),
    ("switches:\n  - {grpc: 'h:1', port: {1: lo}}\n",
     "switches[0]: unknown field(s) port; known: grpc, p4_name, device_id, ports"),
    ("switches:\n  - {grpc: nowhere}\n", "'switches[0].grpc' must be HOST:PORT"),
    ("switches:\n  - {grpc: 'h:1', device_id: x}\n", "'switches[0].device_id' must be"),
    ("switches:\n  - {grpc: 'h:1', p4_name: ''}\n", "'switches[0].p4_name' must be"),
    ("switches:\n  - {grpc: 'h:1', ports: {x: lo}}\n",
     "switches[0].ports.x: the key must be a port number"),
    ("grpc: 'h:1'\nswitches:\n  - {grpc: 'h:2'}\n",
     "grpc at the top and 'switches' both; give each switch its own"),
    ("switches: []\n", "'switches' must be a list of switches"),
    ("switches: {grpc: 'h:1'}\n", "'switches' must be a list of switches"),
    ("softswitch: {ports: [1], switches: 0}\n", "softswitch.switches must be how many"),
    ("softswitch: {ports: [1]}\nswitches:\n  - {grpc: 'h:1'}\n",
     "'softswitch' starts the switch itself"),
])
def test_bad_testbed_names_file_key_and_fix(tmp_path, text, expected):
    path = _write(tmp_path, text)
    with pytest.raises(testbed_files.TestbedError) as info:
        load_testbed(path)
    message = str(info.value)
    assert str(path) in message and expected in message, message
    assert "\n" not in message


def test_missing_interface_is_one_usage_line_without_traceback(tmp_path):
    """What a user sees on the command line: pytest's usage error, one line."""
    path = _write(tmp_path, "target: tofino-model\nports:\n  1: veth3tgtnosuch\n")
    code, out = run_on_tofino_model(f"--testbed={path}")
    assert code == 4, out
    assert (f"ERROR: --testbed: {path}: ports.1: device port 1 maps to interface "
            f"'veth3tgtnosuch', which does not exist") in out
    assert "Traceback" not in out
