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
real time, its timer would be 200 µs / rate."""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from atp_fixtures.oracles.host_rules import check_host_rules
from atp_fixtures.oracles.protocol_doc import rule_name

from host_stack.cli import run_main
from host_stack.release_run import ReleaseRun, release_scenario

# what the release's captures break, and why (docs/protocol.md section 9)
KNOWN = {"3": "deviation 9.3 (no gradient values)",
         "7.2": "deviation 9.14 (a timeout resends only the lowest unacknowledged seq)"}
# rule ids are docs/protocol.md's: 6.4 ECN echo, 7.1 window, 7.2 loss recovery (only
# its timeout resends here: hole resends need an instant-by-instant replay), 7.3 remap,
# 7.4 float fallback
JUDGED = ("3", "6.4", "7.1", "7.3", "7.4", "7.2")


def judge(ps_pcap: Path, worker_pcap: Path) -> dict[str, list]:
    """The host-rule violations of the release's captures, by rule."""
    for path in (ps_pcap, worker_pcap):
        if not Path(path).is_file():
            raise ValueError(f"{path}: no such capture; pass the pcap taken at "
                                    f"that host's port")
    run = ReleaseRun(Path(worker_pcap).parent, fabric="captures",
                     pcaps={"ps": Path(ps_pcap), "w0": Path(worker_pcap)})
    found = defaultdict(list)
    for v in check_host_rules(run.captured(release_scenario())):
        found[v.rule].append(v)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m host_stack.release_judge")
    parser.add_argument("--ps", required=True, type=Path, help="the PS port's capture")
    parser.add_argument("--worker", required=True, type=Path,
                        help="the worker port's capture")
    args = parser.parse_args(argv)
    found = judge(args.ps, args.worker)
    unexpected = False
    for rule in JUDGED:
        hits = found.get(rule, [])
        verdict = "ok" if not hits else f"{len(hits)} violation(s), first: {hits[0]}"
        if hits and rule in KNOWN:
            verdict += f" [known: {KNOWN[rule]}]"
        unexpected |= bool(hits) and rule not in KNOWN
        print(f"{rule_name(rule)}: {verdict}")
    return 1 if unexpected else 0


if __name__ == "__main__":
    run_main(main)
