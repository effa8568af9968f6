"""Finding bf-p4c, the Tofino compiler, the way every test here does."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED_BF_P4C = REPO.parent / "shared" / "tools" / "bf-p4c" / "bin" / "bf-p4c"


def find_bf_p4c() -> tuple[str | None, list[str]]:
    """(path or None, the places looked): $BF_P4C, $SDE_INSTALL/bin/bf-p4c,
    ../shared/tools/bf-p4c/bin/bf-p4c next to the repository, PATH."""
    looked = []
    candidates = []
    if os.environ.get("BF_P4C"):
        candidates.append(("$BF_P4C", os.environ["BF_P4C"]))
    else:
        looked.append("$BF_P4C (unset)")
    if os.environ.get("SDE_INSTALL"):
        candidates.append(("$SDE_INSTALL/bin/bf-p4c",
                           os.path.join(os.environ["SDE_INSTALL"], "bin", "bf-p4c")))
    else:
        looked.append("$SDE_INSTALL/bin/bf-p4c (SDE_INSTALL unset)")
    candidates.append(("shared tools", str(SHARED_BF_P4C)))
    for label, path in candidates:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path, looked
        looked.append(f"{label}: {path} (not an executable file)")
    on_path = shutil.which("bf-p4c")
    if on_path:
        return on_path, looked
    looked.append("PATH (no bf-p4c)")
    return None, looked
