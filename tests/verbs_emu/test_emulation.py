"""The verbs emulation does what the ATP release relies on: mlx5-layout CQEs written in
an order a poller can trust, TSO segmentation, destination-MAC steering, drops without
posted receive buffers, a sched_setaffinity that maps onto the CPUs here, and frames sent
by one emulated QP arriving in another's ring as the release reads them."""

from __future__ import annotations

import json
import os
import subprocess
import time

import pytest

from host_stack.link import PacketLink
from host_stack.netns import in_namespace
from host_stack.release_build import EMU_DIR, release_source


# the release's worker header: dst 05:04:03:02:01:<thread>, one source MAC, EtherType 0x0700
HEADER = bytes.fromhex("050403020103" "e41d2df3ddcc" "0700") + bytes(range(20))
LAYER = 274


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def run_probe(bed, host: str, probe, *args: str, env: dict | None = None) -> list[dict]:
    result = subprocess.run(["ip", "netns", "exec", bed.namespace(host), str(probe), *args],
                            capture_output=True, text=True, timeout=60,
                            env={"ATP_VERBS_EMU_IFACE": "eth0", **(env or {})})
    assert result.returncode == 0, result.stderr
    return json_lines(result.stdout)


def start_receiver(bed, probe, macs: str, count: int, log_strides: int = 9, depth: int = 4,
                   repost: int = 1, timeout_ms: int = 8000) -> subprocess.Popen:
    proc = subprocess.Popen(["ip", "netns", "exec", bed.namespace("b"), str(probe), "recv", macs,
                             str(count), str(log_strides), str(depth), str(repost), str(timeout_ms)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={"ATP_VERBS_EMU_IFACE": "eth0"})
    assert proc.stdout.readline().strip() == '{"ready": true}', proc.stderr.read()
    return proc


def finish(proc: subprocess.Popen) -> tuple[list[dict], dict]:
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    lines = json_lines(out)
    return [x for x in lines if "queue" in x], lines[-1]["stats"]


def send_raw(bed, frames: list[bytes]) -> None:
    link = in_namespace(bed.namespace("a"), lambda: PacketLink("eth0", atp_only=False))
    with link:
        for frame in frames:
            link.send(frame)


def frame_to(mac: str, seq: int, size: int = 308) -> bytes:
    body = bytes.fromhex(mac.replace(":", "")) + bytes.fromhex("e41d2df3ddcc0700")
    return body + seq.to_bytes(2, "big") + bytes(size - len(body) - 2)


def test_cq_is_read_as_mlx5_cq(probe, bed):
    """The receive CQ of ibv_exp_create_cq(4) has 2^3 CQEs, as the release asserts."""
    layout = run_probe(bed, "a", probe, "layout")[0]
    assert layout == {**layout, "cq_log_size": 3, "buf_set": True, "ibv_cq_first": True}


def test_cq_layout_matches_the_releases_mlx5_defs(probe, bed, tmp_path):
    """The offsets the release reads (its own common/mlx5_defs.h) are where the
    emulation writes: buf_a.buf, cq_log_size, and the CQE's wqe_id/wqe_counter/byte_cnt."""
    src = release_source()
    if src is None:
        pytest.skip("the ATP release source (../shared/tools/atp-release/src or "
                    "$ATP_RELEASE_SRC) is absent: its mlx5_defs.h cannot be compared")
    check = tmp_path / "check.cc"
    check.write_text(
        "#include <cstddef>\n#include <cstdio>\n#include <pthread.h>\n#include \"mlx5_defs.h\"\n"
        "int main() { std::printf(\"{\\\"buf_offset\\\": %zu, \\\"log_size_offset\\\": %zu, "
        "\\\"cqe\\\": [%zu, %zu, %zu, %zu]}\\n\", offsetof(mlx5_cq, buf_a.buf), "
        "offsetof(mlx5_cq, cq_log_size), sizeof(mlx5_cqe64), offsetof(mlx5_cqe64, wqe_id), "
        "offsetof(mlx5_cqe64, wqe_counter), offsetof(mlx5_cqe64, byte_cnt)); }\n")
    subprocess.run(["g++", "-std=c++11", f"-I{EMU_DIR / 'include'}", f"-I{src / 'common'}",
                    "-o", str(tmp_path / "check"), str(check)], check=True)
    release = json_lines(subprocess.run([str(tmp_path / "check")], capture_output=True,
                                        text=True, check=True).stdout)[0]
    ours = run_probe(bed, "a", probe, "layout")[0]
    assert release["buf_offset"] == ours["buf_offset"]
    assert release["log_size_offset"] == ours["log_size_offset"]
    assert release["cqe"] == [64, 2, 60, 44]


@pytest.mark.parametrize("payload, sizes", [
    (3 * LAYER, [308, 308, 308]),
    (2 * LAYER + 100, [308, 308, 134]),
    (0, []),
], ids=["3-segments", "short-last", "zero-length"])
def test_tso_post_leaves_as_header_plus_mss_frames(probe, bed, payload, sizes):
    link = in_namespace(bed.namespace("b"), lambda: PacketLink("eth0", atp_only=False))
    with link:
        out = run_probe(bed, "a", probe, "send", HEADER.hex(), str(payload), str(LAYER))
        time.sleep(0.3)
        frames = [f for f in link.recv_batch(1.0) if f[12:14] == b"\x07\x00"]
    assert out[0] == {"post": 0, "completions": 1, "wr_id": 7}
    assert [len(f) for f in frames] == sizes
    for k, frame in enumerate(frames):
        assert frame[:len(HEADER)] == HEADER
        assert set(frame[len(HEADER):]) == {k + 1}
    assert out[1]["stats"]["tx_frames"] == len(sizes)


def test_post_outside_a_registered_region_fails(probe, bed):
    out = run_probe(bed, "a", probe, "send", HEADER.hex(), str(LAYER), str(LAYER), "--unregistered")
    assert out[0]["post"] == 22 and out[0]["completions"] == 0      # EINVAL, nothing sent
    assert out[1]["stats"]["tx_frames"] == 0


def test_flows_steer_by_destination_mac(probe, bed):
    x, y, z = "05:04:03:02:01:01", "05:04:03:02:01:02", "05:04:03:02:01:03"
    proc = start_receiver(bed, probe, f"{x},{y}", count=5)
    send_raw(bed, [frame_to(x, 0), frame_to(y, 1), frame_to(z, 2), frame_to(x, 3),
                   frame_to(y, 4), frame_to(x, 5)])
    got, stats = finish(proc)
    by_queue = {q: [(r["wqe_id"], r["wqe_counter"], int(r["frame"][28:32], 16))
                    for r in got if r["queue"] == q] for q in (0, 1)}
    assert by_queue == {0: [(0, 0, 0), (0, 1, 3), (0, 2, 5)], 1: [(0, 0, 1), (0, 1, 4)]}
    assert stats["rx_delivered"] == 5 and stats["rx_no_flow"] == 1


def test_frames_without_a_posted_wqe_are_dropped(probe, bed):
    mac = "05:04:03:02:01:01"
    proc = start_receiver(bed, probe, mac, count=1, depth=1, repost=-1, timeout_ms=1500)
    send_raw(bed, [frame_to(mac, i) for i in range(3)])
    got, stats = finish(proc)
    assert got == [] and stats["rx_no_wqe"] == 3 and stats["rx_delivered"] == 0


def test_a_used_up_wqe_drops_until_reposted(probe, bed):
    """One WQE of 4 strides, never reposted: 4 frames land, the rest are dropped."""
    mac = "05:04:03:02:01:01"
    proc = start_receiver(bed, probe, mac, count=6, log_strides=2, depth=1, repost=0,
                          timeout_ms=1500)
    send_raw(bed, [frame_to(mac, i) for i in range(6)])
    got, stats = finish(proc)
    assert [(r["wqe_id"], r["wqe_counter"]) for r in got] == [(0, 0), (0, 1), (0, 2), (0, 3)]
    assert stats["rx_delivered"] == 4 and stats["rx_no_wqe"] == 2


def test_cqes_walk_strides_then_wqes(probe, bed):
    """CQE i (i-th frame) says WQE i // strides, stride i % strides; reposted WQEs are
    used in order and the 8-entry CQ wraps."""
    mac = "05:04:03:02:01:01"
    proc = start_receiver(bed, probe, mac, count=20, log_strides=2, depth=2, repost=1)
    for i in range(20):   # one at a time: each frame gets its own CQE read
        send_raw(bed, [frame_to(mac, i)])
        time.sleep(0.02)
    got, _ = finish(proc)
    assert [(r["wqe_id"], r["wqe_counter"], int(r["frame"][28:32], 16)) for r in got] == \
        [(i // 4, i % 4, i) for i in range(20)]


def test_tso_burst_from_one_qp_arrives_in_anothers_ring_as_the_release_reads_it(probe, bed):
    """600 segments of one TSO post from a QP in namespace a, polled in namespace b the
    way the release polls (snapshot of wqe_id/wqe_counter, distance from the previous
    one, frames from consecutive strides, WQEs reposted as used): every frame arrives,
    in order, whole, whatever the batching the poller happened to see."""
    mac = "05:04:03:02:01:03"
    count = 600
    proc = start_receiver(bed, probe, mac, count=count, timeout_ms=20000)
    sent = run_probe(bed, "a", probe, "send", HEADER.hex(), str(count * LAYER), str(LAYER))
    assert sent[0]["post"] == 0
    got, stats = finish(proc)
    assert len(got) == count, stats
    for k, r in enumerate(got):
        frame = bytes.fromhex(r["frame"])
        assert frame[:len(HEADER)] == HEADER
        assert frame[len(HEADER)] == (k + 1) & 0xFF
    assert stats["rx_no_wqe"] == 0


def test_sched_setaffinity_maps_requested_cpus_onto_cpus_here(probe, bed):
    """The release pins PS threads to CPUs 15-27 and exits when that fails."""
    allowed = sorted(os.sched_getaffinity(0))
    for cpu in (0, 15, 27):
        out = run_probe(bed, "a", probe, "pin", str(cpu))[0]
        assert out["ret"] == 0
        assert out["cpus"] == [allowed[cpu % len(allowed)]]
