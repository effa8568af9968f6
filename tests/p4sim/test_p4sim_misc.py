"""misc.p4: header copy, header stacks, out parameters, switch fall-through, bridged
metadata, mcast_grp_b; and table size enforcement."""
import pytest

import p4sim

DST = (0xAABBCCDDEEFF).to_bytes(6, "big")


def frame(op, i=0, a=0, b=0):
    return DST + bytes(6) + b"\x12\x34" + bytes([op, i, a, b, 0x10, 0x20]) + b"PAY"


def expect(ctl_and_items, extra=b""):
    # egress rewrites src to 0 ++ bridge.tag (0x5A) ++ ingress port (3); bridge not emitted
    return DST + bytes([0, 0, 0, 0x5A, 0, 3]) + b"\x12\x34" + ctl_and_items + extra + b"PAY"


@pytest.fixture
def sw(switch_for):
    return switch_for("misc.p4")


@pytest.mark.parametrize("op", [1, 2])
def test_header_copy_and_fallthrough(sw, op):
    copy = DST + bytes(6) + b"\xbe\xef"
    assert sw.inject(3, frame(op, 0, 47, 5)) == [(1, expect(bytes([op, 0, 47, 5, 0x10, 0x20]), copy))]


def test_stack_push_pop_and_dynamic_index(sw):
    assert sw.inject(3, frame(3, 0, 47, 5)) == [(1, expect(bytes([3, 0, 47, 5, 0x77, 0x10, 0x20])))]
    assert sw.inject(3, frame(4, 0, 47, 5)) == [(1, expect(bytes([4, 0, 47, 5, 0x20])))]
    assert sw.inject(3, frame(5, 1)) == [(1, expect(bytes([5, 1, 0, 0, 0x10, 0x99])))]
    with pytest.raises(p4sim.P4RuntimeError, match="out of bounds"):
        sw.inject(3, frame(5, 3))


def test_function_out_parameters_and_default(sw):
    assert sw.inject(3, frame(6, 0, 47, 5)) == [(1, expect(bytes([6, 0, 9, 2, 0x10, 0x20])))]
    assert sw.inject(3, frame(8, 0, 47, 5)) == [(1, expect(bytes([8, 0, 0xEE, 5, 0x10, 0x20])))]


def test_mcast_grp_b_with_unicast(sw):
    sw.multicast_group_set(9, [(4, [6])])
    out = sw.inject(3, frame(7))
    assert [p for p, _ in out] == [1, 6]
    assert out[0][1] == out[1][1] == expect(bytes([7, 0, 0, 0, 0x10, 0x20]))


def test_table_size_is_enforced(switch_for):
    sw = switch_for("l2_forward.p4")
    for i in range(64):
        sw.table_add("Ingress.forward", {"hdr.ethernet.dst_addr": i}, "drop")
    with pytest.raises(p4sim.ControlPlaneError, match="full"):
        sw.table_add("Ingress.forward", {"hdr.ethernet.dst_addr": 99}, "drop")


def test_parser_loop_without_progress_times_out():
    src = open(__file__.replace("test_p4sim_misc.py", "programs/l2_forward.p4")).read()
    src = src.replace("transition accept;", "transition spin;\n    }\n    state spin {\n"
                      "        transition select(hdr.ethernet.ether_type) { 0: accept; default: spin; }")
    sw = p4sim.Switch(p4sim.compile_source(src, __file__.replace("test_p4sim_misc.py", "programs/spin.p4")))
    assert sw.inject(0, bytes(12) + b"\x08\x00") == []
    assert sw.drops == [("ingress_parser", "ParserTimeout")]


def test_sub_parser_and_sub_deparser(switch_for):
    sw = switch_for("subparser.p4")
    # not resubmitted: flag 0 written by the sub-parser's out parameter
    assert sw.inject(1, bytes(12) + b"\x08\x00") == [(2, bytes(11) + b"\x00\x08\x00")]
    # ether_type 1 asks for a resubmit; the second pass sees resubmit_flag = 1
    assert sw.inject(1, bytes(12) + b"\x00\x01") == [(2, bytes(11) + b"\x01\x00\x01")]


def test_lookahead_of_a_header():
    src = open(__file__.replace("test_p4sim_misc.py", "programs/l2_forward.p4")).read()
    src = src.replace("transition parse_ethernet;", """transition select(pkt.lookahead<ethernet_h>().ether_type) {
            0x0800: parse_ethernet;
            default: reject;
        }""")
    sw = p4sim.Switch(p4sim.compile_source(src, __file__.replace("test_p4sim_misc.py", "programs/lookahead.p4")))
    sw.table_set_default("Ingress.forward", "set_port", {"port": 4})
    f = bytes(12) + b"\x08\x00" + b"data"
    assert sw.inject(0, f) == [(4, f)]          # lookahead did not consume the header
    assert sw.inject(0, bytes(12) + b"\x86\xdd") == []
    assert sw.inject(0, bytes(10)) == []
    assert sw.drops == [("ingress_parser", "PacketTooShort")]


def test_name_annotations_add_control_plane_aliases():
    src = open(__file__.replace("test_p4sim_misc.py", "programs/l2_forward.p4")).read()
    src = src.replace("    table forward {", '    @name(".global_fwd") table forward {')
    sw = p4sim.Switch(p4sim.compile_source(src, __file__.replace("test_p4sim_misc.py", "programs/alias.p4")))
    sw.table_add("global_fwd", {"hdr.ethernet.dst_addr": 1}, "set_port", {"port": 2})
    assert sw.inject(0, bytes(5) + b"\x01" + bytes(8)) == [(2, bytes(5) + b"\x01" + bytes(8))]
    assert sw.table_entries("Ingress.forward") == sw.table_entries("global_fwd")


def test_timestamps_reach_ingress_metadata():
    src = open(__file__.replace("test_p4sim_misc.py", "programs/l2_forward.p4")).read()
    src = src.replace("            forward.apply();", """            forward.apply();
            hdr.ethernet.src_addr = ig_intr_md.ingress_mac_tstamp;
            hdr.ethernet.dst_addr = ig_prsr_md.global_tstamp + 1;""")
    sw = p4sim.Switch(p4sim.compile_source(src, __file__.replace("test_p4sim_misc.py", "programs/ts.p4")))
    sw.table_set_default("Ingress.forward", "set_port", {"port": 4})
    ts = (1 << 48) + 123456789      # wraps to 48 bits
    out = sw.inject(0, bytes(12) + b"\x08\x00", timestamp_ns=ts)
    assert out == [(4, (123456790).to_bytes(6, "big") + (123456789).to_bytes(6, "big") + b"\x08\x00")]


def test_digest_pack_reaches_the_control_plane():
    src = open(__file__.replace("test_p4sim_misc.py", "programs/l2_forward.p4")).read()
    src = src.replace("struct meta_t { bit<8> unused; }",
                      "struct meta_t { bit<8> unused; }\nstruct learn_t { bit<48> mac; PortId_t port; }")
    src = src.replace("    apply { pkt.emit(hdr); }", """    Digest<learn_t>() learn;
    apply {
        if (ig_dprsr_md.digest_type == 1) {
            learn.pack({hdr.ethernet.src_addr, ig_intr_md.ingress_port});
        }
        pkt.emit(hdr);
    }""")
    src = src.replace("in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {",
                      "in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,\n"
                      "                   in ingress_intrinsic_metadata_t ig_intr_md) {")
    src = src.replace("        ig_dprsr_md.drop_ctl = 1;", "        ig_dprsr_md.drop_ctl = 1;\n"
                      "        ig_dprsr_md.digest_type = 1;")
    sw = p4sim.Switch(p4sim.compile_source(src, __file__.replace("test_p4sim_misc.py", "programs/dg.p4")))
    assert sw.inject(7, bytes(6) + (0x0A0B0C0D0E0F).to_bytes(6, "big") + b"\x08\x00") == []
    assert sw.digests() == [("IgDeparser.learn", {"mac": 0x0A0B0C0D0E0F, "port": 7})]
    assert sw.digests() == []
