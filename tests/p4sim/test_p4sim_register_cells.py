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
