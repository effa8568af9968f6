"""``Ingress.aggregator_index``, ``Ingress.aggregator`` and ``Ingress.aggregator_values``:
where aggregators live, their registers, readback and job teardown."""

from __future__ import annotations

from reference.aggregator import AggregatorState
from reference.control_plane import SwitchConfig
from reference.wire import ELEMENTS

from p4src.control.facade import SwitchFacade

POOL_INDEX = "pipe.Ingress.aggregator_index.pool_index"
SET_INDEX = "Ingress.aggregator_index.set_index"
OWNER_STAMP = "pipe.Ingress.aggregator.owner_stamp"
BITMAP = "pipe.Ingress.aggregator.bitmap"
COUNT = "pipe.Ingress.aggregator.count"
ECN = "pipe.Ingress.aggregator.ecn"
HALF = ELEMENTS // 2
VALUES = tuple(f"pipe.Ingress.aggregator_values.values_{i}" for i in range(HALF))
U32 = 1 << 32


def _field(register: str, name: str = "f1") -> str:
    return f"{register[len('pipe.'):]}.{name}"


class AggregatorIndex:
    """``pool_index``: per (level, half, ack) the register bases, the pool bound and the
    clock offset (0 for gradient packets, -aggregator_timeout for parameter packets)."""

    def __init__(self, facade: SwitchFacade, pool_max: int):
        self.facade = facade
        self.pool_max = pool_max

    def configure(self, config: SwitchConfig) -> None:
        p = config.pool_size
        for level in (0, 1):
            for half in (0, 1):
                for ack in (0, 1):
                    if half and ack:
                        continue                      # parameter packets take one pass
                    timeout = config.aggregator_timeout_ns if ack else 0
                    self.facade.table_add(
                        POOL_INDEX, {"md.level": level, "md.second": half, "hdr.atp.ack": ack},
                        SET_INDEX,
                        {"ci_base": level * p, "vi_base": (level + 2 * half) * p,
                         "minus_pool": (U32 - p) % U32, "minus_timeout": (U32 - timeout) % U32})

    def clear(self) -> None:
        self.facade.table_clear(POOL_INDEX)


class AggregatorRegisters:
    """The aggregator registers: control state at ``ci = agtr + level * P``, values 0..30
    at ``ci`` and 31..61 at ``ci + 2P`` of ``values_0..values_30``."""

    def __init__(self, facade: SwitchFacade):
        self.facade = facade
        self.pool_size = 0

    def configure(self, config: SwitchConfig) -> None:
        self.pool_size = config.pool_size

    def clear(self) -> None:
        for register in (OWNER_STAMP, BITMAP, COUNT, ECN) + VALUES:
            self.facade.register_clear(register)

    def _ci(self, index: int, level: int) -> int:
        if not 0 <= index < self.pool_size:
            raise IndexError(f"aggregator index {index} outside the pool 0..{self.pool_size - 1}")
        return index + level * self.pool_size

    def read(self, index: int, level: int = 0) -> AggregatorState:
        return self.read_many([index], level)[index]

    def read_many(self, indices, level: int = 0) -> dict[int, AggregatorState]:
        """Several aggregators with one batched read per register (35 requests on a gRPC
        switch, whatever the number of aggregators)."""
        indices = list(dict.fromkeys(indices))
        ci = {i: self._ci(i, level) for i in indices}
        f = self.facade
        cells = sorted(ci.values())
        owner_stamp = f.register_read_cells(OWNER_STAMP, cells)
        control = {r: f.register_read_cells(r, cells) for r in (BITMAP, COUNT, ECN)}
        second = [c + 2 * self.pool_size for c in cells]
        values = [(r, f.register_read_cells(r, cells + second)) for r in VALUES]
        out = {}
        for i, c in ci.items():
            half = [read[c][_field(r)] for r, read in values]
            half += [read[c + 2 * self.pool_size][_field(r)] for r, read in values]
            out[i] = AggregatorState(
                owner_stamp[c][_field(OWNER_STAMP, "owner")],
                control[BITMAP][c][_field(BITMAP)],
                control[COUNT][c][_field(COUNT)],
                control[ECN][c][_field(ECN)],
                owner_stamp[c][_field(OWNER_STAMP, "stamp")],
                tuple(_signed(v) for v in half))
        return out

    def release_job(self, app_id: int) -> int:
        """Spec 10 teardown: release every aggregator (both levels) the job owns."""
        cells = 2 * self.pool_size
        owners = self.facade.register_read_range(OWNER_STAMP, 0, cells)[
            _field(OWNER_STAMP, "owner")]
        released = 0
        for ci, owner in enumerate(owners):
            if owner and owner >> 16 == app_id:
                self.facade.register_write(OWNER_STAMP, ci, {_field(OWNER_STAMP, "owner"): 0})
                for register in (BITMAP, COUNT, ECN):
                    self.facade.register_write(register, ci, {_field(register): 0})
                released += 1
        return released


def _signed(value: int) -> int:
    value = int(value)
    return value - U32 if value >= 1 << 31 else value
