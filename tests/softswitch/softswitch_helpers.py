"""Shared pieces of the softswitch tests: an in-process BfRuntime server on loopback,
and the softswitch target on its own ports."""
from __future__ import annotations

import contextlib
from pathlib import Path

import p4sim
from p4sim.switchd.device import SoftDevice
from p4sim.switchd.server import BfRuntimeServer

REPO = Path(__file__).resolve().parents[2]
PROGRAMS = REPO / "tests" / "p4sim" / "programs"
OWN_PROGRAMS = Path(__file__).resolve().parent / "programs"


def program_path(name: str) -> Path:
    p = OWN_PROGRAMS / f"{name}.p4"
    return p if p.exists() else PROGRAMS / f"{name}.p4"


@contextlib.contextmanager
def serving(name: str, ports: dict[int, str] | None = None, pipes: int = 1):
    """(address, device) of a BfRuntime server for program ``name`` (on a device of
    ``pipes`` pipes) on a free port."""
    dev = SoftDevice(p4sim.compile_file(program_path(name)), name, ports, pipes=pipes)
    srv = BfRuntimeServer(dev, "127.0.0.1:0")
    srv.start()
    try:
        yield f"127.0.0.1:{srv.port}", dev, srv
    finally:
        srv.stop(0)


def eth(dst: int, src: int = 0x020000000099, ether_type: int = 0x0800,
        payload: bytes = b"") -> bytes:
    return dst.to_bytes(6, "big") + src.to_bytes(6, "big") + ether_type.to_bytes(2, "big") \
        + payload


def softswitch_target(ports: tuple[int, ...]):
    """The softswitch target on ``ports`` (trailer clock, a wide pool; yields it, closes
    it after); the calling test is skipped with the reason when it cannot start here."""
    from types import SimpleNamespace

    import pytest

    from atp_fixtures.targets import open_target
    from atp_fixtures.targets.base import TargetUnavailable
    testbed = SimpleNamespace(softswitch=SimpleNamespace(clock="trailer", ports=ports,
                                                         pool_max=20000))
    try:
        target = open_target("softswitch", testbed)
    except TargetUnavailable as e:
        pytest.skip(e.reason)
    try:
        yield target
    finally:
        target.close()
