"""Build the ATP release's worker and PS, unmodified, against the verbs emulation.

The release needs MLNX_OFED's experimental raw-packet verbs; ``verbs_emu/`` provides
them over AF_PACKET (a C library built by its own Makefile). The release is built by
its own Makefiles in a copy of its source under ``build/atp-release/<digest>/`` (its
Makefiles write objects next to the sources, and the release's folder is shared), with
``verbs_emu/toolchain/g++`` first on PATH: the same commands, plus include and library
paths and ``-fsanitize=unreachable`` (see that script for why). No file of the release
is changed.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EMU_DIR = ROOT / "verbs_emu"
EMU_LIB = EMU_DIR / "build" / "lib"
BUILD_DIR = ROOT / "build" / "atp-release"
DEFAULT_SOURCE = ROOT.parent / "shared" / "tools" / "atp-release" / "src"
SOURCE_VARIABLE = "ATP_RELEASE_SRC"


class ReleaseBuildError(RuntimeError):
    """The emulation or the release did not build; the message says what and where."""


@dataclass(frozen=True)
class ReleaseBinaries:
    worker: Path    # client/app: `app ID NWORKERS APPID NPS [-l LOOPS]`
    ps: Path        # server/app: `app APPID`


def toolchain_unavailable() -> str | None:
    """Why neither the emulation nor the release can be built here, or None."""
    missing = [tool for tool in ("make", "gcc", "g++") if shutil.which(tool) is None]
    if missing:
        return f"{', '.join(missing)} not found (Debian: apt-get install build-essential)"
    return None


def release_source(path: str | os.PathLike | None = None) -> Path | None:
    """The release's source folder (``path``, ``$ATP_RELEASE_SRC`` or the shared
    tools' copy), or None when it has no client/ and server/ Makefiles."""
    candidate = Path(path or os.environ.get(SOURCE_VARIABLE) or DEFAULT_SOURCE)
    if (candidate / "client" / "Makefile").is_file() and (candidate / "server" / "Makefile").is_file():
        return candidate
    return None


def _locked_run(lock: Path, argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> None:
    """Run a build step holding ``lock`` (parallel test workers build once)."""
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        result = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    if result.returncode:
        tail = (result.stderr or result.stdout).strip().splitlines()[-5:]
        raise ReleaseBuildError(f"`{' '.join(argv)}` in {cwd} failed: " + " | ".join(tail))


def build_emulation() -> Path:
    """Build ``verbs_emu`` (``make -C verbs_emu``); return the folder of its libraries."""
    reason = toolchain_unavailable()
    if reason:
        raise ReleaseBuildError(f"cannot build the verbs emulation: {reason}")
    _locked_run(EMU_DIR / "build" / ".lock", ["make", "--no-print-directory", "-s"], EMU_DIR)
    return EMU_LIB


def _digest(source: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(source.rglob("*")):
        if path.is_file() and path.suffix in {".cc", ".h", ""}:
            h.update(str(path.relative_to(source)).encode())
            h.update(path.read_bytes())
    for part in ("include", "toolchain"):  # what the build sees (the library is linked at run time)
        for path in sorted((EMU_DIR / part).rglob("*")):
            if path.is_file():
                h.update(path.read_bytes())
    return h.hexdigest()[:12]


def build_release(source: str | os.PathLike | None = None) -> ReleaseBinaries:
    """The release's worker and PS built by its Makefiles against the emulation (once
    per source and emulation version; later calls reuse the binaries)."""
    src = release_source(source)
    if src is None:
        where = source or os.environ.get(SOURCE_VARIABLE) or DEFAULT_SOURCE
        raise ReleaseBuildError(f"no ATP release source at {where} (client/Makefile and "
                                f"server/Makefile expected; set {SOURCE_VARIABLE})")
    build_emulation()
    tree = BUILD_DIR / _digest(src)
    binaries = ReleaseBinaries(worker=tree / "client" / "app", ps=tree / "server" / "app")
    BUILD_DIR.mkdir(parents=True, exist_ok=True)
    with open(BUILD_DIR / ".lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        if binaries.worker.is_file() and binaries.ps.is_file():
            return binaries
        if tree.exists():
            shutil.rmtree(tree)
        shutil.copytree(src, tree)
        env = dict(os.environ, PATH=f"{EMU_DIR / 'toolchain'}{os.pathsep}{os.environ.get('PATH', '')}",
                   ATP_RELEASE_REAL_CXX=shutil.which("g++") or "/usr/bin/g++")
        for part in ("client", "server"):
            result = subprocess.run(["make", "--no-print-directory"], cwd=tree / part, env=env,
                                    capture_output=True, text=True)
            if result.returncode:
                errors = [line for line in result.stderr.splitlines() if "error" in line][:3]
                raise ReleaseBuildError(f"the release's {part}/Makefile failed in {tree / part}: "
                                        + (" | ".join(errors) or result.stderr.strip()[-300:]))
    return binaries



def main() -> int:
    """``python -m host_stack.release_build [SOURCE]``: build and print the binaries."""
    import sys
    try:
        binaries = build_release(sys.argv[1] if len(sys.argv) > 1 else None)
    except ReleaseBuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"worker: {binaries.worker}\nps:     {binaries.ps}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
