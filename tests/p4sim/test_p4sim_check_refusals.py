"""`python -m p4sim check` names every construct p4sim refuses, with file:line: all the
extern instances of unsupported types (wherever they are), and the compiler's own
refusal of anything else; a program p4sim runs is listed as before."""
import re

from p4sim.cli import main
from p4sim.refusals import check_program

PROGRAM = """#include <core.p4>
#include <tna.p4>
header h_t { bit<16> x; }
struct hs { h_t h; }
struct ms { }
parser P(packet_in pkt, out hs hdr, out ms md, out ingress_intrinsic_metadata_t ig) {
    PARSER_DECLS
    state start { pkt.extract(ig); pkt.advance(PORT_METADATA_SIZE); pkt.extract(hdr.h); transition accept; }
}
control I(inout hs hdr, inout ms md, in ingress_intrinsic_metadata_t ig,
          in ingress_intrinsic_metadata_from_parser_t prsr,
          inout ingress_intrinsic_metadata_for_deparser_t dprsr,
          inout ingress_intrinsic_metadata_for_tm_t tm) {
    CONTROL_DECLS
    apply { }
}
control ID(packet_out pkt, inout hs hdr, in ms md, in ingress_intrinsic_metadata_for_deparser_t d) {
    apply { pkt.emit(hdr); }
}
parser EP(packet_in pkt, out hs hdr, out ms md, out egress_intrinsic_metadata_t eg) {
    state start { pkt.extract(eg); transition accept; }
}
control E(inout hs hdr, inout ms md, in egress_intrinsic_metadata_t eg,
          in egress_intrinsic_metadata_from_parser_t p, inout egress_intrinsic_metadata_for_deparser_t d,
          inout egress_intrinsic_metadata_for_output_port_t o) { apply { } }
control ED(packet_out pkt, inout hs hdr, in ms md, in egress_intrinsic_metadata_for_deparser_t d) {
    apply { }
}
Pipeline(P(), I(), ID(), EP(), E(), ED()) pipe;
Switch(pipe) main;
"""


def write(tmp_path, parser_decls="", control_decls=""):
    p = tmp_path / "prog.p4"
    p.write_text(PROGRAM.replace("PARSER_DECLS", parser_decls)
                 .replace("CONTROL_DECLS", control_decls))
    return str(p)


def test_every_refused_extern_is_named_with_its_line(tmp_path, capsys):
    path = write(tmp_path, parser_decls="ParserCounter() pc;",
                 control_decls="MathUnit<bit<16>>(MathOp_t.SQR, 1) mu;")
    assert main(["check", path]) == 1
    out = capsys.readouterr()
    lines = out.out.splitlines()
    assert len(lines) == 2
    assert re.fullmatch(r".*prog\.p4:7:5: refused: unsupported extern 'ParserCounter' "
                        r"\(instance 'pc'\)", lines[0])
    assert re.fullmatch(r".*prog\.p4:14:5: refused: unsupported extern 'MathUnit' "
                        r"\(instance 'mu'\)", lines[1])
    assert "p4sim refuses 2 construct(s)" in out.err and out.err.count("\n") == 1


def test_a_refusal_of_the_compiler_is_named_too(tmp_path):
    path = write(tmp_path, control_decls=(
        "Hash<bit<16>>(HashAlgorithm_t.CRC16) h; Register<bit<1>, bit<8>>(4) r; "
        "ActionSelector(4, h, SelectorMode_t.FAIR, r) sel;"))
    prog, refused = check_program(path)
    assert prog is None
    assert [(loc.line, what) for loc, what in refused] == [
        (14, "stateful ActionSelector 'I.sel' (with a Register for SelectorAction) is not "
             "supported")]


def test_a_supported_program_is_listed(tmp_path, capsys):
    path = write(tmp_path, control_decls="RegisterParam<bit<8>>(3) rp;")
    assert main(["check", path]) == 0
    assert capsys.readouterr().out.startswith("program ")
