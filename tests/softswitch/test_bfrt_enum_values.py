"""Undefined enum values get INVALID_ARGUMENT, never INTERNAL (as bf_switchd answers them).

Every enum field reachable from a Write's ``Update``, a Read's ``Entity`` and the
requests' own fields is set, one at a time, to a value its enum does not define, on
top of a request that is otherwise valid; the server must name the field and keep
serving. Found by fuzzing: ``Update.type = 99`` was answered with
``INTERNAL: ... ValueError: Enum Type has no name defined for value 99``.
"""
from __future__ import annotations

import grpc
import pytest
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from hypothesis import given, settings, strategies as st

from bfruntime import bfruntime_pb2 as pb
from bfruntime.client import BfRuntimeClient, BfRuntimeError
from bfruntime.service import BfRuntimeStub
from softswitch_helpers import serving


def _enum_paths(desc: Descriptor, seen: tuple = ()) -> list[tuple[str, ...]]:
    """Field-name paths from ``desc`` to every enum field below it (each message type
    entered once per path, so recursive messages end)."""
    paths = []
    for f in desc.fields:
        if f.type == FieldDescriptor.TYPE_ENUM:
            paths.append((f.name,))
        elif f.type == FieldDescriptor.TYPE_MESSAGE and not f.message_type.GetOptions() \
                .map_entry and f.message_type.full_name not in seen:
            paths += [(f.name, *p) for p in
                      _enum_paths(f.message_type, seen + (desc.full_name,))]
    return paths


UPDATE_PATHS = _enum_paths(pb.Update.DESCRIPTOR)
ENTITY_PATHS = _enum_paths(pb.Entity.DESCRIPTOR)


def _set(msg, path: tuple[str, ...], value: int) -> None:
    """Set the enum at ``path`` below ``msg`` (repeated fields get one element)."""
    *parents, leaf = path
    for name in parents:
        field = msg.DESCRIPTOR.fields_by_name[name]
        msg = getattr(msg, name).add() if field.is_repeated \
            else getattr(msg, name)
    if msg.DESCRIPTOR.fields_by_name[leaf].is_repeated:
        getattr(msg, leaf).append(value)
    else:
        setattr(msg, leaf, value)


def _undefined(path_owner, path: tuple[str, ...]) -> st.SearchStrategy[int]:
    desc = path_owner.DESCRIPTOR
    for name in path[:-1]:
        desc = desc.fields_by_name[name].message_type
    defined = set(desc.fields_by_name[path[-1]].enum_type.values_by_number)
    return st.integers(-2**31, 2**31 - 1).filter(lambda v: v not in defined)


@pytest.fixture(scope="module")
def l2():
    with serving("l2_forward") as (addr, dev, srv):
        yield addr


def test_every_enum_field_is_reached():
    """The walk finds the fields a fuzzer hits first (so the tests below are not empty)."""
    assert ("type",) in UPDATE_PATHS
    assert ("entity", "table_attribute", "idle_table", "idle_table_mode") in UPDATE_PATHS
    assert ("table_attribute", "entry_scope", "pipe_scope", "predef") in ENTITY_PATHS
    assert {p[1:] for p in UPDATE_PATHS if p[0] == "entity"} == set(ENTITY_PATHS)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(data=st.data())
def test_an_undefined_enum_in_an_update_is_invalid_argument(l2, data):
    path = data.draw(st.sampled_from(UPDATE_PATHS), label="path")
    value = data.draw(_undefined(pb.Update, path), label="value")
    with BfRuntimeClient(l2, p4_name="l2_forward", timeout=5) as c:
        good = c._update(pb.Update.INSERT, c.table("forward"),
                         {"hdr.ethernet.dst_addr": 0x02AA}, None, "set_port", {"port": 1})
        bad = pb.Update()
        bad.CopyFrom(good)
        _set(bad, path, value)
        with pytest.raises(BfRuntimeError) as ei:
            c.write([bad])
        [(index, code, message)] = ei.value.errors
        assert (index, code) == (0, "INVALID_ARGUMENT"), message
        assert f"{'.'.join(path)}" in message.replace("[0]", "").replace("[].", ".")
        assert str(value) in message


@settings(max_examples=60, deadline=None, derandomize=True)
@given(data=st.data())
def test_an_undefined_enum_in_a_read_entity_is_invalid_argument(l2, data):
    path = data.draw(st.sampled_from(ENTITY_PATHS), label="path")
    value = data.draw(_undefined(pb.Entity, path), label="value")
    with BfRuntimeClient(l2, p4_name="l2_forward", timeout=5) as c:
        ent = pb.Entity()
        ent.table_entry.table_id = c.table("forward").id
        _set(ent, path, value)
        with pytest.raises(BfRuntimeError) as ei:
            c.read([ent])
        assert ei.value.errors and all(code == "INVALID_ARGUMENT"
                                       for _, code, _ in ei.value.errors), ei.value


@pytest.mark.parametrize("request_cls, method, field", [
    (pb.WriteRequest, "Write", "atomicity"),
    (pb.SetForwardingPipelineConfigRequest, "SetForwardingPipelineConfig", "action"),
    (pb.SetForwardingPipelineConfigRequest, "SetForwardingPipelineConfig", "dev_init_mode"),
])
def test_an_undefined_enum_of_a_request_refuses_it_whole(l2, request_cls, method, field):
    if field not in request_cls.DESCRIPTOR.fields_by_name:
        pytest.skip(f"{request_cls.DESCRIPTOR.full_name} has no field {field} in our proto")
    request = request_cls()
    request.client_id = 99
    setattr(request, field, 99)
    with grpc.insecure_channel(l2) as ch:
        call = getattr(BfRuntimeStub(ch), method)
        with pytest.raises(grpc.RpcError) as ei:
            result = call(request, timeout=5)
            if method == "Read":
                list(result)
    assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT, ei.value.details()
    assert f"{field} = 99 is not a value of" in ei.value.details()
    # the server is still serving
    with BfRuntimeClient(l2, p4_name="l2_forward", timeout=5) as c:
        assert c.entry_get("forward") is not None
