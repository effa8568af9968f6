"""The bfrt backend of the control-plane facade: every call is one BfRuntime gRPC
operation through :class:`bfruntime.client.BfRuntimeClient`.

It drives whatever answers BfRuntime: the softswitch (``python -m p4sim.switchd``), the
Tofino model's bf_switchd, or a hardware switch. Names are the facade's (bfrt.json's);
a register read gives pipe 0's value, as the facade specifies.
"""

from __future__ import annotations

from bfruntime.client import BfRuntimeClient, BfRuntimeError
from bfruntime.info import SchemaError

from p4src.control.facade import FacadeError, SwitchFacade, strip_pipe


class BfrtFacade(SwitchFacade):
    """The facade over a connected (and bound) BfRuntime client."""

    def __init__(self, client: BfRuntimeClient) -> None:
        self.client = client
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
    @staticmethod
    def _full(register: str, fields: dict) -> dict:
        prefix = strip_pipe(register) + "."
        return {prefix + f: values[0] for f, values in fields.items()}

    def register_write(self, register, index, data):
        self._call(f"register {register}[{index}]", self.client.register_write, register,
                   index, dict(data))

    def register_read(self, register, index, from_hw=True):
        cell = self._call(f"register {register}[{index}]", self.client.register_read,
                          register, index, from_hw=from_hw)
        return self._full(register, cell)

    def register_read_range(self, register, start, count, from_hw=True):
        cells = self._call(f"register {register}[{start}:{start + count}]",
                           self.client.register_read_many, register,
                           range(start, start + count), from_hw=from_hw)
        out: dict[str, list[int]] = {}
        for i in range(start, start + count):
            for f, v in self._full(register, cells[i]).items():
                out.setdefault(f, []).append(v)
        return out

    def register_read_cells(self, register, indices, from_hw=True):
        indices = list(indices)
        cells = self._call(f"register {register}[{len(indices)} cells]",
                           self.client.register_read_many, register, indices, from_hw=from_hw)
        return {i: self._full(register, cells[i]) for i in indices}

    def registers_read_values(self, fields, indices, from_hw=True):
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
            full = [self._full(register, cells[register][i]) for i in indices]
            try:
                out.append([cell[field] for cell in full])
            except KeyError:
                raise FacadeError(f"register {register} has data fields "
                                  f"{sorted(full[0]) if full else []}, not {field!r}") from None
        return out

    def registers_read_cells(self, reads, from_hw=True):
        reads = [(register, list(indices)) for register, indices in reads]
        answers = self._call(f"registers {reads[0][0]}.. ({len(reads)})",
                             self.client.registers_read_cells, reads, from_hw=from_hw)
        names = self._full_names
        out = []
        for (register, indices), answer in zip(reads, answers):
            cells = {}
            for i in indices:
                cell = {}
                for f, values in answer[i].items():
                    name = names.get((register, f))
                    if name is None:
                        name = names[(register, f)] = f"{strip_pipe(register)}.{f}"
                    cell[name] = values[0]
                cells[i] = cell
            out.append(cells)
        return out

    def registers_read_columns(self, groups, from_hw=True):
        groups = [(list(pairs), list(indices)) for pairs, indices in groups]
        reads = [(register, indices) for pairs, indices in groups
                 for register in dict.fromkeys(r for r, _ in pairs)]
        cells = iter(self.registers_read_cells(reads, from_hw))      # one Read
        out = []
        for pairs, indices in groups:
            answers = {register: next(cells) for register in dict.fromkeys(r for r, _ in pairs)}
            try:
                out.append([[answers[register][i][field] for i in indices]
                            for register, field in pairs])
            except KeyError as exc:
                raise FacadeError(f"registers {pairs[0][0]}..: no data field or cell "
                                  f"{exc} in the answer") from None
        return out

    def register_clear(self, register):
        self._call(f"clear {register}", self.client.table_clear, register)
