"""Constructs the SDE's examples use, over BfRuntime on the softswitch: $mirror.cfg,
MODIFY of a subset of an action's data, the deadline metadata of a Write, DirectLpf
spec fields, the default entry's handle."""
from __future__ import annotations

import grpc
import pytest

from bfruntime import bfruntime_pb2 as pb
from bfruntime.client import BfRuntimeClient, BfRuntimeError
from bfruntime.service import BfRuntimeStub
from softswitch_helpers import eth, serving

DST = 0x1


@pytest.fixture
def mirror():
    with serving("mirror") as (addr, dev, _):
        yield addr, dev


def _session(c, sid, typ=pb.Update.INSERT, **fields):
    t = c.table("$mirror.cfg")
    u = pb.Update(type=typ)
    te = u.entity.table_entry
    te.table_id = t.id
    kf = te.key.fields.add()
    kf.field_id = t.keys[0].id
    kf.exact.value = sid.to_bytes(2, "big")
    te.data.action_id = t.action("$normal").id
    for name, v in fields.items():
        fi = t.data_field("$" + name)
        df = te.data.fields.add()
        df.field_id = fi.id
        if isinstance(v, bool):
            df.bool_val = v
        elif isinstance(v, str):
            df.str_val = v
        else:
            df.stream = v.to_bytes(4, "big")
    c.write([u])


def test_mirror_cfg_sessions_configure_mirroring(mirror):
    addr, dev = mirror
    with BfRuntimeClient(addr, p4_name="mirror", timeout=5) as c:
        _session(c, 5, session_enable=True, direction="BOTH", ucast_egress_port=9,
                 ucast_egress_port_valid=True, max_pkt_len=0)
        assert dev.switch.mirror_sessions[5] == 9
        with pytest.raises(BfRuntimeError, match="ALREADY_EXISTS"):
            _session(c, 5, session_enable=True)
        [e] = c.entry_get("$mirror.cfg", {"$sid": 5})
        assert e.data["$ucast_egress_port"] == 9 and e.data["$direction"] == "BOTH"
        _session(c, 5, pb.Update.MODIFY, session_enable=False)
        assert 5 not in dev.switch.mirror_sessions, "a disabled session mirrors nothing"
        _session(c, 5, pb.Update.MODIFY, session_enable=True, max_pkt_len=64)
        assert dev.switch.mirror_max_len[5] == 64, "the other fields were kept"
        c.entry_del("$mirror.cfg", {"$sid": 5})
        assert 5 not in dev.switch.mirror_sessions


def test_modify_keeps_the_action_data_it_leaves_out():
    with serving("tables") as (addr, dev, _):
        with BfRuntimeClient(addr, p4_name="tables", timeout=5) as c:
            key = {"hdr.probe.flags": (0x10, 0xF0), "etype": 0x800}
            c.entry_add("classify", key, "set_tern", {"v": 1, "sw": 2}, priority=5)
            c.entry_mod("classify", key, "set_tern", {"v": 9}, priority=5)
            [e] = c.entry_get("classify", key, priority=5)
            assert e.data == {"v": 9, "sw": 2}


def test_a_write_past_its_metadata_deadline_stops_with_what_it_applied():
    with serving("l2_forward") as (addr, dev, _):
        with BfRuntimeClient(addr, p4_name="l2_forward", timeout=30) as c:
            t = c.table("forward")
            updates = [c._update(pb.Update.INSERT, t, {"hdr.ethernet.dst_addr": i}, None,
                                 "set_port", {"port": 1}) for i in range(1, 20001)]
            req = pb.WriteRequest(client_id=c.client_id, p4_name="l2_forward",
                                  updates=updates)
            c._target(req)
            stub = BfRuntimeStub(grpc.insecure_channel(addr))
            with pytest.raises(grpc.RpcError) as err:
                stub.Write(req, metadata=(("deadline_sec", "0"), ("deadline_nsec", "1000")))
            assert err.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            assert len(dev.switch.table("forward").entries) < 20000


def test_the_default_entry_has_handle_1():
    with serving("l2_forward") as (addr, dev, _):
        with BfRuntimeClient(addr, p4_name="l2_forward", timeout=5) as c:
            t = c.table("forward")
            ent = pb.Entity()
            ent.table_entry.table_id = t.id
            ent.table_entry.handle_id = 1
            [got] = c.read([ent])
            assert got.table_entry.data.action_id == t.action("Ingress.drop").id


def test_rollback_on_error_undoes_the_updates_before_the_failed_one():
    with serving("l2_forward") as (addr, dev, _):
        with BfRuntimeClient(addr, p4_name="l2_forward", timeout=5) as c:
            c.entry_add("forward", {"hdr.ethernet.dst_addr": 7}, "set_port", {"port": 1})
            t = c.table("forward")
            updates = [c._update(pb.Update.INSERT, t, {"hdr.ethernet.dst_addr": k}, None,
                                 "set_port", {"port": 2}) for k in (1, 2, 7, 3)]
            updates.insert(0, c._update(pb.Update.MODIFY, t, {"hdr.ethernet.dst_addr": 7},
                                        None, "set_port", {"port": 5}))
            req = pb.WriteRequest(client_id=c.client_id, p4_name="l2_forward",
                                  updates=updates,
                                  atomicity=pb.WriteRequest.ROLLBACK_ON_ERROR)
            c._target(req)
            with pytest.raises(grpc.RpcError):
                BfRuntimeStub(grpc.insecure_channel(addr)).Write(req)
            [e] = c.entry_get("forward")           # 1 and 2 undone, 3 never written,
            assert e.key == {"hdr.ethernet.dst_addr": 7} and e.data == {"port": 1}
