"""A BytePS-style launcher: the DMLC_* environment decides what this process is.

    DMLC_ROLE=server DMLC_NUM_WORKER=2 DMLC_NUM_SERVER=1 python -m host_stack.launcher
    DMLC_ROLE=worker DMLC_WORKER_ID=0 DMLC_NUM_WORKER=2 DMLC_NUM_SERVER=1 \\
        ATP_PS_MACS=02:00:00:00:00:03 python -m host_stack.launcher python train.py

A server runs the parameter server until SIGTERM; a worker execs the training command,
whose ``host_stack.api.init()`` reads the same variables. Variables:

================  ==========================================================
DMLC_ROLE         ``worker`` or ``server`` (ATP has no scheduler role)
DMLC_WORKER_ID    this worker's number, 0..DMLC_NUM_WORKER-1 (workers)
DMLC_NUM_WORKER   workers of the job (fan_in)
DMLC_NUM_SERVER   PSes of the job (1..4; key k goes to PS k % DMLC_NUM_SERVER)
ATP_PS_MACS       the PS address: comma-separated MACs of the PSes in ps_index
                  order (ATP is layer 2, so a PS is addressed by its MAC where
                  BytePS uses DMLC_PS_ROOT_URI/PORT)
ATP_SERVER_ID     this PS's ps_index (servers; default 0)
ATP_IFACE         interface for ATP frames (default eth0)
ATP_APP_ID        the job's app_id (default 1)
ATP_WINDOW        the in-flight window S (default 8)
ATP_POOL_SIZE     aggregator pool size P (default 20000)
ATP_SCALE         quantization scale (default 1e6)
ATP_PROFILE       ``spec`` or ``atp-release`` (default spec)
ATP_CC            1 to enable AIMD congestion control (default 0)
ATP_TIMEOUT_US    worker resend timeout in µs (default 5000)
ATP_FIRST_SEQ     the job's first seq, 1..65535 (default 1; spec 10.8: a job may
                  start anywhere on the ring, e.g. just before the wrap)
================  ==========================================================
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from reference.control_plane import DEFAULT_POOL_SIZE
from reference.profiles import PROFILES
from reference.quantize import DEFAULT_SCALE

from host_stack.roles import HOST_TIMEOUT_NS, RoleError


def parse_mac(text: str, where: str) -> bytes:
    parts = text.strip().split(":")
    try:
        mac = bytes(int(p, 16) for p in parts)
    except ValueError:
        mac = b""
    if len(mac) != 6 or len(parts) != 6:
        raise RoleError(f"{where}: {text!r} is not a MAC address like 02:00:00:00:00:03")
    return mac


@dataclass(frozen=True)
class LaunchConfig:
    role: str
    worker_id: int
    num_workers: int
    num_servers: int
    server_id: int
    ps_macs: tuple[bytes, ...]
    iface: str = "eth0"
    app_id: int = 1
    window: int = 8
    pool_size: int = DEFAULT_POOL_SIZE
    scale: float = DEFAULT_SCALE
    profile: str = "spec"
    congestion_control: bool = False
    timeout_us: int = HOST_TIMEOUT_NS // 1000
    first_seq: int = 1

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> "LaunchConfig":
        env = dict(os.environ if env is None else env)

        def number(name: str, default=None, low: int = 0, kind=int):
            text = env.get(name)
            if text is None or text == "":
                if default is None:
                    raise RoleError(f"environment variable {name} is not set (see "
                                    f"python -m host_stack.launcher --help)")
                return default
            try:
                value = kind(text)
            except ValueError:
                raise RoleError(f"{name}={text!r} is not a number") from None
            if value < low:
                raise RoleError(f"{name}={text!r} must be at least {low}")
            return value

        role = env.get("DMLC_ROLE", "")
        if role == "scheduler":
            raise RoleError("DMLC_ROLE=scheduler: ATP needs no scheduler; start only "
                            "workers and servers")
        if role not in ("worker", "server"):
            raise RoleError(f"DMLC_ROLE={role!r}: expected 'worker' or 'server'")
        num_workers = number("DMLC_NUM_WORKER", low=1)
        num_servers = number("DMLC_NUM_SERVER", low=1)
        worker_id = number("DMLC_WORKER_ID", low=0) if role == "worker" else 0
        if worker_id >= num_workers:
            raise RoleError(f"DMLC_WORKER_ID={worker_id} must be below "
                            f"DMLC_NUM_WORKER={num_workers}")
        server_id = number("ATP_SERVER_ID", 0)
        if server_id >= num_servers:
            raise RoleError(f"ATP_SERVER_ID={server_id} must be below "
                            f"DMLC_NUM_SERVER={num_servers}")
        macs: tuple[bytes, ...] = ()
        if role == "worker":
            text = env.get("ATP_PS_MACS", "")
            macs = tuple(parse_mac(m, "ATP_PS_MACS") for m in text.split(",") if m.strip())
            if len(macs) != num_servers:
                raise RoleError(f"ATP_PS_MACS lists {len(macs)} MAC(s) but "
                                f"DMLC_NUM_SERVER={num_servers}; give one per PS in "
                                f"ps_index order")
        profile = env.get("ATP_PROFILE", "spec")
        if profile not in PROFILES:
            raise RoleError(f"ATP_PROFILE={profile!r}: expected one of "
                            f"{', '.join(sorted(PROFILES))}")
        first_seq = number("ATP_FIRST_SEQ", 1, low=1)
        if first_seq > 0xFFFF:
            raise RoleError(f"ATP_FIRST_SEQ={first_seq} must be at most 65535 (seq is 16 "
                            f"bits and never 0)")
        return cls(role=role, worker_id=worker_id, num_workers=num_workers,
                   num_servers=num_servers, server_id=server_id, ps_macs=macs,
                   iface=env.get("ATP_IFACE", "eth0"),
                   app_id=number("ATP_APP_ID", 1, low=1),
                   window=number("ATP_WINDOW", 8, low=1),
                   pool_size=number("ATP_POOL_SIZE", DEFAULT_POOL_SIZE, low=1),
                   scale=number("ATP_SCALE", DEFAULT_SCALE, kind=float),
                   profile=profile, congestion_control=env.get("ATP_CC", "0") == "1",
                   timeout_us=number("ATP_TIMEOUT_US", HOST_TIMEOUT_NS // 1000, low=1),
                   first_seq=first_seq)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    config = LaunchConfig.from_env()
    if config.role == "server":
        from host_stack import ps
        return ps.main(["--iface", config.iface, "--budget-s", "86400", *argv])
    if not argv:
        raise RoleError("a worker needs the training command to run, e.g. "
                        "python -m host_stack.launcher python train.py")
    os.execvp(argv[0], argv)
    return 0  # not reached: exec replaces this process


if __name__ == "__main__":
    from host_stack.cli import run_main
    run_main(main)
