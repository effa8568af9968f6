"""The TNA pipeline around a compiled program: parser -> ingress -> deparser -> traffic
manager (unicast, PRE multicast, drop, resubmit) -> egress, recirculation; plus the
control-plane API."""
import random
import struct
from collections import deque

from . import filters, runtime as rt
from .errors import P4RuntimeError, P4SimError
from .action_profiles import PROFILE_KINDS, IndirectTable, profile_object
from .control_plane import ControlPlaneMixin
from .control_plane_profiles import ActionProfileControlMixin
from .register_params import RegisterParam, RegisterParamControlMixin
from .runtime import ExitBlock, PassContext, Reject

# byte counters count the 4-byte Ethernet FCS, which the frames given to inject() lack
FCS_BYTES = 4
# A unicast to device port 511 is dropped by the traffic manager: 511 is pipe 3's local
# port 127, which no Tofino 1 has (P4Testgen's Tofino model drops it too, its
# DROP_CONSTANT; before, p4sim sent the packet to a port 511: 51 of its generated tests
# disagreed, tests/p4testgen)
TM_DROP_PORT = 511
ZERO8 = bytes(8)


class TrafficManager:
    """What a device does between its pipes: a frame's passes (ingress in the pipe of
    its ingress port, each copy's egress in the pipe of its egress port, recirculation
    into the pipe of the recirculation port), the PRE's and the mirror sessions' copies.

    Needs ``drops``, ``max_passes``, ``ports``, ``mirror_sessions``, ``mirror_max_len``,
    ``_recirculation_ports`` and ``_by_pipe`` (the pipe of ``port >> 7``, None for a
    pipe the device does not have: p4sim.pipes)."""

    tracer = None  # a p4sim.trace.Tracer: the points each stage of a packet ran

    @property
    def recirculation_ports(self) -> frozenset[int]:
        """The ports whose frames re-enter ingress. Empty: a frame sent there leaves on
        it, as in a model without recirculation (P4Testgen's: tests/p4testgen/triage.yaml
        checks its entries that way)."""
        return self._recirculation_ports

    @recirculation_ports.setter
    def recirculation_ports(self, ports) -> None:
        self._recirculation_ports = frozenset(ports)

    def inject(self, port, frame, *, timestamp_ns=0, queue_depth=0):
        """Run one frame arriving on ``port``; return [(egress_port, frame_bytes), ...]."""
        if not isinstance(port, int) or not 0 <= port < 512:
            raise P4RuntimeError(f"ingress port {port!r} is not a 9-bit port number")
        if self._by_pipe[port >> 7] is None:
            raise P4RuntimeError(f"ingress port {port} is in pipe {port >> 7}; this device "
                                 f"has {self.num_pipes} pipe(s) (the pipe of port p is p >> 7)")
        frame = bytes(frame)
        self._new_drops()
        out = []
        work = deque([(port, frame, 1, False, b"")])
        try:
            while work:
                inport, fr, npass, resubmitted, rdata = work.popleft()
                if npass > self.max_passes:
                    self.drops.append(("max_passes", f"more than {self.max_passes} passes"))
                    continue
                ingress = self._by_pipe[inport >> 7]._ingress
                if self.tracer is None:
                    res = ingress(inport, fr, timestamp_ns, resubmitted, rdata)
                else:
                    res = self.tracer.stage(f"ingress pass {npass}, port {inport}", ingress,
                                            inport, fr, timestamp_ns, resubmitted, rdata)
                if res is None:
                    continue
                if res[0] == "resubmit":
                    work.appendleft((inport, fr, npass + 1, True, res[1]))
                    continue
                self._run_copies(res[1], npass, work, out, timestamp_ns, queue_depth)
        except P4SimError:
            raise
        except Exception as e:
            raise P4RuntimeError(f"error while executing the program: {type(e).__name__}: {e}") from e
        return out

    def _new_drops(self):
        self.drops = []

    def _run_copies(self, copies, npass, work, out, ts, queue_depth):
        """Egress for each copy the traffic manager made (and for egress mirror copies),
        each in the pipe of its egress port."""
        eq = deque((eport, rid, data, bypass, 0) for eport, rid, data, bypass in copies)
        while eq:
            eport, rid, data, bypass, depth = eq.popleft()
            pipe = self._by_pipe[eport >> 7]
            if pipe is None:
                self.drops.append(("port", f"egress port {eport} is in pipe {eport >> 7}, "
                                           f"which this {self.num_pipes}-pipe device lacks"))
                continue
            if not bypass:
                qd = queue_depth(eport) if callable(queue_depth) else queue_depth
                if self.tracer is None:
                    data, mirrors = pipe._egress(eport, rid, data, ts, qd)
                else:
                    data, mirrors = self.tracer.stage(f"egress, port {eport}", pipe._egress,
                                                      eport, rid, data, ts, qd)
                for sid, mframe in mirrors:
                    port = self.mirror_sessions.get(sid)
                    if self.mirror_directions.get(sid) == "INGRESS":
                        port = None                 # an ingress-only session
                    if port is None:
                        self.drops.append(("mirror", f"no mirror session {sid}"))
                    elif depth + 1 >= self.max_passes:
                        self.drops.append(("max_passes", "egress mirror chain too long"))
                    else:
                        eq.append((port, 0, self._truncate(sid, mframe), False, depth + 1))
                if data is None:
                    continue
            if eport in self._recirculation_ports:
                work.append((eport, data, npass + 1, False, b""))
            elif self.ports is None or eport in self.ports:
                out.append((eport, data))
            else:
                self.drops.append(("port", f"egress port {eport} not added"))

    def _mirror_copies(self, ctx, drop_ctl, data):
        copies = []
        if drop_ctl & 4:      # drop_ctl bit 2 disables mirroring
            return copies
        for sid, mhdr in ctx.mirrors:
            port = self.mirror_sessions.get(sid)
            if self.mirror_directions.get(sid) == "EGRESS":
                port = None                         # an egress-only session
            if port is None:
                self.drops.append(("mirror", f"no mirror session {sid}"))
            else:
                copies.append((port, 0, self._truncate(sid, mhdr + data), False))
        return copies

    def _truncate(self, sid, frame):
        n = self.mirror_max_len.get(sid)
        return frame if n is None else frame[:n]


class Switch(TrafficManager, ControlPlaneMixin, ActionProfileControlMixin,
             RegisterParamControlMixin):
    """``program`` on a device of ``pipes`` pipes (1, 2 or 4; p4sim.pipes).

    With one pipe (the default) this object is the pipe, and every port 0..511 is in it.
    ``Switch(program, pipes=2 or 4)`` returns a :class:`p4sim.pipes.PipedSwitch`: one
    such pipe per Tofino pipe (``pipe(i)``), ports in pipe ``port >> 7``.

    inject() runs a frame through the whole pipeline and returns the frames that leave,
    as (egress_port, bytes) in emission order.
    """

    def __new__(cls, program=None, *args, pipes=1, **kwargs):
        if pipes != 1 and cls is Switch:
            from .pipes import PipedSwitch
            return PipedSwitch(program, *args, pipes=pipes, **kwargs)
        return super().__new__(cls)

    def __init__(self, program, *, recirculation_port=68, max_passes=4, ports=None, seed=0,
                 pipes=1, _device=None, _pipe_id=0):
        self.program = program
        self.recirculation_port = recirculation_port
        self.max_passes = max_passes
        self.ctx = ctx = PassContext()
        self.drops = []   # (reason, detail) of the packets dropped by the last inject()
        if _device is None:     # a one-pipe device: this pipe holds the device's state
            self.num_pipes = 1
            self.pipe_id = 0
            self.ports = None if ports is None else set(ports)
            self.mcast = {}
            self.mirror_sessions = {}     # session id -> egress port
            self.mirror_max_len = {}      # session id -> truncation length (bytes)
            self.mirror_directions = {}   # session id -> INGRESS / EGRESS / BOTH
            self.port_metadata = {}       # ingress port -> the 8 bytes of port metadata
            self._digests = []
            self._by_pipe = (self,) * 4
            self._recirculation_ports = frozenset((recirculation_port,))
        else:                   # one pipe of a PipedSwitch: the device's state is shared
            self.num_pipes = _device.num_pipes
            self.pipe_id = _pipe_id
            for name in ("ports", "mcast", "mirror_sessions", "mirror_max_len",
                         "mirror_directions", "port_metadata", "_digests"):
                setattr(self, name, getattr(_device, name))
        ns = {
            "Reject": Reject, "ExitBlock": ExitBlock, "CTX": ctx, "count_direct": rt.count_direct,
            "STK": rt.STK, "ADV": rt.ADV, "LOOK": rt.LOOK, "DIV": rt.DIV, "MOD": rt.MOD,
            "STACK_SHIFT": rt.STACK_SHIFT, "direct_meter": rt.direct_meter, "NOOP": rt.NOOP, "ZERO": [0] * program.nslots,
            "COV": program.coverage_counts, "TABLE_COV": rt.TABLE_COV,
        }
        for fmt, name in program.structs.items():
            ns[name] = struct.Struct(fmt)
        self.tables = {}
        self.registers = {}
        self.counters = {}
        self.meters = {}
        self.value_sets = {}
        self.lpfs = {}          # name -> p4sim.filters.Lpf
        self.wreds = {}         # name -> p4sim.filters.Wred
        self.register_params = {}
        rng = random.Random(seed)
        direct_filters = {}     # a DirectLpf/DirectWred by name, for its table
        for pyname, kind, spec in program.objects:
            if kind == "table":
                obj = (IndirectTable if getattr(spec, "implementation", None) else rt.Table)(spec, ctx)
                self.tables[spec.name] = obj
            elif kind == "register":
                obj = rt.Register(spec)
                self.registers[spec.name] = obj
                for i, d in enumerate(obj.data):
                    ns[f"{pyname}_d{i}"] = d
                    ns[f"{pyname}_c{i}"] = d.cells   # RegisterActions index the dict
            elif kind == "counter":
                obj = rt.Counter(spec, ctx)
                self.counters[spec.name] = obj
            elif kind == "meter":
                obj = rt.Meter(spec, ctx)
                self.meters[spec.name] = obj
            elif kind == "value_set":
                obj = rt.ValueSet(spec)
                self.value_sets[spec.name] = obj
            elif kind == "register_param":
                obj = self.register_params[spec.name] = RegisterParam(spec)
            elif kind in PROFILE_KINDS:
                obj = profile_object(kind, spec, ns)
            elif kind == "direct_meter":
                obj = spec
            elif kind == "hash":
                w, algo, custom = spec
                obj = rt.HashUnit(w, algo, custom)
            elif kind == "random":
                obj = random.Random(rng.getrandbits(64))
            elif kind == "checksum":
                obj = rt.ChecksumUnit()
            elif kind == "digest":
                obj = rt.DigestUnit(spec[0], spec[1], self._digests)
            elif kind == "lpf":
                obj = self.lpfs[spec.name] = filters.Lpf(spec, ctx)
            elif kind == "wred":
                obj = self.wreds[spec.name] = filters.Wred(spec, ctx,
                                                           random.Random(rng.getrandbits(64)))
            elif kind == "direct_lpf":
                obj = direct_filters[spec.name] = filters.DirectLpf(spec, ctx)
            elif kind == "direct_wred":
                obj = direct_filters[spec.name] = filters.DirectWred(
                    spec, ctx, random.Random(rng.getrandbits(64)))
            else:
                raise P4SimError(f"internal: unknown object kind {kind}")
            ns[pyname] = obj
        for t in self.tables.values():
            found = getattr(t.spec, "direct_filter", None)
            t.direct_filter = None if found is None else direct_filters[found[1].name]
        for d in (self.tables, self.registers):
            for obj in list(d.values()):
                for alias in getattr(obj.spec, "aliases", ()):
                    d.setdefault(alias, obj)
        exec(program.code, ns)  # p4sim's own generated code (never the P4 text)
        for t in self.tables.values():
            t.bind(ns)
        for pyname, kind, spec in program.objects:
            if kind == "table":        # const tables' entries, for applies compiled inline
                ns[f"{pyname}_E"] = self.tables[spec.name].sorted
        self._checksums = [ns[p] for p, k, _ in program.objects if k == "checksum"]
        p = program.pipeline
        self._ig_parser, self._ig_ctl, self._ig_dep = ns[p[0]], ns[p[1]], ns[p[2]]
        self._eg_parser, self._eg_ctl, self._eg_dep = ns[p[3]], ns[p[4]], ns[p[5]]
        L = program.layout
        self._template = [0] * program.nslots

        def fslot(role, field):
            base, t = L[role]
            return base + t.offsets[field]

        self._ig_intr_base = L["ig_intr_md"][0]
        self._s_in_port = fslot("ig_intr_md", "ingress_port")
        self._s_resub = fslot("ig_intr_md", "resubmit_flag")
        self._s_in_ts = fslot("ig_intr_md", "ingress_mac_tstamp")
        self._s_ig_gts = fslot("ig_prsr_md", "global_tstamp")
        self._s_ig_drop = fslot("ig_dprsr_md", "drop_ctl")
        self._s_ucast = fslot("ig_tm_md", "ucast_egress_port")
        self._s_ucast_valid = program.ucast_flag
        self._s_bypass = fslot("ig_tm_md", "bypass_egress")
        self._mcast = list(zip((fslot("ig_tm_md", "mcast_grp_a"), fslot("ig_tm_md", "mcast_grp_b")),
                               program.mcast_flags))
        self._s_rid = fslot("ig_tm_md", "rid")
        self._eg_base, self._eg_t = L["eg_intr_md"]
        self._eg_off = {f: self._eg_base + self._eg_t.offsets[f] for f, _ in self._eg_t.fields}
        self._eg_shift = {}
        rem = self._eg_t.bits
        for f, ft in self._eg_t.fields:
            rem -= ft.width
            self._eg_shift[f] = rem
        self._s_eg_gts = fslot("eg_prsr_md", "global_tstamp")
        self._s_eg_drop = fslot("eg_dprsr_md", "drop_ctl")

    # ------------------------------------------------------------------ data path
    def _ingress(self, port, frame, ts, resubmitted, rdata):
        S = self._template[:]
        ctx = self.ctx
        ctx.entry = None
        ctx.resubmit = None
        ctx.mirrors = []
        ctx.pkt_len = len(frame) + FCS_BYTES
        ctx.ts = ts
        for ck in self._checksums:
            ck.clear()
        ts &= (1 << 48) - 1
        b = self._ig_intr_base
        S[b] = 1
        S[self._s_resub] = 1 if resubmitted else 0
        S[self._s_in_port] = port
        S[self._s_in_ts] = ts
        intr = ((1 if resubmitted else 0) << 63) | (port << 48) | ts
        pmd = (rdata + bytes(8))[:8] if resubmitted else self.port_metadata.get(port, ZERO8)
        B = intr.to_bytes(8, "big") + pmd + frame
        try:
            off = self._ig_parser(S, B, 0)
        except Reject as r:
            self.drops.append(("ingress_parser", r.error_name))
            return None
        S[self._s_ig_gts] = ts
        try:
            self._ig_ctl(S)
        except ExitBlock:
            pass
        O = []
        self._ig_dep(S, O)
        dctl = S[self._s_ig_drop]
        # drop_ctl bit 0 also disables resubmit; a resubmitted packet is not resubmitted
        # again (its request is ignored) but goes on to the traffic manager
        if ctx.resubmit is not None and not resubmitted and not dctl & 1:
            return ("resubmit", ctx.resubmit)
        data = b"".join(O) + B[off:]
        # an ingress-to-egress mirror copy is the packet as it entered ingress
        if dctl & 1:
            self.drops.append(("ingress", "drop_ctl"))
            return ("copies", self._mirror_copies(ctx, dctl, frame))
        bypass = bool(S[self._s_bypass])
        copies = []
        if S[self._s_ucast_valid]:
            if S[self._s_ucast] == TM_DROP_PORT:
                self.drops.append(("tm", f"unicast to port {TM_DROP_PORT}, which is no port"))
            else:
                copies.append((S[self._s_ucast], 0, data, bypass))
        for s, flag in self._mcast:
            if S[flag]:
                for rid, ports in self.mcast.get(S[s], ()):
                    for p in ports:
                        copies.append((p, rid, data, bypass))
        if not copies:
            self.drops.append(("tm", "no unicast port and no multicast group"))
        return ("copies", copies + self._mirror_copies(ctx, dctl, frame))

    def _egress(self, eport, rid, frame, ts, qdepth):
        S = self._template[:]
        ctx = self.ctx
        ctx.entry = None
        ctx.mirrors = []
        ctx.pkt_len = len(frame) + FCS_BYTES
        ctx.ts = ts
        for ck in self._checksums:
            ck.clear()
        t = self._eg_t
        base = self._eg_base
        qd = int(qdepth) & ((1 << 19) - 1)
        plen = len(frame) & 0xFFFF
        ets = ts & 0x3FFFF
        o = self._eg_off
        S[base] = 1
        S[o["egress_port"]] = eport
        S[o["egress_rid"]] = rid
        S[o["deq_qdepth"]] = qd
        S[o["enq_qdepth"]] = qd
        S[o["pkt_length"]] = plen
        S[o["enq_tstamp"]] = ets
        sh = self._eg_shift
        word = ((eport << sh["egress_port"]) | (rid << sh["egress_rid"]) | (qd << sh["deq_qdepth"])
                | (qd << sh["enq_qdepth"]) | (plen << sh["pkt_length"]) | (ets << sh["enq_tstamp"]))
        B = word.to_bytes(t.bits // 8, "big") + frame
        try:
            off = self._eg_parser(S, B, 0)
        except Reject as r:
            self.drops.append(("egress_parser", r.error_name))
            return None, []
        S[self._s_eg_gts] = ts & ((1 << 48) - 1)
        try:
            self._eg_ctl(S)
        except ExitBlock:
            pass
        O = []
        self._eg_dep(S, O)
        data = b"".join(O) + B[off:]
        dctl = S[self._s_eg_drop]
        mirrors = [] if dctl & 4 else [(sid, mhdr + data) for sid, mhdr in ctx.mirrors]
        if dctl & 1:
            self.drops.append(("egress", "drop_ctl"))
            return None, mirrors
        return data, mirrors
