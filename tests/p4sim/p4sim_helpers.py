"""Helpers shared by the p4sim tests."""
import os
import struct

import p4sim

PROGRAMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs")
_cache = {}


def compiled(name):
    """Compile tests/p4sim/programs/<name> once per session."""
    if name not in _cache:
        _cache[name] = p4sim.compile_file(os.path.join(PROGRAMS, name))
    return _cache[name]


def eth(dst=0, src=0, ether_type=0x0800):
    return dst.to_bytes(6, "big") + src.to_bytes(6, "big") + struct.pack(">H", ether_type)


PIPE_TEMPLATE = """
#include <core.p4>
#include <tna.p4>
%(HEADERS)s
struct meta_t { bit<8> x; }
parser P(packet_in pkt, out headers_t hdr, out meta_t md, out ingress_intrinsic_metadata_t ig) {
    state start { pkt.extract(ig); pkt.advance(PORT_METADATA_SIZE); pkt.extract(hdr.i); transition accept; }
}
control I(inout headers_t hdr, inout meta_t md, in ingress_intrinsic_metadata_t ig,
          in ingress_intrinsic_metadata_from_parser_t prsr,
          inout ingress_intrinsic_metadata_for_deparser_t dprsr,
          inout ingress_intrinsic_metadata_for_tm_t tm) {
    apply { tm.ucast_egress_port = 1; hdr.o.setValid(); %(APPLY)s }
}
control D(packet_out pkt, inout headers_t hdr, in meta_t md) { apply { %(EMIT)s } }
parser EP(packet_in pkt, out headers_t hdr, out meta_t md, out egress_intrinsic_metadata_t eg) {
    state start { pkt.extract(eg); transition accept; }
}
control E(inout headers_t hdr, inout meta_t md) { apply { } }
control ED(packet_out pkt, inout headers_t hdr, in meta_t md) { apply { } }
Pipeline(P(), I(), D(), EP(), E(), ED()) pipe;
Switch(pipe) main;
"""


def in_out_program(in_fields, out_fields, apply, emit="pkt.emit(hdr.o);"):
    """A one-pipe program: the parser extracts header ``in_h { in_fields }`` as hdr.i,
    ingress validates hdr.o (``out_h { out_fields }``), runs ``apply`` and sends to port
    1; the deparser runs ``emit``."""
    headers = (f"header in_h {{ {in_fields} }}\nheader out_h {{ {out_fields} }}\n"
               "struct headers_t { in_h i; out_h o; }")
    return PIPE_TEMPLATE % {"HEADERS": headers, "APPLY": apply, "EMIT": emit}
