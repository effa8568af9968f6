"""Spec section 1: aggregator placement by CRC-32 of (app_id, slot, salt): the low 16
bits of the CRC, then mod P; salt_lo counts 0..254 and then carries into salt_hi."""

from __future__ import annotations

import zlib

import pytest

from reference.placement import PlacementError, aggregator_hash, slot_indexes


def crc32_by_hand(data: bytes) -> int:
    """Reflected CRC-32, polynomial 0xEDB88320, init 0xffffffff, final xor."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


@pytest.mark.rule("1")
def test_crc_oracle_is_the_standard_one():
    assert crc32_by_hand(b"123456789") == 0xCBF43926  # the CRC-32 check value
    assert crc32_by_hand(b"123456789") == zlib.crc32(b"123456789")


def index_by_hand(data: bytes, pool_size: int) -> int:
    return (crc32_by_hand(data) & 0xFFFF) % pool_size


@pytest.mark.rule("1")
def test_index_is_low_16_bits_of_crc32_of_lo_hi_bytes_mod_p():
    # app_id 0x0102, slot 0x0304, salt 5 -> bytes 02 01 04 03 05 00
    data = bytes([0x02, 0x01, 0x04, 0x03, 0x05, 0x00])
    assert aggregator_hash(0x0102, 0x0304, 5, 20000) == index_by_hand(data, 20000)
    assert aggregator_hash(1, 0, 0, 20000) == index_by_hand(bytes([1, 0, 0, 0, 0, 0]), 20000)
    assert aggregator_hash(1, 0, 0, 1) == 0


@pytest.mark.rule("1")
def test_low_16_bits_before_the_modulo_matter():
    # crc32(01 00 00 00 00 00) = 0x7a9e7206: the whole CRC mod 20000 would be 4230;
    # its low 16 bits 0x7206 = 29190, mod 20000 = 9190
    data = bytes([1, 0, 0, 0, 0, 0])
    assert crc32_by_hand(data) == 0x7A9E7206
    assert aggregator_hash(1, 0, 0, 20000) == 9190


@pytest.mark.rule("1")
@pytest.mark.parametrize("salt, lo, hi", [(0, 0, 0), (254, 254, 0), (255, 0, 1),
                                          (256, 1, 1), (509, 254, 1), (510, 0, 2)])
def test_salt_lo_counts_to_254_then_carries_into_salt_hi(salt, lo, hi):
    data = bytes([7, 0, 2, 0, lo, hi])
    assert aggregator_hash(7, 2, salt, 20000) == index_by_hand(data, 20000)


@pytest.mark.rule("1")
def test_slot_table_without_conflict_uses_salt_zero():
    got = slot_indexes(3, 4, 20000)
    expected = [index_by_hand(bytes([3, 0, s, 0, 0, 0]), 20000) for s in range(4)]
    assert len(set(expected)) == 4  # no intra-job conflict for this case
    assert got == expected


def table_by_hand(app_id, S, P, salts=None):
    """The slot table, probing salt_lo 0..254 before salt_hi moves (the release's
    loop); ``salts`` collects the salt each slot ended with."""
    taken, expected = set(), []
    for slot in range(S):
        lo = hi = 0
        while True:
            idx = index_by_hand(bytes([app_id & 0xFF, app_id >> 8, slot & 0xFF, slot >> 8,
                                       lo, hi]), P)
            if idx not in taken:
                break
            lo += 1
            if lo == 255:
                lo, hi = 0, hi + 1
        taken.add(idx)
        expected.append(idx)
        if salts is not None:
            salts.append((lo, hi))
    return expected


@pytest.mark.rule("1")
@pytest.mark.parametrize("app_id", [3, 4, 7, 8, 300])
def test_salt_increments_on_intra_job_conflict(app_id):
    # with a tiny pool conflicts are certain; the table is computed by hand
    P = S = 5
    got = slot_indexes(app_id, S, P)
    assert got == table_by_hand(app_id, S, P)
    assert sorted(got) == [0, 1, 2, 3, 4]
    # and at least one slot needed a non-zero salt
    assert any(aggregator_hash(app_id, s, 0, P) != got[s] for s in range(S))


@pytest.mark.rule("1")
def test_larger_window_with_conflicts():
    assert slot_indexes(9, 40, 64) == table_by_hand(9, 40, 64)


@pytest.mark.rule("1")
def test_a_full_pool_needs_salt_hi():
    """S = P = 600: the last slots find their free index only after more than 255
    probes, so salt_hi is used."""
    salts = []
    expected = table_by_hand(5, 600, 600, salts)
    assert max(hi for _, hi in salts) >= 1
    assert slot_indexes(5, 600, 600) == expected


@pytest.mark.rule("1")
def test_window_larger_than_pool_raises():
    with pytest.raises(PlacementError) as info:
        slot_indexes(1, 9, 8)
    assert "S=9" in str(info.value) and "P=8" in str(info.value)
    assert slot_indexes(1, 8, 8) and sorted(slot_indexes(1, 8, 8)) == list(range(8))


@pytest.mark.rule("1")
def test_pool_must_fit_agtr_field():
    with pytest.raises(PlacementError):
        slot_indexes(1, 1, 0x10001)
