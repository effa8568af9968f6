/* two_level.p4 — the switch's role in a job (spec sections 4, 5 and 8).
 *
 * TwoLevelRole.role decides, in stage 0 of pass 1, what this switch does with the
 * packet and on which pool: its key is the job and what the parser found (md.kind,
 * md.rack_key), its entries come from the control plane (p4src/control/two_level.py)
 * per job: level 0 for single-rack jobs and for level-0 frames of the job-local rack
 * this switch serves (edge role), level 1 for level-1 frames at the PS's own rack switch
 * (upper role), the release of either level for parameter packets; anything else
 * (no entry) passes to the PS or the workers unaggregated.  Deciding the role by a
 * lookup rather than by conditions on the route's data saves the stages between the
 * route and the aggregator.  RackPromotion turns an emitted level-0 frame that covers
 * every worker of the rack into a level-1 frame; at the upper switch that frame
 * re-enters the pipeline (recirculation) for level 1. */
#ifndef ATP_TWO_LEVEL_P4
#define ATP_TWO_LEVEL_P4

control TwoLevelRole(inout headers_t hdr, inout ingress_md_t md) {
    action set_whole(bit<32> mask) {
        md.whole = mask;
        md.whole_known = 1;
    }

    action no_whole() {
        md.whole_known = 0;
    }

    /* (1 << fan_in) - 1: the bitmap of a whole rack */
    table whole_rack {
        key = { hdr.atp.fan_in : exact; }
        actions = { set_whole; no_whole; }
        default_action = no_whole();
        size = 64;
        const entries = {
            0 : set_whole(32w0x00000000);
            1 : set_whole(32w0x00000001);
            2 : set_whole(32w0x00000003);
            3 : set_whole(32w0x00000007);
            4 : set_whole(32w0x0000000f);
            5 : set_whole(32w0x0000001f);
            6 : set_whole(32w0x0000003f);
            7 : set_whole(32w0x0000007f);
            8 : set_whole(32w0x000000ff);
            9 : set_whole(32w0x000001ff);
            10 : set_whole(32w0x000003ff);
            11 : set_whole(32w0x000007ff);
            12 : set_whole(32w0x00000fff);
            13 : set_whole(32w0x00001fff);
            14 : set_whole(32w0x00003fff);
            15 : set_whole(32w0x00007fff);
            16 : set_whole(32w0x0000ffff);
            17 : set_whole(32w0x0001ffff);
            18 : set_whole(32w0x0003ffff);
            19 : set_whole(32w0x0007ffff);
            20 : set_whole(32w0x000fffff);
            21 : set_whole(32w0x001fffff);
            22 : set_whole(32w0x003fffff);
            23 : set_whole(32w0x007fffff);
            24 : set_whole(32w0x00ffffff);
            25 : set_whole(32w0x01ffffff);
            26 : set_whole(32w0x03ffffff);
            27 : set_whole(32w0x07ffffff);
            28 : set_whole(32w0x0fffffff);
            29 : set_whole(32w0x1fffffff);
            30 : set_whole(32w0x3fffffff);
            31 : set_whole(32w0x7fffffff);
            32 : set_whole(32w0xffffffff);
        }
    }

    /* a gradient packet on the level-0 pool; two_level: an edge switch (section 8) */
    action aggregate_level0(bit<8> two_level) {
        md.op = OP_GRADIENT;
        md.level = 0;
        md.b = hdr.atp.bitmap;
        md.n = hdr.atp.fan_in;
        md.two_level = two_level;
    }

    /* a level-1 frame at the upper switch: bitmap1 / fan_in1 on the level-1 pool */
    action aggregate_level1() {
        md.op = OP_GRADIENT;
        md.level = 1;
        md.b = hdr.shim.bitmap1;
        md.n = hdr.shim.fan_in1;
    }

    /* a parameter packet releases its level-0 aggregator */
    action release_level0() {
        md.op = OP_PARAM;
        md.level = 0;
    }

    /* ... its level-1 aggregator at the upper switch; param_again: the level-0 one of
     * this switch's own rack next (recirculated) */
    action release_level1(bit<8> param_again) {
        md.op = OP_PARAM;
        md.level = 1;
        md.param_again = param_again;
    }

    /* a single-rack frame at a switch without the job's workers: dropped */
    action unserved() {
        md.unserved = 1;
    }

    action pass() {
        md.op = OP_NONE;
    }

    @stage(0)
    table role {
        key = {
            hdr.atp.app_id   : exact;
            hdr.atp.ps_index : exact;
            md.kind          : exact;
            md.rack_key      : exact;
        }
        actions = { aggregate_level0; aggregate_level1; release_level0; release_level1;
                    unserved; pass; }
        default_action = pass();
        size = 4096;
    }

    apply {
        role.apply();
        whole_rack.apply();
    }
}

control RackPromotion(inout headers_t hdr, inout ingress_md_t md) {
    action set_rack_bit(bit<32> mask) {
        md.rack_bit = mask;
    }

    action no_rack_bit() {
        md.rack_bit = 0;
    }

    /* 1 << rack_id */
    table rack_bit {
        key = { hdr.shim.rack_id : exact; }
        actions = { set_rack_bit; no_rack_bit; }
        default_action = no_rack_bit();
        size = 64;
        const entries = {
            0 : set_rack_bit(32w0x00000001);
            1 : set_rack_bit(32w0x00000002);
            2 : set_rack_bit(32w0x00000004);
            3 : set_rack_bit(32w0x00000008);
            4 : set_rack_bit(32w0x00000010);
            5 : set_rack_bit(32w0x00000020);
            6 : set_rack_bit(32w0x00000040);
            7 : set_rack_bit(32w0x00000080);
            8 : set_rack_bit(32w0x00000100);
            9 : set_rack_bit(32w0x00000200);
            10 : set_rack_bit(32w0x00000400);
            11 : set_rack_bit(32w0x00000800);
            12 : set_rack_bit(32w0x00001000);
            13 : set_rack_bit(32w0x00002000);
            14 : set_rack_bit(32w0x00004000);
            15 : set_rack_bit(32w0x00008000);
            16 : set_rack_bit(32w0x00010000);
            17 : set_rack_bit(32w0x00020000);
            18 : set_rack_bit(32w0x00040000);
            19 : set_rack_bit(32w0x00080000);
            20 : set_rack_bit(32w0x00100000);
            21 : set_rack_bit(32w0x00200000);
            22 : set_rack_bit(32w0x00400000);
            23 : set_rack_bit(32w0x00800000);
            24 : set_rack_bit(32w0x01000000);
            25 : set_rack_bit(32w0x02000000);
            26 : set_rack_bit(32w0x04000000);
            27 : set_rack_bit(32w0x08000000);
            28 : set_rack_bit(32w0x10000000);
            29 : set_rack_bit(32w0x20000000);
            30 : set_rack_bit(32w0x40000000);
            31 : set_rack_bit(32w0x80000000);
        }
    }

    /* stage 0: the rack's bit; the output (atp.p4) writes it into the promoted frame */
    apply {
        rack_bit.apply();
    }
}

#endif
