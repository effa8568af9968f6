"""The Tofino SDE's own Python client (``bfrt_grpc``) and PTF base classes
(``p4testutils``), built from ``../shared/tools/sde-python`` next to the checkout by its
``build.sh`` into a directory outside the project, never copied into it.

Why a build and not an import path: the SDE ships ``bfruntime.proto``, not its stubs;
``build.sh`` runs protoc on it the way the SDE's bf-drivers build does, so what our
server meets is exactly the client a Tofino user runs.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SDE_PYTHON = REPO.parent / "shared" / "tools" / "sde-python"


def missing_reason(root: Path = SDE_PYTHON) -> str | None:
    """Why the SDE client cannot be built here, or None when it can."""
    if not (root / "build.sh").is_file():
        return (f"the Tofino SDE's Python client is not here: {root}/build.sh does not exist "
                f"(../shared/tools/sde-python next to the checkout)")
    try:
        import grpc_tools  # noqa: F401  (protoc for build.sh)
    except ImportError:
        return "grpcio-tools is not installed (build.sh runs its protoc); make .venv/.installed"
    return None


def build(dest: Path, root: Path = SDE_PYTHON) -> Path:
    """Run ``build.sh DEST python``; ``dest`` then goes on PYTHONPATH. Raises
    RuntimeError with build.sh's last words when it fails."""
    r = subprocess.run(["bash", str(root / "build.sh"), str(dest), sys.executable],
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        tail = (r.stderr or r.stdout).strip().splitlines()[-5:]
        raise RuntimeError(f"{root}/build.sh {dest} failed ({r.returncode}): "
                           + " | ".join(tail))
    return dest

