"""``python -m reference run scenario.json``: run a scenario, print a readable summary
and the exactly-once verdict. Bad input is one line on stderr and exit status 2."""

from __future__ import annotations

import argparse
import sys

from reference.oracle import verify_results
from reference.run import run_scenario
from reference.scenario import ScenarioError, load_scenario
from reference.topology import TopologyError
from reference.wire import WireError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reference",
                                     description="Run ATP scenarios on the reference model.")
    sub = parser.add_subparsers(dest="command", required=True)
    run_cmd = sub.add_parser("run", help="run a scenario file and print its verdict")
    run_cmd.add_argument("scenario", help="scenario JSON file")
    run_cmd.add_argument("--seed", type=int, help="override the scenario's seed")
    run_cmd.add_argument("--profile", choices=("spec", "atp-release"),
                         help="override the scenario's behaviour profile")
    args = parser.parse_args(argv)
    seed = {} if args.seed is None else {"seed": args.seed}
    try:
        scenario = load_scenario(args.scenario, args.profile, **seed)
    except ScenarioError as exc:
        return _fail(str(exc))
    try:
        run = run_scenario(scenario)
    except (ScenarioError, TopologyError, WireError, ValueError) as exc:
        return _fail(f"{args.scenario}: {exc}")
    print(run.summary())
    mismatches = verify_results(run)
    for mismatch in mismatches[:10]:
        print(f"  MISMATCH {mismatch}")
    ok = run.completed and not mismatches
    print(f"verdict: {'PASS' if ok else 'FAIL'}"
          + ("" if run.completed else f" (jobs {run.unfinished} did not finish)"))
    return 0 if ok else 1


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
