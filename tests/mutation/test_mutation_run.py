"""The mutation run (atp_fixtures.mutation): a mutant reaches the suite through a copy of
the program, the filters drop what no test can be asked to kill, the suite's order and
first failure are recorded, the reviewed files are read strictly, the CI sample is
fixed by its seed, and a whole run on one mutant writes its verdict."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest

from p4sim.mutation import generate
from p4sim.mutation.filters import program_fingerprint

from atp_fixtures.mutation import declared
from atp_fixtures.mutation.program import ATP_PROGRAM, ProgramUnderTest
from atp_fixtures.mutation.runner import mutant_job

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "p4sim"))
from test_p4sim_mutation import SMALL  # noqa: E402


def _worker(tmp_path: Path, program: ProgramUnderTest, mutant, extra=()) -> dict:
    defines = program.build_defines()
    job = {"workdir": str(tmp_path / "w"), "result": str(tmp_path / "result.json"),
           "program": program.to_json(), "defines": defines,
           "fingerprint": program_fingerprint(program.main, program.include_dirs, defines),
           "order": None, "mutant": mutant_job(mutant), "pytest_args": list(extra)}
    (tmp_path / "w").mkdir()
    (tmp_path / "job.json").write_text(json.dumps(job))
    done = subprocess.run([sys.executable, "-m", "atp_fixtures.mutation.worker",
                           str(tmp_path / "job.json")], cwd=ROOT, capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return json.loads((tmp_path / "result.json").read_text())


def test_a_mutant_is_written_into_a_copy_never_into_the_program(tmp_path):
    program = ProgramUnderTest(ATP_PROGRAM, [], {}, "wide")
    before = {p.name: p.read_text() for p in ATP_PROGRAM.parent.glob("*.p4")}
    m = next(m for m in generate(str(ATP_PROGRAM), [], program.build_defines())
             if m.operator == "negate_ra_if")
    copy = program.copy_to(tmp_path)
    program.write_mutant(copy, m)
    changed = [p.name for p in copy.main.parent.glob("*.p4")
               if p.read_text() != before[p.name]]
    assert changed == [m.file]
    assert {p.name: p.read_text() for p in ATP_PROGRAM.parent.glob("*.p4")} == before
    assert copy.suite_env()["ATP_P4SRC"] == str(copy.main.parent)


def test_user_program_with_include_dir_and_define(tmp_path):
    """--program FILE.p4 -I DIR -D NAME=V: the mutants of the included file are
    generated too and land in the copy of the include directory."""
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "consts.p4").write_text("#define ETHERTYPE_X 0x88B5\n")
    main_dir = tmp_path / "prog"
    main_dir.mkdir()
    (main_dir / "small.p4").write_text(SMALL.replace("#define ETHERTYPE_X 0x88B5",
                                                     '#include "consts.p4"'))
    listed = subprocess.run([sys.executable, "-m", "atp_fixtures.mutation", "list",
                             "--program", str(main_dir / "small.p4"), "-I", str(inc),
                             "-D", "UNUSED=1", "--p4-build", "wide"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert listed.returncode == 0, listed.stderr
    assert "constant@consts.p4:1:21#0" in listed.stdout
    program = ProgramUnderTest(main_dir / "small.p4", [inc], {"UNUSED": "1"}, "wide")
    m = next(m for m in generate(str(program.main), [str(inc)], program.build_defines())
             if m.file == "consts.p4")
    copy = program.copy_to(tmp_path / "copy")
    program.write_mutant(copy, m)
    assert (copy.include_dirs[0] / "consts.p4").read_text() != (inc / "consts.p4").read_text()
    env = copy.suite_env()
    assert env["ATP_P4_PROGRAM"] == str(copy.main)
    assert env["ATP_P4_INCLUDE"] == str(copy.include_dirs[0])
    assert env["ATP_P4_DEFINES"] == "UNUSED=1"


def test_worker_drops_an_equivalent_mutant_without_running_the_suite(tmp_path):
    """A constant rewritten to the value the compiler folds it to anyway: no test can
    tell, so the worker says ``equivalent`` (and runs nothing)."""
    main_dir = tmp_path / "prog"
    main_dir.mkdir()
    (main_dir / "small.p4").write_text(SMALL)
    program = ProgramUnderTest(main_dir / "small.p4", [], {}, "wide")
    m = next(m for m in generate(str(program.main), [], program.build_defines())
             if m.operator == "constant" and m.line == 37)          # md.n = 0 -> 1
    same = type(m)(m.id, m.operator, m.file, m.line, m.col, "0 written as 8w0",
                   tuple(type(e)(e.path, e.start, e.end, "8w0") for e in m.edits))
    verdict = _worker(tmp_path, program, same)
    assert verdict["status"] == "equivalent" and "tests_run" not in verdict


def test_the_pipes_stage_kills_what_only_pipe_1_runs(tmp_path):
    """The parser state of pipe 1 given pipe 0's recirculation port: the suite's own
    ports are pipe 0's, so only the pipes stage (test_pipes.py with --pipes 4) sees it."""
    program = ProgramUnderTest(ATP_PROGRAM, [], {}, "tofino")
    m = next(m for m in generate(str(ATP_PROGRAM), [], program.build_defines())
             if m.id == "constant@parser.p4:59:40#2")
    assert "0x080" in m.description
    work = tmp_path / "w"
    work.mkdir()
    program.write_mutant(program.copy_to(work), m)
    job = {"workdir": str(work), "result": str(tmp_path / "result.json"),
           "program": program.to_json(), "mutant": mutant_job(m), "pytest_args": []}
    (tmp_path / "job.json").write_text(json.dumps(job))
    subprocess.run([sys.executable, "-m", "atp_fixtures.mutation.worker",
                    str(tmp_path / "job.json"), "--stage", "pipes"], cwd=ROOT,
                   capture_output=True, timeout=600)
    first = json.loads((work / "suite-pipes.json").read_text())["first_failure"]
    assert first["test"].startswith("conformance/test_pipes.py::"), first


def _listed(args: list[str]) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "atp_fixtures.mutation", "list", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return [line.split("\t")[0] for line in done.stdout.splitlines()
            if not line.startswith("#")]


def test_shards_split_the_seeded_order_between_them(tmp_path):
    (tmp_path / "small.p4").write_text(SMALL)
    base = ["--program", str(tmp_path / "small.p4"), "--p4-build", "wide"]
    whole = _listed(base)
    shards = [_listed(base + ["--shard", f"{i}/3"]) for i in (1, 2, 3)]
    assert sorted(sum(shards, [])) == sorted(whole)
    assert shards[1] == whole[1::3]
    bad = subprocess.run([sys.executable, "-m", "atp_fixtures.mutation", "list", *base,
                          "--shard", "0/3"], cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and "expected I/N" in bad.stderr


def test_report_merges_shards_and_mutants_judged_again(tmp_path):
    def results(path, mutants):
        path.write_text(json.dumps({"seed": 31, "builds": {"tofino": {
            "program": "p4src/atp.p4", "defines": {}, "by_operator": {"constant": {"generated": 3}},
            "cost": {"wall_seconds": 100.0}, "complete": False,
            "mutants": [{"id": i, "operator": "constant", "status": st} for i, st in mutants]}}}))
    results(tmp_path / "a.json", [("m1", "killed"), ("m2", "survived")])
    results(tmp_path / "b.json", [("m3", "killed")])
    results(tmp_path / "again.json", [("m2", "killed")])
    out = tmp_path / "merged.json"
    done = subprocess.run([sys.executable, "-m", "atp_fixtures.mutation", "report",
                           str(tmp_path / "a.json"), str(tmp_path / "b.json"),
                           str(tmp_path / "again.json"), "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    tofino = json.loads(out.read_text())["builds"]["tofino"]
    assert {m["id"]: m["status"] for m in tofino["mutants"]} == {
        "m1": "killed", "m2": "killed", "m3": "killed"}
    assert tofino["counts"]["killed"] == 3 and tofino["cost"]["wall_seconds"] == 100.0


def test_declarations_need_a_reason_and_known_builds(tmp_path):
    bad = tmp_path / "eq.yaml"
    bad.write_text("equivalent:\n  del_stmt@atp.p4:1:1#0: {builds: [wide]}\n")
    with pytest.raises(declared.DeclarationError, match="give 'why'"):
        declared.load(bad, tmp_path / "none.yaml")
    bad.write_text("equivalent:\n  x: {why: because, builds: [tofino2]}\n")
    with pytest.raises(declared.DeclarationError, match="unknown build"):
        declared.load(bad, tmp_path / "none.yaml")
    good = tmp_path / "good.yaml"
    good.write_text("equivalent:\n  x: {why: no input reaches it}\n")
    d = declared.load(good, tmp_path / "none.yaml")
    assert d.why_equivalent("wide", "x") == d.why_equivalent("tofino", "x") == "no input reaches it"


def test_the_committed_declarations_load():
    d = declared.load()
    for build, ids in d.survivors.items():
        assert build in declared.BUILDS_ALL and len(ids) == len(set(ids))


def test_ci_sample_is_what_a_whole_run_judges_first_plus_remembered_survivors(tmp_path):
    ids = [f"m{i}" for i in range(100)]
    a = declared.sample(ids, 10, always=["m99", "gone"], never=["m5"])
    assert a == [f"m{i}" for i in range(11) if i != 5] + ["m99"]
    survivors = tmp_path / "s.yaml"
    assert declared.remember_survivors("wide", ["b", "a"], survivors) == ["b", "a"]
    assert declared.remember_survivors("wide", ["a", "c"], survivors) == ["c"]
    assert declared.load(tmp_path / "none.yaml", survivors).survivors == {"wide": ["a", "b", "c"]}


def test_suite_plugin_orders_and_records_the_first_failure(pytester):
    pytester.makepyfile(test_x="""
        import pytest
        def test_a(): pass
        @pytest.mark.rule("4.3")
        def test_b(): assert 0, "b broke"
        def test_c(): pass
    """)
    order = pytester.path / "order.json"
    order.write_text(json.dumps(["test_x.py::test_c", "test_x.py::test_b"]))
    from atp_fixtures.mutation.suite_plugin import MutantSuitePlugin
    result_file = pytester.path / "r.json"
    plugin = MutantSuitePlugin(order, result_file)
    pytester.inline_run("-x", "-p", "no:cacheprovider", "-o", "markers=rule(ref): x",
                        plugins=[plugin])
    got = json.loads(result_file.read_text())
    assert got["first_failure"]["test"] == "test_x.py::test_b"
    assert got["first_failure"]["rule"] == "4.3" and "b broke" in got["first_failure"]["message"]
    # test_a, unknown to the order (newer than the baseline), runs first
    assert got["outcomes"] == {"test_x.py::test_a": "passed", "test_x.py::test_c": "passed",
                               "test_x.py::test_b": "failed"}
    assert list(got["outcomes"]) == ["test_x.py::test_a", "test_x.py::test_c", "test_x.py::test_b"]


def test_suite_plugin_leaves_out_the_bridged_host_stack_tests(pytester):
    """A test through the host-stack ``fabric`` crosses a Linux bridge on the p4sim
    target: the mutant never sees its frames, so the suite does not spend its time."""
    pytester.makepyfile(test_y="""
        import pytest
        @pytest.fixture
        def fabric(): return "bridge"
        def test_program(): pass
        def test_hosts(fabric): assert 0, "would cost a survivor's time"
    """)
    from atp_fixtures.mutation.suite_plugin import MutantSuitePlugin
    result_file = pytester.path / "r.json"
    run = pytester.inline_run("-p", "no:cacheprovider", plugins=[
        MutantSuitePlugin(None, result_file)])
    run.assertoutcome(passed=1)
    assert [i.nodeid for i in run.getcalls("pytest_deselected")[0].items] == [
        "test_y.py::test_hosts"]
    assert json.loads(result_file.read_text())["outcomes"] == {"test_y.py::test_program": "passed"}


COLLECT_WITH_THE_PLUGIN = r"""
import json, sys, pytest
from pathlib import Path
from atp_fixtures.mutation.suite_plugin import MutantSuitePlugin
left_out = []
class Recorder:
    def pytest_deselected(self, items):
        left_out.extend(i.nodeid for i in items)
kept = []
class Kept:
    def pytest_collection_finish(self, session):
        kept.extend(i.nodeid for i in session.items)
status = pytest.main(["conformance", "--target=p4sim", "--collect-only", "-q", "-n", "0",
                      "-p", "no:cacheprovider"],
                     plugins=[MutantSuitePlugin(None, Path(sys.argv[1])), Recorder(), Kept()])
print(json.dumps({"status": int(status), "left_out": left_out, "kept": kept}))
"""


def test_the_bridged_tests_left_out_are_the_host_stack_modules(tmp_path):
    """On the real suite: what the plugin leaves out is the host-stack modules' tests
    (the release module's that need the softswitch stay: they skip on p4sim), and
    nothing of the modules that run the program."""
    done = subprocess.run([sys.executable, "-c", COLLECT_WITH_THE_PLUGIN,
                           str(tmp_path / "r.json")], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["status"] == 0, done.stdout[-2000:] + done.stderr[-2000:]
    modules = {n.split("::")[0] for n in got["left_out"]}
    assert modules == {"conformance/test_host_stack.py",
                       "conformance/test_host_stack_external.py",
                       "conformance/test_host_stack_release.py"}, sorted(modules)
    assert not any(n.startswith(("conformance/test_host_stack.py",
                                 "conformance/test_host_stack_external.py"))
                   for n in got["kept"])
    assert len(got["kept"]) > 100


@pytest.mark.slow
def test_a_run_kills_a_mutant_and_writes_its_verdict(tmp_path):
    """The whole command on one mutant (the claim condition negated), its baseline taken
    from a summary: killed, with the test and rule, in the results and allure."""
    summary = tmp_path / "summary.json"
    summary.write_text(json.dumps({"tests": [{
        "nodeid": "conformance/test_exactly_once.py::test_corpus_results_are_exact_sums"
                  "[two-level-partial-flush]", "outcome": "passed", "duration_s": 0.3}]}))
    mid = next(m.id for m in generate(str(ATP_PROGRAM), [], {"ATP_POOL_MAX": "65536"})
               if m.operator == "negate_ra_if" and "claim " in m.description)
    out = tmp_path / "mutation.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    done = subprocess.run([sys.executable, "-m", "atp_fixtures.mutation", "run",
                           "--p4-build", "wide", "--only", mid, "--jobs", "1",
                           "--baseline-from", str(summary), "--out", str(out),
                           "--alluredir", str(tmp_path / "allure")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(out.read_text())["builds"]["wide"]
    (entry,) = result["mutants"]
    assert entry["status"] == "killed", entry
    assert entry["killed_by"]["test"].startswith("conformance/test_")
    assert entry["killed_by"]["rule"] and entry["tests_run"] >= 1
    assert result["counts"]["killed"] == 1 and result["score"] == 1.0
    assert "mutation wide: 1/1 [killed 1]" in done.stderr
    assert len(list((tmp_path / "allure").glob("*-result.json"))) == 1
