"""One example database shared by machines, through a real Redis server: two runs in
two checkouts (two processes standing for two machines) share a failure, the second
replays it before anything else, and a read-only run writes nothing."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# the bug is outside the test (LIMIT): fixing it keeps the test's database key
SUITE = """
    import os
    from hypothesis import given, strategies as st

    LIMIT = {limit}

    @given(st.integers(min_value=0, max_value=10**6))
    def {test}(n):
        with open(os.environ["DRAWN_LOG"], "a") as log:
            log.write(f"{{n}}\\n")
        assert n < LIMIT
"""


def checkout(root: Path, name: str, limit: int, test: str = "test_threshold") -> Path:
    """A checkout of a one-test suite: the same test in two checkouts is the same test
    (node id and source), as on two machines at one commit."""
    folder = root / name
    folder.mkdir()
    (folder / "test_shared.py").write_text(
        textwrap.dedent(SUITE).format(limit=limit, test=test))
    return folder


def run(folder: Path, *args: str) -> tuple[subprocess.CompletedProcess, list[int]]:
    log = folder / "drawn.log"
    log.unlink(missing_ok=True)
    env = dict(os.environ, DRAWN_LOG=str(log))
    for name in ("CI", "PYTEST_XDIST_WORKER", "ATP_EXAMPLE_DB", "ATP_EXAMPLE_DB_READ_ONLY",
                 "ATP_SHARD"):
        env.pop(name, None)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "test_shared.py", "-p", "no:cacheprovider",
         "--target=reference", "--hypothesis-profile=dev", *args],
        cwd=folder, env=env, capture_output=True, text=True, timeout=300)
    drawn = [int(x) for x in log.read_text().split()] if log.exists() else []
    return result, drawn


def snapshot(client) -> dict[bytes, bytes]:
    return {key: client.dump(key) for key in sorted(client.keys("*"))}


def test_a_failure_found_on_one_machine_replays_first_on_another(tmp_path, redis_db):
    url, client = redis_db
    first, drawn_first = run(checkout(tmp_path, "machine-a", 5000), "--seed=1",
                             f"--example-db={url}")
    assert first.returncode == 1, first.stdout[-2000:]
    assert f"example db={url}" in first.stdout       # the header names the database
    assert drawn_first[-1] == 5000                    # found and shrunk to the boundary
    assert client.dbsize() > 0
    second, drawn_second = run(checkout(tmp_path, "machine-b", 5000), "--seed=2",
                               f"--example-db={url}")
    assert second.returncode == 1, second.stdout[-2000:]
    assert drawn_second[0] == 5000, (
        f"the second machine's first example was {drawn_second[:3]}, not the first "
        f"machine's counterexample 5000")


def test_a_read_only_run_writes_nothing(tmp_path, redis_db):
    url, client = redis_db
    first, _ = run(checkout(tmp_path, "writer", 5000), "--seed=1", f"--example-db={url}")
    assert first.returncode == 1 and client.dbsize() > 0
    before = snapshot(client)
    # a new failure (another test: another key), read-only: Redis unchanged, the local
    # directory (multiplexed local + shared) keeps it
    local = tmp_path / "local-db"
    found, _ = run(checkout(tmp_path, "pull-request", 5000, "test_other"), "--seed=3",
                   f"--example-db={local},{url}", "--example-db-read-only")
    assert found.returncode == 1, found.stdout[-2000:]
    assert f"{url} (read-only)" in found.stdout
    assert snapshot(client) == before
    assert any(p.is_file() for p in local.rglob("*")), "the local part kept nothing"
    # the bug fixed: a replay that passes would delete the entry, read-only must not
    fixed = checkout(tmp_path, "fixed", 10**7)
    passed, drawn = run(fixed, "--seed=4", f"--example-db=readonly:{url}")
    assert passed.returncode == 0, passed.stdout[-2000:]
    assert drawn[0] == 5000                  # replayed (and passed) ...
    assert snapshot(client) == before        # ... and not deleted
    writable, _ = run(fixed, "--seed=4", f"--example-db={url}")
    assert writable.returncode == 0 and snapshot(client) != before   # a writer deletes it


def test_an_unreachable_server_is_a_usage_error(tmp_path):
    with socket.socket() as sock:         # a loopback port nothing listens on
        sock.bind(("127.0.0.1", 0))
        closed = sock.getsockname()[1]
    result, drawn = run(checkout(tmp_path, "offline", 5000),
                        f"--example-db=redis://:secret@127.0.0.1:{closed}/0")
    assert result.returncode == pytest.ExitCode.USAGE_ERROR
    assert "the Redis server does not answer" in result.stderr
    assert "secret" not in result.stderr and ":***@" in result.stderr
    assert drawn == []
