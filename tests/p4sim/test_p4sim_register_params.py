"""RegisterParam in p4sim: RegisterActions read the value the control plane set, the
program's initial value until then and after a reset."""
from pathlib import Path

import pytest

import p4sim

from p4sim_helpers import eth

PROGRAM = (Path(__file__).resolve().parents[1] / "sde_ptf" / "ptf" / "register_param"
           / "register_param.p4")


@pytest.fixture
def sw():
    sw = p4sim.Switch(p4sim.compile_file(str(PROGRAM)))
    sw.table_add("forward", {"hdr.ethernet.dst_addr": 1}, "hit", {"port": 4})
    return sw


def passed(sw, n, src=0x2A):
    return [bool(sw.inject(1, eth(1, src) + bytes(46))) for _ in range(n)]


def test_the_budget_is_the_register_param(sw):
    assert sw.register_param_read("budget") == 2
    assert passed(sw, 3) == [True, True, False]
    sw.register_param_set("SwitchIngress.budget", 4)
    assert passed(sw, 3) == [True, True, False]
    assert sw.register_read("used", 0x2A) == 4
    sw.register_param_reset("budget")
    assert sw.register_param_read("budget") == 2
    assert passed(sw, 1, src=0x2B) == [True]
    with pytest.raises(p4sim.ControlPlaneError, match="does not fit in bit<32>"):
        sw.register_param_set("budget", 1 << 32)
