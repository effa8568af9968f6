"""A BfRuntime gRPC client for bf_switchd, the Tofino model, hardware, or the softswitch.

It speaks only the wire protocol (``bfruntime.proto``) and resolves names through the
bfrt.json the switch sends, so nothing in it knows about p4sim. The life of a client:

    with BfRuntimeClient("127.0.0.1:50052", p4_name="atp") as c:   # connect, subscribe, bind
        c.entry_add("Ingress.forward", {"hdr.ethernet.dst_addr": 0x0200_0000_0001},
                    "set_port", {"port": 5})
        c.register_read("Ingress.aggregator_owner", 3)     # {"f1": [value per pipe]}
        c.reset()                                          # clear tables, registers, PRE
    # closing tears the stream down, which releases the binding

Key values by match kind (as in p4sim's control-plane API): exact ``int``; ternary
``(value, mask)``; lpm ``(value, prefix_len)``; range ``(low, high)``. Ternary and range
entries take ``priority`` (BfRt's ``$MATCH_PRIORITY``: lower wins).

Register reads return, per data field (``f1`` for a scalar register, the member names
of a pair register), a list with one value per pipe, unsigned as on the wire (the
schema does not say whether a register is signed; callers that declared ``int<W>``
convert with :func:`to_signed`).
"""

from __future__ import annotations

import queue
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Mapping

import grpc
from google.rpc import code_pb2, status_pb2

from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import (ActionInfo, BfrtInfo, DataFieldInfo, SchemaError, TableInfo,
                            decode_int, encode_int)
from bfruntime.service import BfRuntimeStub

U = pb.Update
ALL_PIPES = 0xFFFF
READ_REQUESTS_KEPT = 4096   # built cell-read requests kept for reuse


class BfRuntimeError(Exception):
    """A BfRuntime call failed; the message says which call, on what, and why."""

    def __init__(self, message: str, code: grpc.StatusCode | None = None,
                 errors: list[tuple[int, str, str]] | None = None):
        super().__init__(message)
        self.code = code
        self.errors = errors or []     # (update index, code name, message) of a batch


def to_signed(value: int, width: int) -> int:
    """Read an unsigned wire value of ``width`` bits as two's complement."""
    return value - (1 << width) if value >> (width - 1) & 1 else value


def _rpc_error(what: str, e: grpc.RpcError, item: str = "update") -> BfRuntimeError:
    """The call's failure; an UNKNOWN status carries one ``Error`` per request item (a
    Write's update, a Read's entity) up to the last failed one, as bf_switchd sends."""
    code = e.code() if hasattr(e, "code") else None
    errors = []
    for k, v in (e.trailing_metadata() or ()) if hasattr(e, "trailing_metadata") else ():
        if k == "grpc-status-details-bin":
            st = status_pb2.Status.FromString(v)
            for i, d in enumerate(st.details):
                err = pb.Error()
                if d.Unpack(err) and err.canonical_code != code_pb2.OK:
                    errors.append((i, code_pb2.Code.Name(err.canonical_code), err.message))
    details = e.details() if hasattr(e, "details") else str(e)
    if errors:
        details = "; ".join(f"{item} {i}: {c}: {m}" for i, c, m in errors)
    name = code.name if code is not None else "error"
    return BfRuntimeError(f"{what} failed: {name}: {details}", code, errors)


@dataclass
class TableEntry:
    """One entry as read back: key values, action, parameters, priority."""
    table: str
    key: dict[str, Any]
    action: str | None
    data: dict[str, Any]
    priority: int | None = None
    is_default: bool = False


@dataclass
class _Stream:
    """The StreamChannel: outgoing queue and what came in, by kind."""
    out: queue.Queue = field(default_factory=queue.Queue)
    inbox: queue.Queue = field(default_factory=queue.Queue)
    notifications: queue.Queue = field(default_factory=queue.Queue)
    call: Any = None
    thread: threading.Thread | None = None
    error: Exception | None = None


class BfRuntimeClient:
    """Connects, subscribes and binds ``p4_name`` (if given) on construction."""

    def __init__(self, address: str = "127.0.0.1:50052", *, p4_name: str | None = None,
                 client_id: int = 0, device_id: int = 0, timeout: float = 10.0,
                 retries: int = 5, subscribe: bool = True, bind: bool = True,
                 pipe_id: int = ALL_PIPES):
        self.address = address
        self.client_id = client_id
        self.device_id = device_id
        self.timeout = timeout
        self.pipe_id = pipe_id
        self.p4_name = p4_name
        self._stream: _Stream | None = None
        self._bound = False
        self._batched: list[tuple[pb.Update, str]] | None = None   # inside batch()
        self._read_requests: dict[tuple, pb.ReadRequest] = {}      # cells read -> request
        self._field_names: dict[tuple[int, int], str] = {}   # (table, field id) -> short name
        self.channel = grpc.insecure_channel(address, options=[
            ("grpc.max_send_message_length", 1 << 30),
            ("grpc.max_receive_message_length", 1 << 30)])
        self.stub = BfRuntimeStub(self.channel)
        try:
            self._connect(retries)
            if subscribe:
                self._subscribe(retries)
            self.info = self._fetch_info()
            if subscribe and bind:
                self.bind()
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------------ session
    def _connect(self, retries: int) -> None:
        per_try = max(self.timeout / max(retries, 1), 0.2)
        for attempt in range(1, retries + 1):
            try:
                grpc.channel_ready_future(self.channel).result(timeout=per_try)
                return
            except grpc.FutureTimeoutError:
                if attempt == retries:
                    raise BfRuntimeError(
                        f"no BfRuntime server at {self.address} after {retries} tries over "
                        f"{self.timeout:.1f}s; is bf_switchd (or python -m p4sim.switchd) "
                        f"running and listening there?") from None

    def _subscribe(self, retries: int) -> None:
        st = _Stream()

        def requests():
            while True:
                m = st.out.get()
                if m is None:
                    return
                yield m

        st.call = self.stub.StreamChannel(requests())

        def receive():
            try:
                for m in st.call:
                    kind = m.WhichOneof("update")
                    (st.notifications if kind in ("port_status_change_notification", "digest",
                                                  "idle_timeout_notification")
                     else st.inbox).put(m)
            except grpc.RpcError as e:
                if e.code() != grpc.StatusCode.CANCELLED:
                    st.error = e
            finally:
                st.inbox.put(None)

        st.thread = threading.Thread(target=receive, daemon=True, name="bfrt-client-stream")
        st.thread.start()
        self._stream = st
        req = pb.StreamMessageRequest(client_id=self.client_id)
        req.subscribe.device_id = self.device_id
        n = req.subscribe.notifications
        n.enable_learn_notifications = True
        n.enable_idletimeout_notifications = True
        n.enable_port_status_change_notifications = True
        per_try = max(self.timeout / max(retries, 1), 0.2)
        for _attempt in range(retries):
            st.out.put(req)
            deadline = time.monotonic() + per_try
            while (left := deadline - time.monotonic()) > 0:
                try:
                    m = st.inbox.get(timeout=left)
                except queue.Empty:
                    break
                if m is None:
                    raise _rpc_error("Subscribe", st.error) if st.error else BfRuntimeError(
                        f"the server at {self.address} closed the stream during Subscribe")
                if m.WhichOneof("update") != "subscribe":
                    continue
                if m.subscribe.status.code != code_pb2.OK:
                    raise BfRuntimeError(
                        f"Subscribe of client {self.client_id} refused: "
                        f"{code_pb2.Code.Name(m.subscribe.status.code)}: "
                        f"{m.subscribe.status.message}")
                return
        raise BfRuntimeError(f"no Subscribe answer from {self.address} after {retries} tries")

    def _fetch_info(self) -> BfrtInfo:
        req = pb.GetForwardingPipelineConfigRequest(device_id=self.device_id,
                                                    client_id=self.client_id)
        try:
            resp = self.stub.GetForwardingPipelineConfig(req, timeout=self.timeout)
        except grpc.RpcError as e:
            raise _rpc_error("GetForwardingPipelineConfig", e) from None
        if not resp.config:
            raise BfRuntimeError(f"the switch at {self.address} has no P4 program loaded")
        names = [c.p4_name for c in resp.config]
        if self.p4_name is None:
            cfg = resp.config[0]
            self.p4_name = cfg.p4_name
        else:
            cfg = next((c for c in resp.config if c.p4_name == self.p4_name), None)
            if cfg is None:
                raise BfRuntimeError(f"program {self.p4_name!r} is not on the switch at "
                                     f"{self.address}; it has {names}")
        return BfrtInfo(cfg.p4_name, cfg.bfruntime_info, resp.non_p4_config.bfruntime_info)

    def bind(self) -> None:
        """Bind this client to the program (one client per program)."""
        req = pb.SetForwardingPipelineConfigRequest(
            device_id=self.device_id, client_id=self.client_id,
            action=pb.SetForwardingPipelineConfigRequest.BIND)
        req.config.add().p4_name = self.p4_name
        try:
            self.stub.SetForwardingPipelineConfig(req, timeout=self.timeout)
        except grpc.RpcError as e:
            raise _rpc_error(f"BIND to {self.p4_name!r}", e) from None
        self._bound = True

    def close(self) -> None:
        """Tear the stream down (releases the binding) and close the channel."""
        st, self._stream = self._stream, None
        if st is not None:
            st.out.put(None)
            if st.call is not None:
                st.call.cancel()
            if st.thread is not None:
                st.thread.join(timeout=self.timeout)
        self._bound = False
        self.channel.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def port_status_notifications(self, timeout: float = 0.0) -> list[tuple[int, bool]]:
        """(device port, up) announcements received on the stream so far."""
        out = []
        if self._stream is None:
            return out
        deadline = time.monotonic() + timeout
        while True:
            try:
                m = self._stream.notifications.get(timeout=max(deadline - time.monotonic(), 0))
            except queue.Empty:
                return out
            if m.WhichOneof("update") == "port_status_change_notification":
                n = m.port_status_change_notification
                out.append((decode_int(n.table_entry.key.fields[0].exact.value), n.port_up))
                deadline = time.monotonic()

    # ------------------------------------------------------------------ encoding
    def _target(self, msg) -> None:
        msg.target.device_id = self.device_id
        msg.target.pipe_id = self.pipe_id
        msg.target.direction = 0xFF
        msg.target.prsr_id = 0xFF

    def _key(self, t: TableInfo, key: Mapping[str, Any], priority: int | None,
             out: pb.TableKey) -> None:
        given = dict(key)
        for name in list(given):
            ki = t.key(name)
            v = given.pop(name)
            kf = out.fields.add()
            kf.field_id = ki.id
            what = f"table {t.name} key {ki.name}"
            w = ki.width
            try:
                if ki.match_type in ("Exact", "Optional") and not isinstance(v, tuple):
                    kf.exact.value = encode_int(v, w, what)
                elif ki.match_type == "Ternary":
                    kf.ternary.value = encode_int(v[0], w, what)
                    kf.ternary.mask = encode_int(v[1], w, what + " mask")
                elif ki.match_type == "LPM":
                    kf.lpm.value = encode_int(v[0], w, what)
                    kf.lpm.prefix_len = int(v[1])
                elif ki.match_type == "Range":
                    kf.range.low = encode_int(v[0], w, what + " low")
                    kf.range.high = encode_int(v[1], w, what + " high")
                else:
                    raise SchemaError(f"{what}: a {ki.match_type} key takes a single integer")
            except (TypeError, IndexError):
                raise SchemaError(f"{what}: a {ki.match_type} key takes "
                                  f"{_KEY_FORMS[ki.match_type]}, got {v!r}") from None
        if priority is not None:
            kf = out.fields.add()
            kf.field_id = t.key("$MATCH_PRIORITY").id
            kf.exact.value = encode_int(priority, 32, f"table {t.name} $MATCH_PRIORITY")

    @staticmethod
    def _datafield(df: pb.DataField, fi: DataFieldInfo, v: Any, what: str) -> None:
        df.field_id = fi.id
        if fi.repeated:
            if fi.type == "bool":
                df.bool_arr_val.val.extend(bool(x) for x in v)
            else:
                df.int_arr_val.val.extend(int(x) for x in v)
        elif fi.type == "bool":
            df.bool_val = bool(v)
        elif fi.type == "string":
            df.str_val = str(v)
        else:
            df.stream = encode_int(v, fi.width, what)

    def _data(self, t: TableInfo, action: ActionInfo | None, data: Mapping[str, Any] | None,
              out: pb.TableData) -> None:
        if action is not None:
            out.action_id = action.id
        for name, v in (data or {}).items():
            fi = t.data_field(name, action)
            self._datafield(out.fields.add(), fi, v, f"table {t.name} field {fi.name}")

    @staticmethod
    def _value(df: pb.DataField):
        kind = df.WhichOneof("value")
        if kind == "stream":
            return decode_int(df.stream)
        if kind in ("int_arr_val", "bool_arr_val", "str_arr_val"):
            return list(getattr(df, kind).val)
        return getattr(df, kind) if kind else None

    # ------------------------------------------------------------------ RPC plumbing
    def write(self, updates: Iterable[pb.Update], what: str = "Write") -> None:
        updates = list(updates)
        if self._batched is not None:          # inside batch(): sent at its end
            self._batched.extend((u, what) for u in updates)
            return
        self._send_write(updates, what)

    def _send_write(self, updates: list[pb.Update], what: str) -> None:
        req = pb.WriteRequest(client_id=self.client_id)
        if not self._bound:
            req.p4_name = self.p4_name
        self._target(req)
        req.updates.extend(updates)
        try:
            self.stub.Write(req, timeout=self.timeout)
        except grpc.RpcError as e:
            raise _rpc_error(what, e) from None

    @contextmanager
    def batch(self, what: str = "batched Write") -> Iterator[None]:
        """Every write inside (entry adds, deletes, PRE, register writes, clears) goes
        out as one Write when the block ends, in order, instead of one round trip each
        (a switch's reset and configuration: ~60-160 updates). Reads inside do not see
        them. A failed update raises ``BfRuntimeError`` naming what each failed update
        was for; a block that raises sends nothing. Nested blocks join the outer one."""
        if self._batched is not None:
            yield
            return
        self._batched = []
        try:
            yield
            batched = self._batched
        finally:
            self._batched = None
        if not batched:
            return
        try:
            self._send_write([u for u, _ in batched], what)
        except BfRuntimeError as exc:
            if not exc.errors:
                raise
            named = "; ".join(f"{batched[i][1]}: {code}: {message}"
                              for i, code, message in exc.errors if i < len(batched))
            raise BfRuntimeError(f"{what} failed: {named}", exc.code, exc.errors) from None

    def read(self, entities: Iterable[pb.Entity], what: str = "Read") -> list[pb.Entity]:
        return self._send_read(self._read_request(entities), what)

    def _read_request(self, entities: Iterable[pb.Entity]) -> pb.ReadRequest:
        req = pb.ReadRequest(client_id=self.client_id)
        if not self._bound:
            req.p4_name = self.p4_name
        self._target(req)
        req.entities.extend(entities)
        return req

    def _send_read(self, req: pb.ReadRequest, what: str) -> list[pb.Entity]:
        try:
            return [e for resp in self.stub.Read(req, timeout=self.timeout)
                    for e in resp.entities]
        except grpc.RpcError as e:
            raise _rpc_error(what, e, "entity") from None

    def _update(self, typ, t: TableInfo, key=None, priority=None, action=None, data=None,
                default=False, flags=None) -> pb.Update:
        u = pb.Update(type=typ)
        te = u.entity.table_entry
        te.table_id = t.id
        te.is_default_entry = default
        if key is not None or priority is not None:
            self._key(t, key or {}, priority, te.key)
        ai = t.action(action) if action else None
        if ai is not None or data:
            self._data(t, ai, data, te.data)
        if flags:
            for k, v in flags.items():
                setattr(te.table_flags, k, v)
        return u

    # ------------------------------------------------------------------ tables
    def table(self, name: str) -> TableInfo:
        return self.info.table(name)

    def entry_add(self, table: str, key: Mapping[str, Any], action: str,
                  data: Mapping[str, Any] | None = None, priority: int | None = None) -> None:
        t = self.table(table)
        self.write([self._update(U.INSERT, t, key, priority, action, data)],
                   f"entry_add on {t.name}")

    def entry_mod(self, table: str, key: Mapping[str, Any], action: str,
                  data: Mapping[str, Any] | None = None, priority: int | None = None) -> None:
        t = self.table(table)
        self.write([self._update(U.MODIFY, t, key, priority, action, data)],
                   f"entry_mod on {t.name}")

    def entry_del(self, table: str, key: Mapping[str, Any],
                  priority: int | None = None) -> None:
        t = self.table(table)
        self.write([self._update(U.DELETE, t, key, priority)], f"entry_del on {t.name}")

    def default_entry_set(self, table: str, action: str,
                          data: Mapping[str, Any] | None = None) -> None:
        t = self.table(table)
        self.write([self._update(U.MODIFY, t, action=action, data=data, default=True)],
                   f"default_entry_set on {t.name}")

    def default_entry_reset(self, table: str) -> None:
        t = self.table(table)
        self.write([self._update(U.RESET, t, default=True)], f"default_entry_reset on {t.name}")

    def table_clear(self, table: str) -> None:
        """All entries removed (registers/counters: every index back to its initial value)."""
        t = self.table(table)
        u = pb.Update(type=U.DELETE)
        u.entity.table_entry.table_id = t.id
        self.write([u], f"clear of {t.name}")

    def _entry_of(self, t: TableInfo, te: pb.TableEntry) -> TableEntry:
        key, prio = {}, None
        for kf in te.key.fields:
            ki = t.key_by_id(kf.field_id)
            mt = kf.WhichOneof("match_type")
            if ki is not None and ki.name == "$MATCH_PRIORITY":
                prio = decode_int(kf.exact.value)
                continue
            name = ki.name if ki else str(kf.field_id)
            if mt == "exact":
                key[name] = decode_int(kf.exact.value)
            elif mt == "ternary":
                key[name] = (decode_int(kf.ternary.value), decode_int(kf.ternary.mask))
            elif mt == "lpm":
                key[name] = (decode_int(kf.lpm.value), kf.lpm.prefix_len)
            elif mt == "range":
                key[name] = (decode_int(kf.range.low), decode_int(kf.range.high))
        ai = t.action_by_id(te.data.action_id) if te.data.action_id else None
        data: dict[str, Any] = {}
        for df in te.data.fields:
            fi = t.data_field_by_id(df.field_id, ai)
            data[fi.name if fi else str(df.field_id)] = self._value(df)
        return TableEntry(t.name, key, ai.name if ai else None, data, prio, te.is_default_entry)

    def entry_get(self, table: str, key: Mapping[str, Any] | None = None,
                  priority: int | None = None, *, from_hw: bool = True) -> list[TableEntry]:
        """The entry with ``key``, or every entry of the table when ``key`` is None (a
        read-all also answers the default entry, which is left out here as the SDE
        client leaves it out; ``default_entry_get`` reads it)."""
        t = self.table(table)
        ent = pb.Entity()
        te = ent.table_entry
        te.table_id = t.id
        te.table_flags.from_hw = from_hw
        if key is not None:
            self._key(t, key, priority, te.key)
        return [self._entry_of(t, e.table_entry)
                for e in self.read([ent], f"entry_get on {t.name}")
                if not e.table_entry.is_default_entry]

    def default_entry_get(self, table: str) -> TableEntry:
        t = self.table(table)
        ent = pb.Entity()
        ent.table_entry.table_id = t.id
        ent.table_entry.is_default_entry = True
        return self._entry_of(t, self.read([ent], f"default_entry_get on {t.name}")[0].table_entry)

    def num_pipes(self) -> int:
        """The device's pipes: ``num_pipes`` of ``device_configuration`` (bf_switchd's
        fixed table; a register read answers one value per pipe)."""
        return int(self.default_entry_get("device_configuration").data["num_pipes"])

    def usage(self, table: str) -> int:
        t = self.table(table)
        ent = pb.Entity()
        ent.table_usage.table_id = t.id
        return self.read([ent], f"usage of {t.name}")[0].table_usage.usage

    # ------------------------------------------------------------------ registers, counters
    def _indexed_read(self, t: TableInfo, indices, from_hw: bool) -> dict:
        """Cells of a register/counter table: ``indices`` (one Read of one entity per
        index) or every cell when None."""
        return self._indexed_reads([t], indices, from_hw)[0]

    def _indexed_reads(self, tables: list[TableInfo], indices, from_hw: bool) -> list[dict]:
        """The same cells of several register/counter tables in one Read (a request may
        carry entries of many tables): one ``{index: {field: [value per pipe]}}`` per
        table, in order."""
        return self._cells_read([(t, indices) for t in tables], from_hw)

    def _cells_read(self, reads: list[tuple[TableInfo, Any]], from_hw: bool) -> list[dict]:
        """Cells of register/counter tables, each table with its own indices (None:
        every cell), in one Read: one ``{index: {field: [value per pipe]}}`` per item.
        The request of a given set of cells is built once (a closed loop reads the same
        aggregators' cells again and again)."""
        shape = (tuple((t.id, None if i is None else tuple(i)) for t, i in reads), from_hw,
                 self.pipe_id, self._bound)
        req = self._read_requests.get(shape)
        if req is None:
            req = self._read_request(self._cell_entities(reads, from_hw))
            if len(self._read_requests) >= READ_REQUESTS_KEPT:
                self._read_requests.clear()
            self._read_requests[shape] = req
        tables = {t.id: t for t, _ in reads}
        names = self._field_names
        cells: dict[int, dict[int, dict[str, list[int]]]] = {tid: {} for tid in tables}
        what = reads[0][0].name if len(tables) == 1 else f"{len(tables)} registers"
        for e in self._send_read(req, f"read of {what}"):
            te = e.table_entry
            tid = te.table_id
            fields: dict[str, list[int]] = {}
            for df in te.data.fields:
                name = names.get((tid, df.field_id))
                if name is None:
                    name = names[(tid, df.field_id)] = _short_field(tables[tid], df.field_id)
                values = fields.get(name)
                if values is None:
                    fields[name] = [int.from_bytes(df.stream, "big")]
                else:
                    values.append(int.from_bytes(df.stream, "big"))
            cells[tid][int.from_bytes(te.key.fields[0].exact.value, "big")] = fields
        return [cells[t.id] if indices is None else
                {i: cells[t.id][i] for i in indices if i in cells[t.id]}
                for t, indices in reads]

    @staticmethod
    def _cell_entities(reads: list[tuple[TableInfo, Any]], from_hw: bool) -> list[pb.Entity]:
        ents = []
        for t, indices in reads:
            key_id, width = t.keys[0].id, t.keys[0].width
            for index in ([None] if indices is None else indices):
                ent = pb.Entity()
                te = ent.table_entry
                te.table_id = t.id
                te.table_flags.from_hw = from_hw
                if index is not None:
                    kf = te.key.fields.add()
                    kf.field_id = key_id
                    kf.exact.value = encode_int(index, width, f"{t.name} index")
                ents.append(ent)
        return ents

    def register_read(self, name: str, index: int, *, from_hw: bool = True) -> dict[str, list[int]]:
        """``{field: [value per pipe]}`` of one register cell (field ``f1`` for a scalar)."""
        t = self.table(name)
        return self._indexed_read(t, [index], from_hw)[index]

    def register_read_many(self, name: str, indices: Iterable[int], *,
                           from_hw: bool = True) -> dict[int, dict[str, list[int]]]:
        """Several cells in one Read: ``{index: {field: [value per pipe]}}``."""
        return self._indexed_read(self.table(name), list(indices), from_hw)

    def registers_read_many(self, names: Iterable[str], indices: Iterable[int], *,
                            from_hw: bool = True) -> list[dict[int, dict[str, list[int]]]]:
        """The same cells of several registers in one Read: one ``register_read_many``
        answer per name, in order (a closed loop's readback after every frame)."""
        return self._indexed_reads([self.table(n) for n in names], list(indices), from_hw)

    def registers_read_cells(self, reads: Iterable[tuple[str, Iterable[int]]], *,
                             from_hw: bool = True) -> list[dict[int, dict[str, list[int]]]]:
        """Cells of several registers, each with its own indices, in one Read: one
        ``register_read_many`` answer per (name, indices), in order (a closed loop's
        readback of both levels' control and value registers after a segment)."""
        return self._cells_read([(self.table(n), list(i)) for n, i in reads], from_hw)

    def register_read_all(self, name: str, *, from_hw: bool = True) -> dict[int, dict[str, list[int]]]:
        """Every cell: ``{index: {field: [value per pipe]}}`` in one Read."""
        return self._indexed_read(self.table(name), None, from_hw)

    def pipe_scope_set(self, table: str, single: bool) -> None:
        """The table's EntryScope: every pipe one scope (symmetric: writes go to all
        pipes) or each pipe its own (``single``: a write names its pipe)."""
        t = self.table(table)
        u = pb.Update(type=U.INSERT)
        ta = u.entity.table_attribute
        ta.table_id = t.id
        ta.entry_scope.pipe_scope.predef = pb.Mode.SINGLE if single else pb.Mode.ALL
        self.write([u], f"EntryScope of {t.name}")

    def register_write(self, name: str, index: int, values: Mapping[str, int] | int, *,
                       pipe: int | None = None) -> None:
        """Write one cell; ``values`` is an int (scalar register) or ``{field: value}``.
        ``pipe``: that pipe's cell alone (the register's scope must be single-pipe),
        else the client's target (every pipe)."""
        t = self.table(name)
        prefix = t.name.split(".", 1)[1] + "."
        if not isinstance(values, Mapping):
            values = {"f1": values}
        u = pb.Update(type=U.MODIFY)
        te = u.entity.table_entry
        te.table_id = t.id
        kf = te.key.fields.add()
        kf.field_id = t.keys[0].id
        kf.exact.value = encode_int(index, t.keys[0].width, f"{t.name} index")
        for fname, v in values.items():
            fi = t.data_field(fname if fname.startswith(prefix) else prefix + fname)
            self._datafield(te.data.fields.add(), fi, v, f"{t.name} field {fi.name}")
        if pipe is not None:
            te.entry_tgt.device_id = self.device_id
            te.entry_tgt.pipe_id = pipe
            te.entry_tgt.direction = 0xFF
        self.write([u], f"register_write on {t.name}")

    def counter_read(self, name: str, index: int) -> dict[str, int]:
        """``{"bytes": n, "packets": n}`` of one counter cell (summed over pipes)."""
        cell = self._indexed_read(self.table(name), [index], True)[index]
        return {"bytes": sum(cell.get("$COUNTER_SPEC_BYTES", [0])),
                "packets": sum(cell.get("$COUNTER_SPEC_PKTS", [0]))}

    def port_frames(self) -> dict[int, tuple[int, int]]:
        """``{device port: ($FramesReceivedOK, $FramesTransmittedOK)}`` from ``$PORT_STAT``."""
        t = self.table("$PORT_STAT")
        ent = pb.Entity()
        ent.table_entry.table_id = t.id
        ent.table_entry.table_flags.from_hw = True
        rx, tx = t.data["$FramesReceivedOK"].id, t.data["$FramesTransmittedOK"].id
        out = {}
        for e in self.read([ent], "read of $PORT_STAT"):
            vals = {df.field_id: decode_int(df.stream) for df in e.table_entry.data.fields}
            out[decode_int(e.table_entry.key.fields[0].exact.value)] = (vals.get(rx, 0),
                                                                        vals.get(tx, 0))
        return out

    # ------------------------------------------------------------------ multicast (PRE)
    def multicast_node_add(self, node_id: int, rid: int, ports: Iterable[int]) -> None:
        t = self.table("$pre.node")
        ports = list(ports)
        self.write([self._update(U.INSERT, t, {"$MULTICAST_NODE_ID": node_id}, data={
            "$MULTICAST_RID": rid, "$MULTICAST_LAG_ID": [], "$DEV_PORT": ports})],
            f"$pre.node add {node_id}")

    def multicast_group_add(self, mgid: int, node_ids: Iterable[int]) -> None:
        t = self.table("$pre.mgid")
        nodes = list(node_ids)
        self.write([self._update(U.INSERT, t, {"$MGID": mgid}, data={
            "$MULTICAST_NODE_ID": nodes, "$MULTICAST_NODE_L1_XID_VALID": [False] * len(nodes),
            "$MULTICAST_NODE_L1_XID": [0] * len(nodes)})], f"$pre.mgid add {mgid}")

    # ------------------------------------------------------------------ reset
    def reset(self) -> None:
        """Back to an empty program state between tests, table by table (works the
        same on bf_switchd): multicast groups and nodes removed, every match table
        cleared and its default restored, registers and counters to initial values."""
        ups = []
        for name in ("$pre.mgid", "$pre.node"):
            if name in self.info.tables:
                u = pb.Update(type=U.DELETE)
                u.entity.table_entry.table_id = self.info.tables[name].id
                ups.append(u)
        self.write(ups, "reset of the PRE")
        ups = []
        for t in self.info.tables.values():
            if t.table_type == "MatchAction_Direct":
                if not t.is_const:
                    u = pb.Update(type=U.DELETE)
                    u.entity.table_entry.table_id = t.id
                    ups.append(u)
                if not t.has_const_default_action:
                    u = pb.Update(type=U.RESET)
                    u.entity.table_entry.table_id = t.id
                    u.entity.table_entry.is_default_entry = True
                    ups.append(u)
            elif t.table_type in ("Register", "Counter"):
                u = pb.Update(type=U.DELETE)
                u.entity.table_entry.table_id = t.id
                ups.append(u)
        self.write(ups, "reset of the program's tables")


def _short_field(t: TableInfo, field_id: int) -> str:
    """A register/counter data field's name without the table's prefix (``f1``, a pair
    member's name, ``$COUNTER_SPEC_PKTS``); the id itself if the schema lacks it."""
    fi = t.data_field_by_id(field_id)
    if fi is None:
        return str(field_id)
    prefix = t.name.split(".", 1)[1] + "." if "." in t.name else ""
    return fi.name[len(prefix):] if fi.name.startswith(prefix) else fi.name


_KEY_FORMS = {"Exact": "an integer", "Ternary": "(value, mask)", "LPM": "(value, prefix_len)",
              "Range": "(low, high)", "Optional": "an integer"}
