import os
import pytest

import p4sim

PROGRAMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs")
_cache = {}


def compiled(name):
    """Compile tests/p4sim/programs/<name> once per session."""
    if name not in _cache:
        _cache[name] = p4sim.compile_file(os.path.join(PROGRAMS, name))
    return _cache[name]


@pytest.fixture
def switch_for():
    def make(name, **kw):
        return p4sim.Switch(compiled(name), **kw)
    return make
