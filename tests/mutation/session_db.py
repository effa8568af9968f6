"""The host mutation run's cosmic-ray session: the config it runs on, the verdicts read
from it, and the edits a run makes to it. cosmic-ray has no call to make a module's
mutants anew, to take a verdict back or to record one without a judge, so those edit its
tables (the schema of ``cosmic_ray.work_db``).
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

from tests.mutation.judge import UNRUN
from tests.mutation.names import EQUIVALENT, mutant_key

ROOT = Path(__file__).resolve().parents[2]
MUTANT_TIMEOUT_S = 900.0     # a hung mutant is killed (cosmic-ray counts a timeout so)
UNJUDGED = "UNJUDGED"        # the output of a declared mutant recorded without a judge
# pytest's line when it ran no test (a node id it could not find: a stale line map);
# cosmic-ray counts the judge's failure as a kill, but nothing was judged
NO_TEST_RAN = "no tests ran in "


def judge_command(workdir: Path) -> str:
    return f"{shlex.quote(sys.executable)} -m tests.mutation.judge {shlex.quote(str(workdir))}"


def write_config(config: Path, workdir: Path, modules) -> Path:
    """cosmic-ray's config: mutate ``modules`` of the run's copy, judge with our judge."""
    paths = ", ".join(json.dumps(str(workdir / "code" / p)) for p in modules)
    config.write_text(
        "[cosmic-ray]\n"
        f"module-path = [{paths}]\n"
        f"timeout = {MUTANT_TIMEOUT_S}\n"
        "excluded-modules = []\n"
        f"test-command = {json.dumps(judge_command(workdir))}\n\n"
        "[cosmic-ray.distributor]\n"
        'name = "local"\n')
    return config


def settle_declared(code: Path, session: Path, equivalent: dict[str, str]) -> int:
    """Record the mutants declared equivalent before their turn as survivors without
    judging them (``UNJUDGED`` in their output; ``--rejudge`` takes them back if the
    declaration goes). Judging one could only show it killed, and a declared mutant
    counted as equivalent instead of killed lowers the score, never raises it; each
    costs a survivor's judge (~75 s on a line of the host loop). Not a mutant whose
    name another mutant shares that was killed (NumberReplacer's two variants of one
    number share a name, and the declaration was written for the one that survived).
    How many."""
    killed = {r["mutant"] for r in results(code, session) if r["outcome"] == "killed"}
    equivalent = {name: why for name, why in equivalent.items() if name not in killed}
    settled = WorkResult(worker_outcome=WorkerOutcome.NORMAL,
                         test_outcome=TestOutcome.SURVIVED,
                         output=f"{UNJUDGED}: declared equivalent before its turn "
                                f"({EQUIVALENT.name})")
    with use_db(str(session), WorkDB.Mode.open) as db:
        ids = [i.job_id for i in db.pending_work_items
               if mutant_key(code, i.mutations[0]) in equivalent]
        db.set_multiple_results(ids, settled)
    return len(ids)


def results(code: Path, session: Path) -> list[dict]:
    out = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item, result in db.completed_work_items:
            if (result.worker_outcome == WorkerOutcome.SKIPPED
                    or NO_TEST_RAN in (result.output or "")):
                continue
            mutation = item.mutations[0]
            killed = result.test_outcome != TestOutcome.SURVIVED
            out.append({"mutant": mutant_key(code, mutation), "job": item.job_id,
                        "outcome": "killed" if killed else "survived",
                        "unrun": not killed and (result.output or "").startswith(UNRUN),
                        "unjudged": (result.output or "").startswith(UNJUDGED),
                        "judge_s": judge_seconds(result.output or ""),
                        "test_outcome": str(result.test_outcome),
                        "diff": result.diff})
    return out


def judge_seconds(output: str) -> float | None:
    """The judge's own time, from pytest's last line ("... in 62.46s"); None if it did
    not end so (timed out, unrun)."""
    found = re.findall(r" in ([0-9.]+)s", output[-300:])
    return float(found[-1]) if found else None


def renew(workdir: Path, cosmic_ray: str, modules: list[str]) -> tuple[int, int]:
    """Replace, in the run's session, the mutants of ``modules`` (relative paths) by
    those of the copy's current code. cosmic-ray has no call to remove work items, so
    its tables are edited (the session's schema, cosmic_ray.work_db). Returns the number
    of verdicts dropped and of mutants made."""
    fresh = workdir / "renew"
    shutil.rmtree(fresh, ignore_errors=True)
    fresh.mkdir()
    try:
        config = write_config(fresh / "cosmic-ray.toml", workdir, modules)
        subprocess.run([cosmic_ray, "init", str(config), str(fresh / "session.sqlite")],
                       check=True, cwd=ROOT, capture_output=True)
        with use_db(str(fresh / "session.sqlite"), WorkDB.Mode.open) as db:
            items = db.work_items
    finally:
        shutil.rmtree(fresh, ignore_errors=True)
    paths = [str(workdir / "code" / m) for m in modules]
    with closing(sqlite3.connect(workdir / "session.sqlite")) as db, db:
        ids = [(job,) for (job,) in db.execute(
            f"SELECT job_id FROM mutation_specs WHERE module_path IN "
            f"({', '.join('?' * len(paths))})", paths)]
        dropped = sum(db.execute("SELECT count(*) FROM work_results WHERE job_id = ? AND "
                                 "worker_outcome != 'SKIPPED'", job).fetchone()[0]
                      for job in ids)
        for table in ("work_results", "mutation_specs", "work_items"):
            db.executemany(f"DELETE FROM {table} WHERE job_id = ?", ids)
    with use_db(str(workdir / "session.sqlite"), WorkDB.Mode.open) as db:
        db.add_work_items(items)
    return dropped, len(items)


def rejudge(workdir: Path, equivalent: dict[str, str]) -> list[str]:
    """Put the run's survivors not declared equivalent back among the mutants to run
    (a check or scenario added since may kill them); their names."""
    code, session = workdir / "code", workdir / "session.sqlite"
    again = [r for r in results(code, session)
             if r["outcome"] == "survived" and r["mutant"] not in equivalent]
    with closing(sqlite3.connect(session)) as db, db:
        db.executemany("DELETE FROM work_results WHERE job_id = ?",
                       [(r["job"],) for r in again])
    return [r["mutant"] for r in again]


def pending(session: Path) -> int:
    with use_db(str(session), WorkDB.Mode.open) as db:
        return sum(1 for _ in db.pending_work_items)


def drop_void_verdicts(session: Path) -> int:
    """Put back among the mutants to run those whose judge ran no test (``NO_TEST_RAN``):
    cosmic-ray recorded them killed, but no test judged them (``results`` leaves them
    out until then). How many."""
    with closing(sqlite3.connect(session)) as db, db:
        return db.execute("DELETE FROM work_results WHERE worker_outcome != 'SKIPPED' "
                          "AND output LIKE ?", (f"%{NO_TEST_RAN}%",)).rowcount
