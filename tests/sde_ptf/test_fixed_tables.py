"""The softswitch's fixed tables against bf_switchd's own schemas for Tofino 1
(bf_rt_port_tf1.json, bf_rt_pre_tf1.json, bf_rt_dev_tf1.json): every table, key and data
field we serve has the SDE's name, id, type and read-only flag, so the SDE client's calls
land on what they mean."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from p4sim.switchd.bfrt_schema import fixed_schema
from sde_python import SDE_PYTHON

REFERENCE = SDE_PYTHON / "bf_switchd-reference"
SCHEMAS = ("bf_rt_port_tf1.json", "bf_rt_pre_tf1.json", "bf_rt_dev_tf1.json")


def _fields(table: dict) -> dict:
    out = {}
    for d in table.get("data", []):
        for s in ([d["singleton"]] if "singleton" in d else d.get("oneof", [])):
            out[s["name"]] = (s["id"], s["type"]["type"], bool(s.get("repeated")),
                              bool(d.get("read_only")))
    return out


@pytest.fixture(scope="module")
def sde_tables() -> dict:
    if not all((REFERENCE / f).is_file() for f in SCHEMAS):
        pytest.skip(f"bf_switchd's fixed-table schemas are not here: {REFERENCE}/"
                    f"{{{','.join(SCHEMAS)}}}")
    return {t["name"]: t for f in SCHEMAS
            for t in json.loads((REFERENCE / f).read_text())["tables"]}


# tables whose SDE schema is not in bf_switchd-reference, and where it is
ELSEWHERE = {"$mirror.cfg": "pkgsrc/bf-drivers/src/bf_rt/bf_rt_mirror/bf_rt_mirror_tf1.json"}


def _check_table(ours: dict, sde: dict) -> None:
    assert (ours["id"], ours["table_type"]) == (sde["id"], sde["table_type"])
    assert [(k["name"], k["id"], k["type"]["type"]) for k in ours["key"]] == \
        [(k["name"], k["id"], k["type"]["type"]) for k in sde["key"]]
    theirs = _fields(sde)
    for name, spec in _fields(ours).items():
        assert theirs.get(name) == spec, f"{ours['name']} field {name}"
    assert set(ours["attributes"]) <= set(sde.get("attributes", [])), ours["name"]


def test_mirror_cfg_is_the_sdes():
    """$mirror.cfg against open-p4studio's own schema, from the checkout $OPEN_P4STUDIO
    names (tests/sde_ptf/sde_examples.py)."""
    root = os.environ.get("OPEN_P4STUDIO")
    path = Path(root) / ELSEWHERE["$mirror.cfg"] if root else None
    if path is None or not path.is_file():
        pytest.skip(f"no open-p4studio checkout with {ELSEWHERE['$mirror.cfg']}: set "
                    f"OPEN_P4STUDIO to one")
    [sde] = [t for t in json.loads(path.read_text())["tables"] if t["name"] == "$mirror.cfg"]
    [ours] = [t for t in fixed_schema()["tables"] if t["name"] == "$mirror.cfg"]
    _check_table(ours, sde)
    assert [(a["name"], a["id"]) for a in ours["action_specs"]] == \
        [(a["name"], a["id"]) for a in sde["action_specs"]]


def test_fixed_tables_are_the_sdes(sde_tables):
    for ours in fixed_schema()["tables"]:
        if ours["name"] in ELSEWHERE:
            continue            # test_mirror_cfg_is_the_sdes
        sde = sde_tables.get(ours["name"])
        assert sde is not None, f"bf_switchd has no table {ours['name']}"
        _check_table(ours, sde)


def test_port_table_answers_what_the_sde_port_utilities_read(sde_client):
    from softswitch_helpers import serving
    gc = sde_client
    with serving("l2_forward", {1: "ifa"}) as (addr, _dev, _srv):
        iface = gc.ClientInterface(addr, client_id=0, device_id=0)
        try:
            info = iface.bfrt_info_get()
            iface.bind_pipeline_config(info.p4_name_get())
            port = info.table_get("$PORT")
            tgt = gc.Target(0, 0xFFFF)
            [(data, key)] = list(port.entry_get(tgt, []))
            d = data.to_dict()
            assert key.to_dict()["$DEV_PORT"]["value"] == 1
            assert (d["$IS_INTERNAL"], d["$IS_VALID"], d["$LOOPBACK_MODE"]) == \
                (False, True, "BF_LPBK_NONE")
            with pytest.raises(gc.BfruntimeReadWriteRpcException) as ei:
                port.entry_mod(tgt, [port.make_key([gc.KeyTuple("$DEV_PORT", 1)])],
                               [port.make_data([gc.DataTuple("$LOOPBACK_MODE",
                                                             str_val="BF_LPBK_MAC_NEAR")])])
            assert "software port" in ei.value.sub_errors_get()[0][1].message
            # a port's name is its interface's
            names = info.table_get("$PORT_STR_INFO")
            [(data, _)] = list(names.entry_get(
                tgt, [names.make_key([gc.KeyTuple("$PORT_NAME", d["$PORT_NAME"])])]))
            assert d["$PORT_NAME"] == "ifa" and data.to_dict()["$DEV_PORT"] == 1
        finally:
            iface.tear_down_stream()
