"""The packet replication engine's tables over BfRuntime, ``$pre.node`` (a node: its
replication id and ports) and ``$pre.mgid`` (a multicast group: its nodes), applied to
p4sim's multicast groups whenever a group or one of its nodes changes.

Decisions where BfRuntime leaves room: a node that is still a member of a group cannot
be deleted (FAILED_PRECONDITION, naming the groups), nor can every node be cleared
while a group has members; group 0 is refused (on Tofino it means no multicast);
``MODIFY_INC`` adds nodes to a group, or with the ``mod_del`` flag (or
``MOD_INC_DELETE``) removes them. LAG ids are stored and read back, not replicated to.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import grpc

from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import TableInfo, encode_int

from .data_fields import fields_by_name
from .errors import DeviceError, bad_request as _bad
from .index_key import fixed_entity, fixed_key

U = pb.Update


@dataclass
class PreNode:
    """A ``$pre.node`` entry: the replication id its copies carry and its ports."""
    rid: int
    ports: list[int]
    lags: list[int] = field(default_factory=list)


@dataclass
class PreGroup:
    """A ``$pre.mgid`` entry: its nodes, each with its L1 exclusion id, in order."""
    nodes: list[int]
    xid_valid: list[bool]
    xids: list[int]


class Pre:
    """The PRE state of one device (its lock is held by the caller)."""

    def __init__(self, switch):
        self._switch = switch
        self.nodes: dict[int, PreNode] = {}
        self.groups: dict[int, PreGroup] = {}

    def _apply_groups(self, mgids) -> None:
        """Groups ``mgids`` onto p4sim as they stand now (deleted where they are gone)."""
        for g in mgids:
            grp = self.groups.get(g)
            if grp is None:
                if g in self._switch.mcast:
                    self._switch.multicast_group_delete(g)
                continue
            self._switch.multicast_group_set(
                g, [(self.nodes[n].rid, list(self.nodes[n].ports)) for n in grp.nodes])

    def write_node(self, t: TableInfo, typ, te: pb.TableEntry) -> None:
        """One Update of ``$pre.node``; the groups naming the node follow it."""
        nid = fixed_key(t, te)
        if nid is None:
            if typ in (U.DELETE, U.RESET):
                in_use = sorted(g for g, grp in self.groups.items() if grp.nodes)
                if in_use:
                    raise DeviceError(grpc.StatusCode.FAILED_PRECONDITION,
                                      f"$pre.node: nodes are still members of multicast "
                                      f"groups {in_use}; clear $pre.mgid first")
                self.nodes.clear()
                return
            raise _bad(f"$pre.node: {U.Type.Name(typ)} needs key $MULTICAST_NODE_ID")
        users = sorted(g for g, grp in self.groups.items() if nid in grp.nodes)
        if typ == U.DELETE:
            if nid not in self.nodes:
                raise DeviceError(grpc.StatusCode.NOT_FOUND, f"$pre.node: no node {nid}")
            if users:
                raise DeviceError(grpc.StatusCode.FAILED_PRECONDITION,
                                  f"$pre.node: node {nid} is a member of multicast groups "
                                  f"{users}; remove it from them first")
            del self.nodes[nid]
            return
        if typ == U.INSERT and nid in self.nodes:
            raise DeviceError(grpc.StatusCode.ALREADY_EXISTS, f"$pre.node: node {nid} exists")
        if typ == U.MODIFY and nid not in self.nodes:
            raise DeviceError(grpc.StatusCode.NOT_FOUND, f"$pre.node: no node {nid}")
        f = fields_by_name(t, te)
        old = self.nodes.get(nid)
        rid = f.get("$MULTICAST_RID", old.rid if old else None)
        if rid is None:
            raise _bad(f"$pre.node: node {nid} needs $MULTICAST_RID")
        ports = f.get("$DEV_PORT", old.ports if old else [])
        for p in ports:
            if p >= 512:
                raise _bad(f"$pre.node: port {p} does not fit in 9 bits")
        self.nodes[nid] = PreNode(rid, list(ports), f.get("$MULTICAST_LAG_ID", []))
        self._apply_groups(users)

    def write_mgid(self, t: TableInfo, typ, te: pb.TableEntry) -> None:
        """One Update of ``$pre.mgid``."""
        g = fixed_key(t, te)
        if g is None:
            if typ in (U.DELETE, U.RESET):
                old = list(self.groups)
                self.groups.clear()
                self._apply_groups(old)
                return
            raise _bad(f"$pre.mgid: {U.Type.Name(typ)} needs key $MGID")
        if g == 0:
            raise _bad("$pre.mgid: multicast group 0 means 'no multicast' on Tofino; use 1..65535")
        if typ == U.DELETE:
            if g not in self.groups:
                raise DeviceError(grpc.StatusCode.NOT_FOUND, f"$pre.mgid: no group {g}")
            del self.groups[g]
            self._apply_groups([g])
            return
        f = fields_by_name(t, te)
        nodes = f.get("$MULTICAST_NODE_ID", [])
        valid = f.get("$MULTICAST_NODE_L1_XID_VALID", [False] * len(nodes))
        xids = f.get("$MULTICAST_NODE_L1_XID", [0] * len(nodes))
        if not len(nodes) == len(valid) == len(xids):
            raise _bad(f"$pre.mgid {g}: $MULTICAST_NODE_ID, $MULTICAST_NODE_L1_XID_VALID and "
                       f"$MULTICAST_NODE_L1_XID must have the same length")
        missing = [n for n in nodes if n not in self.nodes]
        if missing:
            raise DeviceError(grpc.StatusCode.NOT_FOUND,
                              f"$pre.mgid {g}: nodes {missing} do not exist in $pre.node")
        if typ == U.MODIFY_INC:
            grp = self.groups.get(g)
            if grp is None:
                raise DeviceError(grpc.StatusCode.NOT_FOUND, f"$pre.mgid: no group {g}")
            if te.table_flags.mod_del or \
                    te.table_mod_inc_flag.type == pb.TableModIncFlag.MOD_INC_DELETE:
                keep = [i for i, n in enumerate(grp.nodes) if n not in nodes]
                self.groups[g] = PreGroup([grp.nodes[i] for i in keep],
                                          [grp.xid_valid[i] for i in keep],
                                          [grp.xids[i] for i in keep])
            else:
                self.groups[g] = PreGroup(grp.nodes + nodes, grp.xid_valid + valid,
                                          grp.xids + xids)
        elif typ == U.INSERT and g in self.groups:
            raise DeviceError(grpc.StatusCode.ALREADY_EXISTS, f"$pre.mgid: group {g} exists")
        elif typ == U.MODIFY and g not in self.groups:
            raise DeviceError(grpc.StatusCode.NOT_FOUND, f"$pre.mgid: no group {g}")
        elif typ in (U.INSERT, U.MODIFY, U.INSERT_OR_MODIFY):
            self.groups[g] = PreGroup(list(nodes), list(valid), list(xids))
        else:
            raise DeviceError(grpc.StatusCode.UNIMPLEMENTED,
                              f"$pre.mgid: {U.Type.Name(typ)} is not supported")
        self._apply_groups([g])

    def read_node(self, t: TableInfo, te: pb.TableEntry):
        """The nodes a read names (every node without a key)."""
        return self._read(t, te, "$pre.node: no node", self.nodes, lambda node: [
            ("$MULTICAST_RID", "stream", encode_int(node.rid, 16)),
            ("$MULTICAST_LAG_ID", "int_arr_val", node.lags),
            ("$DEV_PORT", "int_arr_val", node.ports)])

    def read_mgid(self, t: TableInfo, te: pb.TableEntry):
        """The groups a read names (every group without a key)."""
        return self._read(t, te, "$pre.mgid: no group", self.groups, lambda grp: [
            ("$MULTICAST_NODE_ID", "int_arr_val", grp.nodes),
            ("$MULTICAST_NODE_L1_XID_VALID", "bool_arr_val", grp.xid_valid),
            ("$MULTICAST_NODE_L1_XID", "int_arr_val", grp.xids)])

    @staticmethod
    def _read(t: TableInfo, te: pb.TableEntry, missing: str, store: dict, fields):
        """The entries of a PRE table a read names: the one its key gives (NOT_FOUND when
        absent) or all, each with ``fields(value)``'s (name, kind, value) data fields."""
        key = fixed_key(t, te)
        if key is not None and key not in store:
            raise DeviceError(grpc.StatusCode.NOT_FOUND, f"{missing} {key}")
        for k in ([key] if key is not None else sorted(store)):
            ent = fixed_entity(t, k)
            for name, kind, value in fields(store[k]):
                f = ent.table_entry.data.fields.add()
                f.field_id = t.data[name].id
                if kind == "stream":
                    f.stream = value
                else:
                    getattr(f, kind).val.extend(value)
            yield ent
