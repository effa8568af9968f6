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
from reference.scenario import load_scenario

from host_stack.cli import add_common, on_stop_signals, run_main, touch
from host_stack.link import PacketLink
from host_stack.results import ps_result, write_json_atomically
from host_stack.roles import HOST_T_STALE_NS, Multiplex, roles_from_scenario, single_job
from host_stack.shell import HostLoop


def _from_launcher(link: PacketLink, t_stale_ns: int) -> tuple[str, list[ParameterServer]]:
    from host_stack.launcher import LaunchConfig
    config = LaunchConfig.from_env()
    job, layout = single_job(config.app_id, config.num_workers, config.num_servers,
                             config.window, scale=config.scale,
                             congestion_control=config.congestion_control)
    registry = IndexRegistry(config.pool_size)
    ps = ParameterServer(job, config.server_id, layout, link.mac,
                         profile_named(config.profile), registry, t_stale_ns)
    return f"server{config.server_id}", [ps]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m host_stack.ps",
                                     description=__doc__.split("\n\n")[0])
    add_common(parser)
    parser.add_argument("--t-stale-ms", type=float, default=HOST_T_STALE_NS / 1e6,
                        help="T_stale (spec section 6, rev. 4): forget a job after this "
                             "many ms without a fresh packet of it; must exceed the "
                             "longest gap between a worker's resends (default "
                             f"{HOST_T_STALE_NS / 1e6:g}, our workers back off up to 1 s)")
    args = parser.parse_args(argv)
    if args.t_stale_ms <= 0:
        parser.error(f"--t-stale-ms must be positive, got {args.t_stale_ms:g}")
    t_stale_ns = int(args.t_stale_ms * 1e6)
    with PacketLink(args.iface) as link:
        if args.scenario:
            if not args.host:
                parser.error("--scenario needs --host")
            scenario = load_scenario(args.scenario)
            host = args.host
            pses = [r.app for r in roles_from_scenario(scenario, host, t_stale_ns=t_stale_ns)
                    if r.kind == "ps"]
            if not pses:
                print(f"error: host {host!r} runs no PS in the scenario", file=sys.stderr)
                return 2
        else:
            host, pses = _from_launcher(link, t_stale_ns)
        loop = HostLoop(link, Multiplex(pses))
        on_stop_signals(loop.stop)
        touch(args.ready)
        loop.run(budget_s=args.budget_s)
    if args.out:
        results = [ps_result(ps, host) for ps in pses]
        for r in results:
            r["counters"].update(link_sent=link.sent, link_received=link.received,
                                 malformed=loop.malformed)
        write_json_atomically(args.out, results[0] if len(results) == 1
                              else {"jobs": results})
    return 0




if __name__ == "__main__":
    run_main(main)
