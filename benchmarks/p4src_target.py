"""End-to-end rate of the p4sim target (p4src/atp.p4 executed by p4sim) next to the
reference target, in the same run: gradient packets per second through the whole
conformance closed loop (hosts, network, faults, the target as the rack switch) and
through the bare switch (a job's windows streamed straight into the target); and the
time of one conformance closed-loop run of a corpus scenario on each target, as the
suite's ``run_on`` does it (every switch in lockstep with a reference switch, register
readback after every frame, the leak probe): what `make conformance` spends per run.

    python benchmarks/p4src_target.py [--seqs N] [--workers N] [--window N]
                                      [--scenario NAME] [--runs N]

Goal (issue 9): the p4sim target within 3x of the reference target.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.reference_switch import (build, closed_loop_scenario,  # noqa: E402
                                          gradients_per_second)
from atp_fixtures.running.closed_loop import (assert_lockstep, probe_leak_boundaries,  # noqa: E402
                                  run_on_target)
from reference.scenario import load_scenario  # noqa: E402
from atp_fixtures.targets import open_target  # noqa: E402

SCENARIOS = Path(__file__).resolve().parents[1] / "fixtures" / "corpus" / "scenarios"


def closed_loop_rate(target: str, workers: int, seqs: int, window: int) -> float:
    scenario = closed_loop_scenario(workers, seqs, window)
    start = time.perf_counter()
    run = run_on_target(scenario, lambda: open_target(target))
    elapsed = time.perf_counter() - start
    assert run.completed, f"the scenario did not complete on target {target}"
    return gradients_per_second(run, elapsed)


def switch_rate(target: str, workers: int, seqs: int, window: int) -> float:
    config, stream = build(workers, seqs, window)
    driver = open_target(target)
    driver.setup(config)
    driver.inject(1, stream[0][1])      # warm up (p4sim: the first packet builds the pipe)
    driver.reset()
    driver.setup(config)
    gradients = sum(1 for _, _, is_param in stream if not is_param)
    start = time.perf_counter()
    for port, frame, _ in stream:
        driver.inject(port, frame)
        driver.collect()
    return gradients / (time.perf_counter() - start)


def conformance_run_seconds(target: str, scenario_name: str, runs: int) -> float:
    """CPU seconds per closed-loop run of a corpus scenario, checked as run_on checks it
    (CPU time: the machine is shared, and both targets are measured the same way)."""
    scenario = load_scenario(SCENARIOS / f"{scenario_name}.json")

    def once() -> None:
        shadows: list = []
        run = run_on_target(scenario, lambda: open_target(target), shadows)
        probe_leak_boundaries(run, shadows)
        assert_lockstep(run, shadows)
        assert run.completed, f"{scenario_name} did not complete on target {target}"

    once()                                   # warm up (p4sim: compile the program)
    start = time.process_time()
    for _ in range(runs):
        once()
    return (time.process_time() - start) / runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seqs", type=int, default=400)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--window", type=int, default=32)
    parser.add_argument("--scenario", default="collisions-small-pool",
                        help="corpus scenario (fixtures/corpus/scenarios/NAME.json)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    open_target("p4sim").setup(build(2, 1, 1)[0])          # compile outside the timing
    rates = {}
    for target in ("reference", "p4sim"):
        rates[target] = (switch_rate(target, args.workers, args.seqs, args.window),
                         closed_loop_rate(target, args.workers, args.seqs, args.window))
    ref_switch, ref_loop = rates["reference"]
    p4_switch, p4_loop = rates["p4sim"]
    print(f"switch only  reference {ref_switch:10,.0f} gradients/s   p4sim {p4_switch:10,.0f}"
          f"   p4sim is {ref_switch / p4_switch:.1f}x slower")
    print(f"closed loop  reference {ref_loop:10,.0f} gradients/s   p4sim {p4_loop:10,.0f}"
          f"   p4sim is {ref_loop / p4_loop:.1f}x slower (goal <= 3x: "
          f"{'met' if ref_loop / p4_loop <= 3 else 'NOT met'})")
    per_run = {target: conformance_run_seconds(target, args.scenario, args.runs)
               for target in ("reference", "p4sim")}
    print(f"conformance run of {args.scenario} (lockstep, CPU s per run)  reference "
          f"{per_run['reference']:.3f}   p4sim {per_run['p4sim']:.3f}   p4sim is "
          f"{per_run['p4sim'] / per_run['reference']:.1f}x slower")


if __name__ == "__main__":
    main()
