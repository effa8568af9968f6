"""The ``bfrt.json`` of a p4sim program, in bf-p4c's schema and naming.

A BfRuntime client resolves every name through this document, so it must say what
bf-p4c would say for the same program. Where the format comes from:

- bf-p4c's writer, p4lang/p4c ``backends/tofino/bf-p4c/control-plane/bfruntime.{h,cpp}``
  and ``bfruntime_ext.cpp``: ids are ``prefix << 24 | (hash & 0xffffff)`` (P4Runtime's
  symbol table hashes the fully qualified name with Jenkins' one-at-a-time hash); fixed
  data-field ids count up from ``1 << 16`` (``$MATCH_PRIORITY`` 65537,
  ``$COUNTER_SPEC_BYTES`` 65553, ``$COUNTER_SPEC_PKTS`` 65554, ``$COUNTER_INDEX`` 65556,
  ``$REGISTER_INDEX`` 65557); register data fields are ``<Control>.<reg>.f1`` (a
  scalar) or ``<Control>.<reg>.<member>`` with annotation ``$bfrt_field_class =
  register_data``.
- the bfrt.json bf-p4c writes for tests/p4sim/programs/*.p4 (compared field by field in
  tests/softswitch/test_bfrt_schema.py): table ``pipe.<Control>.<table>`` (``pipe`` is
  the Pipeline instance), prefixes 0x02 match tables, 0x01 actions, 0x8b registers,
  0x83 counters; a table's default size is 512; ternary and range tables get a
  ``$MATCH_PRIORITY`` key; ``@defaultonly`` / ``@tableonly`` actions are ``DefaultOnly`` /
  ``TableOnly``; const entries give attribute ``ConstTable``.
- the fixed tables (``$pre.mgid``, ``$pre.node``, ``$PORT``, ``$PORT_STAT``,
  ``$PORT_STR_INFO``, ``tf1.dev.device_configuration``): names, ids and field ids of the SDE's
  bf_rt_pre_tf1.json / bf_rt_port_tf1.json / bf_rt_dev_tf1.json (open-p4studio,
  bf-drivers); only the fields the softswitch implements are listed.

Action profiles and selectors (``Action``, ``Selector``, ``SelectorGetMember`` and the
indirect match tables) are written by ``bfrt_profiles.py``, ``RegisterParam`` tables by
``register_param_table.py``, both compared with bf-p4c's goldens like the rest.

The schema does not lie: every attribute a table lists (``EntryScope`` on match tables,
``port_status_notif_cb`` on ``$PORT``) and every operation (``Sync`` on registers and
counters, ``SyncCounters`` on a table with a direct counter) is served
(``p4sim/switchd/attributes.py``, ``server.py``).

Not written (the softswitch has nothing behind them): bf-p4c's internal tables
(``pipe.snapshot.*``, ``tbl_dbg_counter``). Learn filters (digests): ``learn.py``;
meters: ``meters.py``; Lpf and Wred: ``filters.py``; ``pipe.<Parser>.$PORT_METADATA``:
``port_metadata.py``. Differences from bf-p4c that p4sim's program
model forces: objects renamed with ``@name`` keep their declared name (and with a p4sim
that does not record a counter's CounterType, both counter fields are listed).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from . import filters, meters, mirror_cfg, port_metadata
from .learn import learn_filters
from .bfrt_profiles import make_indirect, profile_tables
from .register_param_table import register_param_tables

# id prefixes of bf-p4c (P4Info ids for tables/actions, Tofino extension ids otherwise)
PREFIX_ACTION = 0x01
PREFIX_TABLE = 0x02
PREFIX_COUNTER = 0x83
PREFIX_REGISTER = 0x8B

MATCH_PRIORITY_ID = 65537
COUNTER_SPEC_BYTES_ID = 65553
COUNTER_SPEC_PKTS_ID = 65554
DIRECT_REGISTER_ID_BASE = 65600     # a direct register's fields in its table's data
# what marks a register's data field (one value per pipe; the SDE client lists them)
REGISTER_DATA = {"name": "$bfrt_field_class", "value": "register_data"}
COUNTER_INDEX_ID = 65556
REGISTER_INDEX_ID = 65557
DEFAULT_TABLE_SIZE = 512

# the SDE's fixed-table ids (bf_rt_pre_tf1.json, bf_rt_port_tf1.json)
PRE_MGID_ID = 4278321153
PRE_NODE_ID = 4278321154
PORT_TABLE_ID = 4278255617
PORT_STAT_TABLE_ID = 4278255618
PORT_STR_INFO_ID = 4278255621
DEV_CONFIGURATION_ID = 4278583297     # bf_rt_dev_tf1.json

_MATCH_TYPES = {"exact": "Exact", "ternary": "Ternary", "lpm": "LPM", "range": "Range"}


def jenkins_one_at_a_time(text: str) -> int:
    """The 32-bit hash P4Runtime's symbol table gives a name (p4c control-plane)."""
    h = 0
    for c in text.encode():
        h = (h + c) & 0xFFFFFFFF
        h = (h + (h << 10)) & 0xFFFFFFFF
        h ^= h >> 6
    h = (h + (h << 3)) & 0xFFFFFFFF
    h ^= h >> 11
    h = (h + (h << 15)) & 0xFFFFFFFF
    return h


class _Ids:
    """Ids like p4c's symbol table: hash of the name, linear probing on a collision."""

    def __init__(self):
        self.used: set[int] = set()
        self.by_name: dict[tuple[int, str], int] = {}

    def get(self, prefix: int, name: str) -> int:
        k = (prefix, name)
        if k in self.by_name:
            return self.by_name[k]
        low = jenkins_one_at_a_time(name) & 0xFFFFFF
        while (prefix << 24 | low) in self.used:
            low = (low + 1) & 0xFFFFFF
        i = prefix << 24 | low
        self.used.add(i)
        self.by_name[k] = i
        return i


def _bytes_type(width: int) -> dict:
    return {"type": "bytes", "width": width}


def _key(kid: int, name: str, match: str, typ: dict, mandatory: bool = False) -> dict:
    return {"id": kid, "name": name, "repeated": False, "annotations": [],
            "mandatory": mandatory, "match_type": match, "type": typ}


def _singleton(fid: int, name: str, typ: dict, *, mandatory=False, read_only=False,
               repeated=False, annotations=()) -> dict:
    return {"mandatory": mandatory, "read_only": read_only,
            "singleton": {"id": fid, "name": name, "repeated": repeated,
                          "annotations": [dict(a) for a in annotations], "type": typ}}


def _counter_data(kind: str | None = "PACKETS_AND_BYTES") -> list:
    """Counter data fields by CounterType_t (a p4sim without the type counts both)."""
    out = []
    if kind in ("BYTES", "PACKETS_AND_BYTES", None):
        out.append(_singleton(COUNTER_SPEC_BYTES_ID, "$COUNTER_SPEC_BYTES",
                              {"type": "uint64", "default_value": 0}))
    if kind in ("PACKETS", "PACKETS_AND_BYTES", None):
        out.append(_singleton(COUNTER_SPEC_PKTS_ID, "$COUNTER_SPEC_PKTS",
                              {"type": "uint64", "default_value": 0}))
    return out


def pipeline_name(program) -> str:
    """The Pipeline instance's name (``pipe`` in ``Pipeline(...) pipe;``), which
    prefixes every table name in bf-p4c's bfrt.json.

    p4sim's Program does not record it, so it is read from the source text: the name
    given to ``Switch(<name>) main``. A program that passes the Pipeline inline gets
    ``pipe``."""
    name = getattr(program, "pipeline_name", None)
    if name:
        return name
    try:
        text = Path(program.filename).read_text(encoding="utf-8")
    except (OSError, TypeError):
        return "pipe"
    m = re.search(r"\bSwitch\s*\(\s*([A-Za-z_]\w*)\s*\)\s*main\s*;", text)
    return m.group(1) if m else "pipe"


def _action_specs(spec_actions, ids: _Ids) -> list:
    actions = []
    for a in spec_actions:
        scope, anns = "TableAndDefault", []
        if a.defaultonly:
            scope, anns = "DefaultOnly", [{"name": "@defaultonly"}]
        elif a.tableonly:
            scope, anns = "TableOnly", [{"name": "@tableonly"}]
        data = [{"id": j, "name": pname, "repeated": False, "mandatory": True,
                 "read_only": False, "annotations": [], "type": _bytes_type(w)}
                for j, (pname, w, _signed) in enumerate(a.params, start=1)]
        actions.append({"id": ids.get(PREFIX_ACTION, a.name), "name": a.name,
                        "action_scope": scope, "annotations": anns, "data": data})
    return actions


def _table_json(spec, pipe: str, ids: _Ids) -> dict:
    name = f"{pipe}.{spec.name}"
    keys = []
    for i, k in enumerate(spec.keys, start=1):
        keys.append(_key(i, k.name, _MATCH_TYPES[k.match], _bytes_type(k.width)))
    if any(k.match in ("ternary", "range") for k in spec.keys):
        keys.append(_key(MATCH_PRIORITY_ID, "$MATCH_PRIORITY", "Exact", {"type": "uint32"}))
    actions = _action_specs(spec.actions, ids)
    attributes = ["EntryScope"]
    if spec.const_entries:
        attributes.append("ConstTable")
    data = _counter_data(getattr(spec, "direct_counter_type", None)) \
        if spec.has_direct_counter else []
    if spec.direct_meter is not None:
        data += meters.spec_data_json(spec.direct_meter.kind)
        attributes.insert(0, meters.ATTRIBUTE)
    if getattr(spec, "direct_filter", None) is not None:
        data += filters.spec_data_json(spec.direct_filter[0])
    operations = ["SyncCounters"] if spec.has_direct_counter else []
    if spec.direct_register is not None:
        data += direct_register_data(spec.direct_register)
        operations.append("SyncRegisters")
    return {"name": name, "id": ids.get(PREFIX_TABLE, name), "table_type": "MatchAction_Direct",
            "size": spec.size or DEFAULT_TABLE_SIZE, "annotations": [], "depends_on": [],
            "has_const_default_action": bool(spec.default_const), "key": keys,
            "action_specs": actions, "data": data,
            "supported_operations": operations,
            "attributes": attributes}


def direct_register_data(direct_register) -> list:
    """A DirectRegister's cell as data fields of its table's entries, named as a
    register's (``<Control>.<register>.<field>``, ``.f1`` for a scalar)."""
    fields, _init, qual = direct_register
    return [_singleton(DIRECT_REGISTER_ID_BASE + j, f"{qual}.{member or 'f1'}",
                       _bytes_type(w), annotations=[REGISTER_DATA])
            for j, (member, w, _signed) in enumerate(fields)]


def _register_json(spec, pipe: str, ids: _Ids) -> dict:
    name = f"{pipe}.{spec.name}"
    data = []
    for j, (member, w, _signed) in enumerate(spec.fields, start=1):
        data.append(_singleton(j, f"{spec.name}.{member or 'f1'}", _bytes_type(w),
                               mandatory=True, annotations=[REGISTER_DATA]))
    return {"name": name, "id": ids.get(PREFIX_REGISTER, name), "table_type": "Register",
            "size": spec.size, "depends_on": [],
            "key": [_key(REGISTER_INDEX_ID, "$REGISTER_INDEX", "Exact", {"type": "uint32"},
                         mandatory=True)],
            "data": data, "supported_operations": ["Sync"], "attributes": []}


def _counter_json(spec, pipe: str, ids: _Ids) -> dict:
    name = f"{pipe}.{spec.name}"
    return {"name": name, "id": ids.get(PREFIX_COUNTER, name), "table_type": "Counter",
            "size": spec.size, "annotations": [], "depends_on": [],
            "key": [_key(COUNTER_INDEX_ID, "$COUNTER_INDEX", "Exact", {"type": "uint32"},
                         mandatory=True)],
            "data": _counter_data(spec.kind), "supported_operations": ["Sync"],
            "attributes": []}


def program_schema(program, pipe: str | None = None) -> dict:
    """bfrt.json (as a dict) for a compiled p4sim ``program``."""
    pipe = pipe or pipeline_name(program)
    ids = _Ids()
    tables = [_table_json(program.tables[n], pipe, ids) for n in sorted(program.tables)]
    for t, n in zip(tables, sorted(program.tables)):
        if getattr(program.tables[n], "implementation", None) is not None:
            make_indirect(t, program.tables[n], pipe, ids)
    tables += profile_tables(program, pipe, ids, lambda actions: _action_specs(actions, ids))
    tables += register_param_tables(program, pipe, ids, PREFIX_REGISTER)
    tables += [_register_json(program.registers[n], pipe, ids) for n in sorted(program.registers)]
    tables += [_counter_json(program.counters[n], pipe, ids) for n in sorted(program.counters)]
    tables += [meters.meter_table_json(program.meters[n], pipe, ids) for n in sorted(program.meters)]
    tables += filters.tables_json(program, pipe, ids)
    tables.append(port_metadata.table_json(program, pipe, ids))
    return {"schema_version": "1.0.0", "tables": tables,
            "learn_filters": [lf.json() for lf in learn_filters(program, pipe, ids)]}


def fixed_schema(nports: int = 512) -> dict:
    """The device's fixed tables the softswitch serves: ``$pre.mgid``, ``$pre.node``,
    ``$PORT`` and ``$PORT_STAT`` (a subset of the SDE's fields, same names and ids).
    ``$PORT_STAT``'s ``$FramesReceivedOK`` counts a frame once the pipe has processed it,
    which is how a driver knows the switch is done with what it sent."""
    dev_port_ann = [{"name": "$bfrt_port_type_class", "value": "dev_port"}]
    mgid = {
        "name": "$pre.mgid", "id": PRE_MGID_ID, "table_type": "PreMgid", "size": 65536,
        "key": [_key(1, "$MGID", "Exact", {"type": "uint16"}, mandatory=True)],
        "data": [
            _singleton(1, "$MULTICAST_NODE_ID", {"type": "uint32"}, repeated=True),
            _singleton(2, "$MULTICAST_NODE_L1_XID_VALID", {"type": "bool"}, repeated=True),
            _singleton(3, "$MULTICAST_NODE_L1_XID", {"type": "uint16"}, repeated=True),
        ],
        "supported_operations": [], "attributes": []}
    node = {
        "name": "$pre.node", "id": PRE_NODE_ID, "table_type": "PreNode", "size": 16777216,
        "key": [_key(1, "$MULTICAST_NODE_ID", "Exact", {"type": "uint32"}, mandatory=True)],
        "data": [
            _singleton(1, "$MULTICAST_RID", {"type": "uint16"}, mandatory=True),
            _singleton(2, "$MULTICAST_LAG_ID", {"type": "uint8"}, mandatory=True, repeated=True),
            _singleton(3, "$DEV_PORT", {"type": "uint32"}, mandatory=True, repeated=True,
                       annotations=dev_port_ann),
        ],
        "supported_operations": [], "attributes": []}
    port = {
        "name": "$PORT", "id": PORT_TABLE_ID, "table_type": "PortConfigure", "size": nports,
        "key": [dict(_key(1, "$DEV_PORT", "Exact", {"type": "uint32"}, mandatory=True),
                     annotations=dev_port_ann)],
        "data": [
            _singleton(1, "$SPEED", {"type": "string"}),
            _singleton(2, "$FEC", {"type": "string"}),
            _singleton(4, "$PORT_ENABLE", {"type": "bool", "default_value": False}),
            # PM_AN_DEFAULT / PM_AN_FORCE_ENABLE / PM_AN_FORCE_DISABLE (stored, no effect
            # on a veth)
            _singleton(5, "$AUTO_NEGOTIATION", {"type": "string"}),
            # BF_LPBK_NONE only: an interface cannot be put in MAC loopback from here
            _singleton(6, "$LOOPBACK_MODE", {"type": "string"}),
            _singleton(21, "$IS_VALID", {"type": "bool"}, read_only=True),
            _singleton(22, "$IS_INTERNAL", {"type": "bool"}, read_only=True),
            _singleton(25, "$PORT_UP", {"type": "bool"}, read_only=True),
            _singleton(26, "$PORT_NAME", {"type": "string"}, read_only=True),
        ],
        "supported_operations": [], "attributes": ["port_status_notif_cb"]}
    stat = {
        "name": "$PORT_STAT", "id": PORT_STAT_TABLE_ID, "table_type": "PortStat",
        "size": nports,
        "key": [dict(_key(1, "$DEV_PORT", "Exact", {"type": "uint32"}, mandatory=True),
                     annotations=dev_port_ann)],
        "data": [
            _singleton(1, "$FramesReceivedOK", {"type": "uint64", "default_value": 0}),
            _singleton(33, "$FramesTransmittedOK", {"type": "uint64", "default_value": 0}),
        ],
        "supported_operations": [], "attributes": []}
    # a port's name -> its device port; a software port's name is its interface's
    str_info = {
        "name": "$PORT_STR_INFO", "id": PORT_STR_INFO_ID, "table_type": "PortStrInfo",
        "size": nports,
        "key": [dict(_key(1, "$PORT_NAME", "Exact", {"type": "string"}, mandatory=True),
                     annotations=[{"name": "$bfrt_port_type_class", "value": "port_name"}])],
        "data": [_singleton(1, "$DEV_PORT", {"type": "uint32"}, read_only=True,
                            annotations=dev_port_ann)],
        "supported_operations": [], "attributes": []}
    return {"tables": [mgid, node, port, stat, str_info, _device_configuration(),
                       mirror_cfg.table_json()]}


def _device_configuration() -> dict:
    """``tf1.dev.device_configuration`` (one entry, read as the default entry): what
    the SDE's ``BfRuntimeTest.setUp`` reads (``bfrt_utils.DevConfiguration``); its family
    is the name's first component. Values: ``SoftDevice.device_configuration``."""
    u32 = {"type": "uint32"}
    ro = {"read_only": True}
    return {
        "name": "tf1.dev.device_configuration", "id": DEV_CONFIGURATION_ID,
        "table_type": "DevConfigure", "size": 1, "key": [],
        "data": [
            _singleton(1, "sku", {"type": "string", "choices": ["UNKNOWN"],
                                  "default_value": "UNKNOWN"}, **ro),
            _singleton(2, "num_pipes", u32, **ro),
            _singleton(3, "num_stages", u32, **ro),
            _singleton(4, "num_max_ports", u32, **ro),
            _singleton(5, "num_front_ports", u32, **ro),
            _singleton(7, "eth_cpu_port_list", u32, repeated=True, **ro),
            _singleton(8, "internal_port_list", u32, repeated=True, **ro),
            _singleton(9, "external_port_list", u32, repeated=True, **ro),
            _singleton(10, "recirc_port_list", u32, repeated=True, **ro),
            _singleton(11, "intr_based_link_monitoring", {"type": "bool"}, **ro),
        ],
        "supported_operations": [], "attributes": []}


def dumps(doc: dict) -> bytes:
    return json.dumps(doc, indent=2).encode()
