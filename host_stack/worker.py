"""``python -m host_stack.worker``: one worker (or several, if the scenario gives the host
several jobs) that sends its scenario tensors and writes what it received.

    python -m host_stack.worker --scenario s.json --host h1 --iface eth0 --out h1.json

Exit status 0 when every tensor completed, 1 when the budget ran out first, 2 on a user
error. The protocol rules run in ``reference.worker.Worker``; see host_stack.shell.
"""

from __future__ import annotations

import argparse
import sys
import time

from reference.scenario import load_scenario

from host_stack.cli import add_common, on_stop_signals, run_main, touch
from host_stack.link import PacketLink
from host_stack.results import worker_result, write_json_atomically
from host_stack.roles import HOST_TIMEOUT_NS, Multiplex, roles_from_scenario
from host_stack.shell import HostLoop


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m host_stack.worker",
                                     description=__doc__.split("\n\n")[0])
    add_common(parser)
    parser.add_argument("--timeout-us", type=int, default=HOST_TIMEOUT_NS // 1000,
                        help="resend timeout after traffic started, µs (spec 7; the "
                        "spec's 200 µs is below a Python round trip; default %(default)s)")
    args = parser.parse_args(argv)
    if not args.scenario or not args.host:
        parser.error("--scenario and --host are required (for the DMLC_* launcher, use "
                     "python -m host_stack.launcher)")
    scenario = load_scenario(args.scenario)
    roles = [r for r in roles_from_scenario(scenario, args.host,
                                            timeout_ns=args.timeout_us * 1000)
             if r.kind == "worker"]
    if not roles:
        print(f"error: host {args.host!r} runs no worker in the scenario", file=sys.stderr)
        return 2
    workers = [r.app for r in roles]
    with PacketLink(args.iface) as link:
        app = Multiplex(workers)
        loop = HostLoop(link, app)
        on_stop_signals(loop.stop)
        touch(args.ready)
        started = time.monotonic()
        now = time.monotonic_ns()
        for worker in workers:
            loop.send(worker.start(now))
        done = loop.run(until=lambda: all(w.finished for w in workers),
                        budget_s=args.budget_s)
        elapsed = time.monotonic() - started
    if args.out:
        results = [worker_result(w, args.host, elapsed) for w in workers]
        for r in results:
            r["counters"].update(link_sent=link.sent, link_received=link.received,
                                 malformed=loop.malformed)
        write_json_atomically(args.out, results[0] if len(results) == 1
                              else {"jobs": results})
    return 0 if done else 1


if __name__ == "__main__":
    run_main(main)
