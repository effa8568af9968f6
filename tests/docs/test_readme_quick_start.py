"""The README's quick start runs as written: each line of its first ``sh`` block, in the
checkout, exits 0, or 1 where the line says ``# exits 1`` (the failure it shows on
purpose); the failing run prints what the README says it does. Only the scratch folder
differs: /tmp/p4src-broken becomes this test's own, so runs side by side do not share
it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRATCH = "/tmp/p4src-broken"


def quick_start_lines() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Quick start\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    return [line for line in block.splitlines() if line.strip() and
            not line.lstrip().startswith("#")]


@pytest.mark.slow
def test_the_quick_start_runs_as_written(tmp_path):
    venv_python = ROOT / ".venv" / "bin" / "python"
    if not venv_python.exists() or Path(sys.prefix).resolve() != (ROOT / ".venv").resolve():
        pytest.skip(f"the quick start uses {ROOT / '.venv'}; this run's Python is "
                    f"{sys.executable} (run make test from the checkout)")
    env = {k: v for k, v in os.environ.items()
           if k not in ("ATP_P4SRC", "PYTEST_XDIST_WORKER", "PYTEST_ADDOPTS")}
    scratch = str(tmp_path / "p4src-broken")
    outputs = []
    for line in quick_start_lines():
        expected = 1 if re.search(r"#\s*exits 1", line) else 0
        command = line.replace(SCRATCH, scratch)
        result = subprocess.run(["bash", "-c", command], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=900)
        output = result.stdout + result.stderr
        assert result.returncode == expected, (
            f"README quick start: {line!r} exited {result.returncode}, not "
            f"{expected}:\n{output[-3000:]}")
        outputs.append(output)
    failing = next(o for o, line in zip(outputs, quick_start_lines())
                   if "pytest" in line and "exits 1" in line)
    for evidence in ("atp: program under test ", "rule: 4.4 ",
                     "bitmap      expected 0x3                      observed 0x2",
                     "the diverging packet, ingress #",
                     "RegisterAction Ingress.aggregator.bitmap_merge",
                     "what the reference switch did with it",
                     "bitmap: the packet's 0x2, level-0 aggregator's before it 0x1"):
        assert evidence in failing, f"the README's failure shows {evidence!r}; the run:\n" \
                                    f"{failing[-3000:]}"
