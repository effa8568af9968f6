"""``python -m host_stack.demo`` (``make demo``): watch ATP train a model over real links.

Starts a PS and 2-4 workers, each a process in its own network namespace, cabled by
veths to the softswitch running ``p4src/atp.p4`` (when ``p4sim.switchd`` is present) or
else to a Linux bridge (no in-network aggregation: the PS sums every worker's packets).
Every worker trains the same small MLP on its own data shard (host_stack.train_example),
summing gradients with ``push_pull``. The demo prints the loss per step with a progress
bar and ends with an exactly-once check: every aggregate every worker received, at every
step and key, equals the exact sum of the workers' quantized gradients (a local
all-reduce computed here, through the reference oracle).

A long job (spec 10.8): the job starts ``--first-seq`` (100 packets before the wrap by
default) and the MLP's hidden layer is made just wide enough that the run sends enough
packets for seq to wrap ``--wraps`` times (2: about 65,600 packets per worker); the demo
checks from the workers' logs that it did. The PS forgets every seq S behind the latest
completion (spec 6.6), so its state stays a few windows long however long the run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from reference.oracle import check_seq, expected_seqs
from reference.scenario import Scenario
from reference.topology import Job, Tensor

from reference.seqnum import SEQ_RING, nth_seq, seq_wraps

from host_stack.netns import Testbed, unavailable_reason
from host_stack.roles import single_job, single_job_topology
from host_stack.session import softswitch_available
from host_stack.stopping import stop
from host_stack.train_example import HIDDEN, packets_per_step, unwords

BAR = 30


def bar(done: int, total: int) -> str:
    filled = BAR * done // total
    return "[" + "#" * filled + "." * (BAR - filled) + "]"


def read_steps(path: Path) -> list[dict]:
    if not path.exists():
        return []
    lines = path.read_text().splitlines()
    out = []
    for line in lines:
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            break  # a line still being written
    return out


def verify(logs: list[list[dict]], job: Job) -> tuple[int, list[str]]:
    """Check every received aggregate against the exact sum; (seqs checked, problems)."""
    problems: list[str] = []
    checked = 0
    topo = single_job_topology(job.fan_in, len(job.pses))
    for step_records in zip(*logs):
        step = step_records[0]["step"]
        by_key = [{e["key"]: e for e in rec["exchanges"]} for rec in step_records]
        for key in by_key[0]:
            sent = np.stack([unwords(w[key]["sent"]).view(np.float32) for w in by_key])
            tensor = Tensor(key, sent.shape[1], sent)
            scenario = Scenario(topo, (Job(job.app_id, job.workers, job.pses, job.window,
                                           (tensor,), job.scale),))
            expected = expected_seqs(scenario, job.app_id, key)
            for w, received in enumerate(by_key):
                got = received[key]["received"]
                if len(got) != len(expected):
                    problems.append(f"step {step} key {key} worker {w}: {len(got)} seqs "
                                    f"received, {len(expected)} expected")
                    continue
                for s, ((float_mode, values), exp) in enumerate(zip(got, expected), 1):
                    bits = unwords(values)
                    raw = bits.view(np.float32) if float_mode else bits
                    reason = check_seq(exp, float_mode, raw)
                    checked += 1
                    if reason:
                        problems.append(f"step {step} key {key} worker {w} seq {s}: "
                                        f"{reason}")
    return checked, problems


def hidden_for(first_seq: int, want_wraps: int, steps: int) -> int:
    """The narrowest hidden layer (at least the example's) with which ``steps`` steps
    send enough packets to wrap seq ``want_wraps`` times."""
    needed = want_wraps * SEQ_RING - (first_seq - 1) + 1
    hidden = HIDDEN
    while steps * packets_per_step(hidden) < needed:
        hidden += max(1, hidden // 8)
    return hidden


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m host_stack.demo",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument("--steps", type=int, default=25)
    parser.add_argument("--window", type=int, default=8)
    parser.add_argument("--wraps", type=int, default=2,
                        help="times seq must wrap (65535 -> 1) during the run; 0: no "
                        "wide model")
    parser.add_argument("--first-seq", type=int, default=SEQ_RING - 99,
                        help="the job's first seq (spec 10.8)")
    parser.add_argument("--fabric", choices=("auto", "bridge", "softswitch"), default="auto")
    parser.add_argument("--workdir", default="reports/artifacts/host_stack/demo")
    args = parser.parse_args(argv)
    reason = unavailable_reason()
    if reason:
        print(f"demo needs network namespaces: {reason}", file=sys.stderr)
        return 2
    no_switch = softswitch_available()
    fabric = args.fabric
    if fabric == "auto":
        fabric = "bridge" if no_switch else "softswitch"
    if fabric == "softswitch" and no_switch:
        print(f"--fabric softswitch: {no_switch}", file=sys.stderr)
        return 2
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    n = args.workers
    if not 1 <= args.first_seq <= SEQ_RING:
        print(f"--first-seq {args.first_seq}: must be in 1..{SEQ_RING}", file=sys.stderr)
        return 2
    job, _ = single_job(1, n, 1, args.window, scale=1e6, congestion_control=False,
                        first_seq=args.first_seq)
    hidden = hidden_for(args.first_seq, args.wraps, args.steps)
    packets = args.steps * packets_per_step(hidden)
    topo = single_job_topology(n, 1)
    hosts = {h: topo.host_mac(h) for h in topo.hosts}
    if fabric == "bridge":
        print(f"fabric: Linux bridge (no switch in the middle: {no_switch}); the PS "
              f"aggregates every worker's packets")
    else:
        print("fabric: softswitch (python -m p4sim.switchd running p4src/atp.p4)")
    print(f"training a 16-{hidden}-1 MLP with {n} workers over veths, {args.steps} steps, "
          f"window S={args.window}: {packets} packets per worker from seq "
          f"{args.first_seq} (seq wraps {seq_wraps(args.first_seq, packets)} time(s))")
    env_common = {**os.environ, "DMLC_NUM_WORKER": str(n), "DMLC_NUM_SERVER": "1",
                  "ATP_PS_MACS": hosts["server0"].hex(":"), "ATP_APP_ID": "1",
                  "ATP_WINDOW": str(args.window), "ATP_IFACE": "eth0",
                  "ATP_FIRST_SEQ": str(args.first_seq),
                  # a P4 interpreter in the round trip: a longer resend timer
                  "ATP_TIMEOUT_US": "20000"}
    logs = [workdir / f"worker{w}.jsonl" for w in range(n)]
    for log in logs:
        log.unlink(missing_ok=True)
    started = time.monotonic()
    with Testbed(hosts, bridge=(fabric == "bridge")) as bed:
        if fabric == "softswitch":
            from host_stack.switch import start_softswitches
            scenario = Scenario(topo, (job,))
            start_softswitches(bed, scenario, workdir)
        ready = workdir / "server0.ready"
        ready.unlink(missing_ok=True)
        server = bed.popen("server0", [sys.executable, "-m", "host_stack.launcher",
                                       "--ready", str(ready)],
                           workdir / "server0.log", env={**env_common, "DMLC_ROLE": "server"})
        while not ready.exists():
            if server.poll() is not None:
                print(f"the PS exited early; see {workdir / 'server0.log'}", file=sys.stderr)
                return 1
            time.sleep(0.01)
        workers = [bed.popen(f"worker{w}", [
            sys.executable, "-m", "host_stack.launcher", sys.executable, "-m",
            "host_stack.train_example", "--steps", str(args.steps), "--hidden", str(hidden),
            "--log", str(logs[w])],
            workdir / f"worker{w}.log",
            env={**env_common, "DMLC_ROLE": "worker", "DMLC_WORKER_ID": str(w)})
            for w in range(n)]
        shown = 0
        deadline = time.monotonic() + 60 + args.steps * 2 + packets / 100
        while shown < args.steps:
            records = [read_steps(log) for log in logs]
            ready_steps = min(len(r) for r in records)
            while shown < ready_steps:
                loss = float(np.mean([r[shown]["loss"] for r in records]))
                shown += 1
                print(f"step {shown:3d}/{args.steps} {bar(shown, args.steps)} "
                      f"loss {loss:.4f}", flush=True)
            if any(p.poll() not in (None, 0) for p in workers):
                bad = [w for w, p in enumerate(workers) if p.poll() not in (None, 0)]
                print(f"worker(s) {bad} failed; see {workdir}/worker{bad[0]}.log",
                      file=sys.stderr)
                return 1
            if time.monotonic() > deadline:
                print("the run did not finish in time", file=sys.stderr)
                return 1
            time.sleep(0.05)
        for p in workers:
            p.wait(timeout=30)
        stop([server], 10)
    elapsed = time.monotonic() - started
    records = [read_steps(log) for log in logs]
    losses = [float(np.mean([r[i]["loss"] for r in records])) for i in range(args.steps)]
    resends = sum(r[-1]["counters"].get("resends", 0) for r in records)
    print(f"loss {losses[0]:.4f} -> {losses[-1]:.4f} "
          f"({'falling' if losses[-1] < losses[0] else 'NOT falling'}); "
          f"{elapsed:.1f} s, {resends} resend(s)")
    sent = min(r[-1]["packets"] for r in records)
    wrapped = seq_wraps(args.first_seq, sent)
    print(f"{sent} packets per worker from seq {args.first_seq} to "
          f"{nth_seq(args.first_seq, sent)}: seq wrapped {wrapped} time(s)")
    if wrapped < args.wraps:
        print(f"seq wrapped {wrapped} time(s), {args.wraps} wanted", file=sys.stderr)
        return 1
    checked, problems = verify(records, job)
    for p in problems[:10]:
        print(f"  MISMATCH {p}")
    if problems:
        print(f"exactly-once FAILED: {len(problems)} of {checked} received seqs differ "
              f"from the exact sum")
        return 1
    print(f"exactly-once verified: {checked} received seqs ({args.steps} steps x "
          f"{len(records[0][0]['exchanges'])} keys x {n} workers) equal the local "
          f"all-reduce of the quantized gradients, bit for bit")
    return 0 if losses[-1] < losses[0] else 1


if __name__ == "__main__":
    raise SystemExit(main())
