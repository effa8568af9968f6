"""The release's slowed clock (``host_stack.release_clock``): libfaketime preloaded into
a C++ program built as the release is (g++, libstdc++) slows its
``high_resolution_clock``; without the library a run says what is missing."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from host_stack.release_build import ReleaseBinaries
from host_stack.release_clock import LIBRARY_VARIABLE, faketime_library, missing_reason, slowed
from host_stack.release_run import ReleaseRunError, run_release

# waits until its high_resolution_clock (what the release's timers read) says 10 ms passed
WAITER = r"""
#include <chrono>
int main() {
    auto t1 = std::chrono::high_resolution_clock::now();
    while (std::chrono::duration<double>(std::chrono::high_resolution_clock::now() - t1).count() < 0.010) {}
    return 0;
}
"""


@pytest.fixture(scope="module")
def waiter(tmp_path_factory) -> Path:
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("g++ not found (Debian: apt-get install g++)")
    folder = tmp_path_factory.mktemp("clock")
    (folder / "waiter.cc").write_text(WAITER)
    subprocess.run([gxx, "-std=c++11", "-O3", "-o", str(folder / "waiter"),
                    str(folder / "waiter.cc")], check=True)
    return folder / "waiter"


def _wall_s(argv: list[str], env: dict[str, str]) -> float:
    start = time.monotonic()
    subprocess.run(argv, env=env, check=True, timeout=60)
    return time.monotonic() - start


def test_a_slowed_process_waits_its_time_divided_by_the_rate(waiter):
    """At x0.05 the program's 10 ms last at least 200 ms of real time: libstdc++'s
    clock goes through the preloaded ``clock_gettime``. (A lower bound only: a loaded
    machine can make any wait longer, never a slowed clock faster.)"""
    if faketime_library() is None:
        pytest.skip(missing_reason())
    assert _wall_s([str(waiter)], dict(os.environ)) < 60
    assert _wall_s([str(waiter)], slowed(dict(os.environ), 0.05)) >= 0.010 / 0.05


def test_the_preload_goes_ahead_of_what_the_env_preloads(monkeypatch, tmp_path):
    library = tmp_path / "libfaketime.so.1"
    library.write_bytes(b"")
    monkeypatch.setenv(LIBRARY_VARIABLE, str(library))
    env = slowed({"LD_PRELOAD": "/lib/other.so"}, 0.005)
    assert env["LD_PRELOAD"] == f"{library} /lib/other.so"
    assert env["FAKETIME"] == "+0 x0.005"
    with pytest.raises(ValueError, match="must be above 0"):
        slowed({}, 0)


def test_a_run_without_libfaketime_says_what_is_missing(monkeypatch, tmp_path):
    """Refused before anything is started (no namespace, no process)."""
    monkeypatch.setenv(LIBRARY_VARIABLE, str(tmp_path / "absent.so"))
    assert "libfaketime" in missing_reason()
    binaries = ReleaseBinaries(worker=tmp_path / "app", ps=tmp_path / "ps")
    with pytest.raises(ReleaseRunError, match=r"libfaketime: \$ATP_FAKETIME_LIB=.*absent\.so"):
        run_release(binaries, tmp_path / "run", fabric="softswitch", clock_rate=0.005)
    assert not (tmp_path / "run").exists()
