"""``$mirror.cfg`` (table type ``MirrorCfg``): mirror sessions over BfRuntime, applied to
p4sim's mirror sessions (``Switch.mirror_session_set``).

Schema: the SDE's ``bf_rt_mirror_tf1.json`` facts (names, ids, types; nothing copied):
key ``$sid`` (uint16), actions ``$normal`` (id 2) and ``$coalescing`` (id 1), the
session's fields as table data (``$session_enable``, ``$direction``
INGRESS/EGRESS/BOTH, ``$ucast_egress_port`` and ``_valid``, ``$max_pkt_len``, the
multicast and copy-to-CPU fields ...).

Behaviour: INSERT of a session that exists is ALREADY_EXISTS, MODIFY/DELETE of one that
does not NOT_FOUND; a field left out keeps its value (a new session: disabled, BOTH,
no port). A session mirrors when it is enabled and has a valid unicast port: its copies
go to that port, truncated to ``$max_pkt_len`` when not 0. The multicast fields are
stored and read back; p4sim sends mirror copies to the unicast port only, so a session
with only a multicast group mirrors nothing (said in the log of such a write).
``$coalescing`` sessions are refused (UNIMPLEMENTED).
"""

from __future__ import annotations

import logging

import grpc

from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import TableInfo, encode_int

from .data_fields import fields_by_name
from .errors import DeviceError, bad_request
from .index_key import fixed_entity, fixed_key

log = logging.getLogger("p4sim.switchd")
U = pb.Update

MIRROR_CFG_ID = 0xFF040001
NORMAL, COALESCING = "$normal", "$coalescing"
# (id, name, type) of the session's fields, as the SDE's Tofino 1 schema has them
FIELDS = (
    (5, "$session_enable", {"type": "bool"}),
    (6, "$direction", {"type": "string", "choices": ["INGRESS", "EGRESS", "BOTH"]}),
    (7, "$ucast_egress_port", {"type": "uint32"}),
    (8, "$ucast_egress_port_valid", {"type": "bool"}),
    (9, "$egress_port_queue", {"type": "uint32"}),
    (10, "$ingress_cos", {"type": "uint32"}),
    (11, "$packet_color", {"type": "string", "choices": ["GREEN", "YELLOW", "RED"]}),
    (12, "$level1_mcast_hash", {"type": "uint32"}),
    (13, "$level2_mcast_hash", {"type": "uint32"}),
    (14, "$mcast_grp_a", {"type": "uint16"}),
    (15, "$mcast_grp_a_valid", {"type": "bool"}),
    (16, "$mcast_grp_b", {"type": "uint16"}),
    (17, "$mcast_grp_b_valid", {"type": "bool"}),
    (18, "$mcast_l1_xid", {"type": "uint16"}),
    (19, "$mcast_l2_xid", {"type": "uint16"}),
    (20, "$mcast_rid", {"type": "uint16"}),
    (21, "$icos_for_copy_to_cpu", {"type": "uint32"}),
    (22, "$copy_to_cpu", {"type": "bool"}),
    (23, "$max_pkt_len", {"type": "uint16"}),
)
NEW_SESSION = {name: ("BOTH" if name == "$direction" else "GREEN" if t["type"] == "string"
                      else False if t["type"] == "bool" else 0)
               for _i, name, t in FIELDS}
MAX_SID = 1023      # bit<10> MirrorId_t


def table_json() -> dict:
    def field(fid, name, typ):
        return {"mandatory": False, "read_only": False,
                "singleton": {"id": fid, "name": name, "repeated": False, "annotations": [],
                              "type": typ}}
    return {
        "name": "$mirror.cfg", "id": MIRROR_CFG_ID, "table_type": "MirrorCfg", "size": 1024,
        "annotations": [], "depends_on": [],
        "key": [{"id": 1, "name": "$sid", "repeated": False, "annotations": [],
                 "mandatory": True, "match_type": "Exact", "type": {"type": "uint16"}}],
        "action_specs": [
            {"id": 1, "name": COALESCING, "action_scope": "TableAndDefault",
             "annotations": [],
             "data": [dict(field(fid, name, typ)["singleton"], mandatory=False,
                           read_only=False)
                      for fid, name, typ in (
                          (1, "$internal_header", {"type": "bytes", "width": 128}),
                          (2, "$internal_header_length", {"type": "uint32"}),
                          (3, "$timeout_usec", {"type": "uint32"}),
                          (4, "$extract_len", {"type": "uint32"}))]},
            {"id": 2, "name": NORMAL, "action_scope": "TableAndDefault", "annotations": [],
             "data": []}],
        "data": [field(fid, name, typ) for fid, name, typ in FIELDS],
        "supported_operations": [], "attributes": []}


class MirrorSessions:
    """The ``$mirror.cfg`` entries of one device, applied to its p4sim switch."""

    def __init__(self, switch):
        self._switch = switch
        self.sessions: dict[int, dict] = {}

    def write(self, t: TableInfo, typ, te: pb.TableEntry) -> None:
        sid = fixed_key(t, te)
        if sid is None:
            if typ not in (U.DELETE, U.RESET):
                raise bad_request(f"table {t.name}: {U.Type.Name(typ)} needs key $sid")
            for s in list(self.sessions):
                self._remove(s)
            return
        if not 0 < sid <= MAX_SID:
            raise bad_request(f"table {t.name}: $sid {sid} outside 1..{MAX_SID}")
        exists = sid in self.sessions
        if typ in (U.DELETE, U.RESET):
            if not exists:
                raise DeviceError(grpc.StatusCode.NOT_FOUND, f"{t.name}: no session {sid}")
            self._remove(sid)
            return
        if typ == U.INSERT and exists:
            raise DeviceError(grpc.StatusCode.ALREADY_EXISTS,
                              f"{t.name}: session {sid} exists; MODIFY it")
        if typ == U.MODIFY and not exists:
            raise DeviceError(grpc.StatusCode.NOT_FOUND, f"{t.name}: no session {sid}")
        action = t.action_by_id(te.data.action_id) if te.data.action_id else None
        if action is not None and action.name == COALESCING:
            raise DeviceError(grpc.StatusCode.UNIMPLEMENTED,
                              f"{t.name}: coalescing sessions are not modelled by p4sim; "
                              f"use {NORMAL}")
        fields = dict(self.sessions.get(sid, NEW_SESSION))
        fields.update(fields_by_name(t, te))
        if fields["$direction"] not in ("INGRESS", "EGRESS", "BOTH"):
            raise bad_request(f"{t.name}: $direction {fields['$direction']!r} is not "
                              f"INGRESS, EGRESS or BOTH")
        self.sessions[sid] = fields
        self._apply(sid)

    def _apply(self, sid: int) -> None:
        f = self.sessions[sid]
        self._switch.mirror_sessions.pop(sid, None)
        if not (f["$session_enable"] and f["$ucast_egress_port_valid"]):
            if f["$session_enable"] and (f["$mcast_grp_a_valid"] or f["$mcast_grp_b_valid"]):
                log.info("mirror session %d: multicast mirror copies are not modelled; it "
                         "mirrors nothing", sid)
            return
        max_len = f["$max_pkt_len"] or None
        self._switch.mirror_session_set(sid, f["$ucast_egress_port"],
                                        max_len=min(max_len, 0x3FFF) if max_len else None,
                                        direction=f["$direction"])

    def _remove(self, sid: int) -> None:
        del self.sessions[sid]
        if sid in self._switch.mirror_sessions:
            self._switch.mirror_session_delete(sid)

    def read(self, t: TableInfo, te: pb.TableEntry):
        sid = fixed_key(t, te)
        if sid is not None and sid not in self.sessions:
            raise DeviceError(grpc.StatusCode.NOT_FOUND, f"{t.name}: no session {sid}")
        normal = t.action(NORMAL).id
        for s in sorted(self.sessions) if sid is None else [sid]:
            ent = fixed_entity(t, s)
            ent.table_entry.data.action_id = normal
            for fid, name, typ in FIELDS:
                df = ent.table_entry.data.fields.add()
                df.field_id = fid
                v = self.sessions[s][name]
                if typ["type"] == "bool":
                    df.bool_val = bool(v)
                elif typ["type"] == "string":
                    df.str_val = v
                else:
                    df.stream = encode_int(v, 32 if typ["type"] == "uint32" else 16)
            yield ent
