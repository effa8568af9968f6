"""@flexible headers: p4sim's wire layout is the one bf-p4c chose for the same program
(its logs/flexible_packing.log, kept as a golden beside the program and checked against
the live compiler by tests/sde_ptf/test_ptf_runs.py), and bridged fields survive the
trip from the ingress deparser to the egress parser."""
import re
import struct
from pathlib import Path

import p4sim

PTF = Path(__file__).resolve().parents[1] / "sde_ptf" / "ptf" / "flexible"
ROW = re.compile(r"^\|\s*(\d+)(?: -- (\d+))?\s*\|\s*\[(\d+) : (\d+)\]\s*\|\s*(\S+)\s*\|$")


def bf_p4c_layout(log_text, header):
    """[(field or '*PAD*', bits)] in wire order for ``header`` (e.g. 'hdr.bridged'),
    adjacent rows of one field merged, from bf-p4c's flexible_packing.log."""
    out, mine = [], False
    for line in log_text.splitlines():
        if line.startswith("Repacked header "):
            mine = line.rstrip(":").split()[-1] == header
            continue
        m = ROW.match(line.strip())
        if not (mine and m):
            continue
        name = m[5].rsplit(".", 1)[-1]
        nbytes = int(m[2] or m[1]) - int(m[1]) + 1      # "1 -- 3": bytes 1 to 3
        bits = (int(m[4]) - int(m[3]) + 1) * nbytes
        if out and out[-1][0] == name and name != "*PAD*":
            out[-1] = (name, out[-1][1] + bits)
        else:
            out.append((name, bits))
    return out


def test_layout_is_bf_p4cs():
    program = p4sim.compile_file(str(PTF / "flexible.p4"))
    ours = [("*PAD*" if n.startswith("__pad_") else n, ft.width)
            for n, ft in program.types["bridged_md_h"].fields]
    golden = bf_p4c_layout((PTF / "bf-p4c-flexible_packing.log").read_text(), "hdr.bridged")
    assert len(golden) == 10
    assert ours == golden


def test_bridged_fields_reach_egress():
    sw = p4sim.Switch(p4sim.compile_file(str(PTF / "flexible.p4")))
    sw.table_add("forward", {"hdr.ethernet.ether_type": 0x88B5}, "bridge", {"port": 3})
    eth = bytes.fromhex("a1b2c300005e" "01ffffabcd07" "88b5")
    (port, out), = sw.inject(5, eth + bytes(50))
    assert port == 3
    assert out[14:25] == struct.pack(">HIBBBH", 5, 0xA1B2C3, 7, 0x5E, 1, 0xFAB)
