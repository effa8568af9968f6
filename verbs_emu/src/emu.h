/* Private objects of the emulation: each public verbs object is the first member of
 * its emulation object, so a pointer to one is a pointer to the other. */
#ifndef VERBS_EMU_PRIVATE_H
#define VERBS_EMU_PRIVATE_H

#include <infiniband/verbs_exp.h>
#include <net/if.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include "../include/verbs_emu.h"

/* The head of MLNX_OFED 4.x libmlx5's CQ object, as the release reads it through a cast
 * (``buf_a.buf``: the CQE array; ``cq_log_size``). Only the layout matters; the fields
 * the release never reads are kept for their size. */
struct emu_mlx5_buf {
    void *buf;
    size_t length;
    int base;
    void *hugetlb;
    struct {
        uint32_t dir;
        uint64_t va_id;
        void *pb;
        void *ctx;
    } peer;
    int type;
    struct {
        int valid;
        int numa_id;
    } numa_req;
    int numa_alloc;
};

struct emu_mlx5_lock {
    pthread_mutex_t mutex;
    pthread_spinlock_t slock;
    int state;
    int type;
};

struct emu_mlx5_cq_head {
    struct ibv_cq ibv_cq;
    uint32_t creation_flags;
    uint32_t pattern;
    struct emu_mlx5_buf buf_a;
    struct emu_mlx5_buf buf_b;
    void *active_buf;
    void *resize_buf;
    int resize_cqes;
    int active_cqes;
    struct emu_mlx5_lock lock;
    uint32_t cqn;
    uint32_t cons_index;
    uint32_t wait_index;
    uint32_t wait_count;
    volatile uint32_t *dbrec;
    int arm_sn;
    int cqe_sz;
    int resize_cqe_sz;
    int stall_next_poll;
    int stall_enable;
    uint64_t stall_last_count;
    int stall_adaptive_enable;
    int stall_cycles;
    uint8_t model_flags;
    uint16_t cqe_comp_max_num;
    uint8_t cq_log_size;
};

struct emu_cq {
    struct emu_mlx5_cq_head mlx5;
    uint32_t ncqe;                /* a power of two: 2^cq_log_size */
    uint8_t *cqes;                /* ncqe CQEs of EMU_CQE_SIZE bytes (what buf_a.buf points at) */
    uint64_t produced;            /* receive CQEs written */
    bool ignore_overrun;
    pthread_mutex_t lock;         /* send completions */
    uint64_t *wr_ids;
    uint32_t wc_head, wc_count;
    bool overrun;
};

/* one interface: one receive socket and thread, the flow rules steering its frames */
struct emu_flow;
struct emu_port {
    char ifname[IBV_EMU_NAME_MAX];
    int ifindex;
    int rx_fd;
    pthread_mutex_t lock;
    struct emu_flow *flows;
    bool started;
};

struct emu_mr {
    struct ibv_mr ibv;
    struct emu_mr *_Atomic next;
};

struct emu_context {
    struct ibv_context ibv;
    struct emu_port *port;
    pthread_mutex_t lock;
    struct emu_mr *_Atomic mrs;
    uint32_t next_key;
};

struct emu_wq {
    struct ibv_exp_wq ibv;
    pthread_mutex_t lock;
    uint32_t log_strides, log_stride_bytes;
    struct ibv_sge *wqes;         /* posted striding buffers, a FIFO of max_recv_wr */
    uint32_t wqe_cap, wqe_head, wqe_count;
    uint32_t stride_used;         /* in the head WQE */
    uint16_t wqe_seq;             /* WQEs used so far (the CQE's wqe_id) */
    struct ibv_exp_wq_family family;
};

struct emu_ind_table {
    struct ibv_exp_rwq_ind_table ibv;
    struct emu_wq *wq;            /* the one entry (the release's table has size 2^0) */
};

struct emu_qp {
    struct ibv_qp ibv;
    int tx_fd;                    /* send QPs */
    uint16_t max_tso_header;
    struct emu_ind_table *ind;    /* RSS (receive) QPs */
};

struct emu_flow {
    struct ibv_exp_flow ibv;
    struct ibv_exp_flow_eth_filter val, mask;
    struct emu_qp *qp;
    struct emu_flow *next;
};

extern struct ibv_emu_stats emu_stats;
#define EMU_COUNT(field, n) __atomic_add_fetch(&emu_stats.field, (n), __ATOMIC_RELAXED)

static inline struct emu_context *emu_ctx(struct ibv_context *c) { return (struct emu_context *)c; }
static inline struct emu_cq *emu_cq_of(struct ibv_cq *c) { return (struct emu_cq *)c; }
static inline struct emu_qp *emu_qp_of(struct ibv_qp *q) { return (struct emu_qp *)q; }
static inline struct emu_wq *emu_wq_of(struct ibv_exp_wq *w) { return (struct emu_wq *)w; }

struct emu_port *emu_port_open(struct emu_context *ctx);
const struct ibv_mr *emu_mr_find(struct emu_context *ctx, uint32_t lkey, uint64_t addr, uint32_t len);
void emu_wq_deliver(struct emu_wq *wq, const uint8_t *frame, size_t len);
void emu_cq_push_send(struct emu_cq *cq, uint64_t wr_id);
int emu_rx_start(struct emu_port *port);
cpu_set_t *emu_initial_cpus(void);

#endif
