"""The harness's modules talk through public names only: no module of ``fixtures/``
imports, or reaches into, a private name (``_x``) of another. Read from the source."""

from __future__ import annotations

import ast
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _module_name(path: Path) -> str:
    """``fixtures/oracles/comparator.py`` -> ``atp_fixtures.oracles.comparator``."""
    parts = ("atp_fixtures",) + path.relative_to(FIXTURES).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _crossings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    own = _module_name(path)
    modules: dict[str, str] = {}   # local name -> fixtures module it is bound to
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("atp_fixtures"):
            for alias in node.names:
                if node.module != own and _private(alias.name):
                    found.append(f"{path.name}:{node.lineno} imports {node.module}."
                                 f"{alias.name}")
                modules[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("atp_fixtures"):
                    modules[alias.asname or alias.name.split(".")[0]] = alias.name
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr)
                and isinstance(node.value, ast.Name) and node.value.id in modules
                and modules[node.value.id] != own):
            found.append(f"{path.name}:{node.lineno} reads {modules[node.value.id]}."
                         f"{node.attr}")
    return found


def test_no_module_uses_a_private_name_of_another():
    found = [hit for path in sorted(FIXTURES.rglob("*.py")) for hit in _crossings(path)]
    assert not found, "private names used across modules:\n" + "\n".join(found)


def test_the_check_sees_both_kinds_of_crossing(tmp_path, monkeypatch):
    """The check above can fail: it finds an imported private name and a private
    attribute read through an imported module."""
    fake = tmp_path / "fixtures"
    fake.mkdir()
    (fake / "a.py").write_text("from atp_fixtures.b import _hidden\n"
                               "from atp_fixtures import b\n"
                               "x = b._STATE\n")
    monkeypatch.setattr(__import__(__name__), "FIXTURES", fake)
    assert _crossings(fake / "a.py") == ["a.py:1 imports atp_fixtures.b._hidden",
                                         "a.py:3 reads atp_fixtures.b._STATE"]
