"""The release's p4ml.p4 configured from a SwitchConfig and read back, through the same
BfRuntime client and facade the drivers use, against the softswitch's gRPC server
serving p4ml.p4's bfrt.json (``schema_switch.SchemaDevice``: every id and width checked
against the schema, every write kept by name). No root needed."""
from __future__ import annotations

import contextlib

import pytest

from bfruntime.client import BfRuntimeClient
from p4sim.switchd.server import BfRuntimeServer
from p4src.control.bfrt import BfrtFacade
from reference.aggregator import AggregatorState
from reference.control_plane import JobRoute, SwitchConfig, build_switch_configs
from reference.topology import Job, Rack, Tensor, Topology
from reference.wire import FLAG_DATA_INDEX, FLAG_ECN
from atp_fixtures.targets.bfrt_ptf import SwitchEndpoint, control_plane_for, pool_max_for
from atp_fixtures.targets.p4ml_control import ReleaseConfigError, host_view
from atp_fixtures.targets.p4ml_names import load_names
from atp_fixtures.targets.testbed import ReleaseProgram

from schema_switch import SchemaDevice, release_schema

LOOPBACK = 68


@contextlib.contextmanager
def release_switch(schema: dict | None = None):
    """(device, client) of a BfRuntime server serving p4ml.p4's schema on loopback."""
    device = SchemaDevice(schema or release_schema(), "p4ml")
    server = BfRuntimeServer(device, "127.0.0.1:0")
    server.start()
    client = None
    try:
        client = BfRuntimeClient(f"127.0.0.1:{server.port}", p4_name="p4ml", timeout=10)
        yield device, client
    finally:
        if client is not None:
            client.close()
        server.stop(0)


def control_for(client, loopback: int = LOOPBACK):
    endpoint = SwitchEndpoint("x", "p4ml", {}, program=ReleaseProgram(load_names(), loopback))
    return control_plane_for(BfrtFacade(client), client.info, endpoint,
                             pool_max_for(client.info, endpoint))


def one_rack_config(**kw) -> SwitchConfig:
    """Two jobs on one rack of five hosts (job 5: workers on ports 1..3, PS on 4; job 9:
    workers on 2..3, PSes on 4 and 5), plus the suite's reclamation probe job."""
    topo = Topology((Rack("r0", ("h0", "h1", "h2", "h3", "h4")),))
    tensors = (Tensor(key=7, length=62),)
    jobs = [Job(5, ("h0", "h1", "h2"), ("h3",), 4, tensors),
            Job(9, ("h1", "h2"), ("h3", "h4"), 4, tensors)]
    return build_switch_configs(topo, jobs, probe=0xFFFF, **kw)["r0"]


def _by_key(device, table: str, *names) -> dict:
    return {tuple(e["key"][n] for n in names): (e["action"], e["data"])
            for e in device.table_entries(table)}


def test_configure_installs_what_the_release_setup_installs():
    config = one_rack_config(pool_size=1000, ecn_threshold=77)
    with release_switch() as (device, client):
        control = control_for(client)
        assert control.pool_max == 20000                  # 40000 cells, two per aggregator
        control.configure(config)
        front = sorted(config.ports)
        # L2: one entry per MAC
        assert _by_key(device, "pipe.forward", "ethernet.dstAddr") == {
            (int.from_bytes(mac, "big"),): ("set_egr", {"egress_spec": port})
            for mac, port in config.l2.items()}
        # routes: first pass from every front port to the loopback port, second to the PS
        route = _by_key(device, "pipe.outPort_table", "p4ml.appIDandSeqNum",
                        "ig_intr_md.ingress_port", "p4ml.dataIndex", "p4ml.PSIndex")
        expected = {}
        for (app, ps), r in config.routes.items():
            for port in front:
                expected[(app, port, 0, ps)] = ("set_egr_and_set_index",
                                                {"egress_spec": LOOPBACK})
            expected[(app, LOOPBACK, 1, ps)] = ("set_egr", {"egress_spec": r.to_ps_port})
        assert route == expected and len(config.routes) == 4
        # parameter packets from the PS port: the job's PRE group
        mc = _by_key(device, "pipe.multicast_table", "p4ml.isACK", "p4ml.appIDandSeqNum",
                     "ig_intr_md.ingress_port", "p4ml.dataIndex")
        assert mc == {(1, app, r.to_ps_port, 0): ("multicast",
                                                  {"group": 1000 + config.mgid[(app, ps)]})
                      for (app, ps), r in config.routes.items()}
        for key, mgid in config.mgid.items():
            assert device.nodes[1000 + mgid]["$DEV_PORT"] == list(config.multicast[key])
            assert device.groups[1000 + mgid]["$MULTICAST_NODE_ID"] == [1000 + mgid]
        assert _by_key(device, "pipe.drop_table", "ig_intr_md.ingress_port",
                       "p4ml.dataIndex") == {(p, 1): ("drop_pkt", {}) for p in front}
        assert _by_key(device, "pipe.modify_packet_bitmap_table", "p4ml.dataIndex") == {
            (1,): ("modify_packet_bitmap", {}), (0,): ("nop", {})}
        for n in range(1, 32):
            values = _by_key(device, f"pipe.processEntry{n}", "mdata.bitmap",
                             "$MATCH_PRIORITY")
            assert values == {((0, 0xFFFFFFFF), 0): (f"processentry{n}", {}),
                              ((0, 0), 1): (f"noequ0_processentry{n}", {})}
        assert device.registers["pipe.dqueue_alert_threshold"] == {
            0: {"dqueue_alert_threshold.f1": 77}}


def test_every_route_walks_from_each_worker_to_its_ps_and_back():
    """The lookups p4ml.p4 makes (its tables' keys, per its control flow) over what was
    written: a gradient from any front port takes the first pass to the loopback port,
    comes back with data_index 1 and reaches the route's PS; the PS's parameter packet
    reaches exactly the route's multicast ports; other jobs' keys miss (default drop)."""
    config = one_rack_config(pool_size=1000)
    with release_switch() as (device, client):
        control_for(client).configure(config)
        route = _by_key(device, "pipe.outPort_table", "p4ml.appIDandSeqNum",
                        "ig_intr_md.ingress_port", "p4ml.dataIndex", "p4ml.PSIndex")
        mc = _by_key(device, "pipe.multicast_table", "p4ml.isACK", "p4ml.appIDandSeqNum",
                     "ig_intr_md.ingress_port", "p4ml.dataIndex")
        for (app, ps), r in config.routes.items():
            for worker in config.multicast[(app, ps)]:
                action, data = route[(app, worker, 0, ps)]           # first pass
                assert action == "set_egr_and_set_index"        # sets data_index := 1
                back = data["egress_spec"]
                action, data = route[(app, back, 1, ps)]             # second pass
                assert (action, data["egress_spec"]) == ("set_egr", r.to_ps_port)
            action, data = mc[(1, app, r.to_ps_port, 0)]
            node = device.groups[data["group"]]["$MULTICAST_NODE_ID"]
            ports = [p for n in node for p in device.nodes[n]["$DEV_PORT"]]
            assert action == "multicast" and ports == list(config.multicast[(app, ps)])
            assert (app, LOOPBACK, 1, 3) not in route     # a ps_index no route has: drop
        assert not any(key[0] == 77 for key in route)                # unknown job: drop


def test_9_12_a_parameter_packet_from_any_ps_port_of_its_job_is_multicast():
    """9.12 (rev. 4) on the release's table: its key is (ack, app, ingress port,
    data_index), no PS index, one entry per PS port of the job. Job 9 has PS 0 on port 4
    and PS 1 on port 5: a parameter packet of job 9 entering on port 5 hits an entry
    whatever ps_index it carries (the lookup cannot see it), one entering on worker
    port 2 misses (default drop), and job 5, whose only PS is on port 4, misses on 5."""
    config = one_rack_config(pool_size=1000)
    assert config.ps_ports(9) == (4, 5) and config.ps_ports(5) == (4,)
    with release_switch() as (device, client):
        control_for(client).configure(config)
        mc = _by_key(device, "pipe.multicast_table", "p4ml.isACK", "p4ml.appIDandSeqNum",
                     "ig_intr_md.ingress_port", "p4ml.dataIndex")
        assert {key[2] for key in mc if key[1] == 9} == {4, 5}
        assert mc[(1, 9, 5, 0)][0] == "multicast"
        assert (1, 9, 2, 0) not in mc and (1, 5, 5, 0) not in mc
        table = client.info.table("pipe.multicast_table")
        assert "p4ml.PSIndex" not in {k.name for k in table.keys}


def test_registers_read_back_as_the_contract_aggregator():
    config = one_rack_config(pool_size=1000)
    with release_switch() as (device, client):
        control = control_for(client)
        control.configure(config)
        owner = 5 << 16 | 42
        for name, value in (("pipe.appID_and_Seq", owner), ("pipe.bitmap", 0b101),
                            ("pipe.agtr_time", 2), ("pipe.ecn_register", 1)):
            device.set_register(name, 7, value)
            device.set_register(name, 7 + 1000, 0xDEAD)   # the second half's own state
        for n in range(1, 32):
            device.set_register(f"pipe.register{n}", 7, n * 1000)
            device.set_register(f"pipe.register{n}", 7 + 1000, (1 << 32) - n)   # -n
        states = control.read_aggregators([7, 8])
        assert states[7] == AggregatorState(
            owner, 0b101, 2, 1, 0,
            tuple(n * 1000 for n in range(1, 32)) + tuple(-n for n in range(1, 32)))
        assert states[8] == AggregatorState(0, 0, 0, 0, 0, (0,) * 62)
        with pytest.raises(IndexError, match="aggregator index 1000 outside the pool 0..999"):
            control.read_aggregators([1000])
        with pytest.raises(ReleaseConfigError, match="no level-1 aggregators"):
            control.read_aggregators([7], level=1)
        assert control.occupied() == 1


def test_the_reset_between_tests_leaves_nothing_behind():
    with release_switch() as (device, client):
        control = control_for(client)
        control.configure(one_rack_config(pool_size=100))
        device.set_register("pipe.bitmap", 3, 1)
        client.reset()                       # what the driver does between tests
        assert not any(device.entries.values()) and not device.nodes and not device.groups
        assert not any(device.registers.values())
        control.configure(one_rack_config(pool_size=100))     # and it configures again
        control.clear()
        assert not any(device.entries.values())


def test_the_release_setup_clears_every_register_but_ecn():
    """9.13: the release's set-up resets the aggregator registers but the ECN register."""
    with release_switch() as (device, client):
        control = control_for(client)
        control.configure(one_rack_config(pool_size=100))
        device.set_register("pipe.bitmap", 3, 1)
        device.set_register("pipe.ecn_register", 3, 1)
        control.clear()
        state = control.read_aggregators([3])[3]
        assert (state.bitmap, state.ecn) == (0, 1)


def test_a_32_bit_app_id_key_takes_the_shifted_value():
    """If an SDE's bfrt.json keeps appIDandSeqNum whole (as the release's PD setup wrote
    it: 1 << 16 for app 1), the app_id goes in the high half."""
    schema = release_schema()
    for t in schema["tables"]:
        if t["name"] in ("pipe.outPort_table", "pipe.multicast_table"):
            for k in t["key"]:
                if k["name"] == "p4ml.appIDandSeqNum":
                    k["type"]["width"] = 32
    with release_switch(schema) as (device, client):
        control_for(client).configure(one_rack_config(pool_size=100))
        apps = {e["key"]["p4ml.appIDandSeqNum"]
                for e in device.table_entries("pipe.outPort_table")}
        assert apps == {5 << 16, 9 << 16, 0xFFFF << 16}


@pytest.mark.parametrize("change, message", [
    (dict(pool_size=20001), "pool size 20001 exceeds what p4ml.p4's registers hold (20000"),
    (dict(ports=(1, 2, LOOPBACK)), f"device port {LOOPBACK} is the testbed's loopback port"),
    (dict(routes={(5, 0): JobRoute(2, False, 1)}),
     "route for app_id 5 ps_index 0: p4ml.p4 has no two-level aggregation"),
])
def test_what_the_release_cannot_hold_is_refused_before_anything_is_written(change, message):
    base = dict(name="r0", switch_id=0, ports=(1, 2), pool_size=100,
                routes={(5, 0): JobRoute(2, True, 0)}, multicast={(5, 0): (1,)},
                mgid={(5, 0): 1})
    config = SwitchConfig(**{**base, **change})
    with release_switch() as (device, client):
        with pytest.raises(ReleaseConfigError, match=message.replace("(", r"\(")):
            control_for(client).configure(config)
        assert not any(device.entries.values()) and not device.nodes


def test_the_release_program_has_no_teardown():
    with release_switch() as (_, client):
        with pytest.raises(ReleaseConfigError, match=r"no control-plane teardown "
                                                     r"\(deviation 9.4\)"):
            control_for(client).teardown_job(5)


def test_hosts_never_see_the_second_pass_mark():
    import numpy as np
    from reference.wire import AtpPacket, encode
    frame = bytearray(encode(AtpPacket(app_id=5, seq=1, agtr=3, bitmap=1, fan_in=2,
                                       values=np.ones(62, dtype=np.int32))))
    frame[39] |= FLAG_DATA_INDEX | FLAG_ECN
    seen = host_view(bytes(frame))
    assert seen[39] == FLAG_ECN and seen[:39] == frame[:39] and seen[40:] == frame[40:]
    other = bytes(frame[:12]) + b"\x08\x00" + bytes(frame[14:])    # IPv4, not ATP
    assert host_view(other) == other
