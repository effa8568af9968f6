"""Section 8a: pipes. A Tofino has several; every table and register exists once per
pipe, and a frame's ingress runs in the pipe of its ingress port (device port ``p`` is
in pipe ``p >> 7``). ATP's aggregators are ingress registers, so a job's gradients meet
only within one pipe: on each switch, the ports of one job are in one pipe.

The owner of that rule: :func:`check_job_pipes` (the control plane refuses a
configuration before it writes anything; the reference switch keeps one aggregator
pool per pipe, ``reference/switch.py``). Suite ports are device ports here; a testbed
that maps them to other device ports keeps each in its pipe (``fixtures/targets``).
"""

from __future__ import annotations

from collections import defaultdict

from reference.control_plane import SwitchConfig, SwitchConfigError

PIPE_SHIFT = 7


def pipe_of(port: int) -> int:
    """The pipe of device port ``port``."""
    return port >> PIPE_SHIFT


def register_key(pipe: int, level: int) -> str:
    """A snapshot's key for one pipe's level: ``level0``/``level1`` in pipe 0 (as a
    one-pipe switch's), ``pipe1.level0`` ... in the others."""
    return f"level{level}" if pipe == 0 else f"pipe{pipe}.level{level}"


def parse_register_key(key: str) -> tuple[int, int]:
    """(pipe, level) of a :func:`register_key`."""
    where, _, level = key.rpartition(".")
    pipe = int(where[len("pipe"):]) if where else 0
    return pipe, 1 if level == "level1" else 0


def job_ports(config: SwitchConfig) -> dict[int, set[int]]:
    """app_id -> the job's ports on this switch: towards each of its PSes (its PS's own
    port, or the uplink) and every port its parameter packets go to (workers, and on
    the upper switch its other racks' uplinks)."""
    ports: dict[int, set[int]] = defaultdict(set)
    for (app_id, ps_index), route in config.routes.items():
        ports[app_id].add(route.to_ps_port)
        ports[app_id].update(config.multicast.get((app_id, ps_index), ()))
    return dict(ports)


def job_pipes(config: SwitchConfig) -> dict[int, int]:
    """app_id -> the one pipe of the job's ports (the config must pass
    :func:`check_job_pipes`)."""
    return {app_id: pipe_of(min(ports)) for app_id, ports in job_ports(config).items()}


def check_job_pipes(config: SwitchConfig, num_pipes: int) -> None:
    """Refuse a job whose ports on this switch span pipes, or a port in a pipe the
    device lacks: SwitchConfigError naming the ports and their pipes."""
    for port in sorted(config.ports):
        if pipe_of(port) >= num_pipes:
            raise SwitchConfigError(
                f"switch {config.name!r}: port {port} is in pipe {pipe_of(port)}, but the "
                f"device has {num_pipes} pipe(s) (ports 0..{(num_pipes << PIPE_SHIFT) - 1})")
    for app_id, ports in sorted(job_ports(config).items()):
        by_pipe: dict[int, list[int]] = defaultdict(list)
        for port in sorted(ports):
            by_pipe[pipe_of(port)].append(port)
        if len(by_pipe) > 1:
            shown = "; ".join(f"pipe {p}: ports {', '.join(map(str, ps))}"
                              for p, ps in sorted(by_pipe.items()))
            raise SwitchConfigError(
                f"switch {config.name!r}: job app_id {app_id} has ports in "
                f"{len(by_pipe)} pipes ({shown}); its aggregators are per-pipe ingress "
                f"registers, so its gradients would never meet (spec 8a): put all of "
                f"the job's ports on this switch in one pipe (device port p is in pipe "
                f"p >> 7)")
