"""A TableEntry's data decoded against its table's schema: an action and its parameters
(match-action tables, action profile members), or data fields by name (the fixed tables,
selector groups, RegisterParam). One place, so that every table answers a missing action,
an unknown field id or a value too wide for its field the same way."""

from __future__ import annotations

from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import TableInfo, decode_int

from .errors import bad_request as _bad


def to_signed(v: int, width: int) -> int:
    """``v`` (``width`` bits on the wire) as the signed value p4sim stores."""
    return v - (1 << width) if v >> (width - 1) & 1 else v


def field_int(df: pb.DataField, width: int, what: str) -> int:
    """An integer data field (a byte stream), checked against ``width`` (0: any)."""
    if df.WhichOneof("value") != "stream":
        raise _bad(f"{what}: expected an integer (DataField.stream), got "
                   f"{df.WhichOneof('value') or 'nothing'}")
    v = decode_int(df.stream)
    if width and v >> width:
        raise _bad(f"{what}: value {v} does not fit in {width} bits")
    return v


def parse_action(t: TableInfo, p4t, data: pb.TableData, need_action: bool = True):
    """(action name, its parameters, other data fields by name) of ``data`` written to
    table ``t`` (p4sim object ``p4t``); (None, None, {}) when there is no action and
    none is needed (a MODIFY of an entry's other fields)."""
    if data.action_id == 0:
        if need_action:
            raise _bad(f"table {t.name}: TableData.action_id is missing; actions: "
                       f"{[(a.name, a.id) for a in t.actions.values()]}")
        return None, None, {}
    ai = t.action_by_id(data.action_id)
    if ai is None:
        raise _bad(f"table {t.name}: no action with id {data.action_id}; actions: "
                   f"{[(a.name, a.id) for a in t.actions.values()]}")
    spec = next(a for a in p4t.spec.actions if a.name == ai.name)
    signed = {p: s for p, _w, s in spec.params}
    params, extra = {}, {}
    for df in data.fields:
        fi = t.data_field_by_id(df.field_id, ai)
        if fi is None:
            raise _bad(f"table {t.name} action {ai.name}: no data field with id "
                       f"{df.field_id} (parameters: "
                       f"{[(f.name, f.id) for f in ai.fields.values()]})")
        if fi.type in ("string", "float"):      # a direct filter's spec (filters.py)
            extra[fi.name] = df.str_val if fi.type == "string" else df.float_val
            continue
        v = field_int(df, fi.width, f"table {t.name} action {ai.name} field {fi.name}")
        if fi.name in ai.fields:
            params[fi.name] = to_signed(v, fi.width) if signed.get(fi.name) else v
        else:
            extra[fi.name] = v
    return ai.name, params, extra


def fields_by_name(t: TableInfo, te: pb.TableEntry) -> dict:
    """The data fields of ``te`` by name: lists, bools, strings and integers as the
    schema types them."""
    out = {}
    for df in te.data.fields:
        fi = t.data_field_by_id(df.field_id)
        if fi is None:
            raise _bad(f"table {t.name}: no data field with id {df.field_id} "
                       f"(fields: {[(f.name, f.id) for f in t.data.values()]})")
        which = df.WhichOneof("value")
        if fi.repeated:
            if which == "int_arr_val":
                out[fi.name] = list(df.int_arr_val.val)
            elif which == "bool_arr_val":
                out[fi.name] = list(df.bool_arr_val.val)
            else:
                raise _bad(f"table {t.name} field {fi.name} is a list "
                           f"(int_arr_val/bool_arr_val), got {which}")
        elif fi.type == "bool":
            out[fi.name] = df.bool_val
        elif fi.type == "string":
            out[fi.name] = df.str_val
        else:
            out[fi.name] = field_int(df, fi.width, f"table {t.name} field {fi.name}")
    return out
