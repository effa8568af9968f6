"""Fixtures of the verbs-emulation tests: the library built by its Makefile, the probe
program (emu_probe.c) compiled against it, and two network namespaces on a bridge."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from host_stack import netns
from host_stack.release_build import EMU_DIR, EMU_LIB, ReleaseBuildError, build_emulation

HERE = Path(__file__).resolve().parent
MAC_A = bytes.fromhex("020000000a01")
MAC_B = bytes.fromhex("020000000b01")


@pytest.fixture(scope="session")
def emu_lib() -> Path:
    try:
        return build_emulation()
    except ReleaseBuildError as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="session")
def probe(emu_lib, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("probe") / "emu_probe"
    cc = shutil.which("gcc")
    subprocess.run([cc, "-O2", "-Wall", "-Werror", f"-I{EMU_DIR / 'include'}", "-o", str(out),
                    str(HERE / "emu_probe.c"), f"-L{EMU_LIB}", "-libverbs",
                    f"-Wl,-rpath,{EMU_LIB}"], check=True)
    return out


@pytest.fixture
def bed():
    """Hosts ``a`` and ``b`` in their own namespaces, joined by a bridge (which floods
    frames to unknown MACs: every frame ``a`` sends reaches ``b``)."""
    reason = netns.unavailable_reason()
    if reason:
        pytest.skip(reason)
    with netns.Testbed({"a": MAC_A, "b": MAC_B}, tag="vemu") as tb:
        yield tb              # no IPv6 chatter on the links the counters count (Testbed)
