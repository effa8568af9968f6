"""``python -m host_stack.ps``: the parameter server(s) of a host, serving until SIGTERM
(or the budget), then writing counters.

    python -m host_stack.ps --scenario s.json --host p1 --iface eth0 --out p1.json

Without ``--scenario`` it reads the DMLC_* variables like the launcher (see
host_stack.launcher). The protocol rules run in ``reference.ps.ParameterServer``.
"""

from __future__ import annotations

import argparse
import sys

from reference.ps import IndexRegistry, ParameterServer
from reference.profiles import profile_named

from host_stack.cli import add_common, load_scenario, on_stop_signals, run_main, touch
from host_stack.link import PacketLink
from host_stack.results import ps_result, write_json_atomically
from host_stack.roles import Multiplex, roles_from_scenario, single_job
from host_stack.shell import HostLoop


def _from_launcher(link: PacketLink) -> tuple[str, list[ParameterServer]]:
    from host_stack.launcher import LaunchConfig
    config = LaunchConfig.from_env()
    job, layout = single_job(config.app_id, config.num_workers, config.num_servers,
                             config.window, scale=config.scale,
                             congestion_control=config.congestion_control)
    registry = IndexRegistry(config.pool_size)
    ps = ParameterServer(job, config.server_id, layout, link.mac,
                         profile_named(config.profile), registry)
    return f"server{config.server_id}", [ps]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m host_stack.ps",
                                     description=__doc__.split("\n\n")[0])
    add_common(parser)
    args = parser.parse_args(argv)
    with PacketLink(args.iface) as link:
        if args.scenario:
            if not args.host:
                parser.error("--scenario needs --host")
            scenario = load_scenario(args.scenario)
            host = args.host
            pses = [r.app for r in roles_from_scenario(scenario, host) if r.kind == "ps"]
            if not pses:
                print(f"error: host {host!r} runs no PS in the scenario", file=sys.stderr)
                return 2
        else:
            host, pses = _from_launcher(link)
        loop = HostLoop(link, Multiplex(pses))
        on_stop_signals(loop.stop)
        touch(args.ready)
        loop.run(budget_s=args.budget_s)
    if args.out:
        results = [ps_result(ps, host) for ps in pses]
        for r in results:
            r["counters"]["link_sent"] = link.sent
            r["counters"]["link_received"] = link.received
        write_json_atomically(args.out, results[0] if len(results) == 1
                              else {"jobs": results})
    return 0




if __name__ == "__main__":
    run_main(main)
