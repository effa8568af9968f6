"""The switchd process on veth pairs: frames through it, bad input, faults, shutdown."""
from __future__ import annotations

import socket
import subprocess
import sys
import time

import pytest

from bfruntime.client import BfRuntimeClient
from p4sim.switchd.launch import LaunchError, SwitchdProcess, VethPairs
from softswitch_helpers import eth, program_path

pytestmark = pytest.mark.xdist_group("softswitch-veth")


@pytest.fixture
def veths():
    try:
        pairs = VethPairs(3)
    except LaunchError as e:
        pytest.skip(f"cannot create veth pairs here: {e}")
    try:
        yield pairs
    finally:
        pairs.close()


def _sock(ifname):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    s.bind((ifname, 0))
    s.settimeout(0.05)
    return s


def _recv_all(s, wait=1.0):
    out, deadline = [], time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            data, addr = s.recvfrom(9000)
        except socket.timeout:
            continue
        if addr[2] != 4:      # not our own transmission
            out.append(data)
    return out


def _switchd_cli(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "p4sim.switchd", *args],
                          capture_output=True, text=True, timeout=timeout)


def test_frames_cross_the_switch_as_the_program_says(veths):
    ports = {1: veths.switch[0], 2: veths.switch[1]}
    with SwitchdProcess(program_path("l2_forward"), ports) as sd:
        with BfRuntimeClient(sd.address, p4_name="l2_forward", timeout=10) as c:
            c.entry_add("forward", {"hdr.ethernet.dst_addr": 0x020000000002}, "set_port",
                        {"port": 2})
            a, b = _sock(veths.peer[0]), _sock(veths.peer[1])
            hit = eth(0x020000000002, payload=bytes(range(46)))
            miss = eth(0x020000000003, payload=bytes(46))
            for _ in range(5):
                a.send(hit)
            a.send(miss)
            got = _recv_all(b)
            assert got == [hit] * 5          # the miss is dropped by the default action
            assert _recv_all(a, 0.2) == []
        code, err = sd.stop()
    assert code == 0
    assert "frames in=6 out=5" in err


def test_missing_interface_is_one_line_and_exit_2():
    r = _switchd_cli(str(program_path("l2_forward")), "--port", "1@softswitchnone",
                     "--grpc-addr", "127.0.0.1:0")
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "no network interface 'softswitchnone'" in lines[0]


def test_bad_program_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "bad.p4"
    bad.write_text("control C( { }\n")
    r = _switchd_cli(str(bad), "--grpc-addr", "127.0.0.1:0")
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("p4sim.switchd: error: cannot load") \
        and "bad.p4:1:" in lines[0]
    r = _switchd_cli(str(tmp_path / "absent.p4"))
    assert r.returncode == 2 and "does not exist" in r.stderr


def test_bad_port_argument_names_the_form():
    r = _switchd_cli(str(program_path("l2_forward")), "--port", "veth0")
    assert r.returncode == 2 and "expected DEVICE_PORT@INTERFACE" in r.stderr


def test_busy_interface_and_taken_grpc_port_are_refused(veths):
    with SwitchdProcess(program_path("l2_forward"), {1: veths.switch[0]}) as sd:
        r = _switchd_cli(str(program_path("l2_forward")), "--port", f"1@{veths.switch[0]}",
                         "--grpc-addr", "127.0.0.1:0")
        assert r.returncode == 2
        assert f"interface {veths.switch[0]} is busy" in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1
        r = _switchd_cli(str(program_path("l2_forward")), "--port", f"1@{veths.switch[1]}",
                         "--grpc-addr", sd.address)
        assert r.returncode == 2 and "cannot listen for gRPC" in r.stderr
        with pytest.raises(LaunchError, match="busy"):
            SwitchdProcess(program_path("l2_forward"), {1: veths.switch[0]}, timeout=30)


def test_deleted_peer_veth_reports_the_port_down_and_the_rest_keeps_working(veths):
    ports = {1: veths.switch[0], 2: veths.switch[1], 3: veths.switch[2]}
    with SwitchdProcess(program_path("l2_forward"), ports) as sd:
        with BfRuntimeClient(sd.address, p4_name="l2_forward", timeout=10) as c:
            c.entry_add("forward", {"hdr.ethernet.dst_addr": 2}, "set_port", {"port": 2})
            c.entry_add("forward", {"hdr.ethernet.dst_addr": 3}, "set_port", {"port": 3})
            subprocess.run(["ip", "link", "del", veths.peer[2]], check=True)
            notes = c.port_status_notifications(timeout=5)
            assert (3, False) in notes
            [p] = c.entry_get("$PORT", {"$DEV_PORT": 3})
            assert p.data["$PORT_UP"] is False
            a, b = _sock(veths.peer[0]), _sock(veths.peer[1])
            a.send(eth(3, payload=bytes(46)))        # to the dead port: dropped, no crash
            a.send(eth(2, payload=bytes(46)))
            assert _recv_all(b) == [eth(2, payload=bytes(46))]
            assert sd.proc.poll() is None
        code, err = sd.stop()
    assert code == 0 and "3@" in err and "DOWN" in err


def test_ports_file_binds_like_the_tofino_model(tmp_path, veths):
    import json
    # PortToVeth names interfaces veth<N>; our pairs have other names, so use PortToIf
    pf = tmp_path / "ports.json"
    pf.write_text(json.dumps({"PortToIf": [{"device_port": 4, "if": veths.switch[0]}]}))
    with SwitchdProcess(program_path("l2_forward"), {}, extra_args=["--ports-file", str(pf)]) as sd:
        with BfRuntimeClient(sd.address, p4_name="l2_forward", timeout=10) as c:
            assert [e.key["$DEV_PORT"] for e in c.entry_get("$PORT")] == [4]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"PortToVeth": [{"device_port": 1}]}))
    r = _switchd_cli(str(program_path("l2_forward")), "--ports-file", str(bad))
    assert r.returncode == 2 and "entries need device_port" in r.stderr


def test_trailer_clock_gives_the_frame_its_queue_depth_and_is_stripped(veths):
    from p4sim.switchd.ports import TRAILER, TRAILER_MAGIC
    ipv4 = bytes([0x45, 0]) + (20 + 14).to_bytes(2, "big") + bytes(16)
    cmd = bytes([1, 2]) + bytes(12)                  # mode 1: unicast to port arg=2
    frame = eth(0x02, payload=ipv4 + cmd + bytes(20))
    ports = {1: veths.switch[0], 2: veths.switch[1]}
    with SwitchdProcess(program_path("traffic_manager"), ports,
                        extra_args=["--clock", "trailer"]) as sd:
        a, b = _sock(veths.peer[0]), _sock(veths.peer[1])
        a.send(frame + TRAILER.pack(TRAILER_MAGIC, 5_000, 1234))
        [out] = _recv_all(b)
        assert len(out) == len(frame)
        qdepth_seen = int.from_bytes(out[14 + 20 + 10:14 + 20 + 14], "big")
        assert qdepth_seen == 1234
        a.send(frame)                                # no trailer: depth 0, real time
        [out] = _recv_all(b)
        assert int.from_bytes(out[14 + 20 + 10:14 + 20 + 14], "big") == 0
        assert sd.proc.poll() is None
