"""The ATP switch model: one rack switch's pipeline, frame in, frames out.

Ingress: parse, then gradient packets through the aggregator rules (section 4, on the
level-0 pool; on the level-1 pool for whole-rack aggregates at the PS's rack switch,
section 8), parameter packets through release and multicast (section 5), other frames
through the L2 table. Egress: ECN marking from the queue depth given with the packet.

Every ingress frame gets a :class:`SwitchVerdict` (``last_verdict`` after ``process``,
or ``process_with_verdict``) and bumps the counter its verdict names, so "absorbed" and
"dropped: no route for this job" are told apart without counter arithmetic.

Under profile atp-release (9.11-9.13): the registers, not P, bound agtr; a parameter
packet is multicast only when it entered on the port towards its PS (``to_ps_port`` of
its route: the PS's own port on its rack switch, the uplink towards it elsewhere --
decision, the release has one switch and keys its multicast table on the PS's port),
else dropped after its register updates; :meth:`SwitchModel.set_up` keeps the ECN
register.

Decisions where the spec is silent:
- A frame whose ``(app_id, ps_index)`` has no route is dropped, counted as
  ``unknown_job_dropped`` (no route for the app_id at all) or
  ``unknown_ps_index_dropped`` (the job is configured, that ps_index is not).
- A single-rack (0x0700) gradient on a route without ``local_rack_id`` (the upper
  switch of a multi-rack job with no workers here) is dropped as
  ``no_local_rack_dropped``: aggregating it would take an aggregator that no parameter
  packet releases. A route that neither names a local rack nor is upper is rejected when
  the switch is built (``control_plane.check_switch_config``).
- An ATP-ethertype frame that ends inside its ATP layer (or shim) is dropped as
  ``malformed_dropped`` (docs/protocol.md D29: a Tofino's ingress parser drops it).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from reference.aggregator import AggregatorPool, AggregatorState, Verdict
from reference.control_plane import JobRoute, SwitchConfig, check_switch_config
from reference.pipes import pipe_of, register_key
from reference.profiles import SPEC, Profile
from reference.wire import (
    ELEMENTS, ETH_LEN, ETHERTYPE_ATP, ETHERTYPE_ATP_TWO_LEVEL, ETHERTYPE_IPV4, FLAG_COLLISION,
    FLAG_ECN, FRAME_LEN, FRAME_LEN_TWO_LEVEL, IPV4_LEN, SHIM_LEN, AtpPacket, Shim, decode,
    encode,
)

Output = list[tuple[int, bytes]]

LEVEL0 = 0
LEVEL1 = 1
EMPTY = AggregatorState(0, 0, 0, 0, 0, (0,) * ELEMENTS)   # an aggregator never written

# what happened to an ingress frame
ABSORBED = "absorbed"      # kept in an aggregator, nothing leaves
EMITTED = "emitted"        # the aggregate leaves for the PS (or the next level)
FORWARDED = "forwarded"    # leaves for the PS with its own values (collision, pass ...)
MULTICAST = "multicast"    # a parameter packet or float request, to the job's ports
SWITCHED = "switched"      # a non-ATP frame, by the L2 table
DROPPED = "dropped"        # nothing leaves; no state changed (but 9.12's, after release)
FATES = (ABSORBED, EMITTED, FORWARDED, MULTICAST, SWITCHED, DROPPED)


@dataclass(frozen=True)
class SwitchVerdict:
    """What the switch did with one ingress frame: ``fate`` (one of :data:`FATES`),
    ``reason`` (the counter it bumped, e.g. ``collisions`` or ``unknown_job_dropped``)
    and ``detail`` for a person."""

    fate: str
    reason: str
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.fate} ({self.reason}{': ' + self.detail if self.detail else ''})"


class SwitchModel:
    """One rack switch. ``process`` is the whole pipeline for one ingress frame."""

    def __init__(self, config: SwitchConfig, profile: Profile = SPEC):
        check_switch_config(config)
        self.config = config
        self.profile = profile
        self._bound = profile.agtr_bound(config.pool_size)   # P, or 9.11's register size
        # section 8a: every pipe has its own registers, hence its own pools; a frame
        # uses those of its ingress port's pipe (``pools``: the last frame's pipe's)
        self.pipe_pools: dict[int, tuple[AggregatorPool, AggregatorPool]] = {}
        self.pools = self.pools_of(0)
        self.counters: Counter[str] = Counter()
        self.last_verdict: SwitchVerdict | None = None

    def set_up(self, config: SwitchConfig) -> None:
        """Set the running switch up again with ``config``: new tables, every register
        reset -- but the ECN register under the release (9.13: a mark left by the earlier
        run is inherited by the aggregator's next owner)."""
        old = self.pipe_pools
        self.__init__(config, self.profile)
        if self.profile.setup_clears_ecn:
            return
        for pipe, pools in sorted(old.items()):
            for before, after in zip(pools, self.pools_of(pipe)):
                for index in sorted(before.touched):
                    if index < after.size and before.ecn[index]:
                        after.ecn[index] = before.ecn[index]
                        after.touched.add(index)

    def pools_of(self, pipe: int) -> tuple[AggregatorPool, AggregatorPool]:
        """Pipe ``pipe``'s (level-0, level-1) pools, made when first used."""
        pools = self.pipe_pools.get(pipe)
        if pools is None:
            pools = self.pipe_pools[pipe] = (AggregatorPool(self._bound),
                                             AggregatorPool(self._bound))
        return pools

    def _verdict(self, fate: str, reason: str, detail: str = "") -> None:
        self.counters[reason] += 1
        self.last_verdict = SwitchVerdict(fate, reason, detail)

    # -- the pipeline -----------------------------------------------------------------
    def process_with_verdict(self, port: int, frame: bytes, now: int = 0,
                             queue_depth: int = 0) -> tuple[Output, SwitchVerdict]:
        """:meth:`process`, returning the frames and the verdict."""
        out = self.process(port, frame, now, queue_depth)
        return out, self.last_verdict

    def process(self, port: int, frame: bytes, now: int = 0,
                queue_depth: int = 0) -> Output:
        """Ingress one frame on ``port`` at switch time ``now`` (ns); every copy it
        produces sees egress queue depth ``queue_depth``. Returns [(port, frame)];
        ``last_verdict`` then says what happened."""
        self.pools = self.pipe_pools.get(pipe_of(port)) or self.pools_of(pipe_of(port))
        ethertype = (frame[12] << 8 | frame[13]) if len(frame) >= ETH_LEN else 0
        if ethertype == ETHERTYPE_ATP or ethertype == ETHERTYPE_ATP_TWO_LEVEL:
            if len(frame) < (FRAME_LEN if ethertype == ETHERTYPE_ATP else FRAME_LEN_TWO_LEVEL):
                self._verdict(DROPPED, "malformed_dropped",
                              f"a frame of {len(frame)} bytes ends inside its ATP layer")
                return []
            packet = decode(frame)
            if packet.flags & 1:
                out = self._parameter(port, packet, frame, now)
            else:
                out = self._gradient(packet, frame, now)
        else:
            out = self._l2(frame)
        if queue_depth >= self.config.ecn_threshold and out:
            self.counters["ecn_marked"] += len(out)
            return [(p, mark_congestion(f)) for p, f in out]
        return out

    def _l2(self, frame: bytes) -> Output:
        port = self.config.l2.get(frame[0:6])
        if port is None:
            self._verdict(DROPPED, "l2_dropped",
                          f"no L2 entry for destination {frame[0:6].hex(':')}")
            return []
        self._verdict(SWITCHED, "l2_forwarded")
        return [(port, frame)]

    def _route(self, packet: AtpPacket) -> JobRoute | None:
        """The job's route, or None after counting the drop under a named counter."""
        key = (packet.app_id, packet.ps_index)
        route = self.config.routes.get(key)
        if route is not None and (not packet.flags & 1 or key in self.config.multicast):
            return route
        if route is not None:
            self._verdict(DROPPED, "no_multicast_group_dropped",
                          f"app_id {packet.app_id} ps_index {packet.ps_index} has a route "
                          f"but no multicast group for its parameter packets")
        elif any(app == packet.app_id for app, _ in self.config.routes):
            self._verdict(DROPPED, "unknown_ps_index_dropped",
                          f"app_id {packet.app_id} is configured, ps_index "
                          f"{packet.ps_index} is not")
        else:
            self._verdict(DROPPED, "unknown_job_dropped",
                          f"no route for app_id {packet.app_id}")
        return None

    def _gradient(self, packet: AtpPacket, frame: bytes, now: int) -> Output:
        route = self._route(packet)
        if route is None:
            return []
        if packet.flags & 0x80:                          # 4.2 float mode passes
            self._verdict(FORWARDED, "float_forwarded")
            return [(route.to_ps_port, frame)]
        shim = packet.shim
        if shim is None:                                 # single-rack job
            if route.local_rack_id is None:
                self._verdict(DROPPED, "no_local_rack_dropped",
                              f"app_id {packet.app_id}'s route has no local_rack_id (an "
                              f"upper switch without workers of the job): single-rack "
                              f"frames need local_rack_id 0")
                return []
            return self._level0(packet, frame, route, now, two_level=False)
        if shim.level == 0:
            if route.local_rack_id is None or shim.rack_id != route.local_rack_id:
                self._verdict(FORWARDED, "passed_level0")
                return [(route.to_ps_port, frame)]
            return self._level0(packet, frame, route, now, two_level=True)
        if route.is_upper:
            return self._level1(packet, frame, route, now)
        self._verdict(FORWARDED, "passed_level1")
        return [(route.to_ps_port, frame)]

    def _aggregate(self, level: int, packet: AtpPacket, bits: int, fan_in: int,
                   now: int) -> tuple[Verdict, int, bool]:
        """Section 4 on one pool with this profile's switches."""
        profile = self.profile
        return self.pools[level].gradient(
            packet.agtr, packet.owner_id, bits, fan_in, bool(packet.flags & 4),
            packet.ipv4_ecn == 3 or bool(packet.flags & FLAG_ECN), packet.values, now,
            profile.first_completing_overwrites, profile.flush_clears_ecn,
            profile.ecn_flag_after_update)

    def _level0(self, packet: AtpPacket, frame: bytes, route: JobRoute, now: int,
                two_level: bool) -> Output:
        verdict, merged, ecn = self._aggregate(LEVEL0, packet, packet.bitmap,
                                               packet.fan_in, now)
        if (verdict is Verdict.EMIT and two_level
                and self.covers_whole_rack(merged, packet.fan_in)):  # 8: whole racks go up
            self._carry_aggregate(packet, LEVEL0, merged, ecn)
            shim = packet.shim
            packet.shim = Shim(self.rack_bit(shim.rack_id), shim.fan_in1, 1, shim.rack_id,
                               shim.reserved)
            self.counters["emitted"] += 1
            self._verdict(EMITTED, "rack_aggregates",
                          f"rack {shim.rack_id}'s whole-rack aggregate goes up as level 1")
            if route.is_upper:                           # the internal loop (recirculation)
                return self._level1(packet, encode(packet), route, now)
            return [(route.to_ps_port, encode(packet))]
        return self._verdict_output(verdict, packet, frame, route, LEVEL0, merged, ecn)

    @staticmethod
    def covers_whole_rack(merged: int, fan_in: int) -> bool:
        """Section 8: a rack's frame goes up as level 1 only if it has every worker."""
        return merged == (1 << fan_in) - 1

    @staticmethod
    def rack_bit(rack_id: int) -> int:
        """Section 8's ``bitmap1 := 1 << rack_id`` in bitmap1's 32 bits. The spec is
        silent on rack_id >= 32 (only a malformed frame has one: rack ids are bits of
        bitmap1); decided: the bit leaves the word and bitmap1 is 0, as a u32 shift
        gives (atp.p4's rack_bit table misses and writes 0)."""
        return (1 << rack_id) & 0xFFFF_FFFF

    def _level1(self, packet: AtpPacket, frame: bytes, route: JobRoute, now: int) -> Output:
        shim = packet.shim
        verdict, merged, ecn = self._aggregate(LEVEL1, packet, shim.bitmap1,
                                               shim.fan_in1, now)
        return self._verdict_output(verdict, packet, frame, route, LEVEL1, merged, ecn)

    def _verdict_output(self, verdict: Verdict, packet: AtpPacket, frame: bytes,
                        route: JobRoute, level: int, merged: int, ecn: bool) -> Output:
        if verdict is Verdict.ABSORBED:
            self._verdict(ABSORBED, "absorbed", f"level-{level} aggregator {packet.agtr}")
            return []
        if verdict is Verdict.NOT_MINE:
            outside = packet.agtr >= self.pools[level].size
            if outside:
                self.counters["agtr_outside_pool"] += 1
            where = (f"agtr {packet.agtr} is outside the pool (P={self.pools[level].size})"
                     if outside else f"level-{level} aggregator {packet.agtr}")
            if packet.flags & 4:
                self._verdict(FORWARDED, "resend_passed", where)
                return [(route.to_ps_port, frame)]
            self._verdict(FORWARDED, "collisions", where)
            packet.flags |= FLAG_COLLISION
            return [(route.to_ps_port, encode(packet))]
        self._carry_aggregate(packet, level, merged, ecn)
        self._verdict(EMITTED, "emitted", f"level-{level} aggregator {packet.agtr}")
        return [(route.to_ps_port, encode(packet))]

    def _carry_aggregate(self, packet: AtpPacket, level: int, merged: int,
                         ecn: bool) -> None:
        """4.7: an emitted packet carries the aggregate, the merged bitmap (bitmap1 at
        level 1) and the aggregator's ecn."""
        packet.values = self.pools[level].values[packet.agtr].astype("int32")
        if level == LEVEL0:
            packet.bitmap = merged
        else:
            s = packet.shim
            packet.shim = Shim(merged, s.fan_in1, s.level, s.rack_id, s.reserved)
        if ecn:
            packet.flags |= FLAG_ECN

    def _parameter(self, port: int, packet: AtpPacket, frame: bytes, now: int) -> Output:
        route = self._route(packet)
        if route is None:
            return []
        group = self.config.multicast[(packet.app_id, packet.ps_index)]
        if packet.flags & 0x80 and not packet.flags & 4:  # 5: float request
            self._verdict(MULTICAST, "float_requests")
        elif packet.agtr >= self.pools[LEVEL0].size:       # 5: outside the pool (9.11)
            self.counters["agtr_outside_pool"] += 1
            self._verdict(MULTICAST, "parameters",
                          f"agtr {packet.agtr} is outside the pool: no state changed")
        else:
            self._verdict(MULTICAST, "parameters")
            timeout = (self.config.aggregator_timeout_ns if self.profile.leak_timeout
                       else None)
            levels = []
            if packet.shim is not None and route.is_upper:
                levels.append(LEVEL1)
            if route.local_rack_id is not None:
                levels.append(LEVEL0)
            for level in levels:
                reason = self.pools[level].parameter(packet.agtr, packet.owner_id, now,
                                                     timeout)
                if reason:
                    self.counters[f"released_by_{reason}"] += 1
        if (not self.profile.multicast_from_any_port
                and port not in self.config.ps_ports(packet.app_id)):
            self._verdict(DROPPED, "parameter_not_from_ps_dropped",
                          f"entered on port {port}, not a port of its job's PSes "
                          f"{list(self.config.ps_ports(packet.app_id))} (9.12)")
            return []
        return [(out, frame) for out in group]

    # -- control plane ----------------------------------------------------------------
    def teardown_job(self, app_id: int) -> int:
        """Control-plane teardown of a dead job: remove its routes and multicast groups
        first (so its frames still in flight are dropped as an unknown job's instead of
        re-taking an aggregator), then release every aggregator it owns. Returns how many
        were released. No-op under profile atp-release (9.4)."""
        if not self.profile.teardown_releases:
            return 0
        for table in (self.config.routes, self.config.multicast, self.config.mgid):
            for key in [k for k in table if k[0] == app_id]:
                del table[key]
        return sum(pool.release_job(app_id) for pools in self.pipe_pools.values()
                   for pool in pools)

    def read_aggregators(self, indices, level: int = LEVEL0,
                         pipe: int = 0) -> dict[int, AggregatorState]:
        pools = self.pipe_pools.get(pipe)
        if pools is None:           # a pipe no frame entered: every aggregator empty
            return {i: EMPTY for i in indices}
        pool = pools[level]
        return {i: pool.read(i) for i in indices}

    def snapshot(self) -> dict[str, dict[int, AggregatorState]]:
        """Both levels of every pipe in use (keys: ``reference.pipes.register_key``)."""
        return {register_key(pipe, level): pools[level].snapshot()
                for pipe, pools in sorted(self.pipe_pools.items())
                for level in (LEVEL0, LEVEL1)}

    @property
    def occupied(self) -> int:
        return sum(pool.occupied for pools in self.pipe_pools.values() for pool in pools)


def mark_congestion(frame: bytes) -> bytes:
    """Egress ECN marking: ipv4.ecn := 3 and, on ATP frames, the ecn flag := 1."""
    ethertype = frame[12] << 8 | frame[13]
    if ethertype == ETHERTYPE_ATP:
        flags_at = ETH_LEN + IPV4_LEN + 5
    elif ethertype == ETHERTYPE_ATP_TWO_LEVEL:
        flags_at = ETH_LEN + IPV4_LEN + SHIM_LEN + 5
    elif ethertype == ETHERTYPE_IPV4:
        flags_at = None
    else:
        return frame
    marked = bytearray(frame)
    marked[ETH_LEN + 1] |= 0x03
    if flags_at is not None:
        marked[flags_at] |= FLAG_ECN
    return bytes(marked)
