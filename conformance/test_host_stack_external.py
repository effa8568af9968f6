"""An external host stack judged like ours (``--host-stack=command``).

The testbed file (``--testbed``) names the external worker and PS programs as command
templates (see ``host_stack.session.HostStackCommand`` for the fields and
``host_stack/results.py`` for the result file they must write)::

    host_stack:
      worker: my-worker --scenario {scenario} --host {host} --iface {iface} --out {out}
      ps: my-ps --scenario {scenario} --host {host} --iface {iface} --ready {ready}

They run in the same namespaces, over the same fabric and faults, and the same checks
as for ours apply (conformance/test_host_stack.py). Without ``--host-stack=command`` or
without templates these tests skip and say which is missing.
"""

from __future__ import annotations

import pytest

from atp_fixtures.oracles.host_timing import external_timer
from atp_fixtures.targets.testbed import load_testbed
from host_stack.session import HostStackCommand

from conformance.test_host_stack import (
    assert_host_rules_and_exact_results, assert_wire_carries_gradients, fabric, load,
    run_scenario_here,
)

__all__ = ["fabric"]  # the module-scoped fixture, shared with test_host_stack.py


@pytest.fixture(scope="module")
def external(request) -> HostStackCommand:
    if request.config.getoption("--host-stack", default="ours") != "command":
        pytest.skip("no external host stack: pass --host-stack=command and a --testbed "
                    "whose host_stack section has worker and ps command templates")
    path = request.config.getoption("--testbed", default=None)
    if not path:
        pytest.skip("--host-stack=command needs --testbed FILE with a host_stack section")
    templates = load_testbed(path, check_interfaces=False).host_stack
    if not templates:
        pytest.skip(f"testbed {path} has no host_stack section (worker and ps templates)")
    return HostStackCommand.from_testbed(templates, f"external ({path})")


@pytest.mark.parametrize("name", ["parameter-loss", "overflow-switch-saturation",
                                  "collisions-small-pool"])
def test_external_host_stack_is_exactly_once(request, fabric, external, name):
    run = run_scenario_here(request, load(name), fabric, "host_stack_external",
                            command=external)
    assert_host_rules_and_exact_results(run, external_timer(run.timeout_us))
    assert assert_wire_carries_gradients(run) > 0
