"""p4sim's command line: `check` compiles a program and lists what the control plane sees;
`run` sends the frames of a pcap through it and writes what leaves to another pcap.

Bad input gives one line on stderr (`file:line:col: ...` for P4 errors) and a non-zero exit
status: 1 for an error in the program, the pcap or the control file, 2 for bad usage.
"""
import argparse
import os
import sys

import yaml

from .errors import P4SimError
from .program import compile_file
from .refusals import check_program
from .switch import Switch
from .trace import Tracer

# the control-file operations: the public methods of the Switch's control-plane mixins
# (ControlPlaneMixin and those of action profiles, RegisterParams, ...; nothing else)
CONTROL_OPS = sorted(n for cls in Switch.__mro__[1:] if cls is not object
                     for n in vars(cls) if not n.startswith("_") and callable(getattr(cls, n)))


class CliError(Exception):
    """A user error: printed as one line, exit status 1."""


def _defines(items):
    out = {}
    for item in items or ():
        name, sep, value = item.partition("=")
        if not name.isidentifier():
            raise CliError(f"-D {item!r}: expected NAME or NAME=VALUE")
        out[name] = value if sep else None
    return out


def _compile(args):
    if not os.path.isfile(args.file):
        raise CliError(f"{args.file}: no such P4 file")
    return compile_file(args.file, include_dirs=args.include, defines=_defines(args.define))


def describe(prog):
    """The program as the control plane sees it, one line per object."""
    lines = [f"program {prog.filename}"]
    for name in prog.table_names():
        t = prog.tables[name]
        keys = ", ".join(f"{k.name}:{k.match}<{k.width}>" for k in t.keys) or "(keyless)"
        acts = ", ".join(a.name for a in t.actions)
        extra = (f" size {t.size}" if t.size else "") + (" +direct counter" if t.has_direct_counter else "")
        lines.append(f"table {name} key [{keys}] actions [{acts}]{extra}")
    for name in prog.register_names():
        r = prog.registers[name]
        elem = ", ".join(f"{f + ':' if f else ''}{'int' if s else 'bit'}<{w}>" for f, w, s in r.fields)
        lines.append(f"register {name} [{r.size}] of {elem}")
    for name in sorted(prog.counters):
        lines.append(f"counter {name} [{prog.counters[name].size}]")
    kinds = {}
    for _, kind, _ in prog.objects:
        if kind not in ("table", "register", "counter"):
            kinds[kind] = kinds.get(kind, 0) + 1
    if kinds:
        lines.append("externs " + ", ".join(f"{k} x{n}" for k, n in sorted(kinds.items())))
    return lines


def cmd_check(args):
    """The listing of a program p4sim runs; else every construct it refuses, one
    ``file:line:col: refused: what`` line each on stdout, and exit status 1."""
    if not os.path.isfile(args.file):
        raise CliError(f"{args.file}: no such P4 file")
    prog, refused = check_program(args.file, args.include, _defines(args.define))
    if refused:
        for loc, what in refused:
            print(f"{loc}: refused: {what}")
        raise CliError(f"{args.file}: p4sim refuses {len(refused)} construct(s), listed "
                       f"above with file:line")
    for line in describe(prog):
        print(line)
    return 0


def _apply_control(sw, path):
    try:
        with open(path, encoding="utf-8") as f:
            ops = yaml.safe_load(f) or []
    except (OSError, yaml.YAMLError) as e:
        raise CliError(f"{path}: cannot read the control file: {e}".replace("\n", " ")) from None
    if not isinstance(ops, list):
        raise CliError(f"{path}: expected a list of {{operation: [arguments]}}")
    for i, op in enumerate(ops, 1):
        if not (isinstance(op, dict) and len(op) == 1):
            raise CliError(f"{path}: item {i}: expected {{operation: [arguments]}}")
        (name, a), = op.items()
        if name not in CONTROL_OPS:
            raise CliError(f"{path}: item {i}: unknown operation {name!r} (one of {', '.join(CONTROL_OPS)})")
        a = a if isinstance(a, list) else [a]
        try:
            getattr(sw, name)(*[_tuplify(x) for x in a])
        except TypeError as e:
            raise CliError(f"{path}: item {i} ({name}): {e}") from None
        except P4SimError as e:
            raise CliError(f"{path}: item {i} ({name}): {e}") from None


def _tuplify(x):
    """YAML has no tuples: a 2-list inside a key dict means (value, mask/prefix/high)."""
    if isinstance(x, dict):
        return {k: tuple(v) if isinstance(v, list) else v for k, v in x.items()}
    return x


def _read_pcap(path):
    from scapy.error import Scapy_Exception
    from scapy.utils import RawPcapReader
    try:
        with RawPcapReader(path) as r:
            return [(bytes(data), int(meta.sec) * 10**9 + int(meta.usec) * 1000
                     if hasattr(meta, "usec") else 0) for data, meta in r]
    except (OSError, Scapy_Exception, EOFError, ValueError) as e:
        raise CliError(f"{path}: not a readable pcap file: {e}") from None


def _write_pcap(path, frames):
    from scapy.layers.l2 import Ether
    from scapy.utils import PcapWriter
    tmp = path + ".partial"
    with PcapWriter(tmp, linktype=1, sync=False) as w:
        for ts, data in frames:
            pkt = Ether(data)
            pkt.time = ts / 1e9
            w.write(pkt)
    os.replace(tmp, path)     # nothing half-written on failure


def cmd_run(args):
    if not 0 <= args.port < 512:
        raise CliError(f"--port {args.port}: not a 9-bit port number")
    frames = _read_pcap(args.pcap)
    prog = _compile(args)
    sw = Switch(prog, recirculation_port=args.recirculation_port, seed=args.seed)
    if args.control:
        _apply_control(sw, args.control)
    out_path = args.out or os.path.splitext(args.pcap)[0] + "-out.pcap"
    out = []
    tracer = Tracer(prog) if args.trace else None
    for i, (frame, ts) in enumerate(frames, 1):
        if tracer is None:
            leaving = sw.inject(args.port, frame, timestamp_ns=ts)
        else:
            leaving, path = tracer.packet(sw, args.port, frame, timestamp_ns=ts)
            print(f"frame {i}: path")
            for line in path.lines():
                print(line)
        if leaving:
            print(f"frame {i}: " + ", ".join(f"port {p} ({len(d)} bytes)" for p, d in leaving))
        else:
            print(f"frame {i}: dropped: " + "; ".join(f"{a}: {b}" for a, b in sw.drops))
        out += [(ts, d) for _, d in leaving]
    for name, fields in sw.digests():
        print(f"digest {name} {fields}")
    _write_pcap(out_path, out)
    print(f"{len(frames)} frames in, {len(out)} out -> {out_path}")
    if args.coverage is not None:
        _report_coverage(prog.coverage(), args.coverage)
    return 0


def _report_coverage(cov, path):
    """The figure and every uncovered point (file:line, kind, what); the points with
    their hits as JSON in ``path`` (p4sim.coverage's format) when one is given."""
    for line in cov.lines():
        print(f"coverage: {line}")
    if path:
        try:
            cov.write(path)
        except OSError as e:
            raise CliError(f"--coverage {path}: cannot write ({e.strerror})") from None
        print(f"coverage: points with their hits -> {path}")


def parser():
    ap = argparse.ArgumentParser(prog="python -m p4sim", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)

    def common(p):
        p.add_argument("file", metavar="FILE.p4", help="the P4-16/TNA program")
        p.add_argument("-I", dest="include", action="append", default=[], metavar="DIR",
                       help="add DIR to the include path (repeatable)")
        p.add_argument("-D", dest="define", action="append", default=[], metavar="NAME[=VALUE]",
                       help="define a preprocessor macro (repeatable)")

    c = sub.add_parser("check", help="compile and list tables, registers, counters and externs, "
                                     "or name every construct p4sim refuses (file:line)")
    common(c)
    c.set_defaults(fn=cmd_check)
    r = sub.add_parser("run", help="run the frames of a pcap through the program")
    common(r)
    r.add_argument("--pcap", required=True, help="input pcap (Ethernet frames)")
    r.add_argument("--port", required=True, type=int, help="ingress port of every frame")
    r.add_argument("-o", "--out", help="output pcap (default: <input>-out.pcap)")
    r.add_argument("--control", metavar="FILE.yaml",
                   help="control-plane operations to apply first: a YAML list of "
                        "{operation: [arguments]}, e.g. {table_add: [Ingress.fwd, "
                        "{hdr.ethernet.dst_addr: 1}, set_port, {port: 5}]}")
    r.add_argument("--recirculation-port", type=int, default=68)
    r.add_argument("--seed", type=int, default=0, help="seed of Random externs")
    r.add_argument("--coverage", nargs="?", const="", default=None, metavar="OUT.json",
                   help="print the program's coverage by these frames (figure, uncovered "
                        "points with file:line); with OUT.json also write every point's hits")
    r.add_argument("--trace", action="store_true",
                   help="print each frame's path: per pass, the parser states, tables "
                        "(hit/miss, const entry), actions, RegisterActions and if/switch "
                        "arms it ran, with file:line")
    r.set_defaults(fn=cmd_run)
    return ap


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        return args.fn(args)
    except (CliError, P4SimError) as e:
        print(f"p4sim: error: {e}" if isinstance(e, CliError) else str(e).split("\n")[0],
              file=sys.stderr)
        return 1
