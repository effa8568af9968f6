"""The mutation engine (p4sim/mutation): mutants of the parsed program, written where
their text is (a file or a #define body), with stable ids, and the two filters."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from p4sim.mutation import OPERATORS, generate
from p4sim.mutation.filters import compile_verdict, program_fingerprint

ROOT = Path(__file__).resolve().parents[2]
ATP = ROOT / "p4src" / "atp.p4"
WIDE = {"ATP_POOL_MAX": "65536"}

SMALL = """
#include <core.p4>
#include <tna.p4>
#define ETHERTYPE_X 0x88B5
#define BUMP(f) f = f + 1;
header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
struct h_t { eth_t eth; }
struct m_t { bit<8> n; }
parser IP(packet_in pkt, out h_t hdr, out m_t md, out ingress_intrinsic_metadata_t ig) {
    state start {
        pkt.extract(ig);
        pkt.advance(PORT_METADATA_SIZE);
        pkt.extract(hdr.eth);
        transition select(hdr.eth.type) {
            ETHERTYPE_X: accept;
            0x0800: accept;
            default: reject;
        }
    }
}
control Ing(inout h_t hdr, inout m_t md, in ingress_intrinsic_metadata_t ig,
            in ingress_intrinsic_metadata_from_parser_t pr,
            inout ingress_intrinsic_metadata_for_deparser_t dp,
            inout ingress_intrinsic_metadata_for_tm_t tm) {
    action fwd(bit<9> p) { tm.ucast_egress_port = p; }
    action mark() { hdr.eth.src = 1; }
    table t {
        key = { hdr.eth.type : exact; }
        actions = { fwd; mark; NoAction; }
        const entries = {
            0x0800 : fwd(2);
            0x88B5 : mark();
        }
        default_action = NoAction();
    }
    apply {
        md.n = 0;
        if (hdr.eth.dst == 5) { BUMP(md.n) }
        t.apply();
        if (md.n > 0) { hdr.eth.dst = hdr.eth.dst & 0xff; }
    }
}
control IDep(packet_out pkt, inout h_t hdr, in m_t md,
             in ingress_intrinsic_metadata_for_deparser_t dp) {
    apply { pkt.emit(hdr.eth); }
}
parser EP(packet_in pkt, out h_t hdr, out m_t md, out egress_intrinsic_metadata_t eg) {
    state start { pkt.extract(eg); transition accept; }
}
control Eg(inout h_t hdr, inout m_t md, in egress_intrinsic_metadata_t eg,
           in egress_intrinsic_metadata_from_parser_t pr,
           inout egress_intrinsic_metadata_for_deparser_t dp,
           inout egress_intrinsic_metadata_for_output_port_t op) { apply { } }
control EDep(packet_out pkt, inout h_t hdr, in m_t md,
             in egress_intrinsic_metadata_for_deparser_t dp) { apply { } }
Pipeline(IP(), Ing(), IDep(), EP(), Eg(), EDep()) pipe;
Switch(pipe) main;
"""


@pytest.fixture(scope="module")
def atp_mutants():
    return generate(str(ATP), [], WIDE)


def test_ids_are_stable_and_unique(atp_mutants):
    again = generate(str(ATP), [], WIDE)
    assert [m.id for m in again] == [m.id for m in atp_mutants]
    assert len({m.id for m in atp_mutants}) == len(atp_mutants)


def test_every_mutant_changes_the_source_once_and_locates_it(atp_mutants):
    for m in atp_mutants:
        assert m.edits, m.id
        diff = m.diff()
        assert diff.startswith("--- "), m.id
        assert m.id.startswith(f"{m.operator}@{m.file}:{m.line}:{m.col}#"), m.id
        assert (ATP.parent / m.file).is_file(), m.id


def test_atp_gets_every_kind_of_operator_the_issue_names(atp_mutants):
    ops = Counter(m.operator for m in atp_mutants)
    for op in ("relational", "arithmetic", "constant", "negate_if", "negate_ra_if",
               "ra_return_swap", "ra_return_order", "del_stmt", "del_apply", "del_emit",
               "del_hash_input", "del_entry", "swap_entries", "entry_action", "del_default",
               "default_action", "swap_select"):
        assert ops[op] > 0, f"no {op} mutant of atp.p4: {ops}"
    assert set(ops) <= set(OPERATORS)


def test_a_macro_body_is_mutated_once_in_the_define(atp_mutants):
    """ATP_VALUE_REGISTER expands 31 times; its body's const entries are mutated in the
    #define, once, not per expansion (and pasted names are copied whole)."""
    body = [m for m in atp_mutants if m.file == "aggregation.p4" and 385 <= m.line <= 436]
    assert body, "no mutant inside the ATP_VALUE_REGISTER #define"
    defaults = [m for m in body if m.operator == "default_action"]
    assert len(defaults) == 4, [m.description for m in defaults]   # do_first/add/take/read
    text = defaults[0].mutated_text(defaults[0].files()[0])
    assert "default_action = do_" in text and "##i();" in text


def test_defines_decide_the_mutants_of_conditional_code(atp_mutants):
    """Mutants exist only in code the build compiles: the release's (#ifdef ATP_RELEASE)
    code has mutants under -DATP_RELEASE only."""
    release = {m.id for m in generate(str(ATP), [], {**WIDE, "ATP_RELEASE": None})}
    spec = {m.id for m in atp_mutants}
    assert release - spec and spec - release


def test_small_program_operators_and_defines(tmp_path):
    path = tmp_path / "small.p4"
    path.write_text(SMALL)
    mutants = generate(str(path), [], {})
    by_op = Counter(m.operator for m in mutants)
    for op in ("relational", "arithmetic", "constant", "negate_if", "del_stmt", "del_apply",
               "del_emit", "del_entry", "swap_entries", "entry_action", "default_action",
               "del_default", "swap_select"):
        assert by_op[op], f"{op}: {by_op}"
    # the constant of #define ETHERTYPE_X is mutated in the #define line itself
    define = [m for m in mutants if m.operator == "constant" and m.line == 4]
    assert define and all("#define ETHERTYPE_X 0x" in m.mutated_text(m.files()[0])
                          for m in define)
    # the BUMP macro's '+' is replaced in its body
    assert any(m.operator == "arithmetic" and m.line == 5 for m in mutants)


def test_filters_refused_equivalent_and_compiling(tmp_path):
    path = tmp_path / "small.p4"
    path.write_text(SMALL)
    original = program_fingerprint(path)
    by_id = {m.id: m for m in generate(str(path), [], {})}

    def verdict(m):
        copy = tmp_path / m.id.replace("/", "_")
        copy.mkdir()
        m.write(lambda p: copy / Path(p).name)
        return compile_verdict(copy / "small.p4", [], {}, original)[0]

    deleted_entry = next(m for m in by_id.values() if m.operator == "del_entry")
    assert verdict(deleted_entry) == "compiles"
    # a change p4sim refuses (here: a deleted operand) is not a program to test
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "small.p4").write_text(SMALL.replace("md.n = 0;", "md.n = ;"))
    status, why = compile_verdict(tmp_path / "bad" / "small.p4", [], {}, original)
    assert status == "refused" and "small.p4:" in why
    # a mutant that the compiler folds to the same program is equivalent
    (tmp_path / "same").mkdir()
    (tmp_path / "same" / "small.p4").write_text(SMALL.replace("md.n = 0;", "md.n = 8w0;"))
    assert compile_verdict(tmp_path / "same" / "small.p4", [], {}, original)[0] == "equivalent"


def test_order_of_disjoint_rows_and_cases_is_no_mutant(tmp_path):
    """Swapping two const entries or two select cases that cannot match the same key,
    or replacing a default no key reaches, compiles to the same (canonical) program;
    swapping a case with ``default`` does not."""
    path = tmp_path / "small.p4"
    path.write_text(SMALL)
    original = program_fingerprint(path)
    by_op = {}
    for m in generate(str(path), [], {}):
        by_op.setdefault(m.operator, []).append(m)

    def verdict(m):
        copy = tmp_path / m.id.replace("/", "_").replace("#", "_")
        copy.mkdir()
        m.write(lambda p: copy / Path(p).name)
        return compile_verdict(copy / "small.p4", [], {}, original)[0]

    swaps = {m.description.split(": ", 1)[1]: verdict(m) for m in by_op["swap_select"]}
    assert swaps == {
        "select cases '0x88B5 : accept ;' and '0x0800 : accept ;' swapped": "equivalent",
        "select cases '0x0800 : accept ;' and 'default : reject ;' swapped": "compiles"}, swaps
    assert [verdict(m) for m in by_op["swap_entries"]] == ["equivalent"]    # exact keys


def test_overlapping_rows_of_one_outcome_are_in_no_order(atp_mutants, tmp_path):
    """atp.p4's output table: rows 0 and 1 overlap but both drop (equivalent when
    swapped); rows 4 and 5 overlap with different actions (a real mutant)."""
    original = program_fingerprint(ATP, [], WIDE)
    by_id = {m.id: m for m in atp_mutants}

    def verdict(mid):
        copy = tmp_path / mid.replace("@", "_").replace(":", "_").replace("#", "_")
        copy.mkdir()
        for f in ATP.parent.glob("*.p4"):
            (copy / f.name).write_text(f.read_text())
        by_id[mid].write(lambda p: copy / Path(p).name)
        return compile_verdict(copy / "atp.p4", [], WIDE, original)[0]

    assert verdict("swap_entries@atp.p4:223:13#0") == "equivalent"
    assert verdict("swap_entries@atp.p4:227:13#0") == "compiles"
