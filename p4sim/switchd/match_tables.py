"""BfRuntime's direct match-action tables (``MatchAction_Direct``) on the softswitch:
entries and the default entry written and read, with their direct counter and
direct-meter data fields. Keys: match_keys.py; entry handles: handles.py; indirect
tables: profile_tables.py.

Decisions where BfRuntime leaves room:
- a write without a key that is not to the default entry acts on the whole table:
  DELETE clears it, RESET also restores the default action (a const table keeps its
  entries); a read without a key returns every entry and then the default entry
  (``is_default_entry``), as bf_switchd's read-all does;
- MODIFY of an entry keeps its direct counter unless the ``reset_stats`` flag is set,
  as bf_switchd does (the SDE client's ``entry_mod`` sets it by default).
"""

from __future__ import annotations

import grpc

from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import TableInfo, encode_int

from p4sim import errors as p4sim_errors

from . import filters, handles
from .data_fields import parse_action, to_signed
from .errors import DeviceError, bad_request as _bad
from .match_keys import find_entry, key_proto, parse_key
from .meters import MeterControl

U = pb.Update


class MatchTables:
    """Write and read handlers of a device's MatchAction_Direct tables (the device's
    lock is held by the caller)."""

    def __init__(self, objects: dict, meters: MeterControl,
                 handle_place=lambda t: (1, 0)):
        self.objects = objects      # table id -> p4sim table (SoftDevice.objects)
        self.meters = meters
        self.handle_place = handle_place    # t -> handles.handle_of's place, this pipe's

    def write(self, t: TableInfo, typ, te: pb.TableEntry) -> None:
        """One Update of an entry, the default entry, or (without a key) the table."""
        p4t = self.objects[t.id]
        has_key = te.HasField("key") and len(te.key.fields) > 0
        if te.is_default_entry:
            if typ in (U.INSERT, U.MODIFY, U.INSERT_OR_MODIFY):
                action, params, _ = parse_action(t, p4t, te.data)
                p4t.set_default(action, params)
            elif typ in (U.DELETE, U.RESET):
                p4t.reset_default()
            else:
                raise _bad(f"table {t.name}: {U.Type.Name(typ)} is not valid on the default entry")
            return
        if not has_key:
            if typ == U.DELETE:
                p4t.clear()
            elif typ == U.RESET:
                if not p4t.const:
                    p4t.clear()
                p4t.reset_default()
            else:
                raise _bad(f"table {t.name}: {U.Type.Name(typ)} needs a key "
                           f"(key fields: {[k.name for k in t.keys]})")
            return
        key, prio = parse_key(t, p4t, te)
        if typ == U.DELETE:
            p4t.delete(key)
            return
        action, params, extra = parse_action(t, p4t, te.data, need_action=typ != U.MODIFY
                                             or te.data.action_id != 0)
        if typ == U.INSERT:
            p4t.add(key, action, params, prio)
        elif typ == U.MODIFY:
            # bf_switchd keeps the entry's statistics unless the reset_stats flag is set
            # (the SDE client's entry_mod sets it by default), and the action data the
            # MODIFY leaves out when it keeps the action
            keep_unwritten_params(p4t, key, action, params)
            p4t.modify(key, action, params, prio, reset_counters=te.table_flags.reset_stats)
        elif typ == U.INSERT_OR_MODIFY:
            norm = p4t._normalise_key(key)[0]
            if norm in p4t.entries:
                p4t.modify(key, action, params, prio)
            else:
                p4t.add(key, action, params, prio)
        else:
            raise DeviceError(grpc.StatusCode.UNIMPLEMENTED,
                              f"table {t.name}: {U.Type.Name(typ)} is not supported on "
                              f"match-action tables")
        if extra:
            e = p4t.entries[p4t._normalise_key(key)[0]]
            e.bytes = extra.get("$COUNTER_SPEC_BYTES", e.bytes)
            e.packets = extra.get("$COUNTER_SPEC_PKTS", e.packets)
            set_direct_register(t, p4t, e, extra)
            filters.set_direct(t, p4t, e, extra)
            self.meters.set_direct(t, p4t, e, {n: v for n, v in extra.items()
                                               if MeterControl.is_spec_field(n)})

    def _entity(self, t: TableInfo, p4t, e, default=False) -> pb.Entity:
        """Entry ``e`` (or the default entry) as a read answers it."""
        ent = pb.Entity()
        out = ent.table_entry
        out.table_id = t.id
        if default:
            out.is_default_entry = True
            result = p4t.default_result
        else:
            result = e.result
            key_proto(t, p4t, e, out)
        aspec = p4t.spec.actions[result[1]]
        ai = t.action(aspec.name)
        out.data.action_id = ai.id
        for (pname, w, _s), v in zip(aspec.params, result[3]):
            df = out.data.fields.add()
            df.field_id = ai.fields[pname].id
            df.stream = encode_int(v & ((1 << w) - 1), w)
        if p4t.spec.has_direct_counter and not default:
            for name, v in (("$COUNTER_SPEC_BYTES", e.bytes), ("$COUNTER_SPEC_PKTS", e.packets)):
                if name not in t.data:
                    continue
                df = out.data.fields.add()
                df.field_id = t.data[name].id
                df.stream = encode_int(v, 64)
        if p4t.spec.direct_meter is not None and not default:
            MeterControl.add_fields(p4t.spec.direct_meter.kind, e.meter, out.data)
        if p4t.spec.direct_filter is not None and not default:
            filters.add_direct_fields(p4t, e, out.data)
        if p4t.spec.direct_register is not None and not default:
            fields, _init, qual = p4t.spec.direct_register
            for (member, w, _s), v in zip(fields, e.dreg):
                df = out.data.fields.add()
                df.field_id = t.data[f"{qual}.{member or 'f1'}"].id
                df.stream = encode_int(v & ((1 << w) - 1), w)
        return ent

    def undo_of(self, t: TableInfo, te: pb.TableEntry):
        """What puts the entry (or the default entry, or the whole table) an update of
        ``te`` changes back as it is now: ROLLBACK_ON_ERROR's journal (server.py)."""
        p4t = self.objects[t.id]
        if te.is_default_entry:
            result = p4t.default_result
            return lambda: setattr(p4t, "default_result", result)
        if not (te.HasField("key") and te.key.fields):
            entries = dict(p4t.entries)

            def restore_all():
                p4t.entries.clear()
                p4t.entries.update(entries)
                p4t._resort()
            return restore_all
        try:
            key = p4t._normalise_key(parse_key(t, p4t, te)[0])[0]
        except (DeviceError, p4sim_errors.P4SimError):
            return lambda: None         # a malformed key changes nothing
        old = p4t.entries.get(key)

        def restore():
            if old is None:
                p4t.entries.pop(key, None)
            else:
                p4t.entries[key] = old
            p4t._resort()
        return restore

    def read_handle(self, t: TableInfo, hid: pb.HandleId) -> pb.Entity:
        """``Read(Entity.handle)``: the handle of the entry ``hid``'s key names."""
        if t.table_type != "MatchAction_Direct":
            raise DeviceError(grpc.StatusCode.UNIMPLEMENTED,
                              f"table {t.name}: entry handles are served for match-action "
                              f"tables, not {t.table_type}")
        handles.check_handle_request(t.name, hid)
        return handles.handle_entity(t.id, find_entry(t, self.objects[t.id], hid),
                                     self.handle_place(t))

    def read(self, t: TableInfo, te: pb.TableEntry):
        """The entries a read names: by key, by handle, the default one, or all."""
        p4t = self.objects[t.id]
        if te.is_default_entry:
            yield self._entity(t, p4t, None, default=True)
            return
        if te.WhichOneof("value") == "handle_id":
            e = handles.entry_by_handle(t.name, p4t, te.handle_id, self.handle_place(t),
                                        te.table_flags.from_hw)
            ent = self._entity(t, p4t, e, default=e is None)
            ent.table_entry.is_default_entry = False    # read by handle, as an entry
            yield handles.key_only(ent) if te.table_flags.key_only and e else ent
            return
        # a read may name an action (the SDE client's data filter): entries of it only
        wanted = t.action_by_id(te.data.action_id) if te.data.action_id else None
        if te.HasField("key") and te.key.fields:
            e = find_entry(t, p4t, te)
            has = p4t.spec.actions[e.result[1]].name
            if wanted is not None and wanted.name != has:
                raise _bad(f"table {t.name}: the read names action {wanted.name}, the "
                           f"entry has {has}")
            yield self._entity(t, p4t, e)
            return
        for e in list(p4t.entries.values()):     # in the order they were added, as
            if wanted is None or wanted.name == p4t.spec.actions[e.result[1]].name:
                yield self._entity(t, p4t, e)    # bf_switchd iterates handles
        yield self._entity(t, p4t, None, default=True)


def set_direct_register(t: TableInfo, p4t, e, extra: dict) -> None:
    """The DirectRegister cell of entry ``e`` from the data fields written with it."""
    if p4t.spec.direct_register is None:
        return
    fields, _init, qual = p4t.spec.direct_register
    for j, (member, w, signed) in enumerate(fields):
        v = extra.get(f"{qual}.{member or 'f1'}")
        if v is not None:
            e.dreg[j] = to_signed(v, w) if signed else v


def keep_unwritten_params(p4t, key, action: str | None, params: dict | None) -> None:
    """A MODIFY that names the entry's own action and only some of its parameters keeps
    the others (bf_switchd changes the fields written, the SDE's tna_ternary_match)."""
    if action is None or params is None:
        return
    old = p4t.entries.get(p4t._normalise_key(key)[0])
    if old is None:
        return
    spec = p4t.spec.actions[old.result[1]]
    if spec.name != action:
        return
    for (pname, _w, _signed), v in zip(spec.params, old.result[3]):
        params.setdefault(pname, v)
