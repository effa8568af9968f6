"""``python -m p4sim.switchd``: a p4sim program as a switch with ports and BfRuntime.

    python -m p4sim.switchd p4src/atp.p4 --port 1@veth0 --port 2@veth2
    python -m p4sim.switchd prog.p4 --ports-file ports.json --grpc-addr 127.0.0.1:50052

Prints one ``READY`` line (program, ports, gRPC address) once it serves, a status line
on SIGUSR1, and stops cleanly on SIGTERM/SIGINT (status on stderr, exit 0), and with
``--exit-with-parent PID`` also when its parent PID dies; stopping, it deletes those of
its interfaces whose creator is dead (see ``lifecycle.py``). A bad
program, a missing or busy interface, or a taken gRPC port is one line on stderr and
exit status 2.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading
import time
from pathlib import Path

import p4sim

from .device import SoftDevice
from .lifecycle import sweep_stale, watch_parent
from .ports import PortError, PortIO
from .server import BfRuntimeServer
from .work_clock import WorkClock

REPO = Path(__file__).resolve().parents[2]
DEFAULT_PROGRAM = REPO / "p4src" / "atp.p4"
EXIT_USAGE = 2


class UsageError(Exception):
    """Bad command-line input; printed as one line."""


def _port_arg(text: str) -> tuple[int, str]:
    port, sep, iface = text.partition("@")
    if not sep or not port.isdigit() or not iface:
        raise argparse.ArgumentTypeError(f"--port {text!r}: expected DEVICE_PORT@INTERFACE, "
                                         f"e.g. --port 1@veth0")
    if int(port) >= 512:
        raise argparse.ArgumentTypeError(f"--port {text!r}: device port must be below 512")
    return int(port), iface


def ports_from_file(path: str) -> dict[int, str]:
    """Bindings from a tofino-model ``ports.json``: ``PortToVeth`` entries
    ``{device_port, veth1, veth2}`` bind the port to ``veth<veth1>`` (the model's side;
    PTF uses ``veth<veth2>``), ``PortToIf`` entries ``{device_port, if}`` to ``if``."""
    try:
        doc = json.loads(Path(path).read_text())
    except OSError as e:
        raise UsageError(f"--ports-file {path}: {e.strerror}") from None
    except ValueError as e:
        raise UsageError(f"--ports-file {path}: not JSON ({e})") from None
    out: dict[int, str] = {}
    try:
        for e in doc.get("PortToVeth", []):
            out[int(e["device_port"])] = f"veth{int(e['veth1'])}"
        for e in doc.get("PortToIf", []):
            out[int(e["device_port"])] = str(e["if"])
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise UsageError(f"--ports-file {path}: entries need device_port and veth1/veth2 "
                         f"(PortToVeth) or if (PortToIf): {e!r}") from None
    if not out:
        raise UsageError(f"--ports-file {path}: no PortToVeth or PortToIf entries")
    return out


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="python -m p4sim.switchd",
                                 description="Run a P4 (TNA) program in p4sim as a switch: "
                                             "ports on interfaces, BfRuntime over gRPC.")
    ap.add_argument("program", nargs="?", help=f"P4 source (default {DEFAULT_PROGRAM})")
    ap.add_argument("-I", "--include", action="append", default=[], metavar="DIR")
    ap.add_argument("-D", "--define", action="append", default=[], metavar="NAME[=VALUE]")
    ap.add_argument("--p4-name", help="program name clients bind to (default: file stem)")
    ap.add_argument("--port", action="append", type=_port_arg, default=[],
                    metavar="N@IFACE", help="bind device port N to interface IFACE")
    ap.add_argument("--ports-file", help="tofino-model ports.json with PortToVeth entries")
    ap.add_argument("--grpc-addr", default="127.0.0.1:50052")
    ap.add_argument("--clock", choices=("real", "zero", "trailer"), default="real",
                    help="switch timestamps: real time in ns (default), always 0, or "
                         "'trailer': taken from a 16-byte trailer the sender appends "
                         "(P4SC + time_ns + queue depth; see p4sim/switchd/ports.py)")
    ap.add_argument("--recirculation-port", type=int, default=68,
                    help="pipe 0's recirculation port; pipe i's is this + 128*i")
    ap.add_argument("--pipes", type=int, choices=(1, 2, 4), default=1,
                    help="pipes of the device (a Tofino 1 has 2 or 4; port p is in pipe "
                         "p >> 7); default 1, every port in one pipe")
    ap.add_argument("--seed", type=int, default=0, help="seed of the program's Random externs")
    ap.add_argument("--batch", type=int, default=64, help="frames drained per wake-up per port")
    ap.add_argument("--exit-with-parent", type=int, metavar="PID",
                    help="stop when PID (the driver that started this) is no longer the "
                         "parent: a killed driver leaves no switch running")
    ap.add_argument("-v", "--verbose", action="store_true")
    return ap.parse_args(argv)


def build(args):
    """(device, server, port io) for parsed args; UsageError/PortError/OSError on failure."""
    program = Path(args.program) if args.program else DEFAULT_PROGRAM
    if not program.exists():
        if args.program:
            raise UsageError(f"program {program} does not exist")
        raise UsageError(f"no program given and the default {DEFAULT_PROGRAM} does not exist; "
                         f"pass one, e.g. python -m p4sim.switchd tests/p4sim/programs/"
                         f"l2_forward.p4 --port 1@veth0")
    defines = {}
    for d in args.define:
        name, _, value = d.partition("=")
        defines[name] = value or None
    try:
        prog = p4sim.compile_file(program, include_dirs=args.include, defines=defines)
    except p4sim.P4SimError as e:
        raise UsageError(f"cannot load {program}: {e}") from None
    bindings = dict(args.port)
    if args.ports_file:
        for p, iface in ports_from_file(args.ports_file).items():
            bindings.setdefault(p, iface)
    p4_name = args.p4_name or program.stem
    try:
        device = SoftDevice(prog, p4_name, bindings, seed=args.seed, pipes=args.pipes,
                            recirculation_port=args.recirculation_port)
    except ValueError as e:
        raise UsageError(str(e)) from None
    clock = (lambda: 0) if args.clock == "zero" else time.time_ns
    work = WorkClock()           # the status line's time per kind of work
    io = PortIO(device, bindings, clock=clock, batch=args.batch,
                trailer=args.clock == "trailer", work=work)
    io.open()
    try:
        server = BfRuntimeServer(device, args.grpc_addr, work=work)
    except OSError as e:
        io.close()
        raise UsageError(str(e)) from None
    return device, server, io


def _say(line: str, stream) -> bool:
    """Print a line; False if the reader is gone (a killed driver's pipe)."""
    try:
        print(line, file=stream, flush=True)
        return True
    except OSError:
        return False


def main(argv=None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="p4sim.switchd: %(message)s", stream=sys.stderr)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    if args.exit_with_parent is not None:
        watch_parent(args.exit_with_parent, stop.set)
    try:
        device, server, io = build(args)
    except (UsageError, PortError) as e:
        _say(f"p4sim.switchd: error: {e}", sys.stderr)
        return EXIT_USAGE

    def status() -> str:
        ports = ", ".join(f"{p}@{s['interface']} rx={s['rx']} tx={s['tx']}"
                          f"{'' if device.ports[p].up else ' DOWN'}"
                          for p, s in sorted(io.status().items()))
        return (f"program {device.p4_name}: frames in={io.frames_in} out={io.frames_out}; "
                f"{io.work.line()}; bound client={server.bound_client}; "
                f"ports: {ports or 'none'}")

    signal.signal(signal.SIGUSR1, lambda *_: _say(f"p4sim.switchd: {status()}", sys.stderr))
    try:
        server.start()
        io.start()
        ports = " ".join(f"{p}@{i}" for p, i in sorted((p, s.ifname)
                                                       for p, s in device.ports.items()))
        if not _say(f"READY p4_name={device.p4_name} grpc={args.grpc_addr.rsplit(':', 1)[0]}:"
                    f"{server.port} ports={ports or '-'}", sys.stdout):
            stop.set()                          # nobody reads us: the driver is gone
        while not stop.wait(0.5):
            pass
    finally:
        io.stop()
        server.stop(1.0)
        removed = sweep_stale(s.ifname for s in device.ports.values())
    _say(f"p4sim.switchd: stopped; {status()}"
         + (f"; removed interfaces of a dead driver: {', '.join(removed)}" if removed else ""),
         sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
