import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "sde_ptf"))        # ptf_run, sde_python
sys.path.insert(0, str(HERE.parent / "softswitch"))     # bfp4c_goldens (regen.py)

from sde_python import build, missing_reason  # noqa: E402


@pytest.fixture(scope="session")
def sde_python_dir(tmp_path_factory) -> Path:
    """The SDE's ``bfrt_grpc`` and ``p4testutils``, built once per session (as
    tests/sde_ptf does); skips naming what is missing."""
    why = missing_reason()
    if why:
        pytest.skip(why)
    return build(tmp_path_factory.mktemp("sde-python"))
