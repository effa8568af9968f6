"""``python -m tests.mutation.host_mutation``: mutation testing of the host code with
cosmic-ray, judged by the host-stack conformance module on the softswitch.

    python -m tests.mutation.host_mutation                      # every mutant (hours)
    python -m tests.mutation.host_mutation --sample 4 --seed 7  # a sample (CI)
    python -m tests.mutation.host_mutation --shard 2/3          # a third, on one machine
    python -m tests.mutation.host_mutation --resume             # go on where it stopped
    python -m tests.mutation.host_mutation --resume --rejudge   # ... judging again the
                                                  # survivors not declared (killed since?)
    python -m tests.mutation.host_mutation --ledger tests/mutation/ledger.json
                                   # the verdicts recorded there taken, this run's added

What is mutated: the code our host processes run, ``host_stack/{shell,roles,worker,ps}.py``
and the reference worker and PS they drive (``reference/worker.py``, ``reference/ps.py``).
The rest of ``host_stack/`` is the testbed (namespaces, fabric, capture, relay, the
release's build and run, the demo): it is the harness that judges, not a host under
test (docs/host-mutation.md says why each module is in or out).

How: the modules are copied to ``<workdir>/code`` and cosmic-ray mutates the copy, one
mutant at a time; the judge (tests/mutation/judge.py) is ``conformance/test_host_stack.py
--target=softswitch -x`` run from this checkout with ``tests/mutation/plugin.py``, which
starts the run's worker and PS processes on the copy. The suite's oracles (the reference
workers that replay the captures included) stay intact, as they are for any host stack
under test. A mutant is killed when the module fails (or times out), survives when it
passes. A line map (tests/mutation/line_map.py, one run of the module with the host
processes under coverage.py) lets each mutant be judged by the tests that run its line,
fastest first, and a mutant no test runs survive without a run ("unrun"); the map can
only lower the score, never raise it (``--no-line-map``: the whole module each time).

Operators: cosmic-ray replaces every binary and comparison operator by every other
(12 and 9 mutants a site, most of them crashes or duplicates); the run keeps one natural
neighbour per operator (``KEPT``) and all the others (numbers, booleans, not, unary
operators, loops, break/continue, exceptions, decorators).

Where: this module runs the run (copy, selection, intact check, line map, report);
mutant names and the reviewed declarations are ``tests/mutation/names.py``; what is read
from and written into cosmic-ray's session ``tests/mutation/session_db.py``; the judge of
one mutant ``tests/mutation/judge.py``; the verdicts kept in the repository, so a run
goes on across machines and sessions, ``tests/mutation/ledger.py``.

Survivors: each is killed by a check or scenario, or declared equivalent (the mutant
cannot change what a host sends or when) in ``tests/mutation/equivalent.yaml`` with the
reason; a survivor not declared there fails the run (exit status 1). The report
(``<workdir>/report.json``: seed, load, counts, every survivor) is written as it goes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

import yaml
from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import WorkerOutcome, WorkResult

from atp_fixtures.mutation.shard import parse_shard, shard_of
from tests.mutation import ledger as verdict_ledger
from tests.mutation import line_map
from tests.mutation.judge import JUDGE, JUDGE_PID, pytest_command
from tests.mutation.names import EQUIVALENT, declared, mutant_key
from tests.mutation.session_db import (
    drop_void_verdicts, pending, rejudge, renew, results, settle_declared, write_config,
)

ROOT = Path(__file__).resolve().parents[2]
MUTATED = ("host_stack/shell.py", "host_stack/roles.py", "host_stack/worker.py",
           "host_stack/ps.py", "reference/worker.py", "reference/ps.py")
PACKAGES = ("host_stack", "reference")      # copied whole: the host processes import them
# binary and comparison operators: one natural neighbour each (the rest are kept whole)
KEPT = {
    "ReplaceBinaryOperator": ("Add_Sub", "Sub_Add", "Mul_FloorDiv", "Div_Mul",
                              "FloorDiv_Mul", "Mod_FloorDiv", "Pow_Mul", "LShift_RShift",
                              "RShift_LShift", "BitOr_BitAnd", "BitAnd_BitOr",
                              "BitXor_BitOr"),
    "ReplaceComparisonOperator": ("Eq_NotEq", "NotEq_Eq", "Lt_LtE", "LtE_Lt", "Gt_GtE",
                                  "GtE_Gt", "Is_IsNot", "IsNot_Is", "In_NotIn",
                                  "NotIn_In"),
}
RUN_FILE = "run.json"        # the run's seed, sample, shard, time: kept for --resume


class MutationRunError(RuntimeError):
    """The run cannot be carried out (the tool is missing, the intact judge fails)."""


def kept(operator: str) -> bool:
    family, _, pair = operator.rsplit("/", 1)[-1].partition("_")
    return family not in KEPT or pair in KEPT[family]


def _copy_host_code(copy: Path) -> None:
    shutil.rmtree(copy, ignore_errors=True)
    for package in PACKAGES:
        shutil.copytree(ROOT / package, copy / package,
                        ignore=shutil.ignore_patterns("__pycache__"))


def changed_since(pristine: Path) -> list[str]:
    """The host code files of this checkout that differ from the run's copy."""
    def files(top: Path) -> dict[str, bytes]:
        return {p.relative_to(top).as_posix(): p.read_bytes()
                for package in PACKAGES for p in (top / package).rglob("*.py")
                if "__pycache__" not in p.parts}
    now, then = files(ROOT), files(pristine)
    return sorted(f for f in now.keys() | then.keys() if now.get(f) != then.get(f))


def prepare(workdir: Path) -> tuple[Path, Path, Path]:
    """The copy of the host code, cosmic-ray's config and its session database."""
    code = workdir / "code"
    for copy in (code, workdir / "pristine"):
        _copy_host_code(copy)
    (workdir / line_map.MAP_FILE).unlink(missing_ok=True)
    config = write_config(workdir / "cosmic-ray.toml", workdir, MUTATED)
    session = workdir / "session.sqlite"
    session.unlink(missing_ok=True)
    return code, config, session


def select(code: Path, session: Path, sample: int | None, seed: int,
           only: set[str] | None = None, shard: tuple[int, int] | None = None) -> int:
    """Skip the operators not kept and, for a sample, every mutant not drawn (a sample
    draws from the mutants not declared equivalent: their survival is known); with
    ``only``, every mutant not named there; with ``shard`` (I, N), every mutant but each
    N-th of the rest in ``seed``'s order from the I-th (one part per machine). The
    number of mutants left to run."""
    skipped = WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output="not selected")
    equivalent = declared()
    with use_db(str(session), WorkDB.Mode.open) as db:
        items = sorted(db.pending_work_items, key=lambda item: item.job_id)
        drop = [i.job_id for i in items if not all(kept(m.operator_name)
                                                   for m in i.mutations)]
        if sample is not None:
            drop += [i.job_id for i in items
                     if mutant_key(code, i.mutations[0]) in equivalent]
        if only is not None:
            drop += [i.job_id for i in items if mutant_key(code, i.mutations[0]) not in only]
        left = [i.job_id for i in items if i.job_id not in set(drop)]
        if sample is not None and sample < len(left):
            chosen = set(random.Random(seed).sample(left, sample))
            drop += [j for j in left if j not in chosen]
            left = sorted(chosen)
        if shard is not None:
            order = sorted(left)
            random.Random(seed).shuffle(order)
            mine = set(shard_of(order, shard))
            drop += [j for j in left if j not in mine]
            left = sorted(mine)
        db.set_multiple_results(drop, skipped)
    return len(left)


def baseline(workdir: Path) -> float:
    """Run the judge on the intact copy: it must pass (else every mutant would count as
    killed); its duration is a survivor's cost."""
    started = time.monotonic()
    argv, env = pytest_command(workdir)
    result = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise MutationRunError(
            f"the judge fails on the intact host code (exit {result.returncode}); fix "
            f"that first:\n{(result.stdout + result.stderr)[-3000:]}")
    return time.monotonic() - started


def summarize(found: list[dict], equivalent: dict[str, str]) -> dict:
    survivors = [r for r in found if r["outcome"] == "survived"]
    declared_ = [r for r in survivors if r["mutant"] in equivalent]
    new = [r for r in survivors if r["mutant"] not in equivalent]
    killed = len(found) - len(survivors)
    judged = len(found) - len(declared_)
    timed = {o: [r["judge_s"] for r in found if r["outcome"] == o and r.get("judge_s")]
             for o in ("killed", "survived")}
    return {"mutants": len(found), "killed": killed, "survived": len(survivors),
            "judge_mean_s": {o: round(sum(t) / len(t), 1) if t else None
                             for o, t in timed.items()},
            "unrun": sum(bool(r.get("unrun")) for r in survivors),
            "declared_unjudged": sum(bool(r.get("unjudged")) for r in survivors),
            "equivalent": len(declared_), "new_survivors": [r["mutant"] for r in new],
            "score": round(killed / judged, 4) if judged else None}


def _begin(workdir: Path, cosmic_ray: str, sample: int | None, seed: int,
           only: set[str] | None, shard: tuple[int, int] | None,
           use_line_map: bool) -> dict:
    code, config, session = prepare(workdir)
    subprocess.run([cosmic_ray, "init", str(config), str(session)], check=True,
                   cwd=ROOT, capture_output=True)
    todo = select(code, session, sample, seed, only, shard)
    if only is not None and todo < len(only):
        raise MutationRunError(f"{len(only) - todo} of the {len(only)} mutants named are not "
                               f"among this code's mutants (renamed by an edit above them?)")
    return {"seed": seed, "sample": sample,
            "shard": None if shard is None else f"{shard[0]}/{shard[1]}",
            "only": only is not None, "line_map": use_line_map, "mutants_s": 0.0}


def _go_on(workdir: Path, cosmic_ray: str, report) -> dict:
    """The facts of the run begun in ``workdir``. Host code is taken anew from the
    checkout (the copy is restored too: an interrupted run can leave a mutant in it),
    with a new line map if any of it changed. The mutants of a mutated module that
    changed are of its old code: they are made anew from the new code (their verdicts
    dropped), so a survivor can be killed mid-run by a change to the module it lives in.
    Not for a sample, a shard or named mutants: those were drawn from the old mutants."""
    if not (workdir / RUN_FILE).is_file() or not (workdir / "session.sqlite").is_file():
        raise MutationRunError(f"{workdir}: no run to go on with (no {RUN_FILE} or "
                               f"session.sqlite); start one without --resume")
    facts = json.loads((workdir / RUN_FILE).read_text())
    changed = changed_since(workdir / "pristine")
    mutated = [f for f in changed if f in MUTATED]
    if mutated and (facts["sample"] is not None or facts["shard"] or facts.get("only")):
        raise MutationRunError(
            f"{', '.join(mutated)} changed since the run in {workdir} began, and its "
            f"mutants were drawn from the old code (a sample, a shard or named mutants): "
            f"start a new run without --resume (or check out the commit it began on)")
    for copy in (workdir / "code", workdir / "pristine"):
        _copy_host_code(copy)
    if changed:
        report(f"host code taken anew from the checkout ({', '.join(changed)}); the line "
               f"map is made again")
        (workdir / line_map.MAP_FILE).unlink(missing_ok=True)
    if mutated:
        dropped, made = renew(workdir, cosmic_ray, mutated)
        report(f"mutants of the changed module(s) made anew: {made} (with the operators "
               f"not kept), {dropped} verdict(s) of their old code dropped")
        select(workdir / "code", workdir / "session.sqlite", None, facts["seed"])
    return facts


def stop_judge(workdir: Path) -> None:
    """Stop the judge of the mutant in progress, if any: cosmic-ray starts it in a
    session of its own, so a run stopped (Ctrl-C, SIGTERM) would leave it running;
    its host processes go with it (the testbed's reaper)."""
    pid_file = workdir / JUDGE_PID
    try:
        pid = int(pid_file.read_text())
        if "tests.mutation.plugin" in Path(f"/proc/{pid}/cmdline").read_text():
            os.killpg(pid, signal.SIGTERM)
    except (OSError, ValueError):
        pass                        # no judge, or it has ended
    pid_file.unlink(missing_ok=True)


def run(workdir: Path, sample: int | None, seed: int, report, *,
        check_intact: bool = True, only: set[str] | None = None,
        shard: tuple[int, int] | None = None, use_line_map: bool = True,
        resume: bool = False, again: bool = False, ledger: Path | None = None) -> int:
    cosmic_ray = shutil.which("cosmic-ray", path=str(Path(sys.executable).parent))
    if cosmic_ray is None:
        raise MutationRunError("cosmic-ray is not installed in this environment "
                               "(pip install -c constraints.txt -e .)")
    workdir.mkdir(parents=True, exist_ok=True)
    facts = (_go_on(workdir, cosmic_ray, report) if resume
             else _begin(workdir, cosmic_ray, sample, seed, only, shard, use_line_map))
    (workdir / RUN_FILE).write_text(json.dumps(facts, indent=1))
    void = drop_void_verdicts(workdir / "session.sqlite")
    if void:
        report(f"{void} mutant(s) whose judge ran no test (a stale line map) go back "
               f"among the mutants to run")
    if again:
        for name in rejudge(workdir, declared()):
            report(f"judged again: {name}")
    code, config, session = workdir / "code", workdir / "cosmic-ray.toml", \
        workdir / "session.sqlite"
    if ledger is not None:
        took = verdict_ledger.take(ledger, workdir, MUTATED, survivors=not again)
        if took:
            report(f"{took} verdict(s) taken from {ledger} (their modules unchanged since "
                   f"they were judged)")
    if facts["sample"] is None and not facts.get("only"):   # a sample drew none of them
        settled = settle_declared(code, session, declared())
        if settled:
            report(f"{settled} mutant(s) declared equivalent before their turn: "
                   f"recorded as survivors, not judged")
    before, todo = len(results(code, session)), pending(session)
    load = os.getloadavg()
    report(f"{todo} mutant(s) to run{f', {before} judged before' if before else ''} "
           f"(seed {facts['seed']}, load {load[0]:.1f})")
    intact_s = None
    if check_intact:
        intact_s = baseline(workdir)
        report(f"intact host code passes {JUDGE} on the softswitch in {intact_s:.0f} s")
    judge_digest = hashlib.sha256((ROOT / JUDGE).read_bytes()).hexdigest()
    if facts.get("map_judge") != judge_digest:
        # a test added to the judge since is in no map: it would judge no mutant
        (workdir / line_map.MAP_FILE).unlink(missing_ok=True)
    if facts["line_map"] and todo and not (workdir / line_map.MAP_FILE).is_file():
        report("mapping which test runs which line: the module once, its host processes "
               "under coverage.py")
        started = time.monotonic()
        argv, env = pytest_command(workdir, stop_first=False)
        found, status, how = line_map.build(code, argv, env, workdir / "coverage",
                                            MUTATED)
        if status != 0:
            # a test that fails on the intact code would kill every mutant it judges
            raise MutationRunError(f"the judge fails on the intact host code while the "
                                   f"line map is made ({how}); fix that first (or run "
                                   f"again, if that test is flaky)")
        found.save(workdir / line_map.MAP_FILE)
        facts["map_judge"] = judge_digest
        (workdir / RUN_FILE).write_text(json.dumps(facts, indent=1))
        report(f"line map: {sum(map(len, found.lines.values()))} statements run by "
               f"{len(found.seconds)} tests ({how}; {time.monotonic() - started:.0f} s)")
    started = time.monotonic()
    done = threading.Event()

    def progress() -> None:
        while not done.wait(60):
            found = results(code, session)
            report(f"{len(found) - before}/{todo} mutant(s) judged, "
                   f"{sum(r['outcome'] == 'survived' for r in found)} survived in all, "
                   f"{time.monotonic() - started:.0f} s")
    watcher = threading.Thread(target=progress, daemon=True)
    watcher.start()
    try:
        subprocess.run([cosmic_ray, "exec", str(config), str(session)], check=True,
                       cwd=ROOT, capture_output=True)
    finally:
        done.set()
        stop_judge(workdir)
        facts["mutants_s"] = round(facts["mutants_s"] + time.monotonic() - started, 1)
        (workdir / RUN_FILE).write_text(json.dumps(facts, indent=1))
        if ledger is not None:
            today = datetime.now(timezone.utc).date().isoformat()
            kept = verdict_ledger.record(ledger, workdir, MUTATED, today)
            report(f"{ledger}: {kept} verdict(s) recorded")
    return write_report(workdir, report, **facts, load_at_start=round(load[0], 1),
                        intact_judge_s=None if intact_s is None else round(intact_s, 1))


def write_report(workdir: Path, report, **facts) -> int:
    """Summarize the session in ``workdir`` (finished or not: an interrupted run keeps
    what it judged) into ``report.json``; 1 if a survivor is not declared."""
    found = results(workdir / "code", workdir / "session.sqlite")
    summary = summarize(found, declared())
    summary.update(facts, results=found)
    tmp = workdir / "report.json.tmp"
    tmp.write_text(json.dumps(summary, indent=1))
    tmp.replace(workdir / "report.json")
    report(f"{summary['mutants']} mutant(s): {summary['killed']} killed, "
           f"{summary['survived']} survived ({summary['unrun']} on lines no test "
           f"runs, {summary['equivalent']} declared equivalent, "
           f"{summary['declared_unjudged']} of them before their turn, not judged), "
           f"score {summary['score']}; report: {workdir / 'report.json'}")
    for name in summary["new_survivors"]:
        report(f"NEW SURVIVOR (kill it with a check or scenario, or declare it in "
               f"{EQUIVALENT.relative_to(ROOT)}): {name}")
    return 1 if summary["new_survivors"] else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.mutation.host_mutation",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=None,
                        help="run this many mutants drawn with --seed (default: all)")
    parser.add_argument("--seed", type=int, default=0, help="the sample's seed")
    parser.add_argument("--workdir", type=Path, default=ROOT / "reports" / "host-mutation",
                        help="where the copy, the session and report.json go")
    parser.add_argument("--no-intact-check", action="store_true",
                        help="skip judging the intact host code first (CI: its softswitch "
                        "step has just passed the same module on it)")
    parser.add_argument("--mutants", type=Path, default=None, metavar="FILE",
                        help="run only the mutants a YAML list names (CI: "
                        "tests/mutation/ci-gate.yaml, mutants known killed)")
    parser.add_argument("--shard", type=parse_shard, default=None, metavar="I/N",
                        help="the I-th of N parts of the mutants (in --seed's order), one "
                        "per machine: a whole run is hours; each part reports on its own")
    parser.add_argument("--resume", action="store_true",
                        help="go on with the run in --workdir (same seed, sample and "
                        "shard) where it stopped; a mutated module that changed has its "
                        "mutants made anew (refused for a sample or a shard)")
    parser.add_argument("--rejudge", action="store_true",
                        help="with --resume: judge again the run's survivors not declared "
                        "equivalent (after a check or scenario was added to kill them)")
    parser.add_argument("--no-line-map", action="store_true",
                        help="judge every mutant by the whole module (no coverage run "
                        "first; CI's gate of a few mutants known killed)")
    parser.add_argument("--ledger", type=Path, default=None, metavar="FILE",
                        help="take the verdicts FILE records for mutants of unchanged "
                        "modules instead of judging them, and record this run's there "
                        "when it ends or is stopped (tests/mutation/ledger.json: a whole "
                        "run carried across machines and sessions)")
    parser.add_argument("--report", action="store_true",
                        help="only summarize the session already in --workdir (a run "
                        "that was interrupted keeps what it judged)")
    args = parser.parse_args(argv)
    if args.report:
        if not (args.workdir / "session.sqlite").is_file():
            parser.error(f"{args.workdir}: no session.sqlite there; run without --report")
        facts = (json.loads((args.workdir / RUN_FILE).read_text())
                 if (args.workdir / RUN_FILE).is_file() else {})
        return write_report(args.workdir, lambda line: print(line, flush=True),
                            **facts, interrupted_summary=True)
    if args.resume and (args.sample is not None or args.shard or args.mutants):
        parser.error("--resume goes on with the run's own --sample/--shard/--mutants "
                     "(its run.json); give none of them")
    if args.rejudge and not args.resume:
        parser.error("--rejudge goes with --resume (a new run judges every mutant)")
    # a SIGTERM unwinds like Ctrl-C, so the judge in progress is stopped and the
    # run's facts are written (it goes on with --resume)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        only = None
        if args.mutants is not None:
            only = set(yaml.safe_load(args.mutants.read_text()) or [])
        return run(args.workdir, args.sample, args.seed,
                   lambda line: print(line, flush=True),
                   check_intact=not args.no_intact_check, only=only, shard=args.shard,
                   use_line_map=not args.no_line_map, resume=args.resume,
                   again=args.rejudge, ledger=args.ledger)
    except (MutationRunError, verdict_ledger.LedgerError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
