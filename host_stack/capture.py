"""Capture the ATP frames crossing switch ports into one pcap per port.

``python -m host_stack.capture --dir D --iface p1 --iface p2`` runs in the fabric
namespace (tcpdump is not needed): an AF_PACKET socket per port sees both directions,
frames go to ``D/<iface>.pcap`` (nanosecond timestamps, Ethernet link type) and
``D/ready`` appears once every socket is open. SIGTERM drains and closes the files.
A record's time is the kernel's stamp of the frame crossing the interface
(``SO_TIMESTAMPNS``), not the moment this process read it: the timed host checks
(``atp_fixtures.oracles.host_timing``) compare these times with a host's timer.
"""

from __future__ import annotations

import argparse
import select
import signal
import struct
from dataclasses import dataclass, replace
from pathlib import Path

from host_stack.link import PacketLink

CAPTURE_MODULE = "host_stack.capture"
PCAP_NS_MAGIC = 0xA1B23C4D
LINKTYPE_ETHERNET = 1


class PcapWriter:
    """A minimal pcap writer (nanosecond variant) for whole Ethernet frames."""

    def __init__(self, path: Path):
        self.file = open(path, "wb")
        self.file.write(struct.pack("<IHHiIII", PCAP_NS_MAGIC, 2, 4, 0, 0, 65535,
                                    LINKTYPE_ETHERNET))
        self.frames = 0

    def write(self, frame: bytes, time_ns: int) -> None:
        sec, nsec = divmod(time_ns, 1_000_000_000)
        self.file.write(struct.pack("<IIII", sec, nsec, len(frame), len(frame)))
        self.file.write(frame)
        self.frames += 1

    def close(self) -> None:
        self.file.close()


ATP_FRAME_LENGTHS = (308, 316)      # single-rack and two-level frames
TRAILER_MAGIC = b"P4SC"


def without_trailer(frame: bytes) -> bytes:
    """The frame without the softswitch's 16-byte test trailer, which a relay adds to
    frames toward the switch in congestion runs (the capture sees them with it)."""
    if len(frame) - 16 in ATP_FRAME_LENGTHS and frame[-16:-12] == TRAILER_MAGIC:
        return frame[:-16]
    return frame


def read_pcap(path: Path) -> list[tuple[int, bytes]]:
    """(time_ns, frame) of every record of a pcap this module wrote (or any ns/µs pcap);
    a softswitch test trailer is stripped (:func:`without_trailer`)."""
    data = Path(path).read_bytes()
    magic = struct.unpack_from("<I", data, 0)[0]
    if magic not in (PCAP_NS_MAGIC, 0xA1B2C3D4):
        raise ValueError(f"{path}: not a little-endian pcap (magic {magic:#x})")
    scale = 1 if magic == PCAP_NS_MAGIC else 1000
    records = []
    at = 24
    while at + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack_from("<IIII", data, at)
        at += 16
        records.append((sec * 1_000_000_000 + frac * scale,
                        without_trailer(data[at:at + incl])))
        at += incl
    return records


def switch_logs(scenario, pcaps: dict[str, Path]) -> dict:
    """The frames captured at each host's switch port as that switch's ingress log
    (frames the host sent: its own source MAC) and egress log (frames toward it), in
    ``reference.network.SwitchLog`` form, so that checkers written for the simulator's
    logs (``atp_fixtures.oracles.host_rules``) judge real runs. A record's time is a step count in
    its port's capture, not the timestamp: one socket per port keeps the order in which
    frames crossed it (a parameter packet before the worker's reaction to it), which
    those checkers replay step by step (the timed checks, ``atp_fixtures.oracles.host_timing``,
    read the timestamps). Each frame toward the host is a
    step of its own; consecutive frames from the host share one step, as the burst a
    host sends in one reaction does in the simulator's logs."""
    from reference.network import EgressRecord, IngressRecord, SwitchLog
    topo = scenario.topology
    logs = {name: SwitchLog() for name in topo.switch_names}
    for host, path in pcaps.items():
        log = logs[topo.racks[topo.rack_index(host)].name]
        port = topo.host_port(host)
        mac = topo.host_mac(host)
        step, sending = 0, False
        for _, frame in read_pcap(path):
            from_host = frame[6:12] == mac
            if not (from_host and sending):
                step += 1
            sending = from_host
            if from_host:
                log.ingress.append(IngressRecord(step, port, frame, 0))
            else:
                log.egress.append(EgressRecord(step, port, frame, -1))
    return logs


@dataclass
class CapturedRun:
    """A host-stack run as the simulator's log checkers (``atp_fixtures.oracles.host_rules``) read
    a run: the switches' logs are the frames captured at the host ports. Times are
    positions in a port's capture, so the scenario's link latency is taken as 0."""

    scenario: object
    logs: dict
    describe: str
    killed: frozenset = frozenset()
    hosts_lag: bool = True      # receipts are arrivals at the port, not processing

    @classmethod
    def of(cls, run) -> "CapturedRun":
        """From a ``host_stack.session.HostRun`` with its pcaps."""
        scenario = replace(run.scenario, link_latency_ns=0)
        return cls(scenario, switch_logs(scenario, run.pcaps), run.summary())

    def summary(self) -> str:
        return self.describe


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m host_stack.capture")
    parser.add_argument("--dir", required=True)
    parser.add_argument("--iface", action="append", required=True)
    args = parser.parse_args(argv)
    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    links = [PacketLink(i, see_outgoing=True, timestamps=True) for i in args.iface]
    writers = {link.fileno(): (link, PcapWriter(out / f"{link.iface}.pcap"))
               for link in links}
    stopping = []
    signal.signal(signal.SIGTERM, lambda *a: stopping.append(1))
    signal.signal(signal.SIGINT, lambda *a: stopping.append(1))
    (out / "ready").touch()
    try:
        while True:
            try:
                ready, _, _ = select.select(list(writers), [], [], 0.05)
            except InterruptedError:
                ready = []
            if stopping and not ready:
                break
            for fd in ready:
                link, writer = writers[fd]
                for stamp, frame in link.recv_stamped():
                    writer.write(frame, stamp)
    finally:
        for link, writer in writers.values():
            writer.close()
            link.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
