"""``Lpf`` and ``Wred`` tables over BfRuntime, as bf-p4c writes them and bf_switchd
serves them; the filters themselves are p4sim's (``p4sim/filters.py``).

Schema (bf-p4c's bfrt.json for ``tests/sde_ptf/ptf/lpf_wred/lpf_wred.p4``): an
``Lpf<T, I>`` is table ``<pipe>.<Control>.<name>`` of type ``Lpf``, id prefix 0x89, key
``$LPF_INDEX`` (65560), data ``$LPF_SPEC_TYPE`` (65567, string RATE/SAMPLE),
``$LPF_SPEC_GAIN_TIME_CONSTANT_NS`` (65568, float), ``$LPF_SPEC_DECAY_TIME_CONSTANT_NS``
(65569, float), ``$LPF_SPEC_OUT_SCALE_DOWN_FACTOR`` (65570, uint32); a ``Wred<T, I>`` is
type ``Wred``, prefix 0x87, key ``$WRED_INDEX`` (65561), data
``$WRED_SPEC_TIME_CONSTANT_NS`` (65571, float), ``$WRED_SPEC_MIN_THRESH_CELLS`` (65572,
uint32), ``$WRED_SPEC_MAX_THRESH_CELLS`` (65573, uint32), ``$WRED_SPEC_MAX_PROBABILITY``
(65574, float). Every data field is mandatory.

Behaviour: INSERT/MODIFY/INSERT_OR_MODIFY of an index configures that cell (its state
starts again); a field left out of a MODIFY keeps its value. DELETE/RESET unconfigures
the index (every index without a key); a read returns each cell's spec (every index
without a key; an unconfigured cell as ``p4sim/filters.py`` says).
"""

from __future__ import annotations

from dataclasses import dataclass

from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import TableInfo, decode_int, encode_int
from p4sim.errors import ControlPlaneError

from .errors import bad_request
from .index_key import index_entities, index_to_set


@dataclass(frozen=True)
class _Kind:
    table_type: str
    prefix: int
    index: tuple[str, int]
    fields: tuple[tuple[str, int, str], ...]    # (name, id, type) in the spec's order
    objects: str                                # the Switch's dict of them


LPF = _Kind("Lpf", 0x89, ("$LPF_INDEX", 65560),
            (("$LPF_SPEC_TYPE", 65567, "string"),
             ("$LPF_SPEC_GAIN_TIME_CONSTANT_NS", 65568, "float"),
             ("$LPF_SPEC_DECAY_TIME_CONSTANT_NS", 65569, "float"),
             ("$LPF_SPEC_OUT_SCALE_DOWN_FACTOR", 65570, "uint32")), "lpfs")
WRED = _Kind("Wred", 0x87, ("$WRED_INDEX", 65561),
             (("$WRED_SPEC_TIME_CONSTANT_NS", 65571, "float"),
              ("$WRED_SPEC_MIN_THRESH_CELLS", 65572, "uint32"),
              ("$WRED_SPEC_MAX_THRESH_CELLS", 65573, "uint32"),
              ("$WRED_SPEC_MAX_PROBABILITY", 65574, "float")), "wreds")
KINDS = {"lpf": LPF, "wred": WRED}
SPEC_FIELDS = {name: typ for k in KINDS.values() for name, _i, typ in k.fields}
BY_TABLE_TYPE = {k.table_type: k for k in KINDS.values()}


def _type_json(typ: str) -> dict:
    if typ == "string":
        return {"type": "string", "choices": ["RATE", "SAMPLE"]}
    return {"type": typ}


def spec_data_json(kind_name: str) -> list[dict]:
    """The spec fields of an Lpf/Wred cell as data of a table entry (a DirectLpf's or
    DirectWred's, named in the table's ``filters``): optional there."""
    return [{"mandatory": False, "read_only": False,
             "singleton": {"id": fid, "name": fname, "repeated": False, "annotations": [],
                           "type": _type_json(typ)}}
            for fname, fid, typ in KINDS[kind_name].fields]


def set_direct(t: TableInfo, p4t, e, extra: dict) -> None:
    """Configure entry ``e``'s direct filter cell from the spec fields written with it (a
    field left out keeps its value)."""
    if p4t.spec.direct_filter is None:
        return
    kind = KINDS[p4t.spec.direct_filter[0]]
    given = {n: extra[n] for n, _i, _t in kind.fields if n in extra}
    if not given:
        return
    unit = p4t.direct_filter
    spec = [given.get(n, v) for (n, _i, _t), v in zip(kind.fields, unit.get(e.filter))]
    try:
        e.filter = unit.cell(*spec)
    except ControlPlaneError as exc:
        raise bad_request(f"table {t.name}: {exc}") from None


def add_direct_fields(p4t, e, data: pb.TableData) -> None:
    """Entry ``e``'s direct filter spec as data fields of a read."""
    kind = KINDS[p4t.spec.direct_filter[0]]
    _add_fields(kind, p4t.direct_filter.get(e.filter), data)


def _add_fields(kind: _Kind, values, data: pb.TableData) -> None:
    for (_n, fid, ftyp), v in zip(kind.fields, values):
        df = data.fields.add()
        df.field_id = fid
        if ftyp == "string":
            df.str_val = v
        elif ftyp == "float":
            df.float_val = v
        else:
            df.stream = encode_int(v, 32)


def tables_json(program, pipe: str, ids) -> list[dict]:
    """The Lpf and Wred tables of ``program`` (sorted by name within each kind)."""
    out = []
    for obj_kind, kind in KINDS.items():
        specs = sorted((s for _p, k, s in program.objects if k == obj_kind),
                       key=lambda s: s.name)
        for spec in specs:
            name = f"{pipe}.{spec.name}"
            iname, iid = kind.index
            out.append({
                "name": name, "id": ids.get(kind.prefix, name), "table_type": kind.table_type,
                "size": spec.size, "annotations": [], "depends_on": [],
                "key": [{"id": iid, "name": iname, "repeated": False, "annotations": [],
                         "mandatory": True, "match_type": "Exact", "type": {"type": "uint32"}}],
                "data": [{"mandatory": True, "read_only": False,
                          "singleton": {"id": fid, "name": fname, "repeated": False,
                                        "annotations": [], "type": _type_json(typ)}}
                         for fname, fid, typ in kind.fields],
                "supported_operations": [], "attributes": []})
    return out


def objects(switch, t: TableInfo):
    """The p4sim Lpf/Wred behind table ``t``."""
    kind = BY_TABLE_TYPE[t.table_type]
    return getattr(switch, kind.objects)[t.name.split(".", 1)[1]]


def field_value(t: TableInfo, name: str, df: pb.DataField):
    """A spec field's value (``SPEC_FIELDS`` names its type)."""
    return _value(t, name, SPEC_FIELDS[name], df)


def _value(t: TableInfo, name: str, typ: str, df: pb.DataField):
    want = {"string": "str_val", "float": "float_val"}.get(typ, "stream")
    if df.WhichOneof("value") != want:
        raise bad_request(f"table {t.name} field {name}: expected {want}, got "
                          f"{df.WhichOneof('value') or 'nothing'}")
    if typ == "string":
        return df.str_val
    if typ == "float":
        return df.float_val
    v = decode_int(df.stream)
    if v >> 32:
        raise bad_request(f"table {t.name} field {name}: {v} does not fit in 32 bits")
    return v


def write(switch, t: TableInfo, typ, te: pb.TableEntry) -> None:
    kind = BY_TABLE_TYPE[t.table_type]
    obj = objects(switch, t)
    idx = index_to_set(t, te, typ, obj.reset, size=obj.size)
    if idx is None:
        return
    by_id = {fid: (fname, ftyp) for fname, fid, ftyp in kind.fields}
    given = {}
    for df in te.data.fields:
        if df.field_id not in by_id:
            raise bad_request(f"table {t.name}: no data field with id {df.field_id} (fields: "
                              f"{[(n, i) for n, i, _t in kind.fields]})")
        fname, ftyp = by_id[df.field_id]
        given[fname] = _value(t, fname, ftyp, df)
    if typ == pb.Update.INSERT:
        missing = [n for n, _i, _t in kind.fields if n not in given]
        if missing:
            raise bad_request(f"table {t.name}: INSERT needs every spec field; missing {missing}")
    current = obj.get(idx)
    spec = [given.get(n, v) for (n, _i, _t), v in zip(kind.fields, current)]
    try:
        obj.set(idx, *spec)
    except ControlPlaneError as e:
        raise bad_request(f"table {t.name}: {e}") from None


def read(switch, t: TableInfo, te: pb.TableEntry):
    kind = BY_TABLE_TYPE[t.table_type]
    obj = objects(switch, t)
    for i, ent in index_entities(t, te, obj.size):
        _add_fields(kind, obj.get(i), ent.table_entry.data)
        yield ent
