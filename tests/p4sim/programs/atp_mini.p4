/* An ATP-like aggregator (protocol spec section 4, reduced to 4 values per packet) to
 * exercise p4sim the way an in-network aggregation program uses TNA: per-aggregator
 * owner / bitmap / count registers with alternative RegisterActions chosen per packet,
 * sticky saturating value registers, completion -> unicast to the PS, absorption -> drop,
 * parameter packets -> multicast; egress ECN marking by queue depth. */
#include <core.p4>
#include <tna.p4>

#define POOL 64
#define ETHERTYPE_ATP 0x0700

header ethernet_h { bit<48> dst_addr; bit<48> src_addr; bit<16> ether_type; }
header ipv4_h {
    bit<4> version; bit<4> ihl; bit<6> dscp; bit<2> ecn; bit<16> total_len;
    bit<16> identification; bit<3> flags; bit<13> frag_offset; bit<8> ttl;
    bit<8> protocol; bit<16> hdr_checksum; bit<32> src_addr; bit<32> dst_addr;
}
header atp_h {
    bit<32> bitmap;
    bit<8>  fan_in;
    bit<1>  overflow; bit<2> ps_index; bit<1> data_index; bit<1> ecn; bit<1> resend;
    bit<1>  collision; bit<1> ack;
    bit<16> app_id;
    bit<16> seq;
    bit<16> agtr;
    bit<16> agtr2;
    int<32> v0; int<32> v1; int<32> v2; int<32> v3;
}

struct headers_t { ethernet_h ethernet; ipv4_h ipv4; atp_h atp; }
struct meta_t {
    bit<32> id;
    bit<16> idx;
    bit<1>  mine;
    bit<32> prev;
    bit<32> new_bits;
    bit<8>  count;
    bool    complete;
}

parser IgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        pkt.extract(ig_intr_md);
        pkt.advance(PORT_METADATA_SIZE);
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_ATP: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 { pkt.extract(hdr.ipv4); pkt.extract(hdr.atp); transition accept; }
}

#define VALUE_REG(i)                                                                 \
    Register<int<32>, bit<16>>(POOL) values_##i;                                    \
    RegisterAction<int<32>, bit<16>, int<32>>(values_##i) first_##i = {            \
        void apply(inout int<32> value, out int<32> rv) {                           \
            value = hdr.atp.v##i; rv = value;                                       \
        }                                                                           \
    };                                                                              \
    RegisterAction<int<32>, bit<16>, int<32>>(values_##i) add_##i = {              \
        void apply(inout int<32> value, out int<32> rv) {                           \
            if (value != 0x7fffffff && value != 0x80000000) {                       \
                value = value |+| hdr.atp.v##i;                                     \
            }                                                                       \
            rv = value;                                                             \
        }                                                                           \
    };                                                                              \
    RegisterAction<int<32>, bit<16>, int<32>>(values_##i) read_##i = {             \
        void apply(inout int<32> value, out int<32> rv) { rv = value; }            \
    };

#define VALUES(op) \
    hdr.atp.v0 = op##_0.execute(md.idx); hdr.atp.v1 = op##_1.execute(md.idx); \
    hdr.atp.v2 = op##_2.execute(md.idx); hdr.atp.v3 = op##_3.execute(md.idx);

control Ingress(inout headers_t hdr, inout meta_t md,
                in ingress_intrinsic_metadata_t ig_intr_md,
                in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    Register<bit<32>, bit<16>>(POOL) owner;
    RegisterAction<bit<32>, bit<16>, bit<1>>(owner) claim = {
        void apply(inout bit<32> value, out bit<1> rv) {
            if (value == 0 || value == md.id) { value = md.id; rv = 1; } else { rv = 0; }
        }
    };
    RegisterAction<bit<32>, bit<16>, bit<1>>(owner) release_if_mine = {
        void apply(inout bit<32> value, out bit<1> rv) {
            if (value == md.id) { value = 0; rv = 1; } else { rv = 0; }
        }
    };
    Register<bit<32>, bit<16>>(POOL) bitmap;
    RegisterAction<bit<32>, bit<16>, bit<32>>(bitmap) merge = {
        void apply(inout bit<32> value, out bit<32> rv) {
            rv = value;
            value = value | hdr.atp.bitmap;
        }
    };
    RegisterAction<bit<32>, bit<16>, bit<32>>(bitmap) flush = {
        void apply(inout bit<32> value, out bit<32> rv) { rv = value; value = 0; }
    };
    Register<bit<8>, bit<16>>(POOL) count;
    RegisterAction<bit<8>, bit<16>, bit<8>>(count) bump = {
        void apply(inout bit<8> value, out bit<8> rv) { value = value + 1; rv = value; }
    };
    RegisterAction<bit<8>, bit<16>, bit<8>>(count) peek = {
        void apply(inout bit<8> value, out bit<8> rv) { rv = value; }
    };
    RegisterAction<bit<8>, bit<16>, bit<8>>(count) zero = {
        void apply(inout bit<8> value, out bit<8> rv) { value = 0; rv = 0; }
    };
    VALUE_REG(0) VALUE_REG(1) VALUE_REG(2) VALUE_REG(3)

    action to_ps(PortId_t port) { ig_tm_md.ucast_egress_port = port; }
    action to_workers(MulticastGroupId_t mgid) { ig_tm_md.mcast_grp_a = mgid; }
    table ps_port {
        key = { hdr.atp.app_id : exact; hdr.atp.ps_index : exact; }
        actions = { to_ps; NoAction; }
        default_action = NoAction;
    }
    table job_group {
        key = { hdr.atp.app_id : exact; }
        actions = { to_workers; NoAction; }
        default_action = NoAction;
    }

    apply {
        if (!hdr.atp.isValid()) { ig_dprsr_md.drop_ctl = 1; exit; }
        md.id = hdr.atp.app_id ++ hdr.atp.seq;
        md.idx = hdr.atp.agtr % POOL;
        if (hdr.atp.ack == 1) {                    // parameter packet: release, multicast
            if (hdr.atp.overflow == 0 || hdr.atp.resend == 1) {
                release_if_mine.execute(md.idx);
                flush.execute(md.idx);
                zero.execute(md.idx);
            }
            job_group.apply();
            exit;
        }
        ps_port.apply();
        if (hdr.atp.overflow == 1) { exit; }      // float mode: straight to the PS
        if (hdr.atp.resend == 0) {
            md.mine = claim.execute(md.idx);
        } else {
            md.mine = release_if_mine.execute(md.idx);
        }
        if (md.mine == 0) {
            if (hdr.atp.resend == 0) { hdr.atp.collision = 1; }
            exit;
        }
        if (hdr.atp.resend == 1) {
            md.prev = flush.execute(md.idx);
            zero.execute(md.idx);
            md.complete = true;
        } else {
            md.prev = merge.execute(md.idx);
        }
        md.new_bits = hdr.atp.bitmap & ~md.prev;
        if (hdr.atp.resend == 0) {
            if (md.new_bits != 0) {
                md.count = bump.execute(md.idx);
                md.complete = md.count == hdr.atp.fan_in;
            } else {
                md.count = peek.execute(md.idx);
            }
        }
        if (md.new_bits != 0) {
            if (md.prev == 0) { VALUES(first) } else { VALUES(add) }
        } else if (md.complete || md.count == hdr.atp.fan_in) {
            VALUES(read)
        }
        if (md.complete || (md.new_bits == 0 && md.count == hdr.atp.fan_in)) {
            hdr.atp.bitmap = hdr.atp.bitmap | md.prev;
        } else {
            ig_dprsr_md.drop_ctl = 1;              // absorbed
        }
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
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_ATP: parse_atp;
            default: accept;
        }
    }
    state parse_atp { pkt.extract(hdr.ipv4); pkt.extract(hdr.atp); transition accept; }
}

control Egress(inout headers_t hdr, inout meta_t md, in egress_intrinsic_metadata_t eg_intr_md,
               in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
               inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
               inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    apply {
        if (eg_intr_md.deq_qdepth >= 100 && hdr.atp.isValid()) {
            hdr.ipv4.ecn = 3;
            hdr.atp.ecn = 1;
        }
    }
}

control EgDeparser(packet_out pkt, inout headers_t hdr, in meta_t md,
                   in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply { pkt.emit(hdr); }
}

Pipeline(IgParser(), Ingress(), IgDeparser(), EgParser(), Egress(), EgDeparser()) pipe;
Switch(pipe) main;
