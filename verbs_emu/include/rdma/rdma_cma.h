/* The ATP release includes <rdma/rdma_cma.h> but calls no rdma_* function: this header
 * only brings what the real one brings in that the release relies on (the verbs and the
 * socket types). librdmacm of the emulation is a linker script naming libibverbs. */
#ifndef VERBS_EMU_RDMA_RDMA_CMA_H
#define VERBS_EMU_RDMA_RDMA_CMA_H

#include <netinet/in.h>
#include <sys/socket.h>
#include <infiniband/verbs.h>

#endif
