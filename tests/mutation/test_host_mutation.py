"""The host mutation run (tests/mutation/host_mutation.py): its selection of mutants,
their names, the judge's command, and (slow, root and the softswitch) a sample of the
mutants run for real, which fails on a survivor not declared equivalent."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from host_stack.netns import unavailable_reason
from host_stack.session import HostStackCommand, softswitch_available
from tests.mutation import host_mutation, judge, names, session_db
from tests.mutation.plugin import host_code_template

ROOT = Path(__file__).resolve().parents[2]
# CI's gate: mutants a run judged killed (a killed mutant costs one or two of the
# module's tests, ~15-60 s at load 5-20; a survivor the whole module, ~3-6 min)
CI_GATE = Path(__file__).with_name("ci-gate.yaml")


def test_one_neighbour_per_operator_and_every_other_operator_kept():
    assert host_mutation.kept("core/ReplaceBinaryOperator_Add_Sub")
    assert not host_mutation.kept("core/ReplaceBinaryOperator_Add_Pow")
    assert host_mutation.kept("core/ReplaceComparisonOperator_Lt_LtE")
    assert not host_mutation.kept("core/ReplaceComparisonOperator_Lt_IsNot")
    assert host_mutation.kept("core/NumberReplacer")
    assert host_mutation.kept("core/ZeroIterationForLoop")


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    """A cosmic-ray session over the copied host code (init only, nothing run)."""
    workdir = tmp_path_factory.mktemp("host-mutation")
    code, config, db = host_mutation.prepare(workdir)
    cosmic_ray = Path(sys.executable).parent / "cosmic-ray"
    subprocess.run([str(cosmic_ray), "init", str(config), str(db)], check=True, cwd=ROOT,
                   capture_output=True, timeout=600)
    return workdir, code, config, db


def _pending(code, db) -> list[str]:
    from cosmic_ray.work_db import WorkDB, use_db
    with use_db(str(db), WorkDB.Mode.open) as work:
        return sorted(names.mutant_key(code, i.mutations[0])
                      for i in work.pending_work_items)


def test_the_copy_is_mutated_and_judged_from_this_checkout(session):
    workdir, code, config, _ = session
    text = config.read_text()
    for path in host_mutation.MUTATED:
        assert str(code / path) in text
        assert (code / path).read_text() == (ROOT / path).read_text()
    assert f"-m tests.mutation.judge {workdir}" in text
    argv, env = judge.pytest_command(workdir)
    assert env["ATP_HOST_CODE"] == str(code) and "tests.mutation.plugin" in argv
    assert str(ROOT) not in text.split("module-path")[1].split("\n")[0]


def test_a_sample_is_drawn_by_its_seed(session, tmp_path):
    workdir, code, config, db = session
    copies = []
    for name in ("a", "b"):
        copy = tmp_path / f"{name}.sqlite"
        copy.write_bytes(db.read_bytes())
        assert host_mutation.select(code, copy, 5, seed=11) == 5
        copies.append(_pending(code, copy))
    assert copies[0] == copies[1] and len(copies[0]) == 5
    everything = tmp_path / "all.sqlite"
    everything.write_bytes(db.read_bytes())
    left = host_mutation.select(code, everything, None, seed=0)
    assert 300 < left < 1000       # the kept operators over the six modules
    assert all(name.split(": ")[0] in host_mutation.MUTATED
               for name in _pending(code, everything))


def test_shards_split_the_mutants_between_machines(session, tmp_path):
    workdir, code, config, db = session
    parts = []
    for i in (1, 2, 3):
        copy = tmp_path / f"shard{i}.sqlite"
        copy.write_bytes(db.read_bytes())
        host_mutation.select(code, copy, None, seed=5, shard=(i, 3))
        parts.append(_pending(code, copy))
    everything = tmp_path / "all.sqlite"
    everything.write_bytes(db.read_bytes())
    host_mutation.select(code, everything, None, seed=5)
    whole = _pending(code, everything)
    assert sorted(sum(parts, [])) == whole
    assert max(map(len, parts)) - min(map(len, parts)) <= 1


def test_mutant_names_survive_code_added_above(session, tmp_path):
    """A mutant's name is its file, operator, column and line text, not a line number."""
    _, code, _, db = session
    from cosmic_ray.work_db import WorkDB, use_db
    with use_db(str(db), WorkDB.Mode.open) as work:
        mutation = work.pending_work_items[0].mutations[0]
    name = names.mutant_key(code, mutation)
    path = code.parent / "pristine" / name.split(": ")[0]     # where names are read
    original = path.read_text()
    (line, column), (end_line, end_column) = mutation.start_pos, mutation.end_pos
    moved = SimpleNamespace(module_path=mutation.module_path,
                            operator_name=mutation.operator_name,
                            start_pos=(line + 1, column), end_pos=(end_line + 1, end_column))
    try:
        path.write_text("# a line added above\n" + original)
        assert names.mutant_key(code, moved) == name
    finally:
        path.write_text(original)


def _copy_of(session, workdir: Path) -> Path:
    """A copy of the session's workdir at ``workdir``, nothing judged (the operators not
    kept skipped)."""
    shutil.copytree(session[0], workdir)
    with sqlite3.connect(workdir / "session.sqlite") as db:    # the copy's own paths
        db.execute("UPDATE mutation_specs SET module_path = replace(module_path, ?, ?)",
                   (str(session[0]), str(workdir)))
    host_mutation.select(workdir / "code", workdir / "session.sqlite", None, seed=0)
    return workdir


def _resumable(session, tmp_path, **facts) -> Path:
    """A copy of the session's workdir as a run that judged one mutant of
    host_stack/ps.py and one of host_stack/shell.py, then stopped."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult
    workdir = _copy_of(session, tmp_path / "run")
    facts = {"seed": 0, "sample": None, "shard": None, "only": False,
             "line_map": True, "mutants_s": 0.0, **facts}
    (workdir / host_mutation.RUN_FILE).write_text(json.dumps(facts))
    survived = WorkResult(worker_outcome=WorkerOutcome.NORMAL,
                          test_outcome=TestOutcome.SURVIVED, output="", diff="")
    with use_db(str(workdir / "session.sqlite"), WorkDB.Mode.open) as db:
        for module in ("host_stack/ps.py", "host_stack/shell.py"):
            item = next(i for i in db.pending_work_items
                        if Path(i.mutations[0].module_path) == workdir / "code" / module)
            db.set_result(item.job_id, survived)
    return workdir


def test_a_resumed_run_makes_a_changed_modules_mutants_anew(session, tmp_path):
    """A mutated module that changed since the run began (here: the run's pristine copy
    made to differ from the checkout) has its mutants made from the checkout's code and
    its verdicts dropped; the other modules' verdicts and mutants stay."""
    workdir = _resumable(session, tmp_path)
    code = workdir / "code"
    before = _pending(code, workdir / "session.sqlite")
    ps_copy = workdir / "pristine" / "host_stack" / "ps.py"
    ps_copy.write_text(ps_copy.read_text() + "\nNEVER = 1 + 1\n")   # the old code
    lines = []
    host_mutation._go_on(workdir, str(Path(sys.executable).parent / "cosmic-ray"),
                         lines.append)
    assert any("host_stack/ps.py" in line for line in lines), lines
    assert any("1 verdict(s) of their old code dropped" in line for line in lines), lines
    found = session_db.results(code, workdir / "session.sqlite")
    assert [r["mutant"].split(": ")[0] for r in found] == ["host_stack/shell.py"]
    after = _pending(code, workdir / "session.sqlite")
    ps_of = lambda names: sorted(n for n in names if n.startswith("host_stack/ps.py"))
    assert [n for n in after if not n.startswith("host_stack/ps.py")] == \
        [n for n in before if not n.startswith("host_stack/ps.py")]
    # every kept mutant of the module's code, the one judged before included
    assert len(ps_of(after)) == len(ps_of(before)) + 1
    assert not any("NEVER" in n for n in after)


def test_rejudge_puts_back_the_survivors_not_declared(session, tmp_path):
    workdir = _resumable(session, tmp_path)
    code, db = workdir / "code", workdir / "session.sqlite"
    before = _pending(code, db)
    judged = {r["mutant"].split(": ")[0]: r["mutant"]
              for r in session_db.results(code, db)}
    declared = {judged["host_stack/shell.py"]: "declared"}
    assert session_db.rejudge(workdir, declared) == [judged["host_stack/ps.py"]]
    assert _pending(code, db) == sorted(before + [judged["host_stack/ps.py"]])
    assert [r["mutant"] for r in session_db.results(code, db)] == \
        [judged["host_stack/shell.py"]]


def test_declared_mutants_are_recorded_as_survivors_without_a_judge(session, tmp_path):
    workdir = _resumable(session, tmp_path)
    code, db = workdir / "code", workdir / "session.sqlite"
    before = _pending(code, db)
    chosen = [before[0], before[-1]]
    declared = dict.fromkeys(chosen, "why")
    assert session_db.settle_declared(code, db, declared) == 2
    assert _pending(code, db) == before[1:-1]
    found = {r["mutant"]: r for r in session_db.results(code, db)}
    assert all(found[name]["outcome"] == "survived" and found[name]["unjudged"]
               for name in chosen)
    summary = host_mutation.summarize(list(found.values()), declared)
    assert (summary["equivalent"], summary["declared_unjudged"]) == (2, 2)
    # a declaration withdrawn: the mutant is an undeclared survivor, judged again
    assert chosen[1] in session_db.rejudge(workdir, {chosen[0]: "why"})
    assert chosen[1] in _pending(code, db)


def test_a_declared_name_a_killed_mutant_shares_is_still_judged(session, tmp_path):
    """NumberReplacer's two variants of one number share a name: the one killed says
    the declaration was not written for it, so its twin is judged."""
    from collections import Counter
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult
    workdir = _resumable(session, tmp_path)
    code, db = workdir / "code", workdir / "session.sqlite"
    twins = next(name for name, n in Counter(_pending(code, db)).items() if n == 2)
    with use_db(str(db), WorkDB.Mode.open) as work:
        first = next(i for i in work.pending_work_items
                     if names.mutant_key(code, i.mutations[0]) == twins)
        work.set_result(first.job_id, WorkResult(
            worker_outcome=WorkerOutcome.NORMAL, test_outcome=TestOutcome.KILLED,
            output="", diff=""))
    assert session_db.settle_declared(code, db, {twins: "why"}) == 0
    assert twins in _pending(code, db)


def test_a_judge_that_ran_no_test_is_no_verdict(session, tmp_path):
    """A judge whose pytest ran nothing (a node id not found: a stale line map) fails,
    and cosmic-ray records a kill: the run leaves it out of its results and puts it back
    among the mutants to run."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult
    workdir = _resumable(session, tmp_path)
    code, db = workdir / "code", workdir / "session.sqlite"
    before = _pending(code, db)
    with use_db(str(db), WorkDB.Mode.open) as work:
        item = next(iter(work.pending_work_items))
        work.set_result(item.job_id, WorkResult(
            worker_outcome=WorkerOutcome.NORMAL, test_outcome=TestOutcome.KILLED,
            output="judged by 3 test(s) running host_stack/ps.py:70\n\n"
                   "no tests ran in 0.06s\n", diff=""))
    name = names.mutant_key(code, item.mutations[0])
    assert name not in [r["mutant"] for r in session_db.results(code, db)]
    assert session_db.drop_void_verdicts(db) == 1
    assert _pending(code, db) == before


def test_a_ledger_carries_verdicts_to_a_run_without_the_workdir(session, tmp_path):
    """A run records its verdicts in the ledger; a run begun elsewhere (none of the
    first one's files) takes those of unchanged modules as they were judged (outcome,
    judge time), and recording them again changes nothing, their date included. A
    survivor is not taken by a run judging its survivors again; a module changed since
    has none of its verdicts taken, and recording drops them."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult
    from tests.mutation import ledger as verdict_ledger
    modules = host_mutation.MUTATED
    first = _resumable(session, tmp_path)
    with use_db(str(first / "session.sqlite"), WorkDB.Mode.open) as db:
        shell = next(i for i, r in db.completed_work_items
                     if Path(i.mutations[0].module_path).match("host_stack/shell.py")
                     and r.test_outcome == TestOutcome.SURVIVED)
        db.set_result(shell.job_id, WorkResult(
            worker_outcome=WorkerOutcome.NORMAL, test_outcome=TestOutcome.KILLED,
            output="judged by 1 test(s) running host_stack/shell.py:9\n1 failed in 3.25s\n",
            diff=""))
    judged = {r["mutant"]: (r["outcome"], r["judge_s"])
              for r in session_db.results(first / "code", first / "session.sqlite")}
    ledger = tmp_path / "ledger.json"
    assert verdict_ledger.record(ledger, first, modules, "2026-11-29") == 2
    second = _copy_of(session, tmp_path / "second")
    before = _pending(second / "code", second / "session.sqlite")
    assert verdict_ledger.take(ledger, second, modules) == 2
    assert {r["mutant"]: (r["outcome"], r["judge_s"]) for r in session_db.results(
        second / "code", second / "session.sqlite")} == judged
    assert len(_pending(second / "code", second / "session.sqlite")) == len(before) - 2
    again = tmp_path / "again.json"
    shutil.copy(ledger, again)
    verdict_ledger.record(again, second, modules, "2030-01-01")
    assert json.loads(again.read_text()) == json.loads(ledger.read_text())
    third = _copy_of(session, tmp_path / "third")
    assert verdict_ledger.take(ledger, third, modules, survivors=False) == 1
    fourth = _copy_of(session, tmp_path / "fourth")
    ps_code = fourth / "pristine" / "host_stack" / "ps.py"
    ps_code.write_text(ps_code.read_text() + "\n")
    assert verdict_ledger.take(ledger, fourth, modules) == 1
    verdict_ledger.record(ledger, fourth, modules, "2026-11-30")
    recorded = json.loads(ledger.read_text())
    assert [v["module"] for v in recorded["verdicts"]] == ["host_stack/shell.py"]
    assert list(recorded["modules"]) == ["host_stack/shell.py"]


def test_a_file_that_is_no_ledger_is_named(session, tmp_path):
    from tests.mutation import ledger as verdict_ledger
    bad = tmp_path / "ledger.json"
    bad.write_text("[]")
    with pytest.raises(verdict_ledger.LedgerError, match="not a host mutation ledger"):
        verdict_ledger.take(bad, session[0], host_mutation.MUTATED)


def test_a_resumed_sample_refuses_a_changed_module(session, tmp_path):
    workdir = _resumable(session, tmp_path, sample=5)
    ps_copy = workdir / "pristine" / "host_stack" / "ps.py"
    ps_copy.write_text(ps_copy.read_text() + "\n")
    with pytest.raises(host_mutation.MutationRunError, match="drawn from the old code"):
        host_mutation._go_on(workdir, "cosmic-ray", lambda line: None)


def test_a_line_whose_text_recurs_is_named_by_its_place_among_them(tmp_path):
    """Declaring a mutant must not declare its twin on another line of the same text."""
    (tmp_path / "pristine").mkdir()
    (tmp_path / "pristine" / "m.py").write_text(
        "if x:\n    y = 1\nif x:\n    y = 2\nif x:\n")
    def name(line: int) -> str:
        return names.mutant_key(tmp_path / "code", SimpleNamespace(
            module_path="m.py", operator_name="core/AddNot", start_pos=(line, 3)))
    assert [name(n) for n in (1, 2, 3, 5)] == [
        "m.py: AddNot @3 `if x:` #1", "m.py: AddNot @3 `y = 1`",
        "m.py: AddNot @3 `if x:` #2", "m.py: AddNot @3 `if x:` #3"]


def test_the_host_processes_run_on_the_copy():
    template = HostStackCommand().worker
    run = host_code_template(template, Path("/tmp/copy"))
    assert run.startswith("env PYTHONPATH=/tmp/copy ")
    assert " -P -m host_stack.worker " in run


def test_the_ci_gate_names_mutants_of_this_code_none_declared_equivalent(session):
    """Every mutant CI judges exists in the host code as it is (an edit above a mutant
    renames it: the run would refuse it), and none is declared equivalent."""
    _, code, _, db = session
    gate = set(yaml.safe_load(CI_GATE.read_text()))
    assert gate and not gate & set(names.declared())
    copy = db.with_name("gate.sqlite")
    shutil.copy(db, copy)
    assert host_mutation.select(code, copy, None, seed=0, only=gate) == len(gate)


def test_declared_equivalents_name_mutants_and_reasons(session):
    """Each declaration names a mutant of this code: one left by an edit of its line
    would declare nothing, silently."""
    _, code, _, db = session
    from cosmic_ray.work_db import WorkDB, use_db
    with use_db(str(db), WorkDB.Mode.open) as work:
        mutants = {names.mutant_key(code, i.mutations[0]) for i in work.work_items}
    for name, reason in names.declared().items():
        assert name in mutants, f"{name}: no mutant of this code has that name (line edited?)"
        assert len(reason) > 20, f"{name}: say why it cannot change a frame or its time"


@pytest.mark.slow
def test_a_sample_of_host_mutants_is_killed(tmp_path):
    """CI's gate: the mutants of ``tests/mutation/ci-gate.yaml``, each judged killed by
    a run before, judged again by the host-stack module on the softswitch; a survivor
    is a regression of the checks or scenarios (or of the code, if a mutant no longer
    exists, which the run says). Not a commit-seeded draw over every mutant: the 518
    have not all been reviewed, and a draw on 2026-11-28 found two undeclared survivors
    in three, so such a gate failed most commits on mutants nobody had looked at;
    the rotation is ``make host-mutation SAMPLE=n SEED=s``. The intact code's run is
    the suite's own softswitch step (skipped here)."""
    reason = unavailable_reason() or softswitch_available()
    if reason:
        pytest.skip(f"the host mutation run needs real hosts through the softswitch: "
                    f"{reason}")
    env = dict(os.environ)
    env.pop("PYTEST_XDIST_WORKER", None)
    result = subprocess.run(
        [sys.executable, "-m", "tests.mutation.host_mutation", "--mutants", str(CI_GATE),
         "--no-intact-check", "--no-line-map", "--workdir", str(tmp_path)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=3600)
    output = result.stdout + result.stderr
    print(output)
    assert result.returncode == 0, (
        f"host mutation gate ({CI_GATE.name}) exit {result.returncode}:\n{output[-4000:]}")


def test_a_stopped_run_stops_the_judge_in_progress(tmp_path):
    """cosmic-ray starts each judge in a session of its own; the run, stopped, must not
    leave it running (nor kill a process that merely reused its pid)."""
    judged = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)",
                              "-p", "tests.mutation.plugin"], start_new_session=True)
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                             start_new_session=True)
    try:
        (tmp_path / judge.JUDGE_PID).write_text(str(judged.pid))
        host_mutation.stop_judge(tmp_path)
        assert judged.wait(timeout=10) != 0
        (tmp_path / judge.JUDGE_PID).write_text(str(other.pid))
        host_mutation.stop_judge(tmp_path)
        assert other.poll() is None and not (tmp_path / judge.JUDGE_PID).exists()
    finally:
        for proc in (judged, other):
            proc.kill()
            proc.wait()
