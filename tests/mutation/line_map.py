"""Which of the judge's tests run which line of the host code: a map built once per
mutation run, so that a mutant is judged by the tests that execute its line, fastest
first, and a mutant on a line no test executes is known to survive without a run.

Why it is sound: a mutant differs from the intact code only when its line executes, and
the host processes are the only place the copy runs (the judge imports the checkout).
The map is taken from one run of the whole module on the intact copy, its host
processes under coverage.py; a line a test reaches only in some runs (a timer that
fires under load) may be missing from it. Both errors of such a map go one way: a
mutant judged by fewer tests can only survive more often, so the score is a lower
bound, never raised by the map (docs/host-mutation.md). Lines are looked up by the
statement they belong to (coverage.py's own parser: a multi-line statement or a
decorated definition is recorded at its first line).
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from tests.mutation.plugin import COVERAGE_RC

MAP_FILE = "line-map.json"


@dataclass(frozen=True)
class LineMap:
    """``lines[file][line]``: the tests whose host processes ran that statement;
    ``seconds[test]``: each test's duration in the map's run (the order of a judge)."""
    lines: dict[str, dict[int, frozenset[str]]]
    seconds: dict[str, float]

    def save(self, path: Path) -> None:
        data = {"seconds": self.seconds,
                "lines": {f: {str(n): sorted(t) for n, t in sorted(by_line.items())}
                          for f, by_line in sorted(self.lines.items())}}
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1))
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> "LineMap":
        data = json.loads(path.read_text())
        return cls({f: {int(n): frozenset(t) for n, t in by_line.items()}
                    for f, by_line in data["lines"].items()}, data["seconds"])

    def tests_for(self, pristine: Path, changed: dict[str, set[int]]) -> list[str] | None:
        """The tests that run any of the ``changed`` lines (file relative to
        ``pristine`` -> line numbers there), fastest first; ``None`` when a line is
        no statement coverage.py records (run them all)."""
        from coverage.parser import PythonParser
        tests: set[str] = set()
        for rel, numbers in changed.items():
            parser = PythonParser(filename=str(pristine / rel))
            parser.parse_source()
            for number in numbers:
                first = parser.first_line(number)
                if first not in parser.statements:
                    return None
                tests |= self.lines.get(rel, {}).get(first, frozenset())
        return sorted(tests, key=lambda t: (self.seconds.get(t, 0.0), t))


def changed_lines(code: Path, pristine: Path, files: tuple[str, ...]) -> dict[str, set[int]]:
    """The lines (numbered as in ``pristine``) where ``code`` differs from it."""
    changed: dict[str, set[int]] = {}
    for rel in files:
        before = (pristine / rel).read_text().splitlines()
        after = (code / rel).read_text().splitlines()
        if before == after:
            continue
        lines = changed.setdefault(rel, set())
        matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
        for tag, i1, i2, _, _ in matcher.get_opcodes():
            if tag != "equal":      # an insertion sits next to line i1 (1-based i1 + 1)
                lines.update(range(i1 + 1, max(i2, i1 + 1) + 1))
    return changed


def coverage_rc(directory: Path, code: Path) -> Path:
    """coverage.py's settings for the host processes: the copy only, one data file per
    process, data saved when the PS is stopped by SIGTERM."""
    rc = directory / COVERAGE_RC
    rc.write_text("[run]\nparallel = true\nsigterm = true\n"
                  f"source =\n    {code / 'host_stack'}\n    {code / 'reference'}\n")
    return rc


def build(code: Path, judge: list[str], env: dict[str, str], directory: Path,
          files: tuple[str, ...]) -> tuple[LineMap, int, str]:
    """Run ``judge`` (the whole module, on the intact ``code``) with the host processes
    under coverage.py and read which test ran which statement of ``files``; the map,
    the run's exit status and its last lines (a failing test's lines still count: it
    ran them)."""
    import coverage
    # an earlier map's per-test folders would add their tests: one since renamed or
    # removed makes every judge that names it run nothing (and a judge that runs
    # nothing fails, which the run counted as a kill)
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    coverage_rc(directory, code)
    junit = directory / "junit.xml"
    result = subprocess.run(
        [*judge, f"--junitxml={junit}"], cwd=Path(__file__).resolve().parents[2],
        env=dict(env, ATP_HOST_COVERAGE=str(directory)), capture_output=True, text=True)
    seconds = {}
    if junit.is_file():
        for case in ET.parse(junit).getroot().iter("testcase"):
            path = case.get("classname", "").replace(".", "/") + ".py"
            seconds[f"{path}::{case.get('name')}"] = float(case.get("time", 0))
    lines: dict[str, dict[int, set[str]]] = {}
    for where in sorted(p for p in directory.iterdir() if (p / "nodeid").is_file()):
        test = (where / "nodeid").read_text()
        for part in where.glob(".coverage.*"):        # one per host process
            data = coverage.CoverageData(basename=str(part))
            data.read()
            for measured in data.measured_files():
                rel = os.path.relpath(measured, code)
                if rel in files:
                    for number in data.lines(measured) or ():
                        lines.setdefault(rel, {}).setdefault(number, set()).add(test)
    line_map = LineMap({f: {n: frozenset(t) for n, t in by_line.items()}
                        for f, by_line in lines.items()}, seconds)
    output = result.stdout + result.stderr
    (directory / "run.log").write_text(output)    # a failure's whole story
    tail = output.strip().splitlines()[-3:]
    return line_map, result.returncode, (f"exit {result.returncode}, its output in "
                                         f"{directory / 'run.log'}: " + " | ".join(tail))
