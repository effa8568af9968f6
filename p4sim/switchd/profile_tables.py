"""BfRuntime's tables of action profiles and selectors on the softswitch: ``Action``
(members), ``Selector`` (groups), ``SelectorGetMember`` (which member a hash value takes)
and the indirect match tables (``MatchAction_Indirect[_Selector]``) whose entries name a
member or a group. Schema: bfrt_profiles.py; behaviour: p4sim/action_profiles.py.

Decisions where BfRuntime leaves room:
- an indirect table's default entry is the program's default action; it can be reset
  (DELETE/RESET) but not set to a member (p4sim's default is an action, not a member),
  and reads of every entry return the entries without it (it has no action ids in the
  schema to be written with);
- a selector group's ``$ACTION_MEMBER_STATUS`` defaults to all true; a MODIFY that
  sends only statuses keeps the members; ``$ADT_OFFSET`` is a driver's address: a write
  of it is accepted and has no effect, a read returns bf-p4c's default;
- deleting a member or group still named by an entry or a group fails with
  ALREADY_EXISTS (the driver's BF_ENTRY_REFERENCES_EXIST, as bf_switchd maps it); naming
  a member or group that does not exist, with NOT_FOUND.
"""
from __future__ import annotations

import grpc

from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import TableInfo, decode_int, encode_int

from . import filters
from .bfrt_profiles import ADT_OFFSET_DEFAULT
from .data_fields import fields_by_name, parse_action
from .errors import DeviceError, bad_request as _bad
from .index_key import fixed_key
from .match_keys import key_proto, parse_key

U = pb.Update
PROFILE_TABLE_TYPES = ("Action", "Selector", "SelectorGetMember", "MatchAction_Indirect",
                       "MatchAction_Indirect_Selector")


class ProfileTables:
    """Write and read handlers of the table types in PROFILE_TABLE_TYPES for a
    SoftDevice (its lock is held by the caller)."""

    def __init__(self, device):
        self.dev = device

    def object_for(self, t: TableInfo, short: str):
        """The p4sim object behind table ``t`` (``short``: its name without the pipe)."""
        sw = self.dev.switch
        if t.table_type == "Action":
            return sw.action_profile(short)
        if t.table_type == "Selector":
            return sw.action_selector(short)
        if t.table_type == "SelectorGetMember":
            return sw.action_selector(short[:-len("_get_member")])
        return sw.indirect_table(short)

    def write(self, t: TableInfo, typ, te: pb.TableEntry) -> None:
        {"Action": self._write_members, "Selector": self._write_groups,
         "SelectorGetMember": self._write_get_member}.get(t.table_type, self._write_entries)(
            t, typ, te)

    def read(self, t: TableInfo, te: pb.TableEntry):
        return {"Action": self._read_members, "Selector": self._read_groups,
                "SelectorGetMember": self._read_get_member}.get(t.table_type,
                                                                 self._read_entries)(t, te)

    def _deleted(self, t: TableInfo, typ, te: pb.TableEntry):
        """(members/groups, key) of a write; None when the write was a deletion (of one
        id, or of them all without a key), now done."""
        ids = self.dev.objects[t.id]
        key = fixed_key(t, te)
        if key is None:
            if typ not in (U.DELETE, U.RESET):
                raise _bad(f"table {t.name}: {U.Type.Name(typ)} needs key {t.keys[0].name}")
            ids.clear()
        elif typ == U.DELETE:
            ids.delete(key)
        else:
            return ids, key
        return None

    # ---- members
    def _write_members(self, t: TableInfo, typ, te: pb.TableEntry) -> None:
        todo = self._deleted(t, typ, te)
        if todo is None:
            return
        prof, mid = todo
        action, params, extra = parse_action(t, prof, te.data)
        if extra:
            raise _bad(f"table {t.name}: unknown data fields {sorted(extra)}")
        if typ == U.INSERT or typ == U.INSERT_OR_MODIFY and mid not in prof.members:
            prof.add(mid, action, params)
        elif typ in (U.MODIFY, U.INSERT_OR_MODIFY):
            prof.modify(mid, action, params)
        else:
            raise _unsupported(t, typ)

    def _read_members(self, t: TableInfo, te: pb.TableEntry):
        prof = self.dev.objects[t.id]
        mid = fixed_key(t, te)
        for m in sorted(prof.members) if mid is None else [mid]:
            aidx, args = prof.get(m)
            ent, out = _entry(t, m)
            aspec = prof.spec.actions[aidx]
            ai = t.action(aspec.name)
            out.data.action_id = ai.id
            for (pname, w, _s), v in zip(aspec.params, args):
                df = out.data.fields.add()
                df.field_id = ai.fields[pname].id
                df.stream = encode_int(v & ((1 << w) - 1), w)
            yield ent

    # ---- groups
    def _write_groups(self, t: TableInfo, typ, te: pb.TableEntry) -> None:
        todo = self._deleted(t, typ, te)
        if todo is None:
            return
        sel, gid = todo
        f = fields_by_name(t, te)
        members = f.get("$ACTION_MEMBER_ID")
        statuses = f.get("$ACTION_MEMBER_STATUS")
        if typ == U.INSERT or typ == U.INSERT_OR_MODIFY and gid not in sel.groups:
            sel.add(gid, members or (), statuses, f.get("$MAX_GROUP_SIZE"))
        elif typ in (U.MODIFY, U.INSERT_OR_MODIFY):
            if "$MAX_GROUP_SIZE" in f and f["$MAX_GROUP_SIZE"] != sel.get(gid)[2]:
                raise _bad(f"table {t.name} group {gid}: $MAX_GROUP_SIZE is fixed when the "
                           f"group is added ({sel.get(gid)[2]})")
            sel.modify(gid, members, statuses)
        else:
            raise _unsupported(t, typ)

    def _read_groups(self, t: TableInfo, te: pb.TableEntry):
        sel = self.dev.objects[t.id]
        gid = fixed_key(t, te)
        for g in sorted(sel.groups) if gid is None else [gid]:
            members, statuses, max_size = sel.get(g)
            ent, out = _entry(t, g)
            df = out.data.fields.add()
            df.field_id = t.data["$ACTION_MEMBER_ID"].id
            df.int_arr_val.val.extend(members)
            df = out.data.fields.add()
            df.field_id = t.data["$ACTION_MEMBER_STATUS"].id
            df.bool_arr_val.val.extend(statuses)
            for name, v in (("$MAX_GROUP_SIZE", max_size), ("$ADT_OFFSET", ADT_OFFSET_DEFAULT)):
                df = out.data.fields.add()
                df.field_id = t.data[name].id
                df.stream = encode_int(v, 32)
            yield ent

    # ---- <selector>_get_member
    def _write_get_member(self, t: TableInfo, typ, te: pb.TableEntry) -> None:
        raise _bad(f"table {t.name} is read-only: read it with $SELECTOR_GROUP_ID and "
                   f"hash_value to learn the member that hash value takes")

    def _read_get_member(self, t: TableInfo, te: pb.TableEntry):
        sel = self.dev.objects[t.id]
        key = {t.key_by_id(kf.field_id).name if t.key_by_id(kf.field_id) else kf.field_id:
               decode_int(kf.exact.value) for kf in te.key.fields}
        if set(key) != {"$SELECTOR_GROUP_ID", "hash_value"}:
            raise _bad(f"table {t.name}: the key is $SELECTOR_GROUP_ID and hash_value")
        gid = key["$SELECTOR_GROUP_ID"]
        sel.get(gid)
        mid = sel.member_for(gid, key["hash_value"])
        if mid is None:
            raise DeviceError(grpc.StatusCode.NOT_FOUND,
                              f"table {t.name}: group {gid} has no active member")
        ent = pb.Entity()
        out = ent.table_entry
        out.table_id = t.id
        out.key.CopyFrom(te.key)
        df = out.data.fields.add()
        df.field_id = t.data["$ACTION_MEMBER_ID"].id
        df.stream = encode_int(mid, 64)
        yield ent

    # ---- indirect match tables
    def _write_entries(self, t: TableInfo, typ, te: pb.TableEntry) -> None:
        p4t = self.dev.objects[t.id]
        if te.is_default_entry:
            if typ not in (U.DELETE, U.RESET):
                raise _bad(f"table {t.name}: the default entry of an indirect table is the "
                           f"program's default action; it can only be reset")
            p4t.reset_default()
            return
        if not (te.HasField("key") and te.key.fields):
            if typ not in (U.DELETE, U.RESET):
                raise _bad(f"table {t.name}: {U.Type.Name(typ)} needs a key")
            p4t.clear()
            if typ == U.RESET:
                p4t.reset_default()
            return
        key, prio = parse_key(t, p4t, te)
        if typ == U.DELETE:
            p4t.delete(key)
            return
        if te.data.action_id:
            raise _bad(f"table {t.name} is indirect: send $ACTION_MEMBER_ID or "
                       f"$SELECTOR_GROUP_ID, not an action")
        ref, extra = {}, {}
        for df in te.data.fields:
            fi = t.data_field_by_id(df.field_id)
            if fi is not None and fi.name in filters.SPEC_FIELDS:   # a DirectLpf/Wred's
                extra[fi.name] = filters.field_value(t, fi.name, df)
                continue
            if fi is None or fi.name not in ("$ACTION_MEMBER_ID", "$SELECTOR_GROUP_ID"):
                raise _bad(f"table {t.name}: no data field with id {df.field_id} (fields: "
                           f"{[(f.name, f.id) for f in t.data.values()]})")
            ref["member_id" if fi.name == "$ACTION_MEMBER_ID" else "group_id"] = \
                decode_int(df.stream)
        exists = p4t._normalise_key(key)[0] in p4t.entries
        if typ == U.INSERT or typ == U.INSERT_OR_MODIFY and not exists:
            p4t.add_reference(key, priority=prio, **ref)
        elif typ in (U.MODIFY, U.INSERT_OR_MODIFY):
            if ref:
                p4t.modify_reference(key, **ref)
        else:
            raise _unsupported(t, typ)
        filters.set_direct(t, p4t, p4t.entries[p4t._normalise_key(key)[0]], extra)

    def _read_entries(self, t: TableInfo, te: pb.TableEntry):
        p4t = self.dev.objects[t.id]
        if te.is_default_entry:
            raise DeviceError(grpc.StatusCode.UNIMPLEMENTED,
                              f"table {t.name}: the default entry of an indirect table is "
                              f"the program's default action, which this schema cannot name")
        entries = p4t.sorted
        if te.HasField("key") and te.key.fields:
            key, _prio = parse_key(t, p4t, te)
            entries = [p4t.entry(key)]
        for e in entries:
            ent = pb.Entity()
            out = ent.table_entry
            out.table_id = t.id
            key_proto(t, p4t, e, out)
            kind, ref = e.result
            df = out.data.fields.add()
            df.field_id = t.data["$ACTION_MEMBER_ID" if kind == "member"
                                 else "$SELECTOR_GROUP_ID"].id
            df.stream = encode_int(ref, 32)
            if p4t.spec.direct_filter is not None:
                filters.add_direct_fields(p4t, e, out.data)
            yield ent


def _entry(t: TableInfo, key_value: int):
    ent = pb.Entity()
    out = ent.table_entry
    out.table_id = t.id
    kf = out.key.fields.add()
    kf.field_id = t.keys[0].id
    kf.exact.value = encode_int(key_value, 32)
    return ent, out


def _unsupported(t: TableInfo, typ) -> DeviceError:
    return DeviceError(grpc.StatusCode.UNIMPLEMENTED,
                       f"table {t.name}: {U.Type.Name(typ)} is not supported")
