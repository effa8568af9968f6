"""The host mutation run's verdicts kept in the repository, so that a whole run (hours
here) can go on where its workdir is gone: another machine, another session, a fresh
clone. ``--ledger FILE`` (``tests/mutation/ledger.json``) takes, before the run judges
anything, the recorded verdict of every mutant of an unchanged module, and records every
verdict of the run there when it ends or is stopped.

A mutant is named exactly by its module, that module's content (sha256 of the code its
mutants were made from), cosmic-ray's operator and its occurrence in the module: a
module that changed has none of its verdicts taken (its mutants are new), and recording
drops its old ones. The readable name (``names.mutant_key``) goes along, for people and
as a check. Verdicts are taken as ``--resume`` keeps them: a kill stays a kill when
only the judge changed since; a survivor is taken too, unless the run judges its
survivors again (``--rejudge``). Declared mutants recorded without a judge (``UNJUDGED``)
and judges that ran no test are not verdicts and are not recorded.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

from tests.mutation.names import mutant_key
from tests.mutation.session_db import NO_TEST_RAN, UNJUDGED, judge_seconds

TAKEN = "taken from the ledger"      # in the output of a verdict not judged by this run


class LedgerError(ValueError):
    """The ledger file cannot be read as one."""


def module_digests(workdir: Path, modules) -> dict[str, str]:
    """sha256 of each mutated module's code the run's mutants were made from."""
    return {rel: hashlib.sha256((workdir / "pristine" / rel).read_bytes()).hexdigest()
            for rel in modules}


def _spec(workdir: Path, mutation) -> tuple[str, str, int]:
    rel = Path(mutation.module_path).relative_to(workdir / "code").as_posix()
    return rel, mutation.operator_name, mutation.occurrence


def _of_unchanged(ledger: dict, digests: dict[str, str]) -> dict[tuple, dict]:
    """The ledger's verdicts of modules whose content is ``digests``', by mutant."""
    return {(v["module"], v["operator"], v["occurrence"]): v for v in ledger["verdicts"]
            if ledger["modules"].get(v["module"]) == digests.get(v["module"])}


def _load(path: Path) -> dict:
    if not path.is_file():
        return {"modules": {}, "verdicts": []}
    try:
        ledger = json.loads(path.read_text())
    except ValueError as exc:
        ledger = exc
    if not (isinstance(ledger, dict) and isinstance(ledger.get("modules"), dict)
            and isinstance(ledger.get("verdicts"), list)):
        raise LedgerError(f"{path}: not a host mutation ledger (JSON with \"modules\" "
                          f"and \"verdicts\"); restore it (git checkout {path.name}) or "
                          f"run without --ledger")
    return ledger


def take(path: Path, workdir: Path, modules, survivors: bool = True) -> int:
    """Record in the run's session the ledger's verdicts of its pending mutants whose
    module is unchanged (``survivors``: those that survived too). How many."""
    known = {k: v for k, v in _of_unchanged(_load(path), module_digests(workdir, modules))
             .items() if survivors or v["outcome"] == "killed"}
    code = workdir / "code"
    taken = 0
    with use_db(str(workdir / "session.sqlite"), WorkDB.Mode.open) as db:
        for item in list(db.pending_work_items):
            mutation = item.mutations[0]
            v = known.get(_spec(workdir, mutation))
            if v is None or v["mutant"] != mutant_key(code, mutation):
                continue
            seconds = "" if v["judge_s"] is None else f" in {v['judge_s']}s"
            db.set_result(item.job_id, WorkResult(
                worker_outcome=WorkerOutcome.NORMAL,
                test_outcome=(TestOutcome.KILLED if v["outcome"] == "killed"
                              else TestOutcome.SURVIVED),
                output=f"{v['first_line']}\n{TAKEN}: judged on {v['judged']}{seconds}",
                diff=""))
            taken += 1
    return taken


def record(path: Path, workdir: Path, modules, today: str) -> int:
    """Write the run's verdicts into the ledger at ``path`` (atomically), keeping its
    verdicts of mutants this run has none of whose module is unchanged; ``today`` dates
    the verdicts this run judged. How many verdicts the ledger holds."""
    digests = module_digests(workdir, modules)
    kept = _of_unchanged(_load(path), digests)
    code = workdir / "code"
    with use_db(str(workdir / "session.sqlite"), WorkDB.Mode.open) as db:
        for item, result in db.completed_work_items:
            output = result.output or ""
            if (result.worker_outcome == WorkerOutcome.SKIPPED or NO_TEST_RAN in output
                    or output.startswith(UNJUDGED)):
                continue
            mutation = item.mutations[0]
            lines = output.splitlines()
            taken = re.match(rf"{TAKEN}: judged on (\S+)", lines[-1]) if lines else None
            judged = taken.group(1) if taken else today
            spec = rel, operator, occurrence = _spec(workdir, mutation)
            kept[spec] = {
                "module": rel, "operator": operator, "occurrence": occurrence,
                "mutant": mutant_key(code, mutation),
                "outcome": ("survived" if result.test_outcome == TestOutcome.SURVIVED
                            else "killed"),
                "judge_s": judge_seconds(output), "judged": judged,
                "first_line": lines[0] if lines else ""}
    verdicts = sorted(kept.values(),
                      key=lambda v: (v["module"], v["operator"], v["occurrence"]))
    used = sorted({v["module"] for v in verdicts})
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps({"modules": {m: digests[m] for m in used},
                               "verdicts": verdicts}, indent=1) + "\n")
    tmp.replace(path)
    return len(verdicts)
