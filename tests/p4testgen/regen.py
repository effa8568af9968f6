"""Regenerate the committed P4Testgen tests (``make p4testgen-regen``).

    python tests/p4testgen/regen.py [--only NAME ...] [--list]

For every test set of ``programs.yaml``: P4Testgen's Tofino target writes PTF tests for
the program (one build of it), more and more of them until its statement coverage stops
growing; bf-p4c compiles the same build for its ``bfrt.json``; both land in
``tests/p4testgen/generated/<name>/`` with ``provenance.json`` (p4c commit, exact
command, seed, coverage reached and how it grew). Nothing is written for a set whose
generation fails: the old set stays, and the failure is reported.

Where P4Testgen is: ``$P4TESTGEN``, else ``../p4testgen/w/build/p4testgen`` and
``../p4testgen/build/p4testgen`` beside the checkout, else ``p4testgen`` on PATH. Without
it this says how to build it (tools/p4testgen/README.md) and exits 2. The p4c commit it
was built from: ``$P4TESTGEN_P4C_COMMIT``, else the ``.exported`` stamp that
tools/p4testgen/build.sh leaves in the source tree.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "tests" / "p4src"))
sys.path.insert(0, str(REPO / "tests" / "softswitch"))

import ptf_format  # noqa: E402
from bf_p4c_finder import find_bf_p4c  # noqa: E402
from bfp4c_goldens import keep  # noqa: E402

from testgen_sets import GENERATED, PROGRAMS, ProgramMissing, program_path  # noqa: E402
DEFAULT_BINARIES = (REPO.parent / "p4testgen" / "w" / "build" / "p4testgen",
                    REPO.parent / "p4testgen" / "build" / "p4testgen")
HOW_TO_BUILD = ("P4Testgen is not built here. Build it with its Tofino target (hours on 2 "
                "cores; tools/p4testgen/README.md):\n"
                "    tools/p4testgen/build.sh ../p4testgen/w SOURCES\n"
                "then run make p4testgen-regen again (or set P4TESTGEN=/path/to/p4testgen).")
RUN_TIMEOUT_S = 1800       # one P4Testgen run; a later run that times out keeps the earlier


class RegenError(Exception):
    """A set could not be generated; the message says which and why."""


@dataclass
class Spec:
    """One test set of programs.yaml."""
    name: str
    program: str            # relative to the repository, or p4c:PATH (testgen_sets.program_path)
    p4_name: str
    defines: dict[str, str | None] = field(default_factory=dict)
    include_dirs: list[str] = field(default_factory=list)
    seed: int = 1
    port_ranges: str = "0:7"
    path_selection: str = "GREEDY_STATEMENT_SEARCH"
    max_tests: int = 100
    extra_args: list[str] = field(default_factory=list)
    bf_p4c_args: list[str] = field(default_factory=list)
    # the defines bf-p4c compiles with for bfrt.json, when the set's own build does not fit
    # a Tofino (names do not depend on them; programs.yaml says why where it is used)
    bfrt_defines: dict[str, str | None] | None = None
    # P4Testgen's trace of each test, the test's docstring (shown on a failure); not
    # kept where traces are most of the file (atp.p4: a trace line can be a whole
    # macro-expanded source line, 1.3 GB for 400 tests; without them 3.4 MB). The
    # generation is seeded: regenerating the set with traces kept shows them.
    keep_traces: bool = True


def specs(path: Path = PROGRAMS) -> list[Spec]:
    doc = yaml.safe_load(path.read_text())
    out = []
    for name, e in doc["test_sets"].items():
        e = dict(e)
        out.append(Spec(name=name, **e))
    return out


def find_p4testgen() -> tuple[Path | None, list[str]]:
    looked = []
    env = os.environ.get("P4TESTGEN")
    cands = [Path(env)] if env else []
    if not env:
        looked.append("$P4TESTGEN (unset)")
    cands += list(DEFAULT_BINARIES)
    for c in cands:
        if c.is_file() and os.access(c, os.X_OK):
            return c, looked
        looked.append(f"{c} (no executable)")
    on_path = shutil.which("p4testgen")
    if on_path:
        return Path(on_path), looked
    looked.append("PATH (no p4testgen)")
    return None, looked


def p4c_commit(binary: Path) -> str:
    env = os.environ.get("P4TESTGEN_P4C_COMMIT")
    if env:
        return env
    stamp = binary.resolve().parents[1] / "src" / "p4c" / ".exported"
    if stamp.exists():
        return stamp.read_text().strip()
    raise RegenError(f"which p4c commit is {binary} built from? No {stamp}; set "
                     f"P4TESTGEN_P4C_COMMIT to the commit of its source tree")


def _defines(spec: Spec, defines: dict[str, str | None] | None = None) -> list[str]:
    d = spec.defines if defines is None else defines
    return [f"-D{k}" if v is None else f"-D{k}={v}" for k, v in d.items()]


def testgen_command(binary: Path, spec: Spec, out_dir: Path, max_tests: int) -> list[str]:
    includes = [f"-I{REPO / d}" for d in spec.include_dirs]
    return [str(binary), "--target", "tofino", "--arch", "tna", "--std", "p4-16",
            "-D__TARGET_TOFINO__=1", *_defines(spec), *includes,
            "--test-backend", "PTF", "--test-name", spec.p4_name,
            "--print-traces",
            "--seed", str(spec.seed), "--max-tests", str(max_tests),
            "--stop-metric", "MAX_NODE_COVERAGE", "--track-coverage", "STATEMENTS",
            "--path-selection", spec.path_selection, "--port-ranges", spec.port_ranges,
            *spec.extra_args,
            "--out-dir", str(out_dir), str(program_path(spec.program))]


def _shown(cmd: list[str]) -> list[str]:
    """The command as recorded: paths inside the repository relative to it."""
    root = str(REPO) + "/"
    return [c.replace(root, "") for c in cmd]


@dataclass
class Run:
    max_tests: int
    tests: int
    coverage: float             # the last test's statement coverage (PTF file: 2 digits)
    seconds: float
    folder: Path
    curve: list[tuple[int, int, int]]    # (test, statements covered, coverable), from the log

    @property
    def covered(self) -> str:
        return f"{self.curve[-1][1]}/{self.curve[-1][2]}" if self.curve else ""

    def plateau(self) -> bool:
        """Coverage stopped growing: all covered, P4Testgen ran out of paths before
        ``max_tests``, or the second half of the tests covered nothing new."""
        if self.coverage >= 1.0 or self.tests < self.max_tests:
            return True
        if not self.curve:
            return False
        half = next(c for t, c, _ in self.curve if t >= (self.tests + 1) // 2)
        return self.curve[-1][1] <= half


_NODES = re.compile(r"Test (\d+): Nodes covered: \S+ \((\d+)/(\d+)\)")


def generate(binary: Path, spec: Spec, work: Path, max_tests: int) -> Run:
    out = work / f"max{max_tests}"
    out.mkdir(parents=True)
    cmd = testgen_command(binary, spec, out, max_tests)
    t0 = time.monotonic()
    print(f"  {spec.name}: p4testgen --max-tests {max_tests} ...", flush=True)
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT_S,
                           cwd=binary.parent)
    except subprocess.TimeoutExpired:
        raise RegenError(f"{spec.name}: P4Testgen --max-tests {max_tests} ran longer than "
                         f"{RUN_TIMEOUT_S} s") from None
    seconds = time.monotonic() - t0
    log = r.stdout + r.stderr
    (out / "p4testgen.log").write_text(log)
    ptf_file = out / f"{spec.p4_name}.py"
    if r.returncode != 0 or not ptf_file.exists():
        tail = "\n".join(log.strip().splitlines()[-15:])
        raise RegenError(f"{spec.name}: P4Testgen failed (exit {r.returncode}):\n{tail}")
    tests = ptf_format.read(ptf_file).tests
    curve = [(int(a), int(b), int(c)) for a, b, c in _NODES.findall(log)]
    return Run(max_tests, len(tests), max((t.coverage or 0.0) for t in tests), seconds,
               out, curve)


def _curve_points(run: Run) -> list[dict]:
    """The coverage curve at tests 1, 2, 4, 8, ... and the last."""
    marks = {1 << k for k in range(20)} | {run.tests}
    return [{"test": t, "statements_covered": c, "coverable": n}
            for t, c, n in run.curve if t in marks]


BFRT_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) \
    / "atp-conformance" / "bf-p4c-bfrt"


def _bfrt_cache_key(compiler: str, cmd: list[str], spec: Spec) -> str:
    """The compiler, its arguments and every .p4 file the build can include."""
    h = hashlib.sha256(compiler.encode() + b"\0" + "\0".join(_shown(cmd)).encode())
    folders = {program_path(spec.program).parent, *(REPO / d for d in spec.include_dirs)}
    for f in sorted(p for d in folders for p in d.rglob("*.p4")):
        h.update(str(f.relative_to(REPO)).encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def compile_bfrt(spec: Spec, work: Path) -> dict:
    """bf-p4c's bfrt.json for the build, without its internal tables; cached by the
    compiler, arguments and sources (a compile of atp.p4 takes minutes)."""
    compiler, looked = find_bf_p4c()
    if compiler is None:
        raise RegenError("bf-p4c not found (for bfrt.json); looked at: " + "; ".join(looked))
    out = work / "bf-p4c"
    cmd = [compiler, "--target", "tofino", "--arch", "tna",
           *_defines(spec, spec.bfrt_defines), *[f"-I{REPO / d}" for d in spec.include_dirs],
           *spec.bf_p4c_args, "-o", "OUT", str(program_path(spec.program))]
    cached = BFRT_CACHE / f"{_bfrt_cache_key(compiler, cmd, spec)}.json"
    if cached.exists():
        return json.loads(cached.read_text())
    doc = _run_bf_p4c(spec, cmd, out)
    BFRT_CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(doc))
    return doc


def _run_bf_p4c(spec: Spec, cmd: list[str], out: Path) -> dict:
    r = subprocess.run([str(out) if c == "OUT" else c for c in cmd], capture_output=True,
                       text=True, timeout=3600)
    path = out / "bfrt.json"
    if not path.exists():
        raise RegenError(f"{spec.name}: bf-p4c wrote no bfrt.json:\n{r.stderr[-2000:]}")
    doc = json.loads(path.read_text())
    doc["tables"] = [t for t in doc["tables"] if keep(t)]
    return {"schema_version": doc.get("schema_version"), "tables": doc["tables"],
            "bf_p4c": {"command": _shown(cmd), "exit_status": r.returncode}}


_DOC = "'" * 3
_TRACE = re.compile(r"(class Test\d+\(AbstractTest\):\n(?:    #[^\n]*\n)*)    " + _DOC
                    + r"\n.*?\n    " + _DOC + r"\n", re.S)
TRACE_NOT_KEPT = (f"    {_DOC}(P4Testgen's trace is not kept for this set: programs.yaml "
                  f"keep_traces){_DOC}\n")


def drop_traces(text: str) -> str:
    """The PTF file with each test's trace docstring replaced by a line saying so."""
    return _TRACE.sub(lambda m: m.group(1) + TRACE_NOT_KEPT, text)


def regenerate(binary: Path, commit: str, spec: Spec) -> dict:
    """Generate until statement coverage stops growing (``--max-tests`` doubled from the
    set's value while the second half of the tests still covers new statements, up to
    four times); write the set."""
    with tempfile.TemporaryDirectory(prefix=f"p4testgen-{spec.name}-") as tmp:
        work = Path(tmp)
        runs: list[Run] = []
        n = spec.max_tests
        for _attempt in range(3):
            try:
                runs.append(generate(binary, spec, work, n))
            except RegenError as e:
                if not runs:
                    raise
                print(f"  {spec.name}: {e}; keeping the run with --max-tests "
                      f"{runs[-1].max_tests}", flush=True)
                break
            run = runs[-1]
            print(f"  {spec.name}: {run.tests} tests, statements {run.covered} "
                  f"({run.coverage}), {run.seconds:.0f} s", flush=True)
            if run.plateau():
                break
            n *= 2
        final = runs[-1]
        bfrt = compile_bfrt(spec, work)
        dest = GENERATED / spec.name
        staging = GENERATED / f".{spec.name}.new"
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        # P4Testgen names the program by its output path (the header comment, the
        # logger and BfRuntimeTest.setUp's P4 name); the switch serves ``p4_name``, and a
        # temporary path would differ at every regeneration
        text = (final.folder / f"{spec.p4_name}.py").read_text()
        text = text.replace(f"'{final.folder / spec.p4_name}'", f"'{spec.p4_name}'") \
            .replace(f"# PTF test for {final.folder / spec.p4_name}\n",
                     f"# PTF test for {spec.p4_name}\n")
        if not spec.keep_traces:
            text = drop_traces(text)
        (staging / f"{spec.p4_name}.py").write_text(text)
        (staging / "bfrt.json").write_text(json.dumps(bfrt, indent=1) + "\n")
        provenance = {
            "program": spec.program, "p4_name": spec.p4_name, "defines": spec.defines,
            "include_dirs": spec.include_dirs,
            "p4testgen": {"p4c_commit": commit, "target": "tofino", "arch": "tna",
                          "test_backend": "PTF", "seed": spec.seed,
                          "command": _shown(testgen_command(binary, spec, Path("OUT"),
                                                            final.max_tests)),
                          "binary": str(binary), "seconds": round(final.seconds, 1)},
            "tests": final.tests,
            "statement_coverage": final.coverage,
            "statements_covered": final.covered,
            "coverage_plateau": final.plateau(),
            "coverage_curve": _curve_points(final),
            "earlier_runs": [{"max_tests": r.max_tests, "tests": r.tests,
                              "statements_covered": r.covered} for r in runs[:-1]],
            "generated_utc": datetime.datetime.now(datetime.timezone.utc)
                             .strftime("%Y-%m-%dT%H:%M:%SZ"),
        }
        (staging / "provenance.json").write_text(json.dumps(provenance, indent=1) + "\n")
        shutil.rmtree(dest, ignore_errors=True)
        staging.rename(dest)
        return provenance


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="+", metavar="NAME", help="only these test sets")
    ap.add_argument("--list", action="store_true", help="list the test sets and exit")
    args = ap.parse_args(argv)
    wanted = specs()
    if args.list:
        for s in wanted:
            print(f"{s.name}: {s.program} {' '.join(_defines(s))}")
        return 0
    if args.only:
        unknown = set(args.only) - {s.name for s in wanted}
        if unknown:
            print(f"no test set {sorted(unknown)} in {PROGRAMS}", file=sys.stderr)
            return 2
        by_name = {s.name: s for s in wanted}
        wanted = [by_name[n] for n in dict.fromkeys(args.only)]    # in the order given
    binary, looked = find_p4testgen()
    if binary is None:
        print(HOW_TO_BUILD + "\nLooked at: " + "; ".join(looked), file=sys.stderr)
        return 2
    try:
        commit = p4c_commit(binary)
    except RegenError as e:
        print(e, file=sys.stderr)
        return 2
    failed = []
    for spec in wanted:
        try:
            p = regenerate(binary, commit, spec)
            print(f"{spec.name}: {p['tests']} tests, statements {p['statements_covered']} "
                  f"({p['statement_coverage']})"
                  f"{'' if p['coverage_plateau'] else ' (still growing at the last run)'}")
        except (RegenError, ptf_format.FormatError, ProgramMissing) as e:
            failed.append(spec.name)
            print(f"FAILED {spec.name}: {e}", file=sys.stderr)
    if failed:
        print(f"not regenerated: {', '.join(failed)} (their committed sets are unchanged)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
