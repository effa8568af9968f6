"""The suite started from a shell, as a user starts it against a switch: for the tests
of what a user then sees (the exit status, one line of error, no traceback)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_on_tofino_model(*options: str) -> tuple[int, str]:
    """``pytest conformance/test_wire_conformance.py --target=tofino-model OPTIONS``:
    (exit status, stdout + stderr)."""
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                        "conformance/test_wire_conformance.py", "--target=tofino-model",
                        *options], cwd=ROOT, capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout + r.stderr
