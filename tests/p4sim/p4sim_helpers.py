"""Helpers shared by the p4sim tests."""
import os
import struct

import p4sim

PROGRAMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs")
_cache = {}


def compiled(name):
    """Compile tests/p4sim/programs/<name> once per session."""
    if name not in _cache:
        _cache[name] = p4sim.compile_file(os.path.join(PROGRAMS, name))
    return _cache[name]


def eth(dst=0, src=0, ether_type=0x0800):
    return dst.to_bytes(6, "big") + src.to_bytes(6, "big") + struct.pack(">H", ether_type)
