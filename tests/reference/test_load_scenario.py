"""``reference.scenario.load_scenario``, the one reader of scenario files (issue 35,
item 4): a profile and other fields given by the caller are checked as the file's own,
and a bad file is a ``ScenarioError`` naming the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reference.scenario import ScenarioError, load_scenario

PARAMETER_LOSS = (Path(__file__).resolve().parents[2] / "fixtures" / "corpus" / "scenarios"
                  / "parameter-loss.json")


def test_the_file_as_written():
    scenario = load_scenario(PARAMETER_LOSS)
    assert scenario.to_dict() == load_scenario(str(PARAMETER_LOSS)).to_dict()
    assert scenario.profile == json.loads(PARAMETER_LOSS.read_text()).get("profile", "spec")


def test_profile_and_fields_replace_the_files():
    scenario = load_scenario(PARAMETER_LOSS, "atp-release", seed=29, faults={"targeted": []})
    assert (scenario.profile, scenario.seed, scenario.faults.targeted) == ("atp-release", 29, ())


@pytest.mark.parametrize("text,fields,needle", [
    ("{not json", {}, "not valid JSON"),
    (None, {"seed": "x"}, "scenario.seed"),
    (None, {"profile": "nope"}, "scenario.profile"),
])
def test_a_bad_file_names_itself(tmp_path, text, fields, needle):
    path = tmp_path / "s.json"
    path.write_text(PARAMETER_LOSS.read_text() if text is None else text)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path, **fields)
    assert str(info.value).startswith(str(path)) and needle in str(info.value)


def test_a_missing_file_is_a_scenario_error(tmp_path):
    with pytest.raises(ScenarioError, match="cannot read scenario"):
        load_scenario(tmp_path / "absent.json")
