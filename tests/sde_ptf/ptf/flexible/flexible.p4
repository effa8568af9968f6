/* flexible: bridged metadata in a @flexible header whose fields are not whole bytes.
 * Ingress fills it from the frame and its port; egress reads it back into a report
 * header after the Ethernet header. bf-p4c repacks the bridged header (its
 * logs/flexible_packing.log); p4sim lays it out the same way (p4sim/compiler/flexible.py).
 * Run by tests/sde_ptf (PTF, the SDE's BfRuntimeTest) on the softswitch, compiled by
 * bf-p4c. */
#include <core.p4>
#include <tna.p4>

header ethernet_h {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

@flexible
header bridged_md_h {
    PortId_t in_port;
    bit<24> tag;
    bit<3> qid;
    bit<8> kind;
    bit<1> flag;
    bit<12> zone;
}

header report_h {
    bit<16> in_port;
    bit<32> tag;
    bit<8> qid;
    bit<8> kind;
    bit<8> flag;
    bit<16> zone;
}

struct ig_headers_t { bridged_md_h bridged; ethernet_h ethernet; }
struct eg_headers_t { bridged_md_h bridged; ethernet_h ethernet; report_h report; }
struct metadata_t { }

parser SwitchIngressParser(packet_in pkt, out ig_headers_t hdr, out metadata_t md,
                           out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        pkt.extract(ig_intr_md);
        pkt.advance(PORT_METADATA_SIZE);
        pkt.extract(hdr.ethernet);
        transition accept;
    }
}

control SwitchIngress(inout ig_headers_t hdr, inout metadata_t md,
                      in ingress_intrinsic_metadata_t ig_intr_md,
                      in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                      inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                      inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    action bridge(PortId_t port) {
        hdr.bridged.setValid();
        hdr.bridged.in_port = ig_intr_md.ingress_port;
        hdr.bridged.tag = hdr.ethernet.dst_addr[47:24];
        hdr.bridged.qid = hdr.ethernet.src_addr[2:0];
        hdr.bridged.kind = hdr.ethernet.dst_addr[7:0];
        hdr.bridged.flag = hdr.ethernet.src_addr[40:40];
        hdr.bridged.zone = hdr.ethernet.src_addr[27:16];
        ig_tm_md.ucast_egress_port = port;
    }
    action drop() {
        ig_dprsr_md.drop_ctl = 1;
    }
    table forward {
        key = { hdr.ethernet.ether_type : exact; }
        actions = { bridge; drop; }
        default_action = drop();
        size = 16;
    }
    apply {
        forward.apply();
    }
}

control SwitchIngressDeparser(packet_out pkt, inout ig_headers_t hdr, in metadata_t md,
                              in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply { pkt.emit(hdr); }
}

parser SwitchEgressParser(packet_in pkt, out eg_headers_t hdr, out metadata_t md,
                          out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        pkt.extract(eg_intr_md);
        pkt.extract(hdr.bridged);
        pkt.extract(hdr.ethernet);
        transition accept;
    }
}

control SwitchEgress(inout eg_headers_t hdr, inout metadata_t md,
                     in egress_intrinsic_metadata_t eg_intr_md,
                     in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
                     inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
                     inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    apply {
        hdr.report.setValid();
        hdr.report.in_port = (bit<16>)hdr.bridged.in_port;
        hdr.report.tag = (bit<32>)hdr.bridged.tag;
        hdr.report.qid = (bit<8>)hdr.bridged.qid;
        hdr.report.kind = hdr.bridged.kind;
        hdr.report.flag = (bit<8>)hdr.bridged.flag;
        hdr.report.zone = (bit<16>)hdr.bridged.zone;
    }
}

control SwitchEgressDeparser(packet_out pkt, inout eg_headers_t hdr, in metadata_t md,
                             in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.report);
    }
}

Pipeline(SwitchIngressParser(), SwitchIngress(), SwitchIngressDeparser(),
         SwitchEgressParser(), SwitchEgress(), SwitchEgressDeparser()) pipe;

Switch(pipe) main;
