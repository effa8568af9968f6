"""``python -m tests.mutation.judge WORKDIR``: cosmic-ray's test command for one mutant of
the host mutation run (tests/mutation/host_mutation.py).

It runs the host-stack conformance module on the softswitch, the run's host processes on
``WORKDIR/code`` (the mutated copy), stopping at the first failure. With the run's line
map (``WORKDIR/line-map.json``, tests/mutation/line_map.py) it runs only the tests that
execute the mutated line, fastest first; a mutant on a line that no test executes
survives at once, saying so (``UNRUN`` in its output: the report counts those apart).
Exit 0: the mutant survived; anything else: killed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
JUDGE = "conformance/test_host_stack.py"
UNRUN = "UNRUN"
JUDGE_PID = "judge.pid"
# each test's run budget: its slowest run takes ~10 s on an idle machine (the multi-PS
# test keeps its own); a livelocked mutant fails in this rather than in 60 s
BUDGET_S = 20


def pytest_command(workdir: Path, tests: list[str] | None = None,
                   stop_first: bool = True) -> tuple[list[str], dict[str, str]]:
    """The judge's pytest command and environment: ``tests`` (node ids, in order) or the
    whole module, the host processes on ``workdir/code``."""
    code = workdir / "code"
    env = dict(os.environ, ATP_HOST_CODE=str(code), ATP_HOST_BUDGET_S=str(BUDGET_S),
               ATP_ARTIFACTS_DIR=str(workdir / "artifacts"),
               ATP_SUMMARY_JSON=str(workdir / "summary.json"))
    env.pop("PYTEST_XDIST_WORKER", None)
    argv = [sys.executable, "-m", "pytest", *(tests or [JUDGE]), "--target=softswitch",
            *(["-x"] if stop_first else []), "-q", "-n", "0", "-p", "no:cacheprovider",
            "-p", "tests.mutation.plugin", "-o", "addopts=--strict-markers"]
    return argv, env


def main(argv: list[str] | None = None) -> int:
    from tests.mutation.host_mutation import MUTATED
    from tests.mutation.line_map import MAP_FILE, LineMap, changed_lines
    workdir = Path((argv or sys.argv[1:])[0])
    tests = None
    changed = changed_lines(workdir / "code", workdir / "pristine", MUTATED)
    if changed and (workdir / MAP_FILE).is_file():
        tests = LineMap.load(workdir / MAP_FILE).tests_for(workdir / "pristine", changed)
        where = ", ".join(f"{rel}:{','.join(map(str, sorted(lines)))}"
                          for rel, lines in sorted(changed.items()))
        if tests == []:
            print(f"{UNRUN}: no test of {JUDGE} runs {where} on the intact code")
            return 0
        print(f"judged by {len(tests) if tests else 'all'} test(s) running {where}",
              flush=True)
    command, env = pytest_command(workdir, tests)
    os.chdir(ROOT)
    # cosmic-ray starts each judge in a session of its own: the run stops it by this pid
    # when it is stopped itself (host_mutation.stop_judge)
    (workdir / JUDGE_PID).write_text(str(os.getpid()))
    os.execve(command[0], command, env)     # cosmic-ray's timeout reaches pytest itself


if __name__ == "__main__":
    sys.exit(main())
