"""Pipes on the softswitch: which pipes a BfRuntime write or read acts on, and how the
answers of several pipes become one.

A device has 1, 2 or 4 pipes (``--pipes``; p4sim/pipes.py: the pipe of port ``p`` is
``p >> 7``), each with its own instance of every table, register, counter, meter and
filter. A table's ``EntryScope`` (``attributes.py`` stores it) splits the pipes into
scopes: ``ALL`` one scope of every pipe (symmetric, the start), ``SINGLE`` one scope per
pipe, ``user_defined`` one scope per non-zero byte of the value (byte ``i``'s bits are
scope ``i``'s pipes; ``0x0c03``: pipes {0, 1} and {2, 3}), every pipe in exactly one.

Decisions, as bf_switchd behaves where an SDE test observes it:
- A write for ``pipe_id`` p acts on every pipe of p's scope; for all pipes (0xffff) on
  every pipe when the table is symmetric, and is INVALID_ARGUMENT when it has several
  scopes (name a pipe of the scope to write). Register tables are "always asymmetric"
  (the SDE's tna_register): pipe p writes pipe p alone unless a user-defined scope puts
  it with others, and 0xffff writes every pipe whatever the scope.
- A read of a match-action or profile table for pipe p answers from p's instance; for
  all pipes from pipe 0 when symmetric, else each scope's entries in turn (each with
  its ``entry_tgt`` naming the scope's lowest pipe).
- A register read answers one value per pipe read (every pipe for 0xffff, whatever the
  scope: bf_switchd returns every instance); a counter read (and a match entry's direct
  counter) answers the sum over the pipes read, and a counter value written for several
  pipes is the first pipe's (the others start at 0), so that it reads back as written.
- The PRE, ports, ``$PORT_METADATA`` (keyed by port, so by pipe) and the device tables
  are the device's: written and read once.
- A pipe_id the device does not have is INVALID_ARGUMENT naming its pipes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import grpc

from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import TableInfo, decode_int, encode_int

from .attributes import has_entry_scope
from .errors import DeviceError, bad_request

ALL_PIPES = 0xFFFF
DEVICE_TABLE_TYPES = frozenset(("PreNode", "PreMgid", "PortConfigure", "PortStat",
                                "PortStrInfo", "DevConfigure", "PortMetadata", "MirrorCfg"))
COUNTER_FIELDS = frozenset(("$COUNTER_SPEC_BYTES", "$COUNTER_SPEC_PKTS"))
ENTRY_TABLE_TYPES = frozenset(("MatchAction_Direct", "MatchAction_Indirect",
                               "MatchAction_Indirect_Selector", "Action", "Selector"))


def scopes_of(es: pb.EntryScope, num_pipes: int, table: str = "") -> list[tuple[int, ...]]:
    """The pipe scopes of an EntryScope (module docstring); raises DeviceError for a
    user-defined value that leaves a pipe out, puts it in two scopes or names a pipe
    the device lacks."""
    ps = es.pipe_scope
    kind = ps.WhichOneof("scope")
    if kind is None or (kind == "predef" and ps.predef == pb.Mode.ALL):
        return [tuple(range(num_pipes))]
    if kind == "predef":
        return [(p,) for p in range(num_pipes)]
    value = ps.user_defined
    scopes, seen = [], set()
    for byte in range(4):
        pipes = tuple(p for p in range(8) if value >> (8 * byte + p) & 1)
        if not pipes:
            continue
        bad = [p for p in pipes if p >= num_pipes or p in seen]
        if bad:
            raise bad_request(f"table {table} EntryScope user_defined {value:#x}: pipe(s) "
                              f"{bad} are absent (this device has pipes 0..{num_pipes - 1}) "
                              f"or in two scopes")
        seen.update(pipes)
        scopes.append(pipes)
    if len(seen) != num_pipes:
        raise bad_request(f"table {table} EntryScope user_defined {value:#x}: pipes "
                          f"{sorted(set(range(num_pipes)) - seen)} are in no scope; every "
                          f"pipe must be in one")
    return scopes


def target_pipe(pipe_id: int, te: pb.TableEntry | None) -> int:
    """The pipe an entity names: its ``entry_tgt``, else the request's ``pipe_id``."""
    if te is not None and te.HasField("entry_tgt"):
        return te.entry_tgt.pipe_id
    return pipe_id


@dataclass
class PipeScopes:
    """Pipes of a table's write or read; ``scope(tid)`` gives a table's EntryScope."""

    num_pipes: int
    scope: Callable[[int], pb.EntryScope]

    def check_pipe(self, pipe_id: int) -> None:
        if pipe_id != ALL_PIPES and not 0 <= pipe_id < self.num_pipes:
            raise DeviceError(grpc.StatusCode.INVALID_ARGUMENT,
                              f"pipe_id {pipe_id}: this softswitch has pipes "
                              f"0..{self.num_pipes - 1} (0xffff: all pipes)")

    def _scopes(self, t: TableInfo) -> list[tuple[int, ...]]:
        if not has_entry_scope(t):
            return [tuple(range(self.num_pipes))]
        return scopes_of(self.scope(t.id), self.num_pipes, t.name)

    def write_pipes(self, t: TableInfo, pipe_id: int) -> tuple[int, ...]:
        self.check_pipe(pipe_id)
        if t.table_type in DEVICE_TABLE_TYPES:
            return (0,)
        scopes = self._scopes(t)
        if t.table_type == "Register":      # always per pipe (module docstring)
            if pipe_id == ALL_PIPES:
                return tuple(range(self.num_pipes))
            if len(scopes) == 1 or all(len(sc) == 1 for sc in scopes):
                return (pipe_id,)
        if pipe_id == ALL_PIPES:
            if len(scopes) > 1:
                raise bad_request(f"table {t.name} is asymmetric (pipe scopes {scopes}): "
                                  f"a write names a pipe of the scope it writes, not all "
                                  f"pipes (0xffff)")
            return scopes[0]
        return next(s for s in scopes if pipe_id in s)

    def handle_place(self, t: TableInfo, pipe: int) -> tuple[int, int]:
        """(pipes, the lowest pipe of ``pipe``'s scope): where ``handles.handle_of``
        puts the entries of table ``t`` in ``pipe``."""
        return self.num_pipes, min(next(s for s in self._scopes(t) if pipe in s))

    def check_shadow_read(self, t: TableInfo, pipe_id: int, te: pb.TableEntry) -> None:
        """A read of an entry from software (``from_hw`` false) finds it only where
        bf_switchd keeps its shadow: a symmetric table's under all pipes (0xffff), an
        asymmetric one's under the lowest pipe of each scope (the SDE's
        tna_ternary_match: NOT_FOUND elsewhere)."""
        if (pipe_id == ALL_PIPES or t.table_type not in ENTRY_TABLE_TYPES
                or te.is_default_entry or te.table_flags.from_hw or self.num_pipes == 1
                or not (te.key.fields or te.WhichOneof("value") == "handle_id")):
            return
        scopes = self._scopes(t)
        scope = next(sc for sc in scopes if pipe_id in sc)
        if len(scopes) == 1 or pipe_id != min(scope):
            raise DeviceError(grpc.StatusCode.NOT_FOUND,
                              f"table {t.name}: its entries are kept in software under "
                              f"{'all pipes (0xffff)' if len(scopes) == 1 else f'pipe {min(scope)}'}"
                              f", not pipe {pipe_id}; read there or from_hw")

    def read_groups(self, t: TableInfo, pipe_id: int,
                    te: pb.TableEntry | None = None) -> list[tuple[int, ...]]:
        """The pipes whose instances answer a read, in groups that make one answer each:
        an entry table's scopes (pipe 0's entries, every pipe's direct counters), or
        the pipes of a register or counter read."""
        self.check_pipe(pipe_id)
        if t.table_type in DEVICE_TABLE_TYPES:
            return [(0,)]
        if pipe_id != ALL_PIPES:
            return [(pipe_id,)]
        if t.table_type in ENTRY_TABLE_TYPES:
            scopes = self._scopes(t)
            if te is not None and te.is_default_entry and len(scopes) > 1:
                raise bad_request(f"table {t.name} is asymmetric (pipe scopes {scopes}): "
                                  f"its default entry is read for a pipe, not all pipes")
            h = te.handle_id if te is not None and te.WhichOneof("value") == "handle_id" else 0
            if h >= 2 and len(scopes) > 1:      # a handle names its scope (handles.py)
                return [s for s in scopes if min(s) == (h - 2) % self.num_pipes][:1] \
                    or scopes[:1]
            return scopes
        return [tuple(range(self.num_pipes))]


def counters_zeroed(t: TableInfo, te: pb.TableEntry) -> pb.TableEntry:
    """``te`` as the other pipes of a scope get it: a counter value written for several
    pipes lands in the first (a read sums them), the others count from 0."""
    ids = {fi.id for name, fi in t.data.items() if name in COUNTER_FIELDS}
    if not any(df.field_id in ids for df in te.data.fields):
        return te
    out = pb.TableEntry()
    out.CopyFrom(te)
    for df in out.data.fields:
        if df.field_id in ids:
            df.stream = encode_int(0, 64)
    return out


def merge_reads(t: TableInfo, groups: list[tuple[int, ...]],
                answers: list[list[list[pb.Entity]]]) -> list[pb.Entity]:
    """One answer from each group's pipes' answers (module docstring): a register's
    values one per pipe, counters summed, anything else from the group's first pipe;
    then the groups in turn, each entity naming its group's pipe when there are
    several."""
    out = []
    for group, per_pipe in zip(groups, answers):
        ents = per_pipe[0] if len(per_pipe) == 1 else _merge_group(t, per_pipe)
        if len(groups) > 1:
            for ent in ents:
                ent.table_entry.entry_tgt.pipe_id = group[0]
        out.extend(ents)
    return out


def _merge_group(t: TableInfo, per_pipe: list[list[pb.Entity]]) -> list[pb.Entity]:
    first = per_pipe[0]
    if any(len(a) != len(first) for a in per_pipe):
        raise DeviceError(grpc.StatusCode.INTERNAL,
                          f"table {t.name}: the pipes of one scope hold different entries")
    for k, ent in enumerate(first):
        fields = ent.table_entry.data.fields
        others: dict[int, list] = {}
        for other in per_pipe[1:]:
            for df in other[k].table_entry.data.fields:
                others.setdefault(df.field_id, []).append(df)
        merged = []
        for df in fields:
            fi = t.data_field_by_id(df.field_id)
            more = others.get(df.field_id, [])
            if fi is not None and fi.name in COUNTER_FIELDS:
                total = decode_int(df.stream) + sum(decode_int(o.stream) for o in more)
                df.stream = encode_int(total, fi.width)
                merged.append(df)
            elif t.table_type == "Register" or (
                    t.table_type in ENTRY_TABLE_TYPES and fi is not None
                    and fi.name in t.data and not fi.name.startswith("$")):
                merged.append(df)             # a register's or direct register's cell:
                merged.extend(more)           # one value per pipe
            else:
                merged.append(df)
        merged = [_copy(df) for df in merged]
        del fields[:]
        fields.extend(merged)
    return first


def _copy(df: pb.DataField) -> pb.DataField:
    out = pb.DataField()
    out.CopyFrom(df)
    return out
