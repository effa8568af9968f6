/* headers.p4 — the wire format of spec section 2, byte for byte, and the metadata the
 * passes share.  Values are split in two 31-element headers so that one set of
 * RegisterActions serves both halves: the ingress parser extracts the half a pass
 * aggregates into `vals` and the other half into `vals_pre` / `vals_post`, which keep
 * its place in the frame (see parser.p4). */
#ifndef ATP_HEADERS_P4
#define ATP_HEADERS_P4

const bit<16> ETHERTYPE_ATP = 0x0700;
const bit<16> ETHERTYPE_ATP_TWO_LEVEL = 0x0701;
const bit<16> ETHERTYPE_IPV4 = 0x0800;

/* Tofino 1: pipe 0's recirculation port. */
const PortId_t RECIRC_PORT = 68;
/* A Tofino has 2 or 4 pipes (spec 8a): port p is in pipe p >> 7, and each pipe has
 * its own recirculation port, RECIRC_PORT's place in the pipe's 128 ports. A frame
 * recirculates in the pipe it entered, where its job's aggregators are: the parser
 * sets md.recirc_port by the ingress port's pipe (bf-p4c fits no (port & mask) | 68
 * into one action). */
const bit<7> RECIRC_LOCAL_PORT = 68;

/* what a recirculated packet is here for (bridge_h.kind) */
const bit<8> BRIDGE_SECOND_HALF = 1;    /* pass 2: the values 31..61 of this aggregation */
const bit<8> BRIDGE_LEVEL1_ENTRY = 2;   /* a whole-rack aggregate re-enters as level 1 */
const bit<8> BRIDGE_PARAM_LEVEL0 = 3;   /* parameter packet: release the level-0 aggregator */
/* ... of a parameter packet that did not come from its PS's port: dropped after (9.12) */
const bit<8> BRIDGE_PARAM_LEVEL0_STRAY = 4;

/* what the parser found (md.kind): with md.rack_key, the key of Ingress.two_level.role */
const bit<8> KIND_PASS = 0;          /* float mode or a float request: no state (4.2, 5) */
const bit<8> KIND_GRADIENT = 1;      /* gradient packet, no shim (a single-rack job) */
const bit<8> KIND_GRADIENT_L0 = 2;   /* gradient packet, shim level 0 (rack_key = rack_id) */
const bit<8> KIND_GRADIENT_L1 = 3;   /* gradient packet, shim level 1 */
const bit<8> KIND_PARAM = 4;         /* parameter packet, no shim */
const bit<8> KIND_PARAM_SHIM = 5;    /* parameter packet with the shim */
const bit<8> KIND_PARAM_L0 = 6;      /* recirculated parameter packet: release level 0 */
const bit<8> KIND_SECOND = 7;        /* recirculated: pass 2, values 31..61 */

/* what the role table decides (md.op) */
const bit<8> OP_NONE = 0;            /* pass: no aggregator state */
const bit<8> OP_GRADIENT = 1;        /* sections 4.3-4.7 on md.level's pool */
const bit<8> OP_PARAM = 2;           /* section 5: release on md.level's pool */

/* what the value registers do in a pass (decided once, in pass 1) */
const bit<8> VOP_NONE = 0;
const bit<8> VOP_FIRST = 1;   /* first arrival: overwrite (4.6) */
const bit<8> VOP_ADD = 2;     /* sticky saturating add (4.6) */
const bit<8> VOP_READ = 3;    /* read the aggregate (a duplicate after completion) */

header ethernet_h {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header ipv4_h {
    bit<4>  version;
    bit<4>  ihl;
    bit<6>  dscp;
    bit<2>  ecn;
    bit<16> total_len;
    bit<16> identification;
    bit<3>  frag_flags;
    bit<13> frag_offset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdr_checksum;
    bit<32> src_addr;
    bit<32> dst_addr;
}

/* two-level shim (ethertype 0x0701), 8 bytes */
header shim_h {
    bit<32> bitmap1;
    bit<8>  fan_in1;
    bit<8>  level;
    bit<8>  rack_id;
    bit<8>  reserved;
}

/* the ATP layer up to the values: 14 bytes */
header atp_h {
    bit<32> bitmap;
    bit<8>  fan_in;
    bit<1>  overflow;
    bit<2>  ps_index;
    bit<1>  data_index;
    bit<1>  ecn;
    bit<1>  resend;
    bit<1>  collision;
    bit<1>  ack;
    bit<16> app_id;
    bit<16> seq;
    bit<16> agtr;
    bit<16> agtr2;
}

#define ATP_VALUE_FIELD(i) bit<32> v##i;
#define ATP_HALF_FIELDS \
    ATP_VALUE_FIELD(0)  ATP_VALUE_FIELD(1)  ATP_VALUE_FIELD(2)  ATP_VALUE_FIELD(3)  \
    ATP_VALUE_FIELD(4)  ATP_VALUE_FIELD(5)  ATP_VALUE_FIELD(6)  ATP_VALUE_FIELD(7)  \
    ATP_VALUE_FIELD(8)  ATP_VALUE_FIELD(9)  ATP_VALUE_FIELD(10) ATP_VALUE_FIELD(11) \
    ATP_VALUE_FIELD(12) ATP_VALUE_FIELD(13) ATP_VALUE_FIELD(14) ATP_VALUE_FIELD(15) \
    ATP_VALUE_FIELD(16) ATP_VALUE_FIELD(17) ATP_VALUE_FIELD(18) ATP_VALUE_FIELD(19) \
    ATP_VALUE_FIELD(20) ATP_VALUE_FIELD(21) ATP_VALUE_FIELD(22) ATP_VALUE_FIELD(23) \
    ATP_VALUE_FIELD(24) ATP_VALUE_FIELD(25) ATP_VALUE_FIELD(26) ATP_VALUE_FIELD(27) \
    ATP_VALUE_FIELD(28) ATP_VALUE_FIELD(29) ATP_VALUE_FIELD(30)

/* 31 of the 62 values (124 bytes) */
header atp_half_h {
    ATP_HALF_FIELDS
}

/* after the values: 12 bytes */
header atp_tail_h {
    bit<64> key;
    bit<32> tensor_len;
}

/* The decision record of a packet.  Pass 1 makes it valid and fills it; it goes on the
 * wire only in front of a recirculated frame (ingress deparser -> recirculation port ->
 * ingress parser), carrying the decision so that pass 2 keeps no control state of its
 * own (release deviation 9.2 is exactly such a copy); a frame that leaves drops it. */
header bridge_h {
    bit<8>  kind;
    bit<8>  vop;        /* what the value registers do (VOP_*) */
    bit<8>  emit;       /* 1: the frame leaves for the PS after this pass */
    bit<8>  promote;    /* 1: a whole rack: it goes up as a level-1 frame (section 8) */
    bit<8>  level;      /* the pool: 0 or 1 (section 8) */
}

struct headers_t {
    bridge_h   bridge;
    ethernet_h ethernet;
    ipv4_h     ipv4;
    shim_h     shim;
    atp_h      atp;
    atp_half_h vals_pre;    /* values 0..30 while pass 2 works on 31..61 */
    atp_half_h vals;        /* the half this pass aggregates */
    atp_half_h vals_post;   /* values 31..61 while pass 1 works on 0..30 */
    atp_tail_h tail;
}

struct ingress_md_t {
    bit<8>  kind;         /* KIND_*: set by the parser */
    PortId_t recirc_port; /* the recirculation port of the ingress port's pipe (parser) */
    bit<8>  rack_key;     /* the shim's rack_id for a level-0 gradient packet, else 0 */
    bit<8>  op;           /* OP_*: set by the role table */
    bit<32> id;           /* owner word: app_id << 16 | seq */
    bit<32> clock;        /* now (gradient) or now - aggregator_timeout (parameter) */
    bit<16> room;         /* P |-| agtr: 0 <=> agtr outside the pool (agtr >= P) */
    bit<ATP_CI_BITS> ci;  /* control-register index: level ++ agtr */
    bit<ATP_VI_BITS> vi;  /* value-register index: half ++ level ++ agtr */
    bit<32> b;            /* worker (or rack) bits of this level */
    bit<8>  n;            /* fan-in of this level */
    bit<32> prev;         /* bitmap before this packet */
    bit<32> new_bits;     /* b & ~prev, from the bitmap's twin */
    bit<32> merged;
    bit<32> whole;        /* (1 << fan_in) - 1 */
    bit<32> whole_diff;   /* merged ^ whole: 0 <=> the rack is complete */
    bit<8>  whole_known;  /* fan_in <= 32 */
    bit<8>  promotable;   /* an edge's level-0 aggregation with a known whole-rack mask */
    bit<32> rack_bit;     /* 1 << rack_id */
    bit<8>  count;
    bit<8>  ecn_old;
    bit<8>  is_ecn;
    bit<8>  mine;
    bit<8>  released;
    bit<8>  routed;
    bit<8>  unserved;     /* a single-rack frame where the job has no workers: dropped */
    bit<8>  level;
    bit<8>  two_level;    /* an edge switch's level-0 aggregation of a multi-rack job */
    bit<8>  is_upper;     /* the PS's own rack switch (job_route) */
    bit<8>  second;       /* this is pass 2 of an aggregation */
    bit<8>  param_again;  /* parameter packet: level 0 still to release */
    bit<8>  promote;      /* pass 2: hdr.bridge.promote, copied by the parser */
    PortId_t to_ps;
    bit<8>  from_ps;      /* release build: entered on the port of its PS (9.12) */
    MulticastGroupId_t mgid;
    int<32> sticky_base;  /* 2^31 - 1: (value - sticky_base) < 3 unsigned <=> sticky */
}

struct egress_headers_t {
    ethernet_h ethernet;
    ipv4_h     ipv4;
    shim_h     shim;
    atp_h      atp;
}

struct egress_md_t {
    bit<32> threshold;
    bit<32> depth;
    bit<32> depth_diff;   /* deq_qdepth - threshold: bit 31 clear <=> at or over */
}

#endif
