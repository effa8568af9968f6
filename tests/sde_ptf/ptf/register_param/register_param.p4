/* register_param: a per-source frame budget. A RegisterAction counts the frames of each
 * source (its low 10 MAC bits) up to a limit that the control plane sets at run time (a
 * RegisterParam); a frame over the budget is dropped, the others go to the port of the
 * forward table. Written as an SDE user writes a TNA program; run by tests/sde_ptf (PTF,
 * the SDE's BfRuntimeTest) on the softswitch, compiled by bf-p4c. */
#include <core.p4>
#include <tna.p4>

header ethernet_h {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

struct headers_t { ethernet_h ethernet; }
struct metadata_t { }

parser SwitchIngressParser(packet_in pkt, out headers_t hdr, out metadata_t md,
                           out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        pkt.extract(ig_intr_md);
        pkt.advance(PORT_METADATA_SIZE);
        transition parse_ethernet;
    }
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition accept;
    }
}

control SwitchIngress(inout headers_t hdr, inout metadata_t md,
                      in ingress_intrinsic_metadata_t ig_intr_md,
                      in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                      inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                      inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    RegisterParam<bit<32>>(2) budget;
    Register<bit<32>, bit<10>>(1024) used;
    RegisterAction<bit<32>, bit<10>, bit<8>>(used) spend = {
        void apply(inout bit<32> value, out bit<8> over) {
            if (value < budget.read()) {
                value = value + 1;
                over = 0;
            } else {
                over = 1;
            }
        }
    };

    action hit(PortId_t port) {
        ig_tm_md.ucast_egress_port = port;
    }
    action miss() {
        ig_dprsr_md.drop_ctl = 1;
    }
    table forward {
        key = { hdr.ethernet.dst_addr : exact; }
        actions = { hit; miss; }
        default_action = miss();
        size = 1024;
    }
    apply {
        forward.apply();
        if (spend.execute(hdr.ethernet.src_addr[9:0]) == 1) {
            ig_dprsr_md.drop_ctl = 1;
        }
    }
}

control SwitchIngressDeparser(packet_out pkt, inout headers_t hdr, in metadata_t md,
                              in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply { pkt.emit(hdr); }
}

parser SwitchEgressParser(packet_in pkt, out headers_t hdr, out metadata_t md,
                          out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        pkt.extract(eg_intr_md);
        transition accept;
    }
}

control SwitchEgress(inout headers_t hdr, inout metadata_t md,
                     in egress_intrinsic_metadata_t eg_intr_md,
                     in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
                     inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
                     inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    apply { }
}

control SwitchEgressDeparser(packet_out pkt, inout headers_t hdr, in metadata_t md,
                             in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply { }
}

Pipeline(SwitchIngressParser(), SwitchIngress(), SwitchIngressDeparser(),
         SwitchEgressParser(), SwitchEgress(), SwitchEgressDeparser()) pipe;

Switch(pipe) main;
