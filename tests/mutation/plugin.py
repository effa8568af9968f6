"""A pytest plugin for the host mutation run (tests/mutation/host_mutation.py): the run's
worker and PS processes import the host code from ``$ATP_HOST_CODE`` (a copy that the
mutation tool mutates), while the suite that judges them (the reference workers that
replay the captures, the oracles) imports the intact checkout.

    ATP_HOST_CODE=/tmp/copy python -m pytest conformance/test_host_stack.py \
        --target=softswitch -p tests.mutation.plugin
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

from host_stack import session


def host_code_template(template: str, code: Path) -> str:
    """``template`` (a ``{python} -m host_stack.<role>`` command) run on ``code``:
    ``python -P`` keeps the working directory off ``sys.path``, so ``PYTHONPATH``
    comes before the editable install."""
    python = shlex.quote(sys.executable)
    return template.replace(f"{python} -m ",
                            f"env PYTHONPATH={shlex.quote(str(code))} {python} -P -m ", 1)


def pytest_configure(config) -> None:
    code = os.environ.get("ATP_HOST_CODE")
    if not code:
        return
    if not (Path(code) / "host_stack" / "worker.py").is_file():
        raise ValueError(f"ATP_HOST_CODE={code}: no host_stack/worker.py there; point it "
                         f"at the copy of the host code the mutation run mutates")
    default = session.HostStackCommand()
    session.HostStackCommand.__init__.__defaults__ = (
        host_code_template(default.worker, Path(code)),
        host_code_template(default.ps, Path(code)),
        f"{default.name}, host code from {code}")
