"""BfRuntime's ``Counter`` tables on the softswitch: an indirect counter's cells by
index, ``$COUNTER_SPEC_BYTES`` and ``$COUNTER_SPEC_PKTS`` as its type has them.

Decisions where BfRuntime leaves room: DELETE/RESET of an index (of every index without
a key) zeroes it; a write of an index sets the fields it names; a read without a key
returns every index.
"""

from __future__ import annotations

from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import TableInfo, encode_int

from .data_fields import field_int
from .errors import bad_request as _bad
from .index_key import index_entities, index_of

U = pb.Update


def write(c, t: TableInfo, typ, te: pb.TableEntry) -> None:
    """One Update of counter ``c`` (p4sim's): an index's fields set, or (DELETE/RESET)
    zeroed."""
    idx = index_of(t, te, size=c.size)
    if idx is None:
        if typ in (U.DELETE, U.RESET):
            c.packets[:] = [0] * c.size
            c.bytes[:] = [0] * c.size
            return
        raise _bad(f"counter {t.name}: {U.Type.Name(typ)} needs key {t.keys[0].name}")
    if typ in (U.DELETE, U.RESET):
        c.packets[idx] = c.bytes[idx] = 0
        return
    for df in te.data.fields:
        fi = t.data_field_by_id(df.field_id)
        if fi is None:
            raise _bad(f"counter {t.name}: no data field with id {df.field_id}")
        v = field_int(df, 64, f"counter {t.name} field {fi.name}")
        (c.bytes if fi.name == "$COUNTER_SPEC_BYTES" else c.packets)[idx] = v


def read(c, t: TableInfo, te: pb.TableEntry):
    """The cells a read names (every index without a key)."""
    for i, ent in index_entities(t, te, c.size):
        for name, v in (("$COUNTER_SPEC_BYTES", c.bytes[i]), ("$COUNTER_SPEC_PKTS", c.packets[i])):
            if name not in t.data:
                continue
            df = ent.table_entry.data.fields.add()
            df.field_id = t.data[name].id
            df.stream = encode_int(v, 64)
        yield ent
