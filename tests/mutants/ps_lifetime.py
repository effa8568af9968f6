"""Planted PS mutants of the state lifetime rules (spec 6.6, rev. 3; 6.7, rev. 4), for
tests/mutants/plugin.py: each replaces ``reference.ps.ParameterServer._judge`` (whether
a packet is a straggler, and what a fresh one teaches the PS) with an older or broken
rule. The multi-PS long-jobs property (``conformance/test_multi_ps_long_jobs.py``) and
the host stack's multi-PS run (``conformance/test_host_stack.py``) must catch each.
"""

from __future__ import annotations

from reference.host_order import key_on_wire
from reference.seqnum import seq_add


def never_forgets(self, packet, contrib, now) -> bool:
    """Rev. 2: the PS keeps all state forever; no frontier, no straggler, no T_stale."""
    return False


def forgets_only_on_completions(self, packet, contrib, now) -> bool:
    """Rev. 3: the frontier moves only when a seq completes (to ``t - S``), never on a
    fresh packet, and is never discarded after T_stale. The completion is seen at the
    next packet (the one that completed was judged before it completed), which is when
    a frontier is next used."""
    done = getattr(self, "_mutant_last_packet", None)
    if done is not None:
        state = self.seqs.get(done)
        if state is not None and state.parameter is not None:
            self._advance(seq_add(done[1], -self.job.window))
    self._mutant_last_packet = (key_on_wire(packet.key, self.profile), packet.seq)
    return self.is_straggler(packet.seq)


def ignores_t_stale(self, packet, contrib, now) -> bool:
    """Rev. 4 without (b): fresh packets move the frontier, but a frontier that went
    stale while the PS was idle is never discarded."""
    if self.is_straggler(packet.seq):
        return True
    self._mark(contrib, packet.seq)
    return False
