"""The table of docs/p4testgen.md "Results": per committed set, its tests on p4sim in
process — passed, expected failures (triage.yaml), unexpected failures — and
P4Testgen's statement coverage.

    python tests/p4testgen/summary.py [--markdown] [--propose] [SET ...]

The same replay as ``test_p4testgen_on_p4sim.py``, without pytest, so the figures can be
produced and pasted in one step after a regeneration. Exit status 1 if any test
disagrees without a triage entry, or a triaged test passes.

``--propose``: for each disagreement without an entry, the first of P4Testgen's
simplifications (``p4sim_replay.ModelChanges``) under which p4sim agrees, printed as
``triage.yaml`` entries with ``confirm`` to review and paste; the rest is left to read.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from p4sim_replay import CHANGE_REASONS, ModelChanges, replay_for_set  # noqa: E402
from ptf_format import FormatError  # noqa: E402
from testgen_sets import GENERATED, HANDWRITTEN, load_sets, triage, xfail_reason  # noqa: E402


# the explanations --propose tries, simplest first
PROPOSALS = (("no-recirculation",), ("register-cells-as-read",),
             ("no-recirculation", "register-cells-as-read"))


def summarize(s, entries, propose: bool = False) -> dict:
    row = {"set": s.name, "tests": 0, "passed": 0, "xfail": 0, "failed": [], "xpass": [],
           "explained": {},
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
                if propose:
                    why = next((c for c in PROPOSALS
                                if replay.run(t, ModelChanges.named(c)).passed), None)
                    row["explained"].setdefault(why, []).append(t.name)
    return row


def _folded(text: str, indent: str = "    ", width: int = 88) -> str:
    return "\n".join(textwrap.wrap(text, width, initial_indent=indent,
                                   subsequent_indent=indent))


def proposed_entries(rows) -> str:
    """YAML for triage.yaml: one entry per set and explaining model changes; the reason
    and evidence joined from CHANGE_REASONS, to review before pasting."""
    out = []
    for r in rows:
        for confirm, tests in r["explained"].items():
            if confirm is None:
                out.append(f"# {r['set']}: not explained by a model change: {tests}")
                continue
            reason = " Also: ".join(CHANGE_REASONS[c][0] for c in confirm)
            evidence = " Also: ".join(CHANGE_REASONS[c][1] for c in confirm)
            listed = textwrap.fill(", ".join(tests), 80, initial_indent="  tests: [",
                                   subsequent_indent="          ")
            out.append(f"- test_set: {r['set']}\n{listed}]\n  kind: p4testgen-model\n"
                       f"  confirm: [{', '.join(confirm)}]\n"
                       f"  reason: >-\n{_folded(reason)}\n"
                       f"  evidence: >-\n{_folded(evidence)}\n")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--markdown", action="store_true", help="a markdown table")
    ap.add_argument("--propose", action="store_true",
                    help="triage entries for the disagreements a model change explains")
    ap.add_argument("sets", nargs="*", help="only these sets")
    args = ap.parse_args(argv)
    entries = triage()
    sets = [s for s in load_sets(GENERATED) + load_sets(HANDWRITTEN)
            if not args.sets or s.name in args.sets]
    rows = [summarize(s, entries, args.propose) for s in sets]
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
    if args.propose:
        print(proposed_entries(rows))
    return 1 if any(r["failed"] or r["xpass"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
