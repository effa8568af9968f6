"""The pytest plugin as a user meets it: options, usage errors, skips with reasons,
profile deviations, seeds and failure artifacts (each run in a fresh pytest process)."""

from __future__ import annotations

import json
import textwrap

import pytest

SIMPLE = """
    import pytest

    def test_uses_target(target):
        assert target.name

    @pytest.mark.requires("teleportation")
    def test_needs_a_capability(target):
        pass

    @pytest.mark.deviation("9.9", "an example deviation")
    def test_spec_behaviour():
        assert False, "the release behaves differently"

    def test_seed(test_seed, request):
        print("SEED", test_seed)
"""


@pytest.fixture
def suite(pytester):
    pytester.makepyfile(test_sample=textwrap.dedent(SIMPLE))
    return pytester


def run(pytester, *args):
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:randomly",
                                         *args)


def test_unknown_target_is_a_usage_error(suite):
    result = run(suite, "--target=nope")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*unknown target 'nope'; choose one of reference, p4sim*"])


def test_missing_testbed_file_is_a_usage_error(suite):
    result = run(suite, "--testbed=missing.yaml")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*testbed file 'missing.yaml' does not exist*"])


def test_testbed_naming_an_absent_interface_is_a_usage_error(suite):
    suite.makefile(".yaml", testbed="target: hardware\nports:\n  7: atpnosuchif0\n")
    result = run(suite, "--testbed=testbed.yaml")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*device port 7 maps to interface 'atpnosuchif0', which does not exist*"])


def test_bad_testbed_yaml_names_the_line(suite):
    suite.makefile(".yaml", testbed="ports: [1, 2\n")
    result = run(suite, "--testbed=testbed.yaml")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*testbed.yaml:*not valid YAML*"])


def test_unavailable_target_fails_the_session_with_what_is_missing(suite, monkeypatch):
    monkeypatch.delenv("SDE_INSTALL", raising=False)
    result = run(suite, "--target=tofino-model", "-k", "uses_target")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*target 'tofino-model' is unavailable: "
                                 "--target=tofino-model needs --testbed=FILE*"])


def test_session_where_nothing_ran_on_the_target_fails(suite):
    result = run(suite, "-k", "capability")
    result.assert_outcomes(skipped=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*sample * 0 test(s) ran, * 1 skipped*",
                                 "FAILED: no property test ran on target 'p4sim'*"])


def test_summary_counts_checks_that_ran_on_the_target(suite):
    result = run(suite, "-k", "uses_target or capability")
    result.assert_outcomes(passed=1, skipped=1)
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["*sample * 1 test(s) ran, * 1 skipped, * 1 check(s) on "
                                 "the target*"])


def test_missing_capability_skips_naming_it_and_the_target(suite):
    result = run(suite, "-rs", "-k", "capability")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(
        ["*target 'p4sim' lacks capability 'teleportation'*"])


def test_deviation_is_strict_xfail_only_under_atp_release(suite):
    run(suite, "-k", "spec_behaviour").assert_outcomes(failed=1)
    result = run(suite, "-k", "spec_behaviour", "--profile=atp-release", "-rx")
    result.assert_outcomes(xfailed=1)
    result.stdout.fnmatch_lines(["*known atp-release deviation 9.9: an example deviation*"])


def test_test_seed_derives_from_session_seed_and_is_recorded(suite):
    first = run(suite, "-k", "seed", "-s", "--seed=42", "--junitxml=a.xml")
    again = run(suite, "-k", "seed", "-s", "--seed=42")
    other = run(suite, "-k", "seed", "-s", "--seed=43")
    seed_of = lambda r: [l.split("SEED")[1] for l in r.outlines if "SEED" in l][0]  # noqa: E731
    assert seed_of(first) == seed_of(again) != seed_of(other)
    first.stdout.fnmatch_lines(["*session seed=42 (rerun with --seed=42; it also seeds "
                                "hypothesis)*"])
    junit = (suite.path / "a.xml").read_text()
    assert 'name="atp_seed"' in junit and 'name="atp_session_seed" value="42"' in junit


def test_session_seed_seeds_hypothesis(pytester, monkeypatch):
    # under CI the ``ci`` hypothesis profile is derandomized (no seed to follow), so this
    # runs as a developer does: the ``dev`` profile, drawn from the session seed
    monkeypatch.delenv("CI", raising=False)
    pytester.makepyfile(test_drawn=textwrap.dedent("""
        from hypothesis import given, settings, strategies as st

        @settings(max_examples=5, database=None)
        @given(st.integers())
        def test_draws(x):
            print("DRAWN", x)
    """))
    drawn = lambda r: [l for l in r.outlines if "DRAWN" in l]  # noqa: E731
    first = run(pytester, "-s", "--seed=5")
    again = run(pytester, "-s", "--seed=5")
    other = run(pytester, "-s", "--seed=6")
    assert drawn(first) == drawn(again) != drawn(other)


def test_failing_property_leaves_a_trace_with_its_seed(pytester, monkeypatch):
    artifacts = pytester.path / "artifacts"
    monkeypatch.setenv("ATP_ARTIFACTS_DIR", str(artifacts))
    pytester.makepyfile(test_fail=textwrap.dedent("""
        from reference.scenario import Scenario
        from reference.topology import Job, Rack, Tensor, Topology

        def test_property(run_on):
            run = run_on(Scenario(
                topology=Topology((Rack("tor0", ("w0", "w1", "ps")),)),
                jobs=(Job(1, ("w0", "w1"), ("ps",), 2, (Tensor(3, 100),)),), seed=5))
            assert not run.completed, "pretend the property failed"
    """))
    result = run(pytester, "--seed=7")
    result.assert_outcomes(failed=1)
    traces = list(artifacts.rglob("*.json"))
    assert traces and list(artifacts.rglob("*.pcap"))
    data = json.loads(traces[0].read_text())
    assert data["format"] == "atp-trace/1" and data["seed"] == 5
    assert isinstance(data["results"]["test_seed"], int)
    result.stdout.fnmatch_lines(["*trace written to*run0.json*"])
    kept = json.loads((traces[0].parent / "counterexample.json").read_text())
    assert kept["seed"] == 5 and kept["jobs"][0]["app_id"] == 1
    result.stdout.fnmatch_lines(["*fixtures/corpus/counterexamples/*"])


def test_allure_environment_records_target_profile_and_seed(suite):
    run(suite, "-k", "uses_target", "--seed=9", "--alluredir=allure", "--target=reference")
    properties = (suite.path / "allure" / "environment.properties").read_text()
    assert "target=reference" in properties and "session_seed=9" in properties


def test_profile_the_target_cannot_run_is_a_usage_error(suite, monkeypatch):
    """A driver that implements only some profiles (a testbed binding the release's
    p4ml.p4) refuses the others once, at session start, not in every test."""
    suite.makeconftest("from atp_fixtures.targets.reference import ReferenceTarget\n"
                       "ReferenceTarget.profiles = frozenset({'atp-release'})\n")
    result = run(suite, "--target=reference", "-k", "uses_target")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--target=reference runs profile(s) atp-release only, "
                                 "not 'spec'; pass --profile=atp-release*"])


def test_default_target_is_the_p4_program(suite):
    """Without --target the suite runs p4src/atp.p4 on p4sim (README: `make conformance`
    gates the real P4 program)."""
    result = run(suite, "-k", "uses_target")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["atp: target=p4sim profile=spec *"])


SCENARIO = """
    from reference.scenario import Scenario
    from reference.topology import Job, Rack, Tensor, Topology

    def scenario(seed, racks=1):
        hosts = ("w0", "w1", "ps")
        if racks == 1:
            topology = Topology((Rack("tor0", hosts),))
        else:
            topology = Topology((Rack("tor0", ("w0", "w1")), Rack("tor1", ("ps",))))
        return Scenario(topology=topology, seed=seed,
                        jobs=(Job(1, ("w0", "w1"), ("ps",), 2, (Tensor(3, 100),)),))
"""


def test_a_pooled_target_reuses_its_switches_and_skips_beyond_its_limit(pytester):
    """A target whose switches are a session pool (the softswitch's daemons; here p4sim
    drivers pooled the same way, limit 2): every run takes the same drivers, one per
    rack switch, and a scenario with more rack switches than the pool holds is skipped
    with that reason."""
    pytester.makeconftest(textwrap.dedent("""
        import atp_fixtures.targets.session as session
        from atp_fixtures.targets.base import Kind
        from atp_fixtures.targets.p4sim import P4simTarget
        P4simTarget.kind = Kind.OWN_PROCESS
        session.POOL_LIMIT = 2
    """))
    pytester.makepyfile(test_pool=textwrap.dedent("""
        from reference.scenario import Scenario
        from reference.topology import Job, Rack, Tensor, Topology

        def racks(n):
            topology = Topology(tuple(Rack(f"tor{i}", (f"w{i}",)) for i in range(n - 1))
                                + (Rack(f"tor{n - 1}", ("ps",)),))
            workers = tuple(f"w{i}" for i in range(n - 1))
            return Scenario(topology=topology, seed=1,
                            jobs=(Job(1, workers, ("ps",), 2, (Tensor(3, 100),)),))

        def test_two_racks_on_the_pool(run_on, atp_state):
            assert run_on(racks(2)).completed
            first, again = atp_state.switches_for_run(), atp_state.switches_for_run()
            a, b = first(), first()
            assert a is not b and (again(), again()) == (a, b)
            assert run_on(racks(2)).completed

        def test_three_racks(run_on):
            run_on(racks(3))
    """))
    result = run(pytester, "--seed=3", "-rs")
    result.assert_outcomes(passed=1, skipped=1)
    result.stdout.fnmatch_lines(["*the scenario has 3 rack switches, more than the 2 "
                                 "switches target 'p4sim' keeps for a session*"])


def test_artifacts_are_those_of_the_failing_example_only(pytester, monkeypatch):
    """Hypothesis tries several examples; the artifacts are the runs of the one that
    failed last (the shrunk one), not the last runs of whichever examples came before."""
    artifacts = pytester.path / "artifacts"
    monkeypatch.setenv("ATP_ARTIFACTS_DIR", str(artifacts))
    pytester.makepyfile(helpers=textwrap.dedent(SCENARIO))
    pytester.makepyfile(test_fail=textwrap.dedent("""
        from hypothesis import HealthCheck, Phase, given, settings, strategies as st
        from helpers import scenario

        @settings(max_examples=20, database=None, derandomize=True,
                  phases=[Phase.generate, Phase.shrink],
                  suppress_health_check=list(HealthCheck))
        @given(st.integers(1, 6))
        def test_property(run_on, n):
            run_on(scenario(n))
            run_on(scenario(100 + n))
            assert n < 3, "pretend the property failed from n = 3 on"
    """))
    result = run(pytester, "--seed=7")
    result.assert_outcomes(failed=1)
    folder = next(p.parent for p in artifacts.rglob("counterexample.json"))
    assert sorted(p.name for p in folder.glob("run*.json")) == ["run0.json", "run1.json"]
    seeds = [json.loads((folder / f"run{i}.json").read_text())["seed"] for i in (0, 1)]
    assert seeds == [3, 103]                    # the shrunk example's two runs
    assert json.loads((folder / "counterexample.json").read_text())["seed"] == 3


def test_multi_switch_scenarios_skip_beyond_the_testbed_s_switches(pytester):
    """A target whose switches a testbed names (tofino-model, hardware; here p4sim
    treated the same way) has one switch per rack only up to the number the testbed
    names: a scenario with more rack switches is skipped with the reason (the testbed,
    its count, how to add more); the ones within it still run."""
    pytester.makeconftest(textwrap.dedent("""
        from atp_fixtures.targets.base import Kind
        from atp_fixtures.targets.p4sim import P4simTarget
        P4simTarget.kind = Kind.TESTBED
    """))
    pytester.makefile(".yaml", bed="target: tofino-model\n")
    pytester.makepyfile(helpers=textwrap.dedent(SCENARIO))
    pytester.makepyfile(test_racks=textwrap.dedent("""
        from hypothesis import HealthCheck, given, settings, strategies as st
        from helpers import scenario

        QUICK = settings(max_examples=6, database=None,
                         suppress_health_check=[HealthCheck.function_scoped_fixture])

        def test_two_racks(run_on):
            run_on(scenario(1, racks=2))

        @QUICK
        @given(st.sampled_from((1, 2)))
        def test_either(run_on, racks):
            assert run_on(scenario(1, racks)).completed

        @QUICK
        @given(st.just(2))
        def test_always_two(run_on, racks):
            run_on(scenario(1, racks))
    """))
    result = run(pytester, "--seed=3", "-rs", f"--testbed={pytester.path / 'bed.yaml'}")
    result.assert_outcomes(passed=1, skipped=2)
    result.stdout.fnmatch_lines([f"*the scenario has 2 rack switches, target 'p4sim' runs "
                                 f"one per switch of testbed {pytester.path / 'bed.yaml'}, "
                                 f"which names 1: to check such scenarios, list more under "
                                 f"its 'switches:'*"])


def test_host_stack_option_takes_ours_or_command(suite):
    result = run(suite, "--host-stack=theirs")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--host-stack*invalid choice*"])
    run(suite, "-k", "uses_target", "--host-stack=command").assert_outcomes(passed=1)


CORPUS_TESTS = """
    import pytest

    @pytest.mark.corpus_where(lambda s: len(s.jobs) >= 2)
    def test_jobs(corpus_scenario):
        pass

    def test_every_scenario(corpus_scenario):
        pass

    def test_trace(corpus_trace):
        pass
"""


@pytest.mark.parametrize("profile", ["spec", "atp-release"])
def test_corpus_cases_with_nothing_to_check_are_not_collected(pytester, profile):
    """A corpus case a test has nothing to check in is left out at collection (not a
    skip, which must mean a missing capability): scenarios its ``corpus_where`` rejects,
    and release traces under spec."""
    from atp_fixtures.generation.corpus import scenario_files, trace_files
    from reference.scenario import load_scenario
    from atp_fixtures.plugin import DEFAULT_CORPUS
    from atp_fixtures.evidence.trace import load_trace
    pytester.makepyfile(test_corpus=textwrap.dedent(CORPUS_TESTS))
    result = run(pytester, "--collect-only", "-q", f"--profile={profile}")
    ids = [line for line in result.outlines if "::" in line]
    scenarios = scenario_files(DEFAULT_CORPUS)
    several = {p.stem for p in scenarios if len(load_scenario(p).jobs) >= 2}
    assert 0 < len(several) < len(scenarios)
    assert {i.split("[")[1][:-1] for i in ids if "test_jobs[" in i} == several
    assert sum("test_every_scenario[" in i for i in ids) == len(scenarios)
    traces = {p.stem: load_trace(p).profile for p in trace_files(DEFAULT_CORPUS)}
    assert "atp-release" in traces.values() and "spec" in traces.values()
    kept = {t for t, p in traces.items() if p in ("spec", profile)}
    assert {i.split("[")[1][:-1] for i in ids if "test_trace[" in i} == kept
