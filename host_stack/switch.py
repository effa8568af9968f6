"""The softswitch in the middle of a host-stack run.

``python -m host_stack.switch --scenario s.json --ready FILE --port 1@p1 --port 2@p2``
runs in the fabric namespace: it starts ``python -m p4sim.switchd p4src/atp.p4`` with
the ports on the fabric-side veths (real clock), configures it over BfRuntime gRPC with
the project's control plane (``p4src.control.AtpControlPlane`` over ``BfrtFacade``,
the same tables, multicast groups and L2 entries the switch target gets), touches
FILE, and serves until SIGTERM. gRPC listens on the fabric namespace's own loopback, so
parallel runs never share a port. The switch configuration comes from the scenario
through ``reference.control_plane.build_switch_configs`` (one source for every target).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
from pathlib import Path

from reference.control_plane import build_switch_configs

from host_stack.cli import load_scenario, run_main

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = ROOT / "p4src" / "atp.p4"
POOL_MAX = 20000
START_TIMEOUT_S = 120.0


def start_softswitch(bed, scenario, workdir: Path):
    """Start this module in ``bed``'s fabric namespace; wait until it is configured."""
    ready = Path(workdir) / "switch.ready"
    ready.unlink(missing_ok=True)
    scenario_path = Path(workdir) / "switch-scenario.json"
    scenario_path.write_text(json.dumps(scenario.to_dict()))
    argv = [sys.executable, "-m", "host_stack.switch", "--scenario", str(scenario_path),
            "--ready", str(ready)]
    for host in bed.hosts:
        argv += ["--port", f"{bed.port_of[host]}@{bed.port(host)}"]
    proc = bed.popen("fabric", argv, Path(workdir) / "switch.log")
    deadline = time.monotonic() + START_TIMEOUT_S
    while not ready.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            log = (Path(workdir) / "switch.log").read_text(errors="replace").strip()
            raise RuntimeError(f"the softswitch did not come up: "
                               f"{log.splitlines()[-1] if log else 'no output'}")
        time.sleep(0.05)
    return proc


def main(argv: list[str] | None = None) -> int:
    from bfruntime.client import BfRuntimeClient
    from p4sim.switchd.launch import SwitchdProcess
    from p4src.control import AtpControlPlane
    from p4src.control.bfrt import BfrtFacade

    parser = argparse.ArgumentParser(prog="python -m host_stack.switch")
    parser.add_argument("--scenario", required=True)
    parser.add_argument("--ready", required=True)
    parser.add_argument("--port", action="append", required=True, metavar="N@IFACE")
    args = parser.parse_args(argv)
    scenario = load_scenario(args.scenario)
    configs = build_switch_configs(scenario.topology, scenario.jobs,
                                   pool_size=scenario.pool_size,
                                   aggregator_timeout_ns=scenario.aggregator_timeout_ns,
                                   ecn_threshold=scenario.ecn_threshold)
    (config,) = configs.values()
    ports = {}
    for spec in args.port:
        number, _, iface = spec.partition("@")
        ports[int(number)] = iface
    pool_max = max(POOL_MAX, scenario.pool_size)
    extra = ["-I", str(PROGRAM.parent), "-D", f"ATP_POOL_MAX={pool_max}"]
    if scenario.profile == "atp-release":
        extra += ["-D", "ATP_RELEASE"]
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    signal.signal(signal.SIGINT, lambda *a: stop.set())
    with SwitchdProcess(PROGRAM, ports, p4_name="atp", extra_args=extra,
                        timeout=START_TIMEOUT_S) as switchd:
        client = BfRuntimeClient(switchd.address, p4_name="atp", timeout=30.0)
        AtpControlPlane(BfrtFacade(client), pool_max).configure(config)
        Path(args.ready).touch()
        print(f"softswitch configured at {switchd.address}: ports {ports}", flush=True)
        while not stop.wait(0.2):
            if switchd.proc.poll() is not None:
                print(f"the softswitch exited with {switchd.proc.returncode}", flush=True)
                return 1
        client.close()
    return 0


if __name__ == "__main__":
    run_main(main)
