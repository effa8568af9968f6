"""Register cells are stored sparsely (only cells that differ from the initial value take
memory), and behave as the list the generated code and the control plane index."""

from __future__ import annotations

import tracemalloc

import pytest

from p4sim.runtime import RegisterCells


def test_cells_read_initial_value_until_written_and_forget_it_when_reset():
    cells = RegisterCells(1 << 20, 7)
    assert len(cells) == 1 << 20 and cells[123456] == 7 and cells[-1] == 7
    cells[5] = 9
    cells[6] = 7                               # the initial value takes no memory
    assert cells[5] == 9 and cells.cells == {5: 9}
    assert cells[4:8] == [7, 9, 7, 7]
    assert cells.count(7) == (1 << 20) - 1 and cells.count(9) == 1
    cells[4:6] = [1, 7]
    assert cells.cells == {4: 1}
    cells.clear()
    assert cells.count(7) == 1 << 20


def test_out_of_range_is_an_index_error():
    cells = RegisterCells(8, 0)
    with pytest.raises(IndexError):
        cells[8]
    with pytest.raises(IndexError):
        cells[8] = 1
    with pytest.raises(ValueError):
        cells[0:2] = [1]


def test_a_million_cells_cost_next_to_nothing_until_written():
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    registers = [RegisterCells(1 << 20, 0) for _ in range(32)]
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert grown < 1 << 20, f"32 registers of 2^20 cells took {grown} bytes"
    assert sum(len(r) for r in registers) == 32 << 20


def test_a_cell_stored_with_the_initial_value_reads_as_untouched():
    """RegisterActions write the dict directly and may store the initial value back;
    count, slices, iteration and reads treat it as an untouched cell."""
    cells = RegisterCells(6, 3)
    cells.cells.update({1: 3, 2: 5})            # as the generated code leaves them
    assert cells.count(3) == 5 and cells.count(5) == 1
    assert cells[0:6] == [3, 3, 5, 3, 3, 3] and list(cells) == cells[:]
    assert cells[1] == 3


def test_register_actions_and_control_plane_share_the_cells(switch_for):
    """The data path's writes are what the control plane reads (one and several cells,
    the whole register), a value brought back to the initial one counts as untouched,
    and a control-plane write is what the next packet's RegisterAction sees."""
    import struct
    agg = struct.Struct(">IBBHHH62i")
    head = bytes(12) + b"\x08\x00" + bytes([0x45, 0, 0, 0, 0, 0, 0, 0, 64, 0xFD]) + bytes(10)

    def send(sw, agtr, v0):
        out = sw.inject(1, head + agg.pack(1, 2, 0, 0, 0, agtr, v0, *([0] * 61)))
        return agg.unpack_from(out[0][1], 34)[6]

    sw = switch_for("aggregate62.p4")
    sw.table_add("Ingress.forward", {"hdr.ethernet.dst_addr": 0}, "set_port", {"port": 3})
    assert [send(sw, 5, 3), send(sw, 5, -3), send(sw, 6, 4)] == [3, 0, 4]
    assert sw.register_read("Ingress.counts", 5) == 2
    assert sw.register_read_many("Ingress.agg_0", [5, 6, 7]) == {5: 0, 6: 4, 7: 0}
    assert (sw.register_read_all("Ingress.agg_0") != 0).sum() == 1
    assert sw.register("Ingress.agg_0").data[0].count(0) == 1023
    sw.register_write("Ingress.agg_0", 5, 100)
    assert send(sw, 5, 1) == 101
    with pytest.raises(Exception, match="out of range"):
        sw.register_read_many("Ingress.agg_0", [1024])
