"""DirectLpf / DirectWred (a cell per table entry, p4sim/filters.py) and headers with
some @flexible fields (p4sim/compiler/flexible.py)."""
import pytest

import p4sim
from p4sim import filters

from p4sim_helpers import compiled

DST = 0x1


def frame(sample: int, dst: int = DST) -> bytes:
    return dst.to_bytes(6, "big") + bytes(6) + b"\x08\x00" + bytes((sample, 0, 0, 0))


@pytest.fixture
def sw():
    sw = p4sim.Switch(compiled("direct_filters.p4"))
    sw.table_add("smooth", {"hdr.eth.dst": DST}, "filter_lpf", {"port": 2})
    sw.table_add("early_drop", {"hdr.eth.dst": DST}, "filter_wred", {"port": 2})
    return sw


def probe(sw, sample, ts):
    (port, out), = sw.inject(1, frame(sample), timestamp_ns=ts)
    return out[14:18]


def test_an_unconfigured_entry_passes_the_value_and_never_drops(sw):
    lpf_out, wred_out = probe(sw, 90, 0)[1:3]
    assert (lpf_out, wred_out) == (90, 0)        # no_drop_value 0


def test_a_configured_lpf_entry_filters_with_its_own_cell(sw):
    sw.direct_filter_set("smooth", {"hdr.eth.dst": DST}, "SAMPLE", 1000.0, 1000.0, 0)
    assert sw.direct_filter_get("smooth", {"hdr.eth.dst": DST}) == ("SAMPLE", 1000.0, 1000.0, 0)
    expected = filters.LpfCell("SAMPLE", 1000.0, 1000.0, 0)
    for ts, sample in ((0, 100), (500, 0), (1500, 200)):
        want = filters.lpf_output(expected, sample, ts, 8)
        assert probe(sw, sample, ts)[1] == want
    assert probe(sw, 0, 2000)[1] < 200, "the sample average moved toward 0"


def test_a_configured_wred_entry_drops_above_its_max_threshold(sw):
    sw.direct_filter_set("early_drop", {"hdr.eth.dst": DST}, 1000.0, 10, 20, 1.0)
    assert probe(sw, 5, 0)[2] == 0          # below min: no drop
    assert probe(sw, 250, 100_000)[2] == 1  # the average far above max: drop_value


def test_a_new_entry_starts_with_a_fresh_cell(sw):
    sw.direct_filter_set("smooth", {"hdr.eth.dst": DST}, "RATE", 100.0, 100.0, 0)
    sw.table_delete("smooth", {"hdr.eth.dst": DST})
    sw.table_add("smooth", {"hdr.eth.dst": DST}, "filter_lpf", {"port": 2})
    assert probe(sw, 77, 0)[1] == 77


def test_direct_filters_refuse_a_table_without_one(sw):
    with pytest.raises(p4sim.ControlPlaneError, match="no DirectLpf or DirectWred"):
        p4sim.Switch(compiled("pipes.p4")).direct_filter_set("forward", {"hdr.eth.dst": 1},
                                                              "RATE", 1.0, 1.0, 0)


def test_a_header_with_some_flexible_fields_keeps_its_others_first(sw):
    """tna_mirror's bridged header: 8 bits, then two @flexible fields (19 bits as
    declared): the fixed field first, the flexible ones as a @flexible header's."""
    layout = [(name, t.width) for name, t in sw.program.types["bridge_h"].fields]
    assert layout == [("kind", 8), ("__pad_0", 6), ("session", 10), ("__pad_1", 7),
                      ("flag", 1)]
    assert probe(sw, 1, 0)[3] == (7 + 1 + 0xA5) & 0xFF, "the bridged fields crossed intact"
