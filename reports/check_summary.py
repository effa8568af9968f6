"""The verdict of a CI gate from reports/summary.json (written by every suite run).

    python reports/check_summary.py reports/summary.json [--require-passed]

Exits 1 when any test failed or errored (every protocol violation and wire mismatch is
one) and, with --require-passed, also when nothing passed at all: a target that could not
run (every test skipped, e.g. no SDE on the runner) must not look like a green check.
Prints per property what happened, with the skip reasons, so the log says why.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def verdict(summary: dict, require_passed: bool) -> tuple[bool, list[str]]:
    lines = []
    failed = passed = 0
    for prop, entry in sorted(summary.get("properties", {}).items()):
        bad = entry.get("failed", 0) + entry.get("error", 0) + entry.get("xpassed", 0)
        failed += bad
        passed += entry.get("passed", 0) + entry.get("xfailed", 0)
        counts = ", ".join(f"{entry[k]} {k}" for k in
                           ("passed", "failed", "error", "skipped", "xfailed", "xpassed")
                           if entry.get(k))
        lines.append(f"{'FAIL' if bad else 'ok  '} {prop}: {counts}")
        for reason, n in entry.get("reasons", {}).items():
            lines.append(f"       {n} x {reason}")
    target = summary.get("target", "?")
    if failed:
        lines.append(f"gate: {failed} failing test(s) on target {target}")
        return False, lines
    if require_passed and not passed:
        lines.append(f"gate: nothing passed on target {target} (every test skipped: see "
                     f"the reasons above)")
        return False, lines
    lines.append(f"gate: {passed} test(s) passed on target {target}, none failed")
    return True, lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("summary", type=Path, help="reports/summary.json of the run")
    parser.add_argument("--require-passed", action="store_true",
                        help="fail when no test passed (the target could not run)")
    args = parser.parse_args(argv)
    try:
        summary = json.loads(args.summary.read_text())
    except OSError as exc:
        print(f"gate: cannot read {args.summary} ({exc.strerror}); did the suite run? "
              f"(make conformance writes it)", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"gate: {args.summary} is not JSON ({exc})", file=sys.stderr)
        return 2
    if summary.get("format") != "atp-summary/1":
        print(f"gate: {args.summary} is not an atp-summary/1 file", file=sys.stderr)
        return 2
    ok, lines = verdict(summary, args.require_passed)
    print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
