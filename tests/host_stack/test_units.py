"""Host-stack pieces that need no namespaces: the I/O shell driving the reference
worker and PS, result files, pcap files, the launcher's environment, netem mapping."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

from reference.faults import RandomFaults
from reference.oracle import check_seq, expected_seqs
from reference.scenario import Scenario
from reference.topology import Job, Rack, Tensor, Topology

from host_stack.capture import PcapWriter, read_pcap
from host_stack.launcher import LaunchConfig
from host_stack.netem import netem_args, tbf_args
from host_stack.results import read_worker_results, worker_result, write_json_atomically
from host_stack.roles import Multiplex, RoleError, roles_from_scenario
from host_stack.shell import HostLoop


class LoopbackToPs:
    """A link whose far end is an in-process PS (each frame answered at once), with an
    optional drop of the n-th frame the worker sends."""

    def __init__(self, ps, drop_nth: int | None = None):
        self.ps = ps
        self.inbox: list[bytes] = []
        self.sent = 0
        self.drop_nth = drop_nth

    def send(self, frame: bytes) -> None:
        self.sent += 1
        if self.sent == self.drop_nth:
            return
        self.inbox += self.ps.on_frame(frame, time.monotonic_ns())

    def recv_batch(self, timeout_s, limit=256):
        if not self.inbox:
            time.sleep(min(timeout_s or 0, 0.001))
            return []
        out, self.inbox = self.inbox, []
        return out


def one_worker_scenario(length=300) -> Scenario:
    topo = Topology((Rack("tor0", ("h0", "ps0")),))
    job = Job(app_id=3, workers=("h0",), pses=("ps0",), window=2,
              tensors=(Tensor(7, length),))
    return Scenario(topo, (job,), seed=5, pool_size=64)


def test_shell_drives_reference_worker_and_ps_and_recovers_a_drop(tmp_path):
    scenario = one_worker_scenario()
    worker = roles_from_scenario(scenario, "h0", timeout_ns=2_000_000)[0].app
    ps = roles_from_scenario(scenario, "ps0")[0].app
    link = LoopbackToPs(ps, drop_nth=2)
    loop = HostLoop(link, worker)
    loop.send(worker.start(time.monotonic_ns()))
    assert loop.run(until=lambda: worker.finished, budget_s=5)
    assert worker.counters["hole_resends"] >= 1   # seq 2 came back once seq 3 was acked
    path = tmp_path / "h0.json"
    write_json_atomically(path, worker_result(worker, "h0", 0.1))
    (result,) = read_worker_results(path)
    expected = expected_seqs(scenario, 3, 7)
    assert len(result.outcomes[7]) == len(expected) == 5
    for exp, got in zip(expected, result.outcomes[7]):
        assert check_seq(exp, got.float_mode, got.raw) is None


def test_roles_name_unknown_hosts():
    with pytest.raises(RoleError, match="not in the scenario"):
        roles_from_scenario(one_worker_scenario(), "nobody")


def test_multiplex_takes_the_earliest_deadline():
    class App:
        def __init__(self, d):
            self.d = d

        def deadline(self):
            return self.d

    assert Multiplex([App(None), App(30), App(10)]).deadline() == 10
    assert Multiplex([App(None)]).deadline() is None


def test_pcap_round_trip(tmp_path):
    writer = PcapWriter(tmp_path / "p1.pcap")
    frames = [bytes([i]) * 308 for i in range(3)]
    for i, f in enumerate(frames):
        writer.write(f, 1_700_000_000_000_000_000 + i)
    writer.close()
    records = read_pcap(tmp_path / "p1.pcap")
    assert [f for _, f in records] == frames
    assert records[2][0] - records[0][0] == 2


def test_pcap_reads_with_scapy(tmp_path):
    from scapy.utils import rdpcap
    writer = PcapWriter(tmp_path / "p.pcap")
    writer.write(b"\xff" * 6 + b"\x02" * 6 + b"\x07\x00" + bytes(294), 5)
    writer.close()
    (pkt,) = rdpcap(str(tmp_path / "p.pcap"))
    assert bytes(pkt)[12:14] == b"\x07\x00"


WORKER_ENV = {"DMLC_ROLE": "worker", "DMLC_WORKER_ID": "1", "DMLC_NUM_WORKER": "2",
              "DMLC_NUM_SERVER": "1", "ATP_PS_MACS": "02:00:00:00:00:03"}


def test_launcher_reads_the_dmlc_variables():
    config = LaunchConfig.from_env({**WORKER_ENV, "ATP_WINDOW": "4", "ATP_CC": "1"})
    assert (config.role, config.worker_id, config.num_workers, config.window) == (
        "worker", 1, 2, 4)
    assert config.ps_macs == (bytes.fromhex("020000000003"),)
    assert config.congestion_control
    assert config.first_seq == 1
    assert LaunchConfig.from_env({**WORKER_ENV, "ATP_FIRST_SEQ": "65500"}).first_seq == 65500


@pytest.mark.rule("10.8")
def test_demo_model_is_wide_enough_to_wrap_seq_twice():
    from host_stack.demo import hidden_for
    from host_stack.train_example import packets_per_step
    from reference.seqnum import seq_wraps
    assert seq_wraps(65436, 100) == 0 and seq_wraps(65436, 101) == 1      # 65535 -> 1 once
    assert seq_wraps(65436, 65635) == 1 and seq_wraps(65436, 65636) == 2
    hidden = hidden_for(65436, 2, 25)
    assert seq_wraps(65436, 25 * packets_per_step(hidden)) >= 2
    assert seq_wraps(65436, 25 * packets_per_step(16)) == 1    # the example's width: once


@pytest.mark.parametrize("change, message", [
    ({"DMLC_ROLE": "scheduler"}, "needs no scheduler"),
    ({"DMLC_ROLE": "boss"}, "expected 'worker' or 'server'"),
    ({"DMLC_WORKER_ID": "2"}, "must be below DMLC_NUM_WORKER"),
    ({"DMLC_NUM_WORKER": None}, "DMLC_NUM_WORKER is not set"),
    ({"ATP_PS_MACS": "02:00:00:00:00"}, "not a MAC address"),
    ({"DMLC_NUM_SERVER": "2"}, "lists 1 MAC"),
    ({"ATP_WINDOW": "many"}, "is not a number"),
    ({"ATP_FIRST_SEQ": "0"}, "must be at least 1"),
    ({"ATP_FIRST_SEQ": "65536"}, "at most 65535"),
])
def test_launcher_errors_say_what_to_fix(change, message):
    env = {**WORKER_ENV, **change}
    env = {k: v for k, v in env.items() if v is not None}
    with pytest.raises(RoleError, match=message):
        LaunchConfig.from_env(env)


def test_netem_mapping():
    args = netem_args(RandomFaults(drop=0.1, duplicate=0.02, reorder=0.25,
                                   reorder_delay_ns=300_000))
    assert args == ["delay", "300us", "reorder", "75%", "loss", "random", "10%",
                    "duplicate", "2%"]
    assert netem_args(RandomFaults(jitter_ns=100_000)) == ["delay", "50us", "50us"]
    assert netem_args(RandomFaults()) == []
    assert tbf_args(100)[:3] == ["tbf", "rate", "100mbit"]


def test_float_values_survive_the_result_file(tmp_path):
    scenario = one_worker_scenario(62)
    data = np.full((1, 62), 5000.0, np.float32)             # above the threshold
    job = scenario.jobs[0]
    job = Job(job.app_id, job.workers, job.pses, job.window, (Tensor(7, 62, data),))
    scenario = Scenario(scenario.topology, (job,), seed=5, pool_size=64)
    worker = roles_from_scenario(scenario, "h0")[0].app
    ps = roles_from_scenario(scenario, "ps0")[0].app
    loop = HostLoop(LoopbackToPs(ps), worker)
    loop.send(worker.start(time.monotonic_ns()))
    assert loop.run(until=lambda: worker.finished, budget_s=5)
    write_json_atomically(tmp_path / "r.json", worker_result(worker, "h0", 0.0))
    (result,) = read_worker_results(tmp_path / "r.json")
    (outcome,) = result.outcomes[7]
    assert outcome.float_mode
    assert np.array_equal(outcome.raw, data[0])


def test_latest_stamp_on_the_wrapping_32_bit_clock():
    from host_stack.reclaim import latest_stamp
    from host_stack.switch import trailer
    assert latest_stamp([5, 900, 17]) == 900
    # 0xFFFFFF00 was stamped just before the clock wrapped to 0x10: 0x10 is later
    assert latest_stamp([0xFFFFFF00, 0x10]) == 0x10
    assert trailer(0x0102, 7) == b"P4SC" + (0x0102).to_bytes(8, "big") + (7).to_bytes(4, "big")


def test_timer_backs_off_without_progress_and_resets_on_a_frame():
    """Expiries with nothing heard in between come T, 2T, 4T ... apart (capped); a frame
    resets the interval to T (the reference decides what a timeout resends)."""
    T = 1_000_000

    class Clock:
        now = 0

        def __call__(self):
            return self.now

    clock = Clock()

    class Timer:           # a host app with one timer and no frames of its own
        def __init__(self):
            self.last, self.expiries = 0, []

        def deadline(self):
            return self.last + T

        def on_timeout(self, now):
            self.expiries.append(now)
            self.last = now
            return []

        def on_frame(self, frame, now):
            self.last = now
            return []

    class QuietLink:       # no frames; waiting advances the fake clock
        frames_at: set = set()

        def recv_batch(self, timeout_s):
            clock.now += max(int(timeout_s * 1e9), 1)
            if any(clock.now >= t for t in self.frames_at):
                self.frames_at = {t for t in self.frames_at if clock.now < t}
                return [b"frame"]
            return []

        def send(self, frame):
            pass

    app, link = Timer(), QuietLink()
    link.frames_at = {16 * T}
    HostLoop(link, app, clock=clock).run(until=lambda: len(app.expiries) >= 8)
    gaps = [b - a for a, b in zip(app.expiries, app.expiries[1:])]
    assert gaps[:3] == [T, 2 * T, 4 * T], gaps
    # the frame at 16T reset the back-off: the next expiry is T after it
    after = [t for t in app.expiries if t > 16 * T]
    assert after and after[0] - 16 * T <= T + 2, app.expiries


def test_a_launcher_job_the_scenario_rules_refuse_is_a_role_error():
    """``single_job`` turns Job.validate's ValueError into a RoleError (a user error the
    launcher prints without a traceback)."""
    from host_stack.roles import single_job
    with pytest.raises(RoleError, match="window S must be in 1..65535, got 0"):
        single_job(1, 2, 1, 0, scale=1.0, congestion_control=False)


@pytest.mark.parametrize("value", ["0", "-5"])
def test_the_ps_refuses_a_t_stale_that_is_not_positive(value, capsys):
    from host_stack.ps import main
    with pytest.raises(SystemExit) as exit_:
        main(["--scenario", "s.json", "--host", "h0", "--iface", "lo",
              "--t-stale-ms", value])
    assert exit_.value.code == 2
    assert "--t-stale-ms must be positive" in capsys.readouterr().err


def test_a_worker_on_a_host_with_no_worker_role_is_a_user_error(tmp_path, capsys):
    """Exit status 2, not 1 (1 is "the budget ran out"): a launcher reading the status
    must tell a wrong --host from a run that failed."""
    from host_stack.worker import main
    path = tmp_path / "s.json"
    path.write_text(json.dumps(_one_worker_one_ps().to_dict()))
    assert main(["--scenario", str(path), "--host", "ps", "--iface", "lo"]) == 2
    assert "host 'ps' runs no worker in the scenario" in capsys.readouterr().err


@pytest.mark.parametrize("given", [["--scenario", "s.json"], ["--host", "h0"]])
def test_a_worker_needs_both_scenario_and_host(given, capsys):
    """Either alone is a usage error (exit 2, saying so), not a run on half the facts."""
    from host_stack.worker import main
    with pytest.raises(SystemExit) as exit_:
        main([*given, "--iface", "lo"])
    assert exit_.value.code == 2
    assert "--scenario and --host are required" in capsys.readouterr().err


def test_a_t_stale_of_1_ms_is_accepted(capsys):
    """The other side of the check above: 1 ms is positive (the PS goes on, here to the
    scenario file that does not exist)."""
    from host_stack.ps import main
    from reference.scenario import ScenarioError
    with pytest.raises(ScenarioError, match="cannot read scenario"):
        main(["--scenario", "/nonexistent/s.json", "--host", "h0", "--iface", "lo",
              "--t-stale-ms", "1"])
    assert "--t-stale-ms" not in capsys.readouterr().err


def test_the_launchers_topology_holds_every_worker_and_server_on_one_switch():
    from host_stack.roles import single_job_topology
    topo = single_job_topology(2, 1)
    assert [(r.name, r.hosts) for r in topo.racks] == [
        ("tor", ("worker0", "worker1", "server0"))]


def test_a_launched_job_numbers_its_seqs_from_1():
    """Hosts started by the launcher (no scenario) number seqs from 1, as the spec's
    workers and the release's do; a scenario may start elsewhere (``first_seq``)."""
    from host_stack.roles import single_job
    job, _ = single_job(1, 2, 1, 4, scale=1.0, congestion_control=False)
    assert job.first_seq == 1


def test_the_host_loop_counts_each_atp_frame_it_cannot_parse(capsys):
    """What a worker reports as ``counters.malformed`` (the host-stack checks require it
    0): frames its app refused with a WireError, one by one, the rest still served."""
    from reference.wire import ETHERTYPE_ATP
    scenario = one_worker_scenario()
    worker = roles_from_scenario(scenario, "h0", timeout_ns=2_000_000)[0].app
    ps = roles_from_scenario(scenario, "ps0")[0].app
    link = LoopbackToPs(ps)
    short = bytes(12) + ETHERTYPE_ATP.to_bytes(2, "big") + bytes(20)   # ends in its IPv4
    link.inbox += [short, short]
    loop = HostLoop(link, worker)
    loop.send(worker.start(time.monotonic_ns()))
    assert loop.run(until=lambda: worker.finished, budget_s=5)
    assert loop.malformed == 2
    assert capsys.readouterr().err.count("malformed frame") == 2


def _one_worker_one_ps() -> Scenario:
    return Scenario(topology=Topology((Rack("tor0", ("w0", "ps")),)),
                    jobs=(Job(1, ("w0",), ("ps",), 2,
                              (Tensor(1, 62, np.ones((1, 62), np.float32)),)),),
                    seed=1, pool_size=8)


def test_a_ps_on_a_host_with_no_ps_role_is_a_user_error(tmp_path, capsys):
    """Exit status 2 like the worker's: the host runs no PS (a wrong --host)."""
    from host_stack.ps import main
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps(_one_worker_one_ps().to_dict()))
    assert main(["--scenario", str(scenario), "--host", "w0", "--iface", "lo"]) == 2
    assert "host 'w0' runs no PS in the scenario" in capsys.readouterr().err


def test_a_ps_reports_the_frames_it_could_not_parse(tmp_path):
    """The PS's result carries the host loop's ``malformed`` count like a worker's (the
    host-stack checks require it and require it 0), with its link counters. Serves on
    ``lo`` for a moment: nothing of ATP arrives there."""
    from host_stack.ps import main
    from host_stack.results import ps_entries, read_ps_result
    scenario, out = tmp_path / "s.json", tmp_path / "ps.json"
    scenario.write_text(json.dumps(_one_worker_one_ps().to_dict()))
    assert main(["--scenario", str(scenario), "--host", "ps", "--iface", "lo",
                 "--out", str(out), "--budget-s", "0.2"]) == 0
    (entry,) = ps_entries(read_ps_result(out))
    assert entry["app_id"] == 1
    assert entry["counters"]["malformed"] == 0
    assert {"link_sent", "link_received"} <= entry["counters"].keys()
    assert entry["held_seqs"] == 0          # nothing came: no state (6.6's check reads it)


def test_unparsed_names_each_worker_and_each_ps_that_wrote_a_result(tmp_path):
    from host_stack.netem import plan_faults
    from host_stack.results import ResultError, WorkerResult, read_ps_result
    from host_stack.session import HostRun
    scenario = _one_worker_one_ps()
    run = HostRun(scenario, "softswitch", plan_faults(scenario), tmp_path, 0.0)
    run.worker_results[(1, 0)] = WorkerResult(1, 0, True, 0.1, {"malformed": 0}, {})
    run.ps_results["p1"] = {"jobs": [{"app_id": 1, "counters": {"malformed": 3}},
                                     {"app_id": 2, "counters": {}}]}
    assert run.unparsed() == {"app 1 worker 0": 0, "app 1 PS on p1": 3,
                              "app 2 PS on p1": None}
    # the scenario's PS host wrote a result without an entry for job 1, whose PS it runs
    run.ps_results = {"ps": {"app_id": 9, "counters": {"malformed": 0}}}
    assert run.unparsed()["app 1 PS on ps"] is None
    bad = tmp_path / "bad.ps.json"
    bad.write_text(json.dumps({"app_id": 1}))
    with pytest.raises(ResultError, match="malformed PS result"):
        read_ps_result(bad)


def test_ps_held_seqs_pairs_each_ps_that_says_with_its_jobs_window(tmp_path):
    """6.6's check reads ``held_seqs`` where a PS wrote it, next to its job's S; a PS
    (an external stack's) that does not say is left out, not failed."""
    from host_stack.netem import plan_faults
    from host_stack.session import HostRun
    scenario = _one_worker_one_ps()
    run = HostRun(scenario, "softswitch", plan_faults(scenario), tmp_path, 0.0)
    window = scenario.jobs[0].window
    run.ps_results["p1"] = {"jobs": [{"app_id": 1, "ps_index": 0, "counters": {},
                                      "held_seqs": window + 1},
                                     {"app_id": 1, "ps_index": 1, "counters": {}}]}
    assert run.ps_held_seqs() == {"app 1 PS 0 on p1": (window + 1, window)}
