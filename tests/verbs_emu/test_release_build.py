"""The ATP release builds unmodified, by its own Makefiles, against the emulation, and
its binaries run on it (CI cost: ~25 s of CPU for the first build, then cached under
build/atp-release/)."""

from __future__ import annotations

import hashlib
import subprocess

import pytest

from host_stack.release_build import EMU_LIB, ReleaseBuildError, build_release, release_source


def tree_digest(folder) -> str:
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        h.update(str(path.relative_to(folder)).encode() + path.read_bytes())
    return h.hexdigest()


@pytest.fixture(scope="module")
def release():
    src = release_source()
    if src is None:
        pytest.skip("the ATP release source is absent (../shared/tools/atp-release/src next to "
                    "the checkout, or $ATP_RELEASE_SRC): nothing to build")
    before = tree_digest(src)
    try:
        binaries = build_release(src)
    except ReleaseBuildError as exc:
        pytest.fail(str(exc))
    return src, before, binaries


def test_release_builds_without_touching_its_source(release):
    src, before, binaries = release
    assert binaries.worker.is_file() and binaries.ps.is_file()
    assert tree_digest(src) == before
    assert not list(src.rglob("*.o")) and not (src / "client" / "app").exists()


@pytest.mark.parametrize("part", ["worker", "ps"])
def test_release_binaries_load_the_emulation(release, part):
    linked = subprocess.run(["ldd", str(getattr(release[2], part))], capture_output=True,
                            text=True, check=True).stdout
    line = next(x for x in linked.splitlines() if "libibverbs" in x)
    assert str(EMU_LIB) in line


def test_worker_runs_its_pinning_and_argument_check(release):
    """The worker pins itself to CPU 0 (bindingCPU, exits on failure) before it checks
    its arguments: its usage line proves the pin succeeded on this machine."""
    result = subprocess.run([str(release[2].worker)], capture_output=True, text=True, timeout=30)
    assert "binding CPU fails" not in result.stdout
    assert "Usage" in result.stdout and result.returncode == 1
