"""bf-p4c's bfrt.json for the test programs, kept (filtered) as goldens.

``python tests/softswitch/bfp4c_goldens.py [NAME...]`` recompiles every program in
PROGRAMS (or the NAMEd ones) with the real compiler and rewrites tests/softswitch/data/bf-p4c/<name>.bfrt.json, keeping
only the tables the softswitch writes (bf-p4c's internal snapshot and debug-counter tables
are dropped; see p4sim/switchd/bfrt_schema.py) and its $PORT_METADATA table under the
key ``port_metadata``.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
GOLDEN_DIR = HERE / "data" / "bf-p4c"
P4SIM_PROGRAMS = REPO / "tests" / "p4sim" / "programs"
SDE_PTF = REPO / "tests" / "sde_ptf" / "ptf"

# name -> source; every program here is one bf-p4c accepts (atp_mini: bf-p4c writes
# bfrt.json and then fails in the assembler stage, so the control-plane names are final)
PROGRAMS = {
    "l2_forward": P4SIM_PROGRAMS / "l2_forward.p4",
    "registers": P4SIM_PROGRAMS / "registers.p4",
    "tables": P4SIM_PROGRAMS / "tables.p4",
    "traffic_manager": P4SIM_PROGRAMS / "traffic_manager.p4",
    "mirror": P4SIM_PROGRAMS / "mirror.p4",
    "subparser": P4SIM_PROGRAMS / "subparser.p4",
    "atp_mini": P4SIM_PROGRAMS / "atp_mini.p4",
    "counters": HERE / "programs" / "counters.p4",
    # SDE-style PTF programs of tests/sde_ptf (digests, meters, port metadata)
    "digest_learn": SDE_PTF / "digest_learn" / "digest_learn.p4",
    "meters": SDE_PTF / "meters" / "meters.p4",
    "port_metadata": SDE_PTF / "port_metadata" / "port_metadata.p4",
    "entry_handles": SDE_PTF / "entry_handles" / "entry_handles.p4",
    "lpf_wred": SDE_PTF / "lpf_wred" / "lpf_wred.p4",
    "action_selector": REPO / "tests" / "sde_ptf" / "ptf" / "action_selector" / "action_selector.p4",
    "action_selector_deprecated": HERE / "programs" / "action_selector_deprecated.p4",
    "register_param": REPO / "tests" / "sde_ptf" / "ptf" / "register_param" / "register_param.p4",
}


def bf_p4c() -> str | None:
    """The bf-p4c binary: $BF_P4C, else shared/tools beside the repository."""
    cands = [os.environ.get("BF_P4C"),
             str(REPO.parent / "shared" / "tools" / "bf-p4c" / "bin" / "bf-p4c"),
             "/work/shared/tools/bf-p4c/bin/bf-p4c", shutil.which("bf-p4c")]
    return next((c for c in cands if c and os.access(c, os.X_OK)), None)


def keep(table: dict) -> bool:
    n = table["name"]
    return not (n.startswith("pipe.snapshot.") or n == "tbl_dbg_counter"
                or "$PORT_METADATA" in n)


def compile_bfrt(compiler: str, source: Path) -> dict:
    """Run bf-p4c on ``source``; its bfrt.json with only the kept tables."""
    with tempfile.TemporaryDirectory(prefix="softswitch-bfp4c-") as out:
        proc = subprocess.run([compiler, "--target", "tofino", "--arch", "tna", "-o", out,
                               str(source)], capture_output=True, text=True, timeout=600)
        path = Path(out) / "bfrt.json"
        if not path.exists():
            raise RuntimeError(f"bf-p4c wrote no bfrt.json for {source}:\n{proc.stderr[-2000:]}")
        doc = json.loads(path.read_text())
    return split_port_metadata(doc)


def split_port_metadata(doc: dict) -> dict:
    """``doc`` with its $PORT_METADATA table under ``port_metadata`` and only the kept
    tables under ``tables`` (so the goldens written before the softswitch served
    $PORT_METADATA stay valid)."""
    doc["port_metadata"] = next(t for t in doc["tables"] if "$PORT_METADATA" in t["name"])
    doc["tables"] = [t for t in doc["tables"] if keep(t)]
    return doc


def main() -> int:
    compiler = bf_p4c()
    if compiler is None:
        print("bf-p4c not found: set BF_P4C to the compiler binary", file=sys.stderr)
        return 1
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for name, src in PROGRAMS.items():
        if sys.argv[1:] and name not in sys.argv[1:]:
            continue
        doc = compile_bfrt(compiler, src)
        (GOLDEN_DIR / f"{name}.bfrt.json").write_text(json.dumps(doc, indent=1) + "\n")
        print(f"{name}: {len(doc['tables'])} tables")
    return 0


if __name__ == "__main__":
    sys.exit(main())
