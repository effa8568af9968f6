"""``python -m tests.mutants.host_process worker|ps ARGS...``: one host-stack process
(``host_stack.worker`` / ``host_stack.ps``) with the host-stack mutant named by
``ATP_MUTANT`` applied in it (tests/mutants/plugin.py ``HOST_STACK_MUTANTS``).

A host-stack run starts its hosts as processes, so a mutant patched into the pytest
process would not reach them; the plugin points the run's command templates here.
"""

from __future__ import annotations

import os
import sys

from tests.mutants.plugin import HOST_STACK_MUTANTS


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("worker", "ps"):
        print("usage: python -m tests.mutants.host_process worker|ps ARGS...",
              file=sys.stderr)
        return 2
    name = os.environ.get("ATP_MUTANT", "")
    if name in HOST_STACK_MUTANTS:
        owner, attribute, replacement = HOST_STACK_MUTANTS[name]
        setattr(owner, attribute, replacement)
    if argv[0] == "worker":
        from host_stack.worker import main as role_main
    else:
        from host_stack.ps import main as role_main
    return role_main(argv[1:])


if __name__ == "__main__":
    from host_stack.cli import run_main
    run_main(lambda: main(sys.argv[1:]))
