"""Pipes over BfRuntime (p4sim/switchd/pipe_scope.py): pipe_id in targets and entry
targets, EntryScope (all pipes, single pipe, user-defined scopes), register reads with
one value per pipe, counters summed, device_configuration's num_pipes."""
from __future__ import annotations

import pytest

from bfruntime import bfruntime_pb2 as pb
from bfruntime.client import BfRuntimeClient, BfRuntimeError
from softswitch_helpers import serving

DST = 0x1
TABLE = "Ingress.forward"


def frame(dst: int = DST) -> bytes:
    return dst.to_bytes(6, "big") + bytes(6) + b"\x08\x00" + bytes(2)


@pytest.fixture
def four_pipes():
    with serving("pipes", pipes=4) as (addr, dev, _):
        yield addr, dev


def _client(addr, pipe_id=0xFFFF):
    return BfRuntimeClient(addr, p4_name="pipes", timeout=5, pipe_id=pipe_id)


def _forwards(dev, port: int) -> bool:
    return [p for p, _ in dev.inject(port, frame(), 0)] == [3]


def _scope(c: BfRuntimeClient, table: str, **mode) -> None:
    u = pb.Update(type=pb.Update.INSERT)
    u.entity.table_attribute.table_id = c.table(table).id
    u.entity.table_attribute.entry_scope.pipe_scope.CopyFrom(pb.Mode(**mode))
    c.write([u])


def test_device_configuration_says_how_many_pipes(four_pipes):
    addr, _ = four_pipes
    with _client(addr) as c:
        d = c.default_entry_get("device_configuration").data
        assert c.num_pipes() == 4
        assert d["recirc_port_list"] == [68, 196, 324, 452]
        assert d["num_max_ports"] == 512


def test_a_symmetric_write_reaches_every_pipe_and_reads_give_each_pipe(four_pipes):
    addr, dev = four_pipes
    with _client(addr) as c:
        c.entry_add(TABLE, {"hdr.eth.dst": DST}, "to_port", {"port": 3})
        assert all(_forwards(dev, p) for p in (5, 133, 261, 389))
        assert c.register_read("Ingress.seen_in", 133) == {"f1": [0, 1, 0, 0]}
        assert c.register_read("Ingress.seen_in", 389) == {"f1": [0, 0, 0, 1]}
        c.register_write("Ingress.seen_in", 7, 9)
        assert c.register_read("Ingress.seen_in", 7) == {"f1": [9, 9, 9, 9]}
        assert c.counter_read("Ingress.frames", 133)["packets"] == 1


def test_single_pipe_scope_writes_the_named_pipe(four_pipes):
    addr, dev = four_pipes
    with _client(addr) as c:
        _scope(c, TABLE, predef=pb.Mode.SINGLE)
        with pytest.raises(BfRuntimeError, match="asymmetric"):
            c.entry_add(TABLE, {"hdr.eth.dst": DST}, "to_port", {"port": 3})
    with _client(addr, pipe_id=1) as c:
        c.entry_add(TABLE, {"hdr.eth.dst": DST}, "to_port", {"port": 3})
        assert [_forwards(dev, p) for p in (5, 133, 261, 389)] == [False, True, False, False]
        assert len(c.entry_get(TABLE)) == 1
    with _client(addr, pipe_id=2) as c:
        assert c.entry_get(TABLE) == []
        c.pipe_scope_set("Ingress.seen_in", single=True)
        c.register_write("Ingress.seen_in", 4, 6, pipe=2)
        assert c.register_read("Ingress.seen_in", 4) == {"f1": [6]}
    with _client(addr) as c:
        assert c.register_read("Ingress.seen_in", 4) == {"f1": [0, 0, 6, 0]}


def test_user_defined_scopes_write_every_pipe_of_the_scope(four_pipes):
    addr, dev = four_pipes
    with _client(addr) as c:
        _scope(c, TABLE, user_defined=0x0C03)          # {0, 1} and {2, 3}
    with _client(addr, pipe_id=3) as c:
        c.entry_add(TABLE, {"hdr.eth.dst": DST}, "to_port", {"port": 3})
        assert [_forwards(dev, p) for p in (5, 133, 261, 389)] == [False, False, True, True]
    with _client(addr) as c:
        with pytest.raises(BfRuntimeError, match="in no scope"):
            _scope(c, TABLE, user_defined=0x0403)       # pipe 3 left out


def test_a_pipe_the_device_lacks_is_refused():
    with serving("pipes", pipes=2) as (addr, _dev, _):
        with _client(addr, pipe_id=2) as c:
            with pytest.raises(BfRuntimeError, match="pipes 0..1"):
                c.entry_add(TABLE, {"hdr.eth.dst": DST}, "to_port", {"port": 3})


def test_a_tagged_read_reads_the_pipe_it_names(four_pipes):
    """The register read through the tags (``p4sim/switchd/tagged_reads.py``) names a
    pipe per group and answers that pipe's cells: each pipe's value a Read answers."""
    from p4sim.switchd import tagged_reads
    addr, dev = four_pipes
    with _client(addr) as c:
        c.entry_add(TABLE, {"hdr.eth.dst": DST}, "to_port", {"port": 3})
        for port in (133, 389, 389):
            dev.inject(port, frame(), 0)
        seen_in = c.table("Ingress.seen_in").id
        groups = [([seen_in], [133, 389], pipe) for pipe in range(4)]
        answer = tagged_reads.parse_answer(
            tagged_reads.answer_parts(dev, tagged_reads.request_frame(groups)), groups)
        by_pipe = [[values[0] for values in group[0][1]] for group in answer]
        read = [c.register_read("Ingress.seen_in", i)["f1"] for i in (133, 389)]
        assert by_pipe == [[read[0][pipe], read[1][pipe]] for pipe in range(4)]
        assert by_pipe == [[0, 0], [1, 0], [0, 0], [0, 2]]
        refused = [([seen_in], [0], 4)]
        with pytest.raises(tagged_reads.ReadRefused, match="pipe 4 outside"):
            tagged_reads.parse_answer(
                tagged_reads.answer_parts(dev, tagged_reads.request_frame(refused)), refused)
