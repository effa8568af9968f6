"""What coverage costs p4sim: atp.p4 compiled with coverage (the default) and without,
the same gradient stream injected straight into both switches (the worst case: nothing
but the P4 program runs), rounds interleaved so that load changes hit both alike; and
one conformance closed-loop run of a corpus scenario on the p4sim target with each
build (what `make conformance` pays per run). CPU time, ratios side by side.

    python benchmarks/p4sim_coverage.py [--seqs N] [--rounds N] [--scenario NAME]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.p4src_target import conformance_run_seconds  # noqa: E402
from benchmarks.reference_switch import build  # noqa: E402
from atp_fixtures.targets import p4sim as driver  # noqa: E402


def stream_seconds(coverage: bool, config, stream) -> float:
    target = driver.P4simTarget()
    target.setup(config)
    target.switch = __import__("p4sim").Switch(
        driver.compiled_program(False, coverage=coverage),
        recirculation_port=driver.RECIRCULATION_PORT, max_passes=driver.MAX_PASSES)
    from p4src.control import AtpControlPlane, P4simFacade
    AtpControlPlane(P4simFacade(target.switch), driver.POOL_MAX).configure(config)
    start = time.process_time()
    for port, frame, _ in stream:
        target.switch.inject(port, frame)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seqs", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--scenario", default="collisions-small-pool")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    config, stream = build(4, args.seqs, 32)
    total = {True: 0.0, False: 0.0}
    for _ in range(args.rounds):
        for coverage in (False, True):
            total[coverage] += stream_seconds(coverage, config, stream)
    frames = len(stream) * args.rounds
    on, off = frames / total[True], frames / total[False]
    print(f"atp.p4 switch only   without coverage {off:9,.0f} frames/s   with {on:9,.0f}"
          f"   coverage costs {100 * (total[True] / total[False] - 1):+.1f}% CPU")
    original = driver.compiled_program
    runs = {True: 0.0, False: 0.0}
    for _ in range(args.runs):                    # interleaved, one run each per round
        for coverage in (False, True):
            driver.compiled_program = (lambda release, pool_max=driver.POOL_MAX,
                                       coverage=coverage: original(release, pool_max, coverage))
            try:
                runs[coverage] += conformance_run_seconds("p4sim", args.scenario, 1)
            finally:
                driver.compiled_program = original
    print(f"conformance run of {args.scenario} (lockstep, CPU s per run)   without "
          f"{runs[False]:.3f}   with {runs[True]:.3f}   coverage costs "
          f"{100 * (runs[True] / runs[False] - 1):+.1f}%")


if __name__ == "__main__":
    main()
