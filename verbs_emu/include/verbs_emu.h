/* What only the emulation has: its counters and the mlx5 CQE byte layout it writes
 * (the offsets the release's poller reads, big-endian). Tests include this; the
 * release never does. */
#ifndef VERBS_EMU_H
#define VERBS_EMU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    EMU_CQE_SIZE = 64,
    EMU_CQE_WQE_ID = 2,        /* be16: which striding WQE (a 16-bit count of WQEs used) */
    EMU_CQE_BYTE_CNT = 44,     /* be32: frame length */
    EMU_CQE_WQE_COUNTER = 60,  /* be16: the frame's first stride inside that WQE */
    EMU_CQE_OP_OWN = 63,
};

struct ibv_emu_stats {
    uint64_t tx_posts;       /* work requests posted */
    uint64_t tx_frames;      /* frames put on the wire (TSO segments counted one by one) */
    uint64_t rx_frames;      /* frames seen on the interface (not our own) */
    uint64_t rx_delivered;   /* written to a ring with a CQE */
    uint64_t rx_no_flow;     /* no flow rule matched the destination MAC */
    uint64_t rx_no_wqe;      /* a flow matched but no receive WQE had room: dropped */
    uint64_t rx_not_ready;   /* the WQ was not in the ready state: dropped */
};

/* a snapshot of the process-wide counters */
void ibv_emu_get_stats(struct ibv_emu_stats *out);

/* where the release reads inside the CQ object it casts to mlx5_cq */
size_t ibv_emu_cq_buf_offset(void);
size_t ibv_emu_cq_log_size_offset(void);

#ifdef __cplusplus
}
#endif
#endif
