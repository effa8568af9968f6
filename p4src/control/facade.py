"""The switch as the control plane sees it: BfRuntime's operations, nothing more.

Every class of ``p4src/control`` writes through :class:`SwitchFacade`, so the same
control plane drives the in-process p4sim pipe (:class:`P4simFacade`, here) and a
bf_switchd / Tofino over BfRuntime gRPC (a thin backend over the same calls).

Names are exactly bf-p4c's ``bfrt.json`` names for ``p4src/atp.p4``:
- tables ``pipe.Ingress.forwarding.job_route`` (``pipe.`` + the P4 control path),
- key fields by the P4 key expression (``hdr.atp.app_id``, ``md.level``),
- actions ``Ingress.forwarding.route``, data fields by action parameter (``to_ps``),
- registers ``pipe.Ingress.aggregator.bitmap``, index ``$REGISTER_INDEX``, data fields
  ``Ingress.aggregator.bitmap.f1`` (one cell) or ``Ingress.aggregator.owner_stamp.owner``
  / ``....stamp`` (a pair register: the P4 struct's field names),
- the PRE: ``$pre.node`` (``$MULTICAST_NODE_ID`` -> ``$MULTICAST_RID``,
  ``$DEV_PORT``) and ``$pre.mgid`` (``$MGID`` -> ``$MULTICAST_NODE_ID`` list).

Key values: exact ``int``; ternary ``(value, mask)``; lpm ``(value, prefix_len)``; range
``(low, high)`` — BfRuntime's KeyTuple forms.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Mapping, Sequence, Union

KeyValue = Union[int, tuple[int, int]]
Key = Mapping[str, KeyValue]
Data = Mapping[str, int]

PIPE_PREFIX = "pipe."
REGISTER_INDEX = "$REGISTER_INDEX"


class FacadeError(Exception):
    """A control-plane call the switch refused; says which object and why."""


class SwitchFacade(ABC):
    """BfRuntime's table, PRE and register operations on one device."""

    # -- match-action tables -------------------------------------------------------------
    @abstractmethod
    def table_add(self, table: str, key: Key, action: str, data: Data | None = None) -> None:
        """entry_add: ``table`` as in bfrt.json (``pipe.Ingress.forwarding.l2``)."""

    @abstractmethod
    def table_modify(self, table: str, key: Key, action: str,
                     data: Data | None = None) -> None:
        """entry_mod of an existing entry."""

    @abstractmethod
    def table_delete(self, table: str, key: Key) -> None:
        """entry_del."""

    @abstractmethod
    def table_clear(self, table: str) -> None:
        """Delete every entry (BfRuntime's table clear)."""

    @abstractmethod
    def default_entry_set(self, table: str, action: str, data: Data | None = None) -> None:
        """default_entry_set."""

    @abstractmethod
    def default_entry_reset(self, table: str) -> None:
        """default_entry_reset: back to the program's default action."""

    # -- packet replication engine ($pre.node, $pre.mgid) ---------------------------------
    @abstractmethod
    def multicast_node_add(self, node_id: int, rid: int, ports: Sequence[int]) -> None:
        """``$pre.node`` entry: ``$MULTICAST_NODE_ID`` -> ``$MULTICAST_RID``, ``$DEV_PORT``."""

    @abstractmethod
    def multicast_node_delete(self, node_id: int) -> None:
        """Remove a ``$pre.node`` entry."""

    @abstractmethod
    def multicast_group_add(self, mgid: int, node_ids: Sequence[int]) -> None:
        """``$pre.mgid`` entry: ``$MGID`` -> ``$MULTICAST_NODE_ID`` list."""

    @abstractmethod
    def multicast_group_delete(self, mgid: int) -> None:
        """Remove a ``$pre.mgid`` entry."""

    # -- registers ----------------------------------------------------------------------
    @abstractmethod
    def register_write(self, register: str, index: int, data: Data,
                       pipe: int | None = None) -> None:
        """entry_add/mod at ``$REGISTER_INDEX`` = ``index``; ``data`` by data-field name
        (``Ingress.aggregator.bitmap.f1``); in every pipe, or in pipe ``pipe`` alone."""

    def num_pipes(self) -> int:
        """The device's pipes (spec 8a; ``device_configuration``'s ``num_pipes``). Every
        register exists once per pipe: reads name the pipe, writes go to all."""
        return 1

    @abstractmethod
    def register_read(self, register: str, index: int, from_hw: bool = True,
                      pipe: int = 0) -> dict[str, int]:
        """entry_get at ``$REGISTER_INDEX``; ``from_hw`` syncs from the device first.
        One value per data field: pipe ``pipe``'s (a Tofino answers one per pipe)."""

    @abstractmethod
    def register_read_range(self, register: str, start: int, count: int,
                            from_hw: bool = True, pipe: int = 0) -> dict[str, list[int]]:
        """entry_get of ``count`` cells from ``start`` (a BfRuntime batch of gets):
        data-field name -> list of values (pipe ``pipe``'s)."""

    @abstractmethod
    def register_clear(self, register: str) -> None:
        """Table clear: every cell back to the register's initial value."""

    def register_read_cells(self, register: str, indices: Sequence[int],
                            from_hw: bool = True, pipe: int = 0) -> dict[int, dict[str, int]]:
        """entry_get of several cells as one batch: index -> {field: value} (pipe
        ``pipe``'s). Here one ``register_read`` per cell; a backend where each call is a
        round trip (gRPC) sends them in one request."""
        return {i: self.register_read(register, i, from_hw, pipe) for i in indices}

    def register_read_values(self, register: str, field: str, indices: Sequence[int],
                             from_hw: bool = True, pipe: int = 0) -> list[int]:
        """One data field of several cells, in the order of ``indices``: the same batch
        as ``register_read_cells`` without a dict per cell (readback after every frame
        of a closed loop reads 33 one-field registers)."""
        cells = self.register_read_cells(register, indices, from_hw, pipe)
        return [cells[i][field] for i in indices]

    def registers_read_values(self, fields: Sequence[tuple[str, str]],
                              indices: Sequence[int], from_hw: bool = True,
                              pipe: int = 0) -> list[list[int]]:
        """``register_read_values`` of several (register, field) pairs at the same
        cells, as one batch (a BfRuntime read request may carry many tables' entries):
        one list per pair, in order."""
        return [self.register_read_values(r, f, indices, from_hw, pipe) for r, f in fields]

    def registers_read_cells(self, reads: Sequence[tuple[str, Sequence[int], int]],
                             from_hw: bool = True) -> list[dict[int, dict[str, int]]]:
        """``register_read_cells`` of several registers, each at its own cells of its
        own pipe (``(register, indices, pipe)``), as one batch (one BfRuntime Read: it
        answers every pipe's value of a cell): one answer per item."""
        return [self.register_read_cells(r, indices, from_hw, pipe)
                for r, indices, pipe in reads]

    def registers_read_columns(self, groups: Sequence[tuple[Sequence[tuple[str, str]],
                                                            Sequence[int], int]],
                               from_hw: bool = True) -> list[list[list[int]]]:
        """``registers_read_values`` of several groups, each (register, field) pairs at
        its own cells of its own pipe (``(pairs, indices, pipe)``), as one batch (the
        readback after a segment of a closed loop: both levels' control registers at the
        aggregators' cells, the value registers at those and at their second halves, in
        every pipe, in one BfRuntime Read): per group, one list of values per pair, in
        the order of the group's indices."""
        return [self.registers_read_values(pairs, indices, from_hw, pipe)
                for pairs, indices, pipe in groups]

def strip_pipe(name: str) -> str:
    """``pipe.Ingress.x`` -> ``Ingress.x`` (bfrt.json table names carry the pipe)."""
    return name[len(PIPE_PREFIX):] if name.startswith(PIPE_PREFIX) else name


class P4simFacade(SwitchFacade):
    """The in-process backend: a :class:`p4sim.Switch` running ``p4src/atp.p4`` (of any
    number of pipes: writes go to every pipe, reads to the pipe named)."""

    def __init__(self, switch) -> None:
        self.switch = switch
        self._nodes: dict[int, tuple[int, tuple[int, ...]]] = {}
        self._groups: dict[int, tuple[int, ...]] = {}
        self._register_fields: dict[str, tuple[str, ...]] = {}
        self._registers: dict[str, tuple] = {}
        self._plans: dict[tuple, tuple] = {}      # (register, field) pairs -> cells   # name -> (register, ((field, cells),))

    def _call(self, what: str, fn, *args):
        import p4sim
        try:
            return fn(*args)
        except p4sim.P4SimError as exc:
            raise FacadeError(f"{what}: {exc}") from exc

    # -- tables -------------------------------------------------------------------------
    def table_add(self, table, key, action, data=None):
        self._call(f"entry_add {table}", self.switch.table_add, strip_pipe(table),
                   dict(key), action, dict(data or {}))

    def table_modify(self, table, key, action, data=None):
        self._call(f"entry_mod {table}", self.switch.table_modify, strip_pipe(table),
                   dict(key), action, dict(data or {}))

    def table_delete(self, table, key):
        self._call(f"entry_del {table}", self.switch.table_delete, strip_pipe(table),
                   dict(key))

    def table_clear(self, table):
        self._call(f"clear {table}", self.switch.table_clear, strip_pipe(table))

    def default_entry_set(self, table, action, data=None):
        self._call(f"default_entry_set {table}", self.switch.table_set_default,
                   strip_pipe(table), action, dict(data or {}))

    def default_entry_reset(self, table):
        self._call(f"default_entry_reset {table}", self.switch.table_reset_default,
                   strip_pipe(table))

    # -- PRE ----------------------------------------------------------------------------
    def multicast_node_add(self, node_id, rid, ports):
        if node_id in self._nodes:
            raise FacadeError(f"$pre.node {node_id} already exists")
        self._nodes[node_id] = (rid, tuple(ports))
        self._refresh_groups_with(node_id)

    def multicast_node_delete(self, node_id):
        if self._nodes.pop(node_id, None) is None:
            raise FacadeError(f"$pre.node {node_id} does not exist")
        self._refresh_groups_with(node_id)

    def multicast_group_add(self, mgid, node_ids):
        if mgid in self._groups:
            raise FacadeError(f"$pre.mgid {mgid} already exists")
        missing = [n for n in node_ids if n not in self._nodes]
        if missing:
            raise FacadeError(f"$pre.mgid {mgid}: no $pre.node {missing}")
        self._groups[mgid] = tuple(node_ids)
        self._install_group(mgid)

    def multicast_group_delete(self, mgid):
        if self._groups.pop(mgid, None) is None:
            raise FacadeError(f"$pre.mgid {mgid} does not exist")
        self.switch.multicast_group_delete(mgid)

    def _install_group(self, mgid: int) -> None:
        nodes = [self._nodes[n] for n in self._groups[mgid] if n in self._nodes]
        self.switch.multicast_group_set(mgid, [(rid, list(ports)) for rid, ports in nodes])

    def _refresh_groups_with(self, node_id: int) -> None:
        for mgid, node_ids in self._groups.items():
            if node_id in node_ids:
                self._install_group(mgid)

    # -- registers ----------------------------------------------------------------------
    def num_pipes(self) -> int:
        return self.switch.num_pipes

    def _pipe(self, pipe: int):
        """Pipe ``pipe`` of the switch (a one-pipe switch is its own pipe 0)."""
        if self.switch.num_pipes == 1:
            if pipe != 0:
                raise FacadeError(f"pipe {pipe}: this switch has one pipe")
            return self.switch
        return self._call(f"pipe {pipe}", self.switch.pipe, pipe)

    def _fields(self, register: str) -> tuple[str, ...]:
        """bfrt data-field names of a register: ``<name>.f1`` or ``<name>.<struct field>``."""
        name = strip_pipe(register)
        fields = self._register_fields.get(name)
        if fields is None:
            reg = self._call(f"register {register}", self._pipe(0).register, name)
            names = [f[0] for f in reg.spec.fields if f[0]]
            fields = tuple(f"{name}.{f}" for f in names) if len(names) > 1 else (f"{name}.f1",)
            self._register_fields[name] = fields
        return fields

    def register_write(self, register, index, data, pipe=None):
        name = strip_pipe(register)
        fields = self._fields(register)
        unknown = set(data) - set(fields)
        if unknown:
            raise FacadeError(f"register {register} has data fields {list(fields)}, "
                              f"not {sorted(unknown)}")
        pipes = range(self.switch.num_pipes) if pipe is None else (pipe,)
        if len(fields) == 1:
            sw = self.switch if pipe is None else self._pipe(pipe)
            self._call(f"register {register}[{index}]", sw.register_write, name, index,
                       data[fields[0]])
            return
        for p in pipes:                             # each pipe keeps its other fields
            sw = self._pipe(p)
            current = self._call(f"register {register}[{index}]", sw.register_read, name,
                                 index)
            value = {f.rsplit(".", 1)[1]: data.get(f, current[f.rsplit(".", 1)[1]])
                     for f in fields}
            self._call(f"register {register}[{index}]", sw.register_write, name, index,
                       value)

    def register_read(self, register, index, from_hw=True, pipe=0):
        name = strip_pipe(register)
        fields = self._fields(register)
        value = self._call(f"register {register}[{index}]", self._pipe(pipe).register_read,
                           name, index)
        if len(fields) == 1:
            return {fields[0]: int(value)}
        return {f: int(value[f.rsplit(".", 1)[1]]) for f in fields}

    def _columns(self, register: str, pipe: int = 0) -> tuple:
        """(size, ((bfrt field, cells), ...)) of a register in one pipe, looked up once."""
        found = self._registers.get((register, pipe))
        if found is None:
            reg = self._call(f"register {register}", self._pipe(pipe).register,
                             strip_pipe(register))
            found = self._registers[(register, pipe)] = (reg.size, tuple(zip(
                self._fields(register), reg.data)))
        return found

    def register_read_values(self, register, field, indices, from_hw=True, pipe=0):
        size, columns = self._columns(register, pipe)
        for name, cells in columns:
            if name == field:
                break
        else:
            raise FacadeError(f"register {register} has data fields "
                              f"{[name for name, _ in columns]}, not {field!r}")
        for i in indices:
            if not isinstance(i, int) or not 0 <= i < size:
                raise FacadeError(f"register {register}[{i}]: index outside "
                                  f"0..{size - 1}")
        return [cells[i] for i in indices]

    def registers_read_values(self, fields, indices, from_hw=True, pipe=0):
        # the readback of every frame reads the same 31 value registers: the cells of a
        # given list of pairs are looked up once, then read without a call per register
        plan = self._plans.get((fields, pipe))
        if plan is None:
            columns = []
            for register, field in fields:
                size, named = self._columns(register, pipe)
                cells = dict(named).get(field)
                if cells is None:
                    raise FacadeError(f"register {register} has data fields "
                                      f"{[name for name, _ in named]}, not {field!r}")
                columns.append((register, size, cells))
            plan = self._plans[(fields, pipe)] = (min(size for _, size, _ in columns), columns)
        size, columns = plan
        for i in indices:
            if not isinstance(i, int) or not 0 <= i < size:
                register = next(r for r, s, _ in columns if not 0 <= i < s) \
                    if isinstance(i, int) else columns[0][0]
                raise FacadeError(f"register {register}[{i}]: index outside its cells")
        return [[cells[i] for i in indices] for _, _, cells in columns]

    def register_read_cells(self, register, indices, from_hw=True, pipe=0):
        """One lookup of the register for the whole batch, then the cells themselves:
        the closed loop reads 35 registers after every frame (lockstep's register
        comparison), and a ``register_read`` per cell cost more than the pipeline."""
        size, columns = self._columns(register, pipe)
        indices = list(indices)
        for i in indices:
            if not isinstance(i, int) or not 0 <= i < size:
                raise FacadeError(f"register {register}[{i}]: index outside "
                                  f"0..{size - 1}")
        if len(columns) == 1:                     # the common case: one data field
            (field, cells), = columns
            return {i: {field: cells[i]} for i in indices}
        return {i: {f: cells[i] for f, cells in columns} for i in indices}

    def register_read_range(self, register, start, count, from_hw=True, pipe=0):
        name = strip_pipe(register)
        fields = self._fields(register)
        reg = self._call(f"register {register}", self._pipe(pipe).register, name)
        return {f: list(d[start:start + count]) for f, d in zip(fields, reg.data)}

    def register_clear(self, register):
        self._call(f"clear {register}", self.switch.register_reset, strip_pipe(register))
