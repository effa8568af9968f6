"""What long jobs (spec 10.8) cost the generated scenarios, side by side in one run.

Draws the same number of scenarios from ``atp_fixtures.generation.strategies.scenarios()`` with long
jobs (1-3 iterations sharing the ``max_seqs`` budget, first seqs near the wrap, delayed
stragglers across it) and with ``long_jobs=False`` (one push per job from seq 1, the
strategy before rev. 3), derandomized, and prints the CPU time the reference model
spends running each set, the packets sent, and their ratio.

    python benchmarks/long_jobs.py [--examples N]
"""

from __future__ import annotations

import argparse
import time

from hypothesis import HealthCheck, Phase, given, settings

from atp_fixtures.generation import strategies as fs
from reference.run import run_scenario
from reference.seqnum import crosses_wrap


def draw(n: int, long_jobs: bool) -> list:
    found = []

    @settings(max_examples=n, derandomize=True, database=None, deadline=None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(fs.scenarios(kills=None, long_jobs=long_jobs))
    def collect(scenario):
        found.append(scenario)

    collect()
    return found


def cost(scenarios: list) -> tuple[float, int, int]:
    """(CPU seconds, packets the workers sent, wraps crossed) over a set."""
    start = time.process_time()
    sent = 0
    for scenario in scenarios:
        sent += run_scenario(scenario).counters["worker.sent"]
    crossing = sum(1 for s in scenarios for j in s.jobs
                   if crosses_wrap(j.first_seq, j.packets))
    return time.process_time() - start, sent, crossing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=60)
    args = parser.parse_args()
    rows = {}
    for name, long_jobs in (("one push from seq 1", False), ("long jobs", True)):
        rows[name] = cost(draw(args.examples, long_jobs))
    base = rows["one push from seq 1"][0]
    for name, (cpu, sent, crossing) in rows.items():
        print(f"{name:22s} {cpu:7.2f} s CPU  {sent:7d} packets sent  "
              f"{crossing:3d} job(s) crossing the wrap  x{cpu / base:.2f}")


if __name__ == "__main__":
    main()
