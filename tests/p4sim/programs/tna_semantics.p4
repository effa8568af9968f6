/* Construct family: TNA semantics as bf-p4c and the hardware define them.
 * Parser Checksum verify()/get() and an incremental UDP checksum update in the deparser
 * (zeros_as_ones); deparser selector fields (resubmit_type, digest_type, mirror_type)
 * that are invalid until written; Resubmit/Mirror data whatever its validity; a
 * resubmitted packet that asks again; an ingress mirror copy of the original packet;
 * @symmetric hash inputs; a control-local const as a constructor argument;
 * __TARGET_TOFINO__. */
#include "common.p4"

#if __TARGET_TOFINO__ == 1
const bit<8> TARGET = 1;
#else
const bit<8> TARGET = 0;
#endif

header ipv4_h {
    bit<4> version; bit<4> ihl; bit<8> tos; bit<16> total_len;
    bit<16> identification; bit<3> flags; bit<13> frag_offset; bit<8> ttl;
    bit<8> protocol; bit<16> hdr_checksum; bit<32> src_addr; bit<32> dst_addr;
}
header udp_h { bit<16> src_port; bit<16> dst_port; bit<16> length; bit<16> checksum; }
header cmd_h {
    bit<8>  mode;     // 1 NAT, 2 resubmit, 3 nothing written, 4 digest_type = 0, 5 mirror, 6 hash
    bit<8>  arg;
    bit<8>  passes;
    bit<8>  target;
    bit<8>  ipv4_err;
    bit<8>  resub_tag;
    bit<32> hash;
}
header resub_h { bit<8> tag; bit<56> pad; }
header mirror_h { bit<8> kind; bit<8> session; }

struct headers_t { ethernet_h ethernet; ipv4_h ipv4; udp_h udp; cmd_h cmd; }
struct meta_t {
    bool ipv4_err;
    bool upd;
    bit<16> udp_residual;
    resub_h resub;
    resub_h resub_in;
    mirror_h mirror;
    MirrorId_t session;
}
struct digest_t { bit<8> arg; }

parser IgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out ingress_intrinsic_metadata_t ig_intr_md) {
    Checksum() ipv4_ck;
    Checksum() udp_ck;
    state start {
        pkt.extract(ig_intr_md);
        transition select(ig_intr_md.resubmit_flag) {
            1: parse_resubmit;
            default: skip_port_md;
        }
    }
    state parse_resubmit { pkt.extract(md.resub_in); transition parse_ethernet; }
    state skip_port_md { pkt.advance(PORT_METADATA_SIZE); transition parse_ethernet; }
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.ipv4);
        ipv4_ck.add(hdr.ipv4);
        md.ipv4_err = ipv4_ck.verify();
        udp_ck.subtract({hdr.ipv4.src_addr});
        pkt.extract(hdr.udp);
        udp_ck.subtract({hdr.udp.checksum});
        udp_ck.subtract({hdr.udp.src_port});
        md.udp_residual = udp_ck.get();
        pkt.extract(hdr.cmd);
        transition accept;
    }
}

control Ingress(inout headers_t hdr, inout meta_t md,
                in ingress_intrinsic_metadata_t ig_intr_md,
                in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    const bit<32> SIZE = 16;
    Register<bit<32>, bit<4>>(SIZE) seen;
    RegisterAction<bit<32>, bit<4>, bit<32>>(seen) bump = {
        void apply(inout bit<32> v) { v = v + 1; }
    };
    Counter<bit<32>, PortId_t>(SIZE, CounterType_t.PACKETS_AND_BYTES) per_port;
    DirectCounter<bit<32>>(CounterType_t.PACKETS_AND_BYTES) dc;
    @symmetric("hdr.ipv4.src_addr", "hdr.ipv4.dst_addr")
    @symmetric("hdr.udp.src_port", "hdr.udp.dst_port")
    Hash<bit<32>>(HashAlgorithm_t.CRC32) sym_hash;

    action hit(bit<8> v) { dc.count(); hdr.cmd.arg = hdr.cmd.arg + v; }
    table by_mode {
        key = { hdr.cmd.mode : exact; }
        actions = { hit; @defaultonly NoAction; }
        counters = dc;
        default_action = NoAction;
    }

    action mark(bit<8> v) { hdr.cmd.arg = v; }
    table by_valid {
        key = { hdr.udp.isValid() : exact; hdr.cmd.mode : exact; }
        actions = { mark; @defaultonly NoAction; }
        default_action = NoAction;
    }

    apply {
        ig_tm_md.ucast_egress_port = 1;
        per_port.count(ig_intr_md.ingress_port);
        by_mode.apply();
        bump.execute(hdr.cmd.mode[3:0]);
        hdr.cmd.passes = hdr.cmd.passes + 1;
        hdr.cmd.target = TARGET;
        if (md.ipv4_err) { hdr.cmd.ipv4_err = 1; }
        if (hdr.cmd.mode == 1) {
            hdr.ipv4.src_addr = 0x0A000063;
            hdr.udp.src_port = 4000;
            md.upd = true;
        } else if (hdr.cmd.mode == 2) {
            hdr.cmd.resub_tag = md.resub_in.tag;
            ig_dprsr_md.resubmit_type = 0;        // asks on every pass, also the resubmitted one
            md.resub.tag = 0x5A;                  // never made valid: resubmitted anyway
        } else if (hdr.cmd.mode == 4) {
            ig_dprsr_md.digest_type = 0;
        } else if (hdr.cmd.mode == 5) {
            hdr.ipv4.ttl = 1;                     // not seen by the ingress mirror copy
            ig_dprsr_md.mirror_type = 1;
            md.session = 5;
            md.mirror.kind = 0xAA;                // never made valid: mirrored anyway
            md.mirror.session = 5;
        } else if (hdr.cmd.mode == 7) {
            by_valid.apply();
        } else if (hdr.cmd.mode == 6) {
            hdr.cmd.hash = sym_hash.get({hdr.ipv4.src_addr, hdr.ipv4.dst_addr,
                                         hdr.udp.src_port, hdr.udp.dst_port});
        }
    }
}

control IgDeparser(packet_out pkt, inout headers_t hdr, in meta_t md,
                   in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    Checksum() ipv4_ck;
    Checksum() udp_ck;
    Resubmit() resubmit;
    Digest<digest_t>() dg;
    Mirror() mirror;
    apply {
        if (md.upd) {
            hdr.ipv4.hdr_checksum = ipv4_ck.update({
                hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.tos, hdr.ipv4.total_len,
                hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.frag_offset,
                hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.src_addr, hdr.ipv4.dst_addr});
            hdr.udp.checksum = udp_ck.update(data = {hdr.ipv4.src_addr, hdr.udp.src_port,
                                                     md.udp_residual}, zeros_as_ones = true);
        }
        if (ig_dprsr_md.resubmit_type == 0) { resubmit.emit(md.resub); }
        if (ig_dprsr_md.digest_type == 0) { dg.pack({hdr.cmd.arg}); }
        if (ig_dprsr_md.mirror_type == 1) { mirror.emit<mirror_h>(md.session, md.mirror); }
        pkt.emit(hdr);
    }
}

EMPTY_EGRESS(headers_t, meta_t)

Pipeline(IgParser(), Ingress(), IgDeparser(),
         EmptyEgressParser(), EmptyEgress(), EmptyEgressDeparser()) pipe;
Switch(pipe) main;
