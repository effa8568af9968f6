"""How hosts write the fields the switch never reads: key, the reassigned aggregator
index and float-mode values. The spec puts them in network order; the release writes them
in host (little-endian) order (spec 9.3). Applying the same function twice undoes it."""

from __future__ import annotations

import numpy as np

from reference.profiles import Profile


def _swap(value: int, width: int) -> int:
    return int.from_bytes(value.to_bytes(width, "little"), "big")


def key_on_wire(key: int, profile: Profile) -> int:
    return key if profile.network_order_host_fields else _swap(key, 8)


def index_on_wire(index: int, profile: Profile) -> int:
    return index if profile.network_order_host_fields else _swap(index, 4)


def float_bits_on_wire(bits: np.ndarray, profile: Profile) -> np.ndarray:
    return bits if profile.network_order_host_fields else bits.byteswap()
