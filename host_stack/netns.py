"""Network namespaces and veths for a host-stack run, always removed afterwards.

Layout: each host gets a namespace ``<prefix>-<host>`` holding ``eth0`` (with the MAC the
topology gives it), cabled by a veth to port ``p<n>`` in the fabric namespace
``<prefix>-fab`` (``p<n>`` carries the run's random token too: the softswitch locks
its ports by interface name across namespaces). The fabric either joins the ports with a Linux bridge (no switch: the
PS aggregates every worker's packets itself) or leaves them to a switch process started
inside it. A host whose link carries a userspace fault relay gets a second veth: its
``eth0`` is cabled to ``h<n>`` and the relay splices ``h<n>`` to ``x<n>``, whose peer is
the port ``p<n>``. With several racks (section 8), one switch per rack runs in the
fabric namespace and rack switches ``r`` and ``j`` are cabled by the veth pair
``u<r><j>`` (switch ``r``'s port 100 + j) – ``u<j><r>``. Deleting the namespaces
deletes every veth, so cleanup cannot leak interfaces. A run killed outright (SIGKILL,
or SIGTERM on a pytest, which runs no teardown) is cleaned by the testbed's reaper: a
shell in its own session that waits for the process that made the testbed to die, then
SIGKILLs every process left in its namespaces and deletes them; :func:`sweep` removes
what even that missed. IPv6 is off in every namespace before its links come up: a link
the kernel brings up with it sends router solicitations and MLD reports, non-ATP frames
that a bridge floods to every host and a capture or a receive counter would count (the
verbs emulation's "no flow" count was 2 for 1 in a CI run).
"""

from __future__ import annotations

import ctypes
import os
import secrets
import shutil
import signal
import subprocess
from pathlib import Path

from p4sim.switchd.lifecycle import note_created

TAG = "hostst"
CLONE_NEWNET = 0x40000000


class NamespaceError(RuntimeError):
    """Namespaces or veths could not be created; the message says what failed."""


def _ip(*args: str) -> None:
    result = subprocess.run(["ip", *args], capture_output=True, text=True)
    if result.returncode:
        raise NamespaceError(f"`ip {' '.join(args)}` failed: {result.stderr.strip()}")


def _add_namespace(name: str) -> None:
    """A new namespace, IPv6 off for its links to come (see the module docstring; ``-e``:
    a kernel without IPv6 has no such keys, and nothing to turn off)."""
    _ip("netns", "add", name)
    note_created("netns", name)
    result = subprocess.run(["ip", "netns", "exec", name, "sysctl", "-qew",
                             "net.ipv6.conf.all.disable_ipv6=1",
                             "net.ipv6.conf.default.disable_ipv6=1"],
                            capture_output=True, text=True)
    if result.returncode:
        raise NamespaceError(f"turning IPv6 off in namespace {name} failed: "
                             f"{result.stderr.strip()}")


def unavailable_reason() -> str | None:
    """Why namespaces cannot be made here (None if they can)."""
    if shutil.which("ip") is None:
        return "the `ip` tool (iproute2) is not installed"
    if os.geteuid() != 0:
        return "network namespaces need root (run as root or with CAP_SYS_ADMIN)"
    name = f"{TAG}-probe-{secrets.token_hex(3)}"
    result = subprocess.run(["ip", "netns", "add", name], capture_output=True, text=True)
    if result.returncode:
        return f"`ip netns add` failed: {result.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", name], capture_output=True)
    return None


def sweep(prefix: str = TAG) -> list[str]:
    """Delete namespaces left behind by killed runs whose names start with ``prefix-``."""
    listing = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True)
    removed = []
    for line in listing.stdout.splitlines():
        name = line.split()[0] if line.split() else ""
        if name.startswith(prefix + "-"):
            subprocess.run(["ip", "netns", "del", name], capture_output=True)
            removed.append(name)
    return removed


# $1: the pid to outlive; then the namespaces to empty and delete
_REAPER = ('owner=$1; shift; while kill -0 "$owner" 2>/dev/null; do sleep 1; done; '
           'for ns; do for pid in $(ip netns pids "$ns" 2>/dev/null); do '
           'kill -9 "$pid"; done; ip netns del "$ns" 2>/dev/null; done')


class Testbed:
    """Namespaces for ``hosts`` (name → MAC) joined at the fabric; a context manager.

    ``relayed``: hosts whose link gets a userspace fault relay (see module docstring).
    ``bridge``: join the ports with a Linux bridge (False: a switch process will).
    ``racks``: rack switches to cable to each other (uplink veths; switches only).
    """

    def __init__(self, hosts: dict[str, bytes], *, bridge: bool = True,
                 relayed: frozenset[str] = frozenset(), tag: str = TAG, racks: int = 1):
        if racks > 1 and bridge:
            raise NamespaceError("uplinks between rack switches need switches, not a bridge")
        if racks > 10:
            raise NamespaceError(f"{racks} racks: uplink names fit 10 racks at most")
        self.hosts = dict(hosts)
        self.bridge = bridge
        self.relayed = relayed
        self.racks = racks
        self.token = secrets.token_hex(3)
        self.prefix = f"{tag}-{self.token}"
        self.fabric = f"{self.prefix}-fab"
        self.port_of = {h: i + 1 for i, h in enumerate(self.hosts)}
        self.namespaces: list[str] = []
        self.processes: list[subprocess.Popen] = []
        self._reaper: subprocess.Popen | None = None

    # -- names ----------------------------------------------------------------------
    def namespace(self, host: str) -> str:
        return f"{self.prefix}-{host}"

    def port(self, host: str) -> str:
        """The fabric-side interface the switch (or bridge) sees for ``host``."""
        return f"p{self.port_of[host]}{self.token}"

    def relay_ends(self, host: str) -> tuple[str, str]:
        """(host side, switch side) interfaces the fault relay of ``host`` splices."""
        n = self.port_of[host]
        return f"h{n}{self.token}", f"x{n}{self.token}"

    def uplink(self, rack: int, to_rack: int) -> str:
        """The interface of rack switch ``rack`` toward rack switch ``to_rack``."""
        return f"u{rack}{to_rack}{self.token}"

    @property
    def ports(self) -> list[str]:
        return [self.port(h) for h in self.hosts]

    # -- life cycle -----------------------------------------------------------------
    def __enter__(self) -> "Testbed":
        try:
            self.create()
        except BaseException:
            self.destroy()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.destroy()

    def _start_reaper(self) -> None:
        """Clean up after this process if it dies without running :meth:`destroy`."""
        names = [self.fabric, *map(self.namespace, self.hosts)]
        self._reaper = subprocess.Popen(
            ["sh", "-c", _REAPER, "reaper", str(os.getpid()), *names],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)   # a killed process group does not take it along

    def create(self) -> None:
        self._start_reaper()
        fab = self.fabric
        _add_namespace(fab)
        self.namespaces.append(fab)
        _ip("-n", fab, "link", "set", "lo", "up")
        if self.bridge:
            _ip("-n", fab, "link", "add", "br0", "type", "bridge")
            _ip("-n", fab, "link", "set", "br0", "up")
        for host, mac in self.hosts.items():
            ns = self.namespace(host)
            _add_namespace(ns)
            self.namespaces.append(ns)
            port = self.port(host)
            if host in self.relayed:
                inner, outer = self.relay_ends(host)
                _ip("link", "add", inner, "netns", fab, "type", "veth",
                    "peer", "name", "eth0", "netns", ns)
                _ip("link", "add", outer, "netns", fab, "type", "veth",
                    "peer", "name", port, "netns", fab)
                for name in (inner, outer):
                    _ip("-n", fab, "link", "set", name, "up")
            else:
                _ip("link", "add", port, "netns", fab, "type", "veth",
                    "peer", "name", "eth0", "netns", ns)
            _ip("-n", ns, "link", "set", "eth0", "address", mac.hex(":"))
            _ip("-n", ns, "link", "set", "eth0", "up")
            _ip("-n", ns, "link", "set", "lo", "up")
            if self.bridge:
                _ip("-n", fab, "link", "set", port, "master", "br0")
            _ip("-n", fab, "link", "set", port, "up")
        for r in range(self.racks):
            for j in range(r + 1, self.racks):
                _ip("link", "add", self.uplink(r, j), "netns", fab, "type", "veth",
                    "peer", "name", self.uplink(j, r), "netns", fab)
                for name in (self.uplink(r, j), self.uplink(j, r)):
                    _ip("-n", fab, "link", "set", name, "up")

    def destroy(self) -> None:
        """Stop every process started here (SIGTERM, so a switch wrapper stops its
        daemon; SIGKILL after a grace period), then delete the namespaces (and veths)."""
        for proc in self.processes:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.processes:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGKILL)
        for proc in self.processes:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        self.processes.clear()
        for ns in reversed(self.namespaces):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        self.namespaces.clear()
        if self._reaper is not None:
            self._reaper.kill()
            self._reaper.wait()
            self._reaper = None

    # -- running programs -------------------------------------------------------------
    def popen(self, where: str, argv: list[str], log: Path | None = None,
              env: dict[str, str] | None = None) -> subprocess.Popen:
        """Start ``argv`` in the namespace of host ``where`` (or the fabric, for
        ``where == "fabric"``); stdout and stderr go to ``log``."""
        ns = self.fabric if where == "fabric" else self.namespace(where)
        out = open(log, "wb") if log else subprocess.DEVNULL
        try:
            proc = subprocess.Popen(["ip", "netns", "exec", ns, *argv], stdout=out,
                                    stderr=subprocess.STDOUT, env=env)
        finally:
            if log:
                out.close()
        self.processes.append(proc)
        return proc

    def link_into_port(self, host: str):
        """A packet link whose frames enter ``host``'s switch port as if the host sent
        them (the relay is bypassed): the host's ``eth0`` or, on a relayed link, the
        switch side of the relay. Opened from this process by entering the namespace."""
        from host_stack.link import PacketLink
        if host in self.relayed:
            ns, iface = self.fabric, self.relay_ends(host)[1]
        else:
            ns, iface = self.namespace(host), "eth0"
        return in_namespace(ns, lambda: PacketLink(iface))

    def run(self, where: str, argv: list[str]) -> subprocess.CompletedProcess:
        ns = self.fabric if where == "fabric" else self.namespace(where)
        return subprocess.run(["ip", "netns", "exec", ns, *argv], capture_output=True,
                              text=True)


def in_namespace(ns: str, make):
    """Call ``make()`` with this thread inside network namespace ``ns`` and return its
    result; sockets it opens stay in ``ns``. The thread returns to its own namespace
    even if ``make`` fails (setns(2): a network namespace may be entered per thread)."""
    libc = ctypes.CDLL(None, use_errno=True)
    own = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
    try:
        try:
            target = os.open(f"/run/netns/{ns}", os.O_RDONLY)
        except OSError as exc:
            raise NamespaceError(f"network namespace {ns} cannot be opened: "
                                 f"{exc.strerror}") from None
        try:
            if libc.setns(target, CLONE_NEWNET):
                err = ctypes.get_errno()
                raise NamespaceError(f"setns into {ns} failed: {os.strerror(err)}")
            try:
                return make()
            finally:
                if libc.setns(own, CLONE_NEWNET):
                    raise NamespaceError("could not return to this thread's own network "
                                         f"namespace: {os.strerror(ctypes.get_errno())}")
        finally:
            os.close(target)
    finally:
        os.close(own)
