"""How hosts write the one field the switch never reads and the release writes in host
order: the tensor key. The spec puts it in network order; the release's host stack
writes it in host (little-endian) order (spec 9.3). The reassigned aggregator index in
``tensor_len`` is converted to network order like every other field in the release too,
and its worker never copies gradient (or float) values into packets, so nothing else
changes byte order. Applying the function twice undoes it."""

from __future__ import annotations

from reference.profiles import Profile


def _swap(value: int, width: int) -> int:
    return int.from_bytes(value.to_bytes(width, "little"), "big")


def key_on_wire(key: int, profile: Profile) -> int:
    return key if profile.network_order_key else _swap(key, 8)
