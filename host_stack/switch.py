"""The softswitches in the middle of a host-stack run: one per rack.

``python -m host_stack.switch --scenario s.json --rack tor0 --ready FILE --port 1@p1 ...``
runs in the fabric namespace: it starts ``python -m p4sim.switchd p4src/atp.p4`` with
the ports on the fabric-side veths (the rack's hosts on ports 1.., the uplinks to the
other rack switches on 100 + rack, as ``reference.topology`` numbers them), configures
it over BfRuntime gRPC with the project's control plane (``p4src.control.AtpControlPlane``
over ``BfrtFacade``, the same tables, multicast groups and L2 entries the switch target
gets, plus the reclamation probe job of section 10), touches FILE, and serves until
SIGTERM (or until the process that started it dies). gRPC listens on the fabric
namespace's own loopback, so parallel runs never share a port. The configuration comes from the scenario through
``reference.control_plane.build_switch_configs`` (one source for every target).

``--control SOCKET``: the switch also answers, on a Unix socket (reachable from any
namespace), the questions a reclamation check asks after the run (:class:`SwitchControl`):
the owned aggregators (registers read over gRPC), the port counters, and the control
plane's teardown of a job. ``--clock trailer``: frames may carry the softswitch's test
trailer (time, queue depth; ``p4sim/switchd/ports.py``) so the leak sweep can present
a parameter packet stamped past ``aggregator_timeout`` and the ECN relay a queue depth.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import sys
import threading
import time
from multiprocessing.connection import Client, Listener
from pathlib import Path

from reference.aggregator import AggregatorState
from reference.control_plane import build_switch_configs, probe_app_id
from reference.profiles import profile_named
from reference.scenario import load_scenario

from host_stack.cli import run_main

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = ROOT / "p4src" / "atp.p4"
POOL_MAX = 20000
START_TIMEOUT_S = 120.0
CONTROL_KEY = b"atp-host-stack"
TRAILER_MAGIC = b"P4SC"        # p4sim/switchd/ports.py: magic, time ns, queue depth
TRAILER_LEN = 16


def trailer(time_ns: int, queue_depth: int = 0) -> bytes:
    """The softswitch's test trailer (``--clock trailer``): the frame runs with this
    ingress time and egress queue depth (the time's low 32 bits are the P4 clock)."""
    return (TRAILER_MAGIC + (time_ns % (1 << 64)).to_bytes(8, "big")
            + queue_depth.to_bytes(4, "big"))


def switch_configs(scenario):
    """Every rack switch's configuration, with the section-10 probe job."""
    return build_switch_configs(scenario.topology, scenario.jobs,
                                pool_size=scenario.pool_size,
                                aggregator_timeout_ns=scenario.aggregator_timeout_ns,
                                ecn_threshold=scenario.ecn_threshold,
                                probe=probe_app_id(scenario.jobs))


def switch_ports(bed, scenario, rack: int) -> dict[int, str]:
    """Device port → fabric interface of rack switch ``rack``."""
    topo = scenario.topology
    ports = {topo.host_port(h): bed.port(h) for h in topo.racks[rack].hosts}
    for other in range(len(topo.racks)):
        if other != rack:
            ports[topo.uplink_port(other)] = bed.uplink(rack, other)
    return ports


def start_softswitches(bed, scenario, workdir: Path, *, clock: str = "real"):
    """Start one switch per rack in ``bed``'s fabric namespace; wait until all are
    configured. Returns [(process, control socket path)] in rack order."""
    workdir = Path(workdir)
    scenario_path = workdir / "switch-scenario.json"
    scenario_path.write_text(json.dumps(scenario.to_dict()))
    started = []
    for r, rack in enumerate(scenario.topology.racks):
        ready = workdir / f"switch-{rack.name}.ready"
        ready.unlink(missing_ok=True)
        # a short path: Unix socket names are limited to 107 bytes
        control = Path("/tmp") / f"{bed.prefix}-{rack.name}-{secrets.token_hex(2)}.sock"
        argv = [sys.executable, "-m", "host_stack.switch", "--scenario", str(scenario_path),
                "--rack", rack.name, "--ready", str(ready), "--control", str(control),
                "--clock", clock]
        for number, iface in sorted(switch_ports(bed, scenario, r).items()):
            argv += ["--port", f"{number}@{iface}"]
        log = workdir / f"switch-{rack.name}.log"
        started.append((bed.popen("fabric", argv, log), control, ready, log))
    deadline = time.monotonic() + START_TIMEOUT_S
    for proc, _, ready, log in started:
        while not ready.exists():
            if proc.poll() is not None or time.monotonic() > deadline:
                text = log.read_text(errors="replace").strip()
                raise RuntimeError(f"the softswitch did not come up ({log}): "
                                   f"{text.splitlines()[-1] if text else 'no output'}")
            time.sleep(0.05)
    return [(proc, control) for proc, control, _, _ in started]


class SwitchControl:
    """The test side of ``--control``: questions to one running switch."""

    def __init__(self, path: Path):
        self.path = Path(path)

    def _ask(self, *request):
        with Client(str(self.path), family="AF_UNIX", authkey=CONTROL_KEY) as conn:
            conn.send(request)
            ok, answer = conn.recv()
        if not ok:
            raise RuntimeError(f"softswitch control ({self.path}): {answer}")
        return answer

    def owned(self) -> dict[str, dict[int, AggregatorState]]:
        """``{"level0": {index: state}, "level1": ...}`` of every owned aggregator."""
        return self._ask("owned")

    def port_frames(self) -> dict[int, tuple[int, int]]:
        return self._ask("port_frames")

    def teardown_job(self, app_id: int) -> int:
        return self._ask("teardown", app_id)


def _serve_control(path: str, control, client, stop: threading.Event):
    listener = Listener(path, family="AF_UNIX", authkey=CONTROL_KEY)
    lock = threading.Lock()

    def owned():
        # which cells hold which aggregator is the control plane's business (the layout
        # follows the program's pool size): ask it for the owned indices, then read them
        return {f"level{level}": control.read_aggregators(indices, level) if indices else {}
                for level, indices in control.registers.owned_indices().items()}

    def answer(request):
        op, *args = request
        with lock:
            if op == "owned":
                return owned()
            if op == "port_frames":
                return client.port_frames()
            if op == "teardown":
                return control.teardown_job(int(args[0]))
        raise ValueError(f"unknown request {op!r}")

    def loop():
        while not stop.is_set():
            try:
                conn = listener.accept()
            except OSError:
                return
            with conn:
                try:
                    request = conn.recv()
                    conn.send((True, answer(request)))
                except Exception as exc:   # the asker gets the error, the switch goes on
                    try:
                        conn.send((False, f"{type(exc).__name__}: {exc}"))
                    except OSError:
                        pass

    threading.Thread(target=loop, daemon=True).start()
    return listener


def main(argv: list[str] | None = None) -> int:
    from bfruntime.client import BfRuntimeClient
    from p4sim.switchd.launch import SwitchdProcess
    from p4sim.switchd.lifecycle import watch_parent
    from p4src.control import AtpControlPlane
    from p4src.control.bfrt import BfrtFacade

    parser = argparse.ArgumentParser(prog="python -m host_stack.switch")
    parser.add_argument("--scenario", required=True)
    parser.add_argument("--rack", help="the rack whose switch this is (default: the only one)")
    parser.add_argument("--ready", required=True)
    parser.add_argument("--port", action="append", required=True, metavar="N@IFACE")
    parser.add_argument("--control", help="Unix socket answering reclamation questions")
    parser.add_argument("--clock", choices=("real", "trailer"), default="real")
    args = parser.parse_args(argv)
    scenario = load_scenario(args.scenario)
    configs = switch_configs(scenario)
    if args.rack is None and len(configs) != 1:
        raise SystemExit(f"--rack: the scenario has racks {', '.join(configs)}; name one")
    try:
        config = configs[args.rack or next(iter(configs))]
    except KeyError:
        raise SystemExit(f"--rack {args.rack}: the scenario's racks are "
                         f"{', '.join(configs)}") from None
    ports = {}
    for spec in args.port:
        number, _, iface = spec.partition("@")
        ports[int(number)] = iface
    pool_max = max(POOL_MAX, scenario.pool_size)
    extra = ["-I", str(PROGRAM.parent), "-D", f"ATP_POOL_MAX={pool_max}",
             "--clock", args.clock]
    if scenario.profile == "atp-release":
        extra += ["-D", "ATP_RELEASE"]
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    signal.signal(signal.SIGINT, lambda *a: stop.set())
    # a killed run (its pytest SIGKILLed) must not leave this wrapper, and so its daemon,
    # running: stop when the process that started us is gone
    watch_parent(os.getppid(), stop.set)
    listener = None
    with SwitchdProcess(PROGRAM, ports, p4_name="atp", extra_args=extra,
                        timeout=START_TIMEOUT_S) as switchd:
        client = BfRuntimeClient(switchd.address, p4_name="atp", timeout=30.0)
        control = AtpControlPlane(BfrtFacade(client), pool_max,
                                  profile_named(scenario.profile))
        control.configure(config)
        if args.control:
            listener = _serve_control(args.control, control, client, stop)
        Path(args.ready).touch()
        print(f"softswitch {config.name} configured at {switchd.address}: ports {ports}",
              flush=True)
        try:
            while not stop.wait(0.2):
                if switchd.proc.poll() is not None:
                    print(f"the softswitch exited with {switchd.proc.returncode}", flush=True)
                    return 1
        finally:
            if listener is not None:
                listener.close()
                Path(args.control).unlink(missing_ok=True)
            client.close()
    return 0


if __name__ == "__main__":
    run_main(main)
