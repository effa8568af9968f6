"""``Ingress.aggregator_index``, ``Ingress.aggregator`` and ``Ingress.aggregator_values``:
where aggregators live, their registers, readback and job teardown."""

from __future__ import annotations

from reference.aggregator import AggregatorState
from reference.control_plane import SwitchConfig
from reference.profiles import SPEC, Profile
from reference.wire import ELEMENTS, owner_app_id

from p4src.control.facade import SwitchFacade

POOL_INDEX = "pipe.Ingress.aggregator_index.pool_index"
SET_POOL = "Ingress.aggregator_index.set_pool"
WHOLE_SPACE_POOL = "Ingress.aggregator_index.whole_space_pool"
OWNER_STAMP = "pipe.Ingress.aggregator.owner_stamp"
BITMAP = "pipe.Ingress.aggregator.bitmap"
BITMAP_TWIN = "pipe.Ingress.aggregator.bitmap_twin"
COUNT = "pipe.Ingress.aggregator.count"
ECN = "pipe.Ingress.aggregator.ecn"
HALF = ELEMENTS // 2
VALUES = tuple(f"pipe.Ingress.aggregator_values.values_{i}" for i in range(HALF))
U32 = 1 << 32
HALF_U32 = 1 << 31
TOFINO_POOL_MAX = 4096      # atp.p4's default build: what fits Tofino 1 (README)


def pool_slots(pool_max: int) -> int:
    """Cells per level in the registers of a build with ``-DATP_POOL_MAX=pool_max``: the
    power of two atp.p4 rounds it up to (at least 2), since indexes are level ++ agtr."""
    return 1 << max(1, (max(pool_max, 1) - 1).bit_length())


def _field(register: str, name: str = "f1") -> str:
    return f"{register[len('pipe.'):]}.{name}"


# the bfrt data-field names read back after every frame, built once
_OWNER, _STAMP = _field(OWNER_STAMP, "owner"), _field(OWNER_STAMP, "stamp")
_BITMAP, _COUNT, _ECN = _field(BITMAP), _field(COUNT), _field(ECN)
_VALUE_FIELDS = tuple(_field(r) for r in VALUES)
_CONTROL_PAIRS = ((OWNER_STAMP, _OWNER), (OWNER_STAMP, _STAMP), (BITMAP, _BITMAP),
                  (COUNT, _COUNT), (ECN, _ECN))
_VALUE_PAIRS = tuple(zip(VALUES, _VALUE_FIELDS))


class AggregatorIndex:
    """``pool_index``: per value of ack the pool bound P and the clock offset (0 for
    gradient packets, -aggregator_timeout for parameter packets)."""

    def __init__(self, facade: SwitchFacade, pool_max: int):
        self.facade = facade
        self.pool_max = pool_max

    def configure(self, config: SwitchConfig) -> None:
        p = config.pool_size
        for ack in (0, 1):
            timeout = config.aggregator_timeout_ns if ack else 0
            minus_timeout = (U32 - timeout) % U32
            if p >= 1 << 16:                          # every 16-bit agtr is inside
                self.facade.table_add(POOL_INDEX, {"hdr.atp.ack": ack}, WHOLE_SPACE_POOL,
                                      {"minus_timeout": minus_timeout})
            else:
                self.facade.table_add(POOL_INDEX, {"hdr.atp.ack": ack}, SET_POOL,
                                      {"pool": p, "minus_timeout": minus_timeout})

    def clear(self) -> None:
        self.facade.table_clear(POOL_INDEX)


class AggregatorRegisters:
    """The aggregator registers: control state at ``ci = level * S + agtr``, values 0..30
    at ``vi = level * S + agtr`` and 31..61 at ``vi + 2S`` of ``values_0..values_30``,
    S = pool_slots(pool_max).

    ``pool_size`` is how many aggregators a level has: P, or in the release build the
    registers' bound (9.11: the reference's ``agtr_bound``, within the build's S, as
    atp.p4's ATP_RELEASE_BOUND). ``clear`` is the switch's set-up: it keeps the ECN
    register under the release (9.13)."""

    def __init__(self, facade: SwitchFacade, pool_max: int, profile: Profile = SPEC):
        self.facade = facade
        self.slots = pool_slots(pool_max)
        self.profile = profile
        self.pool_size = 0

    def configure(self, config: SwitchConfig) -> None:
        self.pool_size = min(self.profile.agtr_bound(config.pool_size), self.slots)

    def clear(self) -> None:
        kept = () if self.profile.setup_clears_ecn else (ECN,)
        for register in (OWNER_STAMP, BITMAP, BITMAP_TWIN, COUNT, ECN) + VALUES:
            if register not in kept:
                self.facade.register_clear(register)

    def _ci(self, index: int, level: int) -> int:
        if not 0 <= index < self.pool_size:
            raise IndexError(f"aggregator index {index} outside the pool 0..{self.pool_size - 1}")
        return index + level * self.slots

    def read(self, index: int, level: int = 0, pipe: int = 0) -> AggregatorState:
        return self.read_many([index], level, pipe)[index]

    def read_many(self, indices, level: int = 0, pipe: int = 0) -> dict[int, AggregatorState]:
        """Several aggregators of one level in pipe ``pipe`` (``read_levels``)."""
        return self.read_levels({(pipe, level): indices})[(pipe, level)]

    def read_levels(self, wanted) -> dict[tuple[int, int], dict[int, AggregatorState]]:
        """Aggregators of several levels and pipes (``{(pipe, level): indices}``, spec
        8a: every pipe has its own registers) as one batch: every register an aggregator
        spans, at the cells of all of them, in one facade call (a gRPC backend sends one
        Read, whatever the number of aggregators, levels and pipes)."""
        chosen = {key: list(dict.fromkeys(indices)) for key, indices in wanted.items()}
        pipes = sorted({pipe for pipe, _ in chosen})
        cells = {pipe: [self._ci(i, level) for (p, level), indices in chosen.items()
                        if p == pipe for i in indices] for pipe in pipes}
        groups = []
        for pipe in pipes:
            if cells[pipe]:
                both = cells[pipe] + [c + 2 * self.slots for c in cells[pipe]]
                groups += [(_CONTROL_PAIRS, cells[pipe], pipe), (_VALUE_PAIRS, both, pipe)]
        columns = iter(self.facade.registers_read_columns(groups) if groups else ())
        out: dict[tuple[int, int], dict[int, AggregatorState]] = {}
        for pipe in pipes:
            if cells[pipe]:
                (owner, stamp, bitmap, count, ecn), values = next(columns), next(columns)
            n, k = len(cells[pipe]), 0
            for (p, level), indices in chosen.items():
                if p != pipe:
                    continue
                states = out[(pipe, level)] = {}
                for i in indices:
                    half = [column[k] for column in values] + \
                        [column[n + k] for column in values]
                    states[i] = AggregatorState(owner[k], bitmap[k], count[k], ecn[k],
                                                stamp[k], tuple(v - U32 if v >= HALF_U32
                                                                else int(v) for v in half))
                    k += 1            # the values: signed int32
        return out

    def owners(self, pipe: int = 0) -> list[tuple[int, int]]:
        """(ci, owner) of every aggregator of both levels inside the pool of ``pipe``."""
        found = []
        for level in (0, 1):
            start = level * self.slots
            owners = self.facade.register_read_range(OWNER_STAMP, start, self.pool_size,
                                                     pipe=pipe)[_field(OWNER_STAMP, "owner")]
            found.extend((start + i, owner) for i, owner in enumerate(owners))
        return found

    def owned_indices(self, pipe: int = 0) -> dict[int, list[int]]:
        """``{level: [index, ...]}`` of the owned aggregators inside the pool of
        ``pipe``: the owner field of the pool's cells, read as one batch per level (what
        a Tofino control plane would read as well)."""
        owner = _field(OWNER_STAMP, "owner")
        return {level: [i for i, o in enumerate(self.facade.register_read_range(
                    OWNER_STAMP, level * self.slots, self.pool_size, pipe=pipe)[owner]) if o]
                for level in (0, 1)}

    def occupied(self) -> int:
        """Owned aggregators of both levels in every pipe (spec 8a: the leak sweep
        covers them all)."""
        return sum(len(indices) for pipe in range(self.facade.num_pipes())
                   for indices in self.owned_indices(pipe).values())

    def owned_at(self, index: int, pipe: int = 0) -> int:
        """How many of aggregator ``index``'s two levels are owned in ``pipe`` (0..2);
        outside the pool nothing is."""
        if not 0 <= index < self.pool_size:
            return 0
        cells = self.facade.register_read_cells(OWNER_STAMP, (index, index + self.slots),
                                                pipe=pipe)
        return sum(1 for cell in cells.values() if cell[_OWNER])

    def release_job(self, app_id: int) -> int:
        """Spec 10 teardown: release every aggregator (both levels) the job owns, in
        every pipe (8a), writing only the pipe where the job owns it (the same cell of
        another pipe is another job's)."""
        pipes = self.facade.num_pipes()
        released = 0
        for pipe in range(pipes):
            where = None if pipes == 1 else pipe
            for ci, owner in self.owners(pipe):
                if owner and owner_app_id(owner) == app_id:
                    self.facade.register_write(OWNER_STAMP, ci,
                                               {_field(OWNER_STAMP, "owner"): 0}, where)
                    for register in (BITMAP, BITMAP_TWIN, COUNT, ECN):
                        self.facade.register_write(register, ci, {_field(register): 0},
                                                   where)
                    released += 1
        return released

