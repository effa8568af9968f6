"""Where one example's time goes on the real-packet targets, next to p4sim, in one run.

    python benchmarks/real_packets_profile.py                     # 12 examples, 3 targets
    python benchmarks/real_packets_profile.py --examples 30 --target softswitch
    python benchmarks/real_packets_profile.py --before main       # the same on main, side by side

An example here is what the ``run_on`` fixture does for one generated scenario of
``test_results_are_exact_sums`` (``profile_scenarios("spec")``, drawn derandomized, so
every run and every checkout gets the same scenarios): each rack switch a switch of the
target, reset and configured, in lockstep with a reference switch, the leak-boundary
probes, the lockstep verdict and the host rules. Targets, each in its own process:

- ``p4sim``: atp.p4 in process (the CI gate's target);
- ``softswitch``: atp.p4 in the switch daemon, the session's pool of daemons;
- ``tofino-model``: the same driver a Tofino runs, over
  ``fixtures/testbeds/softswitch-as-model.yaml`` (a softswitch per testbed switch).

All on atp.p4's Tofino build (``--p4-build=tofino``), as CI runs them. A warm-up run of
the scenario with the most rack switches starts every switch the examples take, so the
per-example figures are the steady state; the warm-up is printed on its own.

The driver's wall time per example is split by what it was doing (exclusive time: a
category nested in another counts for itself only): switch start and connection
(pool), reset, configuration, port counters, register reads, frame I/O (send, sniff,
attribute; tagging on its own line), the reference shadows of the lockstep, the host
rules, and the rest (hosts, simulated network, comparator: Python per frame). The
daemon's own side (``p4sim/switchd/work_clock.py``: seconds in the pipe, in Reads, in
Writes) is read from its status line; it overlaps the driver's waits.

``--before REV`` runs the same examples on a git revision of this repository (exported
to a temporary folder) in the same run, and prints both breakdowns side by side with
their ratio. Needs root for the real-packet targets. Prints; asserts nothing.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# this folder's p4sim.py and softswitch.py must not shadow the packages of that name
if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)
AS_MODEL = "fixtures/testbeds/softswitch-as-model.yaml"
TARGETS = ("p4sim", "softswitch", "tofino-model")
CATEGORIES = ("pool: switch start, connect", "reset", "configuration", "port counters",
              "register reads", "frame I/O", "tagging", "p4sim pipe (in process)",
              "reference shadows", "host rules",
              "Python per frame (hosts, network, lockstep)")
REST = CATEGORIES[-1]


class ExclusiveClock:
    """Wall time per category, exclusive: entering a category pauses the enclosing one."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = defaultdict(float)
        self._stack: list[list] = []

    def _enter(self, category: str) -> None:
        now = time.perf_counter()
        if self._stack:
            outer = self._stack[-1]
            self.totals[outer[0]] += now - outer[1]
        self._stack.append([category, now])

    def _leave(self) -> None:
        now = time.perf_counter()
        category, start = self._stack.pop()
        self.totals[category] += now - start
        if self._stack:
            self._stack[-1][1] = now

    def wrap(self, owner, name: str, category: str) -> None:
        """Time ``owner.name`` (a function of a class or module) under ``category``; a
        name this checkout lacks is left alone."""
        fn = owner.__dict__.get(name) if isinstance(owner, type) else getattr(owner, name, None)
        if fn is None or isinstance(fn, (staticmethod, classmethod)):
            return

        @functools.wraps(fn)
        def timed(*args, **kwargs):
            self._enter(category)
            try:
                return fn(*args, **kwargs)
            finally:
                self._leave()
        setattr(owner, name, timed)

    def take(self) -> dict[str, float]:
        out, self.totals = dict(self.totals), defaultdict(float)
        return out


def instrument(clock: ExclusiveClock) -> None:
    """Wrap what the breakdown names, in whichever checkout is imported."""
    import importlib

    def module(name):
        try:
            return importlib.import_module(name)
        except ImportError:
            return None

    targets = {name: module(name) for name in (
        "atp_fixtures.targets.bfrt_ptf", "atp_fixtures.targets.softswitch",
        "atp_fixtures.targets.tofino_model", "atp_fixtures.targets.p4sim",
        "atp_fixtures.targets.session", "atp_fixtures.running.closed_loop",
        "bfruntime.client", "p4src.control.switch", "p4sim.switchd.tagging",
        "reference.switch", "atp_fixtures.oracles.host_rules", "p4sim.switch")}
    bfrt = targets["atp_fixtures.targets.bfrt_ptf"].BfrtPtfTarget
    pool = "pool: switch start, connect"
    for cls in (targets["atp_fixtures.targets.softswitch"].SoftswitchTarget,
                targets["atp_fixtures.targets.tofino_model"].TofinoModelTarget):
        clock.wrap(cls, "endpoint_for", pool)
    clock.wrap(bfrt, "_connect", pool)
    clock.wrap(bfrt, "setup", "configuration")
    clock.wrap(targets["atp_fixtures.targets.session"].SessionState, "open_another", pool)
    clock.wrap(targets["bfruntime.client"].BfRuntimeClient, "reset", "reset")
    p4sim_target = targets["atp_fixtures.targets.p4sim"].P4simTarget
    clock.wrap(p4sim_target, "reset", "reset")
    for name in ("clear", "clear_touched"):
        clock.wrap(targets["p4src.control.switch"].AtpControlPlane, name, "reset")
    for name in ("configure", "reconfigure"):
        clock.wrap(targets["p4src.control.switch"].AtpControlPlane, name, "configuration")
    for name in ("_baseline", "_sync"):
        clock.wrap(bfrt, name, "port counters")
    for cls in (bfrt, p4sim_target):
        for name in ("read_aggregators", "read_aggregator_levels"):
            clock.wrap(cls, name, "register reads")
    clock.wrap(bfrt, "inject_attributed", "frame I/O")
    clock.wrap(bfrt, "read_cells_tagged", "register reads")
    clock.wrap(bfrt, "collect", "frame I/O")
    for name in ("sequenced", "read_answer"):
        clock.wrap(targets["p4sim.switchd.tagging"], name, "tagging")
    clock.wrap(targets["p4sim.switch"].Switch, "inject", "p4sim pipe (in process)")
    clock.wrap(targets["reference.switch"].SwitchModel, "process", "reference shadows")
    clock.wrap(targets["atp_fixtures.oracles.host_rules"], "check_host_rules", "host rules")
    # the closed loop imports check_host_rules by name in the plugin; we call the module's


def draw_scenarios(count: int, max_switches: int):
    """The first ``count`` scenarios hypothesis draws for the spec profile, derandomized
    (the same in every run and checkout), with at most ``max_switches`` rack switches."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
    from atp_fixtures.generation.shaping import profile_scenarios
    drawn = []

    @settings(max_examples=count * 3, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def collect(data):
        scenario = data.draw(profile_scenarios("spec"))
        if len(drawn) < count and len(scenario.topology.switch_names) <= max_switches:
            drawn.append(scenario)
    collect()
    return drawn


def daemon_cpu(state) -> float:
    """CPU seconds the session's daemons used so far (user + system, all threads)."""
    total = 0.0
    for sd in _daemons(state):
        try:
            fields = Path(f"/proc/{sd.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _daemons(state) -> list:
    """The SwitchdProcess of every softswitch the session started (none on p4sim)."""
    found = []
    drivers = [state._driver] + (list(state._pool._drivers[1:]) if state._pool else [])
    for driver in drivers:
        launcher = getattr(driver, "_launcher", None)
        if launcher is not None and launcher.switchd is not None:
            found.append(launcher.switchd)
    return found


def daemon_work(state) -> dict[str, tuple[int, float]] | None:
    """The daemons' work counters summed over the session's switches (None if the
    daemons of this checkout keep none)."""
    from contextlib import suppress
    launchers = _daemons(state)
    if not launchers:
        return None
    try:
        from p4sim.switchd.work_clock import parse_work
    except ImportError:
        return None
    total: dict[str, list] = defaultdict(lambda: [0, 0.0])
    for sd in launchers:
        before = len(sd._stderr)
        with suppress(ProcessLookupError):
            os.kill(sd.proc.pid, signal.SIGUSR1)
        deadline = time.monotonic() + 5
        work = None
        while time.monotonic() < deadline and work is None:
            lines = list(sd._stderr)[before:]
            work = next((parse_work(line) for line in reversed(lines)
                         if "work:" in line), None)
            time.sleep(0.02)
        if work is None:
            return None
        for kind, (n, s) in work.items():
            total[kind][0] += n
            total[kind][1] += s
    return {k: (n, s) for k, (n, s) in total.items()}


def child(target: str, count: int) -> dict:
    """Run the examples on one target in this process; the breakdown as JSON."""
    from atp_fixtures.targets.base import Kind
    from atp_fixtures.targets.registry import kind
    from atp_fixtures.targets.session import SessionState
    from atp_fixtures.targets.testbed import load_testbed
    from atp_fixtures.running.closed_loop import (assert_lockstep, probe_leak_boundaries,
                                                  run_on_target, within_pool)
    from atp_fixtures.oracles import host_rules
    from atp_fixtures.plugin import DEFAULT_CORPUS

    clock = ExclusiveClock()
    instrument(clock)
    testbed = load_testbed(str(Path.cwd() / AS_MODEL)) if kind(target) is Kind.TESTBED else None
    state = SessionState(target, "spec", testbed, DEFAULT_CORPUS, 0, "tofino")
    limit = state.max_switches or 4
    scenarios = draw_scenarios(count, limit)
    driver = state.driver()

    def example(scenario) -> tuple[float, int]:
        scenario = within_pool(scenario, driver.scenario_pool_max)
        shadows = []
        start = time.perf_counter()
        clock._enter(REST)
        try:
            run = run_on_target(scenario, state.switches_for_run(), shadows)
            probe_leak_boundaries(run, shadows)
            assert_lockstep(run, shadows)
            violations = host_rules.check_host_rules(run)
            if violations:
                raise AssertionError(f"host rules: {violations[:3]}")
        finally:
            clock._leave()
        return time.perf_counter() - start, sum(s.frames_compared for s in shadows)

    widest = max(scenarios, key=lambda s: len(s.topology.switch_names))
    warm_wall, _ = example(widest)
    warm = clock.take()
    work0 = daemon_work(state)
    wall = frames = 0
    cpu0, daemon0 = time.process_time(), daemon_cpu(state)
    for scenario in scenarios:
        w, f = example(scenario)
        wall += w
        frames += f
    cpu = time.process_time() - cpu0
    daemon = daemon_cpu(state) - daemon0
    work1 = daemon_work(state)
    parts = clock.take()
    state.close()
    work = None
    if work0 is not None and work1 is not None:
        work = {k: (work1[k][0] - work0[k][0], work1[k][1] - work0[k][1]) for k in work1}
    return {"target": target, "examples": len(scenarios), "wall": wall, "frames": frames,
            "parts": parts, "warm_wall": warm_wall, "warm": warm,
            "warm_switches": len(widest.topology.switch_names), "daemon": work,
            "cpu": cpu, "daemon_cpu": daemon}


def run_child(target: str, count: int, checkout: Path) -> dict:
    env = dict(os.environ)
    if checkout != REPO:
        env["PYTHONPATH"] = str(checkout)
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", target,
                           "--examples", str(count)],
                          cwd=checkout, env=env, capture_output=True, text=True)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise SystemExit(f"{target} in {checkout} failed (exit {done.returncode}):\n"
                         f"{done.stderr[-3000:]}")
    return json.loads(lines[-1])


def export(rev: str, into: Path) -> Path:
    """``rev`` of this repository as files under ``into`` (``atp_fixtures`` importable
    from there, as the editable install maps it)."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev], capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    (into / "atp_fixtures").symlink_to("fixtures")
    return into


def table(results: dict[str, dict], before: dict[str, dict] | None) -> str:
    rows = []
    heads = ["per example, ms"]
    cols = []
    for target, res in results.items():
        if before and target in before:
            cols.append((f"{target} before", before[target]))
        cols.append((target if not before else f"{target} after", res))
    heads += [name for name, _ in cols]
    for category in CATEGORIES:
        row = [category]
        for _, res in cols:
            row.append(f"{1000 * res['parts'].get(category, 0.0) / res['examples']:.1f}")
        rows.append(row)
    rows.append(["total (wall)"] + [f"{1000 * r['wall'] / r['examples']:.1f}" for _, r in cols])
    rows.append(["CPU: driver process"] + [f"{1000 * r.get('cpu', 0) / r['examples']:.1f}"
                                            for _, r in cols])
    rows.append(["CPU: daemons"] + [f"{1000 * r.get('daemon_cpu', 0) / r['examples']:.1f}"
                                     for _, r in cols])
    rows.append(["frames compared"] + [f"{r['frames'] / r['examples']:.0f}" for _, r in cols])
    for kind in ("frames", "read", "write", "tagged_reads"):
        row = [f"daemon: {kind} (count)"]
        for _, res in cols:
            work = res.get("daemon")
            if not work:
                row.append("-")
                continue
            n, s = work.get(kind, (0, 0.0))
            row.append(f"{1000 * s / res['examples']:.1f} ({n / res['examples']:.0f})")
        rows.append(row)
    rows.append(["warm-up run (s; switches)"] + [f"{r['warm_wall']:.1f} ({r['warm_switches']})"
                                                for _, r in cols])
    widths = [max(len(str(r[i])) for r in rows + [heads]) for i in range(len(heads))]
    fmt = lambda r: "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)  # noqa: E731
                              for i, (c, w) in enumerate(zip(r, widths)))
    return "\n".join([fmt(heads)] + [fmt(r) for r in rows])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=12)
    ap.add_argument("--target", action="append", choices=TARGETS,
                    help="targets to profile (repeatable; default all three)")
    ap.add_argument("--before", metavar="REV",
                    help="also profile git revision REV, side by side with this checkout")
    ap.add_argument("--child", choices=TARGETS, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.examples)))
        return 0
    targets = args.target or list(TARGETS)
    results: dict[str, dict] = {}
    before: dict[str, dict] | None = None
    with tempfile.TemporaryDirectory(prefix="atp-profile-") as tmp:
        old = export(args.before, Path(tmp)) if args.before else None
        if old is not None:
            before = {}
        for target in targets:
            if old is not None:
                before[target] = run_child(target, args.examples, old)
            results[target] = run_child(target, args.examples, REPO)
            print(f"{target}: {results[target]['wall'] / results[target]['examples']:.2f} s "
                  f"an example", file=sys.stderr, flush=True)
    print(f"{results[targets[0]]['examples']} examples of test_results_are_exact_sums "
          f"(derandomized), --p4-build=tofino, load {os.getloadavg()[0]:.1f}")
    print(table(results, before))
    print()
    base = results.get("p4sim")
    for target, res in results.items():
        if base and target != "p4sim":
            print(f"{'wall time ' + target + ' / p4sim':<44} {res['wall'] / base['wall']:>7.2f}x")
        if before and target in before:
            print(f"{'wall time ' + target + ' after / before':<44} "
                  f"{res['wall'] / before[target]['wall']:>7.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
