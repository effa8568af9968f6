"""Our bfruntime.proto against the SDE's: the same compiled descriptor."""
from __future__ import annotations

from google.protobuf import descriptor_pb2

from bfruntime import bfruntime_pb2 as ours


def _fields(fd: descriptor_pb2.FileDescriptorProto) -> dict:
    out = {}

    def walk(prefix, msgs):
        for m in msgs:
            for f in m.field:
                out[f"{prefix}{m.name}.{f.name}"] = (f.number, f.type, f.type_name, f.label)
            walk(f"{prefix}{m.name}.", m.nested_type)
    walk("", fd.message_type)
    return out


def test_our_descriptor_is_the_sdes_so_both_stubs_share_one_process(sde_client):
    import bfrt_grpc.bfruntime_pb2 as sde
    a, b = descriptor_pb2.FileDescriptorProto(), descriptor_pb2.FileDescriptorProto()
    ours.DESCRIPTOR.CopyToProto(a)
    sde.DESCRIPTOR.CopyToProto(b)
    fa, fb = _fields(a), _fields(b)
    assert sorted(set(fb) - set(fa)) == [], "fields of the SDE's proto we lack"
    assert sorted(set(fa) - set(fb)) == [], "fields we declare that the SDE does not"
    assert {k: v for k, v in fa.items() if fb[k] != v} == {}
    assert a.SerializeToString() == b.SerializeToString()
    # one class per message: an Entity built by the SDE client is ours
    assert sde.Entity is ours.Entity
    e = ours.Entity()
    e.table_attribute.entry_scope.pipe_scope.predef = ours.Mode.ALL
    e.table_entry.table_mod_inc_flag.type = ours.TableModIncFlag.MOD_INC_DELETE
    assert sde.Entity.FromString(e.SerializeToString()).table_entry.table_mod_inc_flag.type == 1
