"""``$PORT_METADATA``: the ingress parser's per-port 64 bits over BfRuntime.

Schema (bf-p4c's bfrt.json for ``tests/sde_ptf/ptf/port_metadata/port_metadata.p4``
and for a program that only skips ``PORT_METADATA_SIZE``): table
``<pipe>.<IngressParser>.$PORT_METADATA`` of type ``PortMetadata``, id prefix 0x90, size
288 (Tofino 1's ports), key ``ig_intr_md.ingress_port`` (65575, 9 bits, mandatory). Its
data are the fields of the parser's ``port_metadata_unpack<T>`` type (ids from 1,
mandatory), or one 64-bit ``$DEFAULT_FIELD`` (65576) when the parser has none. bf-p4c
writes the table for every TNA program, and so does the softswitch.

Behaviour: p4sim's port metadata (``Switch.port_metadata_*``): a port without an entry
gives the parser zeros. INSERT of a port that has one is ALREADY_EXISTS; MODIFY keeps
the fields it does not name; DELETE/RESET of a port removes its entry (of the table
without a key: every entry); a read without a key returns every entry.
"""

from __future__ import annotations

import grpc

from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import TableInfo, decode_int, encode_int

from .errors import DeviceError, bad_request
from .index_key import index_of, index_to_set

PREFIX_PORT_METADATA = 0x90
PORT_KEY_ID = 65575
DEFAULT_FIELD_ID = 65576
DEFAULT_FIELD = "$DEFAULT_FIELD"
TABLE_SIZE = 288
PORT_KEY = "ig_intr_md.ingress_port"


def fields_of(program) -> list[tuple[str, int]]:
    """(name, width) of the table's data fields."""
    return list(program.port_md_fields or [(DEFAULT_FIELD, 64)])


def table_json(program, pipe: str, ids) -> dict:
    parser = program.block_names[0]
    name = f"{pipe}.{parser}.$PORT_METADATA"
    typed = program.port_md_fields is not None
    data = [{"mandatory": typed, "read_only": False,
             "singleton": {"id": i if typed else DEFAULT_FIELD_ID, "name": f, "repeated": False,
                           "annotations": [], "type": {"type": "bytes", "width": w}}}
            for i, (f, w) in enumerate(fields_of(program), start=1)]
    return {"name": name, "id": ids.get(PREFIX_PORT_METADATA, name),
            "table_type": "PortMetadata", "size": TABLE_SIZE, "annotations": [],
            "depends_on": [],
            "key": [{"id": PORT_KEY_ID, "name": PORT_KEY, "repeated": False,
                     "annotations": [], "mandatory": True, "match_type": "Exact",
                     "type": {"type": "bytes", "width": 9}}],
            "data": data, "supported_operations": [], "attributes": []}


def _as_dict(switch, port: int) -> dict[str, int]:
    """A port's entry by field name (the 64-bit word under ``$DEFAULT_FIELD``)."""
    v = switch.port_metadata_read(port)
    return v if isinstance(v, dict) else {DEFAULT_FIELD: int.from_bytes(v, "big")}


def write(switch, t: TableInfo, typ, te: pb.TableEntry) -> None:
    U = pb.Update

    def clear(p):
        if p is None:
            switch.port_metadata.clear()
        else:
            switch.port_metadata_delete(p)

    port = index_to_set(t, te, typ, clear, width=9)
    if port is None:
        return
    exists = port in switch.port_metadata
    if typ == U.INSERT and exists:
        raise DeviceError(grpc.StatusCode.ALREADY_EXISTS,
                          f"table {t.name}: port {port} already has an entry")
    if typ == U.MODIFY and not exists:
        raise DeviceError(grpc.StatusCode.NOT_FOUND, f"table {t.name}: no entry for port {port}")
    widths = dict(fields_of(switch.program))
    values = _as_dict(switch, port) if exists and typ != U.INSERT else {}
    for df in te.data.fields:
        fi = t.data_field_by_id(df.field_id)
        if fi is None or df.WhichOneof("value") != "stream":
            raise bad_request(f"table {t.name}: data field {df.field_id} is not one of "
                              f"{[(f.name, f.id) for f in t.data.values()]} as a byte stream")
        v = decode_int(df.stream)
        if v >> widths[fi.name]:
            raise bad_request(f"table {t.name} field {fi.name}: {v} does not fit in "
                              f"{widths[fi.name]} bits")
        values[fi.name] = v
    if DEFAULT_FIELD in widths:
        switch.port_metadata_set(port, values.get(DEFAULT_FIELD, 0))
    else:
        switch.port_metadata_set(port, values)


def read(switch, t: TableInfo, te: pb.TableEntry):
    port = index_of(t, te, width=9)
    ports = sorted(switch.port_metadata) if port is None else [port]
    for p in ports:
        values = _as_dict(switch, p)
        ent = pb.Entity()
        out = ent.table_entry
        out.table_id = t.id
        kf = out.key.fields.add()
        kf.field_id = PORT_KEY_ID
        kf.exact.value = encode_int(p, 9)
        for f, w in fields_of(switch.program):
            df = out.data.fields.add()
            df.field_id = t.data[f].id
            df.stream = encode_int(values[f], w)
        yield ent
