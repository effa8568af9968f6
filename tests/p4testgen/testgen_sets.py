"""The committed P4Testgen test sets and their triage, as the tests here read them.

A test set is a folder ``tests/p4testgen/generated/<name>/`` (``regen.py`` writes it) or
``tests/p4testgen/handwritten/<name>/`` (tests written by hand in P4Testgen's exact PTF
format, to test the runner; never counted as generated) holding:

- ``<p4 name>.py``: the PTF file as P4Testgen wrote it, unmodified (``ptf --test-dir``
  runs it as is against the softswitch);
- ``bfrt.json``: bf-p4c's BfRuntime schema for the same build of the program (the names
  a Tofino user's client resolves; filtered of bf-p4c's internal tables);
- ``provenance.json``: the program and build (source, defines, include folders), and for a
  generated set the p4c commit of P4Testgen, its exact command, seed, statement coverage.

``triage.yaml`` lists the disagreements that are not p4sim bugs: each a strict xfail with
its reason and evidence, and where the reason is one of P4Testgen's simplifications that
p4sim can take on (``confirm``), a check that with it p4sim agrees.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import yaml

import ptf_format

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
GENERATED = HERE / "generated"
HANDWRITTEN = HERE / "handwritten"
TRIAGE = HERE / "triage.yaml"
PROGRAMS = HERE / "programs.yaml"
TRIAGE_KINDS = ("p4testgen-model", "p4testgen-ptf-template", "p4sim-limitation")
RUNS = ("p4sim", "softswitch")      # where a disagreement shows: in process, through ptf


P4C_PREFIX = "p4c:"
P4C_TESTS = "backends/p4tools/modules/testgen/targets/tofino/test/p4-programs"


class ProgramMissing(Exception):
    """A set's program is not on this machine; the message says where it was looked for."""


def program_path(program: str) -> Path:
    """The file of a ``program:`` of programs.yaml: relative to the repository, or
    ``p4c:PATH`` inside a p4c source tree named by ``$P4C_SRC``. P4Testgen's own Tofino
    test programs stay in p4c (code from elsewhere is never copied here): their sets run
    where a p4c tree is at hand (the one P4Testgen was built from, e.g. the build's
    ``WORKDIR/src/p4c``), and skip naming ``$P4C_SRC`` elsewhere."""
    if not program.startswith(P4C_PREFIX):
        return REPO / program
    root = os.environ.get("P4C_SRC")
    if not root:
        raise ProgramMissing(f"{program}: set P4C_SRC to a p4c source tree (the commit in "
                             f"the set's provenance.json; P4Testgen's build keeps one in "
                             f"WORKDIR/src/p4c) to run P4Testgen's own test programs")
    path = Path(root) / program[len(P4C_PREFIX):]
    if not path.is_file():
        raise ProgramMissing(f"{program}: no {path}; is $P4C_SRC ({root}) a p4c tree at "
                             f"the commit of the set's provenance.json?")
    return path


@dataclass
class GeneratedSet:
    name: str
    folder: Path
    provenance: dict
    ptf_file: Path

    @property
    def program(self) -> Path:
        return program_path(self.provenance["program"])

    @property
    def defines(self) -> dict[str, str | None]:
        return dict(self.provenance.get("defines") or {})

    @property
    def include_dirs(self) -> list[Path]:
        return [REPO / d for d in self.provenance.get("include_dirs", [])]

    @property
    def p4_name(self) -> str:
        return self.provenance["p4_name"]

    @property
    def bfrt_json(self) -> Path:
        return self.folder / "bfrt.json"

    @property
    def handwritten(self) -> bool:
        return self.folder.parent == HANDWRITTEN

    def read(self) -> ptf_format.GeneratedFile:
        return ptf_format.read(self.ptf_file)


def load_sets(root: Path) -> list[GeneratedSet]:
    """The sets under ``root``; a hand-written set's name is ``handwritten-<folder>``, so
    it never shadows a generated set of the same program."""
    out = []
    prefix = "handwritten-" if root == HANDWRITTEN else ""
    for prov in sorted(root.glob("*/provenance.json")):
        p = json.loads(prov.read_text())
        out.append(GeneratedSet(prefix + prov.parent.name, prov.parent, p,
                                prov.parent / f"{p['p4_name']}.py"))
    return out


@dataclass(frozen=True)
class Triage:
    test_set: str
    tests: tuple[str, ...]
    kind: str
    reason: str
    evidence: str
    runs: tuple[str, ...] = RUNS
    # the model changes (p4sim_replay.ModelChanges.named) under which p4sim agrees: the
    # reason checked (test_p4testgen_on_p4sim.py), for entries where it can be
    confirm: tuple[str, ...] = ()


def triage(path: Path = TRIAGE) -> list[Triage]:
    """Every entry of ``triage.yaml``; a malformed one raises ValueError naming it."""
    if not path.exists():
        return []
    doc = yaml.safe_load(path.read_text()) or []
    out = []
    for i, e in enumerate(doc):
        where = f"{path}: entry {i + 1}"
        required = {"test_set", "tests", "kind", "reason", "evidence"}
        if not isinstance(e, dict) or not required <= set(e) <= required | {"runs", "confirm"}:
            raise ValueError(f"{where}: needs test_set, tests, kind, reason, evidence "
                             f"(and optionally runs, confirm)")
        if e["kind"] not in TRIAGE_KINDS:
            raise ValueError(f"{where}: kind must be one of {TRIAGE_KINDS}, got {e['kind']!r}")
        runs = tuple(e.get("runs", RUNS))
        if not set(runs) <= set(RUNS):
            raise ValueError(f"{where}: runs must be among {RUNS}, got {list(runs)}")
        out.append(Triage(e["test_set"], tuple(e["tests"]), e["kind"], e["reason"].strip(),
                          e["evidence"].strip(), runs, tuple(e.get("confirm") or ())))
    return out


def xfail_reason(entries: list[Triage], test_set: str, test: str,
                 run: str = "p4sim") -> str | None:
    """Why ``test`` of ``test_set`` is expected to fail on ``run``, or None."""
    for e in entries:
        if e.test_set == test_set and test in e.tests and run in e.runs:
            return f"{e.kind}: {e.reason} Evidence: {e.evidence}"
    return None


def softswitch_ci_sets(path: Path = PROGRAMS) -> list[str]:
    """The generated sets whose PTF files ``make test`` runs against the softswitch."""
    return list((yaml.safe_load(path.read_text()) or {}).get("softswitch_ci") or [])
