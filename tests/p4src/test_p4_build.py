"""--p4-build: the p4sim target runs either its wide build of p4src/atp.p4 or exactly
the build bf-p4c compiles for a Tofino (no ATP_POOL_MAX define), and scenarios are
kept within the build's pool."""

from __future__ import annotations

import pytest

from reference.scenario import Scenario
from reference.topology import Rack, Topology

from atp_fixtures.running.closed_loop import within_pool
from atp_fixtures.targets import open_target
from atp_fixtures.targets.base import TargetError
from atp_fixtures.targets.p4sim import compiled_program
from p4src.control.aggregation import TOFINO_POOL_MAX, pool_slots
from test_p4src_target import _config


def test_the_tofino_build_is_the_program_default_4096_pool():
    target = open_target("p4sim", p4_build="tofino")
    assert target.scenario_pool_max == TOFINO_POOL_MAX
    target.setup(_config(pool_size=TOFINO_POOL_MAX))
    program = compiled_program(False, None)
    # level ++ agtr: two levels of 2^12 cells, as bf-p4c lays the default build out
    assert program.registers["Ingress.aggregator.owner_stamp"].size == 2 * pool_slots(4096)
    assert compiled_program(False).registers["Ingress.aggregator.owner_stamp"].size == \
        2 * pool_slots(1 << 16)


def test_the_tofino_build_refuses_a_larger_pool_naming_the_build():
    target = open_target("p4sim", p4_build="tofino")
    with pytest.raises(TargetError, match=r"outside 1\.\.4096, the pool of the 'tofino' build"):
        target.setup(_config(pool_size=TOFINO_POOL_MAX + 1))


def test_scenarios_are_kept_within_the_build_pool():
    scenario = Scenario(topology=Topology((Rack("tor0", ("h0", "h1")),)), jobs=(),
                        pool_size=20000)
    assert within_pool(scenario, 4096).pool_size == 4096
    assert within_pool(scenario, None) is scenario
    small = within_pool(scenario, 4096)
    assert within_pool(small, 4096) is small
    assert open_target("p4sim").scenario_pool_max == 1 << 16
