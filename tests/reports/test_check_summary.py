"""The CI gate's verdict from summary.json: red on any failure, red when nothing ran."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "reports" / "check_summary.py"


def _summary(tmp_path, properties) -> Path:
    path = tmp_path / "summary.json"
    path.write_text(json.dumps({"format": "atp-summary/1", "target": "p4sim",
                                "properties": properties}))
    return path


def _gate(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)],
                          capture_output=True, text=True, timeout=60)


def test_a_violation_fails_the_gate(tmp_path):
    path = _summary(tmp_path, {
        "exactly_once": {"passed": 3, "failed": 1,
                         "reasons": {"exactly-once: 1 seq result(s) differ": 1}},
        "liveness": {"passed": 2}})
    result = _gate(path)
    assert result.returncode == 1
    assert "FAIL exactly_once: 3 passed, 1 failed" in result.stdout
    assert "1 x exactly-once: 1 seq result(s) differ" in result.stdout


def test_all_skipped_fails_only_when_passes_are_required(tmp_path):
    path = _summary(tmp_path, {"exactly_once": {
        "skipped": 4, "reasons": {"target 'p4sim' is unavailable: no program": 4}}})
    assert _gate(path).returncode == 0
    result = _gate(path, "--require-passed")
    assert result.returncode == 1 and "nothing passed on target p4sim" in result.stdout


def test_green_and_bad_input(tmp_path):
    assert _gate(_summary(tmp_path, {"overflow": {"passed": 2, "xfailed": 1}}),
                 "--require-passed").returncode == 0
    missing = _gate(tmp_path / "nope.json")
    assert missing.returncode == 2 and "did the suite run?" in missing.stderr
    (tmp_path / "other.json").write_text("{}")
    assert _gate(tmp_path / "other.json").returncode == 2
