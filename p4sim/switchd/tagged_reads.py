"""Register cells read through the tags: a read request that runs in its driver's order
among the tagged frames (``tagging.py``), answered on the data path.

A closed loop reads the aggregators a segment of frames named right after its last
frame (``atp_fixtures.running.lockstep``), once per segment: on a switch behind real
interfaces that is a BfRuntime Read per segment, a gRPC round trip plus a protobuf
entity per register cell (~70 for one aggregator) on both sides, which cost more than
everything else of a softswitch run. A switch that tags can take the read as one more
tagged frame instead: the *read request* (ethertype ``DONE_ETHERTYPE``, payload
``P4SR`` + the cells) is sequenced like any frame of the batch, so it runs after
exactly the frames before it, and its answer leaves as that frame's outputs (output
tags, ``P4SA`` + the values, split over as many frames as it needs). The cells are read
from the same registers a BfRuntime Read of them answers (``register_tables.py``); only
the transport differs. A real Tofino has none of this: there the driver reads over
BfRuntime (``fixtures/targets/bfrt_ptf.py``).

Request payload: ``u16`` groups; per group ``u16`` pipe, ``u16`` tables, ``u16``
indices, the tables' BfRuntime ids (``u32`` each), the indices (``u32`` each) -- every
table of a group is read at every index of it, in that pipe's registers (spec 8a: each
pipe has its own; a one-pipe device has pipe 0 alone). Answer payload: ``u8`` status (0: the values follow; 1: a
UTF-8 message says why the request was refused), then per group, per table: ``u8``
field count and the data field ids (``u32`` each), then per index the fields' values
(``u64`` each, unsigned, as a BfRuntime Read encodes them).
"""

from __future__ import annotations

import struct
from typing import Sequence

from .tagging import DONE_ETHERTYPE

READ_MAGIC = b"P4SR"
ANSWER_MAGIC = b"P4SA"
HEADER = struct.Struct("!6s6sH4s")        # dst, src, ethertype, magic
PART_BYTES = 1400                          # answer bytes per frame (within a 1500 MTU)
REQUEST_BYTES = 1400                       # a request frame, before its tag (the same)
# a request's answer, at most (estimated at two 8-byte fields a cell): 32 frames, which
# the driver's socket takes in one burst; a larger answer lost frames in its buffer
ANSWER_BYTES = 32 * PART_BYTES
CELL_BYTES = 16
OK, REFUSED = 0, 1
U16, U32, U64 = struct.Struct("!H"), struct.Struct("!I"), struct.Struct("!Q")

Group = tuple[Sequence[int], Sequence[int], int]  # (table ids, indices, pipe)


class ReadRefused(Exception):
    """The switch refused a tagged read; the message says why."""


def request_frame(groups: Sequence[Group]) -> bytes:
    """The read request (untagged: the driver sequences it like any frame)."""
    out = [HEADER.pack(b"\0" * 6, b"\0" * 6, DONE_ETHERTYPE, READ_MAGIC), U16.pack(len(groups))]
    for tables, indices, pipe in groups:
        out.append(struct.pack(f"!HHH{len(tables)}I{len(indices)}I", pipe, len(tables),
                               len(indices), *tables, *indices))
    return b"".join(out)


Part = tuple[int, Group]       # (the group's position in the read, some of its indices)


def split_request(groups: Sequence[Group], limit: int = REQUEST_BYTES,
                  answer_limit: int = ANSWER_BYTES) -> list[list[Part]]:
    """The read cut into requests that each fit one frame and whose answers stay within
    ``answer_limit``, in order, a group's indices in consecutive parts: a segment of a
    large window names more aggregators than one frame holds (a multi-PS job's S of
    hundreds, ~70 registers each), and a veth refuses a frame over its MTU (EMSGSIZE).
    :func:`join_answers` puts the answers together."""
    start = HEADER.size + U16.size
    requests: list[list[Part]] = []
    current: list[Part] = []
    size, answer = start, 1
    for n, (tables, indices, pipe) in enumerate(groups):
        fixed = 6 + 4 * len(tables)
        per_index = CELL_BYTES * len(tables)
        if start + fixed + 4 > limit or 1 + per_index > answer_limit:
            raise ValueError(f"{len(tables)} registers in one group do not fit a "
                             f"{limit}-byte read request")
        at = 0
        while True:
            room = min((limit - size - fixed) // 4, (answer_limit - answer) // per_index)
            if room < 1:
                requests.append(current)
                current, size, answer = [], start, 1
                continue
            part = list(indices[at:at + room])
            current.append((n, (tables, part, pipe)))
            size += fixed + 4 * len(part)
            answer += per_index * len(part)
            at += len(part)
            if at >= len(indices):
                break
    if current:
        requests.append(current)
    return requests


def join_answers(requests: Sequence[Sequence[Part]], answers: Sequence[list], groups: int
                 ) -> list[list[tuple[tuple[int, ...], list[tuple[int, ...]]]]]:
    """:func:`parse_answer`'s result for the whole read, from each request's (parsed
    answers in the order of :func:`split_request`'s requests)."""
    whole: list[list | None] = [None] * groups
    for request, answer in zip(requests, answers):
        for (n, _), per_table in zip(request, answer):
            if whole[n] is None:
                whole[n] = [(fids, list(rows)) for fids, rows in per_table]
            else:
                for (_, rows), (_, more) in zip(whole[n], per_table):
                    rows.extend(more)
    return [group or [] for group in whole]


def is_request(frame: bytes) -> bool:
    return len(frame) >= HEADER.size and frame[12:14] == DONE_ETHERTYPE.to_bytes(2, "big") \
        and frame[14:18] == READ_MAGIC


def parse_request(frame: bytes) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """The request's groups; ValueError if it is cut short."""
    view = memoryview(frame)[HEADER.size:]
    (count,), at = U16.unpack_from(view, 0), U16.size
    groups = []
    for _ in range(count):
        pipe, tables, indices = struct.unpack_from("!HHH", view, at)
        at += 6
        ids = struct.unpack_from(f"!{tables}I{indices}I", view, at)
        at += 4 * (tables + indices)
        groups.append((ids[:tables], ids[tables:], pipe))
    return groups


def answer_parts(device, frame: bytes) -> list[bytes]:
    """The answer frames (untagged) to a request, read from ``device``'s registers under
    its lock; a request naming something other than a register cell is refused."""
    try:
        payload = bytes([OK]) + _values(device, parse_request(frame))
    except (ValueError, struct.error) as exc:
        payload = bytes([REFUSED]) + str(exc).encode()
    head = HEADER.pack(b"\0" * 6, b"\0" * 6, DONE_ETHERTYPE, ANSWER_MAGIC)
    return [head + payload[at:at + PART_BYTES]
            for at in range(0, max(len(payload), 1), PART_BYTES)]


def _values(device, groups) -> bytes:
    from . import register_tables
    out = []
    with device.lock:
        for tables, indices, pipe in groups:
            if not 0 <= pipe < len(device.pipes):
                raise ValueError(f"pipe {pipe} outside the device's pipes "
                                 f"0..{len(device.pipes) - 1}")
            objects = device.pipes[pipe].objects      # that pipe's registers (spec 8a)
            for tid in tables:
                t = device.info.table_by_id(tid)
                if t is None or t.table_type != "Register":
                    raise ValueError(f"table id {tid} is not a register of "
                                     f"{device.p4_name!r}")
                reg = objects[tid]
                bad = [i for i in indices if not 0 <= i < reg.size]
                if bad:
                    raise ValueError(f"register {t.name}: index {bad[0]} outside "
                                     f"0..{reg.size - 1}")
                fields = register_tables.field_plan(t, reg.spec)
                out.append(struct.pack(f"!B{len(fields)}I", len(fields),
                                       *(fid for fid, _, _ in fields)))
                columns = list(zip((mask for _, mask, _ in fields), reg.data))
                out.append(struct.pack(f"!{len(indices) * len(fields)}Q", *(
                    d[i] & mask for i in indices for mask, d in columns)))
    return b"".join(out)


def parse_answer(parts: Sequence[bytes], groups: Sequence[Group]
                 ) -> list[list[tuple[tuple[int, ...], list[tuple[int, ...]]]]]:
    """Per group, per table: (data field ids, the values per index), from the answer
    frames in order; ``ReadRefused`` with the switch's reason if it refused."""
    payload = b"".join(bytes(p[HEADER.size:]) for p in parts)
    if not payload or payload[0] != OK:
        raise ReadRefused(payload[1:].decode(errors="replace") or "an empty answer")
    view, at = memoryview(payload), 1
    out = []
    for tables, indices, _ in groups:
        group = []
        for _ in tables:
            (n,) = struct.unpack_from("!B", view, at)
            fids = struct.unpack_from(f"!{n}I", view, at + 1)
            at += 1 + 4 * n
            flat = struct.unpack_from(f"!{n * len(indices)}Q", view, at)
            at += 8 * n * len(indices)
            group.append((fids, [flat[k * n:(k + 1) * n] for k in range(len(indices))]))
        out.append(group)
    return out


def is_answer(frame: bytes) -> bool:
    return len(frame) >= HEADER.size and frame[14:18] == ANSWER_MAGIC
