/* parser.p4 — ingress and egress parsers.
 *
 * A frame from a port parses as Ethernet [IPv4 [shim] ATP values tail]; its values
 * 0..30 land in `vals` (pass 1 aggregates them) and 31..61 in `vals_post`.  A frame
 * from the recirculation port starts with a bridge header; for a second-half pass its
 * values 0..30 (already the aggregate) land in `vals_pre` and 31..61 in `vals`, so the
 * same RegisterActions, which read and write `vals`, serve both halves.
 * The parser also classifies the packet (md.kind, md.rack_key: what the role table
 * matches), which costs no MAU stage. */
#ifndef ATP_PARSER_P4
#define ATP_PARSER_P4

parser IngressParser(packet_in pkt, out headers_t hdr, out ingress_md_t md,
                     out ingress_intrinsic_metadata_t ig_intr_md) {
    /* Every metadata field the MAU reads before a table writes it starts here, so that
     * no stage is spent on initialisation (and no table writes a field twice). */
    state start {
        pkt.extract(ig_intr_md);
        pkt.advance(PORT_METADATA_SIZE);
        md.kind = KIND_PASS;
        md.rack_key = 0;
        md.op = OP_NONE;
        md.level = 0;
        md.second = 0;
        md.two_level = 0;
        md.param_again = 0;
        md.unserved = 0;
        md.routed = 0;
        md.mine = 0;
        md.released = 0;
        md.prev = 0;
        md.new_bits = 0;
        md.count = 0;
        md.ecn_old = 0;
        md.is_ecn = 0;
        md.b = 0;
        md.n = 0;
        md.whole_known = 0;
        md.promotable = 0;
        md.rack_bit = 0;
        md.promote = 0;
        md.from_ps = 0;
        md.sticky_base = 0x7fffffff;
        transition select(ig_intr_md.ingress_port[8:7]) {     /* its pipe (spec 8a) */
            1: in_pipe_1;
            2: in_pipe_2;
            3: in_pipe_3;
            default: in_pipe_0;
        }
    }

    /* the recirculation port of the frame's pipe, and whether the frame came from it */
    state in_pipe_0 {
        md.recirc_port = RECIRC_PORT;
        transition recirculated_or_not;
    }

    state in_pipe_1 {
        md.recirc_port = RECIRC_PORT | 0x080;
        transition recirculated_or_not;
    }

    state in_pipe_2 {
        md.recirc_port = RECIRC_PORT | 0x100;
        transition recirculated_or_not;
    }

    state in_pipe_3 {
        md.recirc_port = RECIRC_PORT | 0x180;
        transition recirculated_or_not;
    }

    state recirculated_or_not {
        transition select(ig_intr_md.ingress_port[6:0]) {
            RECIRC_LOCAL_PORT: parse_bridge;
            default: parse_ethernet;
        }
    }

    state parse_bridge {
        pkt.extract(hdr.bridge);
        transition select(hdr.bridge.kind) {
            BRIDGE_SECOND_HALF: parse_second_half;
            BRIDGE_PARAM_LEVEL0: parse_param_level0_from_ps;
#ifdef ATP_RELEASE
            BRIDGE_PARAM_LEVEL0_STRAY: parse_param_level0;
#endif
            default: parse_ethernet;                  /* BRIDGE_LEVEL1_ENTRY: a new frame */
        }
    }

    state parse_second_half {
        md.kind = KIND_SECOND;
        md.second = 1;
        md.level = hdr.bridge.level;
        md.promote = hdr.bridge.promote;
        transition parse_ethernet_second;
    }

    /* the values stay where they are (no value register runs in this pass); pass 1 found
     * it came from its PS (the release build, 9.12, tells the stray ones apart by kind) */
    state parse_param_level0_from_ps {
        md.from_ps = 1;
        transition parse_param_level0;
    }

    state parse_param_level0 {
        md.kind = KIND_PARAM_L0;
        transition parse_ethernet_second;
    }

    /* first pass (or a level-1 re-entry) */
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_ATP: parse_ipv4;
            ETHERTYPE_ATP_TWO_LEVEL: parse_ipv4_shim;
            default: accept;
        }
    }

    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        pkt.extract(hdr.atp);
        transition select(hdr.atp.ack, hdr.atp.overflow, hdr.atp.resend) {
            (0, 0, _): kind_gradient;
            (0, 1, _): parse_values;                  /* 4.2 float mode */
            (1, 1, 0): parse_values;                  /* 5 float request */
            (1, _, _): kind_param;
        }
    }

    state parse_ipv4_shim {
        pkt.extract(hdr.ipv4);
        pkt.extract(hdr.shim);
        pkt.extract(hdr.atp);
        transition select(hdr.atp.ack, hdr.atp.overflow, hdr.atp.resend, hdr.shim.level) {
            (0, 0, _, 0): kind_gradient_level0;
            (0, 0, _, _): kind_gradient_level1;
            (0, 1, _, _): parse_values;
            (1, 1, 0, _): parse_values;
            (1, _, _, _): kind_param_shim;
        }
    }

    state kind_gradient {
        md.kind = KIND_GRADIENT;
        transition parse_values;
    }

    state kind_gradient_level0 {
        md.kind = KIND_GRADIENT_L0;
        md.rack_key = hdr.shim.rack_id;
        transition parse_values;
    }

    state kind_gradient_level1 {
        md.kind = KIND_GRADIENT_L1;
        transition parse_values;
    }

    state kind_param {
        md.kind = KIND_PARAM;
        transition parse_values;
    }

    state kind_param_shim {
        md.kind = KIND_PARAM_SHIM;
        transition parse_values;
    }

    state parse_values {
        pkt.extract(hdr.vals);
        pkt.extract(hdr.vals_post);
        pkt.extract(hdr.tail);
        transition accept;
    }

    /* a recirculated pass: the same layout, values 31..61 in `vals` */
    state parse_ethernet_second {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_ATP_TWO_LEVEL: parse_ipv4_shim_second;
            default: parse_ipv4_second;
        }
    }

    state parse_ipv4_second {
        pkt.extract(hdr.ipv4);
        transition parse_atp_second;
    }

    state parse_ipv4_shim_second {
        pkt.extract(hdr.ipv4);
        pkt.extract(hdr.shim);
        transition parse_atp_second;
    }

    state parse_atp_second {
        pkt.extract(hdr.atp);
        pkt.extract(hdr.vals_pre);
        pkt.extract(hdr.vals);
        pkt.extract(hdr.tail);
        transition accept;
    }
}

/* Egress only touches the ECN bits; packets bound for the recirculation port are not
 * parsed at all (they go round untouched). */
parser EgressParser(packet_in pkt, out egress_headers_t hdr, out egress_md_t md,
                    out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        pkt.extract(eg_intr_md);
        transition select(eg_intr_md.egress_port[6:0]) {
            RECIRC_LOCAL_PORT: accept;
            default: parse_ethernet;
        }
    }

    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_ATP: parse_ipv4_atp;
            ETHERTYPE_ATP_TWO_LEVEL: parse_ipv4_shim;
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }

    state parse_ipv4_atp {
        pkt.extract(hdr.ipv4);
        pkt.extract(hdr.atp);
        transition accept;
    }

    state parse_ipv4_shim {
        pkt.extract(hdr.ipv4);
        pkt.extract(hdr.shim);
        pkt.extract(hdr.atp);
        transition accept;
    }
}

#endif
