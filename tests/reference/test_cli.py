"""The CLI (issue 2, item 4): ``python -m reference run scenario.json`` prints a summary
and a verdict; bad input is one line on stderr and exit status 2, not a traceback."""

from __future__ import annotations

import json

import pytest

from reference.__main__ import main


def scenario(tmp_path, data):
    path = tmp_path / "s.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


GOOD = {"name": "tiny", "seed": 1,
        "topology": {"racks": [{"name": "r0", "hosts": ["w0", "w1", "p"]}]},
        "jobs": [{"app_id": 1, "workers": ["w0", "w1"], "pses": ["p"], "window": 2,
                  "tensors": [{"key": 1, "length": 200}]}],
        "faults": {"targeted": [{"action": "drop", "kind": "parameter", "to_node": "w1",
                                 "nth": 2}]}}


def test_cli_runs_a_scenario_and_prints_pass(tmp_path, capsys):
    assert main(["run", scenario(tmp_path, GOOD)]) == 0
    out = capsys.readouterr().out
    assert "scenario tiny" in out and "verdict: PASS" in out


@pytest.mark.parametrize("data,needle", [
    ("{not json", "not valid JSON"),
    ({**GOOD, "jobs": [{**GOOD["jobs"][0], "window": 0}]}, "scenario.jobs[0].window"),
    ({**GOOD, "colour": 1}, "unknown field(s) colour"),
    ([1, 2], "expected an object"),
])
def test_cli_bad_input_is_one_line_exit_2(tmp_path, capsys, data, needle):
    assert main(["run", scenario(tmp_path, data)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0]


def test_cli_missing_file(tmp_path, capsys):
    assert main(["run", str(tmp_path / "nope.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: cannot read scenario") and err.count("\n") == 1
