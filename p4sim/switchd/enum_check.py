"""Enum values a request carries that its ``bfruntime.proto`` does not define.

proto3 enums are open: a client built from another revision of the proto, or a fuzzer,
can send ``Update.type = 99`` and the message still parses. Handlers that name such a
value (``Update.Type.Name(99)``) raise ``ValueError``, which the server would report as
INTERNAL. bf_switchd answers an undefined value with INVALID_ARGUMENT ("Invalid update
type"), per entity in a Write or Read and for the whole request otherwise; so the server
checks every enum field once, before any handler reads it, here.
"""

from __future__ import annotations

from typing import Iterable

import grpc
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from .errors import DeviceError


def undefined_enum_values(msg: Message, skip: Iterable[str] = (),
                          path: str = "") -> list[str]:
    """``field.path = value (enum EnumName)`` for every enum value in ``msg`` (recursively)
    that its enum does not define; top-level fields named in ``skip`` are not looked at."""
    found: list[str] = []
    skipped = set(skip)
    for field, value in msg.ListFields():
        if field.name in skipped:
            continue
        where = f"{path}{field.name}"
        repeated = field.is_repeated
        if field.type == FieldDescriptor.TYPE_ENUM:
            for i, v in enumerate(value if repeated else [value]):
                if v not in field.enum_type.values_by_number:
                    known = ", ".join(field.enum_type.values_by_name)
                    found.append(f"{where}{f'[{i}]' if repeated else ''} = {v} is not a "
                                 f"value of {field.enum_type.full_name} ({known})")
        elif field.type == FieldDescriptor.TYPE_MESSAGE:
            if field.message_type.GetOptions().map_entry:
                items = value.values() if field.message_type.fields_by_name["value"] \
                    .type == FieldDescriptor.TYPE_MESSAGE else ()
                for item in items:
                    found += undefined_enum_values(item, path=f"{where}[].")
            elif repeated:
                for i, item in enumerate(value):
                    found += undefined_enum_values(item, path=f"{where}[{i}].")
            else:
                found += undefined_enum_values(value, path=f"{where}.")
    return found


def check_enums(msg: Message, what: str, skip: Iterable[str] = ()) -> None:
    """Raise INVALID_ARGUMENT naming every undefined enum value of ``msg``."""
    bad = undefined_enum_values(msg, skip)
    if bad:
        raise DeviceError(grpc.StatusCode.INVALID_ARGUMENT,
                          f"{what}: {'; '.join(bad)}; check that client and server use the "
                          f"same bfruntime.proto")
