"""tna_tables.p4: DirectRegister/DirectRegisterAction, Alpm and Atcam tables."""
import struct

import pytest

import p4sim

CMD = struct.Struct(">BIIBBBB")
GREEN, YELLOW, RED = 0, 1, 3


def run(sw, ether_type, part=0, addr=0, src=0, ts=0):
    f = bytes(6) + src.to_bytes(6, "big") + struct.pack(">H", ether_type) + CMD.pack(part, addr, 0, 0, 0, 0, 0)
    (port, out), = sw.inject(0, f, timestamp_ns=ts)
    return CMD.unpack(out[14:])


@pytest.fixture
def sw(switch_for):
    return switch_for("tna_tables.p4")


def test_direct_register_cell_per_entry(sw):
    """DirectRegister (tofino1_base.p4): one cell per entry of the table whose
    `registers` property names it, starting at the initial value; a DirectRegisterAction
    in the entry's action updates that cell."""
    sw.table_add("per_ether_type", {"hdr.ethernet.ether_type": 0x88B5}, "count")
    sw.table_add("per_ether_type", {"hdr.ethernet.ether_type": 0x88B6}, "count")
    assert [run(sw, 0x88B5)[2] for _ in range(3)] == [101, 102, 103]
    assert run(sw, 0x88B6)[2] == 101
    assert sw.direct_register_read("per_ether_type", {"hdr.ethernet.ether_type": 0x88B5}) == 103
    sw.direct_register_write("per_ether_type", {"hdr.ethernet.ether_type": 0x88B5}, 7)
    sw.table_modify("per_ether_type", {"hdr.ethernet.ether_type": 0x88B5}, "count")
    assert run(sw, 0x88B5)[2] == 8                      # modify keeps the cell
    # a miss runs the default action on a scratch cell: nothing is kept
    assert [run(sw, 0x0800)[2] for _ in range(2)] == [101, 101]
    with pytest.raises(p4sim.ControlPlaneError, match="bit<32>"):
        sw.direct_register_write("per_ether_type", {"hdr.ethernet.ether_type": 0x88B5}, -1)
    with pytest.raises(p4sim.ControlPlaneError, match="no direct register"):
        sw.direct_register_read("routes", {"hdr.cmd.addr": (0, 0)})


def test_alpm_and_atcam_tables_match_like_lpm_and_ternary(sw):
    """Alpm/Atcam change how Tofino stores the table, not what it matches; the
    atcam_partition_index key matches exactly (p4sim ignores the partitioning)."""
    sw.table_add("routes", {"hdr.cmd.addr": (0x0A000000, 8)}, "route", {"r": 1})
    sw.table_add("routes", {"hdr.cmd.addr": (0x0A010000, 16)}, "route", {"r": 2})
    assert run(sw, 1, addr=0x0A010203)[3] == 2
    assert run(sw, 1, addr=0x0A020203)[3] == 1
    assert run(sw, 1, addr=0x0B000000)[3] == 0
    sw.table_add("tagged", {"hdr.cmd.part": 3, "hdr.cmd.addr": (0x0A000000, 0xFF000000)}, "tag",
                 {"t": 9}, priority=1)
    assert run(sw, 1, part=3, addr=0x0A000001)[4] == 9
    assert run(sw, 1, part=4, addr=0x0A000001)[4] == 0


FRAME = 14 + CMD.size + 4      # bytes a meter sees (FCS included)


def test_meter_colour_model(sw):
    """p4sim's deterministic colour model (README): RFC 2698 two-rate three-colour marker
    on the injection timestamps, buckets full at the first packet; BYTES meters in kbit/s
    and kbit. An unconfigured cell marks GREEN (MeterColor_t: 0 green, 1 yellow, 3 red)."""
    assert run(sw, 1, part=2)[5] == GREEN
    # CBS 1 kbit = 125 bytes, PBS 2 kbit = 250 bytes: frames of FRAME bytes
    sw.meter_set("per_part", 2, cir=8, cbs=1, pir=16, pbs=2)
    n_green = 125 // FRAME
    n_yellow = 250 // FRAME - n_green
    colours = [run(sw, 1, part=2, ts=0)[5] for _ in range(n_green + n_yellow + 1)]
    assert colours == [GREEN] * n_green + [YELLOW] * n_yellow + [RED]
    # 1 s later at 8 kbit/s CIR and 16 kbit/s PIR both buckets are full again
    assert run(sw, 1, part=2, ts=10**9)[5] == GREEN
    assert run(sw, 1, part=3)[5] == GREEN            # other cells are independent
    sw.meter_reset("per_part")
    assert [run(sw, 1, part=2)[5] for _ in range(5)] == [GREEN] * 5
    with pytest.raises(p4sim.ControlPlaneError, match="out of range"):
        sw.meter_set("per_part", 16, 1, 1, 1, 1)


def test_direct_meter_per_entry_in_packets(sw):
    sw.table_add("policed", {"hdr.ethernet.src_addr": 5}, "police")
    assert run(sw, 1, src=5)[6] == GREEN                 # not configured
    sw.direct_meter_set("policed", {"hdr.ethernet.src_addr": 5}, cir=1, cbs=1, pir=1, pbs=2)
    assert [run(sw, 1, src=5, ts=0)[6] for _ in range(3)] == [GREEN, YELLOW, RED]
    assert run(sw, 1, src=5, ts=2 * 10**9)[6] == GREEN   # 1 packet/s refills both
