"""End to end (spec section 10): run_scenario against sums computed here by hand.

The expected aggregate of every (job, key, seq) is computed independently of the model:
Python's ``round`` (round-half-even) of ``float(x) * scale`` per element, summed over
workers as Python ints.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from reference import Scenario, ScenarioError, run_scenario
from reference.faults import FaultPlan, RandomFaults, TargetedFault
from reference.scenario import Kill
from reference.topology import Job, Rack, Tensor, Topology
from reference.wire import FLAG_ACK, FLAG_ECN, owner_app_id

SCALE = 1e6
TOPO = Topology((Rack("r0", ("a0", "a1", "a2", "p1")), Rack("r1", ("b0", "b1", "p2"))))


def gradients(seed, workers, length, spread=0.01):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((workers, length)) * spread).astype(np.float32)


def two_jobs(faults=FaultPlan(), seed=3, pool=64, kills=(), checkpoints=(), profile="spec"):
    # job 1: workers in both racks, PS in r0 (r0 is its upper switch)
    # job 2: workers in both racks, PS in r1 (r1 is its upper switch)
    job1 = Job(app_id=1, workers=("a0", "a1", "b0"), pses=("p1",), window=4,
               tensors=(Tensor(10, 62 * 6, gradients(1, 3, 62 * 6)),
                        Tensor(11, 100, gradients(2, 3, 100))))
    job2 = Job(app_id=2, workers=("a2", "b1"), pses=("p2",), window=3,
               tensors=(Tensor(20, 62 * 5 + 1, gradients(3, 2, 62 * 5 + 1)),))
    return Scenario(topology=TOPO, jobs=(job1, job2), seed=seed, pool_size=pool,
                    faults=faults, kills=tuple(kills), checkpoints_ns=tuple(checkpoints),
                    profile=profile, max_time_ns=2_000_000_000)


def exact_int_sums(tensor, scale=SCALE):
    """Per element: sum over workers of round_half_even(x * scale), by hand."""
    data = tensor.data
    return [sum(round(float(data[w, i]) * scale) for w in range(data.shape[0]))
            for i in range(tensor.length)]


def assert_exact(run, skip=()):
    for job in run.scenario.jobs:
        if job.app_id in skip:
            continue
        for tensor in job.tensors:
            want = exact_int_sums(tensor)
            padded = want + [0] * (-len(want) % 62)
            for w in range(job.fan_in):
                outcomes = run.worker_outcomes[(job.app_id, w)][tensor.key]
                assert len(outcomes) == tensor.packets
                got = []
                for outcome in outcomes:
                    assert not outcome.float_mode
                    got += [int(v) for v in outcome.raw]
                assert got == padded, (job.app_id, w, tensor.key)
                result = run.worker_results[(job.app_id, w)][tensor.key]
                assert result.tolist() == [v / job.scale for v in want]


LOSSY = FaultPlan(random=RandomFaults(drop=0.05, duplicate=0.05, reorder=0.05,
                                      reorder_delay_ns=3_000, budget=60))


@pytest.fixture(scope="module")
def lossy_run():
    return run_scenario(two_jobs(LOSSY))


@pytest.mark.rule("10")
def test_two_jobs_two_racks_with_losses_give_exact_integer_sums(lossy_run):
    run = lossy_run
    assert run.status == "done" and run.completed and run.unfinished == []
    kinds = {entry[3] for entry in run.fault_log}
    assert kinds == {"drop", "duplicate", "delay"}        # all three fault kinds hit
    assert_exact(run)


@pytest.mark.rule("10")
@pytest.mark.parametrize("seed", [4, 5, 6, 7])
def test_exact_sums_over_more_seeds(seed):
    run = run_scenario(two_jobs(LOSSY, seed=seed, pool=16))
    assert run.completed
    assert_exact(run)


@pytest.mark.rule("10")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_finished_jobs_leave_no_owned_aggregator(seed):
    # drops only: a duplicated or delayed *non-resend* gradient that lands after the
    # parameter packet released its aggregator legitimately re-takes it under rule 4.3,
    # so reclamation is checked with losses (repaired by resends) only.
    run = run_scenario(two_jobs(FaultPlan(random=RandomFaults(drop=0.2, budget=50)),
                                seed=seed))
    assert run.completed and run.counters["faults"] > 0
    assert all(not owned for owned in run.owned_aggregators().values())


@pytest.mark.rule("10")
def test_liveness_with_a_finite_fault_budget():
    plan = FaultPlan(random=RandomFaults(drop=0.5, budget=40))
    run = run_scenario(two_jobs(plan, seed=11))
    assert run.completed and run.status == "done"
    assert sum(1 for e in run.fault_log if e[3] == "drop") == 40
    assert_exact(run)


@pytest.mark.rule("10")
def test_collisions_remap_to_fresh_indexes_and_stay_exact():
    single = Topology((Rack("r0", ("w0", "w1", "w2", "p1", "p2")),))
    jobs = (Job(app_id=1, workers=("w0", "w1"), pses=("p1",), window=4,
                tensors=(Tensor(1, 62 * 8, gradients(5, 2, 62 * 8)),)),
            Job(app_id=2, workers=("w2",), pses=("p2",),
                window=4, tensors=(Tensor(1, 62 * 8, gradients(6, 1, 62 * 8)),)))
    run = run_scenario(Scenario(topology=single, jobs=jobs, pool_size=16, seed=1,
                                faults=FaultPlan(random=RandomFaults(drop=0.05,
                                                                     budget=10))))
    assert run.completed
    assert run.counters["switch.collisions"] > 0
    assert run.counters["ps.collision_remaps"] > 0
    assert_exact(run)
    # every remapped index is fresh: no job's slot table uses it, and none repeats
    from reference.placement import slot_indexes
    from reference_helpers import parse
    slots = set(slot_indexes(1, 4, 16)) | set(slot_indexes(2, 4, 16))
    assert slots == {3, 6, 8, 13}        # at P = 16 both jobs hash to the same four
    remapped = {}
    for rec in run.logs["r0"].ingress:
        got = parse(rec.frame)
        if got["ack"] and got["collision"]:
            remapped.setdefault(got["tensor_len"], set()).add((got["app_id"], got["key"],
                                                               got["seq"]))
    assert remapped and not set(remapped) & slots
    assert sorted(remapped) == sorted(set(range(16)) - slots)[:len(remapped)]
    assert all(len(v) == 1 for v in remapped.values())


@pytest.mark.rule("10")
def test_targeted_drop_of_third_parameter_packet_to_a_worker_host():
    fault = TargetedFault(action="drop", kind="parameter", to_node="b0", nth=3)
    run = run_scenario(two_jobs(FaultPlan(targeted=(fault,))))
    assert len(run.fault_log) == 1
    _, src, dst, action, kind, app_id, _ = run.fault_log[0]
    assert (src, dst, action, kind, app_id) == ("r1", "b0", "drop", "parameter", 1)
    assert run.completed
    assert run.counters["worker.resends"] > 0                    # recovered by a resend
    assert_exact(run)


@pytest.mark.rule("10")
def test_same_seed_gives_identical_switch_logs():
    a = run_scenario(two_jobs(LOSSY, seed=5))
    b = run_scenario(two_jobs(LOSSY, seed=5))
    assert a.logs.keys() == b.logs.keys()
    for name in a.logs:
        assert a.logs[name].ingress == b.logs[name].ingress
        assert a.logs[name].egress == b.logs[name].egress
    assert a.fault_log == b.fault_log and a.time_ns == b.time_ns
    assert a.final_registers == b.final_registers
    c = run_scenario(two_jobs(LOSSY, seed=6))
    assert c.fault_log != a.fault_log


@pytest.mark.rule("10")
def test_switch_overflow_ends_in_float_mode_with_the_float_sum():
    # threshold raised so that both workers send integers that overflow int32 together
    single = Topology((Rack("r0", ("w0", "w1", "p1")),))
    data = np.zeros((2, 62), np.float32)
    data[:, 0] = [1500.0, 1000.0]      # 1.5e9 + 1e9 > 2^31 - 1 at scale 1e6
    data[:, 1] = [0.25, 0.5]
    job = Job(app_id=1, workers=("w0", "w1"), pses=("p1",), window=2,
              tensors=(Tensor(1, 62, data),), threshold=2**31 - 1)
    run = run_scenario(Scenario(topology=single, jobs=(job,), pool_size=16))
    assert run.completed
    for w in (0, 1):
        (outcome,) = run.worker_outcomes[(1, w)][1]
        assert outcome.float_mode
        assert float(outcome.raw[0]) == 2500.0 and float(outcome.raw[1]) == 0.75
    assert run.counters["ps.float_fallbacks"] >= 1


# -- kill and teardown --------------------------------------------------------------------

def _killed(profile):
    kill = Kill(app_id=1, at_ns=2_500, teardown_after_ns=200_000)
    return run_scenario(two_jobs(kills=(kill,), checkpoints=(100_000,), profile=profile))


def _owners_of(registers, app_id):
    registers = {name: snap[1] if isinstance(snap, tuple) else snap
                 for name, snap in registers.items()}
    return [(name, level, i) for name, snap in registers.items()
            for level, regs in snap.items() for i, s in regs.items()
            if s.owner and owner_app_id(s.owner) == app_id]


@pytest.mark.rule("10")
def test_kill_and_teardown_release_the_dead_jobs_aggregators():
    run = _killed("spec")
    assert run.killed == {1} and run.completed
    assert _owners_of(run.checkpoints[100_000], 1)     # it did hold some when it died
    assert _owners_of(run.final_registers, 1) == []
    assert_exact(run, skip=(1,))


@pytest.mark.rule("9.4")
def test_atp_release_never_reclaims_a_dead_jobs_aggregators():
    run = _killed("atp-release")
    assert run.completed
    assert _owners_of(run.checkpoints[100_000], 1)
    assert _owners_of(run.final_registers, 1) == _owners_of(run.checkpoints[100_000], 1)
    assert_exact(run, skip=(1,))


# -- scenario files -----------------------------------------------------------------------

def test_scenario_json_round_trip():
    sc = two_jobs(FaultPlan(
        random=RandomFaults(drop=0.1, budget=5, links=(("a0", "r0"),)),
        targeted=(TargetedFault(action="delay", kind="gradient", app_id=1, seq=2,
                                to_node="r0", delay_ns=10),)),
        kills=(Kill(2, 1000, None),), checkpoints=(5, 6))
    d = sc.to_dict()
    back = Scenario.from_dict(json.loads(json.dumps(d)))
    assert back.to_dict() == d
    assert back.faults == sc.faults and back.kills == sc.kills
    assert back.topology == sc.topology
    for a, b in zip(sc.jobs, back.jobs):
        assert a == b
        for ta, tb in zip(a.tensors, b.tensors):
            assert np.array_equal(ta.data, tb.data)


def _base():
    return {"topology": {"racks": [{"name": "r0", "hosts": ["w0", "w1", "p"]}]},
            "jobs": [{"app_id": 1, "workers": ["w0", "w1"], "pses": ["p"], "window": 2,
                      "tensors": [{"key": 1, "length": 62}]}]}


@pytest.mark.parametrize("mutate,path", [
    (lambda d: d["jobs"][0].update(window=0), "scenario.jobs[0].window"),
    (lambda d: d["jobs"][0].update(window="2"), "scenario.jobs[0].window"),
    (lambda d: d["jobs"][0].update(windw=2), "scenario.jobs[0]: unknown field(s) windw"),
    (lambda d: d["jobs"][0]["tensors"][0].update(length=0),
     "scenario.jobs[0].tensors[0].length"),
    (lambda d: d["jobs"][0].pop("pses"), "scenario.jobs[0].pses"),
    (lambda d: d.update(profile="nope"), "scenario.profile"),
    (lambda d: d.update(pool_size=70000), "scenario.pool_size"),
    (lambda d: d.update(kills=[{"app_id": 9, "at_ns": 0}]), "scenario.kills[0].app_id"),
    (lambda d: d.update(congestion=[{"switch": "rX", "start_ns": 0, "end_ns": 1,
                                     "depth": 5}]), "scenario.congestion[0].switch"),
    (lambda d: d.update(faults={"random": {"drop": 1.5}}), "scenario.faults"),
    (lambda d: d.update(faults={"random": {"drop": "x"}}), "scenario.faults.random.drop"),
    (lambda d: d.update(faults={"targeted": [{"action": "explode"}]}),
     "scenario.faults"),
    (lambda d: d["topology"]["racks"].append({"name": "r0", "hosts": []}),
     "scenario.topology"),
    (lambda d: d["jobs"][0].update(workers=["w0", "zz"]), "scenario.jobs"),
])
def test_bad_scenario_names_the_field_path(mutate, path):
    data = _base()
    Scenario.from_dict(json.loads(json.dumps(data)))      # the base is valid
    mutate(data)
    with pytest.raises(ScenarioError) as info:
        Scenario.from_dict(data)
    assert path in str(info.value)


@pytest.mark.rule("10")
def test_two_level_results_equal_single_switch_results():
    data = gradients(9, 3, 62 * 4)
    tensors = (Tensor(5, 62 * 4, data),)
    multi = Job(app_id=1, workers=("a0", "a1", "b0"), pses=("p1",), window=2,
                tensors=tensors)
    single_topo = Topology((Rack("r0", ("a0", "a1", "b0", "p1")),))
    plan = FaultPlan(random=RandomFaults(drop=0.1, budget=10))
    r2 = run_scenario(Scenario(topology=TOPO, jobs=(multi,), faults=plan, seed=2))
    r1 = run_scenario(Scenario(topology=single_topo, jobs=(multi,), faults=plan, seed=2))
    assert r1.completed and r2.completed
    for w in range(3):
        assert r1.worker_results[(1, w)][5].tolist() == r2.worker_results[(1, w)][5].tolist()
    assert_exact(r2)
    assert r2.counters["switch.rack_aggregates"] > 0          # really went two-level


@pytest.mark.rule("10")
def test_two_pses_by_key_and_congestion_control_under_ecn():
    from reference.scenario import Congestion
    single = Topology((Rack("r0", ("w0", "w1", "p1", "p2")),))
    job = Job(app_id=3, workers=("w0", "w1"), pses=("p1", "p2"), window=4,
              congestion_control=True,
              tensors=(Tensor(6, 62 * 10, gradients(10, 2, 62 * 10)),
                       Tensor(7, 62 * 10, gradients(11, 2, 62 * 10))))
    run = run_scenario(Scenario(topology=single, jobs=(job,), seed=4,
                                congestion=(Congestion("r0", 0, 20_000, 5_000),),
                                faults=FaultPlan(random=RandomFaults(drop=0.05, budget=8))))
    assert run.completed
    assert run.counters["switch.ecn_marked"] > 0
    assert run.counters["worker.window_halved"] > 0
    assert set(run.ps_results) == {(3, 0), (3, 1)}
    assert {k for k, _ in run.ps_results[(3, 0)]} == {6}     # key 6 % 2 = 0
    assert {k for k, _ in run.ps_results[(3, 1)]} == {7}
    assert_exact(run)


@pytest.mark.rule("7.5")
def test_congest_faults_mark_the_seqs_they_aim_at():
    """Targeted congest faults on the PS's parameter packets of seqs 9-12: those (and
    only those) reach the workers marked, the workers halve, and a scenario file keeps a
    depth on congest faults only."""
    single = Topology((Rack("r0", ("w0", "w1", "p1")),))
    job = Job(app_id=3, workers=("w0", "w1"), pses=("p1",), window=4,
              congestion_control=True,
              tensors=(Tensor(6, 62 * 24, gradients(12, 2, 62 * 24)),))
    burst = tuple(TargetedFault(action="congest", kind="parameter", from_node="p1", seq=s,
                                depth=5_000) for s in range(9, 13))
    scenario = Scenario(topology=single, jobs=(job,), seed=4,
                        faults=FaultPlan(targeted=burst), ecn_threshold=1_000)
    run = run_scenario(scenario)
    assert run.completed and run.counters["worker.window_halved"] > 0
    marked = {int.from_bytes(r.frame[42:44], "big") for log in run.logs.values()
              for r in log.egress if r.frame[39] & FLAG_ACK and r.frame[39] & FLAG_ECN}
    assert marked == set(range(9, 13))
    assert_exact(run)
    saved = scenario.to_dict()["faults"]["targeted"]
    assert [f["depth"] for f in saved] == [5_000] * 4
    drop = Scenario.from_dict({**scenario.to_dict(), "faults": {"targeted": [
        {"action": "drop", "seq": 3}]}}).to_dict()["faults"]["targeted"][0]
    assert "depth" not in drop


# ---------------------------------------------------------------- long jobs (10) -----
# Spec 10 (rev. 3): a job pushes the same keys over several iterations and wraps seq.
# Job 1 starts at seq 65530 and pushes keys 5 (4 packets) and 6 (4 packets) three
# times: 24 packets, seq 65530..65535 then 1..18.

def long_job(faults=FaultPlan()):
    job = Job(app_id=1, workers=("a0", "a1"), pses=("p1",), window=3,
              tensors=(Tensor(5, 62 * 4, gradients(5, 2, 62 * 4)),
                       Tensor(6, 62 * 3 + 10, gradients(6, 2, 62 * 3 + 10))),
              iterations=3, first_seq=65530)
    return Scenario(topology=TOPO, jobs=(job,), seed=4, pool_size=64, faults=faults,
                    max_time_ns=2_000_000_000)


def iteration_sums(tensor, i):
    """By hand: iteration i's gradients are the tensor's rotated by i elements, negated
    in odd iterations (reference.scenario.Scenario.tensor_data's documented rule)."""
    data = np.roll(tensor.data, i, axis=1) * (-1 if i % 2 else 1)
    want = [sum(round(float(data[w, k]) * SCALE) for w in range(2))
            for k in range(tensor.length)]
    return want + [0] * (-len(want) % 62)


def assert_long_job_exact(run):
    job = run.scenario.jobs[0]
    assert run.status == "done" and run.completed
    for tensor in job.tensors:
        for w in range(2):
            outcomes = run.worker_outcomes[(1, w)][tensor.key]
            assert len(outcomes) == 3 * tensor.packets
            for i in range(3):
                got = [int(v) for o in outcomes[i * tensor.packets:(i + 1) * tensor.packets]
                       for v in o.raw]
                assert got == iteration_sums(tensor, i), (tensor.key, w, i)


@pytest.mark.rule("10.8")
def test_long_job_wraps_seq_and_every_iteration_is_exact():
    run = run_scenario(long_job())
    assert_long_job_exact(run)
    sent = [r.frame for r in run.logs["r0"].ingress if r.port == 1]
    seqs = [f[42] << 8 | f[43] for f in sent]              # ATP seq at frame byte 42
    assert seqs[:3] == [65530, 65531, 65532]
    assert seqs == [(65529 + n) % 65535 + 1 for n in range(24)]   # 65535 -> 1, no 0
    # the PS keeps no state behind the frontier: at most S seqs are held at the end
    assert sorted(s for _, s in run.ps_results[(1, 0)]) == [16, 17, 18]


@pytest.mark.rule("6.6")
def test_long_job_straggler_delayed_across_the_wrap_is_ignored():
    # the aggregate of seq 65531 is held back 300 us on its way to the PS; the workers
    # time out and resend it, the job goes on past the wrap, and the late copy reaches
    # the PS behind its frontier: a straggler (nothing counted, nothing sent)
    late = FaultPlan(targeted=(TargetedFault(action="delay", kind="gradient", app_id=1,
                                             seq=65531, to_node="p1",
                                             delay_ns=300_000),))
    run = run_scenario(long_job(late))
    assert_long_job_exact(run)
    assert run.counters["ps.stragglers"] >= 1


def _late_first_answer(t_stale_ns: int) -> Scenario:
    """Two workers, two PSes: key 1 (one packet) on PS 1, then key 2 (four packets) on
    PS 0. w1's parameter packet of seq 1 is lost, and w1 has heard nothing else, so its
    timer is section 7's start timeout (50 ms); w0 moves on to key 2, whose seqs wait
    for w1 at the switch, and resends them (to PS 0) every 200 us. PS 1 hears nothing
    from t ~ 4 us until w1's resend of seq 1 at ~50 ms."""
    topo = Topology((Rack("r0", ("w0", "w1", "q0", "q1")),))
    job = Job(app_id=1, workers=("w0", "w1"), pses=("q0", "q1"), window=2,
              tensors=(Tensor(1, 62), Tensor(2, 62 * 4)))
    lost = TargetedFault(action="drop", kind="parameter", to_node="w1", nth=1)
    return Scenario(topology=topo, jobs=(job,), seed=5, pool_size=16,
                    faults=FaultPlan(targeted=(lost,)), t_stale_ns=t_stale_ns,
                    max_time_ns=400_000_000)


@pytest.mark.rule("6.7")
def test_t_stale_below_the_start_timeout_loses_a_late_resend():
    """Why the reference's T_stale default is not the spec's 10 ms (reference.ps, D28):
    with 10 ms, PS 1 forgets seq 1 before w1's resend; the resend brings w1's part only,
    w0 never sends seq 1 again, and the job hangs. With the default (100 ms, above the
    start timeout) the resend is answered from the held parameter packet."""
    hung = run_scenario(_late_first_answer(10_000_000))
    assert hung.unfinished == [1] and hung.counters["ps.stale_forgets"] >= 1
    run = run_scenario(_late_first_answer(Scenario.t_stale_ns))
    assert run.completed and run.counters["ps.stale_forgets"] == 0
    assert run.finished_at[1] > 50_000_000          # after w1's start timeout
