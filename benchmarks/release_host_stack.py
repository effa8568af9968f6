"""Goodput of the ATP release's C++ worker against ours, side by side in one run.

Both run as processes in network namespaces over the same fabric (a Linux bridge: the
release's fixed MACs are not in the softswitch's L2 table, see
conformance/test_host_stack_release.py), one worker and one PS:

- **release**: its worker and PS built unmodified against ``verbs_emu``, workload
  ``-l 1`` (12 threads x one tensor of 1,024,000 integers = 198,204 packets, window 100
  per thread); the time is the worker's own ("Finish all 12 Tensors, Time = ...",
  start-up excluded);
- **ours**: ``host_stack`` with tensors of the same size (1,024,000 elements, window
  100), ``--ours-tensors`` of them (default 1: ours takes ~1 minute per tensor on two
  shared cores; 12 is the release's workload exactly); its time is the worker's own.

The ratio is packets per second, release / ours. The release's payloads are zeros
(deviation 9.3) and its threads busy-poll, so it trades CPU for rate; on 2 shared cores
both are CPU-bound and the numbers say little about a NIC.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from reference.scenario import Scenario  # noqa: E402
from reference.topology import Job, Rack, Tensor, Topology  # noqa: E402
from reference.wire import ELEMENTS  # noqa: E402

TENSOR_ELEMENTS = 1024000
RELEASE_TENSORS = 12
WINDOW = 100
TIME_LINE = re.compile(r"Finish all (\d+) Tensors,\s*Time = ([0-9.]+) s")


def ours_scenario(tensors: int) -> Scenario:
    topo = Topology((Rack("tor0", ("w0", "ps0")),))
    job = Job(app_id=1, workers=("w0",), pses=("ps0",), window=WINDOW,
              tensors=tuple(Tensor(k + 1, TENSOR_ELEMENTS) for k in range(tensors)))
    return Scenario(topo, (job,), seed=3, name="release-shaped")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/release_host_stack.py")
    parser.add_argument("--ours-tensors", type=int, default=1,
                        help=f"tensors of {TENSOR_ELEMENTS} elements ours aggregates "
                             f"(default 1; the release's workload is {RELEASE_TENSORS})")
    args = parser.parse_args(argv)
    from host_stack.netns import unavailable_reason
    from host_stack.release_build import ReleaseBuildError, build_release
    from host_stack.release_run import ReleaseRunError, run_release
    from host_stack.session import run_on_testbed
    reason = unavailable_reason()
    if reason:
        print(f"release benchmark skipped: {reason}")
        return 0
    try:
        binaries = build_release()
    except ReleaseBuildError as exc:
        print(f"release benchmark skipped: {exc}")
        return 0
    per_tensor = -(-TENSOR_ELEMENTS // ELEMENTS)
    with tempfile.TemporaryDirectory(prefix="release-bench-") as tmp:
        try:
            rel = run_release(binaries, Path(tmp) / "release", duration_s=600, capture=False)
        except ReleaseRunError as exc:
            print(f"release run failed: {exc}")
            return 1
        log = (Path(tmp) / "release" / "w0.log").read_text(errors="replace")
        found = TIME_LINE.search(log)
        if not rel.workers_finished or not found:
            print(f"release run did not finish (exit {rel.worker_exit}); log tail:\n{log[-500:]}")
            return 1
        rel_packets = int(found.group(1)) * per_tensor
        rel_s = float(found.group(2))
        run = run_on_testbed(ours_scenario(args.ours_tensors), Path(tmp) / "ours",
                             fabric="bridge", capture=False, budget_s=900)
        if not run.completed or run.mismatches():
            print(f"our run failed: {run.summary()}")
            return 1
        ours_packets = args.ours_tensors * per_tensor
        ours_s = max(r.elapsed_s for r in run.worker_results.values())
    rel_pps, ours_pps = rel_packets / rel_s, ours_packets / ours_s
    print(f"host-stack goodput over the bridge, 1 worker + 1 PS, tensors of {TENSOR_ELEMENTS:,} "
          f"elements ({per_tensor:,} packets), window {WINDOW}")
    print(f"{'stack':>8} {'tensors':>8} {'packets':>9} {'seconds':>8} {'pkts/s':>9} {'MB/s':>7}")
    for name, tensors, packets, seconds in (("release", rel_packets // per_tensor, rel_packets, rel_s),
                                            ("ours", args.ours_tensors, ours_packets, ours_s)):
        print(f"{name:>8} {tensors:>8} {packets:>9,} {seconds:>8.1f} {packets / seconds:>9,.0f} "
              f"{packets * ELEMENTS * 4 / seconds / 1e6:>7.2f}")
    print(f"release/ours goodput ratio: {rel_pps / ours_pps:.2f}  (ours resends: "
          f"{run.counter('resends')}; the release's payloads are zeros, 9.3)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
