/* Construct family: TNA table implementations and direct resources. A DirectRegister
 * with a DirectRegisterAction per entry; an Alpm lpm table and an Atcam table (with an
 * atcam_partition_index key): Tofino's storage, the same lookup. A Meter and a
 * DirectMeter (p4sim's colour model: RFC 2698 on the injection timestamps). */
#include "common.p4"

header cmd_h {
    bit<8> part; bit<32> addr; bit<32> count; bit<8> route; bit<8> tag; bit<8> color; bit<8> dcolor;
}
struct headers_t { ethernet_h ethernet; cmd_h cmd; }
struct meta_t { bit<8> unused; }

parser IgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        TNA_INGRESS_PROLOGUE(pkt, ig_intr_md);
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.cmd);
        transition accept;
    }
}

control Ingress(inout headers_t hdr, inout meta_t md,
                in ingress_intrinsic_metadata_t ig_intr_md,
                in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    DirectRegister<bit<32>>(32w100) seen;
    DirectRegisterAction<bit<32>, bit<32>>(seen) bump = {
        void apply(inout bit<32> v, out bit<32> rv) { v = v + 1; rv = v; }
    };
    action count() { hdr.cmd.count = bump.execute(); }
    table per_ether_type {
        key = { hdr.ethernet.ether_type : exact; }
        actions = { count; }
        registers = seen;
        default_action = count;
        size = 16;
    }

    Alpm(number_partitions = 1024, subtrees_per_partition = 2) algo_lpm;
    action route(bit<8> r) { hdr.cmd.route = r; }
    table routes {
        key = { hdr.cmd.addr : lpm; }
        actions = { route; @defaultonly NoAction; }
        alpm = algo_lpm;
        default_action = NoAction;
        size = 1024;
    }

    Atcam(number_partitions = 16) parts;
    action tag(bit<8> t) { hdr.cmd.tag = t; }
    table tagged {
        key = { hdr.cmd.part : atcam_partition_index; hdr.cmd.addr : ternary; }
        actions = { tag; @defaultonly NoAction; }
        atcam = parts;
        default_action = NoAction;
        size = 1024;
    }

    Meter<bit<4>>(16, MeterType_t.BYTES) per_part;
    DirectMeter(MeterType_t.PACKETS) dm;
    action police() { hdr.cmd.dcolor = dm.execute(); }
    table policed {
        key = { hdr.ethernet.src_addr : exact; }
        actions = { police; @defaultonly NoAction; }
        meters = dm;
        default_action = NoAction;
        size = 16;
    }

    apply {
        ig_tm_md.ucast_egress_port = 1;
        hdr.cmd.color = per_part.execute(hdr.cmd.part[3:0]);
        policed.apply();
        per_ether_type.apply();
        routes.apply();
        tagged.apply();
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
