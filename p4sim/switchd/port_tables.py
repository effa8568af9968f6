"""The ``$PORT`` family over BfRuntime, as bf_switchd serves it for a software port:
``$PORT`` (a bound port's speed, FEC, autonegotiation, enable and link state),
``$PORT_STAT`` (frames received and sent) and ``$PORT_STR_INFO`` (a port's name to its
device port). The ports themselves, bound to interfaces, are ``ports.py``'s.

Decisions where BfRuntime leaves room: a port exists only where the softswitch was
started with ``--port P@IFACE`` (adding another is NOT_FOUND, naming the bound ones);
DELETE disables it; speed, FEC and autonegotiation are stored and read back, as a
software port has no PHY; only ``BF_LPBK_NONE`` loopback; a port's name is its
interface's.
"""

from __future__ import annotations

from dataclasses import dataclass

import grpc

from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import TableInfo, encode_int

from .data_fields import fields_by_name
from .errors import DeviceError, bad_request as _bad
from .index_key import fixed_entity, fixed_key

U = pb.Update


@dataclass
class PortState:
    """A device port: bound to an interface, enabled by the control plane, link up."""
    ifname: str
    enabled: bool = True
    up: bool = True
    speed: str = "BF_SPEED_10G"
    fec: str = "BF_FEC_TYP_NONE"
    autoneg: str = "PM_AN_DEFAULT"
    rx: int = 0          # frames the pipe has processed from this port
    tx: int = 0          # frames sent out of it


class PortTables:
    """The ``$PORT`` family's handlers over a device's ports (its lock is held by the
    caller)."""

    def __init__(self, ports: dict[int, PortState]):
        self._ports = ports     # device port -> its state (SoftDevice.ports)

    def write_port(self, t: TableInfo, typ, te: pb.TableEntry) -> None:
        """One Update of ``$PORT``: a bound port configured, or (DELETE) disabled."""
        p = fixed_key(t, te)
        if p is None:
            raise _bad("$PORT: writes need key $DEV_PORT")
        st = self._ports.get(p)
        if st is None:
            raise DeviceError(grpc.StatusCode.NOT_FOUND,
                              f"$PORT: device port {p} is not bound to an interface (start the "
                              f"softswitch with --port {p}@IFACE); bound: {sorted(self._ports)}")
        if typ == U.DELETE:
            st.enabled = False
            return
        f = fields_by_name(t, te)
        if f.get("$LOOPBACK_MODE", "BF_LPBK_NONE") not in ("", "BF_LPBK_NONE"):
            raise DeviceError(grpc.StatusCode.UNIMPLEMENTED,
                              f"$PORT {p}: $LOOPBACK_MODE {f['$LOOPBACK_MODE']} is not "
                              f"available on a software port ({st.ifname}); only BF_LPBK_NONE")
        st.speed = f.get("$SPEED", st.speed) or st.speed
        st.fec = f.get("$FEC", st.fec) or st.fec
        st.autoneg = f.get("$AUTO_NEGOTIATION", st.autoneg) or st.autoneg
        st.enabled = f.get("$PORT_ENABLE", True if typ == U.INSERT else st.enabled)

    def read_port(self, t: TableInfo, te: pb.TableEntry):
        """The ports a ``$PORT`` read names (every bound port without a key)."""
        p = fixed_key(t, te)
        if p is not None and p not in self._ports:
            raise DeviceError(grpc.StatusCode.NOT_FOUND,
                              f"$PORT: device port {p} is not bound; bound: {sorted(self._ports)}")
        for q in ([p] if p is not None else sorted(self._ports)):
            st = self._ports[q]
            ent = fixed_entity(t, q)
            d = ent.table_entry.data.fields
            for name, kind, v in (("$SPEED", "str_val", st.speed), ("$FEC", "str_val", st.fec),
                                  ("$AUTO_NEGOTIATION", "str_val", st.autoneg),
                                  ("$LOOPBACK_MODE", "str_val", "BF_LPBK_NONE"),
                                  ("$IS_VALID", "bool_val", True),
                                  ("$IS_INTERNAL", "bool_val", False),
                                  ("$PORT_ENABLE", "bool_val", st.enabled),
                                  ("$PORT_UP", "bool_val", st.up),
                                  ("$PORT_NAME", "str_val", st.ifname)):
                f = d.add()
                f.field_id = t.data[name].id
                setattr(f, kind, v)
            yield ent

    def write_stat(self, t: TableInfo, typ, te: pb.TableEntry) -> None:
        """Clearing: DELETE/RESET (one port, or every port without a key)."""
        if typ not in (U.DELETE, U.RESET):
            raise DeviceError(grpc.StatusCode.UNIMPLEMENTED,
                              "$PORT_STAT: only clearing (DELETE or RESET) is supported")
        p = fixed_key(t, te)
        for q in ([p] if p is not None else list(self._ports)):
            if q not in self._ports:
                raise DeviceError(grpc.StatusCode.NOT_FOUND, f"$PORT_STAT: port {q} is not bound")
            self._ports[q].rx = self._ports[q].tx = 0

    def read_stat(self, t: TableInfo, te: pb.TableEntry):
        """The counts of the ports a read names (every bound port without a key)."""
        p = fixed_key(t, te)
        if p is not None and p not in self._ports:
            raise DeviceError(grpc.StatusCode.NOT_FOUND,
                              f"$PORT_STAT: device port {p} is not bound; bound: {sorted(self._ports)}")
        for q in ([p] if p is not None else sorted(self._ports)):
            st = self._ports[q]
            ent = fixed_entity(t, q)
            for name, v in (("$FramesReceivedOK", st.rx), ("$FramesTransmittedOK", st.tx)):
                f = ent.table_entry.data.fields.add()
                f.field_id = t.data[name].id
                f.stream = encode_int(v, 64)
            yield ent

    def read_str_info(self, t: TableInfo, te: pb.TableEntry):
        """``$PORT_STR_INFO``: a port's name (its interface's, as ``$PORT_NAME`` says)
        to its device port."""
        by_name = {st.ifname: p for p, st in self._ports.items()}
        names = sorted(by_name)
        if te.HasField("key") and te.key.fields:
            kf = te.key.fields[0]
            name = kf.exact.value.decode("utf-8", "replace")
            if kf.field_id != t.keys[0].id or name not in by_name:
                raise DeviceError(grpc.StatusCode.NOT_FOUND,
                                  f"$PORT_STR_INFO: no port named {name!r}; ports: {names}")
            names = [name]
        for name in names:
            ent = pb.Entity()
            ent.table_entry.table_id = t.id
            kf = ent.table_entry.key.fields.add()
            kf.field_id = t.keys[0].id
            kf.exact.value = name.encode()
            f = ent.table_entry.data.fields.add()
            f.field_id = t.data["$DEV_PORT"].id
            f.stream = encode_int(by_name[name], 32)
            yield ent
