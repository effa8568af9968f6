/* two_level.p4 — the switch's role in a multi-rack job (spec section 8).
 *
 * TwoLevelRole decides, in pass 1, whether this switch aggregates the packet and on
 * which pool: level 0 for single-rack jobs and for level-0 frames of the job-local rack
 * this switch serves (edge role), level 1 for level-1 frames at the PS's own rack switch
 * (upper role); anything else passes to the PS unaggregated.  RackPromotion turns an
 * emitted level-0 frame that covers every worker of the rack into a level-1 frame; at
 * the upper switch that frame re-enters the pipeline (recirculation) for level 1. */
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

    apply {
        md.agg = 0;
        md.unserved = 0;
        md.level = 0;
        md.two_level = 0;
        md.b = hdr.atp.bitmap;
        md.n = hdr.atp.fan_in;
        if (!hdr.shim.isValid()) {
            if (md.has_local == 1) {
                md.agg = 1;                               /* single-rack job */
            } else {
                md.unserved = 1;    /* single-rack frame at a switch without its workers */
            }
        } else if (hdr.shim.level == 0) {
            if (md.has_local == 1 && hdr.shim.rack_id == md.local_rack) {
                md.agg = 1;                               /* edge role */
                md.two_level = 1;
                whole_rack.apply();
            }
        } else if (md.is_upper == 1) {
            md.agg = 1;                                   /* upper role */
            md.level = 1;
            md.b = hdr.shim.bitmap1;
            md.n = hdr.shim.fan_in1;
        }
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

    apply {
        rack_bit.apply();
        hdr.shim.level = 1;
        hdr.shim.bitmap1 = md.rack_bit;
    }
}

#endif
