"""Meters over BfRuntime: ``Meter`` tables, a table's ``DirectMeter`` data fields and
the ``MeterByteCountAdjust`` attribute, as bf-p4c writes them and bf_switchd serves them.

Schema (bf-p4c's bfrt.json for ``tests/sde_ptf/ptf/meters/meters.p4``): a ``Meter<I>``
is table ``<pipe>.<Control>.<meter>`` of type ``Meter``, id prefix 0x85, key
``$METER_INDEX`` (65555), size = the meter's. Its data, and the data of a table whose
``meters`` names a DirectMeter, are the four ``$METER_SPEC_*`` fields of the meter's
unit, each ``uint64`` defaulting to 2^64-1 (no limit): BYTES meters ``CIR_KBPS``,
``PIR_KBPS``, ``CBS_KBITS``, ``PBS_KBITS`` (65545..65548), PACKETS meters ``CIR_PPS``,
``PIR_PPS``, ``CBS_PKTS``, ``PBS_PKTS`` (65549..65552). Both list the attribute
``MeterByteCountAdjust`` (before ``EntryScope`` on a match table).

Behaviour (p4sim's meter model, ``p4sim/README.md`` "Meter colour model": RFC 2698
two-rate three-colour marking over the frames' timestamps, which the softswitch takes
from its clock, real time by default or the sender's with ``--clock trailer``):
- writing a cell (or an entry's meter fields) configures it; a field left out keeps
  its value (2^64-1 on a cell never written), so a cell whose fields are all 2^64-1
  marks every frame GREEN, as an unconfigured one does. Configuring refills both
  buckets;
- DELETE/RESET of an index (or of the table without a key) puts cells back to the
  defaults; a read returns the four fields of each cell (every index without a key);
- ``MeterByteCountAdjust`` (``ByteCountAdj``): bytes added to every frame's length
  (may be negative) by the table's meters, BYTES meters only as on Tofino; read back as
  written (0 at start).
"""

from __future__ import annotations

import grpc

from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import TableInfo, decode_int, encode_int
from p4sim.runtime import MeterBucket

from .errors import DeviceError, bad_request
from .index_key import index_entities, index_to_set

PREFIX_METER = 0x85
METER_INDEX_ID = 65555
UNLIMITED = (1 << 64) - 1
ATTRIBUTE = "MeterByteCountAdjust"

# (name, id) of cir, pir, cbs, pbs per MeterType_t
SPEC_FIELDS = {
    "BYTES": (("$METER_SPEC_CIR_KBPS", 65545), ("$METER_SPEC_PIR_KBPS", 65546),
              ("$METER_SPEC_CBS_KBITS", 65547), ("$METER_SPEC_PBS_KBITS", 65548)),
    "PACKETS": (("$METER_SPEC_CIR_PPS", 65549), ("$METER_SPEC_PIR_PPS", 65550),
                ("$METER_SPEC_CBS_PKTS", 65551), ("$METER_SPEC_PBS_PKTS", 65552)),
}


def spec_data_json(kind: str) -> list[dict]:
    """The ``data`` entries of a meter of ``kind`` (BYTES/PACKETS)."""
    return [{"mandatory": False, "read_only": False,
             "singleton": {"id": fid, "name": name, "repeated": False, "annotations": [],
                           "type": {"type": "uint64", "default_value": UNLIMITED}}}
            for name, fid in SPEC_FIELDS[kind]]


def meter_table_json(spec, pipe: str, ids) -> dict:
    name = f"{pipe}.{spec.name}"
    return {"name": name, "id": ids.get(PREFIX_METER, name), "table_type": "Meter",
            "size": spec.size, "depends_on": [],
            "key": [{"id": METER_INDEX_ID, "name": "$METER_INDEX", "repeated": False,
                     "annotations": [], "mandatory": True, "match_type": "Exact",
                     "type": {"type": "uint32"}}],
            "data": spec_data_json(spec.kind), "supported_operations": [],
            "attributes": [ATTRIBUTE]}


def spec_values(bucket: MeterBucket | None) -> tuple[int, int, int, int]:
    """(cir, pir, cbs, pbs) a cell is configured with, in BfRt's units."""
    if bucket is None:
        return (UNLIMITED,) * 4
    return bucket.cir, bucket.pir, bucket.cbs // 10**9, bucket.pbs // 10**9


class MeterControl:
    """The meter state of one device: cells by BfRt fields, and the tables'
    byte-count adjustments."""

    def __init__(self, switch):
        self.switch = switch
        self.adjust: dict[int, int] = {}       # table id -> MeterByteCountAdjust

    # ---------------------------------------------------------------- fields
    @staticmethod
    def _fields(t: TableInfo, kind: str, data: pb.TableData | None,
                given: dict[str, int] | None = None) -> dict[str, int]:
        """The ``$METER_SPEC_*`` values an update names (by field name)."""
        out = dict(given or {})
        if data is not None:
            names = {fid: name for name, fid in SPEC_FIELDS[kind]}
            for df in data.fields:
                name = names.get(df.field_id)
                if name is None:
                    raise bad_request(f"meter {t.name}: no data field with id {df.field_id} "
                                      f"(fields: {list(SPEC_FIELDS[kind])})")
                if df.WhichOneof("value") != "stream":
                    raise bad_request(f"meter {t.name} field {name}: expected an integer")
                v = decode_int(df.stream)
                if v > UNLIMITED:
                    raise bad_request(f"meter {t.name} field {name}: {v} does not fit in 64 bits")
                out[name] = v
        return out

    def _bucket(self, tid: int, kind: str, old: MeterBucket | None,
                fields: dict[str, int]) -> MeterBucket:
        values = [fields.get(name, v) for (name, _), v in zip(SPEC_FIELDS[kind],
                                                              spec_values(old))]
        cir, pir, cbs, pbs = values
        b = MeterBucket(kind, cir, cbs, pir, pbs)
        b.adjust = self.adjust.get(tid, 0) if kind == "BYTES" else 0
        return b

    @staticmethod
    def add_fields(kind: str, bucket: MeterBucket | None, out: pb.TableData) -> None:
        for (_name, fid), v in zip(SPEC_FIELDS[kind], spec_values(bucket)):
            df = out.fields.add()
            df.field_id = fid
            df.stream = encode_int(v, 64)

    # ---------------------------------------------------------------- Meter tables
    def write(self, t: TableInfo, meter, typ, te: pb.TableEntry) -> None:
        def clear(i):
            if i is None:
                meter.cells.clear()
            else:
                meter.cells.pop(i, None)

        idx = index_to_set(t, te, typ, clear, size=meter.size)
        if idx is None:
            return
        kind = meter.spec.kind
        meter.cells[idx] = self._bucket(t.id, kind, meter.cells.get(idx),
                                        self._fields(t, kind, te.data))

    def read(self, t: TableInfo, meter, te: pb.TableEntry):
        for i, ent in index_entities(t, te, meter.size):
            self.add_fields(meter.spec.kind, meter.cells.get(i), ent.table_entry.data)
            yield ent

    # ---------------------------------------------------------------- direct meters
    def set_direct(self, t: TableInfo, p4t, entry, fields: dict[str, int]) -> None:
        """An entry's ``$METER_SPEC_*`` fields (``fields``, by name) onto its meter."""
        dm = p4t.spec.direct_meter
        if dm is None or not fields:
            return
        entry.meter = self._bucket(t.id, dm.kind, entry.meter,
                                   self._fields(t, dm.kind, None, fields))

    @staticmethod
    def is_spec_field(name: str) -> bool:
        return name.startswith("$METER_SPEC_")

    # ---------------------------------------------------------------- attribute
    def write_adjust(self, t: TableInfo, objects, value: int) -> None:
        """``MeterByteCountAdjust`` of table ``t`` onto every cell it has now (cells
        configured later take it when they are made)."""
        if ATTRIBUTE not in t.attributes:
            raise DeviceError(grpc.StatusCode.UNIMPLEMENTED,
                              f"table {t.name} has no attribute {ATTRIBUTE}; its bfrt.json "
                              f"lists {list(t.attributes)}")
        self.adjust[t.id] = value
        obj = objects[t.id]
        if t.table_type == "Meter":
            kind, cells = obj.spec.kind, obj.cells.values()
        else:
            kind = obj.spec.direct_meter.kind
            cells = [e.meter for e in obj.entries.values() if e.meter is not None]
        for b in cells:
            b.adjust = value if kind == "BYTES" else 0

    def read_adjust(self, t: TableInfo) -> pb.Entity:
        if ATTRIBUTE not in t.attributes:
            raise DeviceError(grpc.StatusCode.UNIMPLEMENTED,
                              f"table {t.name} has no attribute {ATTRIBUTE}")
        ent = pb.Entity()
        ent.table_attribute.table_id = t.id
        ent.table_attribute.byte_count_adj.byte_count_adjust = self.adjust.get(t.id, 0)
        return ent
