"""python -m atp_fixtures.replay: a saved trace or counterexample replayed on a target,
with the verdict; a difference names the diverging packet's P4 path; bad input and a
target that cannot run are one line and exit status 2."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from atp_fixtures.replay import main
from atp_fixtures.targets import p4sim as p4sim_target

ROOT = Path(__file__).resolve().parents[2]
TRACE = ROOT / "fixtures" / "corpus" / "traces" / "rule-4.3-ownership-collision.json"
SCENARIO = ROOT / "fixtures" / "corpus" / "scenarios" / "parameter-loss.json"


@pytest.fixture(autouse=True)
def _restore_program(monkeypatch):
    """The command chooses the program for the process (use_p4src): undone after."""
    for name in ("P4SRC", "PROGRAM"):
        monkeypatch.setattr(p4sim_target, name, getattr(p4sim_target, name))
    monkeypatch.setattr(p4sim_target, "_programs", {})
    monkeypatch.chdir(ROOT)


def _mutant(tmp_path: Path, file: str, old: str, new: str) -> Path:
    copy = tmp_path / "p4src"
    shutil.copytree(ROOT / "p4src", copy, ignore=shutil.ignore_patterns("control", "*.py"))
    source = (copy / file).read_text()
    assert source.count(old) == 1
    (copy / file).write_text(source.replace(old, new))
    return copy


def test_a_trace_that_conforms(capsys):
    assert main([str(TRACE)]) == 0
    out = capsys.readouterr().out
    assert "on target 'p4sim'" in out and "sha256 " in out
    assert out.rstrip().endswith("verdict: conforms")


def test_a_trace_on_a_broken_program_diverges_and_names_the_p4_action(tmp_path, capsys):
    copy = _mutant(tmp_path, "atp.p4", "hdr.atp.collision = 1;", "hdr.atp.collision = 0;")
    assert main([str(TRACE), f"--p4src={copy}"]) == 1
    out = capsys.readouterr().out
    assert "first divergence: DIFFERS" in out and "verdict: DIVERGES" in out
    assert "action         Ingress.collision_to_ps" in out
    assert f"program {copy / 'atp.p4'}" in out


def test_a_counterexample_in_lockstep(tmp_path, capsys):
    assert main([str(SCENARIO), "--target=reference"]) == 0
    assert "no divergence" in capsys.readouterr().out
    copy = _mutant(tmp_path, "aggregation.p4",
                   "c.owner = 0;\n                c.stamp = md.clock;", "c.owner = 0;")
    assert main([str(SCENARIO), f"--p4src={copy}"]) == 1
    out = capsys.readouterr().out
    assert "diverged from the reference switch" in out
    assert "RegisterAction Ingress.aggregator.claim_resend" in out
    assert out.rstrip().endswith("verdict: DIVERGES")


def test_bad_input_and_an_unavailable_target_are_one_line(tmp_path, capsys):
    (tmp_path / "x.json").write_text(json.dumps({"x": 1}))
    (tmp_path / "y.json").write_text("not json")
    broken = json.loads(TRACE.read_text())
    del broken["switches"]
    (tmp_path / "z.json").write_text(json.dumps(broken))
    for path, says in ((tmp_path / "x.json", "neither a trace"),
                       (tmp_path / "y.json", "not a JSON file"),
                       (tmp_path / "missing.json", "cannot be read"),
                       (tmp_path / "z.json", "switches: expected a dict")):
        assert main([str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("replay: error: ") and says in err and err.count("\n") == 1
    assert main([str(TRACE), "--target=tofino-model"]) == 2
    err = capsys.readouterr().err
    assert "needs --testbed=FILE" in err and err.count("\n") == 1
