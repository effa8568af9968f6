"""A pytest plugin that breaks one rule, chosen by the ATP_MUTANT environment variable.
Used only by tests/mutants to show that the suite catches injected bugs.

    ATP_MUTANT=completion_early python -m pytest conformance/... -p tests.mutants.plugin

A *switch* mutant is active only while the target (``--target=reference``) processes a
frame or tears a job down: the reference switch that recorded a trace, and the shadow
that runs in lockstep with the target, stay intact, as they would be against a real
buggy switch. A *host* mutant breaks the reference workers or PS, which are the hosts
of every run. A *host-stack* mutant breaks the host stack's processes only
(``conformance/test_host_stack.py``): the run's command templates start them through
``tests/mutants/host_process.py``, which applies the mutant there; the reference
workers that judge the captures (``atp_fixtures.oracles.host_timing``) stay intact.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import Phase, settings

from host_stack import roles, session, shell
from reference import aggregator, ps, switch, worker
from reference.aggregator import STAMP_MASK, AggregatorPool, Verdict
from reference.switch import LEVEL1, SwitchModel
from reference.wire import FLAG_ECN, INT32_MAX, owner_seq
from tests.mutants import ps_lifetime

_original_gradient = AggregatorPool.gradient


def _no_overwrite(self, index, owner_id, bits, fan_in, resend, is_ecn, values, now, *rest):
    """4.6 broken: a first arrival adds to the stale values instead of overwriting."""
    stale = self.values[index].copy()
    verdict = _original_gradient(self, index, owner_id, bits, fan_in, resend, is_ecn,
                                 values, now, *rest)
    if self.owner[index] == owner_id and self.bitmap[index] == bits:
        self.values[index] = np.clip(stale + values, -INT32_MAX - 1, INT32_MAX)
    return verdict


def _wrapping_add(current, incoming):
    """4.6 broken: int32 wrap-around instead of sticky saturation."""
    return (current + incoming).astype(np.int32).astype(np.int64)


def _owner_ignores_app(self, index, owner_id, bits, fan_in, resend, is_ecn, values, now,
                  *rest):
    """4.3 broken: ownership compares only the seq half of the owner word."""
    owner = self.owner[index]
    if owner and owner != owner_id and owner_seq(owner) == owner_seq(owner_id):
        owner_id = owner
    return _original_gradient(self, index, owner_id, bits, fan_in, resend, is_ecn,
                              values, now, *rest)


def _completion_early(self, index, owner_id, bits, fan_in, resend, is_ecn, values, now,
                  *rest):
    """4.5 broken: an aggregation completes at n - 1 contributions."""
    return _original_gradient(self, index, owner_id, bits, max(fan_in - 1, 1), resend,
                              is_ecn, values, now, *rest)


def _count_on_duplicate(self, index, owner_id, bits, fan_in, resend, is_ecn, values, now,
                  *rest):
    """4.5 broken: a duplicate (no new worker bit) still counts."""
    duplicate = (not resend and self.owner[index] == owner_id and self.bitmap[index]
                 and not bits & ~self.bitmap[index])
    result = _original_gradient(self, index, owner_id, bits, fan_in, resend, is_ecn,
                                values, now, *rest)
    if duplicate:
        self.count[index] = (self.count[index] + 1) & 0xFF
    return result


def _resend_keeps_owner(self, index, owner_id, bits, fan_in, resend, is_ecn, values, now,
                  *rest):
    """4.3 broken: a resend flush does not release the aggregator."""
    mine = resend and self.owner[index] == owner_id
    result = _original_gradient(self, index, owner_id, bits, fan_in, resend, is_ecn,
                                values, now, *rest)
    if mine:
        self.owner[index] = owner_id
        self.occupied += 1
    return result


def _resend_keeps_count(self, index, owner_id, bits, fan_in, resend, is_ecn, values, now,
                  *rest):
    """4.5 broken: a resend flush leaves the count as it was."""
    count = self.count[index]
    mine = resend and self.owner[index] == owner_id
    result = _original_gradient(self, index, owner_id, bits, fan_in, resend, is_ecn,
                                values, now, *rest)
    if mine:
        self.count[index] = count
    return result


def _stamp_on_collision(self, index, owner_id, bits, fan_in, resend, is_ecn, values, now,
                  *rest):
    """4.4 broken: a colliding (not mine) packet refreshes the owner's stamp."""
    result = _original_gradient(self, index, owner_id, bits, fan_in, resend, is_ecn,
                                values, now, *rest)
    if result[0] is Verdict.NOT_MINE and not resend:
        self.stamp[index] = now & STAMP_MASK
    return result


_original_release = AggregatorPool._release


def _release_keeps_ecn(self, index):
    """5 broken: releasing an aggregator leaves its ECN register set."""
    ecn = self.ecn[index]
    _original_release(self, index)
    self.ecn[index] = ecn


_original_parameter = AggregatorPool.parameter


def _leak_timeout_ge(self, index, owner_id, now, leak_timeout_ns):
    """5 broken: the leak timeout releases at ``now - stamp >= timeout``."""
    return _original_parameter(self, index, owner_id, now,
                               None if leak_timeout_ns is None else leak_timeout_ns - 1)


def _parameter_keeps_owner(self, index, owner_id, now, leak_timeout_ns):
    """5 broken: parameter packets never release their aggregator."""
    return None


_original_process = SwitchModel.process


def _egress_ecn_strict(self, port, frame, now=0, queue_depth=0):
    """5 broken: egress marks congestion only above the threshold (> instead of >=)."""
    if queue_depth == self.config.ecn_threshold:
        queue_depth = 0
    return _original_process(self, port, frame, now, queue_depth)


_original_verdict_output = switch.SwitchModel._verdict_output


def _drop_passing_resends(self, verdict, packet, frame, route, level, merged, ecn):
    """4.3 broken: a resend that is not mine is dropped instead of passed to the PS."""
    if verdict is Verdict.NOT_MINE and packet.flags & 4:
        return []
    return _original_verdict_output(self, verdict, packet, frame, route, level, merged,
                                    ecn)


def _no_collision_flag(self, verdict, packet, frame, route, level, merged, ecn):
    """4.3 broken: a colliding packet goes to the PS without its collision flag."""
    if verdict is Verdict.NOT_MINE and not packet.flags & 4:
        return [(route.to_ps_port, frame)]
    return _original_verdict_output(self, verdict, packet, frame, route, level, merged,
                                    ecn)


def _partial_rack_goes_up(merged: int, fan_in: int) -> bool:
    """8 broken: every frame an edge switch emits goes up as a whole-rack aggregate."""
    return True


def _level1_with(fan_in_of):
    def level1(self, packet, frame, route, now):
        verdict, merged, ecn = self._aggregate(LEVEL1, packet, packet.shim.bitmap1,
                                               fan_in_of(packet), now)
        return self._verdict_output(verdict, packet, frame, route, LEVEL1, merged, ecn)
    return level1


# 8 broken: the upper switch completes on the workers' fan_in instead of fan_in1
_upper_on_fan_in = _level1_with(lambda packet: packet.fan_in)
# 8 broken: the upper switch completes one rack early
_one_rack_early = _level1_with(lambda packet: max(packet.shim.fan_in1 - 1, 1))


# -- host mutants ----------------------------------------------------------------------
_original_aimd = worker.Worker._aimd


def _aimd_never_halves(self, s, ecn):
    """7 broken: AIMD ignores ECN marks, so the window never halves."""
    return _original_aimd(self, s, False)


_original_window = worker.Worker.window


def _window_one_too_many(self):
    """7 broken: the window is one frame larger than S (or than the AIMD window), so
    S + 1 seqs are in flight and seq s + S shares the aggregator of s."""
    return _original_window(self) + 1


_original_complete = ps.ParameterServer._maybe_complete


def _ps_drops_ecn(self, state, packet):
    """6 broken: the parameter packet does not echo the completing packet's ECN."""
    packet = packet.copy()
    packet.flags &= ~FLAG_ECN
    return _original_complete(self, state, packet)


def _half_up(values, scale):
    """3 broken: quantization rounds halves up instead of to even."""
    return np.floor(values.astype(np.float64) * scale + 0.5).astype(np.int32)


SWITCH_MUTANTS = {
    "no_overwrite": (AggregatorPool, "gradient", _no_overwrite),
    "wrapping_add": (aggregator, "saturating_add", _wrapping_add),
    "owner_ignores_app": (AggregatorPool, "gradient", _owner_ignores_app),
    "parameter_keeps_owner": (AggregatorPool, "parameter", _parameter_keeps_owner),
    "drop_passing_resends": (SwitchModel, "_verdict_output", _drop_passing_resends),
    "no_collision_flag": (SwitchModel, "_verdict_output", _no_collision_flag),
    "partial_rack_goes_up": (SwitchModel, "covers_whole_rack",
                             staticmethod(_partial_rack_goes_up)),
    "completion_early": (AggregatorPool, "gradient", _completion_early),
    "count_on_duplicate": (AggregatorPool, "gradient", _count_on_duplicate),
    "resend_keeps_owner": (AggregatorPool, "gradient", _resend_keeps_owner),
    "resend_keeps_count": (AggregatorPool, "gradient", _resend_keeps_count),
    "release_keeps_ecn": (AggregatorPool, "_release", _release_keeps_ecn),
    "egress_ecn_strict": (SwitchModel, "process", _egress_ecn_strict),
    "leak_timeout_ge": (AggregatorPool, "parameter", _leak_timeout_ge),
    "stamp_on_collision": (AggregatorPool, "gradient", _stamp_on_collision),
    "upper_on_fan_in": (SwitchModel, "_level1", _upper_on_fan_in),
    "one_rack_early": (SwitchModel, "_level1", _one_rack_early),
}

HOST_MUTANTS = {
    "aimd_never_halves": (worker.Worker, "_aimd", _aimd_never_halves),
    "window_s_plus_1": (worker.Worker, "window", _window_one_too_many),
    "ps_drops_ecn": (ps.ParameterServer, "_maybe_complete", _ps_drops_ecn),
    "ps_never_forgets": (ps.ParameterServer, "_judge", ps_lifetime.never_forgets),
    "ps_forgets_only_on_completions": (ps.ParameterServer, "_judge",
                                       ps_lifetime.forgets_only_on_completions),
    "ps_ignores_t_stale": (ps.ParameterServer, "_judge", ps_lifetime.ignores_t_stale),
    "half_up_rounding": (worker, "quantize", _half_up),
}

# -- host-stack mutants (in the host processes only) -----------------------------------
def _no_backoff(backoff_ns: int, heard: bool, interval_ns: int) -> int:
    """Timer broken: it never backs off, so with nothing heard a host resends every T."""
    return 0


def _one_timer_for_all_jobs(self, now):
    """Multiplexing broken: the host keeps one timer for all its jobs; when it expires,
    every job resends its unacknowledged seqs, however recent its own progress."""
    out: list[bytes] = []
    for app in self.apps:
        deadline = app.deadline()
        out += app.on_timeout(now if deadline is None else max(now, deadline))
    return out


def _aimd_forgets_marks(self, s, ecn):
    """AIMD state broken: the window's ECN memory is dropped at every parameter packet,
    so a boundary decides on its own packet's mark, not on the marks of its window."""
    self.cc_ecn_seen = False
    return _original_aimd(self, s, ecn)


# The mirror images (issue 32): each rule of section 7 and the host's timer wrong in the
# other direction, each the effect of a one-line patch of the host code (named in its
# docstring), caught by the host-stack scenarios that drive the host into the state where
# the rule bites (tests/mutants/test_host_stack_catches_bugs.py CASES).
def _window_one_too_few(self):
    """Window too small (``window()`` returns one less): seq ``A + w`` waits for one
    more parameter packet than the rule says."""
    return max(1, _original_window(self) - 1)


_original_on_parameter = worker.Worker._parameter


def _no_hole_resends(self, packet, s):
    """Hole resends never (``holes = []`` in ``_parameter``): a hole waits for the timer."""
    t = self.current
    t.hole_resent.update(h for h in t.unacked_sent() if h < s)
    return _original_on_parameter(self, packet, s)


def _hole_resent_every_time(self, packet, s):
    """Hole resends always (``hole_resent`` never recorded): every parameter packet above
    a hole resends it again, not once per hole."""
    self.current.hole_resent.clear()
    return _original_on_parameter(self, packet, s)


_original_deadline = worker.Worker.deadline


def _timer_twice_as_long(self):
    """Timer late (``timeout = 2 * ...`` in ``deadline``): every expiry comes 2T after
    progress."""
    deadline = _original_deadline(self)
    if deadline is None:
        return None
    return deadline + (self.timeout_ns if self.heard_anything else self.start_timeout_ns)


def _timer_half_as_long(self):
    """Timer early (``timeout // 2`` in ``deadline``): expiries come T/2 after progress."""
    deadline = _original_deadline(self)
    if deadline is None:
        return None
    return deadline - (self.timeout_ns if self.heard_anything else self.start_timeout_ns) // 2


def _backoff_never_reset(self):
    """Back-off never reset (``heard_frame`` sets ``_heard`` only): after one silence the
    host's every later expiry comes its old back-off late."""
    self._heard = True


def _backoff_quadruples(backoff_ns: int, heard: bool, interval_ns: int) -> int:
    """Back-off too large (``4 *`` for ``2 *`` in ``next_backoff``)."""
    if heard:
        return backoff_ns
    return min(4 * backoff_ns + max(interval_ns, 0), shell.MAX_BACKOFF_NS)


def _deadline_of_latest_job(self):
    """Multiplexing broken the other way (``max`` for ``min`` in ``Multiplex.deadline``):
    the host sleeps until its latest job's deadline, so a recovering job waits on a job
    idle on its start timeout."""
    deadlines = [d for d in (a.deadline() for a in self.apps) if d is not None]
    return max(deadlines) if deadlines else None


_original_on_frame = worker.Worker.on_frame


def _any_job_restarts_timer(self, frame, now):
    """Per-job timer broken (``self.last_heard = now`` moved above the app filter of
    ``on_frame``): any job's frame restarts every job's timer, so a job idle on its
    start timeout waits while another job's frames keep coming."""
    self.last_heard = now
    return _original_on_frame(self, frame, now)


def _aimd_remembers_marks(self, s, ecn):
    """AIMD decrease too much (the boundary's ``cc_ecn_seen = False`` deleted): once a
    mark was seen, every later boundary halves, so the window never grows back."""
    seen = self.cc_ecn_seen or ecn
    _original_aimd(self, s, ecn)
    self.cc_ecn_seen = self.cc_ecn_seen or seen


_original_float_request = worker.Worker._float_request


def _float_request_ignored(self, s):
    """Float request never answered (``return []`` for the resend): the seq waits for a
    hole or the timer to go out in float mode."""
    _original_float_request(self, s)
    return []


def _float_request_answered_twice(self, s):
    """Float request answered twice (the resend listed twice): not once per request."""
    return _original_float_request(self, s) * 2


HOST_STACK_MUTANTS = {
    "window_one_too_many": (worker.Worker, "window", _window_one_too_many),
    "timer_no_backoff": (shell, "next_backoff", _no_backoff),
    "one_timer_for_all_jobs": (roles.Multiplex, "on_timeout", _one_timer_for_all_jobs),
    "aimd_forgets_marks": (worker.Worker, "_aimd", _aimd_forgets_marks),
    # issue 32: the other direction of each rule
    "window_one_too_few": (worker.Worker, "window", _window_one_too_few),
    "hole_never_resent": (worker.Worker, "_parameter", _no_hole_resends),
    "hole_resent_every_time": (worker.Worker, "_parameter", _hole_resent_every_time),
    "timer_twice_as_long": (worker.Worker, "deadline", _timer_twice_as_long),
    "timer_half_as_long": (worker.Worker, "deadline", _timer_half_as_long),
    "backoff_never_reset": (shell.HostLoop, "heard_frame", _backoff_never_reset),
    "backoff_quadruples": (shell, "next_backoff", _backoff_quadruples),
    "deadline_of_latest_job": (roles.Multiplex, "deadline", _deadline_of_latest_job),
    "any_job_restarts_timer": (worker.Worker, "on_frame", _any_job_restarts_timer),
    "aimd_remembers_marks": (worker.Worker, "_aimd", _aimd_remembers_marks),
    "aimd_never_grows": (worker, "CWND_STEP", 0),
    "aimd_grows_double": (worker, "CWND_STEP", 2 * worker.CWND_STEP),
    "float_request_ignored": (worker.Worker, "_float_request", _float_request_ignored),
    "float_request_answered_twice": (worker.Worker, "_float_request",
                                     _float_request_answered_twice),
}

MUTANTS = {**SWITCH_MUTANTS, **HOST_MUTANTS, **HOST_STACK_MUTANTS}


def _host_stack_through_mutant() -> None:
    """Start the run's worker and PS processes through tests/mutants/host_process.py."""
    default = session.HostStackCommand()

    def through(template: str, role: str) -> str:
        return template.replace(f"-m host_stack.{role}",
                                f"-m tests.mutants.host_process {role}")

    session.HostStackCommand.__init__.__defaults__ = (
        through(default.worker, "worker"), through(default.ps, "ps"),
        f"{default.name}, mutant {os.environ['ATP_MUTANT']}")


def _on_target_only(owner, attribute, replacement) -> None:
    """Swap the rule in only while the reference *target* runs."""
    from atp_fixtures.targets.reference import ReferenceTarget
    original = owner.__dict__[attribute]

    def mutated(method):
        def call(self, *args, **kwargs):
            setattr(owner, attribute, replacement)
            try:
                return method(self, *args, **kwargs)
            finally:
                setattr(owner, attribute, original)
        return call

    ReferenceTarget.inject = mutated(ReferenceTarget.inject)
    ReferenceTarget.teardown_job = mutated(ReferenceTarget.teardown_job)


@pytest.hookimpl(trylast=True)
def pytest_configure(config) -> None:
    # the ci profile without shrinking: a caught mutant fails at once, and the report
    # of the first failing example is what these tests read
    settings.register_profile("mutant-hunt", parent=settings.get_profile("ci"),
                              phases=(Phase.explicit, Phase.reuse, Phase.generate))
    settings.load_profile("mutant-hunt")
    name = os.environ.get("ATP_MUTANT")
    if not name:
        return
    if name not in MUTANTS:
        raise ValueError(f"unknown ATP_MUTANT {name!r}; known: {', '.join(MUTANTS)}")
    if name in SWITCH_MUTANTS:
        _on_target_only(*SWITCH_MUTANTS[name])
    elif name in HOST_STACK_MUTANTS:
        _host_stack_through_mutant()
    else:
        owner, attribute, replacement = HOST_MUTANTS[name]
        setattr(owner, attribute, replacement)
