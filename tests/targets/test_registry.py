"""The registry of targets: it knows exactly the drivers of ``fixtures/targets/``, each
declares what the harness asks of a target before opening it, and naming or checking
targets loads no driver's heavy dependencies."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
from collections import Counter

import pytest

import atp_fixtures.targets as targets_package
from atp_fixtures.targets import open_target, registry
from atp_fixtures.targets.base import (ALL_CAPABILITIES, Kind, P4Runner, TargetDriver,
                                       TargetError, TargetOptions, TargetUnavailable)
from atp_fixtures.targets.builds import ATP_BUILDS


def _drivers_defined_in_the_package() -> dict[str, type[TargetDriver]]:
    """Every concrete driver class of a module of fixtures/targets/, by its name."""
    found = {}
    for module_info in pkgutil.iter_modules(targets_package.__path__):
        module = importlib.import_module(f"{targets_package.__name__}.{module_info.name}")
        for cls in vars(module).values():
            if (inspect.isclass(cls) and issubclass(cls, TargetDriver)
                    and cls.__module__ == module.__name__ and not inspect.isabstract(cls)):
                found[cls.name] = cls
    return found


def test_the_registry_knows_exactly_the_drivers_of_the_package():
    defined = _drivers_defined_in_the_package()
    assert set(registry.names()) == set(defined)
    for name in registry.names():
        assert registry.driver_class(name) is defined[name]


@pytest.mark.parametrize("name", registry.names())
def test_each_driver_declares_name_kind_runner_builds_and_capabilities(name):
    cls = registry.driver_class(name)
    assert cls.name == name
    assert isinstance(cls.kind, Kind) and registry.kind(name) is cls.kind
    assert isinstance(cls.p4_runner, P4Runner)
    assert isinstance(cls.capabilities, frozenset) and cls.capabilities
    assert cls.capabilities <= set(ALL_CAPABILITIES)
    assert isinstance(cls.builds, tuple) and set(cls.builds) <= set(registry.builds())
    for build in cls.builds:
        cls.check_build(build)
    with pytest.raises(TargetError, match="unknown p4 build 'nope'"):
        cls.check_build("nope")


def test_the_kinds_and_builds_of_the_targets():
    assert {name: registry.kind(name) for name in registry.names()} == {
        "reference": Kind.IN_PROCESS, "p4sim": Kind.IN_PROCESS,
        "softswitch": Kind.OWN_PROCESS, "tofino-model": Kind.TESTBED,
        "hardware": Kind.TESTBED}
    assert [n for n in registry.names() if registry.kind(n).exclusive] == [
        "tofino-model", "hardware"]
    assert registry.builds() == ATP_BUILDS
    assert [n for n in registry.names() if registry.driver_class(n).builds] == [
        "p4sim", "softswitch"]


def test_an_unknown_target_names_the_known_ones():
    with pytest.raises(registry.UnknownTarget, match="unknown target 'nope'; choose one "
                       "of reference, p4sim, softswitch, tofino-model, hardware"):
        open_target("nope")


def test_p4sim_without_its_program_says_what_is_missing(monkeypatch, tmp_path):
    from atp_fixtures.targets import p4sim
    monkeypatch.setattr(p4sim, "PROGRAM", tmp_path / "atp.p4")
    with pytest.raises(TargetUnavailable, match="the ATP P4 program .* is missing"):
        open_target("p4sim")


def test_contract_members_have_defaults():
    """A driver that keeps no counters and cannot count owned aggregators cheaply says
    so through the contract, so callers never probe it with getattr."""
    class Minimal(TargetDriver):
        name, kind, p4_runner = "minimal", Kind.IN_PROCESS, P4Runner.NONE

        def setup(self, config, profile="spec"): ...
        def inject(self, port, frame, *, time_ns=0, queue_depth=0): ...
        def collect(self, timeout=0.0): return []
        def reset(self): ...

    driver = Minimal.open(TargetOptions())
    assert driver.counters == Counter() and driver.occupied() is None


def test_naming_the_targets_and_opening_p4sim_load_no_heavy_module():
    """--target=p4sim: the plugin, the registry's answers (every driver class is read
    for --p4-build's choices) and a p4sim driver import neither gRPC nor PTF."""
    code = ("import sys\n"
            "import atp_fixtures.plugin\n"
            "from atp_fixtures.targets import open_target, registry\n"
            "registry.builds(); [registry.kind(n) for n in registry.names()]\n"
            "open_target('p4sim')\n"
            "print(sorted(m for m in ('grpc', 'ptf', 'scapy', 'p4src.control.bfrt')\n"
            "             if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
