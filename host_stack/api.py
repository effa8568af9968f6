"""``push_pull(tensor, key)``: what training code calls to aggregate a gradient.

    import host_stack.api as atp
    atp.init()                                   # reads the DMLC_*/ATP_* variables
    summed = atp.push_pull(grad, key=3)          # the sum over all workers

Each call sends the tensor as a sequence of ATP packets through the switch (or
straight to the PS) and blocks until every parameter packet is back; the result is the
dequantized integer sum (or the float sum for packets in float mode), shaped like the
input. The protocol itself runs in ``reference.worker.Worker``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from reference.placement import slot_indexes
from reference.profiles import profile_named
from reference.worker import SeqOutcome, Worker

from host_stack.launcher import LaunchConfig
from host_stack.link import PacketLink
from host_stack.roles import RoleError, single_job
from host_stack.shell import HostLoop


class PushPullTimeout(TimeoutError):
    """The aggregate did not come back within the budget (PS down, cable missing...)."""


@dataclass
class Exchange:
    """One push_pull as seen on the wire, kept for exactly-once checks."""

    key: int
    sent: np.ndarray                 # float32, flattened
    outcomes: list[SeqOutcome]


class AtpWorker:
    """One worker of one job on one interface."""

    def __init__(self, config: LaunchConfig, *, budget_s: float = 30.0,
                 keep_history: bool = False):
        if config.role != "worker":
            raise RoleError(f"AtpWorker needs DMLC_ROLE=worker, got {config.role!r}")
        self.config = config
        self.budget_s = budget_s
        self.link = PacketLink(config.iface)
        job, layout = single_job(config.app_id, config.num_workers, config.num_servers,
                                 config.window, scale=config.scale,
                                 congestion_control=config.congestion_control,
                                 first_seq=config.first_seq)
        slots = slot_indexes(config.app_id, config.window, config.pool_size)
        self.worker = Worker(job, config.worker_id, layout, self.link.mac,
                             list(config.ps_macs), slots, config.pool_size, [],
                             profile_named(config.profile),
                             timeout_ns=config.timeout_us * 1000, keep_outcomes=False)
        self.loop = HostLoop(self.link, self.worker)
        self.keep_history = keep_history
        self.history: list[Exchange] = []

    def push_pull(self, tensor: np.ndarray, key: int) -> np.ndarray:
        """The sum of ``tensor`` over all workers of the job (same shape and dtype)."""
        data = np.ascontiguousarray(tensor, dtype=np.float32).ravel()
        if data.size == 0:
            return np.array(tensor, copy=True)
        worker = self.worker
        worker.queue.append((key, data))
        self.loop.send(worker.start(time.monotonic_ns()))
        if not self.loop.run(until=lambda: worker.finished, budget_s=self.budget_s):
            raise PushPullTimeout(
                f"push_pull(key={key}) got no complete aggregate within {self.budget_s} s "
                f"({len(worker.current.acked) if worker.current else 0} of "
                f"{-(-data.size // 62)} packets back); is the PS running and cabled?")
        if self.keep_history:
            progress = worker.done[key]
            self.history.append(Exchange(key, data.copy(), [
                progress.acked[s] for s in range(1, progress.packets + 1)]))
        result = worker.tensor_result(key)
        return result.reshape(np.shape(tensor)).astype(np.asarray(tensor).dtype)

    def close(self) -> None:
        self.link.close()


_default: AtpWorker | None = None


def init(*, keep_history: bool = False, budget_s: float = 30.0) -> AtpWorker:
    """Create the process's worker from the launcher's environment."""
    global _default
    _default = AtpWorker(LaunchConfig.from_env(), keep_history=keep_history,
                         budget_s=budget_s)
    return _default


def push_pull(tensor: np.ndarray, key: int) -> np.ndarray:
    if _default is None:
        raise RoleError("call host_stack.api.init() before push_pull")
    return _default.push_pull(tensor, key)
