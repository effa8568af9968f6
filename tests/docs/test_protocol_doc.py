"""docs/protocol.md is where every rule id of the project resolves.

Failure reports, test markers and corpus traces cite rules by number; users do not have
the specification the project was written from, only docs/protocol.md. So:
(a) every id the project cites (``@pytest.mark.rule``, ``@pytest.mark.deviation``,
    a trace's ``rule``/``deviation`` and file name, ``rule=``/"rule 4.4"/"spec 4.6"/
    "section 8"/"deviation 9.1" in code, comments, docstrings and docs) is a heading
    of docs/protocol.md;
(b) the document keeps the specification's numbering (checked only where the
    specification is at hand: ../shared/spec);
(c) a made-up id is reported, so (a) can fail.
The project is read statically (ast and regular expressions), which keeps this fast.
"""

from __future__ import annotations

import ast
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from atp_fixtures.oracles import protocol_doc

ROOT = Path(__file__).resolve().parents[2]

# Trees that hold other numbering schemes (p4sim cites the P4-16 language spec) or
# are not the project's source.
SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", ".hypothesis",
             ".pytest_cache", "build", "dist", "p4sim", "artifacts", "allure-results"}
SKIP_FILES = {Path("docs") / "protocol.md"}     # the definitions, not citations

ID = r"\d{1,2}(?:\.\d{1,2})?"
_ID_SHAPE = re.compile(rf"^{ID}$")
# A citation in prose or code: 'rule 4.4', 'rules 4.3-4.7', 'rule="4.4"', 'deviation 9.8',
# 'spec 4.6', "spec's 4.6", 'spec section 8', 'section 8', 'sections 4 and 5'.
_PROSE = re.compile(
    rf"(?<![\w.-])(?:rules?|deviations?|sections?|spec(?:'s)?(?:\s+sections?)?)"
    rf"(?:\s+|\s*[=:]\s*)[\"']?(?P<id>{ID})(?![\w.]*\d)(?!\.\d)", re.IGNORECASE)
# Calls whose first argument is a rule id.
_CITING_CALLS = {"rule", "deviation", "anchor", "title", "url", "describe", "lookup"}
_CITING_KEYS = {"rule", "deviation"}


@dataclass(frozen=True)
class Citation:
    rule_id: str
    where: str   # "path:line: how"


def _files(root: Path, suffixes: tuple[str, ...]) -> list[Path]:
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS
                             and not d.endswith(".egg-info"))
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if name.endswith(suffixes) and path.relative_to(root) not in SKIP_FILES:
                found.append(path)
    return found


def _str_arg(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.strip()
    return None


def _call_name(func: ast.AST) -> str | None:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def _python_citations(path: Path, rel: str) -> list[Citation]:
    """Markers, keyword arguments and dict entries that carry a rule id (ast), plus
    prose citations anywhere in the text (comments, docstrings, f-strings)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    found: list[Citation] = []
    try:
        tree = ast.parse(text)
    except SyntaxError:
        tree = None
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.Call):
            name = _call_name(node.func)
            if name in _CITING_CALLS and node.args:
                value = _str_arg(node.args[0])
                if value is not None and _ID_SHAPE.match(value):
                    found.append(Citation(value, f"{rel}:{node.lineno}: {name}({value!r})"))
            for keyword in node.keywords:
                value = _str_arg(keyword.value)
                if (keyword.arg in _CITING_KEYS and value is not None
                        and _ID_SHAPE.match(value)):
                    found.append(Citation(value, f"{rel}:{node.lineno}: "
                                                 f"{keyword.arg}={value!r}"))
        elif isinstance(node, ast.Dict):
            for key, value_node in zip(node.keys, node.values):
                if key is None or _str_arg(key) not in _CITING_KEYS:
                    continue
                value = _str_arg(value_node)
                if value is not None and _ID_SHAPE.match(value):
                    found.append(Citation(value, f"{rel}:{node.lineno}: "
                                                 f"{{{_str_arg(key)!r}: {value!r}}}"))
    found += _prose_citations(text, rel)
    return found


def _prose_citations(text: str, rel: str) -> list[Citation]:
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for match in _PROSE.finditer(line):
            found.append(Citation(match["id"], f"{rel}:{number}: {match.group(0)!r}"))
    return found


def _trace_citations(path: Path, rel: str) -> list[Citation]:
    """A corpus file's top-level ``rule``/``deviation`` and a ``rule-<id>-`` file name."""
    found = []
    name = re.match(rf"rule-({ID})-", path.name)
    if name:
        found.append(Citation(name[1], f"{rel}: file name"))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        return found          # the corpus tests report malformed files
    if isinstance(data, dict):
        for key in sorted(_CITING_KEYS):
            value = data.get(key)
            if isinstance(value, str) and _ID_SHAPE.match(value.strip()):
                found.append(Citation(value.strip(), f"{rel}: \"{key}\": {value!r}"))
    return found


def collect_citations(root: Path) -> list[Citation]:
    """Every rule id cited under ``root`` (Python, P4 and Markdown sources, JSON traces)."""
    citations: list[Citation] = []
    for path in _files(root, (".py",)):
        citations += _python_citations(path, str(path.relative_to(root)))
    for path in _files(root, (".p4", ".md")):
        citations += _prose_citations(path.read_text(encoding="utf-8", errors="replace"),
                                      str(path.relative_to(root)))
    for path in _files(root, (".json",)):
        citations += _trace_citations(path, str(path.relative_to(root)))
    return citations


def undefined(citations: list[Citation]) -> list[str]:
    return [f"{c.where} cites {c.rule_id}" for c in citations
            if not protocol_doc.has(c.rule_id)]


# -- (a) every cited id exists -------------------------------------------------------

def test_the_project_cites_rules_at_all():
    """Guards (a) against passing vacuously: the collector sees markers, deviations,
    traces and prose."""
    citations = collect_citations(ROOT)
    hows = {c.where.rsplit(": ", 1)[-1].split("(")[0] for c in citations}
    assert {"rule", "deviation", "file name"} <= hows, sorted(hows)[:20]
    assert len({c.rule_id for c in citations}) >= 30


def test_every_cited_rule_id_is_defined_in_docs_protocol_md():
    missing = undefined(collect_citations(ROOT))
    assert not missing, (
        "these citations name a rule that docs/protocol.md does not define (add the rule "
        "to docs/protocol.md with its anchor, or correct the citation):\n  "
        + "\n  ".join(missing))


def test_every_section_9_deviation_and_section_4_rule_is_a_heading():
    """What the suite's markers may name, whether or not a test cites it yet."""
    for rule_id in [f"4.{i}" for i in range(1, 8)] + [f"9.{i}" for i in range(1, 16)]:
        assert protocol_doc.anchor(rule_id) == "rule-" + rule_id.replace(".", "-")


def test_anchors_resolve_for_reports():
    assert protocol_doc.url("rule 4.4") == "docs/protocol.md#rule-4-4"
    assert protocol_doc.url("deviation 9.8") == "docs/protocol.md#rule-9-8"
    assert protocol_doc.anchor(6) == "rule-6"
    assert protocol_doc.anchor("d3") == "decision-d3"
    assert "sticky" in protocol_doc.title("4.6").lower() or \
        "values" in protocol_doc.title("4.6").lower()
    text = protocol_doc.DOC_PATH.read_text(encoding="utf-8")
    for rule in protocol_doc.rules().values():
        assert f'<a id="{rule.anchor}"></a>' in text


def test_every_decision_names_where_it_lives():
    """Each decision points at the module that implements it, so it can be checked."""
    text = protocol_doc.DOC_PATH.read_text(encoding="utf-8").split('<a id="decisions">')[1]
    blocks = re.split(r"\n### ", text)[1:]
    assert len(blocks) >= 10
    for block in blocks:
        heading = block.splitlines()[0]
        assert re.search(r"\(`(reference|atp_fixtures|host_stack)\.[\w.]+`", block), heading


# -- (b) numbering matches the specification -----------------------------------------

def _spec_path() -> Path | None:
    candidates = [os.environ.get("ATP_SPEC", ""),
                  ROOT.parent / "shared" / "spec" / "atp-protocol.md",
                  Path("/work/shared/spec/atp-protocol.md")]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


def spec_numbering(text: str) -> dict[str, tuple[str, list[str]]]:
    """Section number → (title, its item ids). Sections 4 and 9 number their items; in
    the others, each top-level bullet and each unindented paragraph after the first
    bullet is the next item (section 5's closing paragraph on L2 and egress is 5.4).
    A heading that is no section number (rev. 4's "8a. Pipes", "Revisions") ends the
    section before it and is not one of the ten."""
    sections: dict[str, tuple[str, list[str]]] = {}
    parts = re.split(r"^## (\d+[a-z]?)\. (.+)$", text, flags=re.MULTILINE)
    for number, title, body in zip(parts[1::3], parts[2::3], parts[3::3]):
        body = re.split(r"^## ", body, maxsplit=1, flags=re.MULTILINE)[0]
        numbered = re.findall(r"^(\d+)\. ", body, flags=re.MULTILINE)
        if numbered:
            items = [f"{number}.{n}" for n in numbered]
        else:
            count, previous = 0, "none"     # previous line: none/blank/bullet/paragraph
            for line in body.splitlines():
                if line.startswith("- "):
                    count, previous = count + 1, "bullet"
                elif not line.strip():
                    previous = "none" if previous == "none" else "blank"
                elif line[0].isspace():
                    previous = "bullet" if previous in ("bullet", "blank") else previous
                elif previous in ("bullet", "blank") and count:
                    count, previous = count + 1, "paragraph"
            items = [f"{number}.{i}" for i in range(1, count + 1)]
        sections[number] = (title.strip(), items)
    return sections


def doc_numbering() -> dict[str, tuple[str, list[str]]]:
    rules = protocol_doc.rules()
    sections = {r.id: (r.title, []) for r in rules.values()
                if re.fullmatch(r"\d+[a-z]?", r.id)}
    for r in rules.values():
        if "." in r.id:
            sections.setdefault(r.id.split(".")[0], ("(no section heading)", []))[1] \
                .append(r.id)
    return sections


def _section_order(number: str) -> tuple[int, str]:
    """Sections in document order: 8, then 8a (rev. 4), then 9."""
    digits = re.match(r"\d+", number).group()
    return int(digits), number[len(digits):]


def test_numbering_matches_the_specification():
    spec = _spec_path()
    if spec is None:
        pytest.skip("the ATP specification (../shared/spec/atp-protocol.md) is not on this "
                    "machine; it is not shipped to users, docs/protocol.md stands alone")
    expected = spec_numbering(spec.read_text(encoding="utf-8"))
    actual = doc_numbering()
    assert len(expected) >= 10 and expected["4"][1][-1] == "4.7", \
        f"could not read the specification's structure from {spec}"
    assert sorted(actual, key=_section_order) == sorted(expected, key=_section_order)
    for number, (title, items) in expected.items():
        assert actual[number][0] == title, f"section {number} title"
        assert actual[number][1] == items, f"section {number} items"


def test_spec_numbering_parser_counts_bullets_and_numbered_items():
    text = ("## 1. A\n- one\n  more\n- two\n## 4. B\nintro\n1. x\n2. y\n"
            "## 5. C\n- a\n- b\nA closing\nparagraph.\n## 2. D\nno list\n"
            "## 3. E\n- e\n\n## 3a. Aside\nText.\n- its own 3a.1, not 3.2\n"
            "## Revisions\n- not 3.3, not 3a.2\n")
    # a lettered section (the spec's "8a. Pipes") numbers its own items; an unnumbered
    # heading ("Revisions") ends the section before it and numbers nothing
    assert spec_numbering(text) == {"1": ("A", ["1.1", "1.2"]), "4": ("B", ["4.1", "4.2"]),
                                    "5": ("C", ["5.1", "5.2", "5.3"]), "2": ("D", []),
                                    "3": ("E", ["3.1"]), "3a": ("Aside", ["3a.1"])}


# -- (c) a made-up id fails ----------------------------------------------------------

def test_a_made_up_rule_id_is_reported(tmp_path):
    made_up = ["4." + "99", "9." + "19", "1" + "2"]      # built, so this file cites none
    (tmp_path / "test_x.py").write_text(
        "import pytest\n\n"
        f"@pytest.mark.rule({made_up[0]!r})\ndef test_a():\n    pass\n\n"
        f"@pytest.mark.deviation({made_up[1]!r}, 'why')\ndef test_b():\n    pass\n")
    (tmp_path / "rule-4.1-ok.json").write_text(json.dumps({"rule": made_up[2]}))
    (tmp_path / "report.py").write_text(f"MESSAGE = 'see rule {made_up[0]}'\n")
    missing = undefined(collect_citations(tmp_path))
    assert len(missing) == 4, missing
    assert all(any(m in line for m in made_up) for line in missing)
    with pytest.raises(protocol_doc.UnknownRule, match=re.escape(made_up[0])):
        protocol_doc.anchor(made_up[0])
    with pytest.raises(protocol_doc.UnknownRule, match="not a rule id"):
        protocol_doc.anchor("four point four")


def test_a_heading_with_the_wrong_anchor_is_rejected():
    with pytest.raises(ValueError, match="must be 'rule-4-4'"):
        protocol_doc.parse('### <a id="rule-4-5"></a>4.4 Wrong\n')
    with pytest.raises(ValueError, match="defined twice"):
        protocol_doc.parse('## <a id="rule-4"></a>4. A\n## <a id="rule-4"></a>4. B\n')


def test_section_10_titles_are_the_property_names():
    """reports maps a property module to its rule by this title (exactly_once ->
    "Exactly-once"); renaming a heading would silently drop the report's links."""
    titles = [protocol_doc.title(f"10.{i}") for i in (*range(1, 8), 9)]
    assert titles == ["Exactly-once", "Overflow", "Reclamation", "Two-level", "Isolation",
                      "Liveness", "Wire conformance", "Multi-PS long jobs"]
    modules = sorted(p.stem for p in (ROOT / "conformance").glob("test_*.py"))
    for title_ in titles:
        module = "test_" + title_.lower().replace("-", "_").replace(" ", "_")
        assert module in modules, f"no conformance module {module} for 10.x {title_}"
