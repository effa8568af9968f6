"""The control-plane API of a Switch: tables, registers, counters, the PRE, mirror
sessions, port metadata, ports and digests -- what a BfRuntime server exposes."""
from .errors import ControlPlaneError
from .runtime import MeterBucket, check_fit


def _find(d, name, what):
    if not isinstance(name, str):
        raise ControlPlaneError(f"{what} name must be a string, got {name!r}")
    if name in d:
        return d[name]
    cands = [k for k in d if k.endswith("." + name)]
    if len(cands) == 1:
        return d[cands[0]]
    if cands:
        raise ControlPlaneError(f"{what} name '{name}' is ambiguous: {sorted(cands)}")
    raise ControlPlaneError(f"no {what} named '{name}' (known: {sorted(d)})")


PORT_METADATA = "$PORT_METADATA"      # BfRt's table of per-ingress-port metadata
PORT_KEY = "ig_intr_md.ingress_port"


def _port(port, what="port"):
    if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port < 512:
        raise ControlPlaneError(f"{what} {port!r} does not fit in bit<9>")
    return port


class ControlPlaneMixin:
    """Mixed into :class:`p4sim.Switch`; every method validates its input and raises
    :class:`p4sim.ControlPlaneError` naming the object and the expected range."""

    # ------------------------------------------------------------------ digests
    def digests(self, clear=True):
        """Digests packed by the ingress deparser so far: [(digest name, {field: value})]."""
        out = list(self._digests)
        if clear:
            self._digests.clear()
        return out

    # ------------------------------------------------------------------ tables
    def table(self, name):
        return _find(self.tables, name, "table")

    def table_add(self, table, key, action, params=None, priority=None, *, counters=None):
        """Add an entry; ``counters=(packets, bytes)`` sets its direct counter's initial
        values.  ``table="$PORT_METADATA"``: key ``{"ig_intr_md.ingress_port": p}``, action
        None, params = the port metadata (see :meth:`port_metadata_set`)."""
        if table == PORT_METADATA:
            self.port_metadata_set(self._pm_port(key), params, replace=False)
            return
        self.table(table).add(key, action, params, priority, counters)

    def table_modify(self, table, key, action, params=None, priority=None, *,
                     reset_counters=False):
        """Modify an entry; its direct counter is kept unless ``reset_counters``."""
        if table == PORT_METADATA:
            port = self._pm_port(key)
            if port not in self.port_metadata:
                raise ControlPlaneError(f"{PORT_METADATA}: no entry for port {port}")
            self.port_metadata_set(port, params)
            return
        self.table(table).modify(key, action, params, priority, reset_counters)

    def table_delete(self, table, key):
        if table == PORT_METADATA:
            self.port_metadata_delete(self._pm_port(key))
            return
        self.table(table).delete(key)

    def table_clear(self, table):
        if table == PORT_METADATA:
            self.port_metadata.clear()
            return
        self.table(table).clear()

    def table_set_default(self, table, action, params=None):
        self.table(table).set_default(action, params)

    def table_reset_default(self, table):
        """Back to the program's default action (BfRt's default-entry reset)."""
        self.table(table).reset_default()

    def table_get_default(self, table):
        """The current default action: (qualified action name, args tuple)."""
        t = self.table(table)
        _, aidx, _, args = t.default_result
        return t.spec.actions[aidx].name, args

    def table_entries(self, table):
        if table == PORT_METADATA:
            return [({PORT_KEY: p}, None, self.port_metadata_read(p), 0)
                    for p in sorted(self.port_metadata)]
        t = self.table(table)
        return [(e.key, t.spec.actions[e.result[1]].name, e.result[3], e.prio)
                for e in t.sorted]

    # ------------------------------------------------------------------ port metadata
    def _pm_port(self, key):
        if not isinstance(key, dict) or set(key) != {PORT_KEY}:
            raise ControlPlaneError(f"{PORT_METADATA}: key must be {{'{PORT_KEY}': port}}")
        return _port(key[PORT_KEY], f"{PORT_METADATA} key")

    def port_metadata_set(self, port, value, *, replace=True):
        """The 64 bits the ingress parser reads after ig_intr_md for packets from
        ``port`` (port_metadata_unpack / PORT_METADATA_SIZE): bytes (8), an int, or
        {field: value} of the program's port_metadata_unpack<T> type."""
        port = _port(port)
        if not replace and port in self.port_metadata:
            raise ControlPlaneError(f"{PORT_METADATA}: port {port} already has an entry")
        fields = self.program.port_md_fields
        if isinstance(value, (bytes, bytearray)):
            if len(value) != 8:
                raise ControlPlaneError(f"{PORT_METADATA}: {len(value)} bytes given, 8 expected")
            data = bytes(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            data = check_fit(value, 64, False, f"{PORT_METADATA} value").to_bytes(8, "big")
        elif isinstance(value, dict):
            if fields is None:
                raise ControlPlaneError(f"{PORT_METADATA}: the program has no "
                                        f"port_metadata_unpack<T>; give bytes or an int")
            rest = dict(value)
            word, sh = 0, 64
            for f, w in fields:
                sh -= w
                v = check_fit(rest.pop(f, 0), w, False, f"{PORT_METADATA} field '{f}'")
                word |= v << sh
            if rest:
                raise ControlPlaneError(f"{PORT_METADATA}: unknown field(s) {sorted(rest)}; "
                                        f"fields: {[f for f, _ in fields]}")
            data = word.to_bytes(8, "big")
        else:
            raise ControlPlaneError(f"{PORT_METADATA}: value must be bytes, an int or a dict")
        self.port_metadata[port] = data

    def port_metadata_read(self, port):
        """{field: value} with the program's port metadata type, else the 8 bytes."""
        port = _port(port)
        if port not in self.port_metadata:
            raise ControlPlaneError(f"{PORT_METADATA}: no entry for port {port}")
        data = self.port_metadata[port]
        fields = self.program.port_md_fields
        if fields is None:
            return data
        word, sh, out = int.from_bytes(data, "big"), 64, {}
        for f, w in fields:
            sh -= w
            out[f] = (word >> sh) & ((1 << w) - 1)
        return out

    def port_metadata_delete(self, port):
        port = _port(port)
        if self.port_metadata.pop(port, None) is None:
            raise ControlPlaneError(f"{PORT_METADATA}: no entry for port {port}")

    # ------------------------------------------------------------------ registers
    def register(self, name):
        return _find(self.registers, name, "register")

    def register_read(self, name, index):
        return self.register(name).read(index)

    def register_read_many(self, name, indices):
        """{index: value (or {field: value} for a pair)} of several cells."""
        return self.register(name).read_many(indices)

    def register_read_all(self, name):
        return self.register(name).read_all()

    def register_write(self, name, index, value):
        self.register(name).write(index, value)

    def register_reset(self, name):
        self.register(name).reset()

    # ------------------------------------------------------------------ counters
    def counter(self, name):
        return _find(self.counters, name, "counter")

    def counter_read(self, name, index):
        """(packets, bytes); bytes include the 4-byte FCS."""
        return self.counter(name).read(index)

    def counter_write(self, name, index, packets=0, bytes=0):  # noqa: A002 (BfRt's name)
        self.counter(name).write(index, packets, bytes)

    def counter_clear(self, name):
        self.counter(name).clear()

    def direct_counter_read(self, table, key):
        e = self.table(table).entry(key)
        return e.packets, e.bytes

    def direct_counter_write(self, table, key, packets=0, bytes=0):  # noqa: A002
        self.table(table).counter_write(key, (packets, bytes))

    def direct_counter_clear(self, table):
        self.table(table).counter_clear()

    # ------------------------------------------------------------------ direct registers
    def direct_register_read(self, table, key):
        """The DirectRegister cell of an entry: an int, or {field: int} for a pair."""
        t = self.table(table)
        if t.spec.direct_register is None:
            raise ControlPlaneError(f"table '{t.name}' has no direct register")
        e = t.entry(key)
        fields = t.spec.direct_register[0]
        if len(fields) == 1:
            return e.dreg[0]
        return {f: v for (f, _, _), v in zip(fields, e.dreg)}

    def direct_register_write(self, table, key, value):
        t = self.table(table)
        if t.spec.direct_register is None:
            raise ControlPlaneError(f"table '{t.name}' has no direct register")
        e = t.entry(key)
        fields = t.spec.direct_register[0]
        vals = [value] if len(fields) == 1 else (
            [value.get(f) for f, _, _ in fields] if isinstance(value, dict) else list(value))
        if len(vals) != len(fields) or any(v is None for v in vals):
            raise ControlPlaneError(f"table '{t.name}': direct register value needs "
                                    f"{[f for f, _, _ in fields]}")
        e.dreg[:] = [check_fit(v, w, sg, f"table '{t.name}' direct register")
                     for v, (_, w, sg) in zip(vals, fields)]

    # ------------------------------------------------------------------ parser value sets
    def value_set_add(self, name, value, mask=None):
        """Add (value, mask) to a parser value_set (``mask=None``: all ones)."""
        _find(self.value_sets, name, "value_set").add(value, mask)

    def value_set_delete(self, name, value, mask=None):
        _find(self.value_sets, name, "value_set").delete(value, mask)

    def value_set_clear(self, name):
        _find(self.value_sets, name, "value_set").members.clear()

    def value_set_entries(self, name):
        return list(_find(self.value_sets, name, "value_set").members)

    # ------------------------------------------------------------------ meters
    def meter_set(self, name, index, cir, cbs, pir, pbs):
        """Configure one Meter cell (RFC 2698 trTCM): PACKETS meters in packets/s and
        packets, BYTES meters in kbit/s and kbit (BfRt's $METER_SPEC_* units)."""
        m = _find(self.meters, name, "meter")
        if not isinstance(index, int) or not 0 <= index < m.size:
            raise ControlPlaneError(f"meter '{m.name}': index {index!r} out of range 0..{m.size - 1}")
        m.cells[index] = MeterBucket(m.spec.kind, cir, cbs, pir, pbs)

    def meter_reset(self, name, index=None):
        """Unconfigure one cell (or all): an unconfigured cell marks GREEN."""
        m = _find(self.meters, name, "meter")
        if index is None:
            m.cells.clear()
        else:
            m.cells.pop(index, None)

    def direct_filter_set(self, table, key, *spec):
        """Configure an entry's DirectLpf cell (``kind, gain_ns, decay_ns, scale_down``)
        or DirectWred cell (``time_constant_ns, min_thresh, max_thresh,
        max_probability``); its state starts again."""
        t = self.table(table)
        if t.direct_filter is None:
            raise ControlPlaneError(f"table '{t.name}' has no DirectLpf or DirectWred")
        t.entry(key).filter = t.direct_filter.cell(*spec)

    def direct_filter_get(self, table, key):
        """An entry's direct filter spec (an unconfigured cell's as p4sim/filters.py says)."""
        t = self.table(table)
        if t.direct_filter is None:
            raise ControlPlaneError(f"table '{t.name}' has no DirectLpf or DirectWred")
        return t.direct_filter.get(t.entry(key).filter)

    def direct_meter_set(self, table, key, cir, cbs, pir, pbs):
        t = self.table(table)
        if t.spec.direct_meter is None:
            raise ControlPlaneError(f"table '{t.name}' has no direct meter")
        t.entry(key).meter = MeterBucket(t.spec.direct_meter.kind, cir, cbs, pir, pbs)

    # ------------------------------------------------------------------ PRE
    def multicast_group_set(self, mgid, nodes):
        """PRE group ``mgid`` (0..65535, 0 included as on the PRE): nodes (rid, [ports]).
        The TM replicates for mcast_grp_a/b once the program has written them."""
        if not isinstance(mgid, int) or not 0 <= mgid <= 0xFFFF:
            raise ControlPlaneError(f"multicast group id {mgid!r} must be in 0..65535 (bit<16>)")
        clean = []
        for node in nodes:
            try:
                rid, ports = node
            except (TypeError, ValueError):
                raise ControlPlaneError(f"multicast group {mgid}: node {node!r} must be (rid, [ports])") from None
            if not isinstance(rid, int) or not 0 <= rid <= 0xFFFF:
                raise ControlPlaneError(f"multicast group {mgid}: rid {rid!r} does not fit in bit<16>")
            plist = []
            for p in ports:
                if not isinstance(p, int) or not 0 <= p < 512:
                    raise ControlPlaneError(f"multicast group {mgid}: port {p!r} does not fit in bit<9>")
                plist.append(p)
            clean.append((rid, tuple(plist)))
        self.mcast[mgid] = clean

    def multicast_group_delete(self, mgid):
        if mgid not in self.mcast:
            raise ControlPlaneError(f"no multicast group {mgid}")
        del self.mcast[mgid]

    # ------------------------------------------------------------------ mirroring
    def mirror_session_set(self, session_id, port, *, max_len=None, direction="BOTH"):
        """Mirror session ``session_id`` (bit<10>) sends its copies to egress ``port``,
        truncated to ``max_len`` bytes (mirror header included) when given; ``direction``
        (INGRESS, EGRESS, BOTH): which deparsers' mirrors it takes (the others find no
        session)."""
        if direction not in ("INGRESS", "EGRESS", "BOTH"):
            raise ControlPlaneError(f"mirror session {session_id}: direction {direction!r} "
                                    f"is not INGRESS, EGRESS or BOTH")
        if not isinstance(session_id, int) or not 0 <= session_id < 1024:
            raise ControlPlaneError(f"mirror session id {session_id!r} does not fit in bit<10>")
        if not isinstance(port, int) or not 0 <= port < 512:
            raise ControlPlaneError(f"mirror session {session_id}: port {port!r} does not fit in bit<9>")
        if max_len is not None and (not isinstance(max_len, int) or not 1 <= max_len <= 0x3FFF):
            raise ControlPlaneError(f"mirror session {session_id}: max_len {max_len!r} must be "
                                    f"in 1..16383")
        self.mirror_sessions[session_id] = port
        self.mirror_directions[session_id] = direction
        if max_len is None:
            self.mirror_max_len.pop(session_id, None)
        else:
            self.mirror_max_len[session_id] = max_len

    def mirror_session_delete(self, session_id):
        if session_id not in self.mirror_sessions:
            raise ControlPlaneError(f"no mirror session {session_id}")
        del self.mirror_sessions[session_id]
        self.mirror_max_len.pop(session_id, None)
        self.mirror_directions.pop(session_id, None)

    # ------------------------------------------------------------------ ports
    def port_add(self, port):
        if not isinstance(port, int) or not 0 <= port < 512:
            raise ControlPlaneError(f"port {port!r} does not fit in bit<9>")
        if self.ports is not None:   # None: every port is up already
            self.ports.add(port)

    def port_remove(self, port):
        if self.ports is None:
            self.ports = set(range(512))
        if port not in self.ports:
            raise ControlPlaneError(f"port {port} is not added")
        self.ports.discard(port)
