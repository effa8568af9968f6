"""The name map of the release's p4ml.p4 against the program's objects as a compiler
wrote them: ``tests/targets/data/p4ml-bfrt.json`` is bf-p4c's bfrt.json of p4ml.p4's TNA
translation (its ``_provenance`` says how it was made). The map matches it, a missing
object is named, a corrected map needs no code, and a bad map file is one line naming the
file, the key and the fix."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bfruntime.info import BfrtInfo
from atp_fixtures.targets.p4ml_names import (DEFAULT_MAP, NameMapError, load_names, missing_from,
                                         register_names)
from p4sim.switchd.bfrt_schema import fixed_schema

from schema_switch import release_schema


def _info(schema: dict) -> BfrtInfo:
    return BfrtInfo("p4ml", schema, fixed_schema())


def _table(schema: dict, name: str) -> dict:
    return next(t for t in schema["tables"] if t["name"] == name)


def test_the_shipped_map_matches_the_release_program_as_compiled():
    names = load_names()
    assert missing_from(_info(release_schema()), names) == []
    # what the map says of the program (facts of p4ml.p4's declarations)
    schema = release_schema()
    assert _table(schema, names["registers"]["owner"])["size"] == 40000
    assert len(names.value_registers()) == 31 and len(names.value_tables()) == 31
    route_key = {k["name"]: k for k in _table(schema, names["route"]["table"])["key"]}
    assert route_key[names["route"]["app_id"]]["type"]["width"] == 16  # the masked half
    assert [k["name"] for k in _table(schema, "pipe.processEntry7")["key"]] == [
        "mdata.bitmap", "$MATCH_PRIORITY"]


def test_each_missing_object_is_named_with_where_it_belongs():
    schema = release_schema()
    schema["tables"] = [t for t in schema["tables"]
                        if t["name"] not in ("pipe.outPort_table", "pipe.register17")]
    mc = _table(schema, "pipe.multicast_table")
    mc["key"] = [k for k in mc["key"] if k["name"] != "ig_intr_md.ingress_port"]
    for action in mc["action_specs"]:
        if action["name"] == "multicast":
            action["data"] = []
    fwd = _table(schema, "pipe.forward")
    fwd["action_specs"] = [a for a in fwd["action_specs"] if a["name"] != "set_egr"]
    owner = _table(schema, "pipe.appID_and_Seq")
    owner["data"][0]["singleton"]["name"] = "appID_and_Seq.lo"
    for key in _table(schema, "pipe.multicast_table")["key"]:
        if key["name"] == "p4ml.appIDandSeqNum":          # an SDE keeping the mask
            key["match_type"] = "Ternary"
    assert missing_from(_info(schema), load_names()) == [
        "action set_egr of table pipe.forward",
        "table pipe.outPort_table",
        "exact key field p4ml.appIDandSeqNum of table pipe.multicast_table (it is ternary)",
        "key field ig_intr_md.ingress_port of table pipe.multicast_table",
        "parameter group of action multicast (table pipe.multicast_table)",
        "data field appID_and_Seq.f1 of register pipe.appID_and_Seq",
        "register pipe.register17",
    ]


def test_our_own_atp_program_is_not_the_release_program():
    from p4sim.switchd.bfrt_schema import program_schema
    import p4sim
    l2 = Path(__file__).resolve().parents[1] / "p4sim" / "programs" / "l2_forward.p4"
    missing = missing_from(_info(program_schema(p4sim.compile_file(str(l2)))), load_names())
    assert missing[:2] == ["table pipe.forward", "table pipe.outPort_table"]
    assert "register pipe.appID_and_Seq" in missing


def test_a_corrected_map_is_data_not_code(tmp_path):
    """A user whose SDE names the L2 table and the owner register differently edits the
    map only."""
    schema = release_schema()
    _table(schema, "pipe.forward")["name"] = "pipe.ingress.forward"
    reg = _table(schema, "pipe.appID_and_Seq")
    reg["name"] = "pipe.ingress.appID_and_Seq"
    reg["data"][0]["singleton"]["name"] = "ingress.appID_and_Seq.f1"
    assert missing_from(_info(schema), load_names()) == [
        "table pipe.forward", "register pipe.appID_and_Seq"]
    data = yaml.safe_load(DEFAULT_MAP.read_text())
    data["l2"]["table"] = "pipe.ingress.forward"
    data["registers"]["owner"] = "pipe.ingress.appID_and_Seq"
    path = tmp_path / "my-names.yaml"
    path.write_text(yaml.safe_dump(data))
    names = load_names(path)
    assert missing_from(_info(schema), names) == []
    assert "pipe.ingress.appID_and_Seq" in register_names(names)


def _bad(tmp_path, mutate) -> str:
    data = yaml.safe_load(DEFAULT_MAP.read_text())
    mutate(data)
    path = tmp_path / "names.yaml"
    path.write_text(yaml.safe_dump(data) if not isinstance(data, str) else data)
    with pytest.raises(NameMapError) as info:
        load_names(path)
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(path)), message
    return message[len(str(path)):]


@pytest.mark.parametrize("mutate, expected", [
    (lambda d: d.update(program="atp"),
     ": 'program' must be p4ml (this map describes the release's p4ml.p4), got 'atp'"),
    (lambda d: d.pop("route"),
     ": route is missing or not a mapping; it needs table, app_id, ingress_port, data_index, "
     "ps_index, first_pass, to_ps, port"),
    (lambda d: d["l2"].pop("port"),
     ": l2: missing port (keys: table, key, action, port)"),
    (lambda d: d["l2"].update(egress="x"),
     ": l2: unknown egress (keys: table, key, action, port)"),
    (lambda d: d["values"].update(table="pipe.processEntry"),
     ": values.table must contain '{n}' (the element number 1..31), got 'pipe.processEntry'"),
    (lambda d: d["registers"].update(owner=""),
     ": registers.owner must be a name from bfrt.json, got ''"),
    (lambda d: d["multicast"].update(group_base="many"),
     ": multicast.group_base must be an integer 0..64999, got 'many'"),
    (lambda d: d.update(elements_per_pass=62),
     ": 'elements_per_pass' must be 1..31 (p4ml.p4 carries 31 values per pass), got 62"),
    (lambda d: d.update(tables={}),
     ": unknown section(s) tables; known: l2, route, multicast, drop, packet_bitmap, values, "
     "registers, elements_per_pass"),
])
def test_a_bad_map_is_one_line_naming_file_key_and_fix(tmp_path, mutate, expected):
    assert _bad(tmp_path, mutate) == expected


def test_an_unreadable_or_absent_map(tmp_path):
    path = tmp_path / "names.yaml"
    path.write_text("l2: [unclosed\n")
    with pytest.raises(NameMapError, match=r"names.yaml:2:1: not valid YAML"):
        load_names(path)
    with pytest.raises(NameMapError, match=r"does not exist; point 'program.names' of the "
                                           r"testbed at a map such as p4ml-names.yaml"):
        load_names(tmp_path / "absent.yaml")


def test_the_fixture_says_how_it_was_made():
    """The bfrt.json fixture is compiler output, not ours: its provenance says so."""
    doc = release_schema()
    text = " ".join(doc["_provenance"])
    assert "bf-p4c 1.2.5.16" in text and "--arch tna" in text and "assumption" in text
    kinds = {t["table_type"] for t in doc["tables"]}
    assert kinds == {"MatchAction_Direct", "Register"}
