"""Pipes (spec section 8a): a Tofino has 2 or 4, each with its own registers, and a
frame aggregates in the pipe of its ingress port.

- Jobs placed in different pipes of one switch aggregate apart: each pipe is a pool of
  its own, so jobs whose slots share a pool of 8 never collide (in one pipe they do),
  and in lockstep every pipe of the target equals the reference's pool there (pipes no
  job uses stay untouched).
- A two-level job whose upper switch holds the PS and the racks' uplinks in pipe 1 (its
  edges in pipe 0) completes: the upper's level-1 aggregation and its recirculation
  stay in pipe 1.
- A job whose ports on a switch span pipes is refused by the control plane, naming the
  ports and their pipes, before anything is written (8a.1).

The suite's own ports are all in pipe 0; these scenarios use ports of the other pipes,
so a target needs that many pipes (``--pipes 2`` or ``4`` on p4sim and the softswitch;
tofino-model and hardware have their device's, and a testbed that maps the ports).
"""

from __future__ import annotations

import pytest

from atp_fixtures.oracles.properties import assert_exactly_once
from atp_fixtures.targets.base import ATTRIBUTED_OUTPUT, P4Runner
from reference.control_plane import build_switch_configs
from reference.pipes import pipe_of
from reference.scenario import Scenario
from reference.topology import Job, Rack, Tensor, Topology

pytestmark = pytest.mark.requires(ATTRIBUTED_OUTPUT)

COLLIDING_POOL = 8      # jobs 1 and 2 share every slot of a pool of 8 (test_isolation)
COLLISIONS = "ps.collision_remaps"   # the PSes' count: the same on every target




def _needs(target, atp_state, ports: set[int]) -> None:
    """Skip unless the target's device has the pipes of ``ports`` and its testbed maps
    them (the suite's own ports are pipe 0's)."""
    pipes = max(pipe_of(p) for p in ports) + 1
    testbed = atp_state.testbed
    if testbed is not None and testbed.switches:
        unmapped = sorted(ports - set(testbed.switches[0].ports))
        if unmapped:
            pytest.skip(f"{testbed.path} maps no interface to ports {unmapped} (pipes "
                        f"{sorted({pipe_of(p) for p in unmapped})}); add device ports of "
                        f"those pipes to run the pipe scenarios")
        return          # tofino-model / hardware: the device's pipes are checked at set-up
    if target.pipes < pipes:
        pytest.skip(f"these jobs use {pipes} pipes and the {target.name} target runs "
                    f"{target.pipes}: run with --pipes {2 if pipes <= 2 else 4}")


def _jobs_in_pipes(pipes: tuple[int, ...], profile: str) -> Scenario:
    hosts, ports, jobs = [], [], []
    for k, pipe in enumerate(pipes):
        names = (f"w{k}a", f"w{k}b", f"ps{k}")
        hosts += names
        first = (pipe << 7) + 1 + 3 * pipes[:k].count(pipe)    # the pipe's next 3 ports
        ports += range(first, first + 3)
        jobs.append(Job(k + 1, names[:2], names[2:], 4, (Tensor(1, 62 * 12),)))
    return Scenario(topology=Topology((Rack("tor0", tuple(hosts), tuple(ports)),)),
                    jobs=tuple(jobs), seed=21, pool_size=COLLIDING_POOL, profile=profile,
                    name=f"jobs-in-pipes-{'-'.join(map(str, pipes))}")


@pytest.mark.parametrize("pipes", [(0, 1), (0, 1, 2, 3)], ids=["2-pipes", "4-pipes"])
def test_jobs_in_different_pipes_aggregate_apart(pipes, profile, target, atp_state, run_on):
    scenario = _jobs_in_pipes(pipes, profile)
    _needs(target, atp_state, set(scenario.topology.racks[0].ports))
    run = run_on(scenario)        # lockstep: every pipe of the target against the shadow's
    assert_exactly_once(run)
    assert run.counters[COLLISIONS] == 0, (
        f"jobs in pipes {pipes} share no aggregator, yet their PSes remapped "
        f"{run.counters[COLLISIONS]} collided seqs")


def test_jobs_in_one_pipe_share_its_pool(profile, run_on):
    """The contrast: the same two jobs in pipe 0 collide in its one pool."""
    run = run_on(_jobs_in_pipes((0, 0), profile))
    assert_exactly_once(run)
    assert run.counters[COLLISIONS] > 0


def test_two_level_job_with_its_upper_switch_in_pipe_1(profile, target, atp_state, run_on):
    """Racks tor1 and tor2 (workers in pipe 0) under tor0, whose PS port and uplinks to
    tor1/tor2 are ports of pipe 1 (tor0 also has an idle host in pipe 0); the edges
    reach tor0 on pipe 0 ports."""
    topology = Topology((
        Rack("tor0", ("ps", "idle"), (129, 1), uplink=10),
        Rack("tor1", ("a0", "a1"), (1, 2), uplink=130),
        Rack("tor2", ("b0", "b1"), (1, 2), uplink=131)))
    scenario = Scenario(topology=topology,
                        jobs=(Job(1, ("a0", "a1", "b0", "b1"), ("ps",), 4,
                                  (Tensor(1, 62 * 8),)),),
                        seed=5, pool_size=64, profile=profile, name="two-level-upper-pipe-1")
    _needs(target, atp_state, {129, 130, 131})
    upper = build_switch_configs(topology, scenario.jobs, pool_size=64)["tor0"]
    job_ports = {upper.routes[(1, 0)].to_ps_port, *upper.multicast[(1, 0)]}
    assert {pipe_of(p) for p in upper.ports} == {0, 1}     # the switch spans pipes,
    assert {pipe_of(p) for p in job_ports} == {1}          # the job's ports do not
    run = run_on(scenario)
    assert_exactly_once(run)


def test_a_job_across_pipes_is_refused_before_anything_is_written(profile, target,
                                                                   atp_state):
    """8a.1: workers in pipe 0 and 1 of one switch. The control plane names the ports
    and pipes; nothing of the job reaches the switch (the p4src tests check the tables
    themselves, tests/p4src/test_p4src_pipes.py)."""
    if target.p4_runner is P4Runner.NONE:
        pytest.skip("the reference target has no control plane to refuse a configuration")
    topology = Topology((Rack("tor0", ("w0", "w1", "ps"), (1, 129, 2)),))
    job = Job(1, ("w0", "w1"), ("ps",), 4, (Tensor(1, 62),))
    _needs(target, atp_state, {1, 2, 129})
    config = build_switch_configs(topology, (job,), pool_size=64)["tor0"]
    with pytest.raises(Exception) as refused:
        target.setup(config, profile)
    message = str(refused.value)
    assert "app_id 1" in message and "pipe 0: ports 1, 2" in message \
        and "pipe 1: ports 129" in message, message
