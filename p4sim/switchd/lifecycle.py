"""What a softswitch run leaves behind when it is killed: nothing.

Four mechanisms, because no single one covers every way a run dies (and a ledger, at
the end of this module, that checks they did):

- **Owner marks.** Every veth :class:`~p4sim.switchd.launch.VethPairs` creates carries,
  in its interface alias (``ip link set X alias``), the *process identity* of its
  creator: pid and the process's start time from ``/proc/<pid>/stat`` (a pid alone can
  be reused). An interface whose creator is no longer that process is stale.
- **Parent watch.** ``python -m p4sim.switchd --exit-with-parent PID`` polls its parent
  and stops, as on SIGTERM, once PID is no longer its parent (pytest or an xdist worker
  was SIGKILLed, or SIGTERMed, whose default action skips every ``atexit``). Polling
  ``getppid`` rather than ``prctl(PR_SET_PDEATHSIG)``: the latter fires when the *thread*
  that forked exits, and the launcher may run in any thread. The daemon runs in its own
  session (no terminal's Ctrl-C reaches it behind its driver's back).
- **Sweeps.** A daemon stopping for any reason deletes its bound interfaces that are
  stale (so a killed driver's veths go with its daemon); a new :class:`VethPairs`
  first deletes every stale marked interface of this network namespace (the case where
  driver and daemon were both SIGKILLed). Unmarked interfaces, and marked ones whose
  creator lives (another engineer's concurrent run), are never touched.
- **Pending records.** ``ip link add`` cannot set an alias, so a creator killed between
  creating a pair and marking it left an unmarked pair no sweep would touch (seen once
  after a kill test). Before creating, :class:`VethPairs` writes a record
  ``<name>@<identity>`` under ``PENDING``; the full sweep deletes a recorded interface
  that is still unmarked once its recorder is dead, and drops the record.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable, Iterable

MARK = "p4sim-switchd owner="
SYS_NET = Path("/sys/class/net")
PENDING = Path("/run/p4sim-switchd/pending")


def process_identity(pid: int) -> str | None:
    """``"pid:start_time"`` of a live process (start time in clock ticks since boot),
    None if there is no such process (or only its zombie)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()     # after "pid (comm)": state is field 3
    if fields[0] in ("Z", "X"):
        return None
    return f"{pid}:{fields[19]}"                  # field 22: starttime


def identity_alive(identity: str) -> bool:
    pid, _, _ = identity.partition(":")
    return pid.isdigit() and process_identity(int(pid)) == identity


def mark_owned(ifname: str, owner: str) -> None:
    """Record ``owner`` (a process identity) as the creator of interface ``ifname``."""
    subprocess.run(["ip", "link", "set", "dev", ifname, "alias", MARK + owner],
                   capture_output=True)


def record_pending(ifname: str, owner: str) -> Path:
    """Before ``ifname`` is created: a record of its creator, removed once it is marked
    (``clear_pending``)."""
    PENDING.mkdir(parents=True, exist_ok=True)
    record = PENDING / f"{ifname}@{owner}"
    record.touch()
    return record


def clear_pending(record: Path) -> None:
    record.unlink(missing_ok=True)


def sweep_pending() -> list[str]:
    """Delete the still-unmarked interfaces whose recorded creator is dead; drop every
    dead creator's record. The names deleted."""
    try:
        records = list(PENDING.iterdir())
    except OSError:
        return []
    removed = []
    for record in records:
        name, _, owner = record.name.partition("@")
        if identity_alive(owner):
            continue
        if (SYS_NET / name).exists() and owner_of(name) is None:
            r = subprocess.run(["ip", "link", "del", name], capture_output=True)
            if r.returncode == 0:
                removed.append(name)
        clear_pending(record)
    return removed


def owner_of(ifname: str) -> str | None:
    """The creator identity an interface was marked with, None if unmarked/absent."""
    try:
        alias = (SYS_NET / ifname / "ifalias").read_text().strip()
    except OSError:
        return None
    return alias[len(MARK):] if alias.startswith(MARK) else None


def is_stale(ifname: str) -> bool:
    owner = owner_of(ifname)
    return owner is not None and not identity_alive(owner)


def sweep_stale(names: Iterable[str] | None = None) -> list[str]:
    """Delete the stale marked interfaces among ``names`` (all of this namespace's when
    None, with the pending records of dead creators); the names deleted. Deleting one
    end of a veth deletes its peer."""
    try:
        candidates = list(names) if names is not None else os.listdir(SYS_NET)
    except OSError:
        return []
    removed = sweep_pending() if names is None else []
    for name in candidates:
        if is_stale(name):
            r = subprocess.run(["ip", "link", "del", name], capture_output=True)
            if r.returncode == 0:
                removed.append(name)
    return removed


def watch_parent(parent_pid: int, on_gone: Callable[[], None],
                 interval_s: float = 0.2) -> threading.Thread:
    """Call ``on_gone`` once this process's parent is no longer ``parent_pid`` (it died:
    the process was re-parented). Checked at once, then every ``interval_s``."""
    def run() -> None:
        while os.getppid() == parent_pid:
            time.sleep(interval_s)
        on_gone()

    thread = threading.Thread(target=run, name="parent-watch", daemon=True)
    thread.start()
    return thread


# -- The run's ledger: what a whole test session must not leave behind ------------------
# The four mechanisms above clean up after a killed run; the ledger checks that they did.
# A session opens a folder and names it in ``$ATP_RUN_LEDGER``, which every process it
# starts inherits (xdist workers, switch daemons, host-stack processes, inner pytest
# runs). Creators of veths and namespaces append what they made to it. At the end of the
# session, a process still carrying the variable, or a recorded veth or namespace that
# still exists, is a leftover, named with what made it.

RUN_LEDGER = "ATP_RUN_LEDGER"


def note_created(kind: str, name: str) -> None:
    """Record, in the run's ledger if there is one, that this process made ``name`` (a
    ``veth`` in this namespace, or a ``netns``)."""
    folder = os.environ.get(RUN_LEDGER)
    if not folder:
        return
    try:
        with open(Path(folder) / f"created.{os.getpid()}", "a") as f:
            f.write(f"{kind} {name}\n")
    except OSError:
        pass            # a ledger removed under a late child must not fail its creation


def open_run_ledger() -> Path:
    """A new ledger for this session (inside the inherited one, so an outer session
    counts an inner session's leftovers too), named in the environment from now on."""
    outer = os.environ.get(RUN_LEDGER)
    parent = Path(outer) if outer and Path(outer).is_dir() else None
    folder = Path(tempfile.mkdtemp(prefix="atp-run-ledger-", dir=parent))
    os.environ[RUN_LEDGER] = str(folder)
    return folder


def _carries_ledger(pid: int, folder: Path) -> bool:
    try:
        env = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return False
    prefix = f"{RUN_LEDGER}={folder}".encode()
    return any(v == prefix or v.startswith(prefix + b"/") for v in env)


def _recorded(folder: Path) -> list[tuple[str, str]]:
    made = []
    for record in folder.rglob("created.*"):
        try:
            made += [tuple(line.split(" ", 1)) for line in record.read_text().splitlines()
                     if " " in line]
        except OSError:
            continue
    return made


def _netns_exists(name: str) -> bool:
    return Path("/run/netns", name).exists()


def leftovers(folder: Path, grace_s: float = 15.0) -> list[str]:
    """What the session of ``folder`` left: its processes other than this one and those
    of its recorded veths and namespaces that still exist, once ``grace_s`` has passed
    for them to go (workers and daemons stop asynchronously). Empty when all went."""
    deadline = time.monotonic() + grace_s
    while True:
        me = os.getpid()
        procs = [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != me
                 and process_identity(int(p)) and _carries_ledger(int(p), folder)]
        made = _recorded(folder)
        links = sorted({n for k, n in made if k == "veth" and (SYS_NET / n).exists()})
        spaces = sorted({n for k, n in made if k == "netns" and _netns_exists(n)})
        if not (procs or links or spaces) or time.monotonic() >= deadline:
            break
        time.sleep(0.5)
    found = []
    for pid in procs:
        try:
            args = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            parent = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1]
        except OSError:
            continue
        found.append(f"process {pid} (parent {parent}): {args.strip()[:200]}")
    found += [f"veth {n} (alias: {owner_of(n) or 'unmarked'})" for n in links]
    found += [f"network namespace {n}" for n in spaces]
    return found


def remove_leftovers(folder: Path) -> None:
    """SIGKILL the session's remaining processes, delete its recorded veths and
    namespaces (so the next run starts clean after the failure is reported)."""
    for p in os.listdir("/proc"):
        if p.isdigit() and int(p) != os.getpid() and _carries_ledger(int(p), folder):
            try:
                os.kill(int(p), signal.SIGKILL)
            except OSError:
                pass
    for kind, name in _recorded(folder):
        if kind == "veth" and (SYS_NET / name).exists():
            subprocess.run(["ip", "link", "del", name], capture_output=True)
        elif kind == "netns" and _netns_exists(name):
            subprocess.run(["ip", "netns", "del", name], capture_output=True)
