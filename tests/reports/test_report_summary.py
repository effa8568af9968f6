"""The end-of-run summary at the terminal and as JSON (a fresh pytest process each)."""

from __future__ import annotations

import json

import pytest

from atp_fixtures.report.summary import RunSummary
from broken_target import FAILING_TEST
from report_run import run_suite

GENERATED = FAILING_TEST + '''

from hypothesis import given, settings, strategies as st

@settings(max_examples=7, database=None)
@given(x=st.integers())
def test_generated(x, target):
    assert isinstance(x, int)
'''


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_summary_counts_per_property_with_reasons(tmp_path, workers):
    result = run_suite(tmp_path, GENERATED, "--seed=3", *workers)
    assert result.outcomes == {"failed": 1, "passed": 2, "skipped": 1}, result.output
    summary = json.loads((tmp_path / "reports" / "summary.json").read_text())
    assert summary["format"] == "atp-summary/1"
    assert summary["target"] == "reference" and summary["session_seed"] == 3
    demo = summary["properties"]["demo"]
    assert (demo["passed"], demo["failed"], demo["skipped"]) == (2, 1, 1)
    assert demo["reasons"] == {
        "atp_fixtures.oracles.comparator.TraceMismatch: switch tor0: 4 ingress packets, "
        "3 frames expected, 3 observed: 2 differing, 0 missing, 0 extra; 2 register "
        "difference(s)": 1,
        "target 'reference' lacks capability 'teleportation'": 1}
    assert summary["targets"]["reference"]["failed"] == 1
    tests = {t["nodeid"].split("::")[1]: t for t in summary["tests"]}
    assert tests["test_generated"]["examples"] >= 7
    assert tests["test_passes"]["examples"] is None
    assert len(summary["slowest"]) == 4
    assert "atp conformance summary" in result.output
    assert "target 'reference' lacks capability 'teleportation'" in result.output


def test_unit_tests_without_a_target_are_not_counted(tmp_path):
    result = run_suite(tmp_path, "def test_plain():\n    assert sorted([2, 1]) == [1, 2]\n")
    assert result.outcomes == {"passed": 1}
    assert "atp conformance summary" not in result.output
    assert not (tmp_path / "reports" / "summary.json").exists()


def test_progress_lines_on_long_hypothesis_runs(tmp_path):
    result = run_suite(tmp_path, GENERATED, "-k", "generated",
                       env={"ATP_PROGRESS_S": "0"})
    assert result.outcomes == {"passed": 1}, result.output
    assert "test_demo.py::test_generated: 2 examples so far" in result.output


def test_a_section_belongs_to_its_summary_not_to_the_process():
    """Sections are the session's: a summary made after another got a section (the
    next in-process session, e.g. pytester's) does not show it."""
    first = RunSummary("reference", "spec", 1)
    first.add_section("p4_coverage", lambda summary: ({"covered": 1}, ["1 covered"]))
    assert first.to_dict()["sections"] == {"p4_coverage": {"covered": 1}}
    second = RunSummary("reference", "spec", 2)
    assert second.to_dict()["sections"] == {}


def test_sections_registered_by_other_modules(tmp_path):
    (tmp_path / "conftest.py").write_text(
        "from atp_fixtures.report.summary import summary_of\n"
        "def _checks(summary):\n"
        "    n = sum(r.properties.get('checks', 0) for r in summary.records.values())\n"
        "    return {'total': n}, [f'{n} checks ran']\n"
        "def pytest_sessionstart(session):\n"
        "    summary_of(session.config).add_section('checks', _checks)\n"
        "import pytest\n"
        "@pytest.fixture(autouse=True)\n"
        "def _count(request):\n"
        "    request.node.user_properties.append(('atp_checks', 5))\n")
    result = run_suite(tmp_path, FAILING_TEST, "-k", "passes")
    summary = json.loads((tmp_path / "reports" / "summary.json").read_text())
    assert summary["sections"]["checks"] == {"total": 5}
    assert "5 checks ran" in result.output


def test_every_skip_reason_is_printed_not_only_the_commonest(tmp_path):
    source = "import pytest\n" + "".join(
        f"def test_skip{i}(target):\n    pytest.skip('reason number {i}')\n"
        for i in range(5))
    result = run_suite(tmp_path, source)
    assert result.outcomes == {"skipped": 5}, result.output
    for i in range(5):
        assert f"1 x reason number {i}" in result.output


def test_host_stack_tests_are_counted_under_their_property(tmp_path):
    """A host-stack test takes ``fabric`` (the switch its processes are cabled to), not
    ``target``: it still belongs to the summary and the report's tree."""
    source = ("import pytest\n"
              "@pytest.fixture\n"
              "def fabric():\n    return 'bridge'\n"
              "def test_processes(fabric):\n    assert fabric == 'bridge'\n")
    result = run_suite(tmp_path, source)
    assert result.outcomes == {"passed": 1}, result.output
    summary = json.loads((tmp_path / "reports" / "summary.json").read_text())
    assert summary["properties"]["demo"]["passed"] == 1


def test_a_host_rule_failure_is_reported_under_the_host_rules(tmp_path):
    """Caught inside another property's module, a broken host rule is still the hosts'
    failure: the summary and the per-property checks file it under host_rules."""
    source = ("from atp_fixtures.oracles.host_violation import HostRuleViolation\n"
              "def test_hosts_break_aimd(target):\n"
              "    raise HostRuleViolation('worker w0 grew its window after a mark', "
              "'7.5')\n"
              "def test_switch_fine(target):\n    pass\n")
    result = run_suite(tmp_path, source)
    assert result.outcomes == {"failed": 1, "passed": 1}, result.output
    summary = json.loads((tmp_path / "reports" / "summary.json").read_text())
    assert summary["properties"]["host_rules"]["failed"] == 1
    assert summary["properties"]["demo"] == {**summary["properties"]["demo"],
                                             "passed": 1, "failed": 0}
    checks = summary["sections"]["checks on the target"]
    assert list(checks["host_rules"]["failures"].values()) == [["test_hosts_break_aimd"]]
    assert checks["demo"]["failures"] == {}


def test_the_progress_interval_is_read_per_test_not_at_import(pytester, monkeypatch):
    """In this process the plugin's modules are long imported: ``$ATP_PROGRESS_S`` set
    now still takes effect in an in-process run."""
    import atp_fixtures.report.hooks  # noqa: F401  (imported before the variable is set)
    monkeypatch.setenv("ATP_PROGRESS_S", "0")
    pytester.makepyfile(test_progress="""
        from hypothesis import given, settings, strategies as st

        @settings(max_examples=3, database=None)
        @given(x=st.integers())
        def test_generated(x, target):
            assert isinstance(x, int)
    """)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-o", "addopts=",
                                          "--target=reference", "-s")
    result.assert_outcomes(passed=1)
    assert "test_progress.py::test_generated: 2 examples so far" in (
        result.stdout.str() + result.stderr.str())
