"""The whole control plane of one ATP switch: configure from a SwitchConfig, clear,
tear a job down, read an aggregator back."""

from __future__ import annotations

from reference.aggregator import AggregatorState
from reference.control_plane import SwitchConfig, SwitchConfigError, check_switch_config
from reference.pipes import check_job_pipes, pipe_of
from reference.profiles import SPEC, Profile

from p4src.control.aggregation import AggregatorIndex, AggregatorRegisters
from p4src.control.ecn import EcnMarking
from p4src.control.facade import SwitchFacade
from p4src.control.forwarding import Forwarding
from p4src.control.two_level import TwoLevel

RECIRC_PORT = 68          # RECIRC_PORT in p4src/headers.p4: pipe 0's; pipe i's is + 128*i
PIPE_PORT_MASK = 0x7F     # a port's place in its pipe
MAX_TIMEOUT_NS = (1 << 31) - 1


class ControlPlaneConfigError(ValueError):
    """A SwitchConfig this program cannot hold; says what and how to fix it."""


class AtpControlPlane:
    def __init__(self, facade: SwitchFacade, pool_max: int, profile: Profile = SPEC):
        """``profile`` names the build: atp-release is atp.p4 -DATP_RELEASE, whose
        control plane installs 9.12's ``ps_port`` and whose set-up keeps ECN (9.13)."""
        self.facade = facade
        self.pool_max = pool_max
        self.forwarding = Forwarding(facade, profile)
        self.two_level = TwoLevel(facade)
        self.index = AggregatorIndex(facade, pool_max)
        self.registers = AggregatorRegisters(facade, pool_max, profile)
        self.ecn = EcnMarking(facade)

    def check(self, config: SwitchConfig) -> None:
        """The reference's own checks, then what this program and its device add
        (register size, the recirculation ports, the 32-bit stamp, each job's ports in
        one pipe: spec 8a), before anything is written."""
        check_switch_config(config)
        if config.pool_size > self.pool_max:
            raise _config_error(config, f"pool size {config.pool_size} exceeds the "
                                     f"program's ATP_POOL_MAX={self.pool_max}; build it "
                                     f"with -DATP_POOL_MAX={config.pool_size}")
        for port in config.ports:
            if port & PIPE_PORT_MASK == RECIRC_PORT:
                raise _config_error(config, f"port {port} is the recirculation port of "
                                         f"pipe {pipe_of(port)} and cannot be a front port")
        try:
            check_job_pipes(config, self.facade.num_pipes())
        except SwitchConfigError as exc:
            raise ControlPlaneConfigError(str(exc)) from None
        if not 0 <= config.aggregator_timeout_ns <= MAX_TIMEOUT_NS:
            raise _config_error(config, f"aggregator_timeout {config.aggregator_timeout_ns}"
                                     f" ns must be below 2^31 ns (the 32-bit stamp)")

    def configure(self, config: SwitchConfig) -> None:
        self.check(config)
        self.forwarding.configure(config)
        self.two_level.configure(config)
        self.index.configure(config)
        self.registers.configure(config)
        self.ecn.configure(config)

    def clear(self) -> None:
        self.forwarding.clear()
        self.two_level.clear()
        self.index.clear()
        self.registers.clear()
        self.ecn.clear()

    def teardown_job(self, app_id: int) -> int:
        """Spec 10: routes and groups first (in-flight frames are then an unknown job's),
        then every aggregator the job owns. Returns how many were released."""
        self.forwarding.remove_job(app_id)
        self.two_level.remove_job(app_id)
        return self.registers.release_job(app_id)

    def read_aggregator(self, index: int, level: int = 0, pipe: int = 0) -> AggregatorState:
        return self.registers.read(index, level, pipe)

    def read_aggregators(self, indices, level: int = 0,
                         pipe: int = 0) -> dict[int, AggregatorState]:
        """Several aggregators of pipe ``pipe``, one batched read per register."""
        return self.registers.read_many(indices, level, pipe)

    def read_aggregator_levels(self, wanted
                               ) -> dict[tuple[int, int], dict[int, AggregatorState]]:
        """Aggregators of several levels and pipes (``{(pipe, level): indices}``) in one
        batched read."""
        return self.registers.read_levels(wanted)

    def occupied(self) -> int:
        """Owned aggregators of both levels in every pipe (section 10's occupancy)."""
        return self.registers.occupied()


def _config_error(config: SwitchConfig, message: str) -> ControlPlaneConfigError:
    return ControlPlaneConfigError(f"switch {config.name!r}: {message}")
