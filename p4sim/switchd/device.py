"""BfRuntime entities applied to a p4sim Switch: the device behind the gRPC server.

This module routes; each table type of the schema (``bfrt_schema.py``) is served by its
own module, listed in ``SoftDevice._handlers``: direct match-action tables
(``match_tables.py``, keys in ``match_keys.py``, handles in ``handles.py``), action
profiles, selectors and indirect tables (``profile_tables.py``), registers
(``register_tables.py``), ``RegisterParam`` (``register_param_table.py``), counters
(``counter_tables.py``), meters and direct-meter fields (``meters.py``), Lpf and Wred
(``filters.py``), ``$PORT_METADATA`` (``port_metadata.py``), the PRE (``pre.py``), the
``$PORT`` family (``port_tables.py``) and ``tf1.dev.device_configuration``
(``device_configuration.py``); table attributes and operations: ``attributes.py``;
object ids: ``object_ids.py``; digests leave as learn messages (``learn.py``). Ids on
the wire are resolved through the same :class:`bfruntime.info.BfrtInfo` a client uses,
so server and client cannot disagree about a name.

One lock guards the Switch: the data path (``inject``) and the control plane take it
in turn, as p4sim is not thread-safe.

Pipes (``pipes``: 1, 2 or 4): each pipe of the p4sim device has its own handlers over
its own objects (``PipeHandlers``); ``pipe_scope.py`` says which pipes a write or a
read acts on (the target's ``pipe_id`` and the table's ``EntryScope``) and merges the
answers of several pipes.

Decisions where BfRuntime leaves room:
- A write whose table entry has no key and is not the default entry acts on the whole
  table (DELETE clears it, RESET also restores a default action), and a read without a
  key returns every entry or index, each table's module saying what that means for it.
- ``tf1.dev.device_configuration`` and ``$PORT`` say how many pipes there are, and a
  register read has one value per pipe read.
- ``ignore_not_found`` (DELETE only, as in bf_switchd): ``server.py``. ``from_hw``
  makes no difference because p4sim has no software shadow.
- A p4sim control-plane error maps to a gRPC status in ``errors.py``; a schema error
  (a name or value the schema does not have) is INVALID_ARGUMENT in a write and
  NOT_FOUND in a read.
"""

from __future__ import annotations

import threading
from functools import partial

import grpc

import p4sim
from p4sim.pipes import check_pipe_count, pipe_of
from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import BfrtInfo, SchemaError, TableInfo

from . import (counter_tables, device_configuration, filters, learn, port_metadata,
               register_tables)
from .attributes import TableAttributes
from .bfrt_schema import fixed_schema, program_schema
from .errors import DeviceError, bad_request as _bad, from_control_plane
from .match_tables import MatchTables
from .mirror_cfg import MirrorSessions
from .meters import MeterControl
from .object_ids import read_object_id
from .pipe_scope import (ALL_PIPES, DEVICE_TABLE_TYPES, PipeScopes, counters_zeroed,
                         merge_reads, scopes_of, target_pipe)
from .port_tables import PortState, PortTables
from .pre import Pre, PreGroup, PreNode
from .profile_tables import PROFILE_TABLE_TYPES, ProfileTables
from .register_param_table import read_register_param, write_register_param

U = pb.Update


class SoftDevice:
    """The switch behind the BfRuntime server: p4sim plus ports, PRE and schema."""

    def __init__(self, program, p4_name: str, ports: dict[int, str] | None = None, *,
                 recirculation_port: int = 68, seed: int = 0, pipes: int = 1):
        self.program = program
        self.p4_name = p4_name
        self.num_pipes = check_pipe_count(pipes)
        absent = sorted(p for p in (ports or {}) if pipe_of(p) >= pipes)
        if absent:
            raise ValueError(f"ports {absent} are in pipes {sorted({pipe_of(p) for p in absent})}"
                             f"; a {pipes}-pipe device has ports 0..{128 * pipes - 1} (the "
                             f"pipe of port p is p >> 7): use --pipes 4 or other ports")
        self.ports = {p: PortState(ifname) for p, ifname in (ports or {}).items()}
        self._recirculation_port = recirculation_port
        self._seed = seed
        self._bound = ports is not None
        self.port_tables = PortTables(self.ports)
        self.schema = program_schema(program)
        self.fixed = fixed_schema()
        self.info = BfrtInfo(p4_name, self.schema, self.fixed)
        self.lock = threading.RLock()
        self.port_listeners: list = []     # callables (port, up) for StreamChannel
        self.learns = learn.from_schema(self.schema)   # p4sim digest name -> LearnFilter
        self.digest_listeners: list = []   # callables (LearnFilter, [entries]) (learn.py)
        self._build()

    def _build(self) -> None:
        """A fresh device: empty tables, registers at their initial values, no PRE state."""
        sw = p4sim.Switch(self.program, recirculation_port=self._recirculation_port,
                          ports=set(self.ports) if self._bound else None, seed=self._seed,
                          pipes=self.num_pipes)
        self.switch = sw
        self.pre = Pre(sw)
        self.mirrors = MirrorSessions(sw)
        self.attributes = TableAttributes(self.table)
        self.scopes = PipeScopes(self.num_pipes, self.attributes.scope)
        self.pipes = [PipeHandlers(self, sw if self.num_pipes == 1 else sw.pipe(i), i)
                      for i in range(self.num_pipes)]
        first = self.pipes[0]      # pipe 0 answers what every pipe holds alike
        self.objects, self.profiles = first.objects, first.profiles
        self.meters, self.matches = first.meters, first.matches

    def _handlers(self, pipe: PipeHandlers) -> tuple[dict, dict]:
        """(writers, readers) by table type for one pipe: the module serving each table
        of the schema. A writer is ``(t, Update.type, TableEntry)``, a reader ``(t,
        TableEntry)`` giving the answering entities."""
        sw = pipe.switch

        def on_object(handler):     # handler(p4sim object behind t, t, ...)
            return lambda t, *args: handler(pipe.objects[t.id], t, *args)

        def read_only(t: TableInfo, typ, te: pb.TableEntry):
            raise _bad(f"table {t.name} is read-only on the softswitch")

        writers = {"MatchAction_Direct": pipe.matches.write,
                   **dict.fromkeys(PROFILE_TABLE_TYPES, pipe.profiles.write),
                   "Register": on_object(register_tables.write),
                   "RegisterParam": on_object(write_register_param),
                   "Counter": on_object(counter_tables.write),
                   "Meter": lambda t, typ, te: pipe.meters.write(t, pipe.objects[t.id], typ, te),
                   "Lpf": partial(filters.write, sw), "Wred": partial(filters.write, sw),
                   "PortMetadata": partial(port_metadata.write, sw),
                   "PreNode": self.pre.write_node, "PreMgid": self.pre.write_mgid,
                   "MirrorCfg": self.mirrors.write,
                   "PortConfigure": self.port_tables.write_port,
                   "PortStat": self.port_tables.write_stat,
                   "PortStrInfo": read_only, "DevConfigure": read_only}
        readers = {"MatchAction_Direct": pipe.matches.read,
                   **dict.fromkeys(PROFILE_TABLE_TYPES, pipe.profiles.read),
                   "Register": on_object(register_tables.read),
                   "RegisterParam": on_object(read_register_param),
                   "Counter": on_object(counter_tables.read),
                   "Meter": lambda t, te: pipe.meters.read(t, pipe.objects[t.id], te),
                   "Lpf": partial(filters.read, sw), "Wred": partial(filters.read, sw),
                   "PortMetadata": partial(port_metadata.read, sw),
                   "PreNode": self.pre.read_node, "PreMgid": self.pre.read_mgid,
                   "MirrorCfg": self.mirrors.read,
                   "PortConfigure": self.port_tables.read_port,
                   "PortStat": self.port_tables.read_stat,
                   "PortStrInfo": self.port_tables.read_str_info,
                   "DevConfigure": lambda t, te: device_configuration.read(
                       t, self.device_configuration())}
        return writers, readers

    @property
    def nodes(self) -> dict[int, PreNode]:
        """``$pre.node``'s entries by node id (state of ``pre.py``)."""
        return self.pre.nodes

    @property
    def groups(self) -> dict[int, PreGroup]:
        """``$pre.mgid``'s entries by group id (state of ``pre.py``)."""
        return self.pre.groups

    def device_configuration(self) -> dict:
        """The values of ``tf1.dev.device_configuration`` (``device_configuration.py``)."""
        return device_configuration.values(self.ports, self._recirculation_port,
                                           self.num_pipes)

    def reset(self) -> None:
        """Back to the state right after start (ports keep their bindings)."""
        with self.lock:
            self._build()

    # ------------------------------------------------------------------ entry points
    def table(self, tid: int) -> TableInfo:
        t = self.info.table_by_id(tid)
        if t is None:
            raise DeviceError(grpc.StatusCode.NOT_FOUND,
                              f"no table with id {tid} in program {self.p4_name!r}; table ids "
                              f"come from GetForwardingPipelineConfig's bfrt.json")
        return t

    def write(self, update: pb.Update, pipe_id: int = ALL_PIPES,
              journal: list | None = None) -> None:
        """Apply one Update for the request's ``pipe_id`` (an entry's ``entry_tgt``
        wins); raises DeviceError. ``journal``: collects how to undo it (a
        ROLLBACK_ON_ERROR request, of match-action table entries only)."""
        kind = update.entity.WhichOneof("entity")
        if kind == "table_attribute":
            ta = update.entity.table_attribute
            with self.lock:
                if ta.WhichOneof("attribute") == "byte_count_adj":     # per pipe
                    self.scopes.check_pipe(pipe_id)
                    for p in (range(self.num_pipes) if pipe_id == ALL_PIPES else (pipe_id,)):
                        self.pipes[p].meters.write_adjust(self.table(ta.table_id),
                                                          self.pipes[p].objects,
                                                          ta.byte_count_adj.byte_count_adjust)
                else:
                    if ta.WhichOneof("attribute") == "entry_scope":   # refused before kept
                        scopes_of(ta.entry_scope, self.num_pipes, self.table(ta.table_id).name)
                    self.attributes.write(ta)
            return
        if kind == "table_operation":
            self.attributes.run_operation(update.entity.table_operation)
            return
        if kind != "table_entry":
            raise DeviceError(grpc.StatusCode.UNIMPLEMENTED,
                              f"writing a {kind or 'empty'} entity is not supported by the "
                              f"softswitch (table_entry, table_attribute, table_operation)")
        if update.type == U.UNSPECIFIED:
            raise _bad("Update.type is UNSPECIFIED; use INSERT, MODIFY, INSERT_OR_MODIFY, "
                       "DELETE or RESET")
        te = update.entity.table_entry
        t = self.table(te.table_id)
        if journal is not None and t.table_type != "MatchAction_Direct":
            raise DeviceError(grpc.StatusCode.UNIMPLEMENTED,
                              f"ROLLBACK_ON_ERROR: the softswitch rolls back match-action "
                              f"table entries only, not {t.table_type} table {t.name}")
        with self.lock:
            try:
                for k, p in enumerate(self.scopes.write_pipes(t, target_pipe(pipe_id, te))):
                    if journal is not None:
                        journal.append(self.pipes[p].matches.undo_of(t, te))
                    self.pipes[p].writers[t.table_type](t, update.type,
                                                        te if k == 0 else counters_zeroed(t, te))
            except p4sim.ControlPlaneError as e:
                raise from_control_plane(e) from None
            except SchemaError as e:
                raise _bad(str(e)) from None

    def read(self, entity: pb.Entity, pipe_id: int = ALL_PIPES):
        """The entities answering one read request entity for the request's
        ``pipe_id`` (an entry's ``entry_tgt`` wins)."""
        kind = entity.WhichOneof("entity")
        with self.lock:
            try:
                if kind == "table_entry":
                    te = entity.table_entry
                    t = self.table(te.table_id)
                    pipe = target_pipe(pipe_id, te)
                    self.scopes.check_shadow_read(t, pipe, te)
                    groups = self.scopes.read_groups(t, pipe, te)
                    found = merge_reads(t, groups, [
                        [list(self.pipes[p].readers[t.table_type](t, te)) for p in group]
                        for group in groups])
                    if te.HasField("entry_tgt"):    # answered as asked (bf_switchd)
                        for ent in found:
                            ent.table_entry.entry_tgt.CopyFrom(te.entry_tgt)
                    elif te.WhichOneof("value") == "handle_id" and te.table_flags.key_only:
                        for ent in found:           # the entry's own target (bf_switchd)
                            tgt = ent.table_entry.entry_tgt
                            tgt.pipe_id = groups[0][0] if len(self.scopes.read_groups(
                                t, ALL_PIPES)) > 1 else pipe
                            tgt.direction = tgt.prsr_id = 0xFF
                    return found
                if kind == "table_usage":
                    return [self._read_usage(entity.table_usage)]
                if kind == "object_id":
                    return [read_object_id(self.info, self.learns, entity.object_id)]
                if kind == "handle":            # the pipe read: the target's (0 for all)
                    pipe = self.scopes.read_groups(self.table(entity.handle.table_id),
                                                   pipe_id)[0][0]
                    return [self.pipes[pipe].matches.read_handle(
                        self.table(entity.handle.table_id), entity.handle)]
                if kind == "table_attribute":
                    ta = entity.table_attribute
                    if ta.WhichOneof("attribute") == "byte_count_adj":     # a pipe's
                        self.scopes.check_pipe(pipe_id)
                        pipe = 0 if pipe_id == ALL_PIPES else pipe_id
                        return [self.pipes[pipe].meters.read_adjust(self.table(ta.table_id))]
                    return [self.attributes.read(ta)]
            except p4sim.ControlPlaneError as e:
                raise from_control_plane(e) from None
            except SchemaError as e:
                raise DeviceError(grpc.StatusCode.NOT_FOUND, str(e)) from None
        raise DeviceError(grpc.StatusCode.UNIMPLEMENTED,
                          f"reading a {kind or 'empty'} entity is not supported by the "
                          f"softswitch (table_entry, table_usage, object_id, "
                          f"table_attribute, handle)")

    # ------------------------------------------------------------------ data path
    def inject(self, port: int, frame: bytes, timestamp_ns: int, queue_depth: int = 0):
        """Run one frame; frames to disabled or down ports are dropped."""
        st = self.ports.get(port)
        if st is not None and not (st.enabled and st.up):
            return []
        with self.lock:
            try:
                out = self.switch.inject(port, frame, timestamp_ns=timestamp_ns,
                                         queue_depth=queue_depth)
            finally:
                if st is not None:
                    st.rx += 1
                learn.deliver(self.switch, self.learns, self.digest_listeners)
            sent = []
            for p, f in out:
                s = self.ports.get(p)
                if s is None or (s.enabled and s.up):
                    sent.append((p, f))
                    if s is not None:
                        s.tx += 1
        return sent

    def set_port_up(self, port: int, up: bool) -> None:
        st = self.ports[port]
        if st.up == up:
            return
        st.up = up
        for listener in list(self.port_listeners):
            listener(port, up)

    # ------------------------------------------------------------------ reads of other entities
    def _read_usage(self, tu: pb.TableUsage) -> pb.Entity:
        t = self.table(tu.table_id)
        obj = self.objects.get(t.id)
        if t.table_type in ("MatchAction_Direct", "MatchAction_Indirect",
                            "MatchAction_Indirect_Selector"):
            n = len(obj.entries)
        elif t.table_type == "PreNode":
            n = len(self.pre.nodes)
        elif t.table_type == "PreMgid":
            n = len(self.pre.groups)
        elif t.table_type == "PortMetadata":
            n = len(self.switch.port_metadata)
        else:
            n = t.size
        ent = pb.Entity()
        ent.table_usage.table_id = t.id
        ent.table_usage.usage = n
        return ent


class PipeHandlers:
    """One pipe's p4sim objects by table id and the handlers over them."""

    def __init__(self, device: SoftDevice, switch, pipe: int = 0):
        self.switch = switch
        self.profiles = ProfileTables(self)
        self.objects = {}    # table id -> the p4sim object behind it (the handlers' state)
        for t in device.info.tables.values():
            if t.table_type in DEVICE_TABLE_TYPES:
                continue
            short = t.name.split(".", 1)[1] if "." in t.name else t.name
            if t.table_type == "MatchAction_Direct":
                self.objects[t.id] = switch.tables[short]
            elif t.table_type == "Register":
                self.objects[t.id] = switch.registers[short]
            elif t.table_type == "Counter":
                self.objects[t.id] = switch.counters[short]
            elif t.table_type == "Meter":
                self.objects[t.id] = switch.meters[short]
            elif t.table_type == "RegisterParam":
                self.objects[t.id] = switch.register_param(short)
            elif t.table_type in PROFILE_TABLE_TYPES:
                self.objects[t.id] = self.profiles.object_for(t, short)
        self.meters = MeterControl(switch)
        self.matches = MatchTables(self.objects, self.meters,
                                   lambda t: device.scopes.handle_place(t, pipe))
        self.writers, self.readers = device._handlers(self)
