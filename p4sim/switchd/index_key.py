"""The key of the tables addressed by one exact field (registers, counters, meters, Lpf,
Wred, ``$PORT_METADATA``; with ``fixed_key``, the PRE, ``$PORT`` and action profile
tables): parsed and checked in one place so that every such table answers a bad key
the same way."""

from __future__ import annotations

import grpc

from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import TableInfo, decode_int, encode_int

from .errors import DeviceError, bad_request


def index_of(t: TableInfo, te: pb.TableEntry, *, size: int | None = None,
             width: int | None = None) -> int | None:
    """The entry's index (None when the entry has no key: the whole table). A key that
    is not the table's one exact field is INVALID_ARGUMENT, an index at or past ``size``
    OUT_OF_RANGE, one wider than ``width`` bits INVALID_ARGUMENT."""
    if not (te.HasField("key") and te.key.fields):
        return None
    k = t.keys[0]
    kf = te.key.fields[0]
    if len(te.key.fields) != 1 or kf.field_id != k.id or kf.WhichOneof("match_type") != "exact":
        raise bad_request(f"table {t.name}: the key is one exact field {k.name} (id {k.id})")
    i = decode_int(kf.exact.value)
    if size is not None and i >= size:
        raise DeviceError(grpc.StatusCode.OUT_OF_RANGE,
                          f"table {t.name}: index {i} outside 0..{size - 1}")
    if width is not None and i >> width:
        raise bad_request(f"table {t.name}: {k.name} {i} does not fit in {width} bits")
    return i


SETTING = (pb.Update.INSERT, pb.Update.MODIFY, pb.Update.INSERT_OR_MODIFY)


def index_to_set(t: TableInfo, te: pb.TableEntry, typ, clear, *, size: int | None = None,
                 width: int | None = None) -> int | None:
    """A write to such a table: DELETE/RESET call ``clear(index, or None for the whole
    table)`` and give None; INSERT/MODIFY/INSERT_OR_MODIFY give the index to set, which
    they must name; other update types are UNIMPLEMENTED."""
    U = pb.Update
    i = index_of(t, te, size=size, width=width)
    if typ in (U.DELETE, U.RESET):
        clear(i)
        return None
    if typ not in SETTING:
        raise DeviceError(grpc.StatusCode.UNIMPLEMENTED,
                          f"table {t.name}: {U.Type.Name(typ)} is not supported")
    if i is None:
        raise bad_request(f"table {t.name}: {U.Type.Name(typ)} needs key {t.keys[0].name}")
    return i


def index_entities(t: TableInfo, te: pb.TableEntry, size: int):
    """A read of such a table: ``(index, answer)`` for the index the entry names (every
    index without a key), the answer an Entity with the table id and key filled in."""
    i = index_of(t, te, size=size)
    table_id, key_id = t.id, t.keys[0].id
    for j in (range(size) if i is None else (i,)):
        ent = pb.Entity()
        answer = ent.table_entry
        answer.table_id = table_id
        kf = answer.key.fields.add()
        kf.field_id = key_id
        kf.exact.value = j.to_bytes(4, "big")      # an index: 32 bits
        yield j, ent


def fixed_key(t: TableInfo, te: pb.TableEntry) -> int | None:
    """The key of a fixed or action profile table's entry, checked against the key
    field's own width (None without a key: the whole table). Unlike ``index_of`` it has
    no size to check and reads the first key field only."""
    if not (te.HasField("key") and te.key.fields):
        return None
    kf = te.key.fields[0]
    k = t.keys[0]
    if kf.field_id != k.id or kf.WhichOneof("match_type") != "exact":
        raise bad_request(f"table {t.name}: the key is one exact field {k.name} (id {k.id})")
    v = decode_int(kf.exact.value)
    if v >> k.width:
        raise bad_request(f"table {t.name}: {k.name} {v} does not fit in {k.width} bits")
    return v


def fixed_entity(t: TableInfo, key: int) -> pb.Entity:
    """A read's answer for ``key`` of such a table: table id and key filled in."""
    ent = pb.Entity()
    ent.table_entry.table_id = t.id
    kf = ent.table_entry.key.fields.add()
    kf.field_id = t.keys[0].id
    kf.exact.value = encode_int(key, t.keys[0].width)
    return ent
