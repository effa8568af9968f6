import pytest

import p4sim
from p4sim_helpers import compiled


@pytest.fixture
def switch_for():
    def make(name, **kw):
        return p4sim.Switch(compiled(name), **kw)
    return make
