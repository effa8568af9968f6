"""The table of docs/p4testgen.md "Results": per committed set, its tests on p4sim in
process — passed, expected failures (triage.yaml), unexpected failures — and
P4Testgen's statement coverage.

    python tests/p4testgen/summary.py [--markdown] [SET ...]

The same replay as ``test_p4testgen_on_p4sim.py``, without pytest, so the figures can be
produced and pasted in one step after a regeneration. Exit status 1 if any test
disagrees without a triage entry, or a triaged test passes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from p4sim_replay import replay_for_set  # noqa: E402
from ptf_format import FormatError  # noqa: E402
from testgen_sets import GENERATED, HANDWRITTEN, load_sets, triage, xfail_reason  # noqa: E402


def summarize(s, entries) -> dict:
    row = {"set": s.name, "tests": 0, "passed": 0, "xfail": 0, "failed": [], "xpass": [],
           "coverage": s.provenance.get("statements_covered") or
           s.provenance.get("statement_coverage", "")}
    try:
        tests = s.read().tests
    except FormatError as e:
        row["failed"].append(f"unreadable: {e}")
        return row
    with replay_for_set(s) as replay:
        for t in tests:
            row["tests"] += 1
            ok = replay.run(t).passed
            expected_fail = xfail_reason(entries, s.name, t.name) is not None
            if ok and not expected_fail:
                row["passed"] += 1
            elif not ok and expected_fail:
                row["xfail"] += 1
            elif ok:
                row["xpass"].append(t.name)
            else:
                row["failed"].append(t.name)
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--markdown", action="store_true", help="a markdown table")
    ap.add_argument("sets", nargs="*", help="only these sets")
    args = ap.parse_args(argv)
    entries = triage()
    sets = [s for s in load_sets(GENERATED) + load_sets(HANDWRITTEN)
            if not args.sets or s.name in args.sets]
    rows = [summarize(s, entries) for s in sets]
    if args.markdown:
        print("| set | tests | pass | xfail | fail | P4Testgen statement coverage |")
        print("|---|---|---|---|---|---|")
    for r in rows:
        bad = len(r["failed"]) + len(r["xpass"])
        if args.markdown:
            print(f"| {r['set']} | {r['tests']} | {r['passed']} | {r['xfail']} | {bad} | "
                  f"{r['coverage']} |")
        else:
            print(f"{r['set']}: {r['tests']} tests, {r['passed']} pass, {r['xfail']} xfail, "
                  f"failed {r['failed']}, unexpectedly passed {r['xpass']}, "
                  f"coverage {r['coverage']}")
    return 1 if any(r["failed"] or r["xpass"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
