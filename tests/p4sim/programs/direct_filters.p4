// DirectLpf and DirectWred on table entries, and a header with some @flexible fields
// bridged from ingress to egress.
#include <core.p4>
#include <tna.p4>

header eth_h { bit<48> dst; bit<48> src; bit<16> etype; }
header probe_h { bit<8> sample; bit<8> lpf_out; bit<8> wred_out; bit<8> tag; }
header bridge_h {
    bit<8> kind;
    @flexible bit<1> flag;
    @flexible bit<10> session;
}
struct headers_t { bridge_h bridge; eth_h eth; probe_h probe; }
struct meta_t { bit<8> x; }

parser IgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        pkt.extract(ig_intr_md);
        pkt.advance(PORT_METADATA_SIZE);
        pkt.extract(hdr.eth);
        pkt.extract(hdr.probe);
        transition accept;
    }
}

control Ingress(inout headers_t hdr, inout meta_t md,
                in ingress_intrinsic_metadata_t ig_intr_md,
                in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    DirectLpf<bit<8>>() lpf;
    DirectWred<bit<8>>(8w1, 8w0) wred;
    action filter_lpf(PortId_t port) {
        hdr.probe.lpf_out = lpf.execute(hdr.probe.sample);
        ig_tm_md.ucast_egress_port = port;
    }
    action filter_wred(PortId_t port) {
        hdr.probe.wred_out = wred.execute(hdr.probe.sample);
        ig_tm_md.ucast_egress_port = port;
    }
    table smooth {
        key = { hdr.eth.dst : exact; }
        actions = { filter_lpf; NoAction; }
        filters = lpf;
        default_action = NoAction;
        size = 16;
    }
    table early_drop {
        key = { hdr.eth.dst : exact; }
        actions = { filter_wred; NoAction; }
        filters = wred;
        default_action = NoAction;
        size = 16;
    }
    apply {
        smooth.apply();
        early_drop.apply();
        hdr.bridge.setValid();
        hdr.bridge.kind = 7;
        hdr.bridge.flag = 1;
        hdr.bridge.session = 10w0x2A5;
    }
}

control IgDeparser(packet_out pkt, inout headers_t hdr, in meta_t md,
                   in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply { pkt.emit(hdr); }
}

parser EgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        pkt.extract(eg_intr_md);
        pkt.extract(hdr.bridge);
        pkt.extract(hdr.eth);
        pkt.extract(hdr.probe);
        transition accept;
    }
}

control Egress(inout headers_t hdr, inout meta_t md,
               in egress_intrinsic_metadata_t eg_intr_md,
               in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
               inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
               inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    apply {
        // what crossed in the bridged header, back in the probe for the test to see
        hdr.probe.tag = hdr.bridge.kind + (bit<8>)hdr.bridge.flag + hdr.bridge.session[7:0];
        hdr.bridge.setInvalid();
    }
}

control EgDeparser(packet_out pkt, inout headers_t hdr, in meta_t md,
                   in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply { pkt.emit(hdr); }
}

Pipeline(IgParser(), Ingress(), IgDeparser(), EgParser(), Egress(), EgDeparser()) pipe;
Switch(pipe) main;
