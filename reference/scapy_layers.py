"""Scapy layers for the ATP header and the two-level shim, so pcaps decode.

Used for pcaps, the Wireshark-facing side and PTF packet building; never on the hot
path (see :mod:`reference.wire`). Binding: Ethernet type 0x0700 → IPv4 → ATP and
0x0701 → IPv4 → shim → ATP; the IPv4 header carries no protocol number that means ATP,
so the bindings go through IPv4 subclasses that always hand their payload on.
"""

from __future__ import annotations

from scapy.fields import (
    BitField, ByteField, FieldListField, IntField, LongField, ShortField,
    SignedIntField,
)
from scapy.layers.inet import IP
from scapy.layers.l2 import Ether
from scapy.packet import Packet, bind_layers

from reference.wire import ELEMENTS, ETHERTYPE_ATP, ETHERTYPE_ATP_TWO_LEVEL


class ATP(Packet):
    """The 274-byte ATP layer (spec section 2)."""

    name = "ATP"
    fields_desc = [
        IntField("bitmap", 0),
        ByteField("fan_in", 0),
        BitField("overflow", 0, 1),
        BitField("ps_index", 0, 2),
        BitField("data_index", 0, 1),
        BitField("ecn", 0, 1),
        BitField("resend", 0, 1),
        BitField("collision", 0, 1),
        BitField("ack", 0, 1),
        ShortField("app_id", 0),
        ShortField("seq", 0),
        ShortField("agtr", 0),
        ShortField("agtr2", 0),
        FieldListField("values", [0] * ELEMENTS, SignedIntField("value", 0),
                       count_from=lambda pkt: ELEMENTS),
        LongField("key", 0),
        IntField("tensor_len", 0),
    ]


class ATPShim(Packet):
    """The 8-byte two-level shim (ours; ethertype 0x0701)."""

    name = "ATP two-level shim"
    fields_desc = [
        IntField("bitmap1", 0),
        ByteField("fan_in1", 0),
        ByteField("level", 0),
        ByteField("rack_id", 0),
        ByteField("reserved", 0),
    ]


class ATPIPv4(IP):
    """IPv4 as carried in front of the ATP layer (0x0700)."""

    name = "IPv4 (ATP)"

    def guess_payload_class(self, payload):
        return ATP


class ATPIPv4TwoLevel(IP):
    """IPv4 as carried in front of the two-level shim (0x0701)."""

    name = "IPv4 (ATP two-level)"

    def guess_payload_class(self, payload):
        return ATPShim


bind_layers(Ether, ATPIPv4, type=ETHERTYPE_ATP)
bind_layers(Ether, ATPIPv4TwoLevel, type=ETHERTYPE_ATP_TWO_LEVEL)
bind_layers(ATPShim, ATP)
