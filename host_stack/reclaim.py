"""The softswitches of a finished host-stack run, as the reclamation checks see a run.

Section 10's reclamation checks (``atp_fixtures.oracles.properties``: ``owned_by_job``,
``sweep_leaked_aggregators``, ``assert_leaks_swept``, ``assert_teardown_reclaims``) take
a run whose switches offer ``snapshot()``, ``config``, ``process(port, frame, now)`` and
``teardown_job(app_id)``. :class:`LiveRun` offers exactly that over the real
softswitches after the workers exited and the PSes stopped:

- ``snapshot()`` reads the aggregator registers over BfRuntime gRPC (the owner column
  of both levels, then every owned aggregator's whole state);
- ``process(port, frame, now)`` sends the frame into the switch port from the host's
  side of the cable and waits until the switch's port counter says it was taken in.
  The real switch has its own clock, so ``now`` cannot be imposed as such; instead the
  frame carries the softswitch's test trailer with a time ``aggregator_timeout + 1`` ns
  past the stamp of the aggregator it names (the switch compares the low 32 bits,
  which a real clock wraps every 4.3 s, so "some time later" would not be exact);
- ``teardown_job`` is the control plane's (``AtpControlPlane.teardown_job`` over gRPC).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from reference.scenario import Scenario
from reference.wire import WireError, decode

from host_stack.switch import SwitchControl, trailer

SETTLE_TIMEOUT_S = 30.0
U32 = 1 << 32


def latest_stamp(stamps: list[int]) -> int:
    """The stamp no other is later than, on the switch's wrapping 32-bit clock."""
    return next(s for s in stamps if all((s - o) % U32 < U32 // 2 for o in stamps))


class LiveSwitch:
    """One rack's softswitch after a run (see the module docstring)."""

    def __init__(self, name: str, config, control: SwitchControl, open_link,
                 timeout_ns: int):
        self.name = name
        self.config = config
        self.control = control
        self._open_link = open_link        # port number -> PacketLink into that port
        self._links: dict = {}
        self.timeout_ns = timeout_ns
        self._rx0 = {p: rx for p, (rx, _) in control.port_frames().items()}
        self._sent: dict[int, int] = {}
        self._stamps: dict[int, list[int]] = {}
        self.injected = 0

    def snapshot(self) -> dict:
        self._settle()
        owned = self.control.owned()
        self._stamps = {}
        for regs in owned.values():
            for index, state in regs.items():
                self._stamps.setdefault(index, []).append(state.stamp)
        return owned

    def process(self, port: int, frame: bytes, now: int) -> list:
        try:
            index = decode(frame).agtr
        except WireError:
            index = None
        stamps = self._stamps.get(index) if index is not None else None
        if stamps is None:
            stamps = [s for ss in self._stamps.values() for s in ss] or [time.time_ns()]
        at = latest_stamp(stamps) % U32 + self.timeout_ns + 1
        if port not in self._links:
            self._links[port] = self._open_link(port)
        self._links[port].send(frame + trailer(at))
        self._sent[port] = self._sent.get(port, 0) + 1
        self.injected += 1
        return []

    def teardown_job(self, app_id: int) -> int:
        self._settle()
        return self.control.teardown_job(app_id)

    def _settle(self) -> None:
        """Wait until the switch took in every frame this object sent."""
        if not self._sent:
            return
        deadline = time.monotonic() + SETTLE_TIMEOUT_S
        while True:
            stats = self.control.port_frames()
            behind = {p: n for p, n in self._sent.items()
                      if stats.get(p, (0, 0))[0] - self._rx0.get(p, 0) < n}
            if not behind:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"softswitch {self.name} did not take in the frames sent "
                                   f"to port(s) {sorted(behind)} within {SETTLE_TIMEOUT_S} s")
            time.sleep(0.005)

    def close(self) -> None:
        for link in self._links.values():
            link.close()
        self._links.clear()


@dataclass
class LiveRun:
    """What ``atp_fixtures.oracles.properties``' reclamation checks read of a run."""

    scenario: Scenario
    switches: dict[str, LiveSwitch]
    probe_app_id: int
    describe: str
    end_ns: int = 0
    notes: list[str] = field(default_factory=list)

    def owned_aggregators(self) -> dict[str, list[tuple[str, int, int]]]:
        out = {}
        for name, switch in self.switches.items():
            out[name] = [(level, i, s.owner) for level, regs in switch.snapshot().items()
                         for i, s in regs.items()]
        return out

    def summary(self) -> str:
        return "\n".join([self.describe, *self.notes])

    def close(self) -> None:
        for switch in self.switches.values():
            switch.close()
