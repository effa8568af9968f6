"""BfRuntime's ``RegisterParam`` table (a TNA ``RegisterParam<T>``): its bfrt.json as
bf-p4c writes it and its handlers on the softswitch.

bf-p4c (golden tests/softswitch/data/bf-p4c/register_param.bfrt.json): table
``pipe.<Control>.<param>``, type ``RegisterParam``, id prefix 0x8d, size 1, no key, one
mandatory data field ``value`` (id 1, ``bytes`` of T's width, ``default_value`` the
initial value), ``depends_on`` the registers whose RegisterActions read it. bf_switchd
serves it as a default entry: set (INSERT/MODIFY/INSERT_OR_MODIFY), read, and reset
(DELETE/RESET) to the initial value.
"""
from __future__ import annotations

from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import TableInfo, encode_int

from .data_fields import fields_by_name
from .errors import bad_request as _bad

U = pb.Update
PREFIX_REGISTER_PARAM = 0x8D
TABLE_TYPE = "RegisterParam"


def register_param_tables(program, pipe: str, ids, register_prefix: int) -> list[dict]:
    out = []
    for _pyname, kind, spec in program.objects:
        if kind != "register_param":
            continue
        name = f"{pipe}.{spec.name}"
        typ = {"type": "bytes", "width": spec.width,
               "default_value": spec.init & ((1 << spec.width) - 1)}
        out.append({
            "name": name, "id": ids.get(PREFIX_REGISTER_PARAM, name), "table_type": TABLE_TYPE,
            "size": 1, "annotations": [],
            "depends_on": [ids.get(register_prefix, f"{pipe}.{r}") for r in spec.registers],
            "key": [],
            "data": [{"mandatory": True, "read_only": False,
                      "singleton": {"id": 1, "name": "value", "repeated": False,
                                    "annotations": [], "type": typ}}],
            "attributes": [], "supported_operations": []})
    return out


def write_register_param(param, t: TableInfo, typ, te: pb.TableEntry) -> None:
    if te.HasField("key") and te.key.fields:
        raise _bad(f"table {t.name} has no key: write its default entry")
    if typ in (U.DELETE, U.RESET):
        param.reset()
        return
    fields = fields_by_name(t, te)
    if "value" not in fields:
        raise _bad(f"table {t.name}: {U.Type.Name(typ)} needs the data field 'value'")
    w = param.spec.width
    v = fields["value"]
    param.set(v - (1 << w) if param.spec.signed and v >> (w - 1) else v)


def read_register_param(param, t: TableInfo, te: pb.TableEntry):
    ent = pb.Entity()
    out = ent.table_entry
    out.table_id = t.id
    out.is_default_entry = True
    df = out.data.fields.add()
    df.field_id = t.data["value"].id
    w = param.spec.width
    df.stream = encode_int(param.value & ((1 << w) - 1), w)
    yield ent
