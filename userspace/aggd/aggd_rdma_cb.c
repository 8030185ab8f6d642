// SPDX-License-Identifier: GPL-2.0
/* spare-aggd over RDMA (aggd_rdma_cb.h). */
#include <poll.h>
#include <stdio.h>

#include "aggd_jobs.h"
#include "aggd_migrate.h"
#include "aggd_rdma_cb.h"
#include "aggd_state.h"
#include "agg_rdma.h"
#include "spare_log.h"
#include "spare_util.h"

static void *rdma_accepted(struct agg_rdma_conn *rc, const char *peer)
{
	struct conn *c = conn_open(-1, peer);

	if (!c) {
		log_warn("%s: out of memory; rejected", peer);
		return NULL;
	}
	c->rdma = rc;
	c->admin = g.stats_open;
	g.rdma_accepts++;
	return c;
}

static void rdma_received(void *cookie, const uint8_t *msg, size_t len)
{
	conn_message(cookie, msg, len);
}

static void rdma_sent(void *cookie)
{
	struct conn *c = cookie;

	if (c->tx_head)
		on_send(c, (int)(AGG_HDR_SIZE + c->tx_head->len - c->tx_head->off));
}

static void rdma_failed(void *cookie, const char *why)
{
	conn_close(cookie, why);
}

static const struct agg_rdma_ops rdma_ops = {
	.accepted = rdma_accepted,
	.received = rdma_received,
	.sent = rdma_sent,
	.failed = rdma_failed,
	.state_request = import_rdma_request,
	.offload = jobs_offload,
};

static void rdma_arm(struct op *op, int fd)
{
	struct io_uring_sqe *sqe = get_sqe();

	io_uring_prep_poll_add(sqe, fd, POLLIN);
	io_uring_sqe_set_data(sqe, op);
}

static void rdma_arm_cq(void)
{
	int fd = agg_rdma_cq_fd(g.rdma);

	if (fd >= 0 && !g.rdma_cq_armed) {
		rdma_arm(&g.rdma_cq_op, fd);
		g.rdma_cq_armed = true;
	}
}

/*
 * The CQ still holds completions after a budgeted batch: come back after the
 * other events of this loop turn, through a NOP (no channel event would
 * come for completions already queued).
 */
static void rdma_cq_again(void)
{
	struct io_uring_sqe *sqe = get_sqe();

	io_uring_prep_nop(sqe);
	io_uring_sqe_set_data(sqe, &g.rdma_cq_op);
	g.rdma_cq_armed = true;
}

int aggd_rdma_start(const char *addr, unsigned int port)
{
	g.rdma = agg_rdma_listen(addr, port, &rdma_ops);
	if (!g.rdma)
		return -1;
	g.rdma_cm_op.kind = OP_RDMA_CM;
	g.rdma_cq_op.kind = OP_RDMA_CQ;
	rdma_arm(&g.rdma_cm_op, agg_rdma_cm_fd(g.rdma));
	return 0;
}

void aggd_rdma_cm_ready(void)
{
	uint64_t t0 = spare_now_ns(), accepts = g.rdma_accepts, dt;

	/* a worker's connect request is checked here and its set-up (QP,
	 * receive buffer, receives) handed to a helper thread, whose done()
	 * accepts it on the loop (agg_rdma.c's own log times that): timed */
	agg_rdma_cm_event(g.rdma);
	dt = spare_now_ns() - t0;
	g.rdma_cm_batches++;
	g.rdma_cm_ns += dt;
	if (dt > g.rdma_cm_max_ns) {
		g.rdma_cm_max_ns = dt;
		g.rdma_cm_max_accepts = g.rdma_accepts - accepts;
	}
	rdma_arm(&g.rdma_cm_op, agg_rdma_cm_fd(g.rdma));
	rdma_arm_cq();
}

void aggd_rdma_cq_ready(void)
{
	g.rdma_cq_armed = false;
	if (agg_rdma_cq_event(g.rdma))
		rdma_cq_again();
	else
		rdma_arm_cq();
}
