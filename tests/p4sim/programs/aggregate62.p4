/* Benchmark / ATP-shaped program: Ethernet / IPv4 / an aggregation header carrying 62
 * int<32> values; one RegisterAction per value (saturating add into an aggregator
 * slot), the shape of ATP's switch program.  Used by benchmarks/p4sim.py and tests. */
#include <core.p4>
#include <tna.p4>

#define NUM_AGGREGATORS 1024

header ethernet_h { bit<48> dst_addr; bit<48> src_addr; bit<16> ether_type; }
header ipv4_h {
    bit<4> version; bit<4> ihl; bit<6> dscp; bit<2> ecn; bit<16> total_len;
    bit<16> identification; bit<3> flags; bit<13> frag_offset; bit<8> ttl;
    bit<8> protocol; bit<16> hdr_checksum; bit<32> src_addr; bit<32> dst_addr;
}

#define V(i) int<32> v##i;
header agg_h {
    bit<32> bitmap;
    bit<8> fan_in;
    bit<8> flags;
    bit<16> app_id;
    bit<16> seq;
    bit<16> agtr;
    V(0)
    V(1)
    V(2)
    V(3)
    V(4)
    V(5)
    V(6)
    V(7)
    V(8)
    V(9)
    V(10)
    V(11)
    V(12)
    V(13)
    V(14)
    V(15)
    V(16)
    V(17)
    V(18)
    V(19)
    V(20)
    V(21)
    V(22)
    V(23)
    V(24)
    V(25)
    V(26)
    V(27)
    V(28)
    V(29)
    V(30)
    V(31)
    V(32)
    V(33)
    V(34)
    V(35)
    V(36)
    V(37)
    V(38)
    V(39)
    V(40)
    V(41)
    V(42)
    V(43)
    V(44)
    V(45)
    V(46)
    V(47)
    V(48)
    V(49)
    V(50)
    V(51)
    V(52)
    V(53)
    V(54)
    V(55)
    V(56)
    V(57)
    V(58)
    V(59)
    V(60)
    V(61)
}

struct headers_t { ethernet_h ethernet; ipv4_h ipv4; agg_h agg; }
struct meta_t { bit<16> idx; bit<32> count; }

parser IgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        pkt.extract(ig_intr_md);
        pkt.advance(PORT_METADATA_SIZE);
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            0xFD: parse_agg;
            default: accept;
        }
    }
    state parse_agg {
        pkt.extract(hdr.agg);
        transition accept;
    }
}

#define AGG_REG(i)                                                           \
    Register<int<32>, bit<16>>(NUM_AGGREGATORS) agg_##i;                     \
    RegisterAction<int<32>, bit<16>, int<32>>(agg_##i) add_##i = {          \
        void apply(inout int<32> value, out int<32> result) {               \
            value = value |+| hdr.agg.v##i;                                 \
            result = value;                                                 \
        }                                                                   \
    };
#define AGG_APPLY(i) hdr.agg.v##i = add_##i.execute(md.idx);

control Ingress(inout headers_t hdr, inout meta_t md,
                in ingress_intrinsic_metadata_t ig_intr_md,
                in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    Register<bit<32>, bit<16>>(NUM_AGGREGATORS) counts;
    RegisterAction<bit<32>, bit<16>, bit<32>>(counts) count_one = {
        void apply(inout bit<32> value, out bit<32> result) {
            value = value + 1;
            result = value;
        }
    };
    AGG_REG(0)
    AGG_REG(1)
    AGG_REG(2)
    AGG_REG(3)
    AGG_REG(4)
    AGG_REG(5)
    AGG_REG(6)
    AGG_REG(7)
    AGG_REG(8)
    AGG_REG(9)
    AGG_REG(10)
    AGG_REG(11)
    AGG_REG(12)
    AGG_REG(13)
    AGG_REG(14)
    AGG_REG(15)
    AGG_REG(16)
    AGG_REG(17)
    AGG_REG(18)
    AGG_REG(19)
    AGG_REG(20)
    AGG_REG(21)
    AGG_REG(22)
    AGG_REG(23)
    AGG_REG(24)
    AGG_REG(25)
    AGG_REG(26)
    AGG_REG(27)
    AGG_REG(28)
    AGG_REG(29)
    AGG_REG(30)
    AGG_REG(31)
    AGG_REG(32)
    AGG_REG(33)
    AGG_REG(34)
    AGG_REG(35)
    AGG_REG(36)
    AGG_REG(37)
    AGG_REG(38)
    AGG_REG(39)
    AGG_REG(40)
    AGG_REG(41)
    AGG_REG(42)
    AGG_REG(43)
    AGG_REG(44)
    AGG_REG(45)
    AGG_REG(46)
    AGG_REG(47)
    AGG_REG(48)
    AGG_REG(49)
    AGG_REG(50)
    AGG_REG(51)
    AGG_REG(52)
    AGG_REG(53)
    AGG_REG(54)
    AGG_REG(55)
    AGG_REG(56)
    AGG_REG(57)
    AGG_REG(58)
    AGG_REG(59)
    AGG_REG(60)
    AGG_REG(61)
    action set_port(PortId_t port) { ig_tm_md.ucast_egress_port = port; }
    table forward {
        key = { hdr.ethernet.dst_addr : exact; }
        actions = { set_port; NoAction; }
        default_action = NoAction();
        size = 1024;
    }
    apply {
        forward.apply();
        if (hdr.agg.isValid()) {
            md.idx = hdr.agg.agtr & (NUM_AGGREGATORS - 1);
            md.count = count_one.execute(md.idx);
            AGG_APPLY(0)
            AGG_APPLY(1)
            AGG_APPLY(2)
            AGG_APPLY(3)
            AGG_APPLY(4)
            AGG_APPLY(5)
            AGG_APPLY(6)
            AGG_APPLY(7)
            AGG_APPLY(8)
            AGG_APPLY(9)
            AGG_APPLY(10)
            AGG_APPLY(11)
            AGG_APPLY(12)
            AGG_APPLY(13)
            AGG_APPLY(14)
            AGG_APPLY(15)
            AGG_APPLY(16)
            AGG_APPLY(17)
            AGG_APPLY(18)
            AGG_APPLY(19)
            AGG_APPLY(20)
            AGG_APPLY(21)
            AGG_APPLY(22)
            AGG_APPLY(23)
            AGG_APPLY(24)
            AGG_APPLY(25)
            AGG_APPLY(26)
            AGG_APPLY(27)
            AGG_APPLY(28)
            AGG_APPLY(29)
            AGG_APPLY(30)
            AGG_APPLY(31)
            AGG_APPLY(32)
            AGG_APPLY(33)
            AGG_APPLY(34)
            AGG_APPLY(35)
            AGG_APPLY(36)
            AGG_APPLY(37)
            AGG_APPLY(38)
            AGG_APPLY(39)
            AGG_APPLY(40)
            AGG_APPLY(41)
            AGG_APPLY(42)
            AGG_APPLY(43)
            AGG_APPLY(44)
            AGG_APPLY(45)
            AGG_APPLY(46)
            AGG_APPLY(47)
            AGG_APPLY(48)
            AGG_APPLY(49)
            AGG_APPLY(50)
            AGG_APPLY(51)
            AGG_APPLY(52)
            AGG_APPLY(53)
            AGG_APPLY(54)
            AGG_APPLY(55)
            AGG_APPLY(56)
            AGG_APPLY(57)
            AGG_APPLY(58)
            AGG_APPLY(59)
            AGG_APPLY(60)
            AGG_APPLY(61)
        }
    }
}

control IgDeparser(packet_out pkt, inout headers_t hdr, in meta_t md,
                   in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply { pkt.emit(hdr); }
}

parser EgParser(packet_in pkt, out headers_t hdr, out meta_t md,
                out egress_intrinsic_metadata_t eg_intr_md) {
    state start { pkt.extract(eg_intr_md); transition accept; }
}
control Egress(inout headers_t hdr, inout meta_t md, in egress_intrinsic_metadata_t eg_intr_md,
               in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
               inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
               inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) { apply { } }
control EgDeparser(packet_out pkt, inout headers_t hdr, in meta_t md,
                   in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) { apply { } }

Pipeline(IgParser(), Ingress(), IgDeparser(), EgParser(), Egress(), EgDeparser()) pipe;
Switch(pipe) main;
