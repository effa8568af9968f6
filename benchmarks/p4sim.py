"""Throughput of p4sim on an ATP-shaped program (62 x 32-bit RegisterActions per packet).

    python benchmarks/p4sim.py [--seconds 3]

Prints packets/s of p4sim on one core and, measured in the same run, two baselines:
 * plain-Python struct decode of the same frames (an upper bound on any Python model);
 * a hand-written Python aggregator of the same shape (decode, 62 saturating adds into
   lists, encode) -- what a direct Python model of this program costs.
and the reference switch model (benchmarks/reference_switch.py: real ATP gradient frames,
62 saturating adds per packet) measured in the same run, with p4sim's ratio to it.
"""
import argparse
import os
import struct
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.append(HERE)  # after ROOT: this file is itself named p4sim

import p4sim  # noqa: E402

PROGRAM = os.path.join(ROOT, "tests", "p4sim", "programs", "aggregate62.p4")
AGG = struct.Struct(">IBBHHH62i")


def make_frames(n=256):
    eth = (1).to_bytes(6, "big") + (2).to_bytes(6, "big") + b"\x08\x00"
    ip = bytes([0x45, 0, 0, 0, 0, 0, 0, 0, 64, 0xFD, 0, 0]) + bytes(8)
    frames = []
    for i in range(n):
        vals = [((i * 7919 + j * 104729) % 2000001) - 1000000 for j in range(62)]
        frames.append(eth + ip + AGG.pack(1 << (i % 8), 8, 0, 7, i + 1, i % 1024, *vals))
    return frames


def timed(fn, frames, seconds):
    n = 0
    t0 = time.perf_counter()
    end = t0 + seconds
    while True:
        for f in frames:
            fn(f)
        n += len(frames)
        now = time.perf_counter()
        if now >= end:
            return n / (now - t0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    prog = p4sim.compile_file(PROGRAM)
    compile_s = time.perf_counter() - t0
    sw = p4sim.Switch(prog)
    sw.table_add("Ingress.forward", {"hdr.ethernet.dst_addr": 1}, "set_port", {"port": 3})
    frames = make_frames()
    assert sw.inject(1, frames[0]), "benchmark program dropped its packet"

    p4sim_pps = timed(lambda f: sw.inject(1, f), frames, args.seconds)

    def decode_only(f):
        return AGG.unpack_from(f, 34)
    decode_pps = timed(decode_only, frames, args.seconds)

    regs = [[0] * 1024 for _ in range(62)]
    counts = [0] * 1024

    def hand_model(f):
        h = AGG.unpack_from(f, 34)
        idx = h[5] & 1023
        counts[idx] = (counts[idx] + 1) & 0xFFFFFFFF
        out = list(h)
        for j in range(62):
            r = regs[j]
            v = r[idx] + h[6 + j]
            v = 2147483647 if v > 2147483647 else (-2147483648 if v < -2147483648 else v)
            r[idx] = v
            out[6 + j] = v
        return f[:34] + AGG.pack(*out)
    hand_pps = timed(hand_model, frames, args.seconds)

    print(f"program: {os.path.relpath(PROGRAM, ROOT)} (62 value RegisterActions + 1 count RegisterAction per packet)")
    print(f"compile time: {compile_s * 1000:.0f} ms")
    print(f"p4sim: {p4sim_pps:,.0f} packets/s (one core, full TNA pipeline incl. egress)")
    print(f"baseline struct decode only: {decode_pps:,.0f} packets/s "
          f"(p4sim = {p4sim_pps / decode_pps:.3f}x)")
    print(f"baseline hand-written Python aggregator: {hand_pps:,.0f} packets/s "
          f"(p4sim = {p4sim_pps / hand_pps:.3f}x)")
    import reference_switch
    config, stream = reference_switch.build(workers=8, seqs=2000, window=64)
    reference_switch.switch_rate(config, stream)  # warm up
    ref_pps = reference_switch.switch_rate(config, stream)
    print(f"reference switch model (ATP gradients, 62 values): {ref_pps:,.0f} packets/s "
          f"(p4sim = {p4sim_pps / ref_pps:.3f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
