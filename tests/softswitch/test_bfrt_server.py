"""BfRuntime over loopback gRPC: our client against the softswitch's server."""
from __future__ import annotations

import time

import grpc
import pytest

from bfruntime import bfruntime_pb2 as pb
from bfruntime.client import BfRuntimeClient, BfRuntimeError, to_signed
from bfruntime.service import BfRuntimeStub
from softswitch_helpers import eth, serving


@pytest.fixture
def l2():
    with serving("l2_forward") as (addr, dev, srv):
        yield addr, dev, srv


def test_exact_table_entry_drives_the_data_path(l2):
    addr, dev, _ = l2
    with BfRuntimeClient(addr, p4_name="l2_forward", timeout=5) as c:
        c.entry_add("Ingress.forward", {"hdr.ethernet.dst_addr": 0x020000000001}, "set_port",
                    {"port": 5})
        assert dev.inject(1, eth(0x020000000001), 0) == [(5, eth(0x020000000001))]
        assert dev.inject(1, eth(0x020000000002), 0) == []          # default: drop
        c.entry_mod("forward", {"hdr.ethernet.dst_addr": 0x020000000001}, "set_port",
                    {"port": 7})
        assert dev.inject(1, eth(0x020000000001), 0)[0][0] == 7
        [e] = c.entry_get("forward", {"hdr.ethernet.dst_addr": 0x020000000001})
        assert (e.action, e.data) == ("Ingress.set_port", {"port": 7})
        c.entry_del("forward", {"hdr.ethernet.dst_addr": 0x020000000001})
        assert c.entry_get("forward") == []


def test_default_entry_set_read_and_reset(l2):
    addr, dev, _ = l2
    with BfRuntimeClient(addr, p4_name="l2_forward", timeout=5) as c:
        assert c.default_entry_get("forward").action == "Ingress.drop"
        c.default_entry_set("forward", "set_port", {"port": 3})
        d = c.default_entry_get("forward")
        assert (d.action, d.data, d.is_default) == ("Ingress.set_port", {"port": 3}, True)
        assert dev.inject(0, eth(0x0A), 0)[0][0] == 3
        c.default_entry_reset("forward")
        assert c.default_entry_get("forward").action == "Ingress.drop"


def test_ternary_lpm_range_keys_and_priorities():
    with serving("tables") as (addr, dev, _):
        with BfRuntimeClient(addr, p4_name="tables", timeout=5) as c:
            c.entry_add("classify", {"hdr.probe.flags": (0x10, 0xF0), "etype": 0x800},
                        "set_tern", {"v": 1, "sw": 2}, priority=5)
            c.entry_add("classify", {"hdr.probe.flags": (0x11, 0xFF), "etype": 0x800},
                        "set_tern", {"v": 3, "sw": 4}, priority=1)
            c.entry_add("routes", {"hdr.probe.addr": (0x0A000000, 8)}, "set_lpm", {"v": 9})
            c.entry_add("ranges", {"hdr.probe.port": (100, 200)}, "set_range", {"v": 6},
                        priority=0)
            got = {(e.key["hdr.probe.flags"], e.priority) for e in c.entry_get("classify")}
            assert got == {((0x10, 0xF0), 5), ((0x11, 0xFF), 1)}
            [r] = c.entry_get("routes")
            assert r.key == {"hdr.probe.addr": (0x0A000000, 8)}
            [g] = c.entry_get("ranges")
            assert (g.key, g.priority, g.data) == ({"hdr.probe.port": (100, 200)}, 0, {"v": 6})
            sw = dev.switch
            assert len(sw.table("classify").entries) == 2
            assert c.usage("classify") == 2


def test_const_table_and_defaultonly_are_refused_readably():
    with serving("tables") as (addr, _dev, _):
        with BfRuntimeClient(addr, p4_name="tables", timeout=5) as c:
            with pytest.raises(BfRuntimeError, match="const entries"):
                c.entry_add("fixed", {"hdr.probe.c": (1, 0xFF)}, "set_const", {"v": 1},
                            priority=0)
            with pytest.raises(BfRuntimeError, match="defaultonly"):
                c.entry_add("classify", {"hdr.probe.flags": (1, 1), "etype": 1},
                            "miss_marker", priority=0)
            assert len(c.entry_get("fixed")) == 3      # const entries are readable


def test_registers_read_write_all_and_reset():
    with serving("registers") as (addr, dev, _):
        with BfRuntimeClient(addr, p4_name="registers", timeout=5) as c:
            # initial value -5 of an int<32> register travels as two's complement
            assert to_signed(c.register_read("signed_acc", 3)["f1"][0], 32) == -5
            c.register_write("Ingress.owner", 2, 77)
            assert c.register_read("owner", 2) == {"f1": [77]}
            assert dev.switch.register_read("Ingress.owner", 2) == 77
            c.register_write("pair", 1, {"lo": 1, "hi": 2})
            assert c.register_read("pair", 1) == {"lo": [1], "hi": [2]}
            c.register_write("signed_acc", 0, -7)
            assert dev.switch.register_read("Ingress.signed_acc", 0) == -7
            cells = c.register_read_all("owner")
            assert len(cells) == 16 and cells[2] == {"f1": [77]}
            c.table_clear("owner")
            assert c.register_read("owner", 2) == {"f1": [0]}
            with pytest.raises(BfRuntimeError, match="index 16 outside 0..15"):
                c.register_read("owner", 16)
            with pytest.raises(ValueError, match="does not fit in 8 bits"):
                c.register_write("tiny", 0, 256)     # checked by the client, not sent


def test_counters_and_direct_counters():
    with serving("counters") as (addr, dev, _):
        with BfRuntimeClient(addr, p4_name="counters", timeout=5) as c:
            c.entry_add("forward", {"dmac": 0x020000000001, "hdr.ethernet.ether_type": (0, 0)},
                        "set_port", {"port": 2}, priority=0)
            frame = eth(0x020000000001, payload=bytes(50))
            for _ in range(3):
                dev.inject(4, frame, 0)
            pkts, nbytes = dev.switch.counter_read("Ingress.port_pkts", 4)
            assert pkts == 3 and nbytes >= 3 * len(frame)
            assert c.counter_read("port_pkts", 4) == {"packets": pkts, "bytes": nbytes}
            [e] = c.entry_get("forward")
            assert e.data["$COUNTER_SPEC_PKTS"] == 3
            c.reset()
            assert c.counter_read("port_pkts", 4) == {"packets": 0, "bytes": 0}
            assert c.entry_get("forward") == []


def _tm_frame(mode: int, mgid: int = 0) -> bytes:
    ipv4 = bytes([0x45, 0]) + (20 + 14).to_bytes(2, "big") + bytes(16)
    cmd = bytes([mode, 0]) + mgid.to_bytes(2, "big") + bytes(10)
    return eth(0x02, payload=ipv4 + cmd)


def test_pre_multicast_groups_replicate():
    with serving("traffic_manager") as (addr, dev, _):
        with BfRuntimeClient(addr, p4_name="traffic_manager", timeout=5) as c:
            c.multicast_node_add(1, rid=10, ports=[1, 2])
            c.multicast_node_add(2, rid=20, ports=[3])
            c.multicast_group_add(7, [1, 2])
            out = dev.inject(0, _tm_frame(2, 7), 0)
            assert sorted(p for p, _ in out) == [1, 2, 3]
            [g] = c.entry_get("$pre.mgid", {"$MGID": 7})
            assert g.data["$MULTICAST_NODE_ID"] == [1, 2]
            with pytest.raises(BfRuntimeError, match="member of multicast groups"):
                c.entry_del("$pre.node", {"$MULTICAST_NODE_ID": 1})
            c.reset()
            assert dev.inject(0, _tm_frame(2, 7), 0) == []
            assert c.entry_get("$pre.node") == []


def test_one_client_binds_and_a_disconnect_releases_the_binding(l2):
    addr, _, srv = l2
    first = BfRuntimeClient(addr, p4_name="l2_forward", client_id=1, timeout=5)
    with pytest.raises(BfRuntimeError, match="already bound by client 1"):
        BfRuntimeClient(addr, p4_name="l2_forward", client_id=2, timeout=5)
    # a client that does not bind still reads and writes by naming the program
    with BfRuntimeClient(addr, p4_name="l2_forward", client_id=3, subscribe=False,
                         timeout=5) as other:
        assert other.entry_get("forward") == []
    first.close()
    deadline = time.monotonic() + 5
    while srv.bound_client is not None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert srv.bound_client is None
    with BfRuntimeClient(addr, p4_name="l2_forward", client_id=2, timeout=5) as second:
        second.entry_add("forward", {"hdr.ethernet.dst_addr": 1}, "set_port", {"port": 1})


def test_unbound_client_without_program_name_is_refused(l2):
    addr = l2[0]
    ch = grpc.insecure_channel(addr)
    stub = BfRuntimeStub(ch)
    with pytest.raises(grpc.RpcError) as ei:
        list(stub.Read(pb.ReadRequest(client_id=9), timeout=5))
    assert ei.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "not bound" in ei.value.details()
    ch.close()


def test_malformed_requests_get_readable_statuses_and_the_server_survives(l2):
    addr = l2[0]
    ch = grpc.insecure_channel(addr)
    raw = ch.unary_unary("/bfrt_proto.BfRuntime/Write", request_serializer=None,
                         response_deserializer=None)
    with pytest.raises(grpc.RpcError) as ei:
        raw(b"\xff\xff\xff\xff\x0f", timeout=5)
    assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "not a valid bfrt_proto.WriteRequest" in ei.value.details()
    ch.close()
    with BfRuntimeClient(addr, p4_name="l2_forward", timeout=5) as c:
        # an unknown table id, a key that does not fit, an action id that does not exist
        bad = pb.Update(type=pb.Update.INSERT)
        bad.entity.table_entry.table_id = 12345
        with pytest.raises(BfRuntimeError, match="no table with id 12345") as ei:
            c.write([bad])
        assert ei.value.errors[0][1] == "NOT_FOUND"
        t = c.table("forward")
        u = pb.Update(type=pb.Update.INSERT)
        te = u.entity.table_entry
        te.table_id = t.id
        kf = te.key.fields.add()
        kf.field_id = t.keys[0].id
        kf.exact.value = b"\x01" * 7
        te.data.action_id = 999
        with pytest.raises(BfRuntimeError, match="does not fit in 48 bits"):
            c.write([u])
        kf.exact.value = b"\x01" * 6
        with pytest.raises(BfRuntimeError, match="no action with id 999"):
            c.write([u])
        # the good update of a mixed batch is applied; the bad one is reported by index
        good = c._update(pb.Update.INSERT, t, {"hdr.ethernet.dst_addr": 5}, None, "set_port",
                         {"port": 1})
        with pytest.raises(BfRuntimeError) as ei:
            c.write([good, bad])
        assert [i for i, _, _ in ei.value.errors] == [1]
        assert len(c.entry_get("forward")) == 1


def test_client_names_what_is_wrong_before_sending(l2):
    with BfRuntimeClient(l2[0], p4_name="l2_forward", timeout=5) as c:
        with pytest.raises(ValueError, match="no key field 'dmac'"):
            c.entry_add("forward", {"dmac": 1}, "set_port", {"port": 1})
        with pytest.raises(ValueError, match="no action 'fly'"):
            c.entry_add("forward", {"hdr.ethernet.dst_addr": 1}, "fly")
        with pytest.raises(ValueError, match="does not fit in 9 bits"):
            c.entry_add("forward", {"hdr.ethernet.dst_addr": 1}, "set_port", {"port": 600})


def test_wrong_program_and_wrong_device(l2):
    addr = l2[0]
    with pytest.raises(BfRuntimeError, match="'atp' is not on the switch.*l2_forward"):
        BfRuntimeClient(addr, p4_name="atp", timeout=5)
    with pytest.raises(BfRuntimeError, match="Subscribe of client 0 refused: NOT_FOUND"):
        BfRuntimeClient(addr, p4_name="l2_forward", device_id=3, timeout=5)


def test_no_server_is_a_readable_error_after_retries():
    t0 = time.monotonic()
    with pytest.raises(BfRuntimeError, match="no BfRuntime server at 127.0.0.1:9 after 2 tries"):
        BfRuntimeClient("127.0.0.1:9", p4_name="x", timeout=1.0, retries=2)
    assert time.monotonic() - t0 < 5


def test_warm_init_clears_everything_and_is_announced(l2):
    addr, dev, _ = l2
    with BfRuntimeClient(addr, p4_name="l2_forward", timeout=5) as c:
        c.entry_add("forward", {"hdr.ethernet.dst_addr": 1}, "set_port", {"port": 1})
        req = pb.SetForwardingPipelineConfigRequest(
            client_id=0, action=pb.SetForwardingPipelineConfigRequest
            .VERIFY_AND_WARM_INIT_BEGIN_AND_END)
        req.config.add().p4_name = "l2_forward"
        resp = c.stub.SetForwardingPipelineConfig(req, timeout=5)
        assert resp.set_forwarding_pipeline_config_response_type == pb.WARM_INIT_FINISHED
        assert c.entry_get("forward") == []
        m = c._stream.inbox.get(timeout=5)
        assert m.WhichOneof("update") == "set_forwarding_pipeline_config_response"


def test_port_status_changes_reach_subscribed_clients():
    with serving("l2_forward", ports={0: "nowhere0", 1: "nowhere1"}) as (addr, dev, _):
        with BfRuntimeClient(addr, p4_name="l2_forward", timeout=5) as c:
            dev.set_port_up(1, False)
            assert c.port_status_notifications(timeout=5) == [(1, False)]
            [p] = c.entry_get("$PORT", {"$DEV_PORT": 1})
            assert p.data["$PORT_UP"] is False and p.data["$PORT_NAME"] == "nowhere1"
            c.entry_add("forward", {"hdr.ethernet.dst_addr": 1}, "set_port", {"port": 1})
            assert dev.inject(0, eth(1), 0) == []      # port 1 is down
            dev.set_port_up(1, True)
            assert dev.inject(0, eth(1), 0)[0][0] == 1
            assert c.port_frames() == {0: (2, 0), 1: (0, 1)}     # processed in, sent out
            with pytest.raises(BfRuntimeError, match="not bound to an interface"):
                c.entry_add("$PORT", {"$DEV_PORT": 9}, None, {"$PORT_ENABLE": True})


def test_our_client_reads_errors_as_the_sde_client_does(l2):
    """A read of [present, missing]: UNKNOWN, one error at the missing entity's index
    (bf_switchd's error reporter); the read-all leaves the default entry out."""
    with BfRuntimeClient(l2[0], p4_name="l2_forward", timeout=5) as c:
        c.entry_add("forward", {"hdr.ethernet.dst_addr": 1}, "set_port", {"port": 2})
        t = c.table("forward")
        ents = []
        for mac in (1, 2):
            ent = pb.Entity()
            ent.table_entry.table_id = t.id
            c._key(t, {"hdr.ethernet.dst_addr": mac}, None, ent.table_entry.key)
            ents.append(ent)
        with pytest.raises(BfRuntimeError, match="entity 1: NOT_FOUND") as ei:
            c.read(ents)
        assert ei.value.code == grpc.StatusCode.UNKNOWN
        assert [(i, code) for i, code, _ in ei.value.errors] == [(1, "NOT_FOUND")]
        assert [e.key for e in c.entry_get("forward")] == [{"hdr.ethernet.dst_addr": 1}]


def test_a_batch_is_one_write_in_order_and_names_what_failed(l2):
    """``BfRuntimeClient.batch``: the writes of a block reach the switch as one Write, in
    their order (a delete then an add of the same key works); a failed update is named
    by the call it came from (the others apply, as any Write of several updates); a
    block that raises sends nothing."""
    addr, dev, srv = l2
    key = {"hdr.ethernet.dst_addr": 0x020000000001}
    with BfRuntimeClient(addr, p4_name="l2_forward", timeout=5) as c:
        c.entry_add("forward", key, "set_port", {"port": 5})
        writes = srv.work.counts["write"]
        with c.batch("swap"):
            c.entry_del("forward", key)
            c.entry_add("forward", key, "set_port", {"port": 6})
            c.default_entry_set("forward", "set_port", {"port": 3})
            assert c.entry_get("forward", key)[0].data == {"port": 5}    # not sent yet
        assert srv.work.counts["write"] == writes + 1
        assert dev.inject(1, eth(0x020000000001), 0)[0][0] == 6
        with pytest.raises(BfRuntimeError) as info:
            with c.batch("two adds"):
                c.entry_add("forward", {"hdr.ethernet.dst_addr": 0x0B}, "set_port", {"port": 1})
                c.entry_add("forward", key, "set_port", {"port": 7})       # exists already
        assert str(info.value).startswith("two adds failed: entry_add on pipe.Ingress.forward: "
                                          "ALREADY_EXISTS"), info.value
        with pytest.raises(RuntimeError):
            with c.batch():
                c.entry_del("forward", key)
                raise RuntimeError("abandoned")
        assert c.entry_get("forward", key)[0].data == {"port": 6}
