"""Where a job's slots live in the aggregator pool (spec section 1), and which slot a
packet uses (:func:`slot_of`, the one owner of that rule).

Slot ``(seq - 1) % S`` maps to ``(crc32(app_id_lo, app_id_hi, slot_lo, slot_hi, salt_lo,
salt_hi) & 0xFFFF) mod P``: the release keeps only the low 16 bits of the CRC before the
modulo. The salt grows from 0 until the index is not taken by an earlier slot of the
same job; as in the release's host code, ``salt_lo`` counts 0..254 and then carries
into ``salt_hi`` (so salt ``n`` is written as the bytes ``n % 255, n // 255``). zlib's
CRC-32 is the standard reflected one (init and final xor 0xffffffff).
"""

from __future__ import annotations

import zlib

SALT_LO_LIMIT = 255                   # salt_lo counts 0..254, then carries
MAX_SALT = SALT_LO_LIMIT * 256 - 1    # salt_hi is one byte: 65279 probes at most


class PlacementError(ValueError):
    """A window that cannot be placed in the pool."""


def salt_bytes(salt: int) -> bytes:
    """``salt_lo, salt_hi`` of the ``salt``-th probe (salt_lo counts 0..254)."""
    return bytes((salt % SALT_LO_LIMIT, salt // SALT_LO_LIMIT))


def aggregator_hash(app_id: int, slot: int, salt: int, pool_size: int) -> int:
    """One hash probe: the pool index for (app_id, slot, salt)."""
    data = bytes((app_id & 0xFF, (app_id >> 8) & 0xFF, slot & 0xFF, (slot >> 8) & 0xFF)
                 ) + salt_bytes(salt)
    return (zlib.crc32(data) & 0xFFFF) % pool_size


def slot_of(position: int, window: int) -> int:
    """The slot (0..S-1) of the job's packet at ``position``: ``(position - 1) % S``.

    ``position`` is the packet's seq before wrapping: the job's first seq plus the packets
    sent before it, counted across tensors, iterations and laps. Decision D26 (the spec
    says ``(seq - 1) % S``, silent on the wrap): on the wire seq a job crossing
    65535 -> 1 with S not dividing 65535 would jump back to slot 0 mid-window and put two
    seqs in flight on one slot, and a collision remap of that slot then leaked the other
    one's aggregator (fixtures/corpus/counterexamples/wrap_shared_slot_leaks_aggregator).
    Counted on the position, consecutive packets always take consecutive slots, so the S
    seqs a sliding window admits never share one; before the wrap it is the wire seq's
    rule. Under the release's per-tensor seq (9.7) the position restarts with every
    tensor, as the seq does."""
    return (position - 1) % window


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
            if salt > MAX_SALT:
                raise PlacementError(
                    f"job {app_id}: slot {slot} found no free index in {MAX_SALT + 1} "
                    f"salted probes (window S={window} too close to the pool P="
                    f"{pool_size}); use a smaller window or a larger pool")
            index = aggregator_hash(app_id, slot, salt, pool_size)
        taken.add(index)
        indexes.append(index)
    return indexes
