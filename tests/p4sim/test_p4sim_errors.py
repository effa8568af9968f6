"""Every error is a P4SimError; front-end errors are located (file:line:col) and name the
construct; control-plane errors name the table/field/width."""
import os
import re

import pytest

import p4sim

from p4sim_helpers import PROGRAMS

BASE = open(os.path.join(PROGRAMS, "l2_forward.p4")).read()
ANCHOR = "    action set_port"
ANCHOR_LINE = BASE[:BASE.index(ANCHOR)].count("\n") + 1
LOC_RE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): ")


def compile_with(snippet, where=ANCHOR):
    src = BASE.replace(where, snippet + where, 1)
    return p4sim.compile_source(src, os.path.join(PROGRAMS, "snippet.p4"))


@pytest.mark.parametrize("snippet,exc,words", [
    ("    Hash<bit<16>>(HashAlgorithm_t.CRC16) h0; Register<bit<1>, bit<8>>(4) r0; "
     "ActionSelector(16, h0, SelectorMode_t.FAIR, r0) s0;\n",
     p4sim.UnsupportedError, "stateful ActionSelector"),
    ("    DirectWred<bit<16>>() dw;\n", p4sim.P4SemanticError, "takes 2 constructor"),
    ("    MathUnit<bit<16>>(MathOp_t.SQR, 1) mu;\n", p4sim.UnsupportedError, "'MathUnit'"),
    ("    RegisterParam<bit<32>>(5) rp; action a() { hdr.ethernet.dst_addr = (bit<48>)rp.read(); }\n",
     p4sim.P4SemanticError, "read() outside a RegisterAction"),
    ("    Hash<bit<16>>(HashAlgorithm_t.CRC16) h; ActionProfile(4) ap2; Register<bit<1>, bit<8>>(4) r; "
     "ActionSelector(ap2, h, SelectorMode_t.FAIR, r, 4, 4) sel;\n",
     p4sim.UnsupportedError, "stateful ActionSelector"),
    ("    value_set<bit<8>>(4) vs;\n", p4sim.UnsupportedError, "'value_set'"),
    ("    action a() { hdr.ethernet.dst_addr = hdr.ethernet.ether_type; }\n",
     p4sim.P4SemanticError, "bit<48>"),
    ("    action a() { nosuch = 1; }\n", p4sim.P4SemanticError, "undeclared name 'nosuch'"),
    ("    action a() { hdr.ethernet.nofield = 1; }\n", p4sim.P4SemanticError, "no field 'nofield'"),
    ("    action a() { bit<8> x = hdr.ethernet.ether_type[16:0]; }\n", p4sim.P4SemanticError,
     "slice [16:0] out of range for bit<16>"),
    ("    table t { key = { hdr.ethernet.dst_addr : exact; } actions = { NoAction; } "
     "idle = 1; }\n", p4sim.UnsupportedError, "unsupported property 'idle'"),
    ("    table t { key = { hdr.ethernet.dst_addr : selector; } actions = { NoAction; } }\n",
     p4sim.P4SemanticError, "a selector key needs implementation = an ActionSelector"),
    ("    ActionProfile(4) ap3; table t { key = { hdr.ethernet.dst_addr : exact; } "
     "actions = { NoAction; } implementation = ap3; const entries = { 1 : NoAction(); } }\n",
     p4sim.UnsupportedError, "const entries on a table with an action profile"),
    ("    action a() { for (bit<8> i = 0; i < 3; i = i + 1) { } }\n", p4sim.UnsupportedError, "'for'"),
])
def test_front_end_errors_are_located(snippet, exc, words):
    check_located(snippet, exc, words, ANCHOR_LINE)


def test_syntax_error_is_located_at_the_unexpected_token():
    # the missing ';' is noticed at the next token, on the following line
    check_located("    bit<8> x = 1\n", p4sim.P4SyntaxError, "expected ';', found 'action'",
                  ANCHOR_LINE + 1)


def check_located(snippet, exc, words, line):
    with pytest.raises(exc) as ei:
        compile_with(snippet)
    msg = str(ei.value)
    m = LOC_RE.match(msg)
    assert m, msg
    assert m["file"].endswith("snippet.p4")
    assert int(m["line"]) == line
    assert words in msg
    assert isinstance(ei.value, p4sim.P4SimError)
    assert ei.value.loc.line == line


@pytest.mark.parametrize("src,words", [
    ("header_union u { }\n", "header_union"),
    ("struct s { varbit<8> x; }\n", "varbit"),
])
def test_unsupported_top_level_constructs(src, words):
    with pytest.raises(p4sim.UnsupportedError, match=words) as ei:
        p4sim.compile_source(src, "t.p4")
    assert str(ei.value).startswith("t.p4:1:")


def test_header_not_a_whole_number_of_bytes():
    # legal P4, but Tofino headers are byte multiples: reported where it is emitted
    src = BASE.replace("struct headers_t { ethernet_h ethernet; }",
                       "header odd_h { bit<7> x; }\nstruct headers_t { ethernet_h ethernet; odd_h odd; }")
    with pytest.raises(p4sim.UnsupportedError, match="header 'odd_h' is 7 bits"):
        p4sim.compile_source(src, os.path.join(PROGRAMS, "odd.p4"))


def test_preprocessor_errors_are_located():
    with pytest.raises(p4sim.PreprocessorError, match=r"^t.p4:2:1: .*nothere.p4"):
        p4sim.compile_source("\n#include <nothere.p4>\n", "t.p4")
    with pytest.raises(p4sim.PreprocessorError, match=r"^t.p4:3:1: .*#error stop"):
        p4sim.compile_source("\n\n#error stop\n", "t.p4")


def test_defines_and_include_dirs(tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "port.h").write_text("#define OUT_PORT(x) ((x) + 1)\n")
    src = BASE.replace('#include "common.p4"', '#include "common.p4"\n#include "port.h"')
    src = src.replace("ig_tm_md.ucast_egress_port = port;",
                      "#ifdef FIXED\n ig_tm_md.ucast_egress_port = OUT_PORT(FIXED);\n#else\n"
                      " ig_tm_md.ucast_egress_port = port;\n#endif")
    prog = p4sim.compile_source(src, os.path.join(PROGRAMS, "d.p4"), include_dirs=[inc],
                                defines={"FIXED": "8"})
    sw = p4sim.Switch(prog)
    sw.table_set_default("Ingress.forward", "set_port", {"port": 1})
    assert [p for p, _ in sw.inject(0, bytes(14))] == [9]


# ------------------------------------------------------------------ control plane
@pytest.fixture
def sw(switch_for):
    return switch_for("l2_forward.p4")


@pytest.mark.parametrize("call,words", [
    (lambda s: s.table_add("Ingress.nope", {}, "drop"), "no table named 'Ingress.nope'"),
    (lambda s: s.table_add("Ingress.forward", {"hdr.ethernet.dst_addr": 1 << 48}, "drop"),
     "'Ingress.forward' key field 'hdr.ethernet.dst_addr'.*bit<48>"),
    (lambda s: s.table_add("Ingress.forward", {"hdr.ethernet.src_addr": 1}, "drop"),
     "missing key field 'hdr.ethernet.dst_addr'"),
    (lambda s: s.table_add("Ingress.forward", {"hdr.ethernet.dst_addr": 1}, "fly"),
     "no action 'fly'"),
    (lambda s: s.table_add("Ingress.forward", {"hdr.ethernet.dst_addr": 1}, "set_port",
                           {"port": 512}), "parameter 'port'.*bit<9>"),
    (lambda s: s.table_add("Ingress.forward", {"hdr.ethernet.dst_addr": 1}, "set_port"),
     "missing parameter 'port'"),
    (lambda s: s.table_add("Ingress.forward", {"hdr.ethernet.dst_addr": (1, 2)}, "drop"),
     "expected an integer"),
    (lambda s: s.table_delete("Ingress.forward", {"hdr.ethernet.dst_addr": 3}), "no entry"),
    (lambda s: s.multicast_group_set(65536, []), "0..65535"),
    (lambda s: s.multicast_group_set(1, [(1, [600])]), "port 600 does not fit in bit<9>"),
    (lambda s: s.port_add(512), "bit<9>"),
])
def test_control_plane_errors(sw, call, words):
    with pytest.raises(p4sim.ControlPlaneError, match=words):
        call(sw)


def test_duplicate_entry_and_short_names(sw):
    sw.table_add("forward", {"hdr.ethernet.dst_addr": 1}, "Ingress.drop")
    with pytest.raises(p4sim.ControlPlaneError, match="already exists"):
        sw.table_add("Ingress.forward", {"hdr.ethernet.dst_addr": 1}, "drop")
    assert sw.table_entries("Ingress.forward") == [((1,), "Ingress.drop", (), 0)]


@pytest.mark.parametrize("key,words", [
    ({"hdr.probe.addr": 5}, "lpm key needs \\(value, prefix_len\\)"),
    ({"hdr.probe.addr": (5, 33)}, "prefix length 33 out of range 0..32"),
    ({"hdr.probe.addr": (1 << 32, 8)}, "'hdr.probe.addr' value.*bit<32>"),
])
def test_lpm_key_errors(switch_for, key, words):
    sw = switch_for("tables.p4")
    with pytest.raises(p4sim.ControlPlaneError, match=words):
        sw.table_add("Ingress.routes", key, "set_lpm", {"v": 1})


@pytest.mark.parametrize("key,words", [
    ({"hdr.probe.port": 5}, "range key needs \\(low, high\\)"),
    ({"hdr.probe.port": (0, 1 << 16)}, "'hdr.probe.port' high.*bit<16>"),
])
def test_range_key_errors(switch_for, key, words):
    sw = switch_for("tables.p4")
    with pytest.raises(p4sim.ControlPlaneError, match=words):
        sw.table_add("Ingress.ranges", key, "set_range", {"v": 1})


def test_ternary_key_errors(switch_for):
    sw = switch_for("tables.p4")
    with pytest.raises(p4sim.ControlPlaneError, match="ternary key needs \\(value, mask\\)"):
        sw.table_add("Ingress.classify", {"hdr.probe.flags": 1, "etype": 1}, "set_tern",
                     {"v": 1, "sw": 1})
    with pytest.raises(p4sim.ControlPlaneError, match="'hdr.probe.flags' mask.*bit<8>"):
        sw.table_add("Ingress.classify", {"hdr.probe.flags": (1, 256), "etype": 1}, "set_tern",
                     {"v": 1, "sw": 1})
    with pytest.raises(p4sim.ControlPlaneError, match="unknown key field.*'bogus'"):
        sw.table_add("Ingress.classify", {"hdr.probe.flags": (1, 1), "etype": 1, "bogus": 2},
                     "set_tern", {"v": 1, "sw": 1})
    with pytest.raises(p4sim.ControlPlaneError, match="unknown parameter"):
        sw.table_add("Ingress.classify", {"hdr.probe.flags": (1, 1), "etype": 1}, "set_tern",
                     {"v": 1, "sw": 1, "zz": 0})


def test_p4sim_tna_wins_over_other_copies(tmp_path):
    (tmp_path / "tna.p4").write_text("this is not P4 at all\n")
    (tmp_path / "core.p4").write_text("neither is this\n")
    prog = p4sim.compile_source(BASE, os.path.join(PROGRAMS, "shadow.p4"), include_dirs=[tmp_path])
    assert "Ingress.forward" in prog.table_names()


@pytest.mark.parametrize("snippet,where,words", [
    # a header where a number belongs once reached the generated code as None
    # (the fuzzer's "TypeError: unsupported operand type(s) for %" in ADV)
    ("        pkt.advance(hdr.ethernet);\n", "        transition accept;", "advance amount"),
    ("    Counter<bit<32>, bit<8>>(4, CounterType_t.PACKETS) c;\n"
     "    action a() { c.count(hdr.ethernet); }\n", ANCHOR, "counter index"),
    ("    Register<bit<8>, bit<8>>(4) r;\n"
     "    action a() { r.write(hdr.ethernet, 1); }\n", ANCHOR, "register index"),
])
def test_non_numbers_where_numbers_belong_are_located_errors(snippet, where, words):
    with pytest.raises(p4sim.P4SemanticError, match=words) as ei:
        compile_with(snippet, where)
    assert LOC_RE.match(str(ei.value)), str(ei.value)
    assert "must be a number" in str(ei.value)


def test_pktgen_and_ptp_types_are_declared():
    compile_with("    action pk() { pktgen_timer_header_t t; t.setValid(); t.app_id = 1;\n"
                 "        pktgen_port_down_header_t d; d.port_num = 1; pktgen_recirc_header_t r;\n"
                 "        r.key = 2; ptp_metadata_t p; p.updated_cf = 3; }\n")


def test_program_keeps_counter_types_and_the_pipeline_name():
    """What a bfrt.json writer needs: CounterType_t per counter, the Pipeline instance."""
    prog = compile_with("    Counter<bit<32>, bit<8>>(4, CounterType_t.PACKETS) c;\n"
                        "    Counter<bit<32>, bit<8>>(4, CounterType_t.BYTES) b;\n")
    assert prog.counters["Ingress.c"].kind == "PACKETS"
    assert prog.counters["Ingress.b"].kind == "BYTES"
    assert prog.pipeline_name == "pipe"
