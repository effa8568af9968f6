/* Completion queues. A CQ owns an array of mlx5-layout CQEs (what the release reads
 * directly for its striding receive queue) and a FIFO of send completions (what
 * ibv_poll_cq returns). Sizes round up as libmlx5 does: 2^ceil(log2(cqe + 1)) entries,
 * so the release's ibv_exp_create_cq(4) has cq_log_size 3. */
#define _GNU_SOURCE
#include "emu.h"

#include <arpa/inet.h>
#include <stdlib.h>

static struct ibv_cq *create_cq(struct ibv_context *context, int cqe, void *cq_context,
                                struct ibv_comp_channel *channel)
{
    if (cqe < 1 || cqe > (1 << 22)) {
        errno = EINVAL;
        return NULL;
    }
    uint8_t log_size = 0;
    while ((1u << log_size) < (uint32_t)cqe + 1)
        log_size++;
    struct emu_cq *cq = calloc(1, sizeof(*cq));
    if (!cq)
        return NULL;
    cq->ncqe = 1u << log_size;
    /* calloc: pages of a big send CQ that is never read stay untouched */
    cq->cqes = calloc(cq->ncqe, EMU_CQE_SIZE);
    cq->wr_ids = calloc(cq->ncqe, sizeof(uint64_t));
    if (!cq->cqes || !cq->wr_ids) {
        free(cq->cqes);
        free(cq->wr_ids);
        free(cq);
        return NULL;
    }
    for (uint32_t i = 0; i < cq->ncqe; i++)
        cq->cqes[i * EMU_CQE_SIZE + EMU_CQE_OP_OWN] = 0xf1;  /* invalid opcode, hardware owned */
    pthread_mutex_init(&cq->lock, NULL);
    cq->mlx5.ibv_cq.context = context;
    cq->mlx5.ibv_cq.channel = channel;
    cq->mlx5.ibv_cq.cq_context = cq_context;
    cq->mlx5.ibv_cq.cqe = (int)cq->ncqe - 1;
    cq->mlx5.buf_a.buf = cq->cqes;
    cq->mlx5.buf_a.length = (size_t)cq->ncqe * EMU_CQE_SIZE;
    cq->mlx5.active_buf = &cq->mlx5.buf_a;
    cq->mlx5.cqe_sz = EMU_CQE_SIZE;
    cq->mlx5.cq_log_size = log_size;
    return &cq->mlx5.ibv_cq;
}

struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context,
                             struct ibv_comp_channel *channel, int comp_vector)
{
    (void)comp_vector;
    return create_cq(context, cqe, cq_context, channel);
}

struct ibv_cq *ibv_exp_create_cq(struct ibv_context *context, int cqe, void *cq_context,
                                 struct ibv_comp_channel *channel, int comp_vector,
                                 struct ibv_exp_cq_init_attr *attr)
{
    (void)comp_vector;
    (void)attr;
    return create_cq(context, cqe, cq_context, channel);
}

int ibv_destroy_cq(struct ibv_cq *cq)
{
    (void)cq;  /* kept until exit: a receive thread may still write its CQEs */
    return 0;
}

int ibv_exp_modify_cq(struct ibv_cq *ibv, struct ibv_exp_cq_attr *attr, int attr_mask)
{
    struct emu_cq *cq = emu_cq_of(ibv);
    if (attr_mask & ~(IBV_EXP_CQ_CAP_FLAGS | IBV_EXP_CQ_MODERATION))
        return EINVAL;
    if (attr_mask & IBV_EXP_CQ_CAP_FLAGS)
        cq->ignore_overrun = (attr->cq_cap_flags & IBV_EXP_CQ_IGNORE_OVERRUN) != 0;
    return 0;
}

/* a send completion; more outstanding than the CQ holds is an overrun, as on a NIC,
 * after which the CQ reports an error */
void emu_cq_push_send(struct emu_cq *cq, uint64_t wr_id)
{
    pthread_mutex_lock(&cq->lock);
    if (cq->wc_count == cq->ncqe) {
        cq->overrun = true;
    } else {
        cq->wr_ids[(cq->wc_head + cq->wc_count) & (cq->ncqe - 1)] = wr_id;
        cq->wc_count++;
    }
    pthread_mutex_unlock(&cq->lock);
}

int ibv_poll_cq(struct ibv_cq *ibv, int num_entries, struct ibv_wc *wc)
{
    struct emu_cq *cq = emu_cq_of(ibv);
    pthread_mutex_lock(&cq->lock);
    if (cq->overrun) {
        pthread_mutex_unlock(&cq->lock);
        return -1;
    }
    int n = 0;
    while (n < num_entries && cq->wc_count > 0) {
        memset(&wc[n], 0, sizeof(wc[n]));
        wc[n].wr_id = cq->wr_ids[cq->wc_head];
        wc[n].status = IBV_WC_SUCCESS;
        wc[n].opcode = IBV_WC_SEND;
        cq->wc_head = (cq->wc_head + 1) & (cq->ncqe - 1);
        cq->wc_count--;
        n++;
    }
    pthread_mutex_unlock(&cq->lock);
    return n;
}

size_t ibv_emu_cq_buf_offset(void) { return offsetof(struct emu_mlx5_cq_head, buf_a.buf); }
size_t ibv_emu_cq_log_size_offset(void) { return offsetof(struct emu_mlx5_cq_head, cq_log_size); }
