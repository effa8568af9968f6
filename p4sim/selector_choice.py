"""Which member of a selector group a hash value picks, as Tofino's driver computes it
(open-p4studio bf-drivers, ``pipe_mgr_select_tbl.c``: ``rmt_sel_grp_mbr_get_from_hash``,
the function behind BfRt's ``<selector>_get_member`` table), for a group that fits in
one selector word (at most 120 members, the word width; larger groups spread over words
chosen by hash bits 51..65, which p4sim does not model) and without the optional hash
scrambling (``sps``) a program does not ask for:

- FAIR: ``n = hash[13:0] % (number of active members)``; the n-th active member in the
  word's order.
- RESILIENT: up to three tries, with hash bits [13:0], [27:14], [41:28]: the member at
  ``bits % (members in the word)`` if it is active; after three misses, "plan B": a
  circular priority encoder over the word, started at ``hash[17:12]`` of an 18-bit input
  ``hash[50:42] ++ hash[13:5]``, whose positions are permuted by XOR with ``input[5:0]``
  (even positions) and ``input[11:6]`` (odd positions), each doubled.

The word's order is the order in which members were put in the group (p4sim: the order
of the list the control plane gave; the driver moves members around when a group is
changed, which p4sim does not follow).
"""
from __future__ import annotations

WORD_WIDTH = 120      # members in one selector word (SEL_GRP_WORD_WIDTH)
FAIR_BITS = 14


def _bits(value: int, low: int, width: int) -> int:
    return value >> low & ((1 << width) - 1)


def fair(members: list, active: list, hash_value: int):
    """The member a FAIR selector picks; None when no member is active."""
    up = [m for m, a in zip(members, active) if a]
    return up[_bits(hash_value, 0, FAIR_BITS) % len(up)] if up else None


def resilient(members: list, active: list, hash_value: int):
    """The member a RESILIENT selector picks; None when no member is active."""
    if not any(active):
        return None
    for attempt in range(3):
        i = _bits(hash_value, attempt * FAIR_BITS, FAIR_BITS) % len(members)
        if active[i]:
            return members[i]
    i = _plan_b(_bits(hash_value, 42, 9) << 9 | _bits(hash_value, 5, 9), active)
    return members[i] if i is not None and i < len(members) and active[i] else None


def _plan_b(word: int, active: list):
    """The position the driver's circular priority encoder gives for the 18-bit
    ``word``: positions are XOR-permuted by ``word[5:0]`` (even) and ``word[11:6]``
    (odd), each doubled; the search runs down from position ``word[17:12]``."""
    flip = (_bits(word, 0, 6) << 1, _bits(word, 6, 6) << 1)
    encoder = [False] * WORD_WIDTH
    for i, a in enumerate(active):
        if a and (i ^ flip[i & 1]) < WORD_WIDTH:
            encoder[i ^ flip[i & 1]] = True
    head = _bits(word, 12, 6)
    for i in range(head + WORD_WIDTH, head, -1):
        idx = i % WORD_WIDTH
        if encoder[idx]:
            return idx ^ flip[idx & 1]
    return None
