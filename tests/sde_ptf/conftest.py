import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "softswitch"))

from sde_python import build, missing_reason  # noqa: E402


@pytest.fixture(scope="session")
def sde_python(tmp_path_factory) -> Path:
    """The directory holding the SDE's ``bfrt_grpc`` and ``p4testutils`` (built once
    per session in a temporary directory); skips, naming what is missing, without
    ../shared/tools/sde-python."""
    why = missing_reason()
    if why:
        pytest.skip(why)
    return build(tmp_path_factory.mktemp("sde-python"))


@pytest.fixture(scope="session")
def sde_client(sde_python):
    """The SDE's ``bfrt_grpc.client`` module, imported in this process (its stubs and
    ours are the same descriptor, so both load side by side)."""
    for p in (str(sde_python), str(sde_python / "p4testutils")):
        if p not in sys.path:
            sys.path.append(p)
    try:
        import bfrt_grpc.client as gc
    except TypeError as e:     # protobuf refuses a second, different bfruntime.proto
        pytest.fail(f"the SDE's bfruntime.proto ({sde_python}/bfrt_grpc) differs from "
                    f"bfruntime/bfruntime.proto, so both cannot load in one process: {e}; "
                    f"bring ours up to the SDE's and run make bfruntime-stubs")
    return gc
