/* Receiving: striding WQs, the indirection table, flow steering and the receive thread.
 *
 * One thread per interface reads every frame (AF_PACKET, promiscuous, our own sends
 * skipped), finds the first flow whose destination MAC (and source MAC, EtherType under
 * their masks) matches, and writes the frame into the WQ behind that flow's QP:
 * - the frame goes to the next free stride(s) of the oldest posted WQE; a frame that
 *   does not fit the strides left retires that WQE; no posted WQE: the frame is dropped
 *   (counted in rx_no_wqe), as a NIC drops without receive buffers;
 * - then a 64-byte CQE at the next slot of the CQ (wrapping: the release sets
 *   IGNORE_OVERRUN and never consumes) with wqe_id = WQEs used so far (16 bits) and
 *   wqe_counter = the frame's first stride, both big-endian;
 * - order: the frame's bytes, then the CQE, whose wqe_id is first set half a snapshot
 *   cycle away, then wqe_counter, then the true wqe_id: a poller that reads wqe_id,
 *   wqe_counter, wqe_id and keeps only equal wqe_ids never takes a new counter with an
 *   old id (or the reverse) as a packet count. */
#define _GNU_SOURCE
#include "emu.h"

#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#define EMU_MAX_FRAME 9216

struct ibv_exp_wq *ibv_exp_create_wq(struct ibv_context *context, struct ibv_exp_wq_init_attr *attr)
{
    if (attr->wq_type != IBV_EXP_WQT_RQ || !(attr->comp_mask & IBV_EXP_CREATE_WQ_MP_RQ) ||
        attr->max_recv_wr == 0 || !attr->cq || attr->mp_rq.use_shift != IBV_EXP_MP_RQ_NO_SHIFT ||
        attr->mp_rq.single_wqe_log_num_of_strides > 16 || attr->mp_rq.single_stride_log_num_of_bytes < 6 ||
        attr->mp_rq.single_stride_log_num_of_bytes > 13) {
        errno = EOPNOTSUPP;  /* only multi-packet (striding) receive queues are emulated */
        return NULL;
    }
    struct emu_wq *wq = calloc(1, sizeof(*wq));
    if (!wq)
        return NULL;
    wq->wqes = calloc(attr->max_recv_wr, sizeof(struct ibv_sge));
    if (!wq->wqes) {
        free(wq);
        return NULL;
    }
    wq->wqe_cap = attr->max_recv_wr;
    wq->log_strides = attr->mp_rq.single_wqe_log_num_of_strides;
    wq->log_stride_bytes = attr->mp_rq.single_stride_log_num_of_bytes;
    pthread_mutex_init(&wq->lock, NULL);
    wq->ibv.context = context;
    wq->ibv.wq_context = attr->wq_context;
    wq->ibv.pd = attr->pd;
    wq->ibv.cq = attr->cq;
    wq->ibv.state = IBV_EXP_WQS_RESET;
    wq->ibv.wq_type = attr->wq_type;
    return &wq->ibv;
}

int ibv_exp_modify_wq(struct ibv_exp_wq *ibv, struct ibv_exp_wq_attr *attr)
{
    struct emu_wq *wq = emu_wq_of(ibv);
    if (attr->attr_mask & IBV_EXP_WQ_ATTR_STATE) {
        pthread_mutex_lock(&wq->lock);
        wq->ibv.state = attr->wq_state;
        pthread_mutex_unlock(&wq->lock);
    }
    return 0;
}

/* post `num` striding buffers, each one WQE of 2^log_strides strides */
static int recv_burst(struct ibv_exp_wq *ibv, struct ibv_sge *sg_list, uint32_t num)
{
    struct emu_wq *wq = emu_wq_of(ibv);
    size_t need = (size_t)1 << (wq->log_strides + wq->log_stride_bytes);
    int err = 0;
    pthread_mutex_lock(&wq->lock);
    for (uint32_t i = 0; i < num && !err; i++) {
        if (sg_list[i].length < need ||
            !emu_mr_find(emu_ctx(wq->ibv.context), sg_list[i].lkey, sg_list[i].addr, sg_list[i].length))
            err = EINVAL;
        else if (wq->wqe_count == wq->wqe_cap)
            err = ENOMEM;
        else
            wq->wqes[(wq->wqe_head + wq->wqe_count++) % wq->wqe_cap] = sg_list[i];
    }
    pthread_mutex_unlock(&wq->lock);
    return err;
}

void *ibv_exp_query_intf(struct ibv_context *context, struct ibv_exp_query_intf_params *params,
                         enum ibv_exp_query_intf_status *status)
{
    (void)context;
    if (params->intf != IBV_EXP_INTF_WQ || !params->obj) {
        *status = IBV_EXP_INTF_STAT_INTF_NOT_SUPPORTED;
        return NULL;
    }
    struct emu_wq *wq = emu_wq_of((struct ibv_exp_wq *)params->obj);
    wq->family.recv_burst = recv_burst;
    *status = IBV_EXP_INTF_STAT_OK;
    return &wq->family;
}

struct ibv_exp_rwq_ind_table *ibv_exp_create_rwq_ind_table(
    struct ibv_context *context, struct ibv_exp_rwq_ind_table_init_attr *attr)
{
    if (attr->log_ind_tbl_size != 0 || !attr->ind_tbl || !attr->ind_tbl[0]) {
        errno = EOPNOTSUPP;  /* one WQ: the release's frames are not IP, nothing to hash */
        return NULL;
    }
    struct emu_ind_table *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->ibv.context = context;
    t->ibv.pd = attr->pd;
    t->wq = emu_wq_of(attr->ind_tbl[0]);  /* copied: the caller's array may be on its stack */
    return &t->ibv;
}

/* write one 64-byte CQE in the order the file comment gives */
static void write_cqe(struct emu_cq *cq, uint16_t wqe_id, uint16_t stride, uint32_t bytes)
{
    uint8_t *cqe = cq->cqes + (size_t)(cq->produced & (cq->ncqe - 1)) * EMU_CQE_SIZE;
    uint16_t *id = (uint16_t *)(cqe + EMU_CQE_WQE_ID);
    uint16_t *counter = (uint16_t *)(cqe + EMU_CQE_WQE_COUNTER);
    uint32_t *byte_cnt = (uint32_t *)(cqe + EMU_CQE_BYTE_CNT);
    __atomic_store_n(id, htons((uint16_t)(wqe_id ^ 0x8000)), __ATOMIC_RELEASE);
    __atomic_store_n(byte_cnt, htonl(bytes), __ATOMIC_RELEASE);
    __atomic_store_n(counter, htons(stride), __ATOMIC_RELEASE);
    __atomic_store_n(cqe + EMU_CQE_OP_OWN, (uint8_t)((2u << 4) | ((cq->produced / cq->ncqe) & 1)),
                     __ATOMIC_RELEASE);  /* opcode: responder send */
    __atomic_store_n(id, htons(wqe_id), __ATOMIC_RELEASE);
    cq->produced++;
}

void emu_wq_deliver(struct emu_wq *wq, const uint8_t *frame, size_t len)
{
    uint32_t strides_per_wqe = 1u << wq->log_strides;
    size_t stride_bytes = (size_t)1 << wq->log_stride_bytes;
    uint32_t need = (uint32_t)((len + stride_bytes - 1) / stride_bytes);
    struct emu_cq *cq = emu_cq_of(wq->ibv.cq);
    pthread_mutex_lock(&wq->lock);
    if (wq->ibv.state != IBV_EXP_WQS_RDY) {
        pthread_mutex_unlock(&wq->lock);
        EMU_COUNT(rx_not_ready, 1);
        return;
    }
    if (wq->wqe_count > 0 && wq->stride_used + need > strides_per_wqe) {
        wq->wqe_head = (wq->wqe_head + 1) % wq->wqe_cap;  /* retire: the frame cannot fit */
        wq->wqe_count--;
        wq->wqe_seq++;
        wq->stride_used = 0;
    }
    if (wq->wqe_count == 0 || need > strides_per_wqe ||
        (!cq->ignore_overrun && cq->produced >= cq->ncqe)) {
        pthread_mutex_unlock(&wq->lock);
        EMU_COUNT(rx_no_wqe, 1);
        return;
    }
    struct ibv_sge *wqe = &wq->wqes[wq->wqe_head];
    uint8_t *dst = (uint8_t *)(uintptr_t)wqe->addr + (size_t)wq->stride_used * stride_bytes;
    memcpy(dst, frame, len);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    write_cqe(cq, wq->wqe_seq, (uint16_t)wq->stride_used, (uint32_t)len);
    wq->stride_used += need;
    if (wq->stride_used == strides_per_wqe) {
        wq->wqe_head = (wq->wqe_head + 1) % wq->wqe_cap;
        wq->wqe_count--;
        wq->wqe_seq++;
        wq->stride_used = 0;
    }
    pthread_mutex_unlock(&wq->lock);
    EMU_COUNT(rx_delivered, 1);
}

static int field_matches(const uint8_t *have, const uint8_t *want, const uint8_t *mask, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((have[i] & mask[i]) != (want[i] & mask[i]))
            return 0;
    return 1;
}

static struct emu_qp *steer(struct emu_port *port, const uint8_t *frame, size_t len)
{
    if (len < ETH_HLEN)
        return NULL;
    struct emu_qp *qp = NULL;
    pthread_mutex_lock(&port->lock);
    for (struct emu_flow *f = port->flows; f; f = f->next) {
        if (field_matches(frame, f->val.dst_mac, f->mask.dst_mac, 6) &&
            field_matches(frame + 6, f->val.src_mac, f->mask.src_mac, 6) &&
            field_matches(frame + 12, (const uint8_t *)&f->val.ether_type,
                          (const uint8_t *)&f->mask.ether_type, 2)) {
            qp = f->qp;
            break;
        }
    }
    pthread_mutex_unlock(&port->lock);
    return qp;
}

static void *receive_loop(void *arg)
{
    struct emu_port *port = arg;
    static __thread uint8_t frame[EMU_MAX_FRAME];
    for (;;) {
        struct sockaddr_ll from;
        socklen_t fromlen = sizeof(from);
        ssize_t n = recvfrom(port->rx_fd, frame, sizeof(frame), 0, (struct sockaddr *)&from, &fromlen);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "verbs_emu: receiving on %s failed: %s\n", port->ifname, strerror(errno));
            return NULL;
        }
        if (from.sll_pkttype == PACKET_OUTGOING)
            continue;
        EMU_COUNT(rx_frames, 1);
        struct emu_qp *qp = steer(port, frame, (size_t)n);
        if (!qp || !qp->ind) {
            EMU_COUNT(rx_no_flow, 1);
            continue;
        }
        emu_wq_deliver(qp->ind->wq, frame, (size_t)n);
    }
    return NULL;
}

/* open the port's receive socket and start its thread (once), on the CPUs the process
 * had at start: not on the one core an application thread pinned itself to */
int emu_rx_start(struct emu_port *port)
{
    int err = 0;
    pthread_mutex_lock(&port->lock);
    if (!port->started) {
        int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
        struct sockaddr_ll addr;
        memset(&addr, 0, sizeof(addr));
        addr.sll_family = AF_PACKET;
        addr.sll_protocol = htons(ETH_P_ALL);
        addr.sll_ifindex = port->ifindex;
        struct packet_mreq promisc;
        memset(&promisc, 0, sizeof(promisc));
        promisc.mr_ifindex = port->ifindex;
        promisc.mr_type = PACKET_MR_PROMISC;
        int rcvbuf = 8 << 20;
        if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
            setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &promisc, sizeof(promisc)) < 0) {
            err = errno;
            if (fd >= 0)
                close(fd);
        } else {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf));
            port->rx_fd = fd;
            pthread_attr_t attr;
            pthread_attr_init(&attr);
            pthread_attr_setaffinity_np(&attr, sizeof(cpu_set_t), emu_initial_cpus());
            pthread_t thread;
            err = pthread_create(&thread, &attr, receive_loop, port);
            pthread_attr_destroy(&attr);
            if (err == 0) {
                pthread_detach(thread);
                port->started = true;
            }
        }
    }
    pthread_mutex_unlock(&port->lock);
    return err;
}

struct ibv_exp_flow *ibv_exp_create_flow(struct ibv_qp *ibv, struct ibv_exp_flow_attr *attr)
{
    struct emu_qp *qp = emu_qp_of(ibv);
    if (!qp->ind || attr->type != IBV_EXP_FLOW_ATTR_NORMAL) {
        errno = EOPNOTSUPP;
        return NULL;
    }
    struct emu_flow *flow = calloc(1, sizeof(*flow));
    if (!flow)
        return NULL;
    const uint8_t *spec = (const uint8_t *)(attr + 1);
    for (int i = 0; i < attr->num_of_specs; i++) {
        const struct ibv_exp_flow_spec_eth *eth = (const struct ibv_exp_flow_spec_eth *)spec;
        if (eth->type != IBV_EXP_FLOW_SPEC_ETH) {
            free(flow);  /* the release's rules carry one Ethernet spec; others are not emulated */
            errno = EOPNOTSUPP;
            return NULL;
        }
        flow->val = eth->val;
        flow->mask = eth->mask;
        spec += eth->size;
    }
    struct emu_port *port = emu_ctx(qp->ibv.context)->port;
    int err = emu_rx_start(port);
    if (err) {
        free(flow);
        errno = err;
        return NULL;
    }
    flow->qp = qp;
    flow->ibv.context = qp->ibv.context;
    pthread_mutex_lock(&port->lock);
    struct emu_flow **tail = &port->flows;
    while (*tail)
        tail = &(*tail)->next;
    *tail = flow;
    pthread_mutex_unlock(&port->lock);
    return &flow->ibv;
}

int ibv_exp_destroy_flow(struct ibv_exp_flow *ibv)
{
    struct emu_flow *flow = (struct emu_flow *)ibv;
    struct emu_port *port = emu_ctx(flow->ibv.context)->port;
    pthread_mutex_lock(&port->lock);
    for (struct emu_flow **p = &port->flows; *p; p = &(*p)->next) {
        if (*p == flow) {
            *p = flow->next;
            break;
        }
    }
    pthread_mutex_unlock(&port->lock);
    free(flow);
    return 0;
}
