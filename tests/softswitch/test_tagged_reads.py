"""Register reads through the tags (``p4sim/switchd/tagged_reads.py``) answer what a
BfRuntime Read of the same cells answers, after exactly the frames sent before them.

A closed loop on the softswitch reads its lockstep registers this way; these tests hold
the two transports equal on cells a real run filled, refuse what is not a register cell
in one line, and see a register-only defect's readback as the Read would.
"""
from __future__ import annotations

import pytest

from reference.run import run_scenario
from reference.scenario import load_scenario
from softswitch_helpers import softswitch_target

from atp_fixtures.plugin import DEFAULT_CORPUS
from atp_fixtures.running.closed_loop import run_on_target
from atp_fixtures.targets.base import TargetError
from atp_fixtures.targets.tagged_reads import TaggedReadFacade
from p4src.control.aggregation import AggregatorRegisters
from p4src.control.bfrt import BfrtFacade

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("softswitch-veth")]

PORTS = tuple(range(1, 10)) + (100, 101)


@pytest.fixture(scope="module")
def softswitch():
    yield from softswitch_target(PORTS)


def _registers(target, facade_class) -> AggregatorRegisters:
    facade = (BfrtFacade(target.client) if facade_class is BfrtFacade
              else TaggedReadFacade(target.client, target.read_cells_tagged))
    registers = AggregatorRegisters(facade, target.pool_max)
    registers.pool_size = target.control.registers.pool_size
    return registers


def test_tagged_reads_answer_what_a_bfruntime_read_answers(softswitch):
    """After a whole scenario (aggregators taken, values summed, stamps, both levels'
    cells, the values' second halves at +2S), the same aggregators read both ways."""
    scenario = load_scenario(DEFAULT_CORPUS / "scenarios" / "parameter-loss.json")
    run_on_target(scenario, lambda: softswitch)
    named = sorted({i for log in run_scenario(scenario).logs.values()
                    for record in log.ingress
                    if (i := _agtr(record.frame)) is not None})
    assert named, "the scenario names no aggregator"
    wanted = {(0, 0): named, (0, 1): named[:3]}
    tagged = _registers(softswitch, TaggedReadFacade).read_levels(wanted)
    read = _registers(softswitch, BfrtFacade).read_levels(wanted)
    assert tagged == read
    assert any(state.owner or any(state.values) or state.stamp
               for state in tagged[(0, 0)].values()), "nothing but zeros was compared"
    cells = [("pipe.Ingress.aggregator.owner_stamp", [named[0], named[-1]], 0),
             ("pipe.Ingress.aggregator_values.values_3", [named[0]], 0)]
    assert TaggedReadFacade(softswitch.client, softswitch.read_cells_tagged) \
        .registers_read_cells(cells) == BfrtFacade(softswitch.client).registers_read_cells(cells)


def test_a_read_over_one_frame_is_split_and_answers_the_same(softswitch):
    """A segment of a large window (the multi-PS corpus scenario's S of hundreds) names
    more cells than one frame holds: a veth refused the single request (EMSGSIZE) in a
    fresh-clone CI run. Read in parts, the answer is the Read's."""
    scenario = load_scenario(DEFAULT_CORPUS / "scenarios" / "parameter-loss.json")
    run_on_target(scenario, lambda: softswitch)
    many = list(range(1200))
    cells = [("pipe.Ingress.aggregator.owner_stamp", many, 0),
             ("pipe.Ingress.aggregator.bitmap", many, 0),
             ("pipe.Ingress.aggregator_values.values_3", many[:700], 0)]
    tagged = TaggedReadFacade(softswitch.client, softswitch.read_cells_tagged)
    assert tagged.registers_read_cells(cells) == \
        BfrtFacade(softswitch.client).registers_read_cells(cells)


def _agtr(frame: bytes):
    from reference.wire import agtr_of
    return agtr_of(frame)


@pytest.mark.parametrize("groups, message", [
    ([([1], [0], 0)], "table id 1 is not a register of 'atp'"),
    ([(["bitmap"], [1 << 30], 0)], "register pipe.Ingress.aggregator.bitmap: index "
                                   "1073741824 outside 0.."),
    ([(["bitmap"], [0], 1)], "pipe 1 outside the device's pipes 0..0"),
])
def test_what_is_not_a_register_cell_is_refused_in_one_line(softswitch, groups, message):
    scenario = load_scenario(DEFAULT_CORPUS / "scenarios" / "parameter-loss.json")
    run_on_target(scenario, lambda: softswitch)          # set up and connected
    bitmap = softswitch.client.table("pipe.Ingress.aggregator.bitmap").id
    groups = [([bitmap if t == "bitmap" else t for t in tables], indices, pipe)
              for tables, indices, pipe in groups]
    with pytest.raises(TargetError) as info:
        softswitch.read_cells_tagged(groups)
    assert "the switch refused a register read through its tags: " + message \
        in str(info.value)


def test_a_readback_riding_with_its_frames_is_the_state_after_the_last(softswitch):
    """``inject_attributed_reading``: the frames and the read request in one tagged
    batch; the outputs are the frames' (as ``inject_attributed`` gives them) and the
    states are those a BfRuntime Read sees right after."""
    from atp_fixtures.targets.base import Injection
    scenario = load_scenario(DEFAULT_CORPUS / "scenarios" / "parameter-loss.json")
    reference = run_scenario(scenario)
    log = next(iter(reference.logs.values()))
    softswitch.setup(next(iter(reference.switches.values())).config, "spec")
    frames = log.ingress[:40]
    named = sorted({i for r in frames if (i := _agtr(r.frame)) is not None})
    outputs, states = softswitch.inject_attributed_reading(
        [Injection(r.port, r.frame, r.time_ns, r.queue_depth) for r in frames],
        {(0, 0): named})
    assert outputs == [[(e.port, e.frame) for e in log.egress if e.after == k]
                       for k in range(len(frames))]
    assert any(outputs)
    assert states == _registers(softswitch, BfrtFacade).read_levels({(0, 0): named})
    assert any(state.stamp and any(state.values) for state in states[(0, 0)].values()), \
        states
