"""A BfRuntime device for a program we can only describe, not run: it serves a given
``bfrt.json`` (here the release's ``p4ml.p4``) through the softswitch's real gRPC server
(``p4sim.switchd.server.BfRuntimeServer``) and keeps what clients write — match entries,
default entries, register cells, PRE nodes and groups — decoded by name, after checking
every id and width against the schema as bf_switchd would. Tests then drive it with the
very client and facade the drivers use, and assert on what arrived.

It runs no packets: ``inject`` is not offered, and ports are whatever the test says.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import grpc

from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import BfrtInfo, TableInfo, decode_int, encode_int
from p4sim.switchd import device_configuration
from p4sim.switchd.bfrt_schema import fixed_schema
from p4sim.switchd.device import DeviceError

U = pb.Update
# bf-p4c's bfrt.json of the release's p4ml.p4 (its "_provenance" says how it was made)
RELEASE_BFRT = Path(__file__).resolve().parent / "data" / "p4ml-bfrt.json"


def release_schema() -> dict:
    """A fresh copy of the release program's schema (tests may edit it)."""
    return json.loads(RELEASE_BFRT.read_text())


def _bad(msg: str) -> DeviceError:
    return DeviceError(grpc.StatusCode.INVALID_ARGUMENT, msg)


class SchemaDevice:
    """What a BfRuntimeServer needs of a device, backed by dictionaries."""

    def __init__(self, schema: dict, p4_name: str) -> None:
        self.schema = schema
        self.fixed = fixed_schema()
        self.p4_name = p4_name
        self.info = BfrtInfo(p4_name, schema, self.fixed)
        self.lock = threading.RLock()
        self.port_listeners: list = []
        self.digest_listeners: list = []        # the server's learn stream (no digests here)
        self.ports: dict = {}
        self.writes: list[tuple[str, str]] = []       # (update type, table) in order
        self.reset()

    def reset(self) -> None:
        with self.lock:
            self.entries: dict[str, dict[tuple, dict]] = {}
            self.defaults: dict[str, dict] = {}
            self.registers: dict[str, dict[int, dict[str, int]]] = {}
            self.nodes: dict[int, dict] = {}
            self.groups: dict[int, list[int]] = {}

    # ------------------------------------------------------------------ helpers for tests
    def table_entries(self, name: str) -> list[dict]:
        return list(self.entries.get(name, {}).values())

    def set_register(self, name: str, index: int, value: int) -> None:
        t = self.info.table(name)
        field = next(iter(t.data))
        self.registers.setdefault(t.name, {})[index] = {field: value}

    # ------------------------------------------------------------------ server entry points
    def write(self, update: pb.Update, pipe_id: int = 0xFFFF, journal=None) -> None:
        if update.entity.WhichOneof("entity") != "table_entry":
            raise DeviceError(grpc.StatusCode.UNIMPLEMENTED, "only table_entry writes")
        te = update.entity.table_entry
        t = self.info.table_by_id(te.table_id)
        if t is None:
            raise DeviceError(grpc.StatusCode.NOT_FOUND, f"no table with id {te.table_id}")
        with self.lock:
            self.writes.append((U.Type.Name(update.type), t.name))
            if t.table_type == "MatchAction_Direct":
                self._write_match(t, update.type, te)
            elif t.table_type == "Register":
                self._write_register(t, update.type, te)
            elif t.table_type == "PreNode":
                self._write_pre(t, update.type, te, self.nodes, "$MULTICAST_NODE_ID")
            elif t.table_type == "PreMgid":
                self._write_pre(t, update.type, te, self.groups, "$MGID")
            else:
                raise DeviceError(grpc.StatusCode.UNIMPLEMENTED,
                                  f"{t.table_type} {t.name} is not served here")

    def read(self, entity: pb.Entity, pipe_id: int = 0xFFFF):
        if entity.WhichOneof("entity") != "table_entry":
            raise DeviceError(grpc.StatusCode.UNIMPLEMENTED, "only table_entry reads")
        te = entity.table_entry
        t = self.info.table_by_id(te.table_id)
        if t is not None and t.table_type == "DevConfigure":     # a one-pipe device
            return list(device_configuration.read(t, device_configuration.values({}, 68)))
        if t is None or t.table_type != "Register":
            raise DeviceError(grpc.StatusCode.UNIMPLEMENTED, "only register reads")
        with self.lock:
            cells = self.registers.get(t.name, {})
            if te.key.fields:
                indices = [self._index(t, te)]
            else:
                indices = sorted(cells)
            out = []
            for i in indices:
                e = pb.Entity()
                r = e.table_entry
                r.table_id = t.id
                kf = r.key.fields.add()
                kf.field_id = t.keys[0].id
                kf.exact.value = encode_int(i, t.keys[0].width)
                for name, fi in t.data.items():
                    df = r.data.fields.add()
                    df.field_id = fi.id
                    df.stream = encode_int(cells.get(i, {}).get(name, 0), fi.width)
                out.append(e)
            return out

    # ------------------------------------------------------------------ tables
    def _key(self, t: TableInfo, te: pb.TableEntry) -> dict:
        key = {}
        for kf in te.key.fields:
            ki = t.key_by_id(kf.field_id)
            if ki is None:
                raise _bad(f"table {t.name}: no key field id {kf.field_id}")
            kind = kf.WhichOneof("match_type")
            want = {"Exact": "exact", "Ternary": "ternary", "LPM": "lpm",
                    "Range": "range"}[ki.match_type]
            if kind != want:
                raise _bad(f"table {t.name} key {ki.name}: {ki.match_type} field sent as "
                           f"{kind}")
            if kind == "exact":
                v = decode_int(kf.exact.value)
                value = v
            else:
                v = decode_int(kf.ternary.value)
                value = (v, decode_int(kf.ternary.mask))
                if value[1] >> ki.width:
                    raise _bad(f"table {t.name} key {ki.name}: mask wider than {ki.width}")
            if ki.width and v >> ki.width:
                raise _bad(f"table {t.name} key {ki.name}: {v} does not fit in "
                           f"{ki.width} bits")
            key[ki.name] = value
        return key

    def _data(self, t: TableInfo, te: pb.TableEntry) -> tuple[str | None, dict]:
        action = None
        if te.data.action_id:
            ai = t.action_by_id(te.data.action_id)
            if ai is None:
                raise _bad(f"table {t.name}: no action id {te.data.action_id}")
            action = ai.name
        else:
            ai = None
        data = {}
        for df in te.data.fields:
            fi = t.data_field_by_id(df.field_id, ai)
            if fi is None:
                raise _bad(f"table {t.name}: no data field id {df.field_id}"
                           f"{f' in action {action}' if action else ''}")
            if df.WhichOneof("value") == "stream":
                v = decode_int(df.stream)
                if fi.width and v >> fi.width:
                    raise _bad(f"table {t.name} field {fi.name}: {v} does not fit in "
                               f"{fi.width} bits")
                data[fi.name] = v
            else:
                data[fi.name] = list(getattr(df, df.WhichOneof("value")).val)
        if ai is not None:
            missing = [f.name for f in ai.fields.values() if f.mandatory and f.name not in data]
            if missing:
                raise _bad(f"table {t.name} action {action}: missing {missing}")
        return action, data

    def _write_match(self, t: TableInfo, typ, te: pb.TableEntry) -> None:
        if te.is_default_entry:
            if typ == U.RESET:
                self.defaults.pop(t.name, None)
            else:
                self.defaults[t.name] = dict(zip(("action", "data"), self._data(t, te)))
            return
        table = self.entries.setdefault(t.name, {})
        if typ == U.DELETE and not te.key.fields:
            table.clear()
            return
        key = self._key(t, te)
        missing = [k.name for k in t.keys if k.match_type == "Exact" and k.name not in key]
        if missing:
            raise _bad(f"table {t.name}: exact key field(s) {missing} missing")
        frozen = tuple(sorted(key.items()))
        if typ == U.DELETE:
            if table.pop(frozen, None) is None:
                raise DeviceError(grpc.StatusCode.NOT_FOUND, f"table {t.name}: no entry {key}")
            return
        if typ == U.INSERT and frozen in table:
            raise DeviceError(grpc.StatusCode.ALREADY_EXISTS,
                              f"table {t.name}: entry {key} already exists")
        action, data = self._data(t, te)
        if action is None:
            raise _bad(f"table {t.name}: an entry needs an action")
        table[frozen] = {"key": key, "action": action, "data": data}

    def _index(self, t: TableInfo, te: pb.TableEntry) -> int:
        i = decode_int(te.key.fields[0].exact.value)
        if not 0 <= i < t.size:
            raise DeviceError(grpc.StatusCode.OUT_OF_RANGE,
                              f"register {t.name}: index {i} outside 0..{t.size - 1}")
        return i

    def _write_register(self, t: TableInfo, typ, te: pb.TableEntry) -> None:
        cells = self.registers.setdefault(t.name, {})
        if typ == U.DELETE and not te.key.fields:
            cells.clear()
            return
        i = self._index(t, te)
        _, data = self._data(t, te)
        cells[i] = {**cells.get(i, {}), **data}

    def _write_pre(self, t: TableInfo, typ, te: pb.TableEntry, store: dict, key_name: str):
        if typ == U.DELETE and not te.key.fields:
            store.clear()
            return
        key = self._key(t, te)[key_name]
        if typ == U.DELETE:
            store.pop(key, None)
            return
        if typ == U.INSERT and key in store:
            raise DeviceError(grpc.StatusCode.ALREADY_EXISTS, f"{t.name} {key} exists")
        store[key] = self._data(t, te)[1]
