"""Digests as BfRuntime learn objects: ``learn_filters`` in bfrt.json and ``DigestList``
messages on the StreamChannel.

Where the format comes from:
- bf-p4c's bfrt.json for ``tests/sde_ptf/ptf/digest_learn/digest_learn.p4``: one learn
  filter per ``Digest<T>`` instance, named ``<pipe>.<Deparser>.<instance>``, id prefix
  0x8E (hash of that name, as for tables), its fields T's fields in order with ids from
  1, ``bytes`` of the field's width, no annotations.
- bf_switchd's ``learn_callback`` (``bf_rt_server_impl.cpp``): a ``DigestList`` with
  ``digest_id`` = the learn id, ``list_id`` 0, the target of the pipe that learnt, and
  one ``TableData`` per learnt entry whose fields are every learn field, as a byte
  stream of ``ceil(width / 8)`` bytes. It goes to the client bound to the program whose
  subscription enabled learn notifications; the server acknowledges at once, so a
  client's ``DigestListAck`` changes nothing.

The softswitch's decision: every packet's digests leave as one ``DigestList`` per
learn filter as soon as the packet is through the pipe (bf_switchd batches entries up to
a learn filter's timeout; a client cannot rely on batch boundaries either way).
"""

from __future__ import annotations

from dataclasses import dataclass

from bfruntime import bfruntime_pb2 as pb
from bfruntime.info import encode_int

PREFIX_LEARN = 0x8E


@dataclass(frozen=True)
class LearnFilter:
    """One learn object: the p4sim digest it carries and its BfRt ids."""
    digest: str                            # p4sim's name, ``<Deparser>.<instance>``
    name: str                              # BfRt's, ``<pipe>.<Deparser>.<instance>``
    id: int
    fields: tuple[tuple[int, str, int], ...]   # (field id, name, width)

    def json(self) -> dict:
        return {"name": self.name, "id": self.id, "annotations": [],
                "fields": [{"id": fid, "name": n, "repeated": False, "annotations": [],
                            "type": {"type": "bytes", "width": w}}
                           for fid, n, w in self.fields]}

    def data(self, values: dict[str, int], out: pb.TableData) -> None:
        """One learnt entry into ``out``: every field, big-endian, whole bytes."""
        for fid, n, w in self.fields:
            df = out.fields.add()
            df.field_id = fid
            df.stream = encode_int(values[n] & ((1 << w) - 1), w)


def from_schema(doc: dict) -> dict[str, LearnFilter]:
    """The learn objects a bfrt.json lists, by p4sim digest name (what a device reads
    back from the schema it serves, so the two cannot differ)."""
    out = {}
    for lf in doc.get("learn_filters", ()):
        digest = lf["name"].split(".", 1)[1]
        out[digest] = LearnFilter(digest, lf["name"], lf["id"],
                                  tuple((f["id"], f["name"], f["type"]["width"])
                                        for f in lf["fields"]))
    return out


def learn_filters(program, pipe: str, ids) -> list[LearnFilter]:
    """The learn objects of ``program``'s ``Digest`` instances; ``ids`` is the schema's
    id table (``bfrt_schema._Ids``)."""
    out = []
    for _pyname, kind, spec in program.objects:
        if kind != "digest":
            continue
        digest, names, widths = spec
        name = f"{pipe}.{digest}"
        out.append(LearnFilter(digest, name, ids.get(PREFIX_LEARN, name),
                               tuple((i, n, w) for i, (n, w) in
                                     enumerate(zip(names, widths), start=1))))
    return out


def deliver(switch, learns: dict[str, LearnFilter], listeners: list) -> None:
    """The digests of the packet just through ``switch``, per learn filter, to each of
    ``listeners`` (callables ``(LearnFilter, [entries])``): one call per filter."""
    by_filter: dict[str, list] = {}
    for name, values in switch.digests():
        by_filter.setdefault(name, []).append(values)
    for name, entries in by_filter.items():
        for listener in list(listeners):
            listener(learns[name], entries)


def digest_message(lf: LearnFilter, entries: list[dict[str, int]],
                   device_id: int) -> pb.StreamMessageResponse:
    """The stream message bf_switchd's learn callback sends for ``entries``."""
    msg = pb.StreamMessageResponse()
    d = msg.digest
    d.digest_id = lf.id
    d.list_id = 0
    d.target.device_id = device_id
    d.target.pipe_id = 0
    for values in entries:
        lf.data(values, d.data.add())
    return msg
