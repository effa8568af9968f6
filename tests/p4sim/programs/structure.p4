/* Construct family: program structure and externs. typedef, serializable and plain
 * enums, const, top-level and control-local actions, functions, nested control
 * instances applied with arguments, switch on a value, local struct variables, header
 * assignment / setInvalid, Hash (CRC32 / CRC16 / identity / custom CRCPolynomial),
 * Checksum (IPv4 verify in the parser and update in the deparser), Counter,
 * DirectCounter, Random. */
#include "common.p4"

typedef bit<32> ipv4_addr_t;
const bit<16> ETHERTYPE_IPV4 = 0x0800;
enum bit<8> Kind_t { ADD = 1, SWAP = 2, HASH = 3, CLEAR = 4 }
enum Color_t { RED, GREEN }

header ipv4_h {
    bit<4> version; bit<4> ihl; bit<8> tos; bit<16> total_len;
    bit<16> identification; bit<3> flags; bit<13> frag_offset; bit<8> ttl;
    bit<8> protocol; bit<16> hdr_checksum; ipv4_addr_t src_addr; ipv4_addr_t dst_addr;
}
header work_h {
    Kind_t kind;
    bit<8> x;
    bit<16> app_id;
    bit<16> slot;
    bit<32> crc32;
    bit<16> crc16;
    bit<16> ident;
    bit<16> custom;
    bit<8> color;
    bit<8> checksum_ok;
}

struct pair_t { bit<8> a; bit<8> b; }
struct headers_t { ethernet_h ethernet; ipv4_h ipv4; work_h work; }
struct meta_t { bool checksum_err; pair_t p; }

bit<8> twice(in bit<8> v) { return v + v; }

action mark_ttl(inout ipv4_h ip) { ip.ttl = ip.ttl - 1; }

parser IgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out ingress_intrinsic_metadata_t ig_intr_md) {
    Checksum() ck;
    state start {
        TNA_INGRESS_PROLOGUE(pkt, ig_intr_md);
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        ck.add(hdr.ipv4);
        md.checksum_err = ck.verify();      // TNA: true when the checksum is wrong
        pkt.extract(hdr.work);
        transition accept;
    }
}

control Arith(inout work_h w, in bit<8> k) {
    action add(bit<8> v) { w.x = w.x + v + k; }
    table t {
        key = { w.kind : exact; }
        actions = { add; NoAction; }
        const entries = { Kind_t.ADD : add(10); }
        default_action = NoAction;
    }
    apply { t.apply(); }
}

control Ingress(inout headers_t hdr, inout meta_t md,
                in ingress_intrinsic_metadata_t ig_intr_md,
                in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    Arith() arith;
    Hash<bit<32>>(HashAlgorithm_t.CRC32) h32;
    Hash<bit<16>>(HashAlgorithm_t.CRC16) h16;
    Hash<bit<16>>(HashAlgorithm_t.IDENTITY) hid;
    CRCPolynomial<bit<16>>(16w0x1021, false, false, false, 16w0xFFFF, 16w0x0000) ccitt;
    Hash<bit<16>>(HashAlgorithm_t.CUSTOM, ccitt) hcustom;
    Counter<bit<32>, bit<8>>(4, CounterType_t.PACKETS_AND_BYTES) per_kind;
    DirectCounter<bit<32>>(CounterType_t.PACKETS_AND_BYTES) dc;
    Random<bit<16>>() rnd;
    Color_t color = Color_t.GREEN;

    action count_hit() { dc.count(); }
    table counted {
        key = { hdr.work.app_id : exact; }
        actions = { count_hit; NoAction; }
        counters = dc;
        default_action = NoAction;
    }

    apply {
        ig_tm_md.ucast_egress_port = 1;
        per_kind.count(hdr.work.kind);
        counted.apply();
        hdr.work.checksum_ok = md.checksum_err ? 8w0 : 8w1;
        arith.apply(hdr.work, 8w1);
        md.p = { hdr.work.x, twice(hdr.work.x) };
        switch (hdr.work.kind) {
            Kind_t.SWAP: {
                pair_t q = { a = md.p.b, b = md.p.a };
                hdr.work.x = q.a;
                color = Color_t.RED;
            }
            Kind_t.HASH: {
                hdr.work.crc32 = h32.get({hdr.work.app_id, hdr.work.slot});
                hdr.work.crc16 = h16.get({hdr.work.app_id, hdr.work.slot});
                hdr.work.ident = hid.get({hdr.work.app_id, hdr.work.slot});
                hdr.work.custom = hcustom.get({hdr.work.app_id, hdr.work.slot});
                bit<16> r = rnd.get();
            }
            Kind_t.CLEAR: { hdr.ipv4.setInvalid(); }
            default: { mark_ttl(hdr.ipv4); }
        }
        hdr.work.color = color == Color_t.RED ? 8w1 : 8w2;
    }
}

control IgDeparser(packet_out pkt, inout headers_t hdr, in meta_t md,
                   in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    Checksum() ipv4_ck;
    apply {
        hdr.ipv4.hdr_checksum = ipv4_ck.update({
            hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.tos, hdr.ipv4.total_len,
            hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset,
            hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr});
        pkt.emit(hdr);
    }
}

EMPTY_EGRESS(headers_t, meta_t)

Pipeline(IgParser(), Ingress(), IgDeparser(),
         EmptyEgressParser(), EmptyEgress(), EmptyEgressDeparser()) pipe;
Switch(pipe) main;
