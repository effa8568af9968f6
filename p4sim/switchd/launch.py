"""Starting a softswitch from Python: veth pairs to cable it, and the daemon process.

Used by the softswitch target, the tests and the benchmark. Everything created here is
removed by ``close()`` (also on an exception or Ctrl-C inside a ``with`` block); when
the process that created it is killed instead, the daemon stops with its parent and
takes the veths with it, and what a double kill left is swept by the next
:class:`VethPairs` (``lifecycle.py``).
"""

from __future__ import annotations

import os
import random
import re
import select
import signal
import string
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path

from .lifecycle import (clear_pending, mark_owned, note_created, process_identity,
                        record_pending, sweep_stale)


class LaunchError(Exception):
    """The softswitch or its interfaces could not be set up; the message says why."""


def _run(cmd: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True)


NAME_ATTEMPTS = 50


class _NameTaken(Exception):
    """A veth name is held by another run's interface."""


class VethPairs:
    """``n`` veth pairs with unique names: ``switch[i]`` for the softswitch's port and
    ``peer[i]`` for the host side (PTF, sockets). IPv6 is off on both ends so the
    kernel sends no neighbour discovery into the switch. Each interface is marked with
    this process as its creator, after the stale marked interfaces of dead creators
    are deleted."""

    def __init__(self, n: int, tag: str = "softswitch"):
        sweep_stale()
        self.switch: list[str] = []
        self.peer: list[str] = []
        # the names carry a 2-character random part: other runs' veths may hold one, so
        # another is drawn when a name is taken (before or while creating)
        for attempt in range(NAME_ATTEMPTS):
            uid = "".join(random.choices(string.ascii_lowercase + string.digits, k=2))
            base = f"{tag[:10]}{uid}"
            names = [f"{base}{i:x}{end}" for i in range(n) for end in "ab"]
            if any(os.path.exists(f"/sys/class/net/{name}") for name in names):
                continue
            try:
                self._create(base, n)
                return
            except _NameTaken:
                self.close()
            except BaseException:
                self.close()
                raise
        raise LaunchError(f"cannot find free names for {n} veth pairs {tag[:10]}XX* after "
                          f"{NAME_ATTEMPTS} tries; delete stale ones (ip link del NAME)")

    def _create(self, base: str, n: int) -> None:
        owner = process_identity(os.getpid())
        for i in range(n):
            a, b = f"{base}{i:x}a", f"{base}{i:x}b"
            pending = record_pending(a, owner)    # deleting a deletes b
            r = _run(["ip", "link", "add", a, "type", "veth", "peer", "name", b])
            if r.returncode != 0:
                clear_pending(pending)
                if "File exists" in r.stderr:
                    raise _NameTaken(a)
                raise LaunchError(f"cannot create veth pair {a}/{b}: "
                                  f"{r.stderr.strip() or 'ip link add failed'} "
                                  f"(needs root or CAP_NET_ADMIN)")
            self.switch.append(a)
            self.peer.append(b)
            note_created("veth", a)
            for name in (a, b):
                mark_owned(name, owner)
            clear_pending(pending)
            for name in (a, b):
                ipv6 = Path(f"/proc/sys/net/ipv6/conf/{name}/disable_ipv6")
                if ipv6.exists():
                    ipv6.write_text("1")
                r = _run(["ip", "link", "set", name, "up"])
                if r.returncode != 0:
                    raise LaunchError(f"cannot bring {name} up: {r.stderr.strip()}")

    def close(self) -> None:
        for a in self.switch:
            if os.path.exists(f"/sys/class/net/{a}"):
                _run(["ip", "link", "del", a])     # removes the peer too
        self.switch, self.peer = [], []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


STDERR_TAIL_LINES = 2000      # what ``stop`` returns of the daemon's stderr


def _drain(stream, keep: deque) -> None:
    """Read ``stream`` to its end, keeping its last lines in ``keep``: a daemon whose
    pipe nobody reads blocks once the pipe is full (64 KiB of log)."""
    for line in stream:
        keep.append(line)


class SwitchdProcess:
    """``python -m p4sim.switchd`` as a child process; ready when it printed READY.
    Its stderr is read all along (the last lines kept for ``stop``), its stdout from
    READY on."""

    def __init__(self, program: str | os.PathLike, ports: dict[int, str], *,
                 p4_name: str | None = None, grpc_addr: str = "127.0.0.1:0",
                 extra_args: list[str] | None = None, timeout: float = 60.0):
        cmd = [sys.executable, "-m", "p4sim.switchd", str(program), "--grpc-addr", grpc_addr,
               "--exit-with-parent", str(os.getpid())]
        for p, iface in sorted(ports.items()):
            cmd += ["--port", f"{p}@{iface}"]
        if p4_name:
            cmd += ["--p4-name", p4_name]
        cmd += extra_args or []
        self.cmd = cmd
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, start_new_session=True)
        self.address = ""
        self._stderr: deque[str] = deque(maxlen=STDERR_TAIL_LINES)
        self._readers = [threading.Thread(target=_drain, args=(self.proc.stderr, self._stderr),
                                          daemon=True)]
        self._readers[0].start()
        try:
            self._wait_ready(timeout)
            self._readers.append(threading.Thread(
                target=_drain, args=(self.proc.stdout, deque(maxlen=0)), daemon=True))
            self._readers[-1].start()
        except BaseException:
            self.close()
            raise

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            r, _, _ = select.select([self.proc.stdout], [], [], 0.2)
            if r:
                line = self.proc.stdout.readline()
                m = re.match(r"READY .*grpc=(\S+)", line)
                if m:
                    self.address = m.group(1)
                    return
            if self.proc.poll() is not None:
                self._readers[0].join(5.0)
                err = "".join(self._stderr).strip()
                raise LaunchError(f"the softswitch exited with status {self.proc.returncode}: "
                                  f"{err.splitlines()[-1] if err else '(no message)'}")
        raise LaunchError(f"the softswitch did not report READY within {timeout:.0f}s")

    def stop(self, timeout: float = 10.0) -> tuple[int, str]:
        """SIGTERM, wait; (exit status, stderr). Killed if it does not stop in time."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for reader in self._readers:
            reader.join(5.0)
        return self.proc.returncode, "".join(self._stderr)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.stop()
        for f in (self.proc.stdout, self.proc.stderr):
            if f:
                f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
