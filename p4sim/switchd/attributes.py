"""Table attributes and table operations: what a table's ``bfrt.json`` entry lists under
``attributes`` and ``supported_operations``, served as bf_switchd's server does.

- ``EntryScope`` (every match-action table) is validated as bf_switchd's server does
  (either only ``pipe_scope``, or all three scopes; gress and parser scope predefined,
  parser args 0, 1 or 0xFF), stored, and read back; a table starts symmetric (ALL
  pipes, both gresses, all parsers). What a scope does to writes and reads:
  ``pipe_scope.py``. Register, counter, meter, Lpf and Wred tables take it too,
  although bf-p4c's bfrt.json lists no attributes for them (bf_switchd does).
- ``Sync`` / ``SyncRegisters`` (registers), ``Sync`` / ``SyncCounters`` (counters and
  tables with a direct counter) succeed at once: p4sim keeps no software shadow to
  refresh, reads always come from the pipe.
- An attribute or operation the table does not list is UNIMPLEMENTED naming what it
  lists; ``port_status_notify`` on ``$PORT`` is a client's subscription and is served by
  the gRPC server (``server.py``), which knows the client.
"""

from __future__ import annotations

from typing import Callable

import grpc

from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import TableInfo

from .errors import DeviceError, bad_request

_SYNC_REQUESTS = {"Register": ("Sync", "SyncRegisters"),
                  "Counter": ("Sync", "SyncCounters"),
                  "MatchAction_Direct": ("Sync", "SyncCounters", "SyncRegisters")}


# tables of per-pipe state whose bfrt.json lists no attributes, where bf_switchd still
# takes an EntryScope (the SDE's tna_register sets one on a register table)
SCOPED_STATE_TYPES = frozenset(("Register", "Counter", "Meter", "Lpf", "Wred"))


def has_entry_scope(t: TableInfo) -> bool:
    return "EntryScope" in t.attributes or t.table_type in SCOPED_STATE_TYPES


def _symmetric() -> pb.EntryScope:
    return pb.EntryScope(gress_scope=pb.Mode(predef=pb.Mode.ALL),
                         pipe_scope=pb.Mode(predef=pb.Mode.ALL),
                         prsr_scope=pb.Mode(predef=pb.Mode.ALL, args=0xFF))


class TableAttributes:
    """The attribute state of one device's tables (``table(id)`` resolves a table id
    or raises DeviceError)."""

    def __init__(self, table: Callable[[int], TableInfo]):
        self._table = table
        self._scopes: dict[int, pb.EntryScope] = {}

    def _entry_scope_table(self, ta: pb.TableAttribute) -> TableInfo:
        which = ta.WhichOneof("attribute")
        if which != "entry_scope":
            raise bad_request(f"table attribute {which or '(none)'}: the softswitch serves "
                              f"EntryScope (and port_status_notify on $PORT)")
        t = self._table(ta.table_id)
        if not has_entry_scope(t):
            raise DeviceError(grpc.StatusCode.UNIMPLEMENTED,
                              f"table {t.name} has no attribute EntryScope; its bfrt.json "
                              f"lists {list(t.attributes)}")
        return t

    def scope(self, tid: int) -> pb.EntryScope:
        out = pb.EntryScope()
        out.CopyFrom(self._scopes.get(tid) or _symmetric())
        return out

    def write(self, ta: pb.TableAttribute) -> None:
        t = self._entry_scope_table(ta)
        es = ta.entry_scope
        have = [es.HasField(f) for f in ("gress_scope", "pipe_scope", "prsr_scope")]
        if have == [False, True, False]:
            new = self.scope(t.id)
            new.pipe_scope.CopyFrom(es.pipe_scope)
        elif all(have):
            for f in ("gress_scope", "prsr_scope"):
                if getattr(es, f).WhichOneof("scope") != "predef":
                    raise bad_request(f"table {t.name} EntryScope: {f} can only be "
                                      f"predefined (ALL or SINGLE)")
            if es.prsr_scope.args not in (0, 1, 0xFF):
                raise bad_request(f"table {t.name} EntryScope: prsr_scope args must be 0 "
                                  f"(ingress), 1 (egress) or 0xFF (both), got "
                                  f"{es.prsr_scope.args}")
            new = pb.EntryScope()
            new.CopyFrom(es)
        else:
            raise bad_request(f"table {t.name} EntryScope: configure either only pipe_scope "
                              f"or all three scopes")
        if new.pipe_scope.WhichOneof("scope") is None:
            raise bad_request(f"table {t.name} EntryScope: pipe_scope needs predef or "
                              f"user_defined")
        self._scopes[t.id] = new

    def read(self, ta: pb.TableAttribute) -> pb.Entity:
        t = self._entry_scope_table(ta)
        ent = pb.Entity()
        ent.table_attribute.table_id = t.id
        ent.table_attribute.entry_scope.CopyFrom(self.scope(t.id))
        return ent

    def run_operation(self, op: pb.TableOperation) -> None:
        t = self._table(op.table_id)
        accepted = _SYNC_REQUESTS.get(t.table_type, ()) if t.operations else ()
        if op.table_operations_type not in accepted:
            raise DeviceError(grpc.StatusCode.UNIMPLEMENTED,
                              f"table {t.name}: operation {op.table_operations_type!r} is not "
                              f"supported; its bfrt.json lists {list(t.operations)}")
