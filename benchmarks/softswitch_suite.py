"""The conformance suite's wall time over real packets next to p4sim, in one run.

    python benchmarks/softswitch_suite.py            # a few minutes: exactly-once corpus
    python benchmarks/softswitch_suite.py --full --mode p4sim --mode softswitch
                                                     # the suite as CI runs it, ci profile
    python benchmarks/softswitch_suite.py -k "corpus" conformance/test_reclamation.py

The same conformance selection runs, one pytest process after another (no -n: a
BfRuntime target runs its tests in one process anyway), on

- ``p4sim``: atp.p4 in process, per-frame lockstep (the CI gate);
- ``softswitch``: atp.p4 in the switch daemon on veths through the BfRuntime + PTF
  driver, tagged frames in flight, the closed loop batched per switch instant
  (registers read once per segment of an instant, ``atp_fixtures.running.lockstep``,
  by a tagged read request at the end of the segment's batch,
  ``p4sim/switchd/tagged_reads.py``);
- ``softswitch, BfRuntime reads``: the same, each segment's registers read by a
  BfRuntime Read after its frames (what a Tofino gets);
- ``softswitch, one read per instant``: the same, registers read once per whole
  instant, as before segments (misses a register that a gradient re-taking a released
  aggregator overwrites in the same instant; shown for what segments cost);
- ``softswitch, stop-and-wait``: the same daemon, every frame answered before the next
  and registers read after every frame (what the driver did before issue 19, and what
  a switch without tags gets for its frames).

p4sim also runs the multi-switch scenarios that a one-switch target skips (each run's
outcome counts are printed): the ratios compare whole runs, not equal work. The modes
but the first two are set by loading this module as a pytest plugin
(``-p benchmarks.softswitch_suite`` with ``ATP_BENCH_DRIVER``). Prints each run's
wall time and outcome counts and the ratios against p4sim; asserts nothing. Needs root
(veth pairs) for the softswitch runs.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
QUICK = ["conformance/test_exactly_once.py", "-k", "corpus"]
# the suite as CI runs it over real packets (.ci/run), but the host-stack modules: they
# run only through real interfaces, so p4sim has no side of them to compare
FULL = ["conformance/", "--ignore=conformance/test_host_stack.py",
        "--ignore=conformance/test_host_stack_external.py",
        "--ignore=conformance/test_host_stack_release.py"]
MODES = {   # name: (target, ATP_BENCH_DRIVER)
    "p4sim": ("p4sim", None),
    "softswitch": ("softswitch", None),
    "softswitch, BfRuntime reads": ("softswitch", "bfruntime-reads"),
    "softswitch, one read per instant": ("softswitch", "instant"),
    "softswitch, stop-and-wait": ("softswitch", "stop-and-wait"),
}
OUTCOMES = ("passed", "failed", "skipped", "error", "xfailed", "xpassed")


def pytest_configure(config) -> None:
    """As a plugin: the BfRuntime driver in the mode ``ATP_BENCH_DRIVER`` names."""
    mode = os.environ.get("ATP_BENCH_DRIVER")
    if mode == "bfruntime-reads":
        from atp_fixtures.targets.bfrt_ptf import BfrtPtfTarget
        BfrtPtfTarget.tagged_reads = False
    elif mode == "stop-and-wait":
        from atp_fixtures.targets.bfrt_ptf import BfrtPtfTarget
        BfrtPtfTarget.pipelined = False
        BfrtPtfTarget.batches_closed_loop = False
    elif mode == "instant":
        from atp_fixtures.running import lockstep
        lockstep.segments = lambda deliveries: [deliveries]
    elif mode:
        raise ValueError(f"unknown ATP_BENCH_DRIVER {mode!r}: bfruntime-reads, "
                         f"stop-and-wait or instant")


def run(selection: list[str], target: str, driver: str | None,
        profile: str) -> tuple[float, dict[str, int], str]:
    """Wall time, outcome counts and the last lines of one pytest run."""
    env = dict(os.environ)
    env.pop("PYTEST_XDIST_WORKER", None)
    env.pop("ATP_BENCH_DRIVER", None)
    plugin = []
    if driver:
        env["ATP_BENCH_DRIVER"] = driver
        plugin = ["-p", "benchmarks.softswitch_suite"]
    with tempfile.TemporaryDirectory(prefix="atp-bench-") as reports:
        # the run's summary and P4 coverage go there, not over reports/'s
        env["ATP_SUMMARY_JSON"] = str(Path(reports) / "summary.json")
        t0 = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "pytest", *selection, f"--target={target}",
             f"--hypothesis-profile={profile}", "-p", "no:cacheprovider", "-q",
             "-o", "addopts=--strict-markers", "--seed=0", *plugin],
            cwd=REPO, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - t0
    lines = (done.stdout + done.stderr).strip().splitlines()
    # pytest's closing line (progress lines on stderr may come after it)
    last = next((line for line in reversed(lines)
                 if re.search(rf"\d+ ({'|'.join(OUTCOMES)})\b.* in ", line)),
                lines[-1] if lines else f"exit {done.returncode}")
    counts = {k: int(n) for n, k in re.findall(rf"(\d+) ({'|'.join(OUTCOMES)})\b", last)}
    return wall, counts, last


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true",
                    help="the whole suite as CI runs it over real packets (slow)")
    ap.add_argument("--profile", default="ci",
                    help="hypothesis profile (default ci, CI's on every target)")
    ap.add_argument("--mode", action="append", choices=list(MODES),
                    help="run only these modes (repeatable; default all)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="run the modes in turn this many times; each mode's fastest "
                         "run counts (a shared machine's load comes and goes)")
    ap.add_argument("selection", nargs="*",
                    help="pytest arguments selecting the tests (default: "
                         + " ".join(QUICK) + ")")
    args = ap.parse_args()
    selection = FULL if args.full else (args.selection or QUICK)
    modes = args.mode or list(MODES)
    print(f"selection: {' '.join(selection)}  (hypothesis profile {args.profile})")
    results: dict[str, tuple[float, dict[str, int]]] = {}
    for _ in range(args.rounds):
        for name in modes:
            target, driver = MODES[name]
            wall, counts, last = run(selection, target, driver, args.profile)
            if name not in results or wall < results[name][0]:
                results[name] = (wall, counts)
            print(f"{name:<36} {wall:>8.1f} s  {last}", flush=True)
    print()
    outcomes = {name: counts for name, (_, counts) in results.items()}
    softswitch = [c for n, c in outcomes.items() if n != "p4sim"]
    print("outcomes on the softswitch modes: "
          + ("identical" if all(c == softswitch[0] for c in softswitch) else "DIFFER"))
    base = results.get("p4sim")
    for name, (wall, _) in results.items():
        if base and name != "p4sim":
            print(f"{'wall time ' + name + ' / p4sim':<60} {wall / base[0]:>8.2f}x")
    saw = results.get("softswitch, stop-and-wait")
    for name in ("softswitch", "softswitch, BfRuntime reads", "softswitch, one read per instant"):
        if saw and name in results:
            print(f"{'wall time ' + name + ' / stop-and-wait':<60} "
                  f"{results[name][0] / saw[0]:>8.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
