"""The ATP release's own C++ worker and PS, unmodified, as the host stack under test
(``--host-stack=atp-release --profile=atp-release``).

The release is built by its Makefiles against ``verbs_emu`` (host_stack.release_build)
and run in network namespaces (host_stack.release_run): one PS and one worker, its
smallest workload (``-l 1``: 12 threads, one tensor of 1,024,000 integers each, 16,517
packets per tensor; no option of the release makes a tensor smaller, and ``-l 0``
sends nothing), every frame captured at the ports. It runs twice per module:

- on a Linux bridge (the PS aggregates the single worker's packets itself), to the end:
  the job finishes and every process exits (~2 minutes niced on two loaded cores);
- through the softswitch running ``atp.p4 -DATP_RELEASE``, configured by the project's
  control plane (``host_stack.release_run.release_scenario``; the release's fixed MACs
  need no entry: ATP frames are routed by app and PS index), for a slice of
  ``SWITCH_SLICE_S`` seconds. The whole job does not fit a CI budget there: the
  softswitch passed ~1,150 frames/s each way on this path at load ~16 on two cores,
  and the release's 200 µs timeout (against a round trip of milliseconds) fills most
  of that with resends — 4,069 of the job's 198,204 seqs were answered in 60 s, so
  ``-l 1`` would take ~50 minutes. The slice covers every tensor's start: all 12
  threads' windows, their parameter packets multicast back by the switch, timeout and
  hole resends, and the host rules on the captured frames.

What the frames show is judged against the protocol; where the release deviates the
test asserts the spec's rule and carries the 9.x deviation, a strict xfail under
``--profile=atp-release``. The runs are heavy (12 busy-polling threads per side, plus
the worker's 12 quantization threads), so each runs once per module.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from reference.wire import ELEMENTS, FLAG_ACK, FLAG_RESEND, WireError, decode

from atp_fixtures.report.artifacts import artifacts_root
from host_stack.capture import read_pcap
from host_stack.netns import unavailable_reason
from host_stack.release_build import ReleaseBuildError, build_release, release_source
from host_stack.release_judge import JUDGED, KNOWN, judge
from host_stack.release_run import TENSOR_ELEMENTS, THREADS, ReleaseRunError, run_release

RUN_LIMIT_S = 400.0            # bounds a hung run; a finished one takes ~100 s here
SWITCH_SLICE_S = 45.0          # the softswitch run's traffic (see the module docstring)


class ReleaseFrames:
    """The worker port's frames, decoded once: first transmissions and the PS's replies
    by tensor key, and the raw lengths."""

    def __init__(self, pcap: Path):
        self.lengths: set[int] = set()
        self.undecodable = 0
        self.first: dict[int, set[int]] = defaultdict(set)
        self.sent: dict[int, set[int]] = defaultdict(set)    # first or resent
        self.acked: dict[int, set[int]] = defaultdict(set)
        self.key_bytes: dict[int, bytes] = {}
        self.nonzero_first = 0
        for _, frame in read_pcap(pcap):
            self.lengths.add(len(frame))
            try:
                p = decode(frame)
            except WireError:
                self.undecodable += 1
                continue
            if p.flags & FLAG_ACK:
                self.acked[p.key].add(p.seq)
                continue
            self.sent[p.key].add(p.seq)
            if not p.flags & FLAG_RESEND:
                self.first[p.key].add(p.seq)
                self.key_bytes[p.key] = p.key.to_bytes(8, "big")
                self.nonzero_first += bool(p.values.any())


def _run(request, fabric: str, duration_s: float):
    if request.config.getoption("--host-stack", default="ours") != "atp-release":
        pytest.skip("the release's host stack runs with --host-stack=atp-release")
    if request.config.getoption("--profile") != "atp-release":
        pytest.skip("the release's host stack is judged under --profile=atp-release "
                    "(its deviations are strict xfails there)")
    reason = unavailable_reason()
    if reason:
        pytest.skip(f"the release runs in network namespaces: {reason}")
    if release_source() is None:
        pytest.skip("the ATP release source is absent (../shared/tools/atp-release/src "
                    "next to the checkout, or $ATP_RELEASE_SRC)")
    try:
        binaries = build_release()
        return run_release(binaries, artifacts_root() / f"host_stack_release_{fabric}",
                           duration_s=duration_s, fabric=fabric)
    except (ReleaseBuildError, ReleaseRunError) as exc:
        pytest.fail(str(exc))


@pytest.fixture(scope="module")
def release_run(request):
    """The whole ``-l 1`` job on the bridge."""
    return _run(request, "bridge", RUN_LIMIT_S)


@pytest.fixture(scope="module")
def switch_run(request):
    """A ``SWITCH_SLICE_S`` slice of the ``-l 1`` job through the softswitch."""
    return _run(request, "softswitch", SWITCH_SLICE_S)


@pytest.fixture(scope="module", params=["bridge", "softswitch"])
def frames(request) -> ReleaseFrames:
    run = request.getfixturevalue("release_run" if request.param == "bridge"
                                  else "switch_run")
    assert "w0" in run.pcaps, "no capture at the worker's port"
    return ReleaseFrames(run.pcaps["w0"])


@pytest.fixture(scope="module")
def host_violations(switch_run) -> dict[str, list]:
    """The host rules' violations on the softswitch slice's captures, by rule."""
    _assert_capture_complete(switch_run)
    return judge(switch_run.pcaps["ps"], switch_run.pcaps["w0"])


def _assert_capture_complete(run) -> None:
    """A frame the capture missed would pass for a host's fault."""
    assert run.capture_drops == {"ps": 0, "w0": 0}, (
        f"the capture missed frames (per port: {run.capture_drops}), so the frames "
        f"cannot be judged; see {run.workdir}/capture.log")


def test_release_job_finishes_and_every_process_exits(release_run):
    assert release_run.worker_exit == {"w0": 0}, (
        f"worker exit {release_run.worker_exit} after {release_run.elapsed_s:.0f} s; "
        f"see {release_run.workdir}/w0.log")
    assert release_run.left_running == []


def test_release_through_the_softswitch_gets_answers_and_stops(switch_run):
    """Through the switch, the PS's parameter packets reach the worker (the job's
    multicast group) for every tensor, each for a seq the worker sent; at the slice's
    end every process stops on SIGTERM."""
    assert "w0" in switch_run.pcaps, "no capture at the worker's port"
    _assert_capture_complete(switch_run)
    seen = ReleaseFrames(switch_run.pcaps["w0"])
    assert len(seen.acked) == THREADS, f"answers for {len(seen.acked)} of {THREADS} tensors"
    for key, seqs in seen.acked.items():
        assert seqs <= seen.sent[key], f"key {key:#x}: answers for seqs never sent"
    assert switch_run.left_running == []


def test_release_frames_are_atp_frames_of_one_mtu_layer(frames):
    """Each TSO segment leaves as header (34) + one layer (274): 308 bytes, decodable."""
    assert frames.lengths == {308}
    assert frames.undecodable == 0


def test_every_tensor_of_the_job_is_on_the_wire(frames):
    """The worker's 12 tensors all go out, and every seq on the wire is one of its
    tensor's packets. (That every seq was answered is proven by the worker's exit above,
    not from the frames: with its 4 MiB socket buffers the capture of ~650k frames in
    ~100 s on two loaded cores lost 1-13% of a tensor's frames in CI runs; it now has
    larger ones and counts what it misses, which the softswitch slice's checks use.)"""
    packets = -(-TENSOR_ELEMENTS // ELEMENTS)
    assert len(frames.sent) == THREADS
    for key, seqs in frames.sent.items():
        outside = {s for s in seqs | frames.acked[key] if not 1 <= s <= packets}
        assert not outside, f"key {key:#x}: seqs outside 1..{packets}: {sorted(outside)[:5]}"


@pytest.mark.deviation("9.3", "the release writes key in host (little-endian) order")
def test_worker_writes_key_in_network_order(frames):
    """The worker numbers its tensors 0, 1, ... (P4mlManager::GetNewKey): read in
    network order, those are the keys on the wire."""
    assert sorted(frames.first) == list(range(THREADS))


@pytest.mark.deviation("9.3", "the release's worker sends no gradient values")
def test_worker_carries_its_gradients(frames):
    """client/main.cc's tensor is 1, 2, ..., so a first transmission that carries it
    has nonzero values."""
    assert frames.nonzero_first > 0


@pytest.mark.deviation("9.7", "the release restarts seq at 1 for every tensor")
def test_seq_counts_the_jobs_packets_across_tensors(frames):
    """Rule 1.3: seq numbers a job's packets, so two tensors of one job never share one."""
    tensors = list(frames.first.values())
    shared = set.intersection(*tensors) if len(tensors) > 1 else set()
    assert not shared, f"{len(shared)} seqs used by every tensor, e.g. {sorted(shared)[:3]}"


# The host rules judged on the softswitch slice's captures (``check_host_rules`` with
# ``hosts_lag``: what a real host's captures allow; 7.2's hole and 7.5's instant-by-
# instant replays are not applied there). Each rule is asserted; where the release
# deviates the test carries the deviation.
MARKS = {
    "3": pytest.mark.deviation("9.3", "the release's worker sends no gradient values"),
    # P4mlManager's timeout branch resends only the lowest unacknowledged seq, or those
    # below the first seq answered out of order, not every unacknowledged seq of the
    # window (7.2): 400+ violations in every 45 s slice; the specification's section 9
    # has no entry for it yet
    "7.2": pytest.mark.xfail(strict=True, reason=KNOWN["7.2"]),
}
HOST_RULES = [pytest.param(rule, marks=MARKS.get(rule, ())) for rule in JUDGED]


@pytest.mark.parametrize("rule", HOST_RULES)
def test_host_rules_on_the_softswitch_captures(host_violations, rule):
    """One host rule on the slice's (complete) captures."""
    found = host_violations.get(rule, [])
    assert not found, f"{len(found)} violation(s) of {rule}; first: {found[0]}"
