"""A scenario's fault plan mapped onto the kernel (``tc netem``, ``tbf``) or the relay.

Mapping of :class:`reference.faults.RandomFaults` onto netem (per direction of a link:
host → switch is the egress of the host's ``eth0``, switch → host the egress of the
switch port):

=================  =================================================
plan field         netem
=================  =================================================
drop p             ``loss random 100p%``
duplicate p        ``duplicate 100p%``
reorder p, d       ``delay d reorder 100(1-p)%`` (netem sends the
                   ``reorder`` share at once and delays the rest)
jitter j           ``delay j/2 j/2`` (uniform, like the plan's draw)
=================  =================================================

A link rate (not part of a scenario's plan) maps onto ``tbf``. What netem cannot do —
targeted faults (the n-th frame of a kind), a fault ``budget`` — needs the userspace
relay (:mod:`host_stack.fault_relay`); so does a kernel without ``sch_netem``.
``mode="auto"`` picks netem when the kernel has it and the plan fits, else the relay,
and :meth:`FaultSetup.describe` says which and why.
"""

from __future__ import annotations

import functools
import secrets
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from reference.faults import FaultPlan, RandomFaults
from reference.scenario import Scenario


class FaultSetupError(ValueError):
    """A fault plan that the requested injector cannot carry out; says which part."""


def netem_args(rand: RandomFaults) -> list[str]:
    """The ``tc qdisc ... netem`` arguments for a random plan (budget/links aside)."""
    args: list[str] = []
    delay_us = rand.reorder_delay_ns / 1000 if rand.reorder else 0.0
    jitter_us = rand.jitter_ns / 1000
    if delay_us or jitter_us:
        args += ["delay", f"{delay_us + jitter_us / 2:g}us"]
        if jitter_us:
            args += [f"{jitter_us / 2:g}us"]
        if rand.reorder:
            args += ["reorder", f"{(1 - rand.reorder) * 100:g}%"]
    if rand.drop:
        args += ["loss", "random", f"{rand.drop * 100:g}%"]
    if rand.duplicate:
        args += ["duplicate", f"{rand.duplicate * 100:g}%"]
    return args


def tbf_args(rate_mbit: float) -> list[str]:
    return ["tbf", "rate", f"{rate_mbit:g}mbit", "burst", "32kbit", "latency", "50ms"]


@functools.lru_cache(maxsize=None)
def kernel_lacks(qdisc: str) -> str | None:
    """None if ``tc qdisc add ... <qdisc>`` works on a veth here, else the kernel's
    answer (probed once, in a throwaway namespace)."""
    ns = f"hostst-probe-{secrets.token_hex(3)}"
    probe_args = {"netem": ["netem", "loss", "1%"], "tbf": tbf_args(100)}[qdisc]
    try:
        made = subprocess.run(["ip", "netns", "add", ns], capture_output=True, text=True)
        if made.returncode:
            return f"cannot make a namespace to probe tc: {made.stderr.strip()}"
        subprocess.run(["ip", "-n", ns, "link", "add", "pa", "type", "veth", "peer",
                        "name", "pb"], capture_output=True)
        result = subprocess.run(["ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev",
                                 "pa", "root", *probe_args], capture_output=True, text=True)
        if result.returncode:
            return (f"`tc qdisc add ... {qdisc}` fails on this kernel: "
                    f"{result.stderr.strip().splitlines()[0]}")
        return None
    except FileNotFoundError as exc:
        return f"{exc.filename} is not installed"
    finally:
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)


@dataclass
class FaultSetup:
    mode: str                              # "none", "netem" or "relay"
    plan: FaultPlan
    reason: str
    relayed_hosts: frozenset[str] = frozenset()
    # (host, "egress" | "ingress") -> netem args; ingress = the switch port's egress
    netem: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    rate_mbit: float | None = None
    congestion: bool = False               # the relay carries the congestion plan's depth

    def describe(self) -> str:
        rate = f", links limited to {self.rate_mbit:g} Mbit/s by tbf" if self.rate_mbit else ""
        return f"{self.mode} ({self.reason}){rate}"

    def start(self, bed, workdir: Path) -> list:
        """Apply qdiscs / start relays on a :class:`host_stack.netns.Testbed`."""
        procs = []
        for (host, direction), args in self.netem.items():
            self._tc(bed, host, direction, ["netem", *args])
        if self.rate_mbit:
            for host in bed.hosts:
                for direction in ("egress", "ingress"):
                    self._tc(bed, host, direction, tbf_args(self.rate_mbit))
        if self.mode == "relay":
            argv = [sys.executable, "-m", "host_stack.fault_relay", "--scenario",
                    str(workdir / "scenario.json"), "--log", str(workdir / "faults.log")]
            for host in sorted(self.relayed_hosts):
                inner, outer = bed.relay_ends(host)
                argv += ["--link", f"{host}:{inner}:{outer}"]
            if self.congestion:
                argv.append("--congestion")
            procs.append(bed.popen("fabric", argv, workdir / "relay.log"))
        return procs

    @staticmethod
    def _tc(bed, host: str, direction: str, qdisc: list[str]) -> None:
        where, dev = (host, "eth0") if direction == "egress" else ("fabric", bed.port(host))
        result = bed.run(where, ["tc", "qdisc", "add", "dev", dev, "root", *qdisc])
        if result.returncode:
            raise FaultSetupError(f"tc qdisc add dev {dev} root {' '.join(qdisc)}: "
                                  f"{result.stderr.strip()}")


def plan_faults(scenario: Scenario, *, mode: str = "auto",
                rate_mbit: float | None = None, congestion: bool = False) -> FaultSetup:
    """How ``scenario.faults`` will be injected: ``auto``, ``netem`` or ``relay``.

    ``congestion``: carry the scenario's congestion plan (a switch's queue depth over
    time) to the softswitch: the relay splices every host link and appends the
    softswitch's test trailer (time, queue depth) to each frame toward the switch, whose
    egress ECN marking then acts on it. The softswitch has no queue of its own (it
    transmits each frame as it comes), and the kernel cannot mark these frames: its
    ECN-marking qdiscs (red, codel) mark IP packets only, and ATP's ethertype is 0x0700."""
    if mode not in ("auto", "netem", "relay"):
        raise FaultSetupError(f"fault mode {mode!r}: expected auto, netem or relay")
    plan = scenario.faults
    if rate_mbit and kernel_lacks("tbf"):
        raise FaultSetupError(f"a link rate needs tbf: {kernel_lacks('tbf')}")
    if congestion:
        if mode == "netem":
            raise FaultSetupError("a congestion plan needs the relay (netem cannot add "
                                  "the softswitch's queue-depth trailer)")
        return FaultSetup("relay", plan, "userspace relay: it also carries the congestion "
                          "plan's queue depth to the softswitch",
                          relayed_hosts=frozenset(scenario.topology.hosts),
                          rate_mbit=rate_mbit, congestion=True)
    if plan.random is None and not plan.targeted:
        return FaultSetup("none", plan, "the scenario has no faults", rate_mbit=rate_mbit)
    hosts = scenario.topology.hosts
    why_not_netem = None
    if plan.targeted:
        why_not_netem = "targeted faults (the n-th frame of a kind) cannot be aimed by netem"
    elif plan.random.budget is not None:
        why_not_netem = "a fault budget cannot be expressed in netem"
    else:
        why_not_netem = kernel_lacks("netem")
    if mode == "netem" and why_not_netem:
        raise FaultSetupError(f"cannot inject this plan with netem: {why_not_netem}")
    if mode == "relay" or why_not_netem:
        reason = why_not_netem or "relay requested"
        return FaultSetup("relay", plan, f"userspace relay: {reason}",
                          relayed_hosts=frozenset(hosts), rate_mbit=rate_mbit)
    rand = plan.random
    netem = {}
    rack_of = {h: scenario.topology.racks[scenario.topology.rack_index(h)].name
               for h in hosts}
    args = netem_args(rand)
    for host in hosts:
        for direction, link in (("egress", (host, rack_of[host])),
                                ("ingress", (rack_of[host], host))):
            if rand.links is None or link in rand.links:
                netem[(host, direction)] = args
    return FaultSetup("netem", plan, "kernel netem", netem=netem, rate_mbit=rate_mbit)
