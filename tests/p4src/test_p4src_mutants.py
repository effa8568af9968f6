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
    return patched_copy(tmp_path, name, file, old, new)


def patched_copy(tmp_path: Path, name: str, file: str, old: str, new: str) -> Path:
    """A copy of p4src/ (the P4 files) with ``old`` replaced by ``new`` in ``file``."""
    copy = tmp_path / "p4src"
    shutil.copytree(ROOT / "p4src", copy, ignore=shutil.ignore_patterns("control", "*.py"))
    source = (copy / file).read_text()
    assert source.count(old) == 1, f"mutant {name}: {old!r} must occur once in {file}"
    (copy / file).write_text(source.replace(old, new))
    return copy


def suite(selection: str, p4src: Path | None, *options: str,
          module: str = "test_wire_conformance.py") -> subprocess.CompletedProcess:
    """The conformance module on --target=p4sim (of ``p4src`` if given), -x."""
    env = dict(os.environ)
    env.pop("PYTEST_XDIST_WORKER", None)
    if p4src is not None:
        env["ATP_P4SRC"] = str(p4src)
    return subprocess.run(
        [sys.executable, "-m", "pytest", f"conformance/{module}", "-k",
         selection, "--target=p4sim", "-p", "no:cacheprovider", "-q", "-x",
         "-o", "addopts=--strict-markers", *options],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_wire_conformance_catches_p4_mutant(name, tmp_path):
    _, _, _, selection, field = MUTANTS[name]
    result = suite(selection, _mutant_copy(tmp_path, name))
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
    result = suite(selection, None)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]


# A defect of the Tofino build only: the pool-width ladder of atp.p4 off by one at the
# default ATP_POOL_MAX=4096, which then gets 13-bit register indices (8192 slots per
# level) while the control plane lays level 1 out at 4096: level-1 (upper switch) state
# lands where nobody reads it. Every other ATP_POOL_MAX, the wide p4sim build's 65536
# included, is built exactly as before, so only --p4-build=tofino can see it.
TOFINO_ONLY = ("atp.p4", "#elif ATP_POOL_MAX <= 4096\n", "#elif ATP_POOL_MAX < 4096\n")


@pytest.mark.slow
def test_a_defect_of_the_tofino_build_only_fails_the_tofino_build_gate(tmp_path):
    copy = patched_copy(tmp_path, "tofino_pool_ladder", *TOFINO_ONLY)
    tofino = suite("corpus", copy, "--p4-build=tofino", module="test_two_level.py")
    output = tofino.stdout + tofino.stderr
    assert tofino.returncode == 1, (f"--p4-build=tofino should FAIL on the planted defect "
                                    f"(exit {tofino.returncode}):\n{output[-3000:]}")
    assert "diverged from the reference switch" in output, output[-3000:]
    wide = suite("corpus", copy, module="test_two_level.py")
    assert wide.returncode == 0, ("the wide build does not contain the defect, so it must "
                                  "pass:\n" + (wide.stdout + wide.stderr)[-3000:])
