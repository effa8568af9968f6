"""The project's control-plane facade (p4src/control/facade.py) over the SDE's own
client, so that an SDE-style PTF test configures atp.p4 with the same control plane as
every other target while every write goes through bfrt_grpc, unmodified."""

import bfrt_grpc.client as gc

from p4src.control.facade import FacadeError, SwitchFacade, strip_pipe


class SdeFacade(SwitchFacade):
    """Tables, PRE and registers of one bound ``bfrt_info`` through ``bfrt_grpc``."""

    def __init__(self, bfrt_info, target):
        self.info = bfrt_info
        self.target = target

    def _table(self, name):
        return self.info.table_get(name)

    def _key(self, t, key):
        fields = []
        for name, v in (key or {}).items():
            match = t.info.key_field_match_type_get(name)
            if match == "Ternary":
                fields.append(gc.KeyTuple(name, v[0], mask=v[1]))
            elif match == "LPM":
                fields.append(gc.KeyTuple(name, v[0], prefix_len=v[1]))
            elif match == "Range":
                fields.append(gc.KeyTuple(name, low=v[0], high=v[1]))
            else:
                fields.append(gc.KeyTuple(name, v))
        return t.make_key(fields)

    def _data(self, t, action, data):
        return t.make_data([gc.DataTuple(k, v) for k, v in (data or {}).items()], action)

    # -- tables
    def table_add(self, table, key, action, data=None):
        t = self._table(table)
        t.entry_add(self.target, [self._key(t, key)], [self._data(t, action, data)])

    def table_modify(self, table, key, action, data=None):
        t = self._table(table)
        t.entry_mod(self.target, [self._key(t, key)], [self._data(t, action, data)])

    def table_delete(self, table, key):
        t = self._table(table)
        t.entry_del(self.target, [self._key(t, key)])

    def table_clear(self, table):
        self._table(table).entry_del(self.target)

    def default_entry_set(self, table, action, data=None):
        t = self._table(table)
        t.default_entry_set(self.target, self._data(t, action, data))

    def default_entry_reset(self, table):
        self._table(table).default_entry_reset(self.target)

    # -- PRE
    def multicast_node_add(self, node_id, rid, ports):
        t = self._table("$pre.node")
        t.entry_add(self.target, [t.make_key([gc.KeyTuple("$MULTICAST_NODE_ID", node_id)])],
                    [t.make_data([gc.DataTuple("$MULTICAST_RID", rid),
                                  gc.DataTuple("$MULTICAST_LAG_ID", int_arr_val=[]),
                                  gc.DataTuple("$DEV_PORT", int_arr_val=list(ports))])])

    def multicast_node_delete(self, node_id):
        t = self._table("$pre.node")
        t.entry_del(self.target, [t.make_key([gc.KeyTuple("$MULTICAST_NODE_ID", node_id)])])

    def multicast_group_add(self, mgid, node_ids):
        t = self._table("$pre.mgid")
        n = len(node_ids)
        t.entry_add(self.target, [t.make_key([gc.KeyTuple("$MGID", mgid)])],
                    [t.make_data([gc.DataTuple("$MULTICAST_NODE_ID", int_arr_val=list(node_ids)),
                                  gc.DataTuple("$MULTICAST_NODE_L1_XID_VALID",
                                               bool_arr_val=[False] * n),
                                  gc.DataTuple("$MULTICAST_NODE_L1_XID", int_arr_val=[0] * n)])])

    def multicast_group_delete(self, mgid):
        t = self._table("$pre.mgid")
        t.entry_del(self.target, [t.make_key([gc.KeyTuple("$MGID", mgid)])])

    # -- registers (every pipe written; a read gives the pipe asked for of the values the
    # device answers, one per pipe)
    def register_write(self, register, index, data, pipe=None):
        if pipe not in (None, 0):
            raise FacadeError(f"register {register}: this test writes every pipe, not {pipe}")
        t = self._table(register)
        t.entry_add(self.target, [t.make_key([gc.KeyTuple("$REGISTER_INDEX", index)])],
                    [t.make_data([gc.DataTuple(k, v) for k, v in data.items()])])

    def register_read_cells(self, register, indices, from_hw=True, pipe=0):
        t = self._table(register)
        indices = list(indices)
        keys = [t.make_key([gc.KeyTuple("$REGISTER_INDEX", i)]) for i in indices]
        out = {}
        for data, key in t.entry_get(self.target, keys, {"from_hw": from_hw}):
            cell = data.to_dict()
            index = key.to_dict()["$REGISTER_INDEX"]["value"]
            out[index] = {name: cell[name][pipe] for name in cell
                          if name.startswith(strip_pipe(t.info.name_get()) + ".")}
        return out

    def register_read(self, register, index, from_hw=True, pipe=0):
        return self.register_read_cells(register, [index], from_hw, pipe)[index]

    def register_read_range(self, register, start, count, from_hw=True, pipe=0):
        cells = self.register_read_cells(register, range(start, start + count), from_hw, pipe)
        out = {}
        for i in range(start, start + count):
            for name, v in cells[i].items():
                out.setdefault(name, []).append(v)
        return out

    def register_clear(self, register):
        self._table(register).entry_del(self.target)
