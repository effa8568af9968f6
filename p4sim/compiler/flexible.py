"""``@flexible`` headers: the field order and padding bf-p4c gives them on the wire.

bf-p4c repacks a ``@flexible`` header (bridged metadata, mirror headers) to suit its PHV
allocation, and ingress deparser and egress parser agree on the result because the same
compiler builds both. p4sim uses the layout bf-p4c chooses when no PHV constraint packs
two fields together (what its ``logs/flexible_packing.log`` shows for such headers,
checked against that log in tests/p4sim/test_p4sim_flexible.py):

1. the fields whose width is a whole number of bytes come first, then the others;
   within each part, in *reverse* declaration order;
2. every field starts a byte and is right-aligned in ``ceil(width / 8)`` bytes: a
   field of ``w`` bits is preceded by ``-w % 8`` bits of padding (``__pad_<n>``,
   numbered in wire order, as bf-p4c names them), which a deparser emits as zeros.

A header with only some fields ``@flexible`` (the SDE's tna_mirror bridges
``pkt_type`` and two ``@flexible`` fields, 19 bits as declared) keeps its other fields
first, in declaration order, and lays the ``@flexible`` ones out after them as above:
p4sim's model (bf-p4c accepts such a header and pads it to whole bytes; the bytes only
travel between the ingress deparser and the egress parser, both the program's).

Where bf-p4c's allocator does pack several fields into one byte (fields written from
one container with alignment constraints), its layout differs from this one; p4sim
cannot know it without the allocator, and ``python -m p4sim check`` does not flag it.
Field access is by name, so the reordering is invisible to the program except through
the bytes (and ``pkt_length``) between the deparser and the next parser.
"""
from __future__ import annotations

from ..types import Bits

FLEXIBLE = "flexible"


def is_flexible(decl) -> bool:
    return any(a.name == FLEXIBLE for a in (decl.get("anns") or ()))


def flexible_layout(fields: list, width_of) -> list:
    """``fields`` [(name, type)] in bf-p4c's wire order with its padding fields;
    ``width_of(type)`` is a field's width in bits."""
    aligned = [f for f in reversed(fields) if width_of(f[1]) % 8 == 0]
    others = [f for f in reversed(fields) if width_of(f[1]) % 8]
    out, npad = [], 0
    for name, ft in aligned + others:
        pad = -width_of(ft) % 8
        if pad:
            out.append((f"__pad_{npad}", Bits(pad)))
            npad += 1
        out.append((name, ft))
    return out
