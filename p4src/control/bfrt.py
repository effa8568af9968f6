"""The bfrt backend of the control-plane facade: every call is one BfRuntime gRPC
operation through :class:`bfruntime.client.BfRuntimeClient`.

It drives whatever answers BfRuntime: the softswitch (``python -m p4sim.switchd``), the
Tofino model's bf_switchd, or a hardware switch. Names are the facade's (bfrt.json's);
writes name all pipes (the client's target), a register read answers one value per
pipe and the facade keeps the pipe asked for; the pipes are the device's own
(``num_pipes``, from its ``device_configuration``).
"""

from __future__ import annotations

from bfruntime.client import BfRuntimeClient, BfRuntimeError
from bfruntime.info import SchemaError

from p4src.control.facade import FacadeError, SwitchFacade, strip_pipe


class BfrtFacade(SwitchFacade):
    """The facade over a connected (and bound) BfRuntime client."""

    def __init__(self, client: BfRuntimeClient) -> None:
        self.client = client
        self._pipes: int | None = None
        self._single_pipe: set[str] = set()     # registers set to single-pipe scope
        self._full_names: dict[tuple[str, str], str] = {}   # (register, field) -> bfrt name

    def _call(self, what: str, fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (BfRuntimeError, SchemaError) as exc:
            raise FacadeError(f"{what}: {exc}") from exc

    # -- tables -------------------------------------------------------------------------
    def table_add(self, table, key, action, data=None):
        self._call(f"entry_add {table}", self.client.entry_add, table, dict(key), action,
                   dict(data or {}))

    def table_modify(self, table, key, action, data=None):
        self._call(f"entry_mod {table}", self.client.entry_mod, table, dict(key), action,
                   dict(data or {}))

    def table_delete(self, table, key):
        self._call(f"entry_del {table}", self.client.entry_del, table, dict(key))

    def table_clear(self, table):
        self._call(f"clear {table}", self.client.table_clear, table)

    def default_entry_set(self, table, action, data=None):
        self._call(f"default_entry_set {table}", self.client.default_entry_set, table,
                   action, dict(data or {}))

    def default_entry_reset(self, table):
        self._call(f"default_entry_reset {table}", self.client.default_entry_reset, table)

    # -- PRE ----------------------------------------------------------------------------
    def multicast_node_add(self, node_id, rid, ports):
        self._call(f"$pre.node add {node_id}", self.client.multicast_node_add, node_id, rid,
                   list(ports))

    def multicast_node_delete(self, node_id):
        self._call(f"$pre.node delete {node_id}", self.client.entry_del, "$pre.node",
                   {"$MULTICAST_NODE_ID": node_id})

    def multicast_group_add(self, mgid, node_ids):
        self._call(f"$pre.mgid add {mgid}", self.client.multicast_group_add, mgid,
                   list(node_ids))

    def multicast_group_delete(self, mgid):
        self._call(f"$pre.mgid delete {mgid}", self.client.entry_del, "$pre.mgid",
                   {"$MGID": mgid})

    # -- registers ----------------------------------------------------------------------
    def num_pipes(self) -> int:
        if self._pipes is None:
            self._pipes = self._call("device_configuration num_pipes", self.client.num_pipes)
        return self._pipes

    @staticmethod
    def _full(register: str, fields: dict, pipe: int = 0) -> dict:
        prefix = strip_pipe(register) + "."
        try:
            return {prefix + f: values[pipe] for f, values in fields.items()}
        except IndexError:
            raise FacadeError(f"register {register}: the device answered "
                              f"{len(next(iter(fields.values())))} value(s) per field, "
                              f"none for pipe {pipe}") from None

    def _scope(self, register: str, single: bool) -> None:
        """A write to one pipe needs the register's scope single-pipe, a write to all
        pipes symmetric (bf_switchd's EntryScope); switched only when it changes."""
        if single == (register in self._single_pipe):
            return
        self._call(f"EntryScope of {register}", self.client.pipe_scope_set, register, single)
        (self._single_pipe.add if single else self._single_pipe.discard)(register)

    def register_write(self, register, index, data, pipe=None):
        if pipe is not None and self.num_pipes() == 1:
            pipe = None                           # the one pipe is every pipe
        self._scope(register, pipe is not None)
        self._call(f"register {register}[{index}]", self.client.register_write, register,
                   index, dict(data), pipe=pipe)

    def register_read(self, register, index, from_hw=True, pipe=0):
        cell = self._call(f"register {register}[{index}]", self.client.register_read,
                          register, index, from_hw=from_hw)
        return self._full(register, cell, pipe)

    def register_read_range(self, register, start, count, from_hw=True, pipe=0):
        cells = self._call(f"register {register}[{start}:{start + count}]",
                           self.client.register_read_many, register,
                           range(start, start + count), from_hw=from_hw)
        out: dict[str, list[int]] = {}
        for i in range(start, start + count):
            for f, v in self._full(register, cells[i], pipe).items():
                out.setdefault(f, []).append(v)
        return out

    def register_read_cells(self, register, indices, from_hw=True, pipe=0):
        indices = list(indices)
        cells = self._call(f"register {register}[{len(indices)} cells]",
                           self.client.register_read_many, register, indices, from_hw=from_hw)
        return {i: self._full(register, cells[i], pipe) for i in indices}

    def registers_read_values(self, fields, indices, from_hw=True, pipe=0):
        # one Read for every register of the batch instead of one per register: the
        # readback after each frame of a closed loop reads ~35 of them
        indices = list(indices)
        registers = list(dict.fromkeys(r for r, _ in fields))
        answers = self._call(f"registers {registers[0]}.. ({len(registers)})",
                             self.client.registers_read_many, registers, indices,
                             from_hw=from_hw)
        cells = {r: answers[k] for k, r in enumerate(registers)}
        out = []
        for register, field in fields:
            full = [self._full(register, cells[register][i], pipe) for i in indices]
            try:
                out.append([cell[field] for cell in full])
            except KeyError:
                raise FacadeError(f"register {register} has data fields "
                                  f"{sorted(full[0]) if full else []}, not {field!r}") from None
        return out

    def registers_read_cells(self, reads, from_hw=True):
        # a Read answers every pipe's value of a cell: each register is read once, at
        # the cells of every pipe asked, and each item keeps its pipe's values
        reads = [(register, list(indices), pipe) for register, indices, pipe in reads]
        wanted: dict[str, dict[int, None]] = {}
        for register, indices, _ in reads:
            wanted.setdefault(register, {}).update(dict.fromkeys(indices))
        order = list(wanted)
        answers = self._call(f"registers {order[0]}.. ({len(order)})",
                             self.client.registers_read_cells,
                             [(register, list(wanted[register])) for register in order],
                             from_hw=from_hw)
        by_register = dict(zip(order, answers))
        names = self._full_names
        out = []
        for register, indices, pipe in reads:
            answer = by_register[register]
            cells = {}
            for i in indices:
                cell = {}
                for f, values in answer[i].items():
                    name = names.get((register, f))
                    if name is None:
                        name = names[(register, f)] = f"{strip_pipe(register)}.{f}"
                    if pipe >= len(values):
                        raise FacadeError(f"register {register}: the device answered "
                                          f"{len(values)} value(s) per field, none for "
                                          f"pipe {pipe}")
                    cell[name] = values[pipe]
                cells[i] = cell
            out.append(cells)
        return out

    def registers_read_columns(self, groups, from_hw=True):
        groups = [(list(pairs), list(indices), pipe) for pairs, indices, pipe in groups]
        reads = [(register, indices, pipe) for pairs, indices, pipe in groups
                 for register in dict.fromkeys(r for r, _ in pairs)]
        cells = iter(self.registers_read_cells(reads, from_hw))      # one Read
        out = []
        for pairs, indices, _ in groups:
            answers = {register: next(cells) for register in dict.fromkeys(r for r, _ in pairs)}
            try:
                out.append([[answers[register][i][field] for i in indices]
                            for register, field in pairs])
            except KeyError as exc:
                raise FacadeError(f"registers {pairs[0][0]}..: no data field or cell "
                                  f"{exc} in the answer") from None
        return out

    def register_clear(self, register):
        self._scope(register, False)
        self._call(f"clear {register}", self.client.table_clear, register)
