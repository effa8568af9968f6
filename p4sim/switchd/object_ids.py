"""``Read(Entity.object_id)``: the id of a table, one of its actions, key fields or data
fields, or of a learn object or one of its fields, by name. Tables resolve through the
device's :class:`bfruntime.info.BfrtInfo` and learn objects through its
``learn.LearnFilter``s: the schema it serves, so a name and its id cannot disagree.

Decisions: a learn object is found by BfRt's name or by p4sim's digest name; asking a
learn object for an action id is INVALID_ARGUMENT (it has none, as in bf_switchd);
other object kinds are UNIMPLEMENTED.
"""

from __future__ import annotations

import grpc

from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import BfrtInfo

from .errors import DeviceError, bad_request as _bad
from .learn import LearnFilter


def read_object_id(info: BfrtInfo, learns: dict[str, LearnFilter],
                   oid: pb.ObjectId) -> pb.Entity:
    """The answer to one ObjectId request: the request with its ``id`` filled in."""
    if oid.WhichOneof("object") == "learn_object":
        i = _learn_object_id(learns, oid.learn_object)
    elif oid.WhichOneof("object") != "table_object":
        raise DeviceError(grpc.StatusCode.UNIMPLEMENTED,
                          "only table and learn object ids are served")
    else:
        i = _table_object_id(info, oid.table_object)
    ent = pb.Entity()
    ent.object_id.CopyFrom(oid)
    ent.object_id.id = i
    return ent


def _table_object_id(info: BfrtInfo, to) -> int:
    t = info.table(to.table_name)
    names = to.WhichOneof("names")
    if names is None:
        return t.id
    if names == "action_name":
        return t.action(to.action_name.action).id
    if names == "key_field_name":
        return t.key(to.key_field_name.field).id
    d = to.data_field_name
    return t.data_field(d.field, t.action(d.action) if d.action else None).id


def _learn_object_id(learns: dict[str, LearnFilter], lo) -> int:
    """A learn object's id, or one of its fields' (bf_switchd: no actions there)."""
    lf = next((f for f in learns.values() if lo.learn_name in (f.name, f.digest)), None)
    if lf is None:
        raise DeviceError(grpc.StatusCode.NOT_FOUND,
                          f"no learn object {lo.learn_name!r}; learn objects: "
                          f"{sorted(f.name for f in learns.values())}")
    if lo.data_field_name.action:
        raise _bad("action ids are not applicable to learn objects")
    if not lo.data_field_name.field:
        return lf.id
    i = next((fid for fid, n, _w in lf.fields if n == lo.data_field_name.field), None)
    if i is None:
        raise DeviceError(grpc.StatusCode.NOT_FOUND,
                          f"learn object {lf.name} has no field "
                          f"{lo.data_field_name.field!r}; fields: "
                          f"{[n for _i, n, _w in lf.fields]}")
    return i
