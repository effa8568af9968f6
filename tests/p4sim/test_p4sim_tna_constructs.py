"""tna_constructs.p4: parser value_set, min/max, list expressions in Mirror/Resubmit.emit."""
import pytest

import p4sim


def frame(ether_type, a=0, b=0):
    return bytes(12) + ether_type.to_bytes(2, "big") + bytes([a, b, 0, 0])


@pytest.fixture
def sw(switch_for):
    return switch_for("tna_constructs.p4")


def test_value_set_is_filled_by_the_control_plane(sw):
    """value_set<T>(size) (P4-16 spec 12.11): select matches when any (value, mask)
    member matches; empty until the control plane adds members."""
    assert sw.inject(0, frame(0x9000, 3, 9)) == [(1, frame(0x9000, 3, 9))]   # not parsed
    sw.value_set_add("IgParser.tagged_types", 0x9000)
    sw.value_set_add("tagged_types", 0x8800, 0xFF00)
    (_, out), = sw.inject(0, frame(0x9000, 3, 9))
    assert out[14:] == bytes([3, 9, 9, 3])          # max, min
    (_, out), = sw.inject(0, frame(0x88AB, 7, 2))
    assert out[14:] == bytes([7, 2, 7, 2])
    assert sw.value_set_entries("tagged_types") == [(0x9000, 0xFFFF), (0x8800, 0xFF00)]
    sw.value_set_delete("tagged_types", 0x9000)
    assert sw.inject(0, frame(0x9000, 3, 9))[0][1][14:] == bytes([3, 9, 0, 0])
    with pytest.raises(p4sim.ControlPlaneError, match="bit<16>"):
        sw.value_set_add("tagged_types", 0x10000)
    for v in (1, 2, 3):
        sw.value_set_add("tagged_types", v)
    with pytest.raises(p4sim.ControlPlaneError, match="full"):
        sw.value_set_add("tagged_types", 4)


def test_mirror_and_resubmit_with_list_expressions(sw):
    """Mirror.emit<T>(session, {...}) and Resubmit.emit<T>({...}): the list is laid out
    as header T (bf-p4c extract_deparser accepts a StructExpression field list)."""
    sw.value_set_add("tagged_types", 0x9000)
    sw.mirror_session_set(5, 9)
    f = frame(0x9000, 0xEE, 1)
    out = dict(sw.inject(0, f))
    assert out[9] == bytes([0xBB, 5]) + f
    (_, out), = sw.inject(0, frame(0x9000, 0xDD, 4))
    assert out[14:] == bytes([0xDD, 0xDD, 0xDD, 4])  # resubmitted pass: b := the mark (max)
