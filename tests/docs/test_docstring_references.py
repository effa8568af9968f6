"""A docstring that sends a reader to ``atp_fixtures.x.y`` names something that exists:
the harness's and the suite's docstrings are how a newcomer finds their way, and a
reference to a name that was renamed or never existed (``atp_fixtures.plugin.require``
once) sends them nowhere."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = re.compile(r"``(atp_fixtures(?:\.\w+)+)(?:\(\))?``")


def _resolves(dotted: str) -> bool:
    """The longest importable module prefix, then attributes for the rest."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(obj, name):
                return False
            obj = getattr(obj, name)
        return True
    return False


def test_every_dotted_reference_in_the_harness_names_something_real():
    sources = sorted((ROOT / "fixtures").rglob("*.py")) + sorted(
        (ROOT / "conformance").glob("*.py"))
    references = {(path.relative_to(ROOT).as_posix(), ref) for path in sources
                  for ref in REFERENCE.findall(path.read_text())}
    assert len(references) >= 20, references      # the pattern still finds them
    dangling = sorted(r for r in references if not _resolves(r[1]))
    assert not dangling, f"docstrings name what does not exist: {dangling}"


def test_a_dangling_reference_is_found():
    assert _resolves("atp_fixtures.plugin.pytest_runtest_setup")
    assert not _resolves("atp_fixtures.plugin.require")
