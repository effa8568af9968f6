"""p4src/atp.p4 compiles with the real Tofino compiler (both builds): what bf-p4c
rejects, a Tofino cannot run, whatever p4sim accepts."""

from __future__ import annotations

import json
import subprocess

import pytest

from bf_p4c_finder import REPO, find_bf_p4c

PROGRAM = REPO / "p4src" / "atp.p4"
COMPILE_TIMEOUT_S = 1800


def _compile(tmp_path, *defines: str):
    bf_p4c, looked = find_bf_p4c()
    if bf_p4c is None:
        pytest.skip("no bf-p4c found; looked at: " + "; ".join(looked))
    out = tmp_path / "out"
    cmd = [bf_p4c, "--target", "tofino", "--arch", "tna", "-o", str(out),
           *[f"-D{d}" for d in defines], str(PROGRAM)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
    errors = [line for line in (done.stdout + done.stderr).splitlines()
              if "error" in line.lower()]
    assert done.returncode == 0, (f"bf-p4c rejected p4src/atp.p4 ({' '.join(cmd)}):\n"
                                  + "\n".join(errors[:40]))
    return out


@pytest.mark.slow
def test_spec_build_compiles_for_tofino(tmp_path):
    out = _compile(tmp_path)
    schema = json.loads((out / "bfrt.json").read_text())
    names = {t["name"] for t in schema["tables"]}
    # the control plane (p4src/control) addresses these by exactly these names
    for name in ("pipe.Ingress.forwarding.job_route", "pipe.Ingress.forwarding.l2",
                 "pipe.Ingress.aggregator_index.pool_index",
                 "pipe.Egress.ecn_marking.ecn_config",
                 "pipe.Ingress.aggregator.owner_stamp",
                 "pipe.Ingress.aggregator_values.values_30"):
        assert name in names, f"bfrt.json lacks {name}"


@pytest.mark.slow
def test_release_build_compiles_for_tofino(tmp_path):
    _compile(tmp_path, "ATP_RELEASE")
