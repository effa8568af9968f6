"""``--shard=i/N``: the shards of a campaign are disjoint and together the whole
selection, on the conformance suite's own node ids and in runs under xdist; a spread
test runs on every shard with that shard's seed and share of examples."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from atp_fixtures.campaign.shard import (Shard, ShardError, assign, examples_per_shard,
                                         hypothesis_seed, parse_shard, select)

ROOT = Path(__file__).resolve().parents[2]


def test_parse_shard_and_its_errors():
    assert parse_shard("2/4") == Shard(2, 4) and str(parse_shard(" 1 / 1 ")) == "1/1"
    for bad in ("0/3", "4/3", "2", "a/b", ""):
        with pytest.raises(ShardError, match="--shard"):
            parse_shard(bad)


def test_split_is_disjoint_complete_balanced_and_order_free():
    ids = [f"conformance/test_{i % 7}.py::test_case[{i}]" for i in range(103)]
    for count in (1, 2, 3, 5):
        shards = [select(ids, Shard(i, count)) for i in range(1, count + 1)]
        assert sorted(sum(shards, [])) == sorted(ids)             # complete, disjoint
        sizes = [len(s) for s in shards]
        assert max(sizes) - min(sizes) <= 1                        # balanced by count
        again = [select(list(reversed(ids)), Shard(i, count)) for i in range(1, count + 1)]
        assert [sorted(s) for s in again] == [sorted(s) for s in shards]   # any order


def test_a_spread_test_is_on_every_shard_with_its_own_seed_and_share():
    ids = ["a.py::test_one", "a.py::test_heavy", "b.py::test_two[x]", "b.py::test_two[y]"]
    owners = assign(ids, 3, spread=["*heavy*"])
    assert owners["a.py::test_heavy"] == (1, 2, 3)
    assert Counter(len(o) for n, o in owners.items() if "heavy" not in n) == {1: 3}
    seeds = {hypothesis_seed(7, Shard(i, 3)) for i in (1, 2, 3)}
    assert len(seeds) == 3 and hypothesis_seed(7, Shard(1, 1)) == 7
    assert [examples_per_shard(2000, Shard(1, n)) for n in (1, 3, 4)] == [2000, 667, 500]


def _collected(*args: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "conformance", "--collect-only", "-q",
         "-p", "no:cacheprovider", "--target=reference", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return [line for line in result.stdout.splitlines() if "::" in line]


def test_the_conformance_suite_splits_into_disjoint_complete_shards():
    whole = _collected()
    first, second = _collected("--shard=1/2"), _collected("--shard=2/2")
    assert whole and first and second
    assert not set(first) & set(second)
    assert sorted(first + second) == sorted(whole)
    # make campaign leaves out the tests that already failed (--campaign-done) after
    # the split: the shard's other tests stay where they were
    assert _collected("--shard=1/2", f"--campaign-done={first[0]}") == first[1:]


SUITE = """
    import os
    import pytest
    from hypothesis import given, settings, strategies as st

    def _log(line):
        with open(os.environ["RAN_LOG"], "a") as log:
            log.write(line + "\\n")

    @pytest.mark.parametrize("i", range(10))
    def test_light(i, request):
        _log(request.node.nodeid)

    @given(st.integers(0, 10**9))
    def test_heavy(n):
        _log(f"heavy {n}")
"""


def _run_shard(folder: Path, shard: str) -> list[str]:
    log = folder / f"ran-{shard.replace('/', '-')}.log"
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_XDIST_WORKER")}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "test_split.py", "-q", "-p", "no:cacheprovider",
         "--target=reference", "--seed=11", "--hypothesis-profile=dev", f"--shard={shard}",
         "--shard-spread=*heavy*", "--example-db=none", "-n", "2"],
        cwd=folder, env=dict(env, RAN_LOG=str(log)), capture_output=True, text=True,
        timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return log.read_text().splitlines()


def test_shards_under_xdist_run_disjoint_complete_parts(tmp_path):
    """(That a shard reruns alone follows from the split being a function of the node
    ids: test_split_is_disjoint_complete_balanced_and_order_free.)"""
    (tmp_path / "test_split.py").write_text(textwrap.dedent(SUITE))
    runs = {i: _run_shard(tmp_path, f"{i}/2") for i in (1, 2)}
    light = [line for lines in runs.values() for line in lines if "test_light" in line]
    assert sorted(light) == sorted(f"test_split.py::test_light[{i}]" for i in range(10))
    assert {len(lines) for lines in runs.values()} != {0}
    heavy = {i: [line for line in lines if line.startswith("heavy")]
             for i, lines in runs.items()}
    # the dev profile's 100 examples, half on each shard, each from its own seed
    assert all(len(h) == examples_per_shard(100, Shard(1, 2)) for h in heavy.values())
    assert set(heavy[1]) != set(heavy[2])

