/* A register read at the result of an identity hash, the way atp.p4 indexes every
 * aggregator register ({second, level, agtr}): the smallest program that shows how
 * P4Testgen writes such a cell (tests/p4testgen/triage.yaml, "hash_index"). The key's
 * top bit is a constant 1, so the index is never 0: a test that sets cell 0 sets a cell
 * no packet reads. */
#include "common.p4"

header probe_h {
    bit<16> agtr;
    bit<16> value;     /* out: the cell the packet read */
}

struct headers_t { ethernet_h ethernet; probe_h probe; }
struct meta_t { bit<8> second; bit<14> vi; }

parser IgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        TNA_INGRESS_PROLOGUE(pkt, ig_intr_md);
        md.second = 1;
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.probe);
        transition accept;
    }
}

control Ingress(inout headers_t hdr, inout meta_t md,
                in ingress_intrinsic_metadata_t ig_intr_md,
                in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    Hash<bit<14>>(HashAlgorithm_t.IDENTITY) vi_hash;
    Register<bit<16>, bit<14>>(16384) cells;
    RegisterAction<bit<16>, bit<14>, bit<16>>(cells) read_cell = {
        void apply(inout bit<16> value, out bit<16> rv) { rv = value; }
    };
    apply {
        md.vi = vi_hash.get({md.second[0:0], 1w0, hdr.probe.agtr[11:0]});
        hdr.probe.value = read_cell.execute(md.vi);
        if (hdr.probe.value == 0x1234) {
            hdr.ethernet.ether_type = 0xabcd;     /* a path only a set cell opens */
        }
        ig_tm_md.ucast_egress_port = 2;
    }
}

control IgDeparser(packet_out pkt, inout headers_t hdr, in meta_t md,
                   in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply { pkt.emit(hdr); }
}

EMPTY_EGRESS(headers_t, meta_t)

Pipeline(IgParser(), Ingress(), IgDeparser(),
         EmptyEgressParser(), EmptyEgress(), EmptyEgressDeparser()) pipe;
Switch(pipe) main;
