"""Names to ids: the parsed ``bfrt.json`` of a program plus the device's fixed tables.

A BfRuntime client never sends a name on the wire: it looks the table, key field,
action and data field up in the schema the switch hands out with
GetForwardingPipelineConfig and sends their numeric ids. This module reads that
schema (the format bf-p4c writes; see ``p4sim/switchd/bfrt_schema.py`` for where the
format is documented) and resolves names the way the SDE's client does: the full name
(``pipe.Ingress.forward``) or any unique dot-separated suffix of it (``Ingress.forward``,
``forward``).

Integers travel as big-endian byte strings of the field's byte width
(:func:`encode_int` / :func:`decode_int`); negative numbers are sent in two's complement
of the field's bit width.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable

# widths of the fixed-width types bf-p4c and the SDE use in bfrt.json
_TYPE_WIDTHS = {"uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64,
                "int8": 8, "int16": 16, "int32": 32, "int64": 64, "bool": 1}


class SchemaError(ValueError):
    """A bfrt.json that cannot be used, or a name it does not contain."""


def encode_int(value: int, width: int, what: str = "value") -> bytes:
    """``value`` as ``ceil(width/8)`` big-endian bytes (two's complement if negative)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise SchemaError(f"{what}: expected an integer, got {type(value).__name__} {value!r}")
    if value < 0:
        if value < -(1 << (width - 1)):
            raise SchemaError(f"{what}: {value} does not fit in {width} bits")
        value &= (1 << width) - 1
    if value >> width:
        raise SchemaError(f"{what}: {value} does not fit in {width} bits "
                          f"(maximum {(1 << width) - 1})")
    return value.to_bytes((width + 7) // 8, "big")


def decode_int(data: bytes) -> int:
    return int.from_bytes(data, "big") if data else 0


def _width_of(type_json: dict | None) -> int:
    if not type_json:
        return 0
    t = type_json.get("type")
    if t == "bytes":
        return int(type_json["width"])
    return _TYPE_WIDTHS.get(t, 0)


@dataclass(frozen=True)
class KeyFieldInfo:
    name: str
    id: int
    match_type: str       # "Exact", "Ternary", "LPM", "Range", "Optional"
    type: str             # "bytes", "uint32", ...
    width: int            # bits
    mandatory: bool


@dataclass(frozen=True)
class DataFieldInfo:
    name: str
    id: int
    type: str             # "bytes", "uint64", "bool", "string", ...
    width: int            # bits (0 for strings)
    repeated: bool
    mandatory: bool
    read_only: bool
    annotations: tuple = ()

    @property
    def is_register_data(self) -> bool:
        return ("$bfrt_field_class", "register_data") in self.annotations


@dataclass
class ActionInfo:
    name: str
    id: int
    scope: str            # "TableAndDefault", "TableOnly", "DefaultOnly"
    fields: dict[str, DataFieldInfo] = field(default_factory=dict)

    def field_by_id(self, fid: int) -> DataFieldInfo | None:
        for f in self.fields.values():
            if f.id == fid:
                return f
        return None


def _resolve(names: Iterable[str], wanted: str, what: str, where: str) -> str:
    """The full name among ``names`` that ``wanted`` is, or a unique dotted suffix of."""
    names = list(names)
    if wanted in names:
        return wanted
    hits = [n for n in names if n.endswith("." + wanted)]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise SchemaError(f"{what} name {wanted!r} is ambiguous in {where}: {sorted(hits)}")
    raise SchemaError(f"no {what} {wanted!r} in {where}; known: {sorted(names)}")


@dataclass
class TableInfo:
    name: str
    id: int
    table_type: str
    size: int
    keys: list[KeyFieldInfo]
    actions: dict[str, ActionInfo]
    data: dict[str, DataFieldInfo]        # common data fields (registers, counters, ...)
    attributes: tuple = ()
    operations: tuple = ()
    has_const_default_action: bool = False

    def key(self, name: str) -> KeyFieldInfo:
        full = _resolve([k.name for k in self.keys], name, "key field", f"table {self.name}")
        return next(k for k in self.keys if k.name == full)

    def key_by_id(self, fid: int) -> KeyFieldInfo | None:
        return next((k for k in self.keys if k.id == fid), None)

    def action(self, name: str) -> ActionInfo:
        return self.actions[_resolve(self.actions, name, "action", f"table {self.name}")]

    def action_by_id(self, aid: int) -> ActionInfo | None:
        return next((a for a in self.actions.values() if a.id == aid), None)

    def data_field(self, name: str, action: ActionInfo | None = None) -> DataFieldInfo:
        """An action's parameter (if ``action``) or a common data field, by name."""
        if action is not None and (name in action.fields or any(
                n.endswith("." + name) for n in action.fields)):
            return action.fields[_resolve(action.fields, name, "data field",
                                          f"action {action.name} of table {self.name}")]
        return self.data[_resolve(self.data, name, "data field", f"table {self.name}")]

    def data_field_by_id(self, fid: int, action: ActionInfo | None = None) -> DataFieldInfo | None:
        if action is not None:
            f = action.field_by_id(fid)
            if f is not None:
                return f
        return next((f for f in self.data.values() if f.id == fid), None)

    @property
    def is_const(self) -> bool:
        return "ConstTable" in self.attributes


def _parse_data(item: dict) -> DataFieldInfo:
    # bf-p4c wraps common data fields as {"mandatory", "read_only", "singleton": {...}};
    # action parameters are flat
    inner = item.get("singleton", item)
    anns = tuple((a.get("name"), a.get("value", "")) for a in inner.get("annotations", []))
    t = inner.get("type") or {}
    return DataFieldInfo(name=inner["name"], id=int(inner["id"]), type=t.get("type", ""),
                         width=_width_of(t), repeated=bool(inner.get("repeated", False)),
                         mandatory=bool(item.get("mandatory", inner.get("mandatory", False))),
                         read_only=bool(item.get("read_only", inner.get("read_only", False))),
                         annotations=anns)


def _parse_table(tj: dict) -> TableInfo:
    keys = []
    for k in tj.get("key", []):
        t = k.get("type") or {}
        keys.append(KeyFieldInfo(name=k["name"], id=int(k["id"]), match_type=k["match_type"],
                                 type=t.get("type", ""), width=_width_of(t),
                                 mandatory=bool(k.get("mandatory", False))))
    actions = {}
    for a in tj.get("action_specs", []):
        fields = {d["name"]: _parse_data(d) for d in a.get("data", [])}
        actions[a["name"]] = ActionInfo(a["name"], int(a["id"]),
                                        a.get("action_scope", "TableAndDefault"), fields)
    data = {}
    for d in tj.get("data", []):
        # a oneof (an indirect selector table's $ACTION_MEMBER_ID | $SELECTOR_GROUP_ID):
        # each choice is a data field of its own; an entry sends one of them
        for choice in ([dict(c, mandatory=False) for c in d["oneof"]] if "oneof" in d else [d]):
            f = _parse_data(choice)
            data[f.name] = f
    return TableInfo(name=tj["name"], id=int(tj["id"]), table_type=tj.get("table_type", ""),
                     size=int(tj.get("size", 0)), keys=keys, actions=actions, data=data,
                     attributes=tuple(tj.get("attributes", [])),
                     operations=tuple(tj.get("supported_operations", [])),
                     has_const_default_action=bool(tj.get("has_const_default_action", False)))


class BfrtInfo:
    """All tables a client can name on one program: the program's own (``bfrt.json``)
    and the device's fixed ones (``$pre.*``, ``$PORT``, ...)."""

    def __init__(self, p4_name: str, program_json: bytes | str | dict,
                 fixed_json: bytes | str | dict | None = None):
        self.p4_name = p4_name
        self.tables: dict[str, TableInfo] = {}
        for source, what in ((program_json, "program bfrt.json"), (fixed_json, "fixed tables")):
            if source is None or source in (b"", ""):
                continue
            doc = self._load(source, what)
            for tj in doc.get("tables", []):
                try:
                    t = _parse_table(tj)
                except (KeyError, TypeError, ValueError) as e:
                    raise SchemaError(f"{what}: table {tj.get('name', '?')!r} is malformed "
                                      f"({type(e).__name__}: {e})") from None
                self.tables[t.name] = t
        self._by_id = {t.id: t for t in self.tables.values()}

    @staticmethod
    def _load(source: Any, what: str) -> dict:
        if isinstance(source, dict):
            return source
        try:
            doc = json.loads(source)
        except (ValueError, UnicodeDecodeError) as e:
            raise SchemaError(f"{what} is not JSON: {e}") from None
        if not isinstance(doc, dict) or not isinstance(doc.get("tables"), list):
            raise SchemaError(f"{what} has no 'tables' list (is it a bfrt.json?)")
        return doc

    def table(self, name: str) -> TableInfo:
        return self.tables[_resolve(self.tables, name, "table", f"program {self.p4_name}")]

    def table_by_id(self, tid: int) -> TableInfo | None:
        return self._by_id.get(tid)

    def table_names(self, table_type: str | None = None) -> list[str]:
        return sorted(n for n, t in self.tables.items()
                      if table_type is None or t.table_type == table_type)
