"""The Tofino SDE's own TNA example programs and their unmodified PTF tests
(open-p4studio ``pkgsrc/p4-examples/p4_16_programs/tna_*``) run against the softswitch
the way the SDE's ``run_p4_tests.sh`` runs them against the Tofino model: a 4-pipe
device (``--num-pipes`` defaults to 4 there), the example's ``ports.json`` device ports
(else ports 0..8, ``--max-ports 9``) plus the CPU port 64, and the test parameters
``run_ptf_tests.py`` passes (``arch='tofino'``, ``num_pipes='4'`` ...). Nothing of
open-p4studio is copied here: the user names a checkout (``OPEN_P4STUDIO``).

    sudo .venv/bin/python tests/sde_ptf/sde_examples.py /path/to/open-p4studio [tna_x ...]

prints one line per test class (``pass``/``fail``/``error``/``not run``) and the pass
count per example; ``docs/sde-examples.md`` records the counts.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from p4sim.switchd.launch import LaunchError, SwitchdProcess, VethPairs  # noqa: E402

from ptf_run import not_runnable_reason, ptf_command  # noqa: E402

EXAMPLES_SUBDIR = Path("pkgsrc/p4-examples/p4_16_programs")
ENV_VAR = "OPEN_P4STUDIO"
NUM_PIPES = 4            # run_ptf_tests.py's --num-pipes default
DEFAULT_PORTS = tuple(range(9))    # --max-ports 9 from port 0 (arch tofino)
CPU_PORT = 64
EXAMPLE_TIMEOUT_S = 1200
# what run_ptf_tests.py passes besides the gRPC address (its defaults)
SDE_TEST_PARAMS = {"num_pipes": str(NUM_PIPES), "use_pi": "False", "traffic_gen": "None",
                   "config_file": "filename", "drivers_test_info": "None",
                   "test_seed": "None", "pkt_size": "100", "port_mode": "100g",
                   "counter_byte_adjust": "0", "p4c": "", "thrift_server": "localhost",
                   "reboot": "none"}
# the 14 examples issue 30 counts (87 test classes; tna_counter and tna_multicast import
# the Thrift PD base class, out of scope); every tna_* runs when named
ISSUE_EXAMPLES = ("tna_bridged_md", "tna_checksum", "tna_counter", "tna_digest",
                  "tna_exact_match", "tna_lpm_match", "tna_meter_bytecount_adjust",
                  "tna_mirror", "tna_multicast", "tna_port_metadata", "tna_range_match",
                  "tna_register", "tna_resubmit", "tna_ternary_match")
# unittest's verbose line: "test.Class ... ", or "test.Class" then the docstring's first
# line and " ... "
STARTED = re.compile(r"^\w+\.(\w+)(?: \.\.\. |\n.*? \.\.\. )", re.M)
FAILED = re.compile(r"^(FAIL|ERROR): \w+\.(\w+)", re.M)
FINISHED = re.compile(r"^Ran \d+ tests? in", re.M)


def outcomes(output: str) -> dict[str, str]:
    """Each started class's outcome from ptf's output (the test's own prints come
    between a class's ``... `` and its verdict, so the verdicts are read from the
    FAIL/ERROR sections): a class that started and is in none passed, unless ptf never
    finished, when the last one started is ``timeout``."""
    started = STARTED.findall(output)
    out = {c: "pass" for c in started}
    for kind, cls in FAILED.findall(output):
        if out.get(cls) != "fail":
            out[cls] = "fail" if kind == "FAIL" else "error"
    if started and not FINISHED.search(output):
        out[started[-1]] = "timeout"
    return out


def examples_dir(root: str | os.PathLike | None = None) -> Path | None:
    """``p4_16_programs`` of the checkout at ``root`` (default ``$OPEN_P4STUDIO``), or
    None when there is none."""
    root = root or os.environ.get(ENV_VAR)
    if not root:
        return None
    for d in (Path(root) / EXAMPLES_SUBDIR, Path(root)):
        if (d / "tna_exact_match").is_dir():
            return d
    return None


def example_names(d: Path) -> list[str]:
    return sorted(p.name for p in d.iterdir() if p.name.startswith("tna_")
                  and (p / f"{p.name}.p4").is_file() and (p / "test.py").is_file())


def test_classes(test_py: Path) -> list[str]:
    """Classes of ``test.py`` that ptf runs: those with a ``runTest``."""
    text = test_py.read_text(encoding="utf-8")
    out = []
    for m in re.finditer(r"^class (\w+)\(.*?\):(.*?)(?=^class |\Z)", text, re.M | re.S):
        if re.search(r"^\s+def runTest\(", m.group(2), re.M):
            out.append(m.group(1))
    return out


def device_ports(example: Path) -> list[int]:
    """The example's ``ports.json`` device ports (``PortToVeth``), else 0..8; and the
    CPU port."""
    pj = example / "ports.json"
    ports = list(DEFAULT_PORTS)
    if pj.is_file():
        ports = [e["device_port"] for e in json.loads(pj.read_text()).get("PortToVeth", [])]
    return sorted(set(ports) | {CPU_PORT})


@dataclass
class ExampleResult:
    name: str
    classes: dict[str, str] = field(default_factory=dict)   # class -> outcome
    note: str = ""

    @property
    def passed(self) -> int:
        return sum(1 for o in self.classes.values() if o == "pass")


def run_example(example: Path, sde_python: Path, work: Path,
                pipes: int = NUM_PIPES) -> ExampleResult:
    """One example on a fresh softswitch of ``pipes`` pipes (the SDE's 4); every
    class's outcome."""
    res = ExampleResult(example.name, {c: "not run" for c in test_classes(example / "test.py")})
    why = not_runnable_reason(example, sde_python)
    if why:
        res.note = why
        return res
    ports = device_ports(example)
    try:
        with VethPairs(len(ports), tag="sdex") as veths:
            switch_side = dict(zip(ports, veths.switch))
            ptf_side = dict(zip(ports, veths.peer))
            with SwitchdProcess(example / f"{example.name}.p4", switch_side,
                                p4_name=example.name,
                                extra_args=["--pipes", str(pipes)] if pipes > 1 else []) as sd:
                cmd = ptf_command(example, sde_python, ptf_side, sd.address,
                                  work / f"{example.name}-ptf.log", SDE_TEST_PARAMS)
                try:
                    r = subprocess.run(cmd, capture_output=True, text=True, cwd=work,
                                       timeout=EXAMPLE_TIMEOUT_S)
                    out = r.stdout + r.stderr
                except subprocess.TimeoutExpired as e:
                    out = (e.stdout or b"").decode() + (e.stderr or b"").decode()
                    res.note = f"ptf timed out after {EXAMPLE_TIMEOUT_S} s"
    except LaunchError as e:
        res.note = f"cannot start the softswitch: {e}"
        return res
    (work / f"{example.name}-ptf.out").write_text(out)
    res.classes.update(outcomes(out))
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkout", nargs="?", help=f"open-p4studio checkout (default ${ENV_VAR})")
    ap.add_argument("examples", nargs="*",
                    help="example names, or 'all' for every tna_* (default: the 14 of "
                         "ISSUE_EXAMPLES)")
    ap.add_argument("--work", help="where logs go (default: a temporary directory)")
    ap.add_argument("--pipes", type=int, choices=(1, 2, 4), default=NUM_PIPES,
                    help="the softswitch's pipes (default 4, as run_p4_tests.sh's model; 1 "
                         "runs it without --pipes, as a softswitch before pipes)")
    args = ap.parse_args(argv)
    d = examples_dir(args.checkout)
    if d is None:
        print(f"no open-p4studio examples at {args.checkout or '$' + ENV_VAR}: give the "
              f"checkout's root (with {EXAMPLES_SUBDIR})", file=sys.stderr)
        return 2
    from sde_python import build, missing_reason
    why = missing_reason()
    if why:
        print(why, file=sys.stderr)
        return 2
    work = Path(args.work or tempfile.mkdtemp(prefix="sde-examples-"))
    work.mkdir(parents=True, exist_ok=True)
    sde_python = build(work / "sde-python")
    total = passed = 0
    names = args.examples or list(ISSUE_EXAMPLES)
    if names == ["all"]:
        names = example_names(d)
    for name in names:
        res = run_example(d / name, sde_python, work, args.pipes)
        for cls, outcome in res.classes.items():
            print(f"{name}.{cls}: {outcome}", flush=True)
        print(f"== {name}: {res.passed}/{len(res.classes)} passed"
              + (f" ({res.note})" if res.note else ""), flush=True)
        total += len(res.classes)
        passed += res.passed
    print(f"== total: {passed}/{total} classes passed; logs in {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
