"""The ``--example-db`` string: every form, what reports call it, and the errors a user
gets for a bad one (what, where, how to fix)."""

from __future__ import annotations

import json

import pytest
from hypothesis.database import (DirectoryBasedExampleDatabase, GitHubArtifactDatabase,
                                 MultiplexedDatabase, ReadOnlyDatabase)

from atp_fixtures.campaign.example_db import ExampleDbError, Part, parse


def test_a_directory_is_a_directory_database(tmp_path):
    spec = parse(str(tmp_path / "db"))
    assert spec.parts == (Part("directory", str(tmp_path / "db")),)
    assert isinstance(spec.open(), DirectoryBasedExampleDatabase)
    assert parse(f"dir:{tmp_path}").parts[0].where == str(tmp_path)


def test_none_is_no_database():
    spec = parse("none")
    assert spec.open() is None and spec.describe() == "none"


def test_local_plus_shared_is_multiplexed_and_pull_requests_read_the_shared_part(tmp_path):
    text = f"{tmp_path},github:atp-org/atp-conformance"
    spec = parse(text)
    assert [p.kind for p in spec.parts] == ["directory", "github"]
    # hypothesis's recipe: local + read-only shared (a GitHub artifact never writes)
    assert spec.open() == MultiplexedDatabase(
        DirectoryBasedExampleDatabase(str(tmp_path)),
        ReadOnlyDatabase(GitHubArtifactDatabase("atp-org", "atp-conformance",
                                                artifact_name="hypothesis-example-db")))
    assert spec.describe() == (f"{tmp_path} + github:atp-org/atp-conformance/"
                               f"hypothesis-example-db (read-only)")


def test_read_only_shared_keeps_the_local_directory_writable(tmp_path):
    spec = parse(f"{tmp_path},redis://db.example:6379/0", read_only_shared=True)
    assert [(p.kind, p.read_only) for p in spec.parts] == [("directory", False),
                                                          ("redis", True)]
    assert not spec.writes_shared and parse(f"{tmp_path},redis://h:1/0").writes_shared


def test_readonly_prefix_makes_any_part_read_only(tmp_path):
    spec = parse(f"readonly:{tmp_path}")
    assert spec.parts == (Part("directory", str(tmp_path), True),)
    assert isinstance(spec.open(), ReadOnlyDatabase)
    assert spec.describe().endswith("(read-only)")


def test_passwords_never_reach_a_report():
    assert parse("redis://:hunter2@db:6379/0").describe() == "redis://:***@db:6379/0"
    assert parse("redis://ci:hunter2@db:6379/0").describe() == "redis://ci:***@db:6379/0"


@pytest.mark.parametrize("text, says", [
    ("", "empty"),
    ("a,,b", "empty part"),
    ("none,.hypothesis", "'none' cannot be combined"),
    ("http://db/0", "unknown scheme"),
    ("github:just-an-owner", "github:OWNER/REPO"),
])
def test_bad_strings_say_what_and_how(text, says):
    with pytest.raises(ExampleDbError, match=says):
        parse(text)


def test_a_file_is_not_a_directory(tmp_path):
    path = tmp_path / "examples"
    path.write_text("")
    with pytest.raises(ExampleDbError, match="is a file, not a directory"):
        parse(str(path))


def test_bad_option_values_are_usage_errors(pytester):
    pytester.makepyfile(test_x="def test_x():\n    pass\n")
    for args, says in ((["--example-db=ftp://x/0"], "--example-db: *unknown scheme*"),
                       (["--shard=3/2"], "--shard: --shard=3/2: i must be between 1 and N*")):
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider",
                                               "--target=reference", *args)
        assert result.ret == pytest.ExitCode.USAGE_ERROR
        result.stderr.fnmatch_lines([f"*{says}"])


def test_every_report_names_the_database_and_the_shard(pytester, tmp_path, monkeypatch):
    """The session header, summary.json and the allure environment."""
    summary = tmp_path / "summary.json"
    monkeypatch.setenv("ATP_SUMMARY_JSON", str(summary))
    pytester.makepyfile(test_x="def test_x(target):\n    assert target.name\n")
    db = tmp_path / "db"
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--target=reference", f"--example-db={db}",
        "--shard=1/1", "--seed=3", f"--alluredir={tmp_path / 'allure'}")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"atp: example db={db} shard=1/1 hypothesis seed=3"])
    campaign = json.loads(summary.read_text())["sections"]["campaign"]
    assert campaign["example_db"] == str(db) and campaign["shard"] == "1/1"
    environment = (tmp_path / "allure" / "environment.properties").read_text()
    assert f"example_db={db}\n" in environment and "shard=1/1\n" in environment


def test_without_the_option_the_profile_database_is_named(pytester):
    pytester.makepyfile(test_x="def test_x(target):\n    assert target.name\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--target=reference",
                                           "--hypothesis-profile=ci")
    result.stdout.fnmatch_lines(["atp: example db=none (hypothesis profile ci has none)*"])
