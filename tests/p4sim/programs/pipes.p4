// Per-pipe state: an ingress and an egress register counting packets by ingress and
// egress port, a forwarding table (dst -> port or multicast group), and a counter.
#include <core.p4>
#include <tna.p4>

header eth_h { bit<48> dst; bit<48> src; bit<16> etype; }
header tag_h { bit<8> passes; bit<8> ig_pipe_seen; }
struct headers_t { eth_h eth; tag_h tag; }
struct meta_t { bit<8> x; }

parser IgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        pkt.extract(ig_intr_md);
        pkt.advance(PORT_METADATA_SIZE);
        pkt.extract(hdr.eth);
        pkt.extract(hdr.tag);
        transition accept;
    }
}

control Ingress(inout headers_t hdr, inout meta_t md,
                in ingress_intrinsic_metadata_t ig_intr_md,
                in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    Register<bit<32>, bit<9>>(512, 0) seen_in;
    RegisterAction<bit<32>, bit<9>, bit<32>>(seen_in) bump_in = {
        void apply(inout bit<32> v, out bit<32> r) { v = v + 1; r = v; }
    };
    Counter<bit<32>, bit<9>>(512, CounterType_t.PACKETS) frames;
    action to_port(PortId_t port) { ig_tm_md.ucast_egress_port = port; }
    action to_group(MulticastGroupId_t mgid) { ig_tm_md.mcast_grp_a = mgid; }
    table forward {
        key = { hdr.eth.dst : exact; }
        actions = { to_port; to_group; NoAction; }
        default_action = NoAction;
        size = 64;
    }
    apply {
        bump_in.execute(ig_intr_md.ingress_port);
        frames.count(ig_intr_md.ingress_port);
        hdr.tag.passes = hdr.tag.passes + 1;
        forward.apply();
    }
}

control IgDeparser(packet_out pkt, inout headers_t hdr, in meta_t md,
                   in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply { pkt.emit(hdr); }
}

parser EgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out egress_intrinsic_metadata_t eg_intr_md) {
    state start { pkt.extract(eg_intr_md); pkt.extract(hdr.eth); pkt.extract(hdr.tag); transition accept; }
}

control Egress(inout headers_t hdr, inout meta_t md,
               in egress_intrinsic_metadata_t eg_intr_md,
               in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
               inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
               inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    Register<bit<32>, bit<9>>(512, 0) seen_out;
    RegisterAction<bit<32>, bit<9>, bit<32>>(seen_out) bump_out = {
        void apply(inout bit<32> v) { v = v + 1; }
    };
    apply { bump_out.execute(eg_intr_md.egress_port); }
}

control EgDeparser(packet_out pkt, inout headers_t hdr, in meta_t md,
                   in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply { pkt.emit(hdr); }
}

Pipeline(IgParser(), Ingress(), IgDeparser(), EgParser(), Egress(), EgDeparser()) pipe;
Switch(pipe) main;
