"""mirror.p4: ingress-to-egress and egress-to-egress mirroring through mirror sessions."""
import pytest

import p4sim

ETH = bytes(12) + b"\x08\x00"


@pytest.fixture
def sw(switch_for):
    s = switch_for("mirror.p4")
    s.mirror_session_set(5, 9)
    s.mirror_session_set(7, 10)
    return s


def test_ingress_mirror_with_header(sw):
    # original to port 1 (mark 0x11); the copy carries the mirror header into egress on
    # port 9, whose parser recognises it (mark 0x22); the mirror header is not emitted
    assert sw.inject(0, ETH + bytes([1, 0])) == [(1, ETH + bytes([1, 0x11])),
                                                (9, ETH + bytes([1, 0x22]))]


def test_mirror_of_a_dropped_packet_and_drop_ctl_bit_2(sw):
    assert sw.inject(0, ETH + bytes([2, 0])) == [(9, ETH + bytes([2, 0x22]))]
    assert sw.inject(0, ETH + bytes([3, 0])) == []


def test_egress_to_egress_mirror(sw):
    # session 7 has no mirror header: the copy is the egress output, sent to port 10
    assert sw.inject(0, ETH + bytes([4, 0])) == [(1, ETH + bytes([4, 0x11])),
                                                (10, ETH + bytes([4, 0x11]))]


def test_unknown_session_is_reported(sw):
    sw.mirror_session_delete(5)
    assert sw.inject(0, ETH + bytes([1, 0])) == [(1, ETH + bytes([1, 0x11]))]
    assert ("mirror", "no mirror session 5") in sw.drops
    with pytest.raises(p4sim.ControlPlaneError, match="bit<10>"):
        sw.mirror_session_set(1024, 1)
