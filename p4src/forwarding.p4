/* forwarding.p4 — where frames go: the L2 table for non-ATP frames (unknown -> drop),
 * and per job (app_id, ps_index) the port towards its PS and its multicast group
 * (spec sections 5 and 8).  Routes come from
 * reference.control_plane.SwitchConfig through p4src/control/forwarding.py. */
#ifndef ATP_FORWARDING_P4
#define ATP_FORWARDING_P4

control Forwarding(inout headers_t hdr, inout ingress_md_t md,
                   inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                   inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    action set_port(PortId_t port) {
        ig_tm_md.ucast_egress_port = port;
    }

    action drop() {
        ig_dprsr_md.drop_ctl = 1;
    }

    table l2 {
        key = { hdr.ethernet.dst_addr : exact; }
        actions = { set_port; drop; }
        default_action = drop();
        size = 4096;
    }

    /* to_ps: port towards the job's PS; mgid: PRE group of its workers (and, at the
     * upper switch, of the other racks); is_upper: this is the PS's own rack switch
     * (a whole-rack aggregate of its own rack re-enters as level 1).  What the switch
     * does with a packet is the two_level.role table's (two_level.p4), which runs beside
     * this one in stage 0. */
    action route(PortId_t to_ps, MulticastGroupId_t mgid, bit<8> is_upper) {
        md.routed = 1;
        md.to_ps = to_ps;
        md.mgid = mgid;
        md.is_upper = is_upper;
    }

    action unknown_job() {
        md.routed = 0;
    }

    table job_route {
        key = {
            hdr.atp.app_id   : exact;
            hdr.atp.ps_index : exact;
        }
        actions = { route; unknown_job; }
        default_action = unknown_job();
        size = 1024;
    }

    apply {
        if (hdr.atp.isValid()) {
            job_route.apply();
        } else {
            l2.apply();
        }
    }
}

#ifdef ATP_RELEASE
/* Release deviation 9.12 (rev. 4): a parameter packet is multicast only when it enters on
 * the port of a PS of its job, whatever ps_index it carries (the release's
 * multicast_table matches ack, app, ingress port and data_index, the flag bit, not the
 * PS; its set-up writes one entry per PS port of the job). One entry per (app_id, port
 * towards one of its PSes) (each route's to_ps: the PS's own port on its rack switch,
 * the uplink towards it elsewhere), from p4src/control/forwarding.py; a miss leaves
 * md.from_ps as the parser set it: 0, or 1 on the recirculated level-0 pass of a
 * parameter packet that came from a PS port (the recirculation port has no entry). */
control ParameterSource(inout headers_t hdr, inout ingress_md_t md,
                        in ingress_intrinsic_metadata_t ig_intr_md) {
    action from_ps() {
        md.from_ps = 1;
    }

    @stage(0)
    table ps_port {
        key = {
            hdr.atp.app_id          : exact;
            ig_intr_md.ingress_port : exact;
        }
        actions = { from_ps; NoAction; }
        default_action = NoAction();
        size = 1024;
    }

    apply {
        ps_port.apply();
    }
}
#endif

#endif
