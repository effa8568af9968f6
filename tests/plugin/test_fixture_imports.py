"""The harness's modules talk through public names only, and its import graph has no
cycle: no module of ``fixtures/`` imports, or reaches into, a private name (``_x``) of
another, and no chain of imports (at module level or inside a function: an import
deferred into a function hides a cycle, it does not remove it) leads a module back to
itself, nor a subpackage (generation/, running/, oracles/, evidence/, ...) back to itself.
Read from the source."""

from __future__ import annotations

import ast
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def _module_name(path: Path, root: Path | None = None) -> str:
    """``fixtures/oracles/comparator.py`` -> ``atp_fixtures.oracles.comparator``."""
    parts = ("atp_fixtures",) + path.relative_to(root or FIXTURES).with_suffix("").parts
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


# -- the import graph --------------------------------------------------------------------
def import_graph(root: Path) -> dict[str, dict[str, int]]:
    """module -> {harness module it imports: line of the first such import}, for every
    module under ``root``. Every import statement counts, wherever it stands (module
    level, function, ``if TYPE_CHECKING``): ``from atp_fixtures.report import hooks``
    names the module ``atp_fixtures.report.hooks``; ``from atp_fixtures.x import name``
    of a non-module name, the module ``atp_fixtures.x``."""
    paths = {_module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, dict[str, int]] = {}
    for name, path in paths.items():
        edges: dict[str, int] = {}
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                    "atp_fixtures"):
                targets = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in paths
                           else node.module for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names if a.name.startswith("atp_fixtures")]
            for target in targets:
                if target in paths and target != name:
                    edges[target] = min(edges.get(target, node.lineno), node.lineno)
        graph[name] = edges
    return graph


def import_cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """One cycle per strongly connected component of the graph that has more than one
    module, as the modules along it (the first repeated at the end)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    components: list[list[str]] = []

    def visit(module: str) -> None:      # Tarjan's algorithm
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return [_cycle_through(graph, set(c), c[0]) for c in components]


def _cycle_through(graph: dict[str, dict[str, int]], members: set[str],
                   start: str) -> list[str]:
    """A shortest path from ``start`` back to itself inside one component."""
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for module in frontier:
            for target in sorted(graph[module]):
                if target == start:
                    return paths[module] + [start]
                if target in members and target not in paths:
                    paths[target] = paths[module] + [target]
                    following.append(target)
        frontier = following
    raise AssertionError(f"{start} is in a component but on no cycle")


def _describe(graph: dict[str, dict[str, int]], cycle: list[str]) -> str:
    return " -> ".join(f"{a} (line {graph[a][b]})" for a, b in zip(cycle, cycle[1:])) \
        + f" -> {cycle[-1]}"


def test_the_import_graph_has_no_cycle():
    graph = import_graph(FIXTURES)
    cycles = import_cycles(graph)
    assert not cycles, "import cycles in fixtures/:\n" + "\n".join(
        _describe(graph, c) for c in cycles)


def test_the_cycle_check_finds_a_cycle_hidden_in_a_function(tmp_path):
    """The check above can fail: a cycle closed by an import inside a function is found
    and named, with the line of each import; an acyclic chain is not."""
    fake = tmp_path / "fixtures"
    (fake / "report").mkdir(parents=True)
    (fake / "plugin.py").write_text("from atp_fixtures.report import hooks\n")
    (fake / "report" / "__init__.py").write_text("")
    (fake / "report" / "hooks.py").write_text(
        "import os\n\n\ndef state():\n    from atp_fixtures.plugin import session_state\n"
        "    return session_state\n")
    (fake / "report" / "summary.py").write_text("from atp_fixtures.report.hooks import x\n")
    graph = import_graph(fake)
    assert graph["atp_fixtures.report.summary"] == {"atp_fixtures.report.hooks": 1}
    cycles = import_cycles(graph)
    assert cycles == [["atp_fixtures.plugin", "atp_fixtures.report.hooks",
                       "atp_fixtures.plugin"]]
    assert _describe(graph, cycles[0]) == (
        "atp_fixtures.plugin (line 1) -> atp_fixtures.report.hooks (line 5) -> "
        "atp_fixtures.plugin")
    (fake / "report" / "hooks.py").write_text("import os\n")
    assert import_cycles(import_graph(fake)) == []


# -- the layers: subpackages --------------------------------------------------------------
def package_of(module: str) -> str:
    """``atp_fixtures.oracles.comparator`` -> ``atp_fixtures.oracles``; a module at the
    top (``atp_fixtures.plugin``) is a layer of its own."""
    return ".".join(module.split(".")[:2])


def package_graph(graph: dict[str, dict[str, int]]
                  ) -> tuple[dict[str, dict[str, int]], dict[tuple[str, str], str]]:
    """The import graph between subpackages (an edge for any import of a module of one
    by a module of the other), and for each edge the first import that makes it."""
    packages: dict[str, dict[str, int]] = {package_of(m): {} for m in graph}
    witness: dict[tuple[str, str], str] = {}
    for module, edges in sorted(graph.items()):
        for target, line in sorted(edges.items()):
            a, b = package_of(module), package_of(target)
            if a != b and (a, b) not in witness:
                packages[a][b] = line
                witness[(a, b)] = f"{module} (line {line}) imports {target}"
    return packages, witness


def test_no_cycle_between_the_subpackages():
    """The layers stay layers: no chain of imports leads from a subpackage of fixtures/
    back to itself (e.g. running/ -> oracles/ -> running/), even where every module
    cycle is broken."""
    packages, witness = package_graph(import_graph(FIXTURES))
    cycles = import_cycles(packages)
    assert not cycles, "import cycles between subpackages of fixtures/:\n" + "\n".join(
        " -> ".join(c) + ":\n  " + "\n  ".join(witness[(a, b)] for a, b in zip(c, c[1:]))
        for c in cycles)


def test_the_layer_check_finds_a_cycle_no_module_cycle_shows(tmp_path):
    """The check above can fail: two packages importing each other through different
    modules make no module cycle but a package cycle, named with the imports that make
    it."""
    fake = tmp_path / "fixtures"
    for package in ("oracles", "running"):
        (fake / package).mkdir(parents=True)
        (fake / package / "__init__.py").write_text("")
    (fake / "oracles" / "comparator.py").write_text("from atp_fixtures.running.replay import x\n")
    (fake / "running" / "replay.py").write_text("x = 1\n")
    (fake / "running" / "lockstep.py").write_text(
        "import os\nfrom atp_fixtures.oracles.comparator import y\n")
    graph = import_graph(fake)
    assert import_cycles(graph) == []
    packages, witness = package_graph(graph)
    assert import_cycles(packages) == [["atp_fixtures.oracles", "atp_fixtures.running",
                                        "atp_fixtures.oracles"]]
    assert witness[("atp_fixtures.running", "atp_fixtures.oracles")] == (
        "atp_fixtures.running.lockstep (line 2) imports atp_fixtures.oracles.comparator")
    (fake / "running" / "lockstep.py").write_text("import os\n")
    assert import_cycles(package_graph(import_graph(fake))[0]) == []


# -- the product does not lean on the harness --------------------------------------------
REPO = FIXTURES.parent
PRODUCT = ("reference", "host_stack", "p4sim", "p4src", "bfruntime")


def harness_imports(root: Path) -> list[str]:
    """Every import of ``atp_fixtures`` in the modules under ``root`` (any import
    statement, wherever it stands), as ``file:line module``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import)
                     else [])
            found += [f"{path.relative_to(root.parent)}:{node.lineno} {n}"
                      for n in names if n.split(".")[0] == "atp_fixtures"]
    return found


def test_no_product_module_imports_the_harness():
    """The reference, the host stack, p4sim, the P4 control plane and the BfRuntime
    client are what the suite tests and ships; the harness (``atp_fixtures``) judges
    them. A product module that imports a judge couples the thing tested to its test
    (the release's judge lived in host_stack/ until issue 35 moved it to oracles/)."""
    found = [hit for package in PRODUCT if (REPO / package).is_dir()
             for hit in harness_imports(REPO / package)]
    assert not found, "product modules importing the harness:\n" + "\n".join(found)


def test_the_product_check_sees_a_deferred_import(tmp_path):
    (tmp_path / "host_stack").mkdir()
    (tmp_path / "host_stack" / "x.py").write_text(
        '"""mentions atp_fixtures.oracles in prose only"""\n\n\ndef f():\n'
        "    from atp_fixtures.oracles import host_rules\n")
    assert harness_imports(tmp_path / "host_stack") == [
        "host_stack/x.py:5 atp_fixtures.oracles"]
