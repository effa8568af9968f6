/* Construct family: the traffic manager and egress: unicast, PRE multicast with rid,
 * drop_ctl, bypass_egress, egress rid / port / queue depth (ECN marking), egress drop,
 * resubmit (with resubmit data via port metadata), recirculation, exit. */
#include "common.p4"

header ipv4_h {
    bit<4> version; bit<4> ihl; bit<6> dscp; bit<2> ecn; bit<16> total_len;
    bit<16> identification; bit<3> flags; bit<13> frag_offset; bit<8> ttl;
    bit<8> protocol; bit<16> hdr_checksum; bit<32> src_addr; bit<32> dst_addr;
}
header cmd_h {
    bit<8>  mode;       // 1 unicast, 2 multicast, 3 drop, 4 bypass, 5 resubmit, 6 recirc, 7 exit
    bit<8>  arg;
    bit<16> mgid;
    bit<16> rid_seen;
    bit<16> port_seen;
    bit<8>  passes;     // incremented on each ingress pass
    bit<8>  resub_seen;
    bit<32> qdepth_seen;
}
header resub_h { bit<8> tag; bit<56> pad; }

struct headers_t { ethernet_h ethernet; ipv4_h ipv4; cmd_h cmd; }
struct port_md_t { bit<8> tag; bit<56> pad; }
struct meta_t { port_md_t port_md; resub_h resub; }

parser IgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        pkt.extract(ig_intr_md);
        md.port_md = port_metadata_unpack<port_md_t>(pkt);
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.ipv4);
        pkt.extract(hdr.cmd);
        transition accept;
    }
}

control Ingress(inout headers_t hdr, inout meta_t md,
                in ingress_intrinsic_metadata_t ig_intr_md,
                in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    apply {
        hdr.cmd.passes = hdr.cmd.passes + 1;
        hdr.cmd.resub_seen = ig_intr_md.resubmit_flag ++ md.port_md.tag[6:0];
        if (hdr.cmd.mode == 1) {
            ig_tm_md.ucast_egress_port = (PortId_t)hdr.cmd.arg;
        } else if (hdr.cmd.mode == 2) {
            ig_tm_md.mcast_grp_a = hdr.cmd.mgid;
        } else if (hdr.cmd.mode == 3) {
            ig_tm_md.ucast_egress_port = 1;
            ig_dprsr_md.drop_ctl = 1;
        } else if (hdr.cmd.mode == 4) {
            ig_tm_md.ucast_egress_port = 2;
            ig_tm_md.bypass_egress = 1;
        } else if (hdr.cmd.mode == 5) {
            if (ig_intr_md.resubmit_flag == 0) {
                ig_dprsr_md.resubmit_type = 1;
                md.resub.setValid();
                md.resub.tag = 0x42;
            } else {
                ig_tm_md.ucast_egress_port = 3;
            }
        } else if (hdr.cmd.mode == 6) {
            if (ig_intr_md.ingress_port == 68) {
                ig_tm_md.ucast_egress_port = 4;
            } else {
                ig_tm_md.ucast_egress_port = 68;
            }
        } else if (hdr.cmd.mode == 7) {
            ig_tm_md.ucast_egress_port = 5;
            exit;
        }
        hdr.cmd.arg = 0xFF;  // not reached after exit
    }
}

control IgDeparser(packet_out pkt, inout headers_t hdr, in meta_t md,
                   in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    Resubmit() resubmit;
    apply {
        if (ig_dprsr_md.resubmit_type == 1) {
            resubmit.emit(md.resub);
        }
        pkt.emit(hdr);
    }
}

parser EgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        pkt.extract(eg_intr_md);
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.ipv4);
        pkt.extract(hdr.cmd);
        transition accept;
    }
}

control Egress(inout headers_t hdr, inout meta_t md,
               in egress_intrinsic_metadata_t eg_intr_md,
               in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
               inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
               inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    apply {
        hdr.cmd.rid_seen = eg_intr_md.egress_rid;
        hdr.cmd.port_seen = (bit<16>)eg_intr_md.egress_port;
        hdr.cmd.qdepth_seen = (bit<32>)eg_intr_md.deq_qdepth;
        if (eg_intr_md.deq_qdepth >= 1000) {
            hdr.ipv4.ecn = 3;
        }
        if (eg_intr_md.egress_rid == 99) {
            eg_dprsr_md.drop_ctl = 1;
        }
    }
}

control EgDeparser(packet_out pkt, inout headers_t hdr, in meta_t md,
                   in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply { pkt.emit(hdr); }
}

Pipeline(IgParser(), Ingress(), IgDeparser(), EgParser(), Egress(), EgDeparser()) pipe;
Switch(pipe) main;
