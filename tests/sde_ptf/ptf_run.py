"""Running SDE-style PTF tests against the softswitch the way the SDE's
run_p4_tests.sh runs them against the Tofino model: the program on a switch, one veth
pair per device port (the switch on one end, PTF on the other), then
``ptf --test-dir DIR --interface 0-PORT@IFACE ... --test-params "arch='tofino';..."``
with the SDE's Python client on ``--pypath``.

Test parameters are the SDE's defaults for a model run (``arch='tofino'``,
``target='asic-model'``) plus where BfRuntime listens (``grpc_server``,
``bfrt_grpc_port``, which ``BfRuntimeTest.setUp`` reads; the softswitch takes a free
port instead of bf_switchd's 50052 so that runs cannot collide).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from p4sim.switchd.launch import SwitchdProcess, VethPairs

PTF_TIMEOUT_S = 600


THRIFT_PD_MODULE = "pd_base_tests"


class PtfNotRunnable(Exception):
    """The tests cannot run here at all (the message says why); nothing was started."""


def thrift_pd_imports(test_dir: Path) -> list[str]:
    """``file:line`` of every import of the SDE's Thrift-based PD base class
    (``pd_base_tests``) in ``test_dir``'s Python files."""
    found = []
    for f in sorted(test_dir.rglob("*.py")):
        try:
            tree = ast.parse(f.read_text(encoding="utf-8"), str(f))
        except (OSError, SyntaxError, UnicodeDecodeError):
            continue        # ptf reports what it cannot import itself
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            if any(n.split(".")[0] == THRIFT_PD_MODULE for n in names):
                found.append(f"{f}:{node.lineno}")
    return found


def not_runnable_reason(test_dir: Path, sde_python: Path) -> str | None:
    """Why ptf cannot run ``test_dir`` with ``sde_python``'s modules, or None."""
    pd = thrift_pd_imports(test_dir)
    if pd and not any((sde_python / d / f"{THRIFT_PD_MODULE}.py").exists()
                      for d in (".", "p4testutils")):
        return (f"{', '.join(pd)} imports {THRIFT_PD_MODULE}, the SDE's older Thrift-based PD "
                f"test base class: the SDE Python set ({sde_python}) carries only the "
                f"BfRuntime client (bfrt_grpc, p4testutils.BfRuntimeTest), and the softswitch "
                f"serves BfRuntime over gRPC, not Thrift PD; port the test to BfRuntimeTest")
    return None


@dataclass
class PtfResult:
    returncode: int
    output: str
    command: list[str]


def ptf_command(test_dir: Path, sde_python: Path, interfaces: dict[int, str],
                grpc_address: str, log_file: Path,
                more_params: dict[str, str] | None = None) -> list[str]:
    host, port = grpc_address.rsplit(":", 1)
    params = (f"arch='tofino';target='asic-model';grpc_server='{host}';"
              f"bfrt_grpc_port='{port}'")
    params += "".join(f";{k}='{v}'" for k, v in (more_params or {}).items())
    cmd = [str(Path(sys.executable).with_name("ptf")), "--test-dir", str(test_dir),
           "--pypath", str(sde_python), "--pypath", str(sde_python / "p4testutils"),
           "--log-file", str(log_file), "--test-params", params]
    for dev_port, iface in sorted(interfaces.items()):
        cmd += ["--interface", f"0-{dev_port}@{iface}"]
    return cmd


class PtfSession:
    """One softswitch on veth pairs, on which ptf runs as often as needed
    (``ptf_session``)."""

    def __init__(self, address: str, p4_name: str, ptf_side: dict[int, str],
                 sde_python: Path, work: Path):
        self.address = address
        self.p4_name = p4_name
        self._ptf_side = ptf_side
        self._sde_python = sde_python
        self._work = work
        self._runs = 0

    def run(self, test_dir: Path, specs: tuple[str, ...] = (),
            timeout_s: float = PTF_TIMEOUT_S) -> PtfResult:
        """ptf over ``test_dir`` (only ``specs``, ptf's test names, if given), killed
        after ``timeout_s``."""
        self._runs += 1
        cmd = ptf_command(test_dir, self._sde_python, self._ptf_side, self.address,
                          self._work / f"{self.p4_name}-ptf-{self._runs}.log") + list(specs)
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s,
                           cwd=self._work)
        return PtfResult(r.returncode, r.stdout + r.stderr, cmd)


@contextmanager
def ptf_session(program: Path, p4_name: str, test_dir: Path, sde_python: Path, work: Path,
                ports: tuple[int, ...] = (1, 2, 3),
                switchd_args: list[str] | None = None) -> Iterator[PtfSession]:
    """``program`` on a softswitch with ``ports`` (``switchd_args``: more arguments of
    ``python -m p4sim.switchd``, e.g. ``-D`` defines); everything started is gone when
    the block ends (or raises). PtfNotRunnable, before anything starts, when the tests
    of ``test_dir`` cannot run here (``not_runnable_reason``)."""
    why = not_runnable_reason(test_dir, sde_python)
    if why:
        raise PtfNotRunnable(why)
    with VethPairs(len(ports), tag="sdeptf") as veths:
        switch_side = dict(zip(ports, veths.switch))
        ptf_side = dict(zip(ports, veths.peer))
        with SwitchdProcess(program, switch_side, p4_name=p4_name,
                            extra_args=switchd_args) as sd:
            yield PtfSession(sd.address, p4_name, ptf_side, sde_python, work)


def run_ptf(program: Path, p4_name: str, test_dir: Path, sde_python: Path, work: Path,
            ports: tuple[int, ...] = (1, 2, 3),
            switchd_args: list[str] | None = None) -> PtfResult:
    """``program`` on a softswitch and ptf over ``test_dir`` once (``ptf_session``)."""
    with ptf_session(program, p4_name, test_dir, sde_python, work, ports,
                     switchd_args) as session:
        return session.run(test_dir)
