"""Digests on the BfRuntime stream (p4sim/switchd/learn.py): who receives them and
what a DigestList carries, with our client against an in-process server."""
from __future__ import annotations

import queue
import threading
from pathlib import Path

import grpc
import pytest

import p4sim
from bfruntime import bfruntime_pb2 as pb
from bfruntime.client import BfRuntimeClient
from bfruntime.service import BfRuntimeStub
from p4sim.switchd.device import SoftDevice
from p4sim.switchd.server import BfRuntimeServer
from softswitch_helpers import eth

PROGRAM = Path(__file__).resolve().parents[1] / "sde_ptf" / "ptf" / "digest_learn" / \
    "digest_learn.p4"
SMAC = 0x0000000000AA


@pytest.fixture
def served():
    dev = SoftDevice(p4sim.compile_file(PROGRAM), "digest_learn")
    srv = BfRuntimeServer(dev, "127.0.0.1:0")
    srv.start()
    try:
        yield f"127.0.0.1:{srv.port}", dev
    finally:
        srv.stop(0)


def _digests(client, timeout):
    out = []
    while True:
        try:
            m = client._stream.notifications.get(timeout=timeout)
        except queue.Empty:
            return out
        if m.WhichOneof("update") == "digest":
            out.append(m.digest)
            timeout = 0.2


def test_digests_reach_the_bound_client_only(served):
    addr, dev = served
    with BfRuntimeClient(addr, p4_name="digest_learn", timeout=5) as bound, \
            BfRuntimeClient(addr, p4_name="digest_learn", client_id=1, bind=False,
                            timeout=5) as other:
        dev.inject(2, eth(0x001122334455, src=SMAC), 0)
        [d] = _digests(bound, 5)
        lf = dev.learns["SwitchIngressDeparser.learn_digest"]
        assert d.digest_id == lf.id and d.list_id == 0 and d.target.device_id == 0
        [entry] = d.data
        assert [(f.field_id, f.stream) for f in entry.fields] == \
            [(1, SMAC.to_bytes(6, "big")), (2, (2).to_bytes(2, "big"))]
        assert _digests(other, 0.5) == []
        # one packet's digests: one DigestList; a known source: none
        bound.entry_add("smac", {"hdr.ethernet.src_addr": SMAC}, "known")
        dev.inject(2, eth(0x001122334455, src=SMAC), 0)
        assert _digests(bound, 0.5) == []


def test_a_bound_client_without_learn_notifications_gets_none(served):
    """Learn notifications are a subscription's choice (Subscribe.notifications); the
    device drains each packet's digests whoever listens."""
    addr, dev = served
    channel = grpc.insecure_channel(addr)
    stub = BfRuntimeStub(channel)
    requests: queue.Queue = queue.Queue()
    sub = pb.StreamMessageRequest(client_id=5)
    sub.subscribe.device_id = 0
    sub.subscribe.notifications.enable_learn_notifications = False
    requests.put(sub)
    stream = stub.StreamChannel(iter(requests.get, None))
    try:
        assert next(stream).subscribe.status.code == 0
        bind = pb.SetForwardingPipelineConfigRequest(
            client_id=5, action=pb.SetForwardingPipelineConfigRequest.BIND)
        bind.config.add().p4_name = "digest_learn"
        stub.SetForwardingPipelineConfig(bind, timeout=5)
        dev.inject(1, eth(1, src=SMAC), 0)
        assert dev.switch.digests() == []                 # drained
        got = []

        def read():
            try:
                got.extend(stream)
            except grpc.RpcError:     # cancelled below
                pass
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(0.5)
        assert got == []
    finally:
        requests.put(None)
        stream.cancel()
        channel.close()


def test_learn_object_ids_resolve(served):
    addr, dev = served
    with BfRuntimeClient(addr, p4_name="digest_learn", timeout=5) as c:
        ent = pb.Entity()
        ent.object_id.learn_object.learn_name = "pipe.SwitchIngressDeparser.learn_digest"
        ent.object_id.learn_object.data_field_name.field = "ingress_port"
        [got] = c.read([ent])
        assert got.object_id.id == 2
        ent.object_id.learn_object.data_field_name.field = ""
        [got] = c.read([ent])
        assert got.object_id.id == dev.learns["SwitchIngressDeparser.learn_digest"].id
