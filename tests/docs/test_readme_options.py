"""The README's options table is complete: every option the suite's pytest plugin
defines has a row (and no row names an option that does not exist), and the
--hypothesis-profile row names every profile the plugin registers."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# options of other plugins that the table documents because the suite relies on them
OTHERS = {"--hypothesis-profile"}


class _Recorder:
    """Stands in for pytest's parser and its option group."""

    def __init__(self) -> None:
        self.options: set[str] = set()

    def getgroup(self, *args, **kwargs) -> "_Recorder":
        return self

    def addoption(self, *names: str, **kwargs) -> None:
        self.options.update(n for n in names if n.startswith("--"))


def _table_rows() -> dict[str, str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Options\n", 1)[1].split("\n## ", 1)[0]
    return {m.group(1): m.group(0) for m in re.finditer(r"^\| `(--[a-z0-9-]+)[^`]*` \|.*$",
                                                         section, re.M)}


def test_every_plugin_option_has_a_row():
    from atp_fixtures import plugin
    recorder = _Recorder()
    plugin.pytest_addoption(recorder)
    rows = set(_table_rows())
    assert recorder.options, "the plugin defines no option?"
    missing = sorted(recorder.options - rows)
    assert not missing, f"README.md's options table lacks {missing}: add a row each"
    unknown = sorted(rows - recorder.options - OTHERS)
    assert not unknown, f"README.md's options table names {unknown}, which no plugin defines"


def test_the_profile_row_names_every_registered_profile():
    from hypothesis import settings
    import atp_fixtures.plugin  # noqa: F401  (registers the profiles)
    row = _table_rows()["--hypothesis-profile"]
    for name in ("ci", "dev", "deep"):
        settings.get_profile(name)             # registered
        assert f"`{name}`" in row, f"the --hypothesis-profile row lacks {name}"
