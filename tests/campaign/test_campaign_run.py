"""``make campaign``'s loop on a small suite: the database is replayed first, rounds
generate until the budget, a test still searching at the budget passes after its chunks
(a ``st.data()`` test included), progress is printed and the campaign's record is
written; a second campaign on the same database finds the first one's failure in its
replay round."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from atp_fixtures.campaign.run import parse_budget, round_seed

ROOT = Path(__file__).resolve().parents[2]

PROFILE = """
    from hypothesis import settings

    settings.register_profile("endless", max_examples=10**6, deadline=None)
"""
SUITE = """
    import time
    from hypothesis import given, strategies as st

    # (the target fixture makes them suite tests: they are in the run's summary)
    @given(st.integers(0, 10**6))
    def test_bug(target, n):
        assert n < 900_000

    @given(st.data())
    def test_search(target, data):
        if data.draw(st.integers()) % 2:      # draws that depend on draws
            data.draw(st.lists(st.integers(), max_size=3))
        time.sleep(0.02)          # a slow example, not a busy machine
"""


def test_budget_strings():
    assert [parse_budget(t) for t in ("90s", "15m", "2h", "30", "1.5m")] == \
        [90, 900, 7200, 30, 90]
    with pytest.raises(argparse.ArgumentTypeError, match="15m"):
        parse_budget("a while")
    assert round_seed(1, 2) == round_seed(1, 2) != round_seed(1, 3)


def _campaign(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_XDIST_WORKER")}
    return subprocess.run(
        [sys.executable, "-m", "atp_fixtures.campaign", "run", "--profile=endless",
         "--target=reference", "--workers=0", f"--example-db={folder / 'db'}",
         f"--candidates={folder / 'candidates'}", f"--out={folder / 'out'}", "--seed=5",
         *args, str(folder / "test_campaign_suite.py"),
         "--pytest-args", f"--rootdir={folder}", "-p", "no:randomly"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def test_a_campaign_replays_then_searches_until_its_budget(tmp_path):
    (tmp_path / "test_campaign_suite.py").write_text(textwrap.dedent(SUITE))
    (tmp_path / "conftest.py").write_text(textwrap.dedent(PROFILE))
    # (the budget leaves room for two pytest start-ups on a loaded machine)
    first = _campaign(tmp_path, "--budget=45s", "--min-round=5", "--grace=60")
    assert first.returncode == 1, first.stdout[-2000:] + first.stderr[-3000:]
    assert "campaign: replay of the database" in first.stderr
    assert "campaign: round 1 (seed " in first.stderr
    record = json.loads((tmp_path / "out" / "campaign.json").read_text())
    assert record["format"] == "atp-campaign/1" and record["campaign_seed"] == 5
    replay, *generating = record["rounds"]
    assert replay["number"] == 0 and replay["failed"] == []      # an empty database
    assert generating and generating[0]["seed"] == round_seed(5, 1)
    assert generating[0]["examples"] > 0
    assert [n.rsplit("/", 1)[-1] for n in record["failed"]] == [
        "test_campaign_suite.py::test_bug"]
    summary = json.loads((tmp_path / "out" / "round-1" / "summary.json").read_text())
    assert summary["sections"]["campaign"]["example_db"] == str(tmp_path / "db")
    searched = next(t for t in summary["tests"] if t["nodeid"].endswith("::test_search"))
    assert searched["outcome"] == "passed" and searched["properties"]["campaign_chunks"] >= 2
    assert searched["examples"] > 0

    second = _campaign(tmp_path, "--budget=1s", "--min-round=60")
    assert second.returncode == 1
    again = json.loads((tmp_path / "out" / "campaign.json").read_text())
    assert [r["number"] for r in again["rounds"]] == [0]         # the replay round only
    assert again["rounds"][0]["failed"][0].endswith("test_campaign_suite.py::test_bug")


def test_a_round_leaves_out_the_tests_that_already_failed():
    from atp_fixtures.campaign.run import parser, pytest_command
    args = parser().parse_args(["run", "--shard=2/3", "--example-db=db"])
    generating = pytest_command(args, 11, 1e9, done=["conformance/t.py::test_a"])
    # left out after the shard split (a --deselect would change the split)
    assert "--campaign-done=conformance/t.py::test_a" in generating
    assert "--shard=2/3" in generating and "--seed=11" in generating
    assert "--campaign-deadline=1000000000" in generating
    replay = pytest_command(args, 11, 1e9, replay=True)
    assert "--replay-only" in replay and not any("deadline" in a for a in replay)
