"""`python -m p4sim check|run`: a listing or the output pcap; bad input is one line on
stderr and a non-zero exit status."""
import os
import subprocess
import sys

import pytest
from scapy.utils import RawPcapReader, wrpcap
from scapy.layers.l2 import Ether

from p4sim.cli import main
from p4sim_helpers import PROGRAMS

L2 = os.path.join(PROGRAMS, "l2_forward.p4")


def test_check_lists_tables_registers_and_externs(capsys):
    assert main(["check", os.path.join(PROGRAMS, "tna_semantics.p4")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "table Ingress.by_mode key [hdr.cmd.mode:exact<8>] actions [Ingress.hit, NoAction] " \
           "+direct counter" in out
    assert "register Ingress.seen [16] of bit<32>" in out
    assert "counter Ingress.per_port [16]" in out
    assert any(line.startswith("externs ") and "checksum x4" in line for line in out)


def test_check_defines_and_include_dirs(tmp_path, capsys):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "size.p4").write_text("#define FWD_SIZE 33\n")
    src = open(L2).read().replace('#include "common.p4"', f'#include "{PROGRAMS}/common.p4"\n'
                                  '#include "size.p4"').replace("size = 64;", "size = FWD_SIZE * K;")
    (tmp_path / "p.p4").write_text(src)
    assert main(["check", str(tmp_path / "p.p4"), "-I", str(tmp_path / "inc"), "-D", "K=2"]) == 0
    assert "size 66" in capsys.readouterr().out


@pytest.mark.parametrize("argv,words", [
    (["check", "/nonexistent/x.p4"], "no such P4 file"),
    (["check", L2, "-D", "1X=2"], "expected NAME or NAME=VALUE"),
    (["run", L2, "--pcap", "/nonexistent.pcap", "--port", "1"], "not a readable pcap"),
    (["run", L2, "--pcap", L2, "--port", "1"], "not a readable pcap"),
    (["run", L2, "--pcap", "x.pcap", "--port", "600"], "not a 9-bit port"),
])
def test_bad_input_is_one_line_and_exit_1(argv, words, capsys):
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_p4_error_is_located_and_the_exit_status_non_zero(tmp_path):
    bad = tmp_path / "bad.p4"
    bad.write_text("#include <tna.p4>\nheader h_t { bit<8> x }\n")
    r = subprocess.run([sys.executable, "-m", "p4sim", "check", str(bad)],
                       capture_output=True, text=True)
    assert r.returncode == 1
    assert r.stderr.count("\n") == 1 and "bad.p4:2:" in r.stderr and "expected ';'" in r.stderr
    r = subprocess.run([sys.executable, "-m", "p4sim"], capture_output=True, text=True)
    assert r.returncode == 2 and "usage:" in r.stderr


def test_run_writes_the_output_pcap(tmp_path, capsys):
    hit = Ether(dst="02:00:00:00:00:01", src="02:00:00:00:00:02", type=0x88B5) / (b"x" * 50)
    miss = Ether(dst="02:00:00:00:00:09", src="02:00:00:00:00:02", type=0x88B5) / (b"y" * 50)
    wrpcap(str(tmp_path / "in.pcap"), [hit, miss])
    (tmp_path / "cp.yaml").write_text(
        "- table_add: [Ingress.forward, {hdr.ethernet.dst_addr: 0x020000000001}, set_port, {port: 5}]\n")
    assert main(["run", L2, "--pcap", str(tmp_path / "in.pcap"), "--port", "1",
                 "--control", str(tmp_path / "cp.yaml"), "-o", str(tmp_path / "out.pcap")]) == 0
    out = capsys.readouterr().out
    assert "frame 1: port 5 (64 bytes)" in out and "frame 2: dropped: ingress: drop_ctl" in out
    frames = [bytes(d) for d, _ in RawPcapReader(str(tmp_path / "out.pcap"))]
    assert frames == [bytes(hit)]


def test_run_control_file_errors(tmp_path, capsys):
    wrpcap(str(tmp_path / "in.pcap"), [Ether(dst="02:00:00:00:00:01", src="02:00:00:00:00:02") / b"z"])
    (tmp_path / "cp.yaml").write_text("- format_disk: []\n")
    assert main(["run", L2, "--pcap", str(tmp_path / "in.pcap"), "--port", "1",
                 "--control", str(tmp_path / "cp.yaml")]) == 1
    assert "unknown operation 'format_disk'" in capsys.readouterr().err
    (tmp_path / "cp.yaml").write_text("- table_add: [Ingress.forward, {nosuch: 1}, set_port, {port: 5}]\n")
    assert main(["run", L2, "--pcap", str(tmp_path / "in.pcap"), "--port", "1",
                 "--control", str(tmp_path / "cp.yaml")]) == 1
    err = capsys.readouterr().err
    assert "item 1 (table_add)" in err and "missing key field" in err and err.count("\n") == 1
    assert not (tmp_path / "in-out.pcap").exists()       # nothing written on failure


def test_run_coverage_prints_uncovered_points_and_writes_hits(tmp_path, capsys):
    import json
    hit = Ether(dst="02:00:00:00:00:01", src="02:00:00:00:00:02", type=0x88B5) / (b"x" * 50)
    wrpcap(str(tmp_path / "in.pcap"), [hit, hit])
    (tmp_path / "cp.yaml").write_text(
        "- table_add: [Ingress.forward, {hdr.ethernet.dst_addr: 0x020000000001}, set_port, {port: 5}]\n")
    assert main(["run", L2, "--pcap", str(tmp_path / "in.pcap"), "--port", "1",
                 "--control", str(tmp_path / "cp.yaml"), "-o", str(tmp_path / "out.pcap"),
                 "--coverage", str(tmp_path / "cov.json")]) == 0
    out = capsys.readouterr().out
    # no frame missed: the table's miss, the drop action and the if's false arm are not taken
    uncovered = [line for line in out.splitlines() if line.startswith("coverage:   uncovered ")]
    assert len(uncovered) == 4, out
    assert all("l2_forward.p4:" in line for line in uncovered)
    assert "table hit/miss Ingress.forward: miss" in out
    assert "action Ingress.drop" in out
    points = {p["id"]: p["hits"] for p in json.loads((tmp_path / "cov.json").read_text())["points"]}
    assert points["table Ingress.forward | hit"] == 2
    assert points["table Ingress.forward | miss"] == 0
    assert main(["run", L2, "--pcap", str(tmp_path / "in.pcap"), "--port", "1",
                 "--coverage", "/nonexistent/dir/cov.json"]) == 1
    assert "--coverage /nonexistent/dir/cov.json: cannot write" in capsys.readouterr().err
