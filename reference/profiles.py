"""Behaviour profiles: ``spec`` (the protocol's intent) and ``atp-release`` (the
release's deviations, spec section 9, numbered 9.1-9.15).

Each switch in a profile names one deviation, so code asks about the behaviour, not the
profile's name. 9.2 (the release keeps separate owner/bitmap/count state for the two
31-element halves of a packet at ``agtr`` and ``agtr2``) is not modelled: with the
consistent indexes every host here writes, the halves move in lockstep and the frames
and the ``agtr`` registers are the same.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Profile:
    name: str
    # switch: a first arrival that also completes overwrites stale values (9.1)
    first_completing_overwrites: bool
    # switch: parameter packets release aggregators whose owner timed out (5, leak; 9.4)
    leak_timeout: bool
    # control plane: a torn-down job's aggregators are released (9.4)
    teardown_releases: bool
    # hosts: the tensor key goes in network byte order (9.3; the reassigned index and
    # everything else are network order in both profiles)
    network_order_key: bool
    # PS: counts a float-mode packet that is not a resend (9.5)
    ps_counts_first_float: bool
    # worker: resends at once on a float request (9.6)
    worker_resends_on_float_request: bool
    # worker: seq counts the job's packets across its tensors (section 1; 9.7)
    seq_across_tensors: bool
    # switch: a resend flush clears the aggregator's ECN register (4.4; 9.8)
    flush_clears_ecn: bool
    # switch: the ecn flag of an emitted packet comes from the ECN register after this
    # packet's own update (4.4); the release uses the value before it (9.9)
    ecn_flag_after_update: bool
    # PS: a collided seq's fresh index is the first unused pool index and parameter
    # packets echo the completing packet's bitmap (6); the release takes the index from
    # a shuffled list of the pool and writes bitmap = 1 (9.10)
    ps_first_unused_index: bool
    # switch: the pool P bounds agtr (4.3, 5: None); the release compares agtr with no P
    # and only its registers' size bounds it (9.11: RELEASE_REGISTER_CELLS)
    register_cells: int | None
    # switch: a parameter packet is multicast whatever port it entered on (5); the
    # release multicasts it only from a port of one of its job's PSes (whatever its
    # ps_index), else drops it after its register updates (9.12, rev. 4)
    multicast_from_any_port: bool
    # switch set-up: every register is reset (spec), the ECN register is not (9.13)
    setup_clears_ecn: bool

    def agtr_bound(self, pool_size: int) -> int:
        """The first agtr that is no aggregator (4.3 "outside the pool", 5): P, or the
        release's register size whatever P is (9.11)."""
        return self.register_cells if self.register_cells is not None else pool_size


# 9.11: the release's registers hold 40000 cells, whatever the pool size P
RELEASE_REGISTER_CELLS = 40000


SPEC = Profile(
    name="spec",
    first_completing_overwrites=True,
    leak_timeout=True,
    teardown_releases=True,
    network_order_key=True,
    ps_counts_first_float=True,
    worker_resends_on_float_request=True,
    seq_across_tensors=True,
    flush_clears_ecn=True,
    ecn_flag_after_update=True,
    ps_first_unused_index=True,
    register_cells=None,
    multicast_from_any_port=True,
    setup_clears_ecn=True,
)

ATP_RELEASE = Profile(
    name="atp-release",
    first_completing_overwrites=False,
    leak_timeout=False,
    teardown_releases=False,
    network_order_key=False,
    ps_counts_first_float=False,
    worker_resends_on_float_request=False,
    seq_across_tensors=False,
    flush_clears_ecn=False,
    ecn_flag_after_update=False,
    ps_first_unused_index=False,
    register_cells=RELEASE_REGISTER_CELLS,
    multicast_from_any_port=False,
    setup_clears_ecn=False,
)

PROFILES = {profile.name: profile for profile in (SPEC, ATP_RELEASE)}


def profile_named(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(
            f"unknown profile {name!r}; expected one of {', '.join(sorted(PROFILES))}"
        ) from None
