/* The experimental (MLNX_OFED 4.x) raw-packet verbs the ATP release calls: a TSO send QP,
 * a multi-packet striding receive WQ behind a one-entry RSS indirection table, flow
 * steering on the destination MAC. Declarations are this project's own; field names are
 * the ones the release's source sets. */
#ifndef VERBS_EMU_INFINIBAND_VERBS_EXP_H
#define VERBS_EMU_INFINIBAND_VERBS_EXP_H

#include <infiniband/verbs.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ibv_exp_peer_buf;
struct ibv_exp_peer_direct_attr;
struct ibv_exp_res_domain;

enum ibv_exp_wc_opcode {
    IBV_EXP_WC_SEND,
    IBV_EXP_WC_RDMA_WRITE,
    IBV_EXP_WC_RDMA_READ,
    IBV_EXP_WC_COMP_SWAP,
    IBV_EXP_WC_FETCH_ADD,
    IBV_EXP_WC_BIND_MW,
    IBV_EXP_WC_RECV = 1 << 7,
    IBV_EXP_WC_RECV_RDMA_WITH_IMM,
};

/* --- QPs ------------------------------------------------------------------------ */

enum ibv_exp_qp_init_attr_comp_mask {
    IBV_EXP_QP_INIT_ATTR_PD = 1 << 0,
    IBV_EXP_QP_INIT_ATTR_XRCD = 1 << 1,
    IBV_EXP_QP_INIT_ATTR_CREATE_FLAGS = 1 << 2,
    IBV_EXP_QP_INIT_ATTR_INL_RECV = 1 << 3,
    IBV_EXP_QP_INIT_ATTR_RX_HASH = 1 << 7,
    IBV_EXP_QP_INIT_ATTR_PORT = 1 << 8,
    IBV_EXP_QP_INIT_ATTR_MAX_TSO_HEADER = 1 << 10,
};

enum ibv_exp_rx_hash_function_flags {
    IBV_EXP_RX_HASH_FUNC_TOEPLITZ = 1 << 0,
    IBV_EXP_RX_HASH_FUNC_XOR = 1 << 1,
};

enum ibv_exp_rx_hash_fields {
    IBV_EXP_RX_HASH_SRC_IPV4 = 1 << 0,
    IBV_EXP_RX_HASH_DST_IPV4 = 1 << 1,
    IBV_EXP_RX_HASH_SRC_PORT_UDP = 1 << 6,
    IBV_EXP_RX_HASH_DST_PORT_UDP = 1 << 7,
};

struct ibv_exp_rwq_ind_table;

struct ibv_exp_rx_hash_conf {
    enum ibv_exp_rx_hash_function_flags rx_hash_function;
    uint8_t rx_hash_key_len;
    uint8_t *rx_hash_key;
    uint64_t rx_hash_fields_mask;
    struct ibv_exp_rwq_ind_table *rwq_ind_tbl;
};

struct ibv_exp_qp_init_attr {
    void *qp_context;
    struct ibv_cq *send_cq;
    struct ibv_cq *recv_cq;
    struct ibv_srq *srq;
    struct ibv_qp_cap cap;
    enum ibv_qp_type qp_type;
    int sq_sig_all;
    uint32_t comp_mask;
    struct ibv_pd *pd;
    uint32_t exp_create_flags;
    uint32_t max_inl_recv;
    struct ibv_exp_rx_hash_conf *rx_hash_conf;
    uint8_t port_num;
    uint16_t max_tso_header;
};

struct ibv_qp *ibv_exp_create_qp(struct ibv_context *context, struct ibv_exp_qp_init_attr *attr);
int ibv_destroy_qp(struct ibv_qp *qp);

/* --- sends ---------------------------------------------------------------------- */

enum ibv_exp_wr_opcode {
    IBV_EXP_WR_RDMA_WRITE,
    IBV_EXP_WR_RDMA_WRITE_WITH_IMM,
    IBV_EXP_WR_SEND,
    IBV_EXP_WR_SEND_WITH_IMM,
    IBV_EXP_WR_RDMA_READ,
    IBV_EXP_WR_TSO = 14,
};

struct ibv_exp_send_wr {
    uint64_t wr_id;
    struct ibv_exp_send_wr *next;
    struct ibv_sge *sg_list;
    int num_sge;
    enum ibv_exp_wr_opcode exp_opcode;
    uint64_t exp_send_flags;
    struct {
        void *hdr;        /* the header every segment starts with */
        uint16_t hdr_sz;
        uint16_t mss;     /* payload bytes per segment */
    } tso;
};

int ibv_exp_post_send(struct ibv_qp *qp, struct ibv_exp_send_wr *wr,
                      struct ibv_exp_send_wr **bad_wr);

/* --- CQs ------------------------------------------------------------------------ */

struct ibv_exp_cq_init_attr {
    uint32_t comp_mask;
    uint32_t flags;
    struct ibv_exp_res_domain *res_domain;
};

enum ibv_exp_cq_attr_comp_mask {
    IBV_EXP_CQ_ATTR_MODERATION = 1 << 0,
    IBV_EXP_CQ_ATTR_CQ_CAP_FLAGS = 1 << 1,
};

enum ibv_exp_cq_attr_mask {
    IBV_EXP_CQ_MODERATION = 1 << 0,
    IBV_EXP_CQ_CAP_FLAGS = 1 << 1,
};

enum ibv_exp_cq_cap_flags {
    IBV_EXP_CQ_IGNORE_OVERRUN = 1 << 0,
};

struct ibv_exp_cq_attr {
    uint32_t comp_mask;
    struct {
        uint16_t cq_count;
        uint16_t cq_period;
    } moderation;
    uint32_t cq_cap_flags;
};

struct ibv_cq *ibv_exp_create_cq(struct ibv_context *context, int cqe, void *cq_context,
                                 struct ibv_comp_channel *channel, int comp_vector,
                                 struct ibv_exp_cq_init_attr *attr);
int ibv_exp_modify_cq(struct ibv_cq *cq, struct ibv_exp_cq_attr *attr, int attr_mask);

/* --- striding receive WQs ------------------------------------------------------- */

enum ibv_exp_wq_type { IBV_EXP_WQT_RQ, IBV_EXP_WQT_SRQ };

enum ibv_exp_wq_state {
    IBV_EXP_WQS_RESET,
    IBV_EXP_WQS_RDY,
    IBV_EXP_WQS_ERR,
    IBV_EXP_WQS_UNKNOWN,
};

enum ibv_exp_wq_init_attr_mask {
    IBV_EXP_CREATE_WQ_RES_DOMAIN = 1 << 0,
    IBV_EXP_CREATE_WQ_MP_RQ = 1 << 1,
};

enum ibv_exp_mp_rq_shifts {
    IBV_EXP_MP_RQ_NO_SHIFT = 0,
    IBV_EXP_MP_RQ_2BYTES_SHIFT = 1 << 0,
};

struct ibv_exp_wq_mp_rq {
    enum ibv_exp_mp_rq_shifts use_shift;
    uint8_t single_wqe_log_num_of_strides;
    uint8_t single_stride_log_num_of_bytes;
};

struct ibv_exp_wq_init_attr {
    void *wq_context;
    enum ibv_exp_wq_type wq_type;
    uint32_t max_recv_wr;
    uint32_t max_recv_sge;
    struct ibv_pd *pd;
    struct ibv_cq *cq;
    struct ibv_srq *srq;
    uint32_t comp_mask;
    struct ibv_exp_res_domain *res_domain;
    struct ibv_exp_wq_mp_rq mp_rq;
};

struct ibv_exp_wq {
    struct ibv_context *context;
    void *wq_context;
    uint32_t handle;
    struct ibv_pd *pd;
    struct ibv_cq *cq;
    uint32_t wq_num;
    enum ibv_exp_wq_state state;
    enum ibv_exp_wq_type wq_type;
};

enum ibv_exp_wq_attr_mask {
    IBV_EXP_WQ_ATTR_STATE = 1 << 0,
    IBV_EXP_WQ_ATTR_CURR_STATE = 1 << 1,
};

struct ibv_exp_wq_attr {
    uint32_t attr_mask;
    enum ibv_exp_wq_state wq_state;
    enum ibv_exp_wq_state curr_wq_state;
};

struct ibv_exp_wq *ibv_exp_create_wq(struct ibv_context *context, struct ibv_exp_wq_init_attr *attr);
int ibv_exp_modify_wq(struct ibv_exp_wq *wq, struct ibv_exp_wq_attr *attr);

/* the "verbs family" of a WQ: post receive buffers (one WQE = one striding buffer) */
struct ibv_exp_wq_family {
    int (*recv_burst)(struct ibv_exp_wq *wq, struct ibv_sge *sg_list, uint32_t num);
};

enum ibv_exp_intf_scope { IBV_EXP_INTF_GLOBAL, IBV_EXP_INTF_EXPORT };
enum ibv_exp_intf_family { IBV_EXP_INTF_QP_BURST, IBV_EXP_INTF_CQ, IBV_EXP_INTF_WQ };
enum ibv_exp_query_intf_status {
    IBV_EXP_INTF_STAT_OK,
    IBV_EXP_INTF_STAT_VENDOR_NOT_SUPPORTED,
    IBV_EXP_INTF_STAT_INTF_NOT_SUPPORTED,
    IBV_EXP_INTF_STAT_VERSION_NOT_SUPPORTED,
    IBV_EXP_INTF_STAT_INVAL_PARARM,
    IBV_EXP_INTF_STAT_INVAL_OBJ_STATE,
    IBV_EXP_INTF_STAT_INVAL_OBJ,
};

struct ibv_exp_query_intf_params {
    uint32_t flags;
    enum ibv_exp_intf_scope intf_scope;
    enum ibv_exp_intf_family intf;
    void *obj;
    uint32_t intf_version;
    uint32_t family_flags;
    void *family_params;
    uint32_t comp_mask;
};

void *ibv_exp_query_intf(struct ibv_context *context, struct ibv_exp_query_intf_params *params,
                         enum ibv_exp_query_intf_status *status);

struct ibv_exp_rwq_ind_table_init_attr {
    struct ibv_pd *pd;
    uint32_t log_ind_tbl_size;
    struct ibv_exp_wq **ind_tbl;
    uint32_t comp_mask;
};

struct ibv_exp_rwq_ind_table {
    struct ibv_context *context;
    struct ibv_pd *pd;
    int ind_tbl_handle;
    int ind_tbl_num;
    uint32_t comp_mask;
};

struct ibv_exp_rwq_ind_table *ibv_exp_create_rwq_ind_table(
    struct ibv_context *context, struct ibv_exp_rwq_ind_table_init_attr *attr);

/* --- flow steering -------------------------------------------------------------- */

enum ibv_exp_flow_attr_type {
    IBV_EXP_FLOW_ATTR_NORMAL,
    IBV_EXP_FLOW_ATTR_ALL_DEFAULT,
    IBV_EXP_FLOW_ATTR_MC_DEFAULT,
    IBV_EXP_FLOW_ATTR_SNIFFER,
};

enum ibv_exp_flow_spec_type {
    IBV_EXP_FLOW_SPEC_ETH = 0x20,
    IBV_EXP_FLOW_SPEC_IPV4 = 0x30,
    IBV_EXP_FLOW_SPEC_IPV4_EXT = 0x32,
    IBV_EXP_FLOW_SPEC_TCP = 0x40,
    IBV_EXP_FLOW_SPEC_UDP = 0x41,
};

struct ibv_exp_flow_attr {
    enum ibv_exp_flow_attr_type type;
    uint16_t size;
    uint16_t priority;
    uint8_t num_of_specs;
    uint8_t port;
    uint32_t flags;
    uint64_t reserved;
};

struct ibv_exp_flow_eth_filter {
    uint8_t dst_mac[6];
    uint8_t src_mac[6];
    uint16_t ether_type;
    uint16_t vlan_tag;
};

struct ibv_exp_flow_spec_eth {
    enum ibv_exp_flow_spec_type type;
    uint16_t size;
    struct ibv_exp_flow_eth_filter val;
    struct ibv_exp_flow_eth_filter mask;
};

struct ibv_exp_flow_ipv4_ext_filter {
    uint32_t src_ip;
    uint32_t dst_ip;
    uint8_t proto;
    uint8_t tos;
    uint8_t ttl;
    uint8_t flags;
};

struct ibv_exp_flow_spec_ipv4_ext {
    enum ibv_exp_flow_spec_type type;
    uint16_t size;
    struct ibv_exp_flow_ipv4_ext_filter val;
    struct ibv_exp_flow_ipv4_ext_filter mask;
};

struct ibv_exp_flow_tcp_udp_filter {
    uint16_t dst_port;
    uint16_t src_port;
};

struct ibv_exp_flow_spec_tcp_udp {
    enum ibv_exp_flow_spec_type type;
    uint16_t size;
    struct ibv_exp_flow_tcp_udp_filter val;
    struct ibv_exp_flow_tcp_udp_filter mask;
};

struct ibv_exp_flow {
    uint32_t comp_mask;
    struct ibv_context *context;
    uint32_t handle;
};

struct ibv_exp_flow *ibv_exp_create_flow(struct ibv_qp *qp, struct ibv_exp_flow_attr *flow);
int ibv_exp_destroy_flow(struct ibv_exp_flow *flow);

#ifdef __cplusplus
}
#endif
#endif
