"""Run the ATP release's PS and workers, built against the verbs emulation, as processes
in network namespaces, and capture every frame at their ports.

The release cannot be driven by a scenario: its workload is hard-coded (12 threads per
side, each aggregating a tensor of 1,024,000 integers per loop; ``-l N`` loops, 1 the
least), its MACs are fixed (workers send to ``05:04:03:02:01:<thread>``, the PS to
``77:77:77:77:77:<thread>``, one source MAC for all), and the PS never exits on its own
(it prints a timeout 20 s after its last packet). So a run here is: one PS, ``workers``
workers (ids 0..n-1 of ``n``), application id 1, on a Linux bridge (the bridge floods
the fixed MACs; the PS aggregates every worker's packets itself), stopped after
``duration_s`` — or earlier once every worker has exited — and always cleaned up: every
process is stopped, the namespaces deleted. The processes run niced; their threads pin
themselves onto the CPUs here through the emulation's ``sched_setaffinity``.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from host_stack.capture import CAPTURE_MODULE
from host_stack.netns import Testbed
from host_stack.release_build import ReleaseBinaries

APP_ID = 1
PS_THREADS = 12
PS_START_TIMEOUT_S = 120.0    # the PS zeroes ~2.6 GB of tensors before it listens
NICE = 10
# util-linux: SIGKILL the process when its parent (this Python process) dies
_DIES_WITH_US = ["setpriv", "--pdeathsig", "KILL"] if shutil.which("setpriv") else []


class ReleaseRunError(RuntimeError):
    """The release's processes could not be started; the message says which and where."""


@dataclass
class ReleaseRun:
    workdir: Path
    pcaps: dict[str, Path] = field(default_factory=dict)     # host -> its port's pcap
    worker_exit: dict[str, int | None] = field(default_factory=dict)   # None: still running
    ps_ready_s: float = 0.0
    elapsed_s: float = 0.0
    left_running: list[str] = field(default_factory=list)   # did not stop on SIGTERM

    @property
    def workers_finished(self) -> bool:
        return all(code == 0 for code in self.worker_exit.values())


def _host_mac(index: int) -> bytes:
    return bytes((0x02, 0, 0, 0, 0x22, index + 1))


def _stop(proc: subprocess.Popen, grace_s: float = 5.0) -> bool:
    """SIGTERM, then SIGKILL; True if it stopped on SIGTERM."""
    if proc.poll() is not None:
        return True
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=grace_s)
        return True
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=grace_s)
        return False


def _start_capture(bed: Testbed, hosts, workdir: Path) -> subprocess.Popen:
    argv = [sys.executable, "-m", CAPTURE_MODULE, "--dir", str(workdir / "pcap")]
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
                duration_s: float = 20.0, capture: bool = True) -> ReleaseRun:
    """One PS and ``workers`` workers (``-l loops``) for at most ``duration_s`` after
    the PS listens; with ``capture``, frames captured at every port
    (``workdir/pcap/<port>.pcap``)."""
    workdir = Path(workdir)
    shutil.rmtree(workdir / "pcap", ignore_errors=True)
    workdir.mkdir(parents=True, exist_ok=True)
    hosts = {"ps": _host_mac(0), **{f"w{i}": _host_mac(i + 1) for i in range(workers)}}
    run = ReleaseRun(workdir)
    env = dict(os.environ, ATP_VERBS_EMU_IFACE="eth0")
    # killed with the run (they busy-poll and the PS never exits on its own), niced,
    # line-buffered (their logs survive SIGTERM)
    niced = [*_DIES_WITH_US, "nice", "-n", str(NICE), "stdbuf", "-oL"]
    with Testbed(hosts, bridge=True, tag="atprel") as bed:
        for host in hosts:
            bed.run(host, ["sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1"])
        capturing = _start_capture(bed, hosts, workdir) if capture else None
        started = time.monotonic()
        ps_log = workdir / "ps.log"
        ps = bed.popen("ps", [*niced, str(binaries.ps), str(APP_ID)], ps_log, env=env)
        while ps_log.read_text(errors="replace").count("Finish created QP") < PS_THREADS:
            if ps.poll() is not None:
                raise ReleaseRunError(f"the release's PS exited with {ps.returncode} before "
                                      f"it listened; see {ps_log}")
            if time.monotonic() - started > PS_START_TIMEOUT_S:
                raise ReleaseRunError(f"the release's PS did not create its {PS_THREADS} "
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
        for name, proc in [*procs.items(), ("ps", ps)]:
            if not _stop(proc):
                run.left_running.append(name)
        if capturing is not None:
            _stop(capturing)
        run.pcaps = {h: workdir / "pcap" / f"{bed.port(h)}.pcap" for h in hosts}
    run.pcaps = {h: p for h, p in run.pcaps.items() if p.exists()}
    return run
