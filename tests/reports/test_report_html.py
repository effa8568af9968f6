"""The comparator's diff as HTML: every header field side by side, the divergent rows
marked, flags by name, values as [index] expected → observed, register deltas."""

from __future__ import annotations

import re

from broken_target import COLLISION_TRACE, DropsCollisionFlag
from atp_fixtures.oracles.comparator import compare
from atp_fixtures.running.replay import replay
from atp_fixtures.report.diff_html import comparisons_html, frame_table
from atp_fixtures.targets.reference import ReferenceTarget
from atp_fixtures.evidence.trace import load_trace


def _comparisons(driver):
    trace = load_trace(COLLISION_TRACE)
    return [compare(sw, replay(sw, driver, "spec")) for sw in trace.switches.values()]


def _rows(html: str) -> list[tuple[str, list[str]]]:
    """(css class, cells) of every table row."""
    out = []
    for attrs, body in re.findall(r"<tr([^>]*)>(.*?)</tr>", html):
        out.append((attrs, re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", body)))
    return out


def test_divergent_fields_are_the_marked_rows():
    html = comparisons_html(_comparisons(DropsCollisionFlag()), "diff")
    marked = [cells for attrs, cells in _rows(html) if "atp-divergent" in attrs]
    frame_rows = [c for c in marked if len(c) == 3]
    # two frames differ, each in its flags (by name) and one value
    assert ["flags", "collision", "-"] in frame_rows
    values = [c for c in frame_rows if c[0] == "values"]
    assert len(values) == 2 and "[2] 0 → 1" in values[0][2]
    # fields that agree are shown but not marked
    plain = [cells for attrs, cells in _rows(html) if "atp-divergent" not in attrs]
    assert ["app_id", "2", "2"] in plain and ["seq", "3", "3"] in plain


def test_register_deltas_table_names_aggregator_and_field():
    html = comparisons_html(_comparisons(DropsCollisionFlag()))
    deltas = [cells for attrs, cells in _rows(html) if len(cells) == 5
              and "atp-divergent" in attrs]
    assert ["at the end", "level0[5]", "bitmap", "0x3", "0x83"] in deltas


def test_matching_comparisons_give_no_html():
    assert comparisons_html(_comparisons(ReferenceTarget())) == ""


def test_missing_frame_and_non_atp_frame_are_shown_as_such():
    frame = load_trace(COLLISION_TRACE).switches["tor0"].egress[0].frame
    html = frame_table(frame, None)
    assert "(none)" in html and "atp-divergent" in html
    html = frame_table(frame, b"\x01\x02" * 40)
    assert "80-byte non-ATP frame" in html


def test_text_is_escaped():
    frame = load_trace(COLLISION_TRACE).switches["tor0"].egress[0].frame
    html = frame_table(frame, b"<script>" * 10)
    assert "<script>" not in html
