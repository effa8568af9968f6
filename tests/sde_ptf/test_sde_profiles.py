"""The SDE's own client (bfrt_grpc) on action profile and selector tables: references
between entries, groups and members are kept with the status codes bf_switchd gives
(ALREADY_EXISTS for an id still named, NOT_FOUND for a missing one), and reads give back
what was written."""
from __future__ import annotations

import pytest

from test_sde_client import ALL_PIPES, connect  # noqa: F401  (the fixture)

ALREADY_EXISTS, NOT_FOUND = 6, 5


def _code(gc, call):
    with pytest.raises(gc.BfruntimeReadWriteRpcException) as ei:
        call()
    return ei.value.sub_errors_get()[0][1].canonical_code


def test_references_and_read_back(connect):  # noqa: F811
    gc, _iface, info, _dev = connect("action_selector_deprecated")
    tgt = gc.Target(0, ALL_PIPES)
    profile = info.table_get("SwitchIngress.port_selector")          # Action (implicit)
    selector = info.table_get("SwitchIngress.port_selector_sel")
    forward = info.table_get("SwitchIngress.forward")
    member = profile.make_key([gc.KeyTuple("$ACTION_MEMBER_ID", 3)])
    profile.entry_add(tgt, [member], [profile.make_data([gc.DataTuple("port", 9)],
                                                        "SwitchIngress.set_port")])
    group = selector.make_key([gc.KeyTuple("$SELECTOR_GROUP_ID", 1)])
    selector.entry_add(tgt, [group], [selector.make_data([
        gc.DataTuple("$ACTION_MEMBER_ID", int_arr_val=[3]),
        gc.DataTuple("$ACTION_MEMBER_STATUS", bool_arr_val=[True])])])
    key = forward.make_key([gc.KeyTuple("hdr.ethernet.dst_addr", 0x0A0000000001)])
    forward.entry_add(tgt, [key], [forward.make_data([gc.DataTuple("$SELECTOR_GROUP_ID", 1)])])

    assert _code(gc, lambda: profile.entry_del(tgt, [member])) == ALREADY_EXISTS
    assert _code(gc, lambda: selector.entry_del(tgt, [group])) == ALREADY_EXISTS
    missing = forward.make_key([gc.KeyTuple("hdr.ethernet.dst_addr", 2)])
    assert _code(gc, lambda: forward.entry_add(tgt, [missing], [forward.make_data(
        [gc.DataTuple("$ACTION_MEMBER_ID", 77)])])) == NOT_FOUND

    [(data, _k)] = list(forward.entry_get(tgt, [key], {"from_hw": False}))
    assert data.to_dict()["$SELECTOR_GROUP_ID"] == 1
    [(data, _k)] = list(selector.entry_get(tgt, [group], {"from_hw": False}))
    assert data.to_dict()["$MAX_GROUP_SIZE"] == 120          # bf-p4c's default there
    [(data, _k)] = list(profile.entry_get(tgt, [member], {"from_hw": False}))
    assert data.to_dict()["port"] == 9

    forward.entry_del(tgt, [key])
    selector.entry_del(tgt, [group])
    profile.entry_del(tgt, [member])
    assert list(profile.entry_get(tgt)) == []
