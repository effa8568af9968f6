"""Entry handles of match-action tables, as bf_switchd's server serves them:
``Read(Entity.handle{table_id, key})`` answers ``HandleId{table_id, handle_id}`` (the SDE
client's ``handle_get``), and a ``TableEntry`` read with ``handle_id`` instead of a key
answers that entry, key and data (``entry_get(..., handle=h)``; with the ``key_only``
flag, the key alone). An unknown key or handle is NOT_FOUND; a handle read without a
key is INVALID_ARGUMENT, as in bf_switchd's ``read_handle``.

The softswitch's handle of an entry is its insertion number in its table plus two
(p4sim's ``Entry.seq``): unique in the table, kept by MODIFY, never reused after a
DELETE (bf_switchd's handles are the driver's entry handles: also stable for an entry's
life; their values differ, which a client cannot rely on). Handle 1 is the default
entry's, as in bf_switchd (the SDE's tna_ternary_match reads it so).
"""

from __future__ import annotations

import grpc

from bfruntime import bfruntime_pb2 as pb

from .errors import DeviceError, bad_request


DEFAULT_ENTRY_HANDLE = 1


def handle_of(entry, place: tuple[int, int] = (1, 0)) -> int:
    """``place``: (the device's pipes, the lowest pipe of the scope the entry is in), so
    that a table's handles are unique across its pipes and one entry written to a scope
    of several pipes has one handle (pipe_scope.py)."""
    pipes, lowest = place
    return entry.seq * pipes + lowest + 2


def entry_by_handle(table_name: str, p4t, handle: int, place: tuple[int, int] = (1, 0),
                    from_hw: bool = True):
    """The entry of p4sim table ``p4t`` with ``handle`` (None: the default entry);
    NOT_FOUND when there is none; a handle of another pipe's scope is INVALID_ARGUMENT
    read from the hardware, NOT_FOUND from software (as bf_switchd answers)."""
    if handle == DEFAULT_ENTRY_HANDLE:
        return None
    pipes, lowest = place
    if pipes > 1 and handle >= 2 and (handle - 2) % pipes != lowest:
        raise DeviceError(grpc.StatusCode.INVALID_ARGUMENT if from_hw
                          else grpc.StatusCode.NOT_FOUND,
                          f"table {table_name}: handle {handle} is an entry of pipe "
                          f"{(handle - 2) % pipes}'s scope, not of this one (pipe {lowest}'s)")
    for e in p4t.entries.values():
        if handle_of(e, place) == handle:
            return e
    raise DeviceError(grpc.StatusCode.NOT_FOUND,
                      f"table {table_name}: no entry with handle {handle}")


def handle_entity(table_id: int, entry, place: tuple[int, int] = (1, 0)) -> pb.Entity:
    ent = pb.Entity()
    ent.handle.table_id = table_id
    ent.handle.handle_id = handle_of(entry, place)
    return ent


def check_handle_request(table_name: str, hid: pb.HandleId) -> None:
    if hid.WhichOneof("value") != "key" or not hid.key.fields:
        raise bad_request(f"table {table_name}: a handle read needs the entry's key")


def key_only(ent: pb.Entity) -> pb.Entity:
    """``ent`` without its data, flagged ``key_only`` as bf_switchd answers."""
    ent.table_entry.ClearField("data")
    ent.table_entry.table_flags.key_only = True
    return ent
