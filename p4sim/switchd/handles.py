"""Entry handles of match-action tables, as bf_switchd's server serves them:
``Read(Entity.handle{table_id, key})`` answers ``HandleId{table_id, handle_id}`` (the SDE
client's ``handle_get``), and a ``TableEntry`` read with ``handle_id`` instead of a key
answers that entry, key and data (``entry_get(..., handle=h)``; with the ``key_only``
flag, the key alone). An unknown key or handle is NOT_FOUND; a handle read without a
key is INVALID_ARGUMENT, as in bf_switchd's ``read_handle``.

The softswitch's handle of an entry is its insertion number in its table plus one
(p4sim's ``Entry.seq``): unique in the table, kept by MODIFY, never reused after a
DELETE (bf_switchd's handles are the driver's entry handles: also stable for an entry's
life; their values differ, which a client cannot rely on).
"""

from __future__ import annotations

import grpc

from bfruntime import bfruntime_pb2 as pb

from .errors import DeviceError, bad_request


def handle_of(entry) -> int:
    return entry.seq + 1


def entry_by_handle(table_name: str, p4t, handle: int):
    """The entry of p4sim table ``p4t`` with ``handle``; NOT_FOUND when there is none."""
    for e in p4t.entries.values():
        if handle_of(e) == handle:
            return e
    raise DeviceError(grpc.StatusCode.NOT_FOUND,
                      f"table {table_name}: no entry with handle {handle}")


def handle_entity(table_id: int, entry) -> pb.Entity:
    ent = pb.Entity()
    ent.handle.table_id = table_id
    ent.handle.handle_id = handle_of(entry)
    return ent


def check_handle_request(table_name: str, hid: pb.HandleId) -> None:
    if hid.WhichOneof("value") != "key" or not hid.key.fields:
        raise bad_request(f"table {table_name}: a handle read needs the entry's key")


def key_only(ent: pb.Entity) -> pb.Entity:
    """``ent`` without its data, flagged ``key_only`` as bf_switchd answers."""
    ent.table_entry.ClearField("data")
    ent.table_entry.table_flags.key_only = True
    return ent
