/* Raw-packet QPs and sends. A send QP owns an AF_PACKET socket bound to the interface;
 * a TSO work request of P payload bytes with an H-byte header leaves as ceil(P/mss)
 * frames, each the header followed by the next mss payload bytes (the last one shorter),
 * the header copied as posted: the release's frames are not IP (EtherType 0x0700), so no
 * length or checksum is rewritten. A zero-length TSO post sends nothing and completes.
 * An RSS QP only steers: its flows feed the WQ of its indirection table. */
#define _GNU_SOURCE
#include "emu.h"

#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#define EMU_SEND_BATCH 64

static int open_tx_socket(struct emu_port *port)
{
    int fd = socket(AF_PACKET, SOCK_RAW, 0);  /* protocol 0: sends only, never receives */
    if (fd < 0)
        return -1;
    struct sockaddr_ll addr;
    memset(&addr, 0, sizeof(addr));
    addr.sll_family = AF_PACKET;
    addr.sll_ifindex = port->ifindex;
    if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    int sndbuf = 4 << 20;
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
    return fd;
}

struct ibv_qp *ibv_exp_create_qp(struct ibv_context *context, struct ibv_exp_qp_init_attr *attr)
{
    if (attr->qp_type != IBV_QPT_RAW_PACKET || !(attr->comp_mask & IBV_EXP_QP_INIT_ATTR_PD)) {
        errno = EOPNOTSUPP;
        return NULL;
    }
    struct emu_qp *qp = calloc(1, sizeof(*qp));
    if (!qp)
        return NULL;
    qp->ibv.context = context;
    qp->ibv.pd = attr->pd;
    qp->ibv.send_cq = attr->send_cq;
    qp->ibv.recv_cq = attr->recv_cq;
    qp->ibv.qp_type = attr->qp_type;
    qp->ibv.state = IBV_QPS_RESET;
    qp->tx_fd = -1;
    if (attr->comp_mask & IBV_EXP_QP_INIT_ATTR_RX_HASH) {
        if (!attr->rx_hash_conf || !attr->rx_hash_conf->rwq_ind_tbl) {
            free(qp);
            errno = EINVAL;
            return NULL;
        }
        qp->ind = (struct emu_ind_table *)attr->rx_hash_conf->rwq_ind_tbl;
        qp->ibv.state = IBV_QPS_RTR;  /* an RSS QP receives as soon as it exists */
        return &qp->ibv;
    }
    if (attr->comp_mask & IBV_EXP_QP_INIT_ATTR_MAX_TSO_HEADER)
        qp->max_tso_header = attr->max_tso_header;
    qp->tx_fd = open_tx_socket(emu_ctx(context)->port);
    if (qp->tx_fd < 0) {
        free(qp);
        return NULL;
    }
    return &qp->ibv;
}

int ibv_destroy_qp(struct ibv_qp *ibv)
{
    struct emu_qp *qp = emu_qp_of(ibv);
    if (qp->tx_fd >= 0)
        close(qp->tx_fd);
    qp->tx_fd = -1;
    qp->ibv.state = IBV_QPS_ERR;  /* kept: a flow may still point at it */
    return 0;
}

/* RESET -> INIT -> RTR -> RTS, one step at a time (what the release does) */
int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)
{
    if (!(attr_mask & IBV_QP_STATE))
        return 0;
    enum ibv_qp_state to = attr->qp_state;
    enum ibv_qp_state from = qp->state;
    int ok = to == IBV_QPS_RESET || to == IBV_QPS_ERR ||
             (from == IBV_QPS_RESET && to == IBV_QPS_INIT) ||
             (from == IBV_QPS_INIT && (to == IBV_QPS_INIT || to == IBV_QPS_RTR)) ||
             (from == IBV_QPS_RTR && to == IBV_QPS_RTS) || (from == IBV_QPS_RTS && to == IBV_QPS_RTS);
    if (!ok)
        return EINVAL;
    qp->state = to;
    return 0;
}

/* send `n` prepared frames, retrying while the socket's buffer is full */
static int send_frames(int fd, struct mmsghdr *msgs, unsigned n)
{
    unsigned done = 0;
    while (done < n) {
        int r = sendmmsg(fd, msgs + done, n - done, 0);
        if (r < 0) {
            if (errno == EINTR || errno == ENOBUFS || errno == EAGAIN) {
                sched_yield();
                continue;
            }
            return errno;
        }
        done += (unsigned)r;
    }
    EMU_COUNT(tx_frames, n);
    return 0;
}

/* the posted bytes, if one registered region covers them (the release posts one SGE) */
static const uint8_t *payload_of(struct emu_qp *qp, struct ibv_exp_send_wr *wr, uint32_t *len)
{
    if (wr->num_sge == 0) {
        *len = 0;
        return NULL;
    }
    if (wr->num_sge != 1)
        return NULL;
    struct ibv_sge *sge = &wr->sg_list[0];
    if (sge->length && !emu_mr_find(emu_ctx(qp->ibv.context), sge->lkey, sge->addr, sge->length))
        return NULL;
    *len = sge->length;
    return (const uint8_t *)(uintptr_t)sge->addr;
}

static int post_one(struct emu_qp *qp, struct ibv_exp_send_wr *wr)
{
    uint32_t len = 0;
    const uint8_t *payload = payload_of(qp, wr, &len);
    if (!payload && len == 0 && wr->num_sge > 0)
        return EINVAL;
    struct iovec iov[EMU_SEND_BATCH][2];
    struct mmsghdr msgs[EMU_SEND_BATCH];
    memset(msgs, 0, sizeof(msgs));
    if (wr->exp_opcode == IBV_EXP_WR_SEND) {
        if (len == 0)
            return EINVAL;
        iov[0][0].iov_base = (void *)payload;
        iov[0][0].iov_len = len;
        msgs[0].msg_hdr.msg_iov = iov[0];
        msgs[0].msg_hdr.msg_iovlen = 1;
        return send_frames(qp->tx_fd, msgs, 1);
    }
    if (wr->exp_opcode != IBV_EXP_WR_TSO)
        return EOPNOTSUPP;
    if (wr->tso.hdr_sz == 0 || wr->tso.hdr_sz > qp->max_tso_header || wr->tso.mss == 0 || !wr->tso.hdr)
        return EINVAL;
    unsigned n = 0;
    for (uint32_t off = 0; off < len; off += wr->tso.mss) {
        uint32_t chunk = len - off < wr->tso.mss ? len - off : wr->tso.mss;
        iov[n][0].iov_base = wr->tso.hdr;
        iov[n][0].iov_len = wr->tso.hdr_sz;
        iov[n][1].iov_base = (void *)(payload + off);
        iov[n][1].iov_len = chunk;
        msgs[n].msg_hdr.msg_iov = iov[n];
        msgs[n].msg_hdr.msg_iovlen = 2;
        if (++n == EMU_SEND_BATCH) {
            int err = send_frames(qp->tx_fd, msgs, n);
            if (err)
                return err;
            n = 0;
        }
    }
    return n ? send_frames(qp->tx_fd, msgs, n) : 0;
}

int ibv_exp_post_send(struct ibv_qp *ibv, struct ibv_exp_send_wr *wr, struct ibv_exp_send_wr **bad_wr)
{
    struct emu_qp *qp = emu_qp_of(ibv);
    for (; wr; wr = wr->next) {
        int err = qp->ibv.state != IBV_QPS_RTS || qp->tx_fd < 0 ? EINVAL : post_one(qp, wr);
        if (err) {
            if (bad_wr)
                *bad_wr = wr;
            return err;
        }
        EMU_COUNT(tx_posts, 1);
        if ((wr->exp_send_flags & IBV_SEND_SIGNALED) && qp->ibv.send_cq)
            emu_cq_push_send(emu_cq_of(qp->ibv.send_cq), wr->wr_id);
    }
    return 0;
}
