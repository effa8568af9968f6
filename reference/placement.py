"""Where a job's slots live in the aggregator pool (spec section 1).

Slot ``(seq - 1) % S`` maps to ``crc32(app_id_lo, app_id_hi, slot_lo, slot_hi, salt_lo,
salt_hi) mod P``; the salt grows from 0 until the index is not taken by an earlier slot of
the same job. zlib's CRC-32 is the standard reflected one (init and final xor
0xffffffff).
"""

from __future__ import annotations

import zlib


class PlacementError(ValueError):
    """A window that cannot be placed in the pool."""


def aggregator_hash(app_id: int, slot: int, salt: int, pool_size: int) -> int:
    """One hash probe: the pool index for (app_id, slot, salt)."""
    data = bytes((app_id & 0xFF, (app_id >> 8) & 0xFF, slot & 0xFF, (slot >> 8) & 0xFF,
                  salt & 0xFF, (salt >> 8) & 0xFF))
    return zlib.crc32(data) % pool_size


def slot_indexes(app_id: int, window: int, pool_size: int) -> list[int]:
    """The pool index of each of the job's ``window`` slots, distinct within the job."""
    if window > pool_size:
        raise PlacementError(
            f"job {app_id}: window S={window} needs {window} distinct aggregators but the "
            f"pool has only P={pool_size}")
    if pool_size > 0xFFFF + 1:
        raise PlacementError(f"pool size P={pool_size} does not fit the 16-bit agtr field")
    taken: set[int] = set()
    indexes = []
    for slot in range(window):
        salt = 0
        index = aggregator_hash(app_id, slot, salt, pool_size)
        while index in taken:
            salt += 1
            index = aggregator_hash(app_id, slot, salt, pool_size)
        taken.add(index)
        indexes.append(index)
    return indexes
