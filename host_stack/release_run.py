"""Run the ATP release's PS and workers, built against the verbs emulation, as processes
in network namespaces, and capture every frame at their ports.

The release cannot be driven by a scenario: its workload is hard-coded (12 threads per
side, each aggregating a tensor of 1,024,000 integers per loop; ``-l N`` loops, 1 the
least), its MACs are fixed (workers send to ``05:04:03:02:01:<thread>``, the PS to
``77:77:77:77:77:<thread>``, one source MAC for all), and the PS never exits on its own
(it prints a timeout 20 s after its last packet). So a run here is: one PS, ``workers``
workers (ids 0..n-1 of ``n``), application id 1, stopped after ``duration_s`` — or
earlier once every worker has exited — and always cleaned up: every process is stopped,
the namespaces deleted. The processes run niced; their threads pin themselves onto the
CPUs here through the emulation's ``sched_setaffinity``.

The fabric is either a Linux bridge (it floods the fixed MACs; the PS aggregates every
worker's packets itself) or the softswitch running ``p4src/atp.p4 -DATP_RELEASE``
(``host_stack.switch``), configured by the project's control plane from
:func:`release_scenario`. The switch needs no entry for the release's MACs: every frame
the release sends is an ATP frame (ethertype 0x0700), and ATP frames are routed by
``(app_id, ps_index)`` — the workers' to the PS's port, the PS's parameter packets to
the job's multicast group — with their Ethernet header untouched, so each host's
emulated flow steering still sees the release's own destination MACs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from reference.scenario import Scenario
from reference.topology import Job, Rack, Tensor, Topology
from reference.wire import FLAG_ACK, WireError, decode

from host_stack.capture import CAPTURE_MODULE, CapturedRun, capture_drops, switch_logs
from host_stack.netns import Testbed
from host_stack.release_build import ReleaseBinaries
from host_stack.release_clock import slowed
from host_stack.stopping import stop

APP_ID = 1
THREADS = 12                  # hard-coded on both sides: a queue and a tensor each
TENSOR_ELEMENTS = 1024000     # client/main.cc: the size every PushPull sends
WINDOW = 100                  # client/p4ml_manager.cc: max_agtr_size_per_thread's default
FABRICS = ("bridge", "softswitch")
PS_START_TIMEOUT_S = 120.0    # the PS zeroes ~2.6 GB of tensors before it listens
NICE = 10
# The release's clock rate through the softswitch (host_stack.release_clock): its 200 µs
# timer lasts 40 ms of real time, its 50 ms start timer 10 s, its 20 s give-up 4,000 s.
# Measured here through the softswitch, -l 1, 60-90 s runs at load 5-50 on 2 cores: a
# seq's first send to its answer took 89-377 ms at the least and 1.7-4 s at the median
# (1,200 seqs in flight queue at the interpreted switch), and a tensor's answers come in
# bursts (the gap between answers to one thread: 0.1 ms median, 0.5-0.9 s at the 99th
# percentile), so no usable rate puts the timer above every gap. Seqs answered a minute
# (share of the worker's sends that were resends): unslowed ~4,000; x0.05 (4 ms) 34,700
# (26 %, load ~8); x0.005 (40 ms) 35,400 (16 %, load ~20; the whole job in 608 s at load
# ~45, 19 %); x0.001 (200 ms) 16,500 (8 %, load ~30: not separable from the load). So
# x0.005: resends no longer dominate, while the release's 1 µs polling sleeps (200 µs
# here) and its start timer stay short.
SOFTSWITCH_CLOCK_RATE = 0.005
# util-linux: SIGKILL the process when its parent (this Python process) dies
_DIES_WITH_US = ["setpriv", "--pdeathsig", "KILL"] if shutil.which("setpriv") else []


class ReleaseRunError(RuntimeError):
    """The release's processes could not be started; the message says which and where."""


@dataclass
class ReleaseRun:
    workdir: Path
    fabric: str = "bridge"
    pcaps: dict[str, Path] = field(default_factory=dict)     # host -> its port's pcap
    worker_exit: dict[str, int | None] = field(default_factory=dict)   # None: still running
    ps_ready_s: float = 0.0
    elapsed_s: float = 0.0
    left_running: list[str] = field(default_factory=list)   # did not stop on SIGTERM
    capture_drops: dict[str, int] | None = None   # host -> frames its port's capture missed
    clock_rate: float | None = None   # the release's clock rate (None: the real clock)

    def captured(self, scenario: Scenario) -> CapturedRun:
        """The run as the host rules read a run (``atp_fixtures.oracles.host_rules``)."""
        return CapturedRun(scenario, switch_logs(scenario, self.pcaps, sent_by),
                           f"the ATP release on the {self.fabric}, {self.workdir}")

    @property
    def workers_finished(self) -> bool:
        return all(code == 0 for code in self.worker_exit.values())


def release_scenario(workers: int = 1) -> Scenario:
    """The release's job as the project's control plane and host rules see it: one
    rack (the PS on port 1, worker ``i`` on port 2 + i), application 1 with one PS
    (ps_index is ``key % nPS`` = 0), fan_in ``workers`` (the release's bitmap is
    ``1 << id``, as section 2's), its 12 tensors (keys 0..11 in its own numbering, each
    the integers 1..1,024,000 of ``client/main.cc``, sent as they are: scale 1, no
    threshold reached), its window (100 aggregators per thread: ``P4mlManager``'s
    default, which ``-a`` would change), with congestion control (its ``CC_manager``),
    under profile ``atp-release``."""
    names = [f"w{i}" for i in range(workers)]
    topology = Topology((Rack("tor0", ("ps", *names)),))
    values = np.arange(1, TENSOR_ELEMENTS + 1, dtype=np.float32)
    data = np.broadcast_to(values, (workers, TENSOR_ELEMENTS))
    tensors = tuple(Tensor(key, TENSOR_ELEMENTS, data) for key in range(THREADS))
    job = Job(APP_ID, tuple(names), ("ps",), window=WINDOW, tensors=tensors, scale=1.0,
              threshold=float(2 * TENSOR_ELEMENTS), congestion_control=True)
    return Scenario(topology, (job,), profile="atp-release", name="atp-release-host-stack",
                    link_latency_ns=0)


def sent_by(host: str, frame: bytes) -> bool:
    """Whether ``host`` sent ``frame`` (captured at its port): every host has the same
    source MAC, so the direction is the protocol's — a worker sends gradients, the PS
    parameter packets and float requests (both carry ack)."""
    try:
        ack = bool(decode(frame).flags & FLAG_ACK)
    except WireError:
        return False
    return ack == (host == "ps")


# how long a stopped process may take to be gone: the release handles no signal, so
# SIGTERM ends it at once, but the PS frees ~2.6 GB and 13 threads as it exits, which at
# nice 10 on 2 cores at load ~50 took over 5 s here (and over 5 s more after SIGKILL)
EXIT_GRACE_S = 30.0


# the capture runs ahead of everything else on the machine (root may raise priority):
# the release busy-polls 24 threads per side, and a fresh-clone CI run on 2 cores saw
# the capture at nice 0 miss 761 of w0's frames despite its 128 MiB buffer
CAPTURE_NICE = -10


def _start_capture(bed: Testbed, hosts, workdir: Path) -> subprocess.Popen:
    argv = [sys.executable, "-m", CAPTURE_MODULE, "--dir", str(workdir / "pcap")]
    if os.geteuid() == 0:
        argv = ["nice", "-n", str(CAPTURE_NICE), *argv]
    for host in hosts:
        argv += ["--iface", bed.port(host)]
    proc = bed.popen("fabric", argv, workdir / "capture.log")
    deadline = time.monotonic() + 15
    while not (workdir / "pcap" / "ready").exists():
        if time.monotonic() > deadline or proc.poll() is not None:
            raise ReleaseRunError(f"the capture did not start; see {workdir}/capture.log")
        time.sleep(0.05)
    return proc


def run_release(binaries: ReleaseBinaries, workdir: Path, *, workers: int = 1, loops: int = 1,
                duration_s: float = 20.0, capture: bool = True,
                fabric: str = "bridge", clock_rate: float | None = None) -> ReleaseRun:
    """One PS and ``workers`` workers (``-l loops``) for at most ``duration_s`` after
    the PS listens, on ``fabric`` (``bridge`` or ``softswitch``); with ``capture``,
    frames captured at every port (``workdir/pcap/<port>.pcap``); with ``clock_rate``,
    the release's processes (only they) see their clock run at that rate
    (``host_stack.release_clock``)."""
    if fabric not in FABRICS:
        raise ReleaseRunError(f"fabric {fabric!r}: expected one of {', '.join(FABRICS)}")
    env = dict(os.environ, ATP_VERBS_EMU_IFACE="eth0")
    if clock_rate is not None:
        try:
            env = slowed(env, clock_rate)
        except (ValueError, FileNotFoundError) as exc:
            raise ReleaseRunError(f"cannot slow the release's clock: {exc}") from None
    workdir = Path(workdir)
    shutil.rmtree(workdir / "pcap", ignore_errors=True)
    workdir.mkdir(parents=True, exist_ok=True)
    scenario = release_scenario(workers)
    hosts = {h: scenario.topology.host_mac(h) for h in scenario.topology.hosts}
    run = ReleaseRun(workdir, fabric=fabric, clock_rate=clock_rate)
    # killed with the run (they busy-poll and the PS never exits on its own), niced,
    # line-buffered (their logs survive SIGTERM)
    niced = [*_DIES_WITH_US, "nice", "-n", str(NICE), "stdbuf", "-oL"]
    with Testbed(hosts, bridge=fabric == "bridge", tag="atprel") as bed:   # IPv6 off
        switches = []
        if fabric == "softswitch":
            from host_stack.switch import start_softswitches  # only when asked for
            try:
                switches = start_softswitches(bed, scenario, workdir)
            except RuntimeError as exc:
                raise ReleaseRunError(str(exc)) from None
        capturing = _start_capture(bed, hosts, workdir) if capture else None
        started = time.monotonic()
        ps_log = workdir / "ps.log"
        ps = bed.popen("ps", [*niced, str(binaries.ps), str(APP_ID)], ps_log, env=env)
        while ps_log.read_text(errors="replace").count("Finish created QP") < THREADS:
            if ps.poll() is not None:
                raise ReleaseRunError(f"the release's PS exited with {ps.returncode} before "
                                      f"it listened; see {ps_log}")
            if time.monotonic() - started > PS_START_TIMEOUT_S:
                raise ReleaseRunError(f"the release's PS did not create its {THREADS} "
                                      f"queues in {PS_START_TIMEOUT_S:.0f} s; see {ps_log}")
            time.sleep(0.2)
        run.ps_ready_s = time.monotonic() - started
        procs = {}
        t0 = time.monotonic()
        for i in range(workers):
            host = f"w{i}"
            procs[host] = bed.popen(host, [*niced, str(binaries.worker), str(i), str(workers),
                                           str(APP_ID), "1", "-l", str(loops)],
                                    workdir / f"{host}.log", env=env)
        while time.monotonic() - t0 < duration_s and any(p.poll() is None for p in procs.values()):
            time.sleep(0.2)
        run.elapsed_s = time.monotonic() - t0
        run.worker_exit = {h: p.poll() for h, p in procs.items()}
        time.sleep(0.2)  # late frames reach the capture
        hosts_procs = {**procs, "ps": ps}
        killed = stop(hosts_procs.values(), EXIT_GRACE_S)
        run.left_running += [name for name, proc in hosts_procs.items() if proc in killed]
        if capturing is not None:
            stop([capturing], EXIT_GRACE_S)
        stop((proc for proc, _ in switches), EXIT_GRACE_S)
        run.pcaps = {h: workdir / "pcap" / f"{bed.port(h)}.pcap" for h in hosts}
    run.pcaps = {h: p for h, p in run.pcaps.items() if p.exists()}
    drops = capture_drops(workdir / "pcap") if capture else None
    if drops is not None:
        run.capture_drops = {h: drops.get(p.stem) for h, p in run.pcaps.items()}
    return run
