"""Pipes: a Tofino 1 device has 2 or 4 of them, each with its own copy of every table,
register, counter, meter and filter of the program.

The layout (``PipeLayout``): the pipe of device port ``p`` is ``p >> 7`` (ports 0..127
in pipe 0, 128..255 in pipe 1, ...); each pipe has its recirculation port at the same
place in its 128 (68, 196, 324, 452 for the default 68). A frame's ingress runs in the
pipe of its ingress port, each copy's egress in the pipe of its egress port; the PRE,
the mirror sessions and ``$PORT_METADATA`` (keyed by port, hence by pipe) are the
device's (``switch.TrafficManager``).

``PipedSwitch`` is what ``p4sim.Switch(program, pipes=2 or 4)`` returns. Its control
plane follows BfRuntime's symmetric scope, the default of a bf_switchd program:
- writes (entries, default actions, register cells, counters, meters, value sets,
  action profiles, register params) go to every pipe;
- reads of symmetric state (entries, defaults, members, groups) come from pipe 0;
- counter reads are summed over the pipes (as BfRuntime sums a counter read for all
  pipes);
- register reads have one value per pipe: ``register_read_pipes``,
  ``register_read_all_pipes``, or ``pipe(i).register_read(...)``; the one-value calls
  (``register_read`` ...) refuse, naming these, instead of answering for pipe 0.
``pipe(i)`` is pipe i itself (a one-pipe ``Switch`` sharing the device's state), for
reads and writes of that pipe alone (BfRuntime's single-pipe scope).
"""

from __future__ import annotations

from .control_plane import PORT_METADATA, ControlPlaneMixin
from .errors import ControlPlaneError
from .switch import Switch, TrafficManager

PIPE_SHIFT = 7           # the pipe of device port p is p >> 7
PORTS_PER_PIPE = 1 << PIPE_SHIFT
MAX_PIPES = 4            # 9-bit ports: p >> 7 is 0..3
PIPE_COUNTS = (1, 2, 4)  # one (p4sim's plain model), or a Tofino 1's 2 or 4


def pipe_of(port: int) -> int:
    """The Tofino pipe of device port ``port``."""
    return port >> PIPE_SHIFT


def check_pipe_count(pipes) -> int:
    if pipes not in PIPE_COUNTS or isinstance(pipes, bool):
        raise ControlPlaneError(f"pipes={pipes!r}: a device has 1, 2 or 4 pipes "
                                f"(a Tofino 1 has 2 or 4)")
    return pipes


def recirculation_ports(recirculation_port: int, pipes: int) -> frozenset[int]:
    """Each pipe's recirculation port: ``recirculation_port``'s place in each pipe's
    range of 128 ports."""
    low = recirculation_port & (PORTS_PER_PIPE - 1)
    return frozenset((p << PIPE_SHIFT) | low for p in range(pipes))


# the control plane of one pipe, by what a device-wide call does with it
PIPE_WRITES = frozenset((
    "table_add", "table_modify", "table_delete", "table_clear", "table_set_default",
    "table_reset_default", "register_write", "register_reset", "counter_write",
    "counter_clear", "direct_counter_write", "direct_counter_clear",
    "direct_register_write", "value_set_add", "value_set_delete", "value_set_clear",
    "meter_set", "meter_reset", "direct_meter_set", "direct_filter_set",
    "register_param_set",
    "register_param_reset", "action_member_add", "action_member_modify",
    "action_member_delete", "selector_group_add", "selector_group_modify",
    "selector_group_delete", "table_add_member", "table_add_group",
    "table_modify_reference"))
SYMMETRIC_READS = frozenset((
    "table", "table_get_default", "table_entries", "value_set_entries", "action_members",
    "selector_groups", "selector_member_for", "register_param_read", "register_param",
    "action_profile", "action_selector", "indirect_table", "tables", "direct_filter_get",
    "value_sets", "register_params"))
SUMMED_READS = frozenset(("counter_read", "direct_counter_read"))
PER_PIPE_READS = frozenset(("register_read", "register_read_many", "register_read_all",
                            "direct_register_read", "register", "registers", "lpfs",
                            "wreds", "meters", "counter", "counters"))
DEVICE_CALLS = ("digests", "port_metadata_set", "port_metadata_read", "port_metadata_delete",
                "_pm_port", "multicast_group_set", "multicast_group_delete",
                "mirror_session_set", "mirror_session_delete", "port_add", "port_remove")


class PipedSwitch(TrafficManager):
    """A device of 2 or 4 pipes running one program (module docstring)."""

    def __init__(self, program, *, recirculation_port=68, max_passes=4, ports=None, seed=0,
                 pipes=2):
        self.program = program
        self.num_pipes = check_pipe_count(pipes)
        self.recirculation_port = recirculation_port
        self.max_passes = max_passes
        self.ports = None if ports is None else set(ports)
        self.mcast = {}
        self.mirror_sessions = {}
        self.mirror_max_len = {}
        self.mirror_directions = {}
        self.port_metadata = {}
        self._digests = []
        self.drops = []
        # pipe i's Random externs draw from seed + i (pipe 0 as a one-pipe Switch)
        self.pipes = tuple(Switch(program, recirculation_port=recirculation_port,
                                  max_passes=max_passes, seed=seed + i, _device=self,
                                  _pipe_id=i) for i in range(pipes))
        self._by_pipe = self.pipes + (None,) * (MAX_PIPES - pipes)
        self._recirculation_ports = recirculation_ports(recirculation_port, pipes)

    def _new_drops(self):
        self.drops = drops = []
        for p in self.pipes:
            p.drops = drops

    def pipe(self, pipe_id: int) -> Switch:
        """Pipe ``pipe_id`` itself: its control plane acts on that pipe alone."""
        if not isinstance(pipe_id, int) or not 0 <= pipe_id < self.num_pipes:
            raise ControlPlaneError(f"pipe {pipe_id!r}: this device has pipes "
                                    f"0..{self.num_pipes - 1}")
        return self.pipes[pipe_id]

    def pipe_of(self, port: int) -> int:
        """The pipe of device ``port`` (ControlPlaneError when the device lacks it)."""
        p = pipe_of(port)
        if not 0 <= p < self.num_pipes:
            raise ControlPlaneError(f"port {port} is in pipe {p}; this device has pipes "
                                    f"0..{self.num_pipes - 1}")
        return p

    # ------------------------------------------------------------------ per-pipe reads
    def register_read_pipes(self, name, index) -> list:
        """One value per pipe of register cell ``index`` (BfRuntime's register read)."""
        return [p.register_read(name, index) for p in self.pipes]

    def register_read_all_pipes(self, name) -> list:
        """Every cell, one numpy array per pipe."""
        return [p.register_read_all(name) for p in self.pipes]

    def direct_register_read_pipes(self, table, key) -> list:
        return [p.direct_register_read(table, key) for p in self.pipes]

    # ------------------------------------------------------------------ routing
    def __getattr__(self, name):
        if name.startswith("__") or name == "pipes":
            raise AttributeError(name)
        if name in PIPE_WRITES:
            def every_pipe(table_or_name, *args, **kwargs):
                if table_or_name == PORT_METADATA:      # the device's, keyed by port
                    return getattr(self.pipes[0], name)(table_or_name, *args, **kwargs)
                result = None
                for p in self.pipes:
                    result = getattr(p, name)(table_or_name, *args, **kwargs)
                return result
            every_pipe.__name__ = name
            return every_pipe
        if name in SYMMETRIC_READS:
            return getattr(self.pipes[0], name)
        if name in SUMMED_READS:
            def summed(*args, **kwargs):
                counts = [getattr(p, name)(*args, **kwargs) for p in self.pipes]
                return tuple(sum(c[i] for c in counts) for i in range(len(counts[0])))
            return summed
        if name in PER_PIPE_READS:
            raise ControlPlaneError(
                f"{name}: this device has {self.num_pipes} pipes, each with its own "
                f"registers, meters and filters; read one pipe with pipe(i).{name}(...), "
                f"or every pipe with register_read_pipes / register_read_all_pipes")
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")


for _name in DEVICE_CALLS:       # the device's state: PRE, mirror sessions, ports, digests
    setattr(PipedSwitch, _name, getattr(ControlPlaneMixin, _name))
del _name
