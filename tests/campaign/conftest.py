"""A real Redis server for the shared-database tests: Debian's ``redis-server`` on a
free loopback port, without persistence, in a folder of the test session; always
stopped. Absent, the tests that need it skip naming it (``.ci/run`` installs it)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time

import pytest

from host_stack.stopping import stop


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _answers(proc: subprocess.Popen, port: int) -> bool:
    import redis
    client = redis.Redis(host="127.0.0.1", port=port, socket_connect_timeout=1)
    try:
        for _ in range(100):
            if proc.poll() is not None:
                return False
            try:
                return bool(client.ping())
            except redis.ConnectionError:
                time.sleep(0.05)
        return False
    finally:
        client.close()


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory):
    """``redis://127.0.0.1:<port>`` of a server this module owns."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (Debian: apt-get install redis-server; "
                    ".ci/run installs it): the shared example database tests need a real "
                    "Redis server")
    pytest.importorskip("redis", reason="the redis client is not installed "
                                        "(pip install -e . installs it)")
    folder = tmp_path_factory.mktemp("redis")
    log = folder / "redis.log"
    for _ in range(3):                  # a port taken between probe and bind: try another
        port = _free_port()
        proc = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(folder), "--daemonize", "no",
             "--logfile", str(log)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if _answers(proc, port):
            try:
                yield f"redis://127.0.0.1:{port}"
            finally:
                stop([proc], 10)
            return
        stop([proc], 10)
    tail = log.read_text(errors="replace")[-500:] if log.exists() else ""
    pytest.fail(f"redis-server did not start on a free loopback port: {tail}")


@pytest.fixture
def redis_db(redis_server):
    """An empty database of the module's server, and a client to look into it."""
    import redis
    client = redis.Redis.from_url(f"{redis_server}/0")
    client.flushall()
    yield f"{redis_server}/0", client
    client.flushall()
    client.close()
