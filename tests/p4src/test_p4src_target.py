"""The p4sim target driver and the control plane of p4src/atp.p4, on small hand-made
cases (the whole protocol is checked by conformance/ on --target=p4sim)."""

from __future__ import annotations

import numpy as np
import pytest

from reference.control_plane import JobRoute, SwitchConfig
from reference.switch import SwitchModel
from reference.wire import FLAG_ACK, FLAG_COLLISION, FLAG_RESEND, AtpPacket, decode, encode

from atp_fixtures.targets import open_target
from p4src.control import ControlPlaneConfigError, FacadeError, P4simFacade
from p4src.control.aggregation import pool_slots

PS_PORT = 9


def _config(pool_size: int = 64, ports=(1, 2, 3, PS_PORT)) -> SwitchConfig:
    return SwitchConfig("tor0", 0, tuple(ports), pool_size=pool_size,
                        routes={(1, 0): JobRoute(PS_PORT, True, 0),
                                (2, 0): JobRoute(PS_PORT, True, 0)},
                        multicast={(1, 0): (1, 2), (2, 0): (3,)},
                        mgid={(1, 0): 1, (2, 0): 2},
                        l2={bytes.fromhex("020000000001"): 1})


def _gradient(worker: int, values, *, app=1, seq=1, agtr=5, fan_in=2, flags=0) -> bytes:
    return encode(AtpPacket(bitmap=1 << worker, fan_in=fan_in, flags=flags, app_id=app,
                            seq=seq, agtr=agtr, values=np.array(values + [0] * (62 - len(values)))))


@pytest.fixture
def p4sim_target():
    target = open_target("p4sim")
    target.setup(_config())
    return target


def test_two_workers_aggregate_into_one_packet_for_the_ps(p4sim_target):
    p4sim_target.inject(1, _gradient(0, [1, -2, 3] + [0] * 58 + [7]))
    assert p4sim_target.collect() == [], "the first worker's packet must be absorbed"
    p4sim_target.inject(2, _gradient(1, [10, 20, 30] + [0] * 58 + [-1]))
    (port, frame), = p4sim_target.collect()
    packet = decode(frame)
    assert port == PS_PORT and packet.bitmap == 0b11
    assert list(packet.values[:3]) == [11, 18, 33] and packet.values[61] == 6
    state = p4sim_target.read_aggregators([5])[5]
    assert (state.owner, state.bitmap, state.count) == (1 << 16 | 1, 0b11, 2)
    assert state.values[61] == 6, "values 31..61 live in the second half of the registers"


def test_matches_the_reference_on_collision_resend_and_parameter(p4sim_target):
    reference = SwitchModel(_config())
    frames = [(1, _gradient(0, [5])), (3, _gradient(0, [9], app=2)),
              (2, _gradient(1, [4], flags=FLAG_RESEND)),
              (1, _gradient(0, [1], app=1, seq=1, flags=FLAG_ACK))]
    outputs = []
    for port, frame in frames:
        p4sim_target.inject(port, frame, time_ns=100)
        outputs.append(p4sim_target.collect())
        assert outputs[-1] == reference.process(port, frame, 100)
    assert decode(outputs[1][0][1]).flags & FLAG_COLLISION, "app 2 collides with app 1"
    assert [p for p, _ in outputs[3]] == [1, 2], "the parameter packet goes to the workers"


def test_teardown_releases_every_aggregator_of_the_job(p4sim_target):
    for agtr in (3, 5, 7):
        p4sim_target.inject(1, _gradient(0, [1], agtr=agtr))
    p4sim_target.inject(3, _gradient(0, [1], app=2, agtr=9))
    p4sim_target.teardown_job(1)
    owners = {i: s.owner for i, s in p4sim_target.read_aggregators([3, 5, 7, 9]).items()}
    assert owners == {3: 0, 5: 0, 7: 0, 9: 2 << 16 | 1}
    p4sim_target.inject(1, _gradient(0, [1], agtr=3))
    assert p4sim_target.collect() == [] and p4sim_target.read_aggregators([3])[3].owner == 0, \
        "after teardown the job's frames are an unknown job's: dropped, no state"


def test_reset_empties_the_registers(p4sim_target):
    p4sim_target.inject(1, _gradient(0, [1]))
    p4sim_target.reset()
    assert p4sim_target.read_aggregators([5])[5].owner == 0


def test_configs_the_program_cannot_hold_are_refused_with_the_fix():
    target = open_target("p4sim")
    with pytest.raises(ControlPlaneConfigError, match="recirculation port"):
        target.setup(_config(ports=(1, 68)))


def test_facade_names_the_object_it_refuses(p4sim_target):
    facade = P4simFacade(p4sim_target.switch)
    with pytest.raises(FacadeError, match="pipe.Ingress.forwarding.nope"):
        facade.table_add("pipe.Ingress.forwarding.nope", {}, "x")
    with pytest.raises(FacadeError, match="owner_stamp"):
        facade.register_write("pipe.Ingress.aggregator.owner_stamp", 0, {"bogus": 1})


def test_batched_cell_reads_equal_single_reads(p4sim_target):
    """The facade's batch (what readback after every frame uses) reads exactly what one
    entry_get per cell reads, for a pair register and a single one, and refuses an
    index outside the register by name."""
    p4sim_target.inject(1, _gradient(0, [7, -3], agtr=5), time_ns=1234)
    facade = P4simFacade(p4sim_target.switch)
    for register in ("pipe.Ingress.aggregator.owner_stamp",
                     "pipe.Ingress.aggregator_values.values_1"):
        batch = facade.register_read_cells(register, [4, 5])
        assert batch == {i: facade.register_read(register, i) for i in (4, 5)}
    assert facade.register_read_cells("pipe.Ingress.aggregator.owner_stamp", [5])[5] == {
        "Ingress.aggregator.owner_stamp.owner": 1 << 16 | 1,
        "Ingress.aggregator.owner_stamp.stamp": 1234}
    assert facade.register_read_cells("pipe.Ingress.aggregator_values.values_1", [5])[5] == {
        "Ingress.aggregator_values.values_1.f1": -3}
    with pytest.raises(FacadeError, match="values_1.*outside"):
        facade.register_read_cells("pipe.Ingress.aggregator_values.values_1", [1 << 30])
    stamps = facade.register_read_values("pipe.Ingress.aggregator.owner_stamp",
                                         "Ingress.aggregator.owner_stamp.stamp", [5, 4])
    assert stamps == [1234, 0]
    with pytest.raises(FacadeError, match="owner_stamp has data fields"):
        facade.register_read_values("pipe.Ingress.aggregator.owner_stamp", "f1", [5])
    pairs = (("pipe.Ingress.aggregator_values.values_0",
              "Ingress.aggregator_values.values_0.f1"),
             ("pipe.Ingress.aggregator_values.values_1",
              "Ingress.aggregator_values.values_1.f1"))
    assert facade.registers_read_values(pairs, [5, 4]) == [[7, 0], [-3, 0]]
    with pytest.raises(FacadeError, match="values_0.*outside"):
        facade.registers_read_values(pairs, [1 << 30])


@pytest.mark.parametrize("pool_max, slots", [(1, 2), (8, 8), (9, 16), (4096, 4096),
                                             (4097, 8192), (20000, 32768), (65536, 65536)])
def test_register_slots_are_the_power_of_two_the_program_rounds_to(pool_max, slots):
    assert pool_slots(pool_max) == slots


@pytest.mark.parametrize("pool_size", [4096, 5000])
def test_pool_bound_is_exact_at_the_last_slot(pool_size):
    """agtr = P - 1 is an aggregator, agtr = P is outside the pool (4.3): the P4 bound
    (P |-| agtr) and the register index (level ++ agtr) agree with the reference."""
    config = _config(pool_size=pool_size)
    target = open_target("p4sim")
    target.setup(config)
    reference = SwitchModel(config)
    for agtr, mine in ((pool_size - 1, True), (pool_size, False)):
        frame = _gradient(0, [3], agtr=agtr, fan_in=1)
        target.inject(1, frame, time_ns=50)
        out = target.collect()
        assert out == reference.process(1, frame, 50)
        assert bool(decode(out[0][1]).flags & FLAG_COLLISION) is not mine
    assert target.read_aggregators([pool_size - 1])[pool_size - 1].owner == 1 << 16 | 1


def test_occupied_counts_owned_aggregators_of_both_levels(p4sim_target):
    """The occupancy the reclamation property bounds (section 10), as the reference
    counts it: owners on both levels; a parameter packet's release lowers it."""
    reference = SwitchModel(_config())
    assert p4sim_target.occupied() == 0
    frames = [(1, _gradient(0, [1], agtr=3)), (1, _gradient(0, [1], agtr=5)),
              (3, _gradient(0, [1], app=2, agtr=9)),
              (9, _gradient(0, [1], agtr=3, flags=FLAG_ACK))]
    seen = []
    for port, frame in frames:
        p4sim_target.inject(port, frame, time_ns=10)
        reference.process(port, frame, 10)
        seen.append(p4sim_target.occupied())
        assert seen[-1] == reference.occupied
    assert seen == [1, 2, 3, 2]


def test_occupied_is_rescanned_after_a_teardown():
    """occupied() is kept per frame (a frame changes only its own agtr's owners); a
    teardown releases many at once, so the count is read again from the registers."""
    target = open_target("p4sim")
    target.setup(_config())
    for agtr in (3, 5):
        target.inject(1, _gradient(0, [1], agtr=agtr))
    target.inject(3, _gradient(0, [1], app=2, agtr=9))
    assert target.occupied() == 3
    target.teardown_job(1)
    assert target.occupied() == 1 == sum(
        1 for s in target.read_aggregators([3, 5, 9]).values() if s.owner)


@pytest.mark.parametrize("profile,ecn", [("spec", 0), ("atp-release", 1)])
@pytest.mark.parametrize("build", ["wide", "tofino"])
def test_set_up_again_keeps_the_ecn_register_only_under_the_release(build, profile, ecn):
    """9.13 (a trace cannot show it: replay starts from a new switch, D25): job 1 leaves a
    marked aggregator 5; the running switch is set up again; job 2's first packet there
    (fan_in 1) inherits the mark under the release, on atp.p4 as on the reference."""
    outputs = []
    for target in (open_target("p4sim", p4_build=build), open_target("reference")):
        target.setup(_config(), profile)
        target.inject(1, _gradient(0, [4], flags=0x08), time_ns=10)       # ecn flag
        target.setup(_config(), profile)
        state = target.read_aggregators([5])[5]
        assert (state.owner, state.bitmap, state.count, state.ecn) == (0, 0, 0, ecn)
        target.inject(3, _gradient(0, [7], app=2, fan_in=1), time_ns=20)
        (port, frame), = target.collect()
        assert port == PS_PORT and bool(decode(frame).flags & 0x08) is bool(ecn)
        outputs.append(frame)
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("build,bound", [("wide", 40000), ("tofino", 4096)])
def test_release_build_bounds_agtr_by_its_registers_not_p(build, bound):
    """9.11 and D23: under -DATP_RELEASE agtr = P (64) is aggregated; the bound is the
    registers' 40000 cells (the Tofino build's 4096); the reference agrees below both."""
    target = open_target("p4sim", p4_build=build)
    target.setup(_config(), "atp-release")
    from reference.profiles import ATP_RELEASE
    reference = SwitchModel(_config(), ATP_RELEASE)
    for agtr, mine in ((64, True), (bound - 1, True), (bound, False)):
        frame = _gradient(0, [3], agtr=agtr, fan_in=1)
        target.inject(1, frame, time_ns=50)
        out = target.collect()
        assert bool(decode(out[0][1]).flags & FLAG_COLLISION) is not mine, agtr
        if agtr < 4096 or bound == 40000:
            assert out == reference.process(1, frame, 50)
