"""Which packages install, and under which import names (the rest is in pyproject.toml).

The harness lives in the folder ``fixtures/`` (the layout users know: ``fixtures/testbeds``,
``fixtures/corpus``) but imports as ``atp_fixtures``: PyPI's widely used ``fixtures``
package (a testtools dependency) must not be shadowed by ours, nor ours by it.
``fixtures/`` itself has no ``__init__.py``, so even with the repository on ``sys.path``
``import fixtures`` finds PyPI's (tests/plugin/test_package_name.py holds both).
"""
from setuptools import find_packages, setup

HARNESS = ["atp_fixtures"] + [f"atp_fixtures.{p}" for p in find_packages("fixtures")]

setup(
    packages=find_packages(include=["reference*", "p4sim*", "p4src*", "host_stack*",
                                    "reports*", "bfruntime*"]) + HARNESS,
    package_dir={name: "fixtures/" + name.removeprefix("atp_fixtures").lstrip(".").replace(".", "/")
                 for name in HARNESS},
)
