"""Run a scenario on real interfaces: namespaces, fabric, faults, capture, processes.

``run_on_testbed`` is what the host-stack conformance tests, the benchmark and the CLI
(``python -m host_stack.session scenario.json``) share. The fabric is a Linux bridge
(no aggregation: every packet reaches the PS as a partial) or the softswitch running
``p4src/atp.p4`` when ``python -m p4sim.switchd`` exists. Results are judged by the
reference oracle (``reference.oracle``): the exact quantized sum of every seq.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shlex
import shutil
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from reference.oracle import Mismatch, verify_outcomes
from reference.scenario import Scenario, load_scenario

from host_stack.capture import CAPTURE_MODULE, capture_drops
from host_stack.netem import FaultSetup, plan_faults
from host_stack.netns import Testbed
from host_stack.results import (ResultError, WorkerResult, ps_entries, read_ps_result,
                                 read_worker_results)
from host_stack.roles import HOST_TIMEOUT_NS
from host_stack.stopping import stop

PYTHON = sys.executable
ROOT = Path(__file__).resolve().parents[1]
EXTERNAL_PS_START_S = 3.0


class SessionError(RuntimeError):
    """A host-stack run that could not be carried out (processes failed to start...)."""


@dataclass
class HostStackCommand:
    """Command templates for an external host stack; ours by default.

    Fields filled in: ``{scenario}`` (scenario JSON, reference.scenario format),
    ``{host}`` (this process's host name in it), ``{iface}`` (always eth0 in the host's
    namespace), ``{out}`` (where to write the result JSON, format in
    host_stack/results.py), ``{ready}`` (a file to touch once listening; a PS template
    without it gets a fixed start-up delay), ``{timeout_us}``, ``{budget_s}``,
    ``{python}`` (the interpreter running the suite, for Python host stacks). A worker
    exits 0 when all its tensors completed; a PS serves until SIGTERM."""

    worker: str = (f"{shlex.quote(PYTHON)} -m host_stack.worker --scenario {{scenario}} "
                   f"--host {{host}} --iface {{iface}} --out {{out}} --ready {{ready}} "
                   f"--timeout-us {{timeout_us}} --budget-s {{budget_s}}")
    ps: str = (f"{shlex.quote(PYTHON)} -m host_stack.ps --scenario {{scenario}} "
               f"--host {{host}} --iface {{iface}} --out {{out}} --ready {{ready}} "
               f"--budget-s {{budget_s}}")
    name: str = "host_stack (ours)"

    @classmethod
    def from_testbed(cls, templates: dict[str, str], name: str) -> "HostStackCommand":
        return cls(worker=templates["worker"], ps=templates["ps"], name=name)

    def argv(self, template: str, **fields) -> list[str]:
        try:
            return shlex.split(template.format(**fields))
        except (KeyError, IndexError) as exc:
            raise SessionError(f"host stack command template {template!r} names an "
                               f"unknown field {exc}; known: {', '.join(fields)}") from None


@dataclass
class HostRun:
    scenario: Scenario
    fabric: str                              # "bridge" or "softswitch"
    faults: FaultSetup
    workdir: Path
    elapsed_s: float
    worker_results: dict[tuple[int, int], WorkerResult] = field(default_factory=dict)
    worker_status: dict[str, int] = field(default_factory=dict)
    ps_results: dict[str, dict] = field(default_factory=dict)
    pcaps: dict[str, Path] = field(default_factory=dict)   # host -> its switch port's pcap
    # host -> the pcap of the interface facing the host itself: what it sent and what
    # reached it (its switch port, or the host side of its fault relay)
    host_pcaps: dict[str, Path] = field(default_factory=dict)
    # capture file stem (an interface) -> frames the capture missed; None: not known
    capture_drops: dict[str, int] | None = None
    timeout_us: int = 0                      # the workers' resend timer, after traffic
    errors: list[str] = field(default_factory=list)
    probe: dict = field(default_factory=dict)
    after: object = None                     # what ``after_workers`` returned

    @property
    def completed(self) -> bool:
        return (not self.errors and all(c == 0 for c in self.worker_status.values())
                and all(r.completed for r in self.worker_results.values()))

    def mismatches(self) -> list[Mismatch]:
        """Every worker's every seq against the exact sum (spec 10, exactly-once)."""
        def outcomes_of(app_id: int, worker: int, key: int):
            result = self.worker_results.get((app_id, worker))
            return None if result is None else result.outcomes.get(key)
        return verify_outcomes(self.scenario, outcomes_of)

    def unparsed(self) -> dict[str, int | None]:
        """Per worker, and per PS of a host that wrote a result (an external stack's PS
        need not), the ATP frames it received and could not parse (counters
        ``malformed``, host_stack/results.py); None where the result does not say, or
        has no entry for a job whose PS the host runs."""
        found = {f"app {a} worker {w}": r.counters.get("malformed")
                 for (a, w), r in sorted(self.worker_results.items())}
        for host, data in sorted(self.ps_results.items()):
            found.update({f"app {job.app_id} PS on {host}": None
                          for job in self.scenario.jobs if host in job.pses})
            for entry in ps_entries(data):
                found[f"app {entry['app_id']} PS on {host}"] = \
                    entry["counters"].get("malformed")
        return found

    def ps_held_seqs(self) -> dict[str, tuple[int, int]]:
        """Per PS that says (``held_seqs``, host_stack/results.py): the (key, seq) it
        held state for when it stopped, and its job's window S."""
        window = {job.app_id: job.window for job in self.scenario.jobs}
        found = {}
        for host, data in sorted(self.ps_results.items()):
            for entry in ps_entries(data):
                if isinstance(entry.get("held_seqs"), int) and entry["app_id"] in window:
                    label = f"app {entry['app_id']} PS {entry.get('ps_index', '?')} on {host}"
                    found[label] = (entry["held_seqs"], window[entry["app_id"]])
        return found

    def counter(self, name: str) -> int:
        return sum(r.counters.get(name, 0) for r in self.worker_results.values())

    def summary(self) -> str:
        packets = sum(t.packets * j.fan_in for j in self.scenario.jobs for t in j.tensors)
        lines = [f"host-stack run of {self.scenario.name or 'scenario'} over the "
                 f"{self.fabric}: {len(self.worker_results)} worker(s), {packets} "
                 f"gradient packets, {self.elapsed_s:.2f} s, faults: {self.faults.describe()}"]
        for name in ("resends", "hole_resends", "timeout_resends", "float_packets",
                     "float_requests", "remaps", "window_halved"):
            lines.append(f"  worker {name}: {self.counter(name)}")
        if self.scenario.sets_queue_depths and self.fabric != "softswitch":
            lines.append("  congestion not applied: a Linux bridge has no queue "
                         "depth and marks no ECN")
        lines += [f"  error: {e}" for e in self.errors]
        return "\n".join(lines)


def softswitch_available() -> str | None:
    """None when the softswitch can sit in the middle here, else what is missing: the
    daemon (``python -m p4sim.switchd``), the program ``p4src/atp.p4`` and its control
    plane (``p4src.control``), and this package's driver for them."""
    for module, what in (("p4sim.switchd.__main__", "the softswitch daemon "
                          "(python -m p4sim.switchd, issue 10)"),
                         ("p4src.control", "the ATP control plane (p4src/control, issue 9)"),
                         ("host_stack.switch", "the host stack's softswitch driver")):
        try:
            found = importlib.util.find_spec(module) is not None
        except ImportError:
            found = False
        if not found:
            return f"{what} is not in this tree"
    if not (ROOT / "p4src" / "atp.p4").exists():
        return "p4src/atp.p4 (issue 9) is not in this tree"
    return None


# How a PS may end once stopped: 0, having handled SIGTERM (ours, after writing its
# result), or of the signal itself (a PS that does not handle it; 128 + 15 via a shell).
# Anything else is a PS that failed on its way out (its result may be missing).
PS_STOPPED_STATUSES = (0, -signal.SIGTERM, 128 + signal.SIGTERM)


def run_on_testbed(scenario: Scenario, workdir: Path, *, fabric: str = "bridge",
                   capture: bool = True, budget_s: float = 20.0,
                   timeout_us: int | None = None,
                   command: HostStackCommand | None = None,
                   fault_mode: str = "auto", progress=None,
                   probe: Callable[[Testbed, Path], dict] | None = None,
                   after_workers: Callable | None = None,
                   switch_clock: str = "real") -> HostRun:
    """Run ``scenario`` with one process per host role; always cleans up.

    ``probe(testbed, workdir)`` runs once the fabric is up, before any host starts (the
    benchmark measures raw AF_PACKET rates on the same veths with it); its result is
    ``run.probe``. ``after_workers(live_run)`` runs (softswitch only) once the workers
    exited and the PSes stopped, while the switches still run: ``live_run`` is a
    :class:`host_stack.reclaim.LiveRun` over them; its result is ``run.after``.
    ``switch_clock="trailer"`` lets frames carry the softswitch's test trailer.
    A multi-rack scenario gets one softswitch per rack, cabled as the topology says
    (the bridge fabric joins every host on one bridge)."""
    if fabric not in ("bridge", "softswitch"):
        raise SessionError(f"fabric {fabric!r}: expected 'bridge' or 'softswitch'")
    if after_workers is not None and fabric != "softswitch":
        raise SessionError("after_workers reads switch registers: it needs the softswitch")
    if fabric == "softswitch":
        from host_stack.switch import start_softswitches  # only when asked for
    command = command or HostStackCommand()
    if timeout_us is None:  # a software switch adds a P4 interpreter to the round trip
        timeout_us = HOST_TIMEOUT_NS // 1000 * (4 if fabric == "softswitch" else 1)
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    # a previous run's files in the same directory must not pass for this run's: its
    # ready files would let the workers start before the capture and the PSes listen
    shutil.rmtree(workdir / "pcap", ignore_errors=True)
    for stale in workdir.glob("*.ready"):
        stale.unlink()
    for stale in [*workdir.glob("*.json"), *workdir.glob("*.wready")]:
        stale.unlink()
    scenario_path = workdir / "scenario.json"
    scenario_path.write_text(json.dumps(scenario.to_dict(), indent=1))
    topo = scenario.topology
    hosts = {h: topo.host_mac(h) for h in topo.hosts}
    congestion = scenario.sets_queue_depths and fabric == "softswitch"
    faults = plan_faults(scenario, mode=fault_mode, congestion=congestion)
    if congestion:
        switch_clock = "trailer"
    workers = [(h, j) for j in scenario.jobs for h in j.workers]
    pses = [(h, j) for j in scenario.jobs for h in j.pses]
    run = HostRun(scenario, fabric, faults, workdir, 0.0, timeout_us=timeout_us)
    racks = len(topo.racks) if fabric == "softswitch" else 1
    with Testbed(hosts, bridge=(fabric == "bridge"), relayed=faults.relayed_hosts,
                 racks=racks) as bed:
        port_pcaps = {h: workdir / "pcap" / f"{bed.port(h)}.pcap" for h in hosts}
        # a relayed host's own view is the relay's host side: faults act behind it
        host_side = {h: bed.relay_ends(h)[0] if h in faults.relayed_hosts else bed.port(h)
                     for h in hosts}
        helpers = []
        switches = []
        if fabric == "softswitch":
            switches = start_softswitches(bed, scenario, workdir, clock=switch_clock)
            helpers += [proc for proc, _ in switches]
        helpers += faults.start(bed, workdir)
        if probe is not None:
            run.probe = probe(bed, workdir)
        if capture:
            argv = [PYTHON, "-m", CAPTURE_MODULE, "--dir", str(workdir / "pcap")]
            for iface in dict.fromkeys([*map(bed.port, hosts), *host_side.values()]):
                argv += ["--iface", iface]
            helpers.append(bed.popen("fabric", argv, workdir / "capture.log"))
        fields = dict(scenario=str(scenario_path), iface="eth0", timeout_us=timeout_us,
                      budget_s=budget_s, python=shlex.quote(PYTHON))
        ps_procs = {}
        for host in dict.fromkeys(h for h, _ in pses):
            argv = command.argv(command.ps, host=host, out=str(workdir / f"{host}.ps.json"),
                                ready=str(workdir / f"{host}.ready"), **fields)
            ps_procs[host] = bed.popen(host, argv, workdir / f"{host}.ps.log")
        if "{ready}" in command.ps:
            _wait_ready(run, [workdir / f"{h}.ready" for h in ps_procs], ps_procs, budget_s)
        else:  # an external PS that cannot say when it listens: give it time to start
            time.sleep(EXTERNAL_PS_START_S)
        if capture:
            _wait_capture(run, workdir / "pcap")
        started = time.monotonic()
        worker_procs = {}
        for host in dict.fromkeys(h for h, _ in workers):
            argv = command.argv(command.worker, host=host,
                                out=str(workdir / f"{host}.worker.json"),
                                ready=str(workdir / f"{host}.wready"), **fields)
            worker_procs[host] = bed.popen(host, argv, workdir / f"{host}.worker.log")
        _wait_workers(run, worker_procs, ps_procs, budget_s + 10, progress)
        run.elapsed_s = time.monotonic() - started
        time.sleep(0.05)  # let late frames reach the capture
        killed = stop(ps_procs.values())
        run.errors += [f"PS {host} did not stop on SIGTERM"
                       for host, proc in ps_procs.items() if proc in killed]
        run.errors += [f"PS {host} exited with status {proc.returncode} when stopped (see "
                       f"{workdir / (host + '.ps.log')})" for host, proc in ps_procs.items()
                       if proc not in killed and proc.returncode not in PS_STOPPED_STATUSES]
        if after_workers is not None:
            live = _live_run(bed, scenario, switches, run)
            try:
                run.after = after_workers(live)
            finally:
                live.close()
        stop(helpers)
    for host in dict.fromkeys(h for h, _ in workers):
        try:
            results = read_worker_results(workdir / f"{host}.worker.json")
        except ResultError as exc:
            run.errors.append(str(exc))
            continue
        for result in results:
            run.worker_results[(result.app_id, result.worker)] = result
    for host in dict.fromkeys(h for h, _ in pses):
        path = workdir / f"{host}.ps.json"
        if path.exists():
            try:
                run.ps_results[host] = read_ps_result(path)
            except ResultError as exc:
                run.errors.append(str(exc))
    if capture:
        run.pcaps = {h: p for h, p in port_pcaps.items() if p.exists()}
        sides = {h: workdir / "pcap" / f"{i}.pcap" for h, i in host_side.items()}
        run.host_pcaps = {h: p for h, p in sides.items() if p.exists()}
        run.capture_drops = capture_drops(workdir / "pcap")
    return run


def _wait_workers(run: HostRun, workers: dict, pses: dict, limit_s: float,
                  progress) -> None:
    """Wait for every worker to exit, within ``limit_s``; stop waiting at the first sign
    that the run cannot complete: a worker exiting non-zero (its job's PS waits for its
    packets) or a PS exiting while workers run (a PS serves until SIGTERM). The workers
    left are stopped then, not after the budget: a crashed host costs seconds."""
    deadline = time.monotonic() + limit_s
    left = dict(workers)
    why = None
    while left and why is None and time.monotonic() < deadline:
        for host, proc in list(left.items()):
            status = proc.poll()
            if status is None:
                continue
            run.worker_status[host] = status
            del left[host]
            if progress:
                progress(host)
            if status != 0:
                why = f"worker {host} exited with status {status}"
        for host, proc in pses.items():
            if left and why is None and proc.poll() is not None:
                why = f"PS {host} exited with status {proc.returncode} while workers ran"
        time.sleep(0.005)
    if why:
        run.errors.append(f"{why} (see its log); the other workers were stopped")
    stop(left.values())
    for host in left:
        run.worker_status[host] = -9
        if why is None:
            run.errors.append(f"worker {host} did not exit within the budget")
        if progress:
            progress(host)


def _live_run(bed: Testbed, scenario: Scenario, switches, run: HostRun):
    from host_stack.reclaim import LiveRun, LiveSwitch
    from host_stack.switch import SwitchControl, switch_configs
    from reference.control_plane import probe_app_id
    topo = scenario.topology
    configs = switch_configs(scenario)
    live = {}
    for r, ((_, control), rack) in enumerate(zip(switches, topo.racks)):
        by_port = {topo.host_port(h): h for h in rack.hosts}

        def open_link(port: int, by_port=by_port, rack=rack):
            if port not in by_port:
                raise SessionError(f"switch {rack.name}: port {port} has no host to send "
                                   f"from (hosts on {sorted(by_port)})")
            return bed.link_into_port(by_port[port])
        live[rack.name] = LiveSwitch(rack.name, configs[rack.name], SwitchControl(control),
                                     open_link, scenario.aggregator_timeout_ns)
    return LiveRun(scenario, live, probe_app_id(scenario.jobs), run.summary(),
                   end_ns=time.time_ns())


def _wait_ready(run: HostRun, files: list[Path], procs: dict, budget_s: float) -> None:
    deadline = time.monotonic() + min(budget_s, 30)
    while not all(f.exists() for f in files):
        for host, proc in procs.items():
            if proc.poll() is not None:
                raise SessionError(f"PS on {host} exited with {proc.returncode} before it "
                                   f"was ready; see {run.workdir / (host + '.ps.log')}")
        if time.monotonic() > deadline:
            raise SessionError("PS processes did not open their sockets in time")
        time.sleep(0.01)


def _wait_capture(run: HostRun, pcap_dir: Path) -> None:
    deadline = time.monotonic() + 15
    while not (pcap_dir / "ready").exists():
        if time.monotonic() > deadline:
            raise SessionError(f"the capture did not start; see {run.workdir}/capture.log")
        time.sleep(0.01)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m host_stack.session",
                                     description="Run a scenario on namespaces and veths "
                                     "and check every seq against the exact sum.")
    parser.add_argument("scenario")
    parser.add_argument("--workdir", default="reports/artifacts/host_stack/session")
    parser.add_argument("--fabric", choices=("auto", "bridge", "softswitch"), default="auto")
    parser.add_argument("--faults", choices=("auto", "netem", "relay"), default="auto",
                        help="how the scenario's fault plan is applied (default: netem "
                        "when the kernel has it and the plan fits, else the relay)")
    parser.add_argument("--budget-s", type=float, default=30.0)
    args = parser.parse_args(argv)
    fabric = args.fabric
    if fabric == "auto":
        fabric = "bridge" if softswitch_available() else "softswitch"
    run = run_on_testbed(load_scenario(args.scenario), Path(args.workdir), fabric=fabric,
                         budget_s=args.budget_s, fault_mode=args.faults)
    print(run.summary())
    bad = run.mismatches()
    for m in bad[:10]:
        print(f"  MISMATCH {m}")
    verdict = "exactly-once verified" if run.completed and not bad else "FAILED"
    print(f"{verdict}: {len(bad)} mismatching seq(s); artifacts in {args.workdir}")
    return 0 if run.completed and not bad else 1


if __name__ == "__main__":
    from host_stack.cli import run_main
    run_main(main)
