"""Mutants of the P4 program: a patched copy of p4src/ (one rule broken in the P4 source)
runs the conformance suite on --target=p4sim, which must fail with a field-level report
naming the property (the conformance module) and the first divergent frame."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# name: (file, text in the program, replacement, conformance -k selection, field named)
MUTANTS = {
    "completion_at_n_minus_1": (
        "aggregation.p4", "if (md.count == md.n) {", "if (md.count + 1 == md.n) {",
        "corpus and absorbed", "bitmap"),
    "resend_does_not_release": (
        "aggregation.p4", "c.owner = 0;\n                c.stamp = md.clock;",
        "c.owner = md.id;\n                c.stamp = md.clock;",
        "corpus and flush", "owner"),
    "duplicates_not_masked": (
        "aggregation.p4", "rv = md.b & ~value;\n            value = value | md.b;",
        "rv = md.b;\n            value = value | md.b;",
        "corpus and duplicate", "values"),
    "ecn_not_propagated": (
        "atp.p4", "                    hdr.atp.ecn = 1;\n", "",
        "corpus and ipv4", "flags"),
    "collision_flag_not_set": (
        "atp.p4", "hdr.atp.collision = 1;", "hdr.atp.collision = 0;",
        "corpus and collision", "flags"),
    "saturation_not_sticky": (
        "parser.p4", "md.sticky_base = 0x7fffffff;", "md.sticky_base = 0x40000000;",
        "corpus and sticky", "values"),
}


def _mutant_copy(tmp_path: Path, name: str) -> Path:
    file, old, new, _, _ = MUTANTS[name]
    copy = tmp_path / "p4src"
    shutil.copytree(ROOT / "p4src", copy, ignore=shutil.ignore_patterns("control", "*.py"))
    source = (copy / file).read_text()
    assert source.count(old) == 1, f"mutant {name}: {old!r} must occur once in {file}"
    (copy / file).write_text(source.replace(old, new))
    return copy


def _suite(selection: str, p4src: Path | None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("PYTEST_XDIST_WORKER", None)
    if p4src is not None:
        env["ATP_P4SRC"] = str(p4src)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "conformance/test_wire_conformance.py", "-k",
         selection, "--target=p4sim", "-p", "no:cacheprovider", "-q", "-x",
         "-o", "addopts=--strict-markers"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_wire_conformance_catches_p4_mutant(name, tmp_path):
    _, _, _, selection, field = MUTANTS[name]
    result = _suite(selection, _mutant_copy(tmp_path, name))
    output = result.stdout + result.stderr
    assert result.returncode == 1, (f"the suite should FAIL on P4 mutant {name} "
                                    f"(exit {result.returncode}):\n{output[-3000:]}")
    for evidence in ("test_wire_conformance", "diverges on target 'p4sim'",
                     "first divergence", field):
        assert evidence in output, f"the report lacks {evidence!r}:\n{output[-3000:]}"


@pytest.mark.slow
def test_selections_pass_on_the_intact_program():
    """Control: the same selections pass on p4src/ as it is."""
    selection = " or ".join(f"({m[3]})" for m in MUTANTS.values())
    result = _suite(selection, None)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
