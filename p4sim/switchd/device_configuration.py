"""``tf1.dev.device_configuration`` (table type ``DevConfigure``): what the softswitch
says it is, read as the table's one default entry (schema: ``bfrt_schema.py``).

``num_pipes`` is the device's (``--pipes``: 1, 2 or 4; what the SDE's
``BfRuntimeTest`` reads into ``dev_configuration``, and the number of values a register
read answers, ``pipe_scope.py``). Its other values: ``num_stages`` 12 (Tofino 1, the
target bf-p4c compiles ``p4src/`` for), ``num_max_ports`` 128 per pipe (every device
port of its pipes can be bound), the bound ports as ``external_port_list`` and their
count as ``num_front_ports``, each pipe's recirculation port as ``recirc_port_list``
(68, 196, ... with the default 68; a one-pipe device has its one), no internal or
Ethernet CPU ports, ``sku`` UNKNOWN (it is no Tofino part) and no ``pcie_cpu_port`` (it
has none, so the field is not in its schema).
"""

from __future__ import annotations

from bfruntime import bfruntime_pb2 as pb
from p4sim.pipes import PORTS_PER_PIPE, recirculation_ports
from bfruntime.info import TableInfo, encode_int


def values(ports, recirculation_port: int, num_pipes: int = 1) -> dict:
    """The table's fields by name for a device with ``ports`` (device port -> state)."""
    recirc = ([recirculation_port] if num_pipes == 1
              else sorted(recirculation_ports(recirculation_port, num_pipes)))
    return {"sku": "UNKNOWN", "num_pipes": num_pipes, "num_stages": 12,
            "num_max_ports": 512 if num_pipes == 1 else PORTS_PER_PIPE * num_pipes,
            "num_front_ports": len(ports), "eth_cpu_port_list": [],
            "internal_port_list": [], "external_port_list": sorted(ports),
            "recirc_port_list": recirc,
            "intr_based_link_monitoring": False}


def read(t: TableInfo, fields: dict):
    """The table's one entry (``fields``: ``values``'s), typed as the schema says."""
    ent = pb.Entity()
    out = ent.table_entry
    out.table_id = t.id
    out.is_default_entry = True
    for name, v in fields.items():
        fi = t.data[name]
        f = out.data.fields.add()
        f.field_id = fi.id
        if fi.repeated:
            f.int_arr_val.val.extend(v)
        elif fi.type == "string":
            f.str_val = v
        elif fi.type == "bool":
            f.bool_val = v
        else:
            f.stream = encode_int(v, fi.width)
    yield ent
