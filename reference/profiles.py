"""Behaviour profiles: ``spec`` (the protocol's intent) and ``atp-release`` (section 9).

Each switch in a profile names one deviation, so code asks about the behaviour, not the
profile's name.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Profile:
    name: str
    # switch: a first arrival that also completes overwrites stale values (9.1)
    first_completing_overwrites: bool
    # switch: parameter packets release aggregators whose owner timed out (5, leak)
    leak_timeout: bool
    # control plane: a torn-down job's aggregators are released (9.4)
    teardown_releases: bool
    # hosts: key, reassigned index and float values go in network byte order (9.3)
    network_order_host_fields: bool
    # PS: counts a float-mode packet that is not a resend (9.5)
    ps_counts_first_float: bool
    # worker: resends at once on a float request (9.6)
    worker_resends_on_float_request: bool


SPEC = Profile(
    name="spec",
    first_completing_overwrites=True,
    leak_timeout=True,
    teardown_releases=True,
    network_order_host_fields=True,
    ps_counts_first_float=True,
    worker_resends_on_float_request=True,
)

ATP_RELEASE = Profile(
    name="atp-release",
    first_completing_overwrites=False,
    leak_timeout=False,
    teardown_releases=False,
    network_order_host_fields=False,
    ps_counts_first_float=False,
    worker_resends_on_float_request=False,
)

PROFILES = {profile.name: profile for profile in (SPEC, ATP_RELEASE)}


def profile_named(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(
            f"unknown profile {name!r}; expected one of {', '.join(sorted(PROFILES))}"
        ) from None
