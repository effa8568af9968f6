"""The Tofino SDE's own client (bfrt_grpc, unmodified) against the softswitch's server:
fixed tables, attributes, operations and error paths as bf_switchd's server source has
them (../shared/tools/sde-python/bf_switchd-reference/bf_rt_server_impl.cpp)."""
from __future__ import annotations

import pytest

from softswitch_helpers import serving

ALL_PIPES = 0xFFFF


@pytest.fixture
def connect(sde_client):
    """``connect(program) -> (gc, interface, bfrt_info, device)``, bound, torn down."""
    opened = []

    def make(name: str, ports=None):
        cm = serving(name, ports)
        addr, dev, _srv = cm.__enter__()
        opened.append(cm)
        gc = sde_client
        iface = gc.ClientInterface(addr, client_id=0, device_id=0)
        opened.append(iface)
        info = iface.bfrt_info_get()
        iface.bind_pipeline_config(info.p4_name_get())
        return gc, iface, info, dev

    yield make
    for x in reversed(opened):
        if hasattr(x, "tear_down_stream"):
            x.tear_down_stream()
        else:
            x.__exit__(None, None, None)


def test_device_configuration_says_one_pipe_tofino1(connect):
    gc, _iface, info, _dev = connect("l2_forward", {1: "ifa", 5: "ifb"})
    t = info.table_get("device_configuration")
    [(data, _key)] = list(t.default_entry_get(gc.Target(0, ALL_PIPES),
                                             p4_name=info.p4_name_get()))
    d = data.to_dict()
    assert (d["num_pipes"], d["num_stages"], d["num_front_ports"]) == (1, 12, 2)
    assert d["external_port_list"] == [1, 5] and d["recirc_port_list"] == [68]
    # pipe 0 and all pipes exist; pipe 1 does not
    fwd = info.table_get("forward")
    assert list(fwd.entry_get(gc.Target(0, 0))) == []
    with pytest.raises(gc.BfruntimeReadWriteRpcException) as ei:
        list(fwd.entry_get(gc.Target(0, 1)))
    assert ei.value.sub_errors_get()[0][1].canonical_code == 3       # INVALID_ARGUMENT
    family = [n for n in info.table_list_sorted if "device_configuration" in n][0]
    assert family.split(".")[0] == "tf1"


def test_read_errors_are_unknown_with_one_error_per_entity_present_entry_first(connect):
    gc, _iface, info, _dev = connect("l2_forward")
    t = info.table_get("forward")
    tgt = gc.Target(0, ALL_PIPES)
    present = t.make_key([gc.KeyTuple("hdr.ethernet.dst_addr", 0x020000000001)])
    missing = t.make_key([gc.KeyTuple("hdr.ethernet.dst_addr", 0x020000000002)])
    t.entry_add(tgt, [present], [t.make_data([gc.DataTuple("port", 5)], "Ingress.set_port")])

    with pytest.raises(gc.BfruntimeReadWriteRpcException) as ei:
        list(t.entry_get(tgt, [missing]))
    assert ei.value.grpc_error_get().code().name == "UNKNOWN"
    assert [(i, e.canonical_code) for i, e in ei.value.sub_errors_get()] == [(0, 5)]

    got = []
    with pytest.raises(gc.BfruntimeReadWriteRpcException) as ei:
        for data, key in t.entry_get(tgt, [present, missing]):
            got.append((key.to_dict()["hdr.ethernet.dst_addr"]["value"], data.to_dict()["port"]))
    assert got == [(0x020000000001, 5)]
    assert [i for i, _ in ei.value.sub_errors_get()] == [1]

    # error_in_resp: the errors come in the response, after the entries
    got = []
    with pytest.raises(gc.BfruntimeErrorInResponseException) as ei:
        for data, key in t.entry_get(tgt, [present, missing],
                                     metadata=(("error_in_resp", "1"),)):
            got.append(data.to_dict()["port"])
    assert got == [5]
    assert [(i, e.canonical_code) for i, e in ei.value.sub_errors_get()] == [(1, 5)]
    # read-all: every entry; the default entry only when asked for
    assert len(list(t.entry_get(tgt))) == 1
    [(d, _)] = list(t.default_entry_get(tgt))
    assert d.action_name == "Ingress.drop"


def test_write_batch_errors_by_index(connect):
    gc, _iface, info, _dev = connect("l2_forward")
    t = info.table_get("forward")
    tgt = gc.Target(0, ALL_PIPES)
    keys = [t.make_key([gc.KeyTuple("hdr.ethernet.dst_addr", m)]) for m in (1, 1, 2)]
    data = [t.make_data([gc.DataTuple("port", p)], "Ingress.set_port") for p in (1, 2, 3)]
    with pytest.raises(gc.BfruntimeReadWriteRpcException) as ei:
        t.entry_add(tgt, keys, data)
    assert [(i, e.canonical_code) for i, e in ei.value.sub_errors_get()] == [(1, 6)]  # ALREADY_EXISTS
    assert len(list(t.entry_get(tgt))) == 2
    # error_in_resp with nothing wrong: one OK status per update, no exception
    t.entry_add(tgt, [t.make_key([gc.KeyTuple("hdr.ethernet.dst_addr", 3)])],
                [t.make_data([gc.DataTuple("port", 4)], "Ingress.set_port")],
                metadata=(("error_in_resp", "1"),))
    assert len(list(t.entry_get(tgt))) == 3
    # ignore_not_found: deleting what is not there is no error
    t.entry_del(tgt, [t.make_key([gc.KeyTuple("hdr.ethernet.dst_addr", 9)])],
                metadata=(("ignore_not_found", "1"),))


def test_entry_scope_attribute_round_trips(connect):
    gc, _iface, info, _dev = connect("l2_forward")
    t = info.table_get("forward")
    tgt = gc.Target(0, ALL_PIPES)
    assert "EntryScope" in t.info.attributes_supported_get()
    [scope] = list(t.attribute_get(tgt, "EntryScope"))
    assert scope["pipe_scope"]["predef"] == gc.bfruntime_pb2.Mode.ALL
    t.attribute_entry_scope_set(tgt, predefined_pipe_scope=True,
                                predefined_pipe_scope_val=gc.bfruntime_pb2.Mode.SINGLE)
    [scope] = list(t.attribute_get(tgt, "EntryScope"))
    assert scope["pipe_scope"]["predef"] == gc.bfruntime_pb2.Mode.SINGLE
    with pytest.raises(gc.BfruntimeReadWriteRpcException) as ei:
        t.attribute_entry_scope_set(tgt, config_gress_scope=True)   # two of three scopes
    assert ei.value.sub_errors_get()[0][1].canonical_code == 3        # INVALID_ARGUMENT


def test_register_sync_and_one_value_per_pipe(connect):
    gc, _iface, info, dev = connect("registers")
    r = info.table_get("Ingress.owner")
    tgt = gc.Target(0, ALL_PIPES)
    assert "Sync" in r.info.operations_supported_get()
    r.entry_add(tgt, [r.make_key([gc.KeyTuple("$REGISTER_INDEX", 3)])],
                [r.make_data([gc.DataTuple("Ingress.owner.f1", 77)])])
    r.operations_execute(tgt, "Sync")
    [(data, _)] = list(r.entry_get(tgt, [r.make_key([gc.KeyTuple("$REGISTER_INDEX", 3)])],
                                   {"from_hw": True}))
    assert data.to_dict()["Ingress.owner.f1"] == [77] * dev.device_configuration()["num_pipes"]
    with pytest.raises(gc.BfruntimeReadWriteRpcException) as ei:
        r.operations_execute(tgt, "UpdateHitState")
    assert ei.value.sub_errors_get()[0][1].canonical_code == 12      # UNIMPLEMENTED


def test_pre_mod_inc_and_port_status_attribute(connect):
    gc, _iface, info, dev = connect("l2_forward", {1: "ifa", 2: "ifb"})
    tgt = gc.Target(0, ALL_PIPES)
    node, mgid = info.table_get("$pre.node"), info.table_get("$pre.mgid")
    for n, p in ((1, 1), (2, 2)):
        node.entry_add(tgt, [node.make_key([gc.KeyTuple("$MULTICAST_NODE_ID", n)])],
                       [node.make_data([gc.DataTuple("$MULTICAST_RID", n),
                                        gc.DataTuple("$DEV_PORT", int_arr_val=[p])])])
    key = mgid.make_key([gc.KeyTuple("$MGID", 7)])

    def members(node_ids):
        return mgid.make_data([gc.DataTuple("$MULTICAST_NODE_ID", int_arr_val=node_ids),
                               gc.DataTuple("$MULTICAST_NODE_L1_XID_VALID",
                                            bool_arr_val=[False] * len(node_ids)),
                               gc.DataTuple("$MULTICAST_NODE_L1_XID",
                                            int_arr_val=[0] * len(node_ids))])
    mgid.entry_add(tgt, [key], [members([1, 2])])
    mgid.entry_mod_inc(tgt, [key], [members([1])],
                       gc.bfruntime_pb2.TableModIncFlag.MOD_INC_DELETE)
    [(d, _)] = list(mgid.entry_get(tgt, [key]))
    assert d.to_dict()["$MULTICAST_NODE_ID"] == [2]
    assert dev.groups[7].nodes == [2]

    port = info.table_get("$PORT")
    port.attribute_port_status_change_set(tgt, enable=False)
    [att] = list(port.attribute_get(tgt, "port_status_notif_cb"))
    assert att["enable"] is False
