/* parser.p4 — ingress and egress parsers.
 *
 * A frame from a port parses as Ethernet [IPv4 [shim] ATP values tail]; its values
 * 0..30 land in `vals` (pass 1 aggregates them) and 31..61 in `vals_post`.  A frame
 * from the recirculation port starts with a bridge header; for a second-half pass its
 * values 0..30 (already the aggregate) land in `vals_pre` and 31..61 in `vals`, so the
 * same RegisterActions, which read and write `vals`, serve both halves. */
#ifndef ATP_PARSER_P4
#define ATP_PARSER_P4

parser IngressParser(packet_in pkt, out headers_t hdr, out ingress_md_t md,
                     out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        pkt.extract(ig_intr_md);
        pkt.advance(PORT_METADATA_SIZE);
        transition select(ig_intr_md.ingress_port) {
            RECIRC_PORT: parse_bridge;
            default: parse_ethernet;
        }
    }

    state parse_bridge {
        pkt.extract(hdr.bridge);
        transition select(hdr.bridge.kind) {
            BRIDGE_SECOND_HALF: parse_ethernet_second;
            default: parse_ethernet;
        }
    }

    /* first pass (or a re-entry / parameter release pass) */
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
        transition parse_atp;
    }

    state parse_ipv4_shim {
        pkt.extract(hdr.ipv4);
        pkt.extract(hdr.shim);
        transition parse_atp;
    }

    state parse_atp {
        pkt.extract(hdr.atp);
        pkt.extract(hdr.vals);
        pkt.extract(hdr.vals_post);
        pkt.extract(hdr.tail);
        transition accept;
    }

    /* second pass: the same layout, the other half active */
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
        transition select(eg_intr_md.egress_port) {
            RECIRC_PORT: accept;
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
