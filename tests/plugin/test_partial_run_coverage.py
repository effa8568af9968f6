"""A run of part of the suite prints the coverage figure and one line, not a line per
point the rest of the suite would have reached; a whole-suite run lists them and the
gate's complaints."""

from __future__ import annotations

from types import SimpleNamespace

from atp_fixtures.oracles import p4_coverage
from atp_fixtures.report.hooks import _whole_suite
from p4sim.coverage import Coverage, Point


def _coverage(n: int = 40) -> Coverage:
    points = [Point(f"statement C | s{i}", "statement", "C", "p4src/x.p4", i + 1, f"s{i}")
              for i in range(n)]
    return Coverage(points, [1] + [0] * (n - 1))


def test_a_partial_run_prints_one_line_instead_of_every_uncovered_point():
    declared = p4_coverage.Declared()
    whole = p4_coverage.report_lines(_coverage(), "spec", declared)
    partial = p4_coverage.report_lines(_coverage(), "spec", declared, partial=True)
    assert sum("gate: uncovered point" in line for line in whole) == 39
    assert not any("p4src/x.p4" in line or "gate:" in line for line in partial)
    assert partial[0] == whole[0] and "1/40" in partial[0]
    assert len(partial) == 2 and "partial run" in partial[1]


def _config(tmp_path, args, **options):
    option = SimpleNamespace(keyword="", markexpr="", deselect=None, ignore=None,
                             ignore_glob=None)
    for name, value in options.items():
        setattr(option, name, value)
    return SimpleNamespace(option=option, rootpath=tmp_path, args=args,
                           invocation_params=SimpleNamespace(dir=tmp_path))


def test_what_counts_as_the_whole_suite(tmp_path):
    (tmp_path / "conformance").mkdir()
    assert _whole_suite(_config(tmp_path, ["conformance"]))
    assert _whole_suite(_config(tmp_path, ["conformance/"]))
    assert _whole_suite(_config(tmp_path, [str(tmp_path)]))
    assert not _whole_suite(_config(tmp_path, ["conformance/test_exactly_once.py"]))
    assert not _whole_suite(_config(tmp_path, ["conformance"], keyword="corpus"))
    assert not _whole_suite(_config(tmp_path, ["conformance"], markexpr="slow"))
    assert not _whole_suite(_config(tmp_path, ["conformance"],
                                    ignore=["conformance/test_host_stack.py"]))
    assert not _whole_suite(_config(tmp_path, ["conformance/test_x.py::test_y"]))
