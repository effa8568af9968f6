"""The key of a match-action table's entry, both ways: a TableEntry's key fields to
p4sim's key (``parse_key``), an entry's match back to key fields (``key_proto``), and
the entry a key names (``find_entry``). Direct and indirect match tables share it, so
both read back a key as they take it.

Decisions where BfRuntime leaves room: a ternary, lpm or range key field left out of an
entry is a wildcard; an exact one is an error. ``$MATCH_PRIORITY`` defaults to 0 (lower
wins, as in BfRt).
"""

from __future__ import annotations

import grpc

from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import TableInfo, decode_int, encode_int

from .data_fields import to_signed
from .errors import DeviceError, bad_request as _bad


def parse_key(t: TableInfo, p4t, te: pb.TableEntry):
    """(p4sim key dict, ``$MATCH_PRIORITY`` or None) of a TableEntry's key."""
    by_name = {k.name: k for k in p4t.spec.keys}
    key, prio = {}, None
    for kf in te.key.fields:
        ki = t.key_by_id(kf.field_id)
        if ki is None:
            raise _bad(f"table {t.name}: no key field with id {kf.field_id} "
                       f"(fields: {[(k.name, k.id) for k in t.keys]})")
        mt = kf.WhichOneof("match_type")
        want = {"Exact": "exact", "Ternary": "ternary", "LPM": "lpm",
                "Range": "range"}.get(ki.match_type)
        if mt != want:
            raise _bad(f"table {t.name} key field {ki.name} is {ki.match_type}; the "
                       f"request sent a {mt or 'missing'} match")
        w = ki.width
        what = f"table {t.name} key field {ki.name}"

        def val(b, label=""):
            v = decode_int(b)
            if v >> w:
                raise _bad(f"{what}{label}: value {v} does not fit in {w} bits")
            return v
        if ki.name == "$MATCH_PRIORITY":
            prio = val(kf.exact.value)
            continue
        ks = by_name[ki.name]
        sg = (lambda v: to_signed(v, w)) if ks.signed else (lambda v: v)
        if mt == "exact":
            key[ki.name] = sg(val(kf.exact.value))
        elif mt == "ternary":
            m = val(kf.ternary.mask, " mask")
            key[ki.name] = (sg(val(kf.ternary.value) & m), m)
        elif mt == "lpm":
            pl = kf.lpm.prefix_len
            if not 0 <= pl <= w:
                raise _bad(f"{what}: prefix_len {pl} outside 0..{w}")
            key[ki.name] = (sg(val(kf.lpm.value)), pl)
        else:
            key[ki.name] = (sg(val(kf.range.low, " low")), sg(val(kf.range.high, " high")))
    for ks in p4t.spec.keys:
        if ks.name in key:
            continue
        if ks.match == "exact":
            raise _bad(f"table {t.name}: exact key field {ks.name} is missing")
        lo = -(1 << (ks.width - 1)) if ks.signed else 0
        hi = (1 << (ks.width - 1)) - 1 if ks.signed else (1 << ks.width) - 1
        key[ks.name] = (lo, hi) if ks.match == "range" else (0, 0)
    return key, prio


def key_proto(t: TableInfo, p4t, e, out: pb.TableEntry) -> None:
    """The key fields (and ``$MATCH_PRIORITY``) of entry ``e`` into ``out``."""
    fields = out.key.fields
    for ks, (kind, a, b) in zip(p4t.spec.keys, e.match):
        ki = t.key(ks.name)
        full = (1 << ks.width) - 1
        kf = fields.add()
        kf.field_id = ki.id
        if ks.match == "exact":
            kf.exact.value = encode_int(a & full, ks.width)
        elif ks.match == "ternary":
            kf.ternary.value = encode_int(a & full, ks.width)
            kf.ternary.mask = encode_int(b & full, ks.width)
        elif ks.match == "lpm":
            kf.lpm.value = encode_int(a & full, ks.width)
            kf.lpm.prefix_len = bin(b & full).count("1")
        else:
            if kind != 2:   # a const entry's default (_) on a range key
                a, b = 0, full
            kf.range.low = encode_int(max(a, 0) & full, ks.width)
            kf.range.high = encode_int(min(b, full) & full, ks.width)
    if any(k.name == "$MATCH_PRIORITY" for k in t.keys):
        kf = fields.add()
        kf.field_id = t.key("$MATCH_PRIORITY").id
        kf.exact.value = encode_int(max(e.prio, 0), 32)


def find_entry(t: TableInfo, p4t, te):
    """The entry whose key ``te.key`` gives (a TableEntry or a HandleId)."""
    key, _prio = parse_key(t, p4t, te)
    want = _match_of(p4t, key)
    for e in p4t.sorted:
        if _same_match(p4t, e.match, want):
            return e
    raise DeviceError(grpc.StatusCode.NOT_FOUND, f"table {t.name}: no entry with that key")


def _match_of(p4t, key):
    """A parsed key as p4sim's ``Entry.match`` holds it, to compare with entries."""
    m = []
    for ks in p4t.spec.keys:
        v = key[ks.name]
        full = (1 << ks.width) - 1
        if ks.match == "exact":
            m.append((0, v, None))
        elif ks.match == "ternary":
            m.append((1, v[0] & v[1] & full, v[1]))
        elif ks.match == "lpm":
            pl = v[1]
            mask = (full >> (ks.width - pl)) << (ks.width - pl) if pl else 0
            m.append((1, v[0] & mask & full, mask))
        else:
            m.append((2, v[0], v[1]))
    return m


def _same_match(p4t, have, want):
    """Whether two matches are one key (bits outside a field's width ignored)."""
    for ks, (k1, a1, b1), (k2, a2, b2) in zip(p4t.spec.keys, have, want):
        full = (1 << ks.width) - 1
        if k1 != k2 or (a1 & full) != (a2 & full) or (k1 and (b1 & full) != (b2 & full)):
            return False
    return True
