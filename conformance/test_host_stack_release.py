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
  need no entry: ATP frames are routed by app and PS index), with the release's clock
  slowed to ``SOFTSWITCH_CLOCK_RATE`` (libfaketime, ``host_stack.release_clock``): at
  full speed its 200 µs timeout, against round trips of milliseconds to seconds
  through the interpreted switch, fills the link with resends (~4,000 of the job's
  198,204 seqs answered a minute, ~50 min for ``-l 1``); slowed, ~35,000 a minute. By
  default a ``SWITCH_SLICE_S`` slice of the job runs (CI); ``--release-job=whole``
  runs it to the end (608 s here at load ~45) and judges all of it: the worker
  finishes, every seq of every tensor is answered, the host rules hold on the whole
  captures (489k frames at the worker's port: 4.5 min of CPU to judge, the same
  verdicts as the slice's, 7.2's deviation 9.14 with 9,439 violations). Either covers every tensor's start: all 12 threads' windows, their
  parameter packets multicast back by the switch, timeout and hole resends.

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
from atp_fixtures.oracles.release_deviations import HOST_RULES_BROKEN, what
from atp_fixtures.oracles.release_judge import JUDGED, OBSERVED, TIMED, judge
from host_stack.release_clock import missing_reason
from host_stack.release_run import (
    SOFTSWITCH_CLOCK_RATE, TENSOR_ELEMENTS, THREADS, ReleaseRunError, run_release,
)

RUN_LIMIT_S = 400.0            # bounds a hung run; a finished one takes ~100 s here
SWITCH_SLICE_S = 45.0          # the softswitch run's traffic (see the module docstring)
SWITCH_RUN_LIMIT_S = 1800.0    # bounds a hung --release-job=whole (608 s at load ~45 here)
PACKETS = -(-TENSOR_ELEMENTS // ELEMENTS)   # a tensor's seqs: 16,517


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


def _run(request, fabric: str, duration_s: float, clock_rate: float | None = None):
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
    if clock_rate is not None and missing_reason():
        pytest.skip(f"the release runs through the softswitch with its clock slowed: "
                    f"{missing_reason()}")
    try:
        binaries = build_release()
        return run_release(binaries, artifacts_root() / f"host_stack_release_{fabric}",
                           duration_s=duration_s, fabric=fabric, clock_rate=clock_rate)
    except (ReleaseBuildError, ReleaseRunError) as exc:
        pytest.fail(str(exc))


@pytest.fixture(scope="module")
def release_run(request):
    """The whole ``-l 1`` job on the bridge."""
    return _run(request, "bridge", RUN_LIMIT_S)


def _whole_job(config) -> bool:
    return config.getoption("--release-job", default="slice") == "whole"


@pytest.fixture(scope="module")
def switch_run(request):
    """The ``-l 1`` job through the softswitch, the release's clock slowed: a
    ``SWITCH_SLICE_S`` slice of it, or all of it with ``--release-job=whole``."""
    whole = _whole_job(request.config)
    return _run(request, "softswitch", SWITCH_RUN_LIMIT_S if whole else SWITCH_SLICE_S,
                clock_rate=SOFTSWITCH_CLOCK_RATE)


@pytest.fixture(scope="module", params=["bridge", "softswitch"])
def frames(request) -> ReleaseFrames:
    run = request.getfixturevalue("release_run" if request.param == "bridge"
                                  else "switch_run")
    assert "w0" in run.pcaps, "no capture at the worker's port"
    return ReleaseFrames(run.pcaps["w0"])


@pytest.fixture(scope="module")
def host_violations(switch_run) -> dict[str, list]:
    """The host rules' violations on the softswitch run's captures, by rule."""
    _assert_capture_complete(switch_run)
    return judge(switch_run.pcaps["ps"], switch_run.pcaps["w0"], SOFTSWITCH_CLOCK_RATE)


def _assert_capture_complete(run) -> None:
    """A frame the capture missed would pass for a host's fault."""
    assert run.capture_drops == {"ps": 0, "w0": 0}, (
        f"the capture missed frames (per port: {run.capture_drops}), so the frames "
        f"cannot be judged; see {run.workdir}/capture.log")


@pytest.mark.parametrize("fabric", ["bridge", "softswitch"])
def test_release_job_finishes_and_every_process_exits(request, fabric):
    if fabric == "softswitch" and not _whole_job(request.config):
        pytest.skip("the softswitch runs a slice of the job: --release-job=whole runs it "
                    "to the end")
    run = request.getfixturevalue("release_run" if fabric == "bridge" else "switch_run")
    assert run.worker_exit == {"w0": 0}, (
        f"worker exit {run.worker_exit} after {run.elapsed_s:.0f} s; "
        f"see {run.workdir}/w0.log")
    assert run.left_running == []


def test_release_through_the_softswitch_answers_every_seq(request, switch_run):
    """The whole job's results as the worker's port saw them: a parameter packet for
    every seq of every tensor (the switch aggregated each and multicast the PS's answer
    back), and none for a seq never sent."""
    if not _whole_job(request.config):
        pytest.skip("the softswitch runs a slice of the job: --release-job=whole judges "
                    "all of its results")
    _assert_capture_complete(switch_run)
    seen = ReleaseFrames(switch_run.pcaps["w0"])
    assert len(seen.acked) == THREADS, f"answers for {len(seen.acked)} of {THREADS} tensors"
    for key, seqs in seen.acked.items():
        missing = set(range(1, PACKETS + 1)) - seqs
        assert not missing, f"key {key:#x}: {len(missing)} seqs unanswered, e.g. {sorted(missing)[:5]}"
        assert seqs <= seen.sent[key], f"key {key:#x}: answers for seqs never sent"


def test_release_through_the_softswitch_gets_answers_and_stops(switch_run):
    """Through the switch, the PS's parameter packets reach the worker (the job's
    multicast group) for every tensor, each for a seq the worker sent; at the run's
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
    assert len(frames.sent) == THREADS
    for key, seqs in frames.sent.items():
        outside = {s for s in seqs | frames.acked[key] if not 1 <= s <= PACKETS}
        assert not outside, f"key {key:#x}: seqs outside 1..{PACKETS}: {sorted(outside)[:5]}"


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


# The host rules judged on the softswitch run's captures (``check_host_rules`` with
# ``hosts_lag``: what a real host's captures allow; 7.2's hole and 7.5's instant-by-
# instant replays are not applied there). Each rule is asserted; where the release
# deviates the test carries the deviation.
# (P4mlManager's timeout branch resends only the lowest unacknowledged seq, or those
# below the first seq answered out of order, not every unacknowledged seq of the window:
# 315-419 violations of 7.2 in a 45 s slice at full speed, 240 with the release's clock
# slowed; deviation 9.14, rev. 4; docs/protocol.md D27 before it)
MARKS = {rule: pytest.mark.deviation(section, what(section))
         for rule, section in HOST_RULES_BROKEN.items()}
HOST_RULES = [pytest.param(rule, marks=MARKS.get(rule, ())) for rule in JUDGED]


@pytest.mark.parametrize("rule", HOST_RULES)
def test_host_rules_on_the_softswitch_captures(host_violations, rule):
    """One host rule on the softswitch run's (complete) captures."""
    found = host_violations.get(rule, [])
    assert not found, f"{len(found)} violation(s) of {rule}; first: {found[0]}"


# The timed host rules with the release's own timer model (``release_judge.release_timer``:
# one timer and one window per tensor, 50 ms then 200 us, no back-off, at the clock's
# rate). Not early, not too large: asserted. Late and held back, seen on every tensor of
# the suite's softswitch runs here but not yet told apart from the release's threads
# going unscheduled (36 busy-polling threads at nice 10 on 2 cores): expected failures,
# not strict, until they are (docs/host-mutation.md).
TIMED_RULES = [pytest.param(rule, marks=pytest.mark.xfail(strict=False,
                                                          reason=OBSERVED[rule]))
               if rule in OBSERVED else rule for rule in TIMED]


@pytest.mark.parametrize("rule", TIMED_RULES)
def test_timed_host_rules_on_the_softswitch_captures(host_violations, rule):
    """One timed host rule on the softswitch run's captures, with the release's timer."""
    found = host_violations.get(rule, [])
    assert not found, f"{len(found)} violation(s) of {rule}; first: {found[0]}"
