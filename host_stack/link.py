"""An AF_PACKET socket on one interface that sends and receives ATP frames.

A classic BPF filter keeps only ethertypes 0x0700/0x0701 in the kernel, so a host never
wakes up for neighbour discovery or other noise, and ``PACKET_IGNORE_OUTGOING`` keeps
a host from reading its own transmissions back.

The socket is opened with protocol 0 (it hears nothing) and gets its filter before it is
bound to the interface with ``ETH_P_ALL``: a socket opened with ``ETH_P_ALL`` hears every
interface of the namespace until it is bound, unfiltered until the filter is attached,
and keeps what it heard. So a host starting while its namespace had traffic (its own
``lo``, IPv6 neighbour discovery) found non-ATP frames queued and counted them malformed
(``tests/host_stack/test_link.py`` reproduces it: 623 stray frames in 300 opens).
"""

from __future__ import annotations

import ctypes
import errno
import select
import socket
import struct
import time

from reference.wire import ETHERTYPE_ATP, ETHERTYPE_ATP_TWO_LEVEL

ETH_P_ALL = 0x0003
SOL_PACKET = 263
PACKET_IGNORE_OUTGOING = 23
SO_ATTACH_FILTER = 26
SO_TIMESTAMPNS = 35          # SCM_TIMESTAMPNS has the same value
TIMESPEC = struct.Struct("@qq")
SOCKET_BUFFER = 8 << 20


class LinkError(OSError):
    """An interface that cannot carry ATP frames (missing, down, no privilege)."""


def _atp_filter() -> tuple[bytes, ctypes.Array]:
    """``ldh [12]; jeq 0x0700 → accept; jeq 0x0701 → accept; ret 0``."""
    program = [
        (0x28, 0, 0, 12),
        (0x15, 2, 0, ETHERTYPE_ATP),
        (0x15, 1, 0, ETHERTYPE_ATP_TWO_LEVEL),
        (0x06, 0, 0, 0),
        (0x06, 0, 0, 0x40000),
    ]
    code = b"".join(struct.pack("HBBI", *insn) for insn in program)
    buffer = ctypes.create_string_buffer(code)
    fprog = struct.pack("HL", len(program), ctypes.addressof(buffer))
    return fprog, buffer


class PacketLink:
    """Send and receive whole Ethernet frames on ``iface``.

    ``see_outgoing`` (for capture) keeps the frames this host sends in the receive path;
    ``timestamps`` (for capture) has the kernel stamp each frame when it crossed the
    interface (:meth:`recv_stamped`), so a capture's times do not depend on when the
    capturing process was scheduled.
    """

    def __init__(self, iface: str, *, atp_only: bool = True, see_outgoing: bool = False,
                 timestamps: bool = False):
        self.iface = iface
        try:
            sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
        except PermissionError as exc:
            raise LinkError(f"cannot open an AF_PACKET socket ({exc}); raw sockets need "
                            f"root or CAP_NET_RAW") from None
        try:
            if atp_only:
                fprog, self._filter = _atp_filter()
                sock.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER, fprog)
            if not see_outgoing:
                sock.setsockopt(SOL_PACKET, PACKET_IGNORE_OUTGOING, 1)
            if timestamps:
                sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SOCKET_BUFFER)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKET_BUFFER)
            sock.bind((iface, ETH_P_ALL))  # hears from here on (Python swaps the bytes)
        except OSError as exc:
            sock.close()
            raise LinkError(f"cannot bind to interface {iface!r}: {exc.strerror or exc}; "
                            f"check that it exists in this namespace and is up") from None
        sock.setblocking(False)
        self.sock = sock
        self.mac = sock.getsockname()[4][:6]
        self.sent = 0
        self.received = 0
        self.send_errors = 0

    def fileno(self) -> int:
        return self.sock.fileno()

    def send(self, frame: bytes) -> None:
        """Send one frame; a full queue is retried after a short wait, like a NIC ring."""
        for _ in range(1000):
            try:
                self.sock.send(frame)
                self.sent += 1
                return
            except BlockingIOError:
                select.select([], [self.sock], [], 0.001)
            except OSError as exc:
                if exc.errno in (errno.ENOBUFS, errno.EAGAIN):
                    select.select([], [], [], 0.0001)
                    continue
                if exc.errno in (errno.ENETDOWN, errno.ENXIO):
                    self.send_errors += 1
                    return
                raise
        self.send_errors += 1  # the frame is lost, as on a congested link

    def recv_batch(self, timeout_s: float | None, limit: int = 256) -> list[bytes]:
        """Wait up to ``timeout_s`` for a frame, then drain up to ``limit`` frames."""
        if timeout_s is None or timeout_s > 0:
            ready, _, _ = select.select([self.sock], [], [], timeout_s)
            if not ready:
                return []
        frames = []
        recv = self.sock.recv
        for _ in range(limit):
            try:
                frames.append(recv(2048))
            except BlockingIOError:
                break
        self.received += len(frames)
        return frames

    def recv_stamped(self, limit: int = 256) -> list[tuple[int, bytes]]:
        """Drain up to ``limit`` waiting frames as (kernel time in ns, CLOCK_REALTIME,
        frame); a frame without a stamp gets the time of the read."""
        out = []
        space = socket.CMSG_SPACE(TIMESPEC.size)
        for _ in range(limit):
            try:
                frame, ancillary, _, _ = self.sock.recvmsg(2048, space)
            except BlockingIOError:
                break
            stamp = None
            for level, kind, data in ancillary:
                if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                    sec, nsec = TIMESPEC.unpack(data[:TIMESPEC.size])
                    stamp = sec * 1_000_000_000 + nsec
            out.append((time.time_ns() if stamp is None else stamp, frame))
        self.received += len(out)
        return out

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> "PacketLink":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
