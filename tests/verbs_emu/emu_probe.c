/* A small client of the verbs emulation for the tests: it sets the verbs up the way the
 * ATP release does and reports, as JSON lines, what an application would see.
 *
 *   emu_probe layout
 *   emu_probe send  HDR_HEX PAYLOAD_LEN MSS [--unregistered]
 *   emu_probe recv  MAC[,MAC...] COUNT LOG_STRIDES DEPTH REPOST TIMEOUT_MS
 *   emu_probe pin   CPU        (sched_setaffinity as the release calls it, linked like it)
 *
 * recv prints {"ready": true} once its flows are installed, then one line per frame it
 * polls (queue index, the CQE's wqe_id and wqe_counter, the frame in hex), then the
 * emulation's counters. It polls as the release does: read wqe_id, wqe_counter, wqe_id
 * (big-endian, bytes 2 and 60 of the CQE at the next of 8 slots), keep the snapshot only
 * if both wqe_ids agree, count new frames as the distance in (wqe_id, counter) from the
 * previous snapshot, and read them from consecutive strides of the ring; a distance of
 * zero or of a whole ring or more means nothing new. REPOST=1 reposts a WQE each time
 * its strides are all read. */
#define _GNU_SOURCE
#include <infiniband/verbs_exp.h>
#include <verbs_emu.h>

#include <arpa/inet.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CQ_DEPTH 8
#define STRIDE_LOG 9
#define CYCLE_WQES 65536u

static void fail(const char *what)
{
    fprintf(stderr, "emu_probe: %s failed (errno %d)\n", what, errno);
    exit(2);
}

static struct ibv_context *open_ctx(struct ibv_pd **pd)
{
    int n = 0;
    struct ibv_device **devs = ibv_get_device_list(&n);
    if (!devs || n < 2)
        fail("ibv_get_device_list (two devices)");
    struct ibv_context *ctx = ibv_open_device(devs[1]);
    if (!ctx)
        fail("ibv_open_device");
    *pd = ibv_alloc_pd(ctx);
    return ctx;
}

static void print_stats(void)
{
    struct ibv_emu_stats s;
    ibv_emu_get_stats(&s);
    printf("{\"stats\": {\"tx_posts\": %llu, \"tx_frames\": %llu, \"rx_frames\": %llu, "
           "\"rx_delivered\": %llu, \"rx_no_flow\": %llu, \"rx_no_wqe\": %llu, \"rx_not_ready\": %llu}}\n",
           (unsigned long long)s.tx_posts, (unsigned long long)s.tx_frames,
           (unsigned long long)s.rx_frames, (unsigned long long)s.rx_delivered,
           (unsigned long long)s.rx_no_flow, (unsigned long long)s.rx_no_wqe,
           (unsigned long long)s.rx_not_ready);
}

static int layout(void)
{
    struct ibv_pd *pd;
    struct ibv_context *ctx = open_ctx(&pd);
    struct ibv_exp_cq_init_attr attr;
    memset(&attr, 0, sizeof(attr));
    struct ibv_cq *cq = ibv_exp_create_cq(ctx, CQ_DEPTH / 2, NULL, NULL, 0, &attr);
    if (!cq)
        fail("ibv_exp_create_cq");
    uint8_t *base = (uint8_t *)cq;
    void *buf = *(void **)(base + ibv_emu_cq_buf_offset());
    unsigned log_size = base[ibv_emu_cq_log_size_offset()];
    printf("{\"cq_log_size\": %u, \"buf_offset\": %zu, \"log_size_offset\": %zu, \"buf_set\": %s, "
           "\"ibv_cq_first\": %s}\n", log_size, ibv_emu_cq_buf_offset(), ibv_emu_cq_log_size_offset(),
           buf ? "true" : "false", (void *)cq == (void *)base ? "true" : "false");
    return 0;
}

static size_t unhex(const char *hex, uint8_t *out, size_t cap)
{
    size_t n = 0;
    for (; hex[0] && hex[1] && n < cap; hex += 2)
        sscanf(hex, "%2hhx", &out[n++]);
    return n;
}

static int send_tso(const char *hdr_hex, size_t payload_len, unsigned mss, int unregistered)
{
    struct ibv_pd *pd;
    struct ibv_context *ctx = open_ctx(&pd);
    struct ibv_cq *scq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
    struct ibv_exp_qp_init_attr qa;
    memset(&qa, 0, sizeof(qa));
    qa.comp_mask = IBV_EXP_QP_INIT_ATTR_PD | IBV_EXP_QP_INIT_ATTR_MAX_TSO_HEADER;
    qa.send_cq = scq;
    qa.recv_cq = scq;
    qa.qp_type = IBV_QPT_RAW_PACKET;
    qa.pd = pd;
    qa.max_tso_header = 64;
    struct ibv_qp *qp = ibv_exp_create_qp(ctx, &qa);
    if (!qp)
        fail("ibv_exp_create_qp");
    struct ibv_qp_attr a;
    memset(&a, 0, sizeof(a));
    enum ibv_qp_state steps[] = {IBV_QPS_INIT, IBV_QPS_RTR, IBV_QPS_RTS};
    for (int i = 0; i < 3; i++) {
        a.qp_state = steps[i];
        a.port_num = 1;
        if (ibv_modify_qp(qp, &a, IBV_QP_STATE | (i == 0 ? IBV_QP_PORT : 0)))
            fail("ibv_modify_qp");
    }
    uint8_t hdr[64];
    size_t hdr_len = unhex(hdr_hex, hdr, sizeof(hdr));
    uint8_t *payload = calloc(1, payload_len + 1);
    for (size_t i = 0; i < payload_len; i++)
        payload[i] = (uint8_t)(i / mss + 1);  /* segment k carries byte k+1 */
    struct ibv_mr *mr = ibv_reg_mr(pd, payload, payload_len + 1, IBV_ACCESS_LOCAL_WRITE);
    struct ibv_sge sge = {(uint64_t)(uintptr_t)payload, (uint32_t)payload_len,
                          unregistered ? mr->lkey + 100 : mr->lkey};
    struct ibv_exp_send_wr wr, *bad = NULL;
    memset(&wr, 0, sizeof(wr));
    wr.wr_id = 7;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.exp_opcode = IBV_EXP_WR_TSO;
    wr.tso.mss = (uint16_t)mss;
    wr.tso.hdr_sz = (uint16_t)hdr_len;
    wr.tso.hdr = hdr;
    wr.exp_send_flags = IBV_SEND_SIGNALED;
    int ret = ibv_exp_post_send(qp, &wr, &bad);
    struct ibv_wc wc[4];
    int polled = ibv_poll_cq(scq, 4, wc);
    printf("{\"post\": %d, \"completions\": %d, \"wr_id\": %llu}\n", ret, polled,
           polled > 0 ? (unsigned long long)wc[0].wr_id : 0ULL);
    print_stats();
    return 0;
}

struct rxq {
    struct ibv_exp_wq *wq;
    struct ibv_exp_wq_family *family;
    volatile uint8_t *cqes;
    uint8_t *ring;
    struct ibv_sge *sge;
    uint32_t strides, depth, ring_entries;
    uint32_t cqe_idx, ring_head, in_wqe, sge_idx;
    uint64_t prev;   /* snapshot index of the last frame seen */
};

static uint64_t cycle(void) { return (uint64_t)CYCLE_WQES; }

static void snapshot(volatile uint8_t *cqe, uint16_t *id, uint16_t *counter)
{
    for (;;) {
        uint16_t id0 = *(volatile uint16_t *)(cqe + EMU_CQE_WQE_ID);
        uint16_t c = *(volatile uint16_t *)(cqe + EMU_CQE_WQE_COUNTER);
        __asm__ volatile("" ::: "memory");
        uint16_t id1 = *(volatile uint16_t *)(cqe + EMU_CQE_WQE_ID);
        if (id0 == id1) {
            *id = ntohs(id0);
            *counter = ntohs(c);
            return;
        }
    }
}

static void setup_rxq(struct ibv_context *ctx, struct ibv_pd *pd, struct rxq *q, const uint8_t mac[6],
                      unsigned log_strides, unsigned depth, int post)
{
    struct ibv_exp_cq_init_attr ca;
    memset(&ca, 0, sizeof(ca));
    struct ibv_cq *cq = ibv_exp_create_cq(ctx, CQ_DEPTH / 2, NULL, NULL, 0, &ca);
    struct ibv_exp_cq_attr cattr;
    memset(&cattr, 0, sizeof(cattr));
    cattr.comp_mask = IBV_EXP_CQ_ATTR_CQ_CAP_FLAGS;
    cattr.cq_cap_flags = IBV_EXP_CQ_IGNORE_OVERRUN;
    if (!cq || ibv_exp_modify_cq(cq, &cattr, IBV_EXP_CQ_CAP_FLAGS))
        fail("receive CQ");
    struct ibv_exp_wq_init_attr wa;
    memset(&wa, 0, sizeof(wa));
    wa.wq_type = IBV_EXP_WQT_RQ;
    wa.max_recv_wr = depth;
    wa.max_recv_sge = 1;
    wa.pd = pd;
    wa.cq = cq;
    wa.comp_mask = IBV_EXP_CREATE_WQ_MP_RQ;
    wa.mp_rq.use_shift = IBV_EXP_MP_RQ_NO_SHIFT;
    wa.mp_rq.single_wqe_log_num_of_strides = (uint8_t)log_strides;
    wa.mp_rq.single_stride_log_num_of_bytes = STRIDE_LOG;
    q->wq = ibv_exp_create_wq(ctx, &wa);
    if (!q->wq)
        fail("ibv_exp_create_wq");
    struct ibv_exp_wq_attr wqa;
    memset(&wqa, 0, sizeof(wqa));
    wqa.attr_mask = IBV_EXP_WQ_ATTR_STATE;
    wqa.wq_state = IBV_EXP_WQS_RDY;
    ibv_exp_modify_wq(q->wq, &wqa);
    enum ibv_exp_query_intf_status st;
    struct ibv_exp_query_intf_params qp_params;
    memset(&qp_params, 0, sizeof(qp_params));
    qp_params.intf_scope = IBV_EXP_INTF_GLOBAL;
    qp_params.intf = IBV_EXP_INTF_WQ;
    qp_params.obj = q->wq;
    q->family = ibv_exp_query_intf(ctx, &qp_params, &st);
    if (!q->family || st != IBV_EXP_INTF_STAT_OK)
        fail("ibv_exp_query_intf");
    struct ibv_exp_wq *tbl[1] = {q->wq};
    struct ibv_exp_rwq_ind_table_init_attr ia;
    memset(&ia, 0, sizeof(ia));
    ia.pd = pd;
    ia.ind_tbl = tbl;
    struct ibv_exp_rwq_ind_table *ind = ibv_exp_create_rwq_ind_table(ctx, &ia);
    struct ibv_exp_rx_hash_conf hc;
    memset(&hc, 0, sizeof(hc));
    hc.rx_hash_function = IBV_EXP_RX_HASH_FUNC_TOEPLITZ;
    hc.rx_hash_fields_mask = IBV_EXP_RX_HASH_DST_PORT_UDP;
    hc.rwq_ind_tbl = ind;
    struct ibv_exp_qp_init_attr qa;
    memset(&qa, 0, sizeof(qa));
    qa.comp_mask = IBV_EXP_QP_INIT_ATTR_CREATE_FLAGS | IBV_EXP_QP_INIT_ATTR_PD | IBV_EXP_QP_INIT_ATTR_RX_HASH;
    qa.rx_hash_conf = &hc;
    qa.pd = pd;
    qa.qp_type = IBV_QPT_RAW_PACKET;
    struct ibv_qp *rss = ibv_exp_create_qp(ctx, &qa);
    if (!rss)
        fail("RSS QP");
    q->strides = 1u << log_strides;
    q->depth = depth;
    q->ring_entries = q->strides * depth;
    size_t ring_bytes = (size_t)q->ring_entries << STRIDE_LOG;
    q->ring = aligned_alloc(4096, ring_bytes);
    memset(q->ring, 0, ring_bytes);
    struct ibv_mr *mr = ibv_reg_mr(pd, q->ring, ring_bytes, IBV_ACCESS_LOCAL_WRITE);
    uint8_t rule[sizeof(struct ibv_exp_flow_attr) + sizeof(struct ibv_exp_flow_spec_eth)];
    memset(rule, 0, sizeof(rule));
    struct ibv_exp_flow_attr *fa = (struct ibv_exp_flow_attr *)rule;
    fa->type = IBV_EXP_FLOW_ATTR_NORMAL;
    fa->size = sizeof(rule);
    fa->num_of_specs = 1;
    fa->port = 1;
    struct ibv_exp_flow_spec_eth *eth = (struct ibv_exp_flow_spec_eth *)(fa + 1);
    eth->type = IBV_EXP_FLOW_SPEC_ETH;
    eth->size = sizeof(*eth);
    memcpy(eth->val.dst_mac, mac, 6);
    memset(eth->mask.dst_mac, 0xff, 6);
    if (!ibv_exp_create_flow(rss, fa))
        fail("ibv_exp_create_flow");
    /* the release's CQE initialisation: the last CQ_DEPTH frames of the previous cycle */
    q->cqes = *(volatile uint8_t **)((uint8_t *)cq + ibv_emu_cq_buf_offset());
    for (uint32_t i = 0; i < CQ_DEPTH; i++) {
        *(volatile uint16_t *)(q->cqes + i * EMU_CQE_SIZE + EMU_CQE_WQE_ID) = htons(0xffff);
        *(volatile uint16_t *)(q->cqes + i * EMU_CQE_SIZE + EMU_CQE_WQE_COUNTER) =
            htons((uint16_t)(q->strides - (CQ_DEPTH - i)));
    }
    q->prev = cycle() * q->strides - 1;
    q->sge = calloc(depth, sizeof(struct ibv_sge));
    for (uint32_t i = 0; i < depth; i++) {
        q->sge[i].addr = (uint64_t)(uintptr_t)(q->ring + ((size_t)i * q->strides << STRIDE_LOG));
        q->sge[i].length = q->strides << STRIDE_LOG;
        q->sge[i].lkey = mr->lkey;
        if (post && q->family->recv_burst(q->wq, &q->sge[i], 1))
            fail("recv_burst");
    }
}

/* frames new since the last snapshot (0: none) */
static uint64_t poll_once(struct rxq *q, uint16_t *id, uint16_t *counter)
{
    snapshot(q->cqes + q->cqe_idx * EMU_CQE_SIZE, id, counter);
    uint64_t total = cycle() * q->strides;
    uint64_t cur = (uint64_t)*id * q->strides + *counter;
    uint64_t delta = (cur + total - q->prev) % total;
    if (delta == 0 || delta >= q->ring_entries)
        return 0;
    q->prev = cur;
    q->cqe_idx = (q->cqe_idx + 1) % CQ_DEPTH;
    return delta;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int recv_frames(char *macs, long count, unsigned log_strides, unsigned depth, int repost, int timeout_ms)
{
    struct ibv_pd *pd;
    struct ibv_context *ctx = open_ctx(&pd);
    struct rxq qs[8];
    int nq = 0;
    for (char *tok = strtok(macs, ","); tok && nq < 8; tok = strtok(NULL, ",")) {
        uint8_t mac[6];
        if (sscanf(tok, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1], &mac[2], &mac[3], &mac[4],
                   &mac[5]) != 6)
            fail("parsing a MAC");
        memset(&qs[nq], 0, sizeof(qs[nq]));
        setup_rxq(ctx, pd, &qs[nq], mac, log_strides, depth, depth > 0 && repost >= 0);
        nq++;
    }
    printf("{\"ready\": true}\n");
    fflush(stdout);
    long seen = 0;
    double deadline = now_ms() + timeout_ms;
    while (seen < count && now_ms() < deadline) {
        for (int i = 0; i < nq; i++) {
            struct rxq *q = &qs[i];
            uint16_t id, counter;
            uint64_t n = poll_once(q, &id, &counter);
            for (uint64_t k = 0; k < n; k++) {
                const uint8_t *frame = q->ring + ((size_t)q->ring_head << STRIDE_LOG);
                uint32_t len = ntohl(*(volatile uint32_t *)(q->cqes + ((q->cqe_idx + CQ_DEPTH - 1) % CQ_DEPTH) *
                                                            EMU_CQE_SIZE + EMU_CQE_BYTE_CNT));
                size_t show = n == 1 ? len : 64;
                printf("{\"queue\": %d, \"wqe_id\": %u, \"wqe_counter\": %u, \"batch\": %llu, \"frame\": \"", i,
                       id, counter, (unsigned long long)n);
                for (size_t b = 0; b < show && b < (1u << STRIDE_LOG); b++)
                    printf("%02x", frame[b]);
                printf("\"}\n");
                seen++;
                q->ring_head = (q->ring_head + 1) % q->ring_entries;
                if (++q->in_wqe == q->strides) {
                    q->in_wqe = 0;
                    if (repost > 0 && q->family->recv_burst(q->wq, &q->sge[q->sge_idx], 1))
                        fail("recv_burst (repost)");
                    q->sge_idx = (q->sge_idx + 1) % q->depth;
                }
            }
        }
    }
    print_stats();
    return 0;
}

static int pin(int cpu)
{
    cpu_set_t want, got;
    CPU_ZERO(&want);
    CPU_SET(cpu, &want);
    int ret = sched_setaffinity(0, sizeof(want), &want);
    CPU_ZERO(&got);
    sched_getaffinity(0, sizeof(got), &got);
    printf("{\"ret\": %d, \"cpus\": [", ret);
    for (int c = 0, first = 1; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &got)) {
            printf(first ? "%d" : ", %d", c);
            first = 0;
        }
    printf("]}\n");
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc >= 2 && !strcmp(argv[1], "layout"))
        return layout();
    if (argc >= 5 && !strcmp(argv[1], "send"))
        return send_tso(argv[2], strtoul(argv[3], NULL, 10), (unsigned)strtoul(argv[4], NULL, 10),
                        argc > 5 && !strcmp(argv[5], "--unregistered"));
    if (argc >= 3 && !strcmp(argv[1], "pin"))
        return pin(atoi(argv[2]));
    if (argc >= 8 && !strcmp(argv[1], "recv"))
        return recv_frames(argv[2], strtol(argv[3], NULL, 10), (unsigned)atoi(argv[4]), (unsigned)atoi(argv[5]),
                           atoi(argv[6]), atoi(argv[7]));
    fprintf(stderr, "usage: emu_probe layout | send HDR_HEX PAYLOAD_LEN MSS [--unregistered] | "
                    "recv MACS COUNT LOG_STRIDES DEPTH REPOST TIMEOUT_MS\n");
    return 2;
}
