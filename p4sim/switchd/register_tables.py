"""BfRuntime's ``Register`` tables on the softswitch: a register's cells by index, one
data field per register field.

Decisions where BfRuntime leaves room: DELETE/RESET of an index (of every index without
a key) puts cells back to their initial values; a read without a key returns every
index. The softswitch is one pipe, so a read returns one value per register field
where bf_switchd returns one per pipe of the table's scope (an SDE test expecting
``[v] * num_pipes`` sees ``[v]``, with ``num_pipes`` 1 in ``device_configuration.py``).
"""

from __future__ import annotations

import grpc

from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import TableInfo, encode_int

from .data_fields import field_int, to_signed
from .errors import DeviceError, bad_request as _bad
from .index_key import index_entities, index_of

U = pb.Update


def write(reg, t: TableInfo, typ, te: pb.TableEntry) -> None:
    """One Update of register ``reg`` (p4sim's): an index's fields, or (DELETE/RESET)
    cells back to their initial values."""
    idx = index_of(t, te, size=reg.size)
    if idx is None:
        if typ in (U.DELETE, U.RESET):
            reg.reset()
            return
        raise _bad(f"register {t.name}: {U.Type.Name(typ)} needs key {t.keys[0].name}")
    if typ in (U.DELETE, U.RESET):
        reg.write(idx, reg.spec.init[0] if len(reg.spec.init) == 1 else reg.spec.init)
        return
    if typ not in (U.INSERT, U.MODIFY, U.INSERT_OR_MODIFY):
        raise DeviceError(grpc.StatusCode.UNIMPLEMENTED,
                          f"register {t.name}: {U.Type.Name(typ)} is not supported")
    cur = reg.read(idx)
    vals = dict(cur) if isinstance(cur, dict) else {None: cur}
    for df in te.data.fields:
        fi = t.data_field_by_id(df.field_id)
        if fi is None:
            raise _bad(f"register {t.name}: no data field with id {df.field_id} "
                       f"(fields: {[(f.name, f.id) for f in t.data.values()]})")
        member = fi.name.rsplit(".", 1)[1]
        spec_field = next((f for f in reg.spec.fields if (f[0] or "f1") == member), None)
        if spec_field is None:
            raise _bad(f"register {t.name}: field {fi.name} does not belong to it")
        v = field_int(df, fi.width, f"register {t.name} field {fi.name}")
        vals[spec_field[0]] = to_signed(v, fi.width) if spec_field[2] else v
    reg.write(idx, vals[None] if None in vals else vals)


def read(reg, t: TableInfo, te: pb.TableEntry):
    """The cells a read names (every index without a key), one data field per
    register field."""
    columns = [(fid, mask, size, d) for (fid, mask, size), d in zip(field_plan(t, reg.spec), reg.data)]
    for i, ent in index_entities(t, te, reg.size):
        fields = ent.table_entry.data.fields
        for fid, mask, size, d in columns:
            df = fields.add()
            df.field_id = fid
            df.stream = (d[i] & mask).to_bytes(size, "big")
        yield ent


_plans: dict[int, tuple] = {}


def field_plan(t: TableInfo, spec) -> list[tuple[int, int, int]]:
    """(data field id, value mask, bytes on the wire) per register field, worked out
    once per table and register (a closed loop reads ~35 registers after each segment)."""
    found = _plans.get(id(t))
    if found is None or found[0] is not t or found[1] is not spec:
        prefix = t.name.split(".", 1)[1]
        found = _plans[id(t)] = (t, spec, [
            (t.data[f"{prefix}.{f[0] or 'f1'}"].id, (1 << f[1]) - 1, (f[1] + 7) // 8)
            for f in spec.fields])
    return found[2]
