/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Verbs settings both ends of a spare-aggd RDMA connection apply.
 */
#ifndef SPARE_AGG_VERBS_H
#define SPARE_AGG_VERBS_H

#include <fcntl.h>
#include <infiniband/verbs.h>

/*
 * The RNR NAK delay a sender waits when this end has no receive posted, as
 * IB's 5-bit code: 12 is 0.64 ms. The kernel's CM moves RC QPs to RTR with
 * code 0, which means 655 ms, and userspace rdma_cm has no option to change
 * it. With 8 receives per connection, a worker pushing 11 partitions in a
 * row met that delay about once per iteration (1.2 s per iteration of a
 * job that needs milliseconds).
 */
#define AGG_RDMA_MIN_RNR_TIMER	12

/* On an RC QP in RTS (after rdma_accept(), or once ESTABLISHED): 0 or -1. */
static inline int agg_rdma_fast_rnr(struct ibv_qp *qp)
{
	struct ibv_qp_attr attr = { .min_rnr_timer = AGG_RDMA_MIN_RNR_TIMER };

	return ibv_modify_qp(qp, &attr, IBV_QP_MIN_RNR_TIMER) ? -1 : 0;
}

/* For the event and completion channels both ends poll: 0 or -1. */
static inline int agg_set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

#endif
