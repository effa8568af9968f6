"""The timed host checks (``atp_fixtures.oracles.host_timing``) on captures of the real host loop.

``host_stack.shell.HostLoop`` (the host stack's own loop, back-off included) runs the
reference workers of a host in process, over a scripted fabric with a fake clock: every
gradient reaches the job's PSes (the reference PS, one worker per job so each gradient
completes its seq) after a latency, unless the plan drops it; the capture is what
crossed the host's interface, with times. A correct host passes; the host-stack mutants
of tests/mutants (the same functions, patched in here) are caught, each by its rule.
No root needed: these run everywhere, the real-process runs are in
conformance/test_host_stack.py.
"""

from __future__ import annotations

import heapq
from typing import Callable

import pytest

from atp_fixtures.oracles.host_timing import (
    HostTimer, TimedCapture, check_host_timing, host_stack_timer, one_tensor_each,
)
from host_stack import roles as roles_module
from host_stack import shell
from host_stack.roles import Multiplex, roles_from_scenario
from host_stack.shell import HostLoop
from reference import worker as worker_module
from reference.scenario import Scenario
from reference.wire import ELEMENTS, FLAG_ECN, FLAG_OVERFLOW, FLAG_RESEND, decode, encode
from tests.mutants import plugin as mutants

TIMEOUT_US = 10_000
LATENCY_NS = 300_000


class ScriptedFabric:
    """The host's link and clock: frames the host sends reach the PSes after
    ``LATENCY_NS``; their answers come back after as long. ``drop(packet, now)`` drops a
    frame of the host; ``mark(packet, now)`` sets its ECN flag (a congested queue)."""

    def __init__(self, scenario: Scenario, host: str, *,
                 drop: Callable = lambda p, now: False,
                 mark: Callable = lambda p, now: False):
        self.scenario = scenario
        self.host = host
        self.now = 0
        self.pses = {}
        for ps_host in dict.fromkeys(h for j in scenario.jobs for h in j.pses):
            for role in roles_from_scenario(scenario, ps_host):
                if role.kind == "ps":
                    self.pses[(role.app_id, role.index)] = role.app
        self.drop, self.mark = drop, mark
        self.arrivals: list[tuple[int, int, bytes]] = []
        self.order = 0
        self.capture: list[tuple[int, bytes]] = []
        self.sent = self.received = 0

    def clock(self) -> int:
        return self.now

    def send(self, frame: bytes) -> None:
        self.now += 2_000                        # a frame's send cost
        self.capture.append((self.now, frame))
        packet = decode(frame)
        if self.drop(packet, self.now):
            return
        if self.mark(packet, self.now):
            packet.flags |= FLAG_ECN
            frame = encode(packet)
        ps = self.pses[(packet.app_id, packet.ps_index)]
        for answer in ps.on_frame(frame, self.now + LATENCY_NS):
            self.order += 1
            heapq.heappush(self.arrivals, (self.now + 2 * LATENCY_NS, self.order, answer))

    def recv_batch(self, timeout_s: float | None, limit: int = 256) -> list[bytes]:
        wake = self.now + int((timeout_s or 0) * 1e9)
        if not self.arrivals or self.arrivals[0][0] > wake:
            self.now = max(self.now, wake)
            return []
        self.now = max(self.now, self.arrivals[0][0])
        out = []
        while self.arrivals and self.arrivals[0][0] <= self.now and len(out) < limit:
            at, _, frame = heapq.heappop(self.arrivals)
            self.capture.append((at, frame))
            out.append(frame)
        return out


def run_host(scenario: Scenario, host: str, timeout_us: int = TIMEOUT_US,
             per_tensor: bool = False, **script) -> TimedCapture:
    """Run ``host``'s workers under the real host loop; its interface's capture.
    ``per_tensor``: a worker per tensor, all at once (the ATP release's threads)."""
    fabric = ScriptedFabric(scenario, host, **script)
    variants = one_tensor_each(scenario) if per_tensor else [scenario]
    workers = [r.app for variant in variants
               for r in roles_from_scenario(variant, host, timeout_ns=timeout_us * 1000)
               if r.kind == "worker"]
    loop = HostLoop(fabric, Multiplex(workers), clock=fabric.clock)
    for w in workers:
        loop.send(w.start(fabric.now))
    fabric.now += 1
    finished = loop.run(until=lambda: all(w.finished for w in workers), budget_s=60)
    assert finished, "the scripted run did not finish"
    return TimedCapture.from_records(scenario, {host: sorted(fabric.capture,
                                                             key=lambda r: r[0])})


def rules(capture: TimedCapture, timeout_us: int = TIMEOUT_US) -> set[str]:
    return {v.rule for v in check_host_timing(capture, host_stack_timer(timeout_us))}


def one_job(packets: int, window: int, **job) -> Scenario:
    return Scenario.from_dict({
        "name": "timed", "seed": 5, "pool_size": 256,
        "topology": {"racks": [{"name": "tor0", "hosts": ["h0", "ps"]}]},
        "jobs": [{"app_id": 1, "workers": ["h0"], "pses": ["ps"], "window": window,
                  "tensors": [{"key": 7, "length": packets * ELEMENTS}], **job}],
        "faults": {"targeted": []}})


def silent_last_seq(drops: int):
    """Drop the first transmission of the job's last seq and its next ``drops - 1``
    resends: the host hears nothing while its timer expires ``drops`` times."""
    seen = []

    def drop(p, now):
        if p.seq == 6:
            seen.append(now)
            return len(seen) <= drops
        return False
    return drop


def mutated(name: str | None, scenario: Scenario, host: str, **script) -> TimedCapture:
    """``run_host`` with one mutant of tests/mutants patched in for the run only (none:
    the intact host): the reference workers and the timer that judge the capture stay
    intact, as they do for the real processes."""
    if name is None:
        return run_host(scenario, host, **script)
    table = {**mutants.HOST_STACK_MUTANTS, **mutants.HOST_MUTANTS}
    owner, attribute, replacement = table[name]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(owner, attribute, replacement)
        return run_host(scenario, host, **script)


def test_the_host_loop_passes_with_back_off():
    capture = run_host(one_job(6, 2), "h0", drop=silent_last_seq(5))
    resends = [f for f in capture.hosts["h0"]
               if not f.to_host and f.packet.flags & FLAG_RESEND]
    assert len(resends) >= 5, "the timer should have expired five times"
    assert rules(capture) == set()


def test_a_timer_without_back_off_is_caught():
    capture = mutated("timer_no_backoff", one_job(6, 2), "h0", drop=silent_last_seq(5))
    assert rules(capture) == {"7.2"}


def test_a_timer_that_fires_early_is_caught():
    """A host whose timeout is half the documented one: its first expiry after progress
    comes T/2 after the last frame heard, within the tolerance's reach."""
    capture = run_host(one_job(6, 2), "h0", drop=silent_last_seq(1))
    fast = check_host_timing(capture, host_stack_timer(4 * TIMEOUT_US))
    assert {v.rule for v in fast} == {"7.2"}


def test_late_timer_is_caught():
    """Judged by a timer a quarter of the one it ran with (and no slack), the host is
    late: its resends come after the deadline plus the tolerance."""
    capture = run_host(one_job(6, 2), "h0", drop=silent_last_seq(1))
    late = check_host_timing(capture, host_stack_timer(TIMEOUT_US // 4), lag_ns=0,
                             late_ns=0)
    assert any("resent nothing" in v.what for v in late), late


def two_jobs() -> Scenario:
    return Scenario.from_dict({
        "name": "timed-two-jobs", "seed": 6, "pool_size": 256,
        "topology": {"racks": [{"name": "tor0", "hosts": ["h0", "ps0", "ps1"]}]},
        "jobs": [
            {"app_id": 1, "workers": ["h0"], "pses": ["ps0"], "window": 2,
             "tensors": [{"key": 1, "length": 6 * ELEMENTS}]},
            {"app_id": 2, "workers": ["h0"], "pses": ["ps1"], "window": 2,
             "tensors": [{"key": 2, "length": 200 * ELEMENTS}]}],
        "faults": {"targeted": []}})


def job1_last_seq_lost(p, now):
    return p.app_id == 1 and p.seq == 6 and not p.flags & FLAG_RESEND


def test_two_jobs_on_one_host_keep_their_own_deadlines():
    assert rules(run_host(two_jobs(), "h0", drop=job1_last_seq_lost)) == set()


def test_one_timer_for_all_jobs_is_caught():
    capture = mutated("one_timer_for_all_jobs", two_jobs(), "h0", drop=job1_last_seq_lost)
    assert rules(capture) == {"7.2"}


def flicker(p, now) -> bool:
    """A queue over the ECN threshold in every other 0.5 ms."""
    return (now // 500_000) % 2 == 0


def test_aimd_host_passes():
    capture = run_host(one_job(120, 16, congestion_control=True), "h0", mark=flicker)
    assert rules(capture) == set()


@pytest.mark.parametrize("mutant", ["aimd_forgets_marks", "aimd_never_halves"])
def test_aimd_state_bugs_are_caught(mutant):
    capture = mutated(mutant, one_job(120, 16, congestion_control=True), "h0",
                      mark=flicker)
    assert rules(capture) == {"7.5"}


@pytest.mark.parametrize("congestion_control", [False, True])
def test_a_window_one_too_large_is_caught(congestion_control):
    capture = mutated("window_one_too_many",
                      one_job(40, 4, congestion_control=congestion_control), "h0",
                      mark=flicker)
    found = rules(capture)
    # under AIMD, a seq sent while the replica's window was below S is 7.5's
    assert found == {"7.1"} if not congestion_control else (
        "7.1" in found and found <= {"7.1", "7.5"}), found


def test_the_mutants_patch_what_the_host_stack_calls():
    """The host-stack mutants replace attributes the host stack looks up at run time."""
    assert mutants.HOST_STACK_MUTANTS["timer_no_backoff"][0] is shell
    assert mutants.HOST_STACK_MUTANTS["one_timer_for_all_jobs"][0] is roles_module.Multiplex
    assert mutants.HOST_STACK_MUTANTS["aimd_forgets_marks"][0] is worker_module.Worker


def hand_capture(scenario: Scenario, script: list) -> TimedCapture:
    """A capture written by hand: ``script`` is a list of ``(time_ns, action)`` where the
    action is ``"start"`` (the host's worker starts), ``("lose", seq)`` (the next
    transmission of that gradient never reaches the PS) or ``("answer", seq)`` (the PS's parameter packet for a
    gradient it got reaches the host, which reacts at once). Every frame is made by the
    reference worker and PS; the host's reactions are the worker's, 50 us later."""
    host = next(r.app for r in roles_from_scenario(scenario, "h0") if r.kind == "worker")
    ps = next(r.app for r in roles_from_scenario(scenario, "ps") if r.kind == "ps")
    records, answers, lost = [], {}, set()

    def send(frames: list[bytes], at: int) -> None:
        for n, frame in enumerate(frames):
            records.append((at + n * 1_000, frame))
            packet = decode(frame)
            if packet.seq in lost:
                lost.discard(packet.seq)
            else:
                for answer in ps.on_frame(frame, at):
                    answers[decode(answer).seq] = answer

    for at, action in script:
        if action == "start":
            send(host.start(at), at)
        elif action[0] == "lose":
            lost.add(action[1])
        else:
            frame = answers.pop(action[1])
            records.append((at, frame))
            send(host.on_frame(frame, at), at + 50_000)
    return TimedCapture.from_records(scenario, {"h0": sorted(records)})


def test_hole_resends_around_a_later_calling_frame_are_holes():
    """After a first window the host visibly read (it sent 5..8, which parameters 1..4
    let out), gradients 5 and 7 are lost: parameter 6 calls for 5, parameter 8
    (reaching the host between the two resends, nothing new sent in between) calls for
    7. The host resends 5 then 7 as one rising run, 1 ms after its last progress; each resend is explained by a frame that
    reached the host before it, so none is a timer expiry (a fresh-clone CI took the
    second's call, made after the run began, as missing and reported an early timeout
    resend)."""
    script = [(0, "start"), (0, ("lose", 5)), (0, ("lose", 7))]
    script += [(1_000_000 + 100_000 * s, ("answer", s)) for s in (1, 2, 3, 4)]
    script += [(2_400_000, ("answer", 6)), (2_460_000, ("answer", 8))]
    capture = hand_capture(one_job(10, 4), script)
    sent = [(f.packet.seq, bool(f.packet.flags & FLAG_RESEND))
            for f in capture.hosts["h0"] if not f.to_host]
    assert sent == [(s, False) for s in range(1, 9)] + [(5, True), (7, True)]
    assert check_host_timing(capture, host_stack_timer(TIMEOUT_US)) == []


def with_resend_of(capture: TimedCapture, seq: int, at: int, float_mode: bool = False
                   ) -> TimedCapture:
    """``capture`` with the host's first transmission of ``seq`` sent again at ``at`` as a
    resend (a float resend with ``float_mode``; its values as they were)."""
    frames = capture.hosts["h0"]
    packet = next(f.packet for f in frames if not f.to_host and f.packet.seq == seq)
    packet.flags |= FLAG_RESEND | (FLAG_OVERFLOW if float_mode else 0)
    records = [(f.time_ns, f.frame) for f in frames] + [(at, encode(packet))]
    return TimedCapture.from_records(capture.scenario, {"h0": sorted(records)})


@pytest.mark.parametrize("float_mode", [False, True], ids=["resend", "float-resend"])
def test_a_resend_of_a_seq_whose_answer_the_host_read_is_caught(float_mode):
    """7.2 / 7.4: the host sent 5..8, which the parameter packets of 1..4 let out, so it
    had read seq 2's; a resend of seq 2 two timeouts later (an expiry in time, were it
    one) is of an answered seq. The same resend before the host's frames show it read
    the answer (right after the answer reached it) is not judged by this check."""
    script = [(0, "start")] + [(1_000_000 + 100_000 * s, ("answer", s)) for s in (1, 2, 3, 4)]
    capture = hand_capture(one_job(10, 4), script)
    assert check_host_timing(capture, host_stack_timer(TIMEOUT_US)) == []
    last = capture.hosts["h0"][-1].time_ns
    found = check_host_timing(with_resend_of(capture, 2, last + 2 * TIMEOUT_US * 1000,
                                             float_mode), host_stack_timer(TIMEOUT_US))
    assert [v.rule for v in found] == ["7.4" if float_mode else "7.2"], found
    assert "resend of seq 2" in found[0].what and "after its parameter packet" in found[0].what
    unread = with_resend_of(capture, 2, 1_000_000 + 100_000 * 2 + 10_000, float_mode)
    assert not [v for v in check_host_timing(unread, host_stack_timer(TIMEOUT_US))
                if "after its parameter packet" in v.what]


def test_a_burst_paused_with_nothing_heard_is_one_expiry():
    """A host descheduled inside an expiry's burst for longer than its timer, with
    nothing of the job reaching it meanwhile, still resends one rising run: one expiry,
    not two (a second expiry with nothing heard resends from the lowest unacknowledged
    seq again, so it cannot continue the rise). Here the first window is lost whole, the
    start timeout fires and the burst 1..4 pauses 1.5 timeouts after seq 1 (a loaded
    run over the softswitch paused 20.9 and 49 ms inside bursts of a 20 ms timer and
    the check reported early timeouts)."""
    first_window = set()

    def lose_first_window(p, now):
        if p.seq <= 4 and p.seq not in first_window:
            first_window.add(p.seq)
            return True
        return False
    capture = run_host(one_job(8, 4), "h0", drop=lose_first_window)
    frames = capture.hosts["h0"]
    first = next(k for k, f in enumerate(frames) if f.packet.flags & FLAG_RESEND)
    assert [f.packet.seq for f in frames[first:first + 4]] == [1, 2, 3, 4]
    pause = 3 * TIMEOUT_US * 1000 // 2
    records = [(f.time_ns + (pause if k > first else 0), f.frame)
               for k, f in enumerate(frames)]
    paused = TimedCapture.from_records(capture.scenario, {"h0": records})
    assert rules(paused) == set()


# -- both directions (issue 32): each rule's mirror-image defect, in the state where it
# bites. Each scenario passes intact and catches its mutants, each by its rule.
LONG_TIMER_US = 2_000_000        # past the late checks' 1 s: only a hole or request helps


def blocked(seq: int, until_ns: int):
    """Every transmission of ``seq`` is lost until ``until_ns``: the window stays full
    behind it for longer than the late checks' tolerance."""
    return lambda p, now: p.seq == seq and now < until_ns


def lost_once(*seqs: int):
    """The first transmission of each of ``seqs`` is lost."""
    seen: set[int] = set()

    def drop(p, now):
        if p.seq in seqs and p.seq not in seen:
            seen.add(p.seq)
            return True
        return False
    return drop


def losses_then_recovery_then_one_more():
    """Seq 4's first transmission and its next eight resends are lost (expiries with
    nothing heard: the back-off grows to its 1 s cap), the job recovers, then seq 10's first
    transmission, its hole resend and its first timeout resend are lost (two expiries,
    the back-off reset)."""
    count: dict[int, int] = {}

    def drop(p, now):
        count[p.seq] = count.get(p.seq, 0) + 1
        return (p.seq == 4 and count[4] <= 9) or (p.seq == 10 and count[10] <= 3)
    return drop


def ecn_burst(p, now) -> bool:
    """A congested queue for the run's first 3 ms, then calm."""
    return now < 3_000_000


def two_jobs_far_apart() -> Scenario:
    """h0 works for job 1 (its first window is lost twice: idle on its start timeout)
    and the long job 2, which loses seq 20 four times meanwhile (recovering on its own
    short timer)."""
    return Scenario.from_dict({
        "name": "timed-far-apart", "seed": 7, "pool_size": 256,
        "topology": {"racks": [{"name": "tor0", "hosts": ["h0", "ps0", "ps1"]}]},
        "jobs": [
            {"app_id": 1, "workers": ["h0"], "pses": ["ps0"], "window": 2,
             "tensors": [{"key": 1, "length": 4 * ELEMENTS}]},
            {"app_id": 2, "workers": ["h0"], "pses": ["ps1"], "window": 1,
             "tensors": [{"key": 2, "length": 3000 * ELEMENTS}]}],
        "faults": {"targeted": []}})


def job1_idle_job2_recovering():
    count: dict[tuple[int, int], int] = {}

    def drop(p, now):
        key = (p.app_id, p.seq)
        count[key] = count.get(key, 0) + 1
        return (p.app_id == 1 and count[key] <= 2) or (key == (2, 20) and count[key] <= 4)
    return drop


def float_at_the_edge() -> Scenario:
    """Seqs 4 (the first window's edge) and 8 (the tensor's last: nothing after it can
    reveal it as a hole) carry 2^31 - 1 after quantization (2^31 at a scale of
    (2^31 - 1) / 2^31, both exact; not over the threshold, so sent as an integer), the
    sticky value the PS answers with a float request."""
    data = [1.0] * (8 * ELEMENTS)
    for s in (4, 8):
        data[(s - 1) * ELEMENTS] = 2.0 ** 31
    return one_job(8, 4, scale=(2 ** 31 - 1) / 2 ** 31,
                   tensors=[{"key": 7, "length": 8 * ELEMENTS, "data": [data]}])


# (mutant, its rule, the scenario: (scenario, script, timeout_us))
def _window_block():
    return one_job(12, 4), {"drop": blocked(6, 2_500_000_000)}


def _hole_long_timer():
    return one_job(12, 4), {"drop": lost_once(6), "timeout_us": LONG_TIMER_US}


def _holes():
    return one_job(12, 4), {"drop": lost_once(6)}


def _silent(drops: int):
    return lambda: (one_job(6, 2), {"drop": silent_last_seq(drops)})


def _backoff_reset():
    return one_job(14, 2), {"drop": losses_then_recovery_then_one_more()}


def _far_apart():
    return two_jobs_far_apart(), {"drop": job1_idle_job2_recovering()}


def _aimd_calm():
    def drop(p, now):
        return p.seq == 150 and now < 3_000_000_000
    return one_job(200, 16, congestion_control=True), {"mark": ecn_burst, "drop": drop}


def _float_edge(timeout_us: int = LONG_TIMER_US):
    return lambda: (float_at_the_edge(), {"timeout_us": timeout_us})


BOTH_DIRECTIONS = {
    "window_one_too_few": ("7.1", _window_block),
    "hole_never_resent": ("7.2", _hole_long_timer),
    "hole_resent_every_time": ("7.2", _holes),
    "timer_twice_as_long": ("7.2", _silent(8)),
    "timer_half_as_long": ("7.2", _silent(5)),
    "backoff_never_reset": ("7.2", _backoff_reset),
    "backoff_quadruples": ("7.2", _silent(6)),
    "deadline_of_latest_job": ("7.2", _far_apart),
    "any_job_restarts_timer": ("7.2", _far_apart),
    "aimd_remembers_marks": ("7.5", _aimd_calm),
    "aimd_never_grows": ("7.5", _aimd_calm),
    "aimd_grows_double": ("7.5", _aimd_calm),
    "float_request_ignored": ("7.4", _float_edge()),
    "float_request_answered_twice": ("7.2", _float_edge(TIMEOUT_US)),
}


def _judge(scenario_of, mutant):
    scenario, script = scenario_of()
    timeout_us = script.pop("timeout_us", TIMEOUT_US)
    capture = mutated(mutant, scenario, "h0", timeout_us=timeout_us, **script)
    return capture, check_host_timing(capture, host_stack_timer(timeout_us))


@pytest.mark.parametrize("mutant", sorted(BOTH_DIRECTIONS))
def test_each_direction_passes_intact_and_catches_its_mutant(mutant):
    rule, scenario_of = BOTH_DIRECTIONS[mutant]
    _, intact = _judge(scenario_of, None)
    assert intact == [], "\n".join(map(str, intact))
    _, found = _judge(scenario_of, mutant)
    assert found and found[0].rule == rule, "\n".join(map(str, found)) or "nothing found"


def no_backoff_timer(timeout_us: int, per_tensor: bool) -> HostTimer:
    return HostTimer(timeout_us * 1000, roles_module.HOST_START_TIMEOUT_NS,
                     lambda backoff, heard, interval: 0, per_tensor=per_tensor)


def test_a_timer_per_tensor_is_judged_per_tensor():
    """The release's timer model (one window and one timer per tensor, all tensors at
    once, no back-off): a host built so, two tensors of one job under the release's
    per-tensor seqs, the last seq of the first tensor lost three times. Judged per
    tensor it breaks nothing; judged as one job it sends the second tensor's seqs
    before the first is done, which one window per job does not admit."""
    scenario = one_job(6, 2, tensors=[{"key": 7, "length": 6 * ELEMENTS},
                                      {"key": 8, "length": 6 * ELEMENTS}])
    scenario = Scenario.from_dict({**scenario.to_dict(), "profile": "atp-release"})
    capture = mutated("timer_no_backoff", scenario, "h0", per_tensor=True,
                      drop=silent_last_seq(3))
    resends = [f for f in capture.hosts["h0"] if f.packet.flags & FLAG_RESEND]
    assert len(resends) >= 3
    per_tensor = check_host_timing(capture, no_backoff_timer(TIMEOUT_US, True))
    assert per_tensor == [], "\n".join(map(str, per_tensor))
    per_job = check_host_timing(capture, no_backoff_timer(TIMEOUT_US, False))
    assert "7.1" in {v.rule for v in per_job}
