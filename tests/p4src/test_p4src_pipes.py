"""The ATP control plane on a switch with pipes (spec 8a), on p4sim: a job across pipes
is refused before anything is written; entries reach every pipe; a teardown releases
the job's aggregators in its pipe only; occupancy counts every pipe; each job
aggregates in its own pipe's registers."""

from __future__ import annotations

import numpy as np
import pytest

import p4sim
from reference.control_plane import JobRoute, SwitchConfig
from reference.wire import AtpPacket, decode, encode

from atp_fixtures.targets import open_target
from atp_fixtures.targets.p4sim import POOL_MAX, compiled_program
from p4src.control import AtpControlPlane, ControlPlaneConfigError, P4simFacade
from p4src.control.forwarding import JOB_ROUTE

PS_A, PS_B = 9, 137                       # job 1's PS in pipe 0, job 2's in pipe 1


def _config(b_ports=(129, 130), ps_b=PS_B) -> SwitchConfig:
    return SwitchConfig("tor0", 0, (1, 2, PS_A, *b_ports, ps_b), pool_size=64,
                        routes={(1, 0): JobRoute(PS_A, True, 0),
                                (2, 0): JobRoute(ps_b, True, 0)},
                        multicast={(1, 0): (1, 2), (2, 0): tuple(b_ports)},
                        mgid={(1, 0): 1, (2, 0): 2})


def _gradient(worker: int, app: int, agtr: int = 5) -> bytes:
    return encode(AtpPacket(bitmap=1 << worker, fan_in=2, flags=0, app_id=app, seq=1,
                            agtr=agtr, values=np.arange(62, dtype=np.int64)))


@pytest.fixture
def target():
    target = open_target("p4sim", pipes=2)
    target.setup(_config())
    return target


def test_a_job_across_pipes_is_refused_before_anything_is_written():
    switch = p4sim.Switch(compiled_program(False, POOL_MAX), pipes=2)
    control = AtpControlPlane(P4simFacade(switch), POOL_MAX)
    before = [{t: pipe.table_entries(t) for t in pipe.tables} for pipe in switch.pipes]
    with pytest.raises(ControlPlaneConfigError) as refused:
        control.configure(_config(b_ports=(129, 3)))
    message = str(refused.value)
    assert "app_id 2" in message and "pipe 0: ports 3" in message \
        and "pipe 1: ports 129, 137" in message, message
    after = [{t: pipe.table_entries(t) for t in pipe.tables} for pipe in switch.pipes]
    assert after == before, "a table was written"
    assert switch.mcast == {}, "a multicast group was written"


def test_a_port_of_a_pipe_the_device_lacks_is_refused():
    target = open_target("p4sim", pipes=2)
    with pytest.raises(ControlPlaneConfigError, match="port 300 is in pipe 2"):
        target.setup(_config(b_ports=(300, 301), ps_b=302))


def test_entries_reach_every_pipe(target):
    pipes = target.switch.pipes
    assert pipes[0].table_entries(JOB_ROUTE.split(".", 1)[1]) \
        == pipes[1].table_entries(JOB_ROUTE.split(".", 1)[1]) != []


def test_each_job_aggregates_in_its_own_pipe(target):
    target.inject(1, _gradient(0, 1))
    target.inject(129, _gradient(0, 2))        # same agtr, the other pipe: no collision
    target.inject(130, _gradient(1, 2))
    (port, frame), = target.collect()
    assert port == PS_B and decode(frame).bitmap == 0b11
    assert target.read_aggregators([5], 0, pipe=0)[5].owner == 1 << 16 | 1
    assert target.read_aggregators([5], 0, pipe=1)[5].owner == 2 << 16 | 1
    assert target.occupied() == 2


def test_teardown_releases_the_job_in_its_pipe_only(target):
    target.inject(1, _gradient(0, 1))
    target.inject(129, _gradient(0, 2))
    target.teardown_job(2)
    assert target.read_aggregators([5], 0, pipe=1)[5].owner == 0
    assert target.read_aggregators([5], 0, pipe=0)[5].owner == 1 << 16 | 1, \
        "the teardown of job 2 released job 1's aggregator in the other pipe"
    assert target.occupied() == 1
