"""Device ports on network interfaces: frames in and out with AF_PACKET.

One thread runs the data path: ``epoll`` over one raw socket per bound interface; when
a socket is readable up to ``batch`` frames are drained from it (non-blocking
``recv_into`` into a reused buffer) and each is run through the pipe, its outputs sent
on the egress ports' sockets. Frames the kernel loops back to us (our own
transmissions, ``PACKET_OUTGOING``) are skipped.

An interface that disappears (a veth pair deleted) or goes down marks its port down;
the daemon keeps running, and the port comes back up when the interface returns. The
interfaces' state is read again when the kernel announces a change of one of them
(rtnetlink link messages, at most every ``monitor_interval``) and every
``FALLBACK_CHECK_S`` in any case: reading it every 0.2 s for ~37 ports cost ~1 % of a
core per idle daemon, and a session keeps several.

Test clock (``trailer=True``, ``--clock trailer``): a driver that must give the switch
its own clock and queue depth (a trace replay does) ends each frame with a 16-byte
trailer, ``P4SC`` + time in ns (8 bytes) + egress queue depth (4 bytes), big-endian;
the switch strips it and runs the frame with that timestamp and depth. A frame without
the trailer gets real time and depth 0. A real Tofino has no such thing; only the
softswitch target uses it.

Sequenced frames (``--clock trailer``): a frame ending with the ``P4SQ`` trailer of
``tagging.py`` also runs in its driver's order across ports, and its outputs are tagged
with it (see there).

Each interface is claimed with an exclusive ``flock`` on a file under ``/run/p4sim-switchd``
so that two softswitches cannot share one port.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
import select
import socket
import struct
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from . import tagged_reads
from .tagging import Sequencer, done_frame, split_sequenced, tag_output
from .work_clock import WorkClock

log = logging.getLogger("p4sim.switchd")

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
SOL_PACKET = 263
PACKET_ADD_MEMBERSHIP = 1
PACKET_MR_PROMISC = 1
NETLINK_ROUTE = 0
RTMGRP_LINK = 1
RTM_NEWLINK, RTM_DELLINK = 16, 17
NLMSG = struct.Struct("=IHHII")          # length, type, flags, seq, pid
IFINFO_INDEX = struct.Struct("=i")       # ifinfomsg's index, 4 bytes into it
FALLBACK_CHECK_S = 2.0
TRAILER_MAGIC = b"P4SC"
TRAILER = struct.Struct("!4sQI")
LOCK_DIR = Path(os.environ.get("P4SIM_SWITCHD_LOCK_DIR", "/run/p4sim-switchd"))


class PortError(Exception):
    """A port cannot be bound (missing interface, busy, no permission)."""


@dataclass
class PortStats:
    rx: int = 0
    tx: int = 0
    tx_errors: int = 0


def _iface_state(ifname: str) -> str | None:
    """'up', 'down' or None (no such interface), from sysfs."""
    base = Path("/sys/class/net") / ifname
    try:
        oper = (base / "operstate").read_text().strip()
        flags = int((base / "flags").read_text().strip(), 16)
    except OSError:
        return None
    # veth reports operstate "up"; some virtual links say "unknown" while working
    return "up" if flags & 1 and oper in ("up", "unknown") else "down"


def _link_events() -> socket.socket | None:
    """A non-blocking rtnetlink socket told of every link change, or None if this
    kernel or sandbox gives none (then the interfaces are polled)."""
    try:
        s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW | socket.SOCK_NONBLOCK,
                          NETLINK_ROUTE)
    except (OSError, AttributeError):
        return None
    try:
        s.bind((0, RTMGRP_LINK))
    except OSError:
        s.close()
        return None
    return s


class _Port:
    def __init__(self, port: int, ifname: str):
        self.port = port
        self.ifname = ifname
        self.sock: socket.socket | None = None
        self.stats = PortStats()

    def open(self) -> None:
        # protocol 0 until bound: a socket opened with ETH_P_ALL hears every interface
        # of the namespace until bind(), and would hand another port's frames to this one
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
        try:
            s.bind((self.ifname, ETH_P_ALL))
            ifindex = socket.if_nametoindex(self.ifname)
            mreq = struct.pack("iHH8s", ifindex, PACKET_MR_PROMISC, 0, b"")
            s.setsockopt(SOL_PACKET, PACKET_ADD_MEMBERSHIP, mreq)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
            s.setblocking(False)
        except OSError:
            s.close()
            raise
        self.sock = s

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None


class PortIO:
    """The data path thread: frames from interfaces through ``device.inject`` and out."""

    def __init__(self, device, bindings: dict[int, str], *, clock=time.time_ns,
                 batch: int = 64, monitor_interval: float = 0.2, trailer: bool = False,
                 work: WorkClock | None = None):
        self.device = device
        self.work = work or WorkClock()          # time in the pipe (status line)
        self.clock = clock
        self.trailer = trailer
        self.batch = batch
        self.monitor_interval = monitor_interval
        self.ports = {p: _Port(p, ifname) for p, ifname in bindings.items()}
        self._locks: list = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._epoll = select.epoll()
        self._by_fd: dict[int, _Port] = {}
        self._ifindexes: dict[int, int] = {}   # port -> its interface's index
        self._sequencer = Sequencer()
        self._links = _link_events()      # rtnetlink link changes (None: poll only)
        if self._links is not None:
            self._epoll.register(self._links.fileno(), select.EPOLLIN)
        self.frames_in = 0
        self.frames_out = 0
        seen: dict[str, int] = {}
        for p, ifname in bindings.items():
            if ifname in seen:
                raise PortError(f"interface {ifname} is given for device ports {seen[ifname]} "
                                f"and {p}; one interface per port")
            seen[ifname] = p

    # ------------------------------------------------------------------ setup
    def open(self) -> None:
        """Claim and open every interface; PortError (one clear line) otherwise."""
        for port in self.ports.values():
            if _iface_state(port.ifname) is None:
                self.close()
                raise PortError(f"device port {port.port}: no network interface "
                                f"{port.ifname!r} (create it first, e.g. ip link add "
                                f"{port.ifname} type veth peer name {port.ifname}-peer)")
            self._claim(port)
            try:
                port.open()
            except PermissionError:
                self.close()
                raise PortError(f"device port {port.port}: no permission to open a raw socket "
                                f"on {port.ifname} (run as root or with CAP_NET_RAW)") from None
            except OSError as e:
                self.close()
                raise PortError(f"device port {port.port}: cannot bind {port.ifname}: "
                                f"{e.strerror}") from None
            self._register(port)
            up = _iface_state(port.ifname) == "up"
            self.device.set_port_up(port.port, up)

    def _claim(self, port: _Port) -> None:
        try:
            LOCK_DIR.mkdir(parents=True, exist_ok=True)
            f = open(LOCK_DIR / f"{port.ifname}.lock", "a+")
        except OSError as e:
            raise PortError(f"cannot create the port lock {LOCK_DIR}/{port.ifname}.lock: "
                            f"{e.strerror}") from None
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.seek(0)
            holder = f.read().strip() or "another process"
            f.close()
            self.close()
            raise PortError(f"device port {port.port}: interface {port.ifname} is busy "
                            f"(bound by {holder}); stop that softswitch or pick another "
                            f"interface") from None
        f.seek(0)
        f.truncate()
        f.write(f"p4sim.switchd pid {os.getpid()}")
        f.flush()
        self._locks.append(f)

    def _register(self, port: _Port) -> None:
        fd = port.sock.fileno()
        self._by_fd[fd] = port
        self._epoll.register(fd, select.EPOLLIN | select.EPOLLERR)
        try:
            self._ifindexes[port.port] = socket.if_nametoindex(port.ifname)
        except OSError:
            pass

    def _unregister(self, port: _Port) -> None:
        if port.sock is None:
            return
        fd = port.sock.fileno()
        self._by_fd.pop(fd, None)
        try:
            self._epoll.unregister(fd)
        except OSError:
            pass
        port.close()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="switchd-datapath", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.close()

    def close(self) -> None:
        for port in self.ports.values():
            self._unregister(port)
        if self._links is not None:
            self._links.close()
            self._links = None
        for f in self._locks:
            try:
                os.unlink(f.name)
            except OSError:
                pass
            f.close()
        self._locks.clear()

    # ------------------------------------------------------------------ data path
    def _run(self) -> None:
        buf = bytearray(65536)
        view = memoryview(buf)
        links = self._links.fileno() if self._links is not None else None
        changed = links is None           # without link events: every monitor_interval
        last_check = time.monotonic()
        while not self._stop.is_set():
            try:
                events = self._epoll.poll(self.monitor_interval)
            except InterruptedError:
                continue
            for fd, ev in events:
                if fd == links:
                    changed = self._link_changed() or changed
                    continue
                port = self._by_fd.get(fd)
                if port is None:
                    continue
                if ev & select.EPOLLERR and not ev & select.EPOLLIN:
                    self._lost(port, "socket error")
                    continue
                self._drain(port, buf, view)
            for item in self._sequencer.expire():
                self._run_tagged(*item)
            now = time.monotonic()
            if (changed and now >= last_check + self.monitor_interval) or \
                    now >= last_check + FALLBACK_CHECK_S:
                last_check = now
                changed = links is None
                self._monitor()

    def _link_changed(self) -> bool:
        """Drain the link messages; whether one is about an interface of ours (or some
        were lost: the kernel's buffer overflowed)."""
        ours = set(self._ifindexes.values())
        found = False
        while True:
            try:
                data = self._links.recv(65536)
            except BlockingIOError:
                return found
            except OSError:          # ENOBUFS: messages lost, look at every interface
                return True
            at = 0
            while at + NLMSG.size + IFINFO_INDEX.size + 4 <= len(data):
                length, kind, _, _, _ = NLMSG.unpack_from(data, at)
                if kind in (RTM_NEWLINK, RTM_DELLINK):
                    (index,) = IFINFO_INDEX.unpack_from(data, at + NLMSG.size + 4)
                    found = found or index in ours
                if length < NLMSG.size:
                    break
                at += (length + 3) & ~3

    def _drain(self, port: _Port, buf: bytearray, view: memoryview) -> None:
        sock = port.sock
        for _ in range(self.batch):
            if sock is None:
                return
            try:
                n, addr = sock.recvfrom_into(buf)
            except BlockingIOError:
                return
            except OSError as e:
                self._lost(port, e.strerror or str(e))
                return
            if addr[2] == PACKET_OUTGOING:
                continue
            port.stats.rx += 1
            self.frames_in += 1
            ts, depth = None, 0
            tagged = split_sequenced(buf, n) if self.trailer else None
            if tagged is not None:
                n, ts, depth, epoch, seq = tagged
                item = (port.port, bytes(view[:n]), ts, depth, epoch, seq)
                for ready in self._sequencer.offer(epoch, seq, item):
                    self._run_tagged(*ready)
                continue
            if self.trailer and n >= TRAILER.size and \
                    buf[n - TRAILER.size:n - TRAILER.size + 4] == TRAILER_MAGIC:
                _, ts, depth = TRAILER.unpack_from(buf, n - TRAILER.size)
                n -= TRAILER.size
            try:
                with self.work.timing("frames"):
                    outs = self.device.inject(port.port, bytes(view[:n]),
                                              self.clock() if ts is None else ts, depth)
            except Exception as e:     # a program error on one frame must not stop the switch
                log.warning("frame from port %d dropped: %s", port.port, e)
                continue
            for eport, frame in outs:
                self._send(eport, frame)

    def _run_tagged(self, in_port: int, frame: bytes, ts: int, depth: int, epoch: int,
                    seq: int) -> None:
        if tagged_reads.is_request(frame):      # registers, in order (tagged_reads.py)
            with self.work.timing("tagged reads"):
                parts = tagged_reads.answer_parts(self.device, frame)
            port = self.ports.get(in_port)
            for i, part in enumerate(parts):
                if port is not None and port.sock is not None:
                    try:
                        port.sock.send(tag_output(part, epoch, seq, i, len(parts)))
                    except OSError:
                        pass
            return
        try:
            with self.work.timing("frames"):
                outs = self.device.inject(in_port, frame, ts, depth)
        except Exception as e:
            log.warning("frame from port %d dropped: %s", in_port, e)
            outs = []
        for i, (eport, out) in enumerate(outs):
            self._send(eport, tag_output(out, epoch, seq, i, len(outs)))
        if not outs:                         # tell the driver this frame is done
            port = self.ports.get(in_port)
            if port is not None and port.sock is not None:
                try:
                    port.sock.send(done_frame(epoch, seq))
                except OSError:
                    pass

    def _send(self, eport: int, frame: bytes) -> None:
        out = self.ports.get(eport)
        if out is None or out.sock is None:
            return
        try:
            out.sock.send(frame)
            out.stats.tx += 1
            self.frames_out += 1
        except BlockingIOError:
            out.stats.tx_errors += 1
        except OSError as e:
            out.stats.tx_errors += 1
            if e.errno in (errno.ENXIO, errno.ENODEV, errno.ENETDOWN):
                self._lost(out, e.strerror)

    def _lost(self, port: _Port, why: str) -> None:
        log.warning("port %d: interface %s lost (%s)", port.port, port.ifname, why)
        self._unregister(port)
        self.device.set_port_up(port.port, False)

    def _monitor(self) -> None:
        """Port up/down from the interfaces' state; reopen interfaces that came back."""
        for port in self.ports.values():
            state = _iface_state(port.ifname)
            if state is None:
                if port.sock is not None:
                    self._lost(port, "interface removed")
                else:
                    self.device.set_port_up(port.port, False)
                continue
            if port.sock is None:
                try:
                    port.open()
                except OSError:
                    continue
                self._register(port)
                log.warning("port %d: interface %s is back", port.port, port.ifname)
            self.device.set_port_up(port.port, state == "up")

    def status(self) -> dict:
        return {p.port: {"interface": p.ifname, "open": p.sock is not None,
                         "rx": p.stats.rx, "tx": p.stats.tx, "tx_errors": p.stats.tx_errors}
                for p in self.ports.values()}
