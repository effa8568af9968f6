"""``python -m host_stack.release_judge --ps PS.pcap --worker W0.pcap``: the host rules
on captures of the ATP release taken anywhere — on real hosts with ConnectX NICs and a
Tofino (tcpdump at each host, or the switch ports mirrored), or by
``host_stack.release_run``. The same judgement as ``conformance/test_host_stack_release.py``
(``atp_fixtures.oracles.host_rules`` on :func:`host_stack.release_run.release_scenario`):
one line per rule with its violation count and first violation; rules the release is
known to break say which deviation. Exit status 1 when a rule without a known deviation
is broken. One PS and one worker (``client/app 0 1 1 1 -l N``): the scenario's.

Time, and a slowed clock: no rule judged here reads a duration. They follow the
captures' order (7.2 here is which seqs a timeout resend left out, deviation 9.14, not
when its timer fired), so captures of a release whose clock was slowed (``host_stack.release_clock``;
the suite's softswitch runs use ``release_run.SOFTSWITCH_CLOCK_RATE``) are judged as
they are: the rate changes how often the release's timer fires in real time (every
200 µs / rate), not what a firing must resend. The timed host rules
(``atp_fixtures.oracles.host_timing``) are not applied to the release: they judge one
timer per job with our host stack's back-off, while the release keeps one per tensor
(per thread, restarted by any answer to it) without back-off; judged in the capture's
real time, its timer would be 200 µs / rate.

The timed host rules (``atp_fixtures.oracles.host_timing``) are applied with the
release's own timer model (:func:`release_timer`, from ``client/p4ml_manager.cc``):
one window and one timer per tensor (a thread each, all at once), 50 ms until the
thread's first answer and 200 µs after, restarted by every answer, no back-off, both
divided by the clock's rate (``--clock-rate``: captures of a slowed release). What a
timeout resends (9.14: only the lowest unacknowledged seq) is 7.2's coverage above,
not a timed rule. Their verdicts are reported as ``timed 7.x``."""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from atp_fixtures.oracles.host_rules import check_host_rules
from atp_fixtures.oracles.host_timing import HostTimer, TimedCapture, check_host_timing
from atp_fixtures.oracles.protocol_doc import rule_name

from host_stack.capture import read_pcap
from host_stack.cli import run_main
from host_stack.release_run import ReleaseRun, release_scenario, sent_by

# what the release's captures break, and why (docs/protocol.md section 9)
KNOWN = {"3": "deviation 9.3 (no gradient values)",
         "7.2": "deviation 9.14 (a timeout resends only the lowest unacknowledged seq)"}
# the timed rules' verdicts on the suite's softswitch runs (2 cores; the release's 36
# busy-polling threads at nice 10): not early anywhere, nor too large; late and held
# back, which neither section 9 nor the release's source explains yet (see
# docs/host-mutation.md, "The ATP release under the timed rules")
OBSERVED = {
    "timed 7.5": "held back: a tensor's thread sent its next window seconds after the "
                 "answers that admit it (key 3: answers to seq 200 by 5.86 s, seqs 201.. "
                 "at 10.04 s); the release's pending-queue logic or its threads' "
                 "starvation, not told apart yet (not in section 9)",
    "timed 7.2": "late: a tensor's thread resent nothing for seconds with seqs "
                 "unacknowledged and nothing of its tensor arriving (40 ms timer); its "
                 "timer restarted by other threads' answers, or starvation, not told "
                 "apart yet (not in section 9)",
}
# rule ids are docs/protocol.md's: 6.4 ECN echo, 7.1 window, 7.2 loss recovery (only
# its timeout resends here: hole resends need an instant-by-instant replay), 7.3 remap,
# 7.4 float fallback
JUDGED = ("3", "6.4", "7.1", "7.3", "7.4", "7.2")
# the timed host rules with the release's timer model: window too large or held back
# (7.1; 7.5 under its congestion control), expiries early or late and holes left
# unanswered (7.2), float requests unanswered (7.4)
TIMED = ("timed 7.1", "timed 7.5", "timed 7.2 early", "timed 7.2", "timed 7.4")
RELEASE_TIMEOUT_NS = 200_000             # p4ml_manager.cc: timeout_value after an answer
RELEASE_START_TIMEOUT_NS = 50_000_000    # and before the thread's first one


def release_timer(clock_rate: float = 1.0) -> HostTimer:
    """The release's resend timer, in the capture's time when its clock ran at
    ``clock_rate`` (libfaketime): per tensor, no back-off."""
    return HostTimer(round(RELEASE_TIMEOUT_NS / clock_rate),
                     round(RELEASE_START_TIMEOUT_NS / clock_rate),
                     lambda backoff_ns, heard, interval_ns: 0, per_tensor=True)


def judge(ps_pcap: Path, worker_pcap: Path, clock_rate: float = 1.0) -> dict[str, list]:
    """The host-rule violations of the release's captures, by rule (the timed rules'
    as ``timed <rule>``, judged by :func:`release_timer` at ``clock_rate``)."""
    for path in (ps_pcap, worker_pcap):
        if not Path(path).is_file():
            raise ValueError(f"{path}: no such capture; pass the pcap taken at "
                                    f"that host's port")
    run = ReleaseRun(Path(worker_pcap).parent, fabric="captures",
                     pcaps={"ps": Path(ps_pcap), "w0": Path(worker_pcap)})
    found = defaultdict(list)
    scenario = release_scenario()
    for v in check_host_rules(run.captured(scenario)):
        found[v.rule].append(v)
    capture = TimedCapture.from_records(scenario, {"w0": read_pcap(Path(worker_pcap))},
                                        f"the ATP release's worker, {worker_pcap}",
                                        sent_by=sent_by)
    for v in check_host_timing(capture, release_timer(clock_rate)):
        early = v.rule == "7.2" and "(no hole or float request calls for it)" in v.what
        found[f"timed {v.rule}{' early' if early else ''}"].append(v)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m host_stack.release_judge")
    parser.add_argument("--ps", required=True, type=Path, help="the PS port's capture")
    parser.add_argument("--worker", required=True, type=Path,
                        help="the worker port's capture")
    parser.add_argument("--clock-rate", type=float, default=1.0,
                        help="the rate the release's clock ran at (libfaketime; the "
                        "suite's softswitch runs use 0.005): its timer in capture time")
    args = parser.parse_args(argv)
    if args.clock_rate <= 0:
        parser.error(f"--clock-rate {args.clock_rate}: a rate above 0 (1 = real time)")
    found = judge(args.ps, args.worker, args.clock_rate)
    unexpected = False
    for rule in JUDGED + TIMED:
        hits = found.get(rule, [])
        verdict = "ok" if not hits else f"{len(hits)} violation(s), first: {hits[0]}"
        if hits and rule in KNOWN:
            verdict += f" [known: {KNOWN[rule]}]"
        elif hits and rule in OBSERVED:
            verdict += f" [observed before: {OBSERVED[rule]}]"
        unexpected |= bool(hits) and rule not in KNOWN and rule not in OBSERVED
        name = (f"{rule.replace(rule.split()[1], rule_name(rule.split()[1]))}"
                if rule.startswith("timed ") else rule_name(rule))
        print(f"{name}: {verdict}")
    return 1 if unexpected else 0


if __name__ == "__main__":
    run_main(main)
