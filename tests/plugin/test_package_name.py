"""The harness's import name does not clash with PyPI's ``fixtures`` (a testtools
dependency, installed in our venv on purpose): ours is ``atp_fixtures`` (the folder
``fixtures/``, mapped by setup.py), and ``fixtures/`` is not a regular package, so even
with the repository first on ``sys.path`` ``import fixtures`` finds PyPI's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_folder_is_not_an_importable_fixtures_package():
    assert not (ROOT / "fixtures" / "__init__.py").exists(), (
        "fixtures/__init__.py would make the folder shadow PyPI's fixtures for any "
        "process started in the repository")


def test_pypi_fixtures_and_ours_import_side_by_side():
    """From the repository root (its folder first on sys.path, as ``python -m`` and
    pytest run it), PyPI's ``fixtures`` is the one ``import fixtures`` gets, and ours
    is whole under ``atp_fixtures``."""
    out = _python("import sys; sys.path.insert(0, '.'); import fixtures, atp_fixtures.plugin, "
                  "atp_fixtures.oracles.comparator as c; "
                  "print(fixtures.Fixture.__module__, c.__file__)")
    pypi_module, ours = out.split()
    assert pypi_module.startswith("fixtures."), out
    assert Path(ours) == ROOT / "fixtures" / "oracles" / "comparator.py"


def test_the_pytest_plugin_loads_by_its_entry_point():
    out = _python("from importlib.metadata import entry_points; "
                  "print([e.value for e in entry_points(group='pytest11') if e.name == 'atp'])")
    assert out == "['atp_fixtures.plugin']"
