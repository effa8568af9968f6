"""Shared helpers for the reference-model unit tests.

Expected values in these tests come from the spec (docs/protocol.md), not
from the model. To keep that honest, frames the tests *read* are parsed here by hand with
``struct`` at the offsets of the spec's table (section 2), independently of
``reference.wire.decode``; flag bits are spelled out here from the spec, not imported.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from reference.control_plane import JobRoute, SwitchConfig  # noqa: E402
from reference.wire import AtpPacket, Shim, default_ipv4, encode  # noqa: E402

# spec section 2, flags byte: bit7 overflow · bits6-5 ps_index · bit4 data_index ·
# bit3 ecn · bit2 resend · bit1 collision · bit0 ack
OVERFLOW = 1 << 7
DATA_INDEX = 1 << 4
ECN = 1 << 3
RESEND = 1 << 2
COLLISION = 1 << 1
ACK = 1 << 0
PS_SHIFT = 5

I32_MAX = 2**31 - 1
I32_MIN = -(2**31)
E = 62

PS_PORT = 9
MCAST = (1, 2, 3)
PS_MAC = bytes.fromhex("020000000009")


def vals(*head, fill=0):
    """62 int32 values: ``head`` then ``fill``."""
    out = np.full(E, fill, dtype=np.int32)
    out[:len(head)] = head
    return out


def frame(*, app_id=1, seq=1, bitmap=1, fan_in=2, agtr=5, values=None, flags=0,
          ps_index=0, shim=None, ipv4_ecn=0, key=7, tensor_len=124,
          eth_dst=PS_MAC, eth_src=b"\x02\x00\x00\x00\x00\x01", agtr2=None) -> bytes:
    """An input frame (built with the model's AtpPacket/encode; the codec itself is
    pinned to the spec table in test_wire.py)."""
    return encode(AtpPacket(
        eth_dst=eth_dst, eth_src=eth_src,
        ipv4=default_ipv4(shim is not None, ipv4_ecn), shim=shim,
        bitmap=bitmap, fan_in=fan_in, flags=flags | (ps_index << PS_SHIFT),
        app_id=app_id, seq=seq, agtr=agtr, agtr2=agtr if agtr2 is None else agtr2,
        values=vals() if values is None else np.asarray(values, dtype=np.int32),
        key=key, tensor_len=tensor_len))


def shim(bitmap1=0, fan_in1=2, level=0, rack_id=0):
    return Shim(bitmap1, fan_in1, level, rack_id, 0)


def parse(data: bytes) -> dict:
    """Decode a frame by hand, at the spec's byte offsets (independent of the model)."""
    out = {"eth_dst": data[0:6], "eth_src": data[6:12],
           "ethertype": struct.unpack_from("!H", data, 12)[0],
           "ipv4_ecn": data[14 + 1] & 3, "len": len(data)}
    at = 34
    if out["ethertype"] == 0x0701:
        b1, f1, level, rack, res = struct.unpack_from("!IBBBB", data, 34)
        out.update(bitmap1=b1, fan_in1=f1, level=level, rack_id=rack, reserved=res)
        at = 42
    out["bitmap"] = struct.unpack_from("!I", data, at + 0)[0]
    out["fan_in"] = data[at + 4]
    flags = data[at + 5]
    out["flags"] = flags
    out["overflow"] = flags >> 7 & 1
    out["ps_index"] = flags >> 5 & 3
    out["data_index"] = flags >> 4 & 1
    out["ecn"] = flags >> 3 & 1
    out["resend"] = flags >> 2 & 1
    out["collision"] = flags >> 1 & 1
    out["ack"] = flags & 1
    out["app_id"] = struct.unpack_from("!H", data, at + 6)[0]
    out["seq"] = struct.unpack_from("!H", data, at + 8)[0]
    out["agtr"] = struct.unpack_from("!H", data, at + 10)[0]
    out["agtr2"] = struct.unpack_from("!H", data, at + 12)[0]
    out["values"] = list(struct.unpack_from("!62i", data, at + 14))
    out["key"] = struct.unpack_from("!Q", data, at + 262)[0]
    out["tensor_len"] = struct.unpack_from("!I", data, at + 270)[0]
    return out


def config(*, pool_size=16, timeout=1_000, ecn_threshold=10, routes=None,
           multicast=None, l2=None) -> SwitchConfig:
    """A one-job single-rack switch: job 1 / ps_index 0, PS on port 9, workers 1..3."""
    return SwitchConfig(
        name="s0", switch_id=0, ports=(1, 2, 3, PS_PORT), pool_size=pool_size,
        aggregator_timeout_ns=timeout, ecn_threshold=ecn_threshold,
        routes=routes if routes is not None else {
            (1, 0): JobRoute(to_ps_port=PS_PORT, is_upper=True, local_rack_id=0),
            (2, 0): JobRoute(to_ps_port=PS_PORT, is_upper=True, local_rack_id=0)},
        multicast=multicast if multicast is not None else {(1, 0): MCAST, (2, 0): (3,)},
        l2=l2 if l2 is not None else {PS_MAC: PS_PORT})
