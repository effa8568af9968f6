"""p4src/atp.p4 through the real Tofino compiler: what bf-p4c rejects, a Tofino cannot
run, whatever p4sim accepts.

Known and documented (p4src/README.md, "Compile status"): bf-p4c's back end places the
program in 26 stages of Tofino 1's 12 (value registers of ATP_POOL_MAX=20000 go two per
stage, bound by map RAM, after a 9-stage preamble). This test holds that line: every
other error fails it, the BfRuntime names the control plane uses must be in bfrt.json,
and a full success passes it too. While the overrun stands the test reports it as an
expected failure (xfail, with the compiler's own stage line), never as a pass: a gate
must not call a program that cannot be loaded on a Tofino green."""

from __future__ import annotations

import json
import subprocess

import pytest

from bf_p4c_finder import REPO, find_bf_p4c

PROGRAM = REPO / "p4src" / "atp.p4"
COMPILE_TIMEOUT_S = 3600
KNOWN_ERRORS = ("tofino supports up to 12 stages", "Due to errors, no binary will be generated")
CONTROL_PLANE_NAMES = (
    "pipe.Ingress.forwarding.job_route", "pipe.Ingress.forwarding.l2",
    "pipe.Ingress.aggregator_index.pool_index", "pipe.Egress.ecn_marking.ecn_config",
    "pipe.Ingress.aggregator.owner_stamp", "pipe.Ingress.aggregator.bitmap",
    "pipe.Ingress.aggregator.count", "pipe.Ingress.aggregator.ecn",
    "pipe.Ingress.aggregator_values.values_0", "pipe.Ingress.aggregator_values.values_30")


@pytest.mark.slow
def test_bf_p4c_compiles_atp_p4(tmp_path):
    bf_p4c, looked = find_bf_p4c()
    if bf_p4c is None:
        pytest.skip("no bf-p4c found; looked at: " + "; ".join(looked))
    out = tmp_path / "out"
    cmd = [bf_p4c, "--target", "tofino", "--arch", "tna", "-o", str(out), str(PROGRAM)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
    errors = [line for line in (done.stdout + done.stderr).splitlines()
              if "error" in line.lower() and "0 errors" not in line]
    unexpected = [e for e in errors if not any(k in e for k in KNOWN_ERRORS)]
    assert not unexpected, (f"bf-p4c rejects p4src/atp.p4 ({' '.join(cmd)}):\n"
                            + "\n".join(unexpected[:40]))
    schema = json.loads((out / "bfrt.json").read_text())
    names = {t["name"] for t in schema["tables"]}
    missing = [n for n in CONTROL_PLANE_NAMES if n not in names]
    assert not missing, f"bfrt.json lacks {missing}; p4src/control addresses them by name"
    overrun = [e for e in errors if KNOWN_ERRORS[0] in e]
    if overrun:
        pytest.xfail("p4src/atp.p4 does not fit Tofino 1 (p4src/README.md, Compile status): "
                     + overrun[0].strip())
