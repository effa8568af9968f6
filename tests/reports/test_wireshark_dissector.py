"""reports/wireshark/atp.lua as Wireshark users meet it: tshark decodes the suite's pcaps
(every corpus trace and a two-level scenario's run, saved the way a failing test saves
them) and every field it shows equals what the reference codec decodes; frames of a
wrong length get expert info naming the field where the frame ends."""

from __future__ import annotations

import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from atp_fixtures.evidence.trace import load_trace, save_trace, trace_from_run
from reference.run import run_scenario
from reference.scenario import load_scenario
from reference.wire import WireError, decode, describe_flags

ROOT = Path(__file__).resolve().parents[2]
DISSECTOR = ROOT / "reports" / "wireshark" / "atp.lua"
CORPUS = ROOT / "fixtures" / "corpus"

FIELDS = ("frame.len", "eth.type", "atpagg.ipv4.ecn", "atpagg.shim.bitmap1",
          "atpagg.shim.fan_in1", "atpagg.shim.level", "atpagg.shim.rack_id",
          "atpagg.shim.reserved", "atpagg.kind", "atpagg.bitmap", "atpagg.fan_in",
          "atpagg.flags", "atpagg.flags.names", "atpagg.flags.overflow",
          "atpagg.flags.ps_index", "atpagg.flags.data_index", "atpagg.flags.ecn",
          "atpagg.flags.resend", "atpagg.flags.collision", "atpagg.flags.ack",
          "atpagg.app_id", "atpagg.seq", "atpagg.agtr", "atpagg.agtr2", "atpagg.value",
          "atpagg.key", "atpagg.tensor_len", "_ws.expert.message")


@pytest.fixture(scope="module")
def tshark() -> str:
    path = shutil.which("tshark")
    if path is None:
        pytest.skip("tshark is not installed (Debian: apt-get install tshark; .ci/run "
                    "installs it)")
    return path


def _decoded(tshark: str, pcap: Path) -> list[dict[str, str]]:
    args = [tshark, "-X", f"lua_script:{DISSECTOR}", "-r", str(pcap), "-T", "fields",
            "-E", "separator=\t", "-E", "occurrence=a", "-E", "aggregator=,"]
    for name in FIELDS:
        args += ["-e", name]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "Lua" not in proc.stderr, proc.stderr
    return [dict(zip(FIELDS, line.split("\t"))) for line in proc.stdout.splitlines()]


def _frames(pcap: Path) -> list[bytes]:
    data = pcap.read_bytes()
    at, out = 24, []
    while at < len(data):
        _, _, length, _ = struct.unpack_from("<IIII", data, at)
        out.append(data[at + 16:at + 16 + length])
        at += 16 + length
    return out


def _flag(text: str) -> int:
    return {"1": 1, "0": 0, "True": 1, "False": 0}[text]


def _check(row: dict[str, str], frame: bytes) -> None:
    p = decode(frame)
    assert int(row["frame.len"]) == len(frame)
    assert int(row["atpagg.ipv4.ecn"]) == p.ipv4_ecn
    if p.shim is None:
        assert row["eth.type"] == "0x0700" and row["atpagg.shim.level"] == ""
    else:
        assert row["eth.type"] == "0x0701"
        assert int(row["atpagg.shim.bitmap1"], 16) == p.shim.bitmap1
        assert int(row["atpagg.shim.fan_in1"]) == p.shim.fan_in1
        assert int(row["atpagg.shim.level"]) == p.shim.level
        assert int(row["atpagg.shim.rack_id"]) == p.shim.rack_id
        assert int(row["atpagg.shim.reserved"], 16) == p.shim.reserved
    assert int(row["atpagg.bitmap"], 16) == p.bitmap
    assert int(row["atpagg.fan_in"]) == p.fan_in
    assert int(row["atpagg.flags"], 16) == p.flags
    assert row["atpagg.flags.names"] == describe_flags(p.flags)
    for name, bit in (("overflow", 0x80), ("data_index", 0x10), ("ecn", 0x08),
                      ("resend", 0x04), ("collision", 0x02), ("ack", 0x01)):
        assert _flag(row[f"atpagg.flags.{name}"]) == bool(p.flags & bit), name
    assert int(row["atpagg.flags.ps_index"]) == p.ps_index
    assert row["atpagg.kind"] == _kind(p)
    for name in ("app_id", "seq", "agtr", "agtr2", "key", "tensor_len"):
        assert int(row[f"atpagg.{name}"]) == getattr(p, name), name
    assert [int(v) for v in row["atpagg.value"].split(",")] == [int(v) for v in p.values]
    assert row["_ws.expert.message"] == ""


def _kind(p) -> str:
    if p.ack:
        return "float request" if p.overflow and not p.resend else "parameter"
    return "resend" if p.resend else "gradient"


def _suite_pcaps(folder: Path) -> list[Path]:
    pcaps = []
    for path in sorted((CORPUS / "traces").glob("*.json")):
        pcaps.append(save_trace(load_trace(path), folder / path.name).with_suffix(".pcap"))
    scenario = load_scenario(CORPUS / "scenarios" / "two-jobs-two-racks-lossy.json", "spec")
    run = trace_from_run(run_scenario(scenario), "two-racks")
    pcaps.append(save_trace(run, folder / "two-racks.json").with_suffix(".pcap"))
    return pcaps


def _write_pcap(path: Path, frames: list[bytes]) -> Path:
    records = [struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 65535, 1)]
    for frame in frames:
        records += [struct.pack("<IIII", 0, 0, len(frame), len(frame)), frame]
    path.write_bytes(b"".join(records))
    return path


def test_every_field_of_the_suites_pcaps_matches_the_reference_codec(tshark, tmp_path):
    # one tshark run over all of them (its start-up costs seconds)
    frames = [frame for pcap in _suite_pcaps(tmp_path) for frame in _frames(pcap)]
    rows = _decoded(tshark, _write_pcap(tmp_path / "all.pcap", frames))
    assert len(rows) == len(frames)
    checked = two_level = flagged = truncated = 0
    for row, frame in zip(rows, frames):
        if frame[12:14] not in (b"\x07\x00", b"\x07\x01"):
            assert row["atpagg.app_id"] == ""   # L2 frames are not claimed
            continue
        try:
            decode(frame)
        except WireError as exc:    # a malformed-frame trace (D29): both say what is wrong
            assert str(exc).split(" (field ")[0] in row["_ws.expert.message"], (
                exc, row["_ws.expert.message"])
            truncated += 1
            continue
        _check(row, frame)
        checked += 1
        two_level += frame[12:14] == b"\x07\x01"
        flagged += decode(frame).flags != 0
    # the corpus and the two-rack run cover both ethertypes and every kind of packet
    assert checked > 1000 and two_level > 500 and flagged > 500, (checked, two_level, flagged)
    assert truncated >= 2     # rule-2-frame-ending-inside-its-atp-layer-dropped


def test_malformed_lengths_get_expert_info(tshark, tmp_path):
    good = load_trace(CORPUS / "traces" / "rule-4.3-ownership-collision.json") \
        .switches["tor0"].ingress[0].frame
    frames = [good[:200], good + b"\x00\x00", good[:12] + b"\x07\x01" + good[14:40],
              good[:30]]
    rows = _decoded(tshark, _write_pcap(tmp_path / "malformed.pcap", frames))
    for row, frame in zip(rows, frames, strict=True):
        with pytest.raises(WireError) as error:
            decode(frame)
        message = row["_ws.expert.message"]
        assert f"frame of {len(frame)} bytes" in message
        where = {"values": "ends inside values", "tensor_len": "2 trailing bytes",
                 "shim": "ends inside the two-level shim",
                 "ipv4": "ends inside the IPv4 header"}[error.value.field]
        assert where in message, (error.value.field, message)
