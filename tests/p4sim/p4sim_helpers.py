"""Helpers shared by the p4sim tests."""
import struct


def eth(dst=0, src=0, ether_type=0x0800):
    return dst.to_bytes(6, "big") + src.to_bytes(6, "big") + struct.pack(">H", ether_type)
