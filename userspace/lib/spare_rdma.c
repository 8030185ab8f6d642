// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_cm/verbs set-up shared by the RDMA programs (spare_rdma.h).
 */
#include "spare_rdma.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static int fail(struct spare_rdma_err *e, const char *step)
{
	e->step = step;
	e->err = errno;
	return -1;
}

const char *spare_rdma_strerr(const struct spare_rdma_err *e, char *buf,
			      size_t len)
{
	if (e->err && e->step)
		snprintf(buf, len, "%s: %s", e->step, strerror(e->err));
	else if (e->err)
		snprintf(buf, len, "waiting for %s: %s", rdma_event_str(e->want),
			 strerror(e->err));
	else
		snprintf(buf, len, "%s (status %d) instead of %s",
			 rdma_event_str(e->got), e->status,
			 rdma_event_str(e->want));
	return buf;
}

int spare_rdma_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

int spare_rdma_open(struct rdma_event_channel **ec, struct rdma_cm_id **id,
		    void *context, bool nonblock, struct spare_rdma_err *e)
{
	*ec = rdma_create_event_channel();
	if (!*ec)
		return fail(e, "rdma_create_event_channel");
	if (nonblock && spare_rdma_nonblock((*ec)->fd))
		return fail(e, "rdma_cm event channel");
	if (rdma_create_id(*ec, id, context, RDMA_PS_TCP))
		return fail(e, "rdma_create_id");
	return 0;
}

int spare_rdma_listen(struct rdma_cm_id *id, const struct sockaddr *addr,
		      int backlog, struct spare_rdma_err *e)
{
	if (rdma_bind_addr(id, (struct sockaddr *)addr))
		return fail(e, "rdma_bind_addr");
	if (rdma_listen(id, backlog))
		return fail(e, "rdma_listen");
	return 0;
}

int spare_rdma_wait(struct rdma_event_channel *ec, unsigned int timeout_ms,
		    enum rdma_cm_event_type *type, int *status)
{
	struct pollfd pfd = { .fd = ec->fd, .events = POLLIN };
	struct rdma_cm_event *ev;
	int n;

	n = poll(&pfd, 1, (int)timeout_ms);
	if (n <= 0) {
		errno = n ? errno : ETIMEDOUT;
		return -1;
	}
	if (rdma_get_cm_event(ec, &ev))
		return -1;
	*type = ev->event;
	*status = ev->status;
	rdma_ack_cm_event(ev);
	return 0;
}

int spare_rdma_expect(struct rdma_event_channel *ec,
		      enum rdma_cm_event_type want, unsigned int timeout_ms,
		      struct spare_rdma_err *e)
{
	e->want = want;
	if (spare_rdma_wait(ec, timeout_ms, &e->got, &e->status)) {
		e->step = NULL;
		e->err = errno;
		return -1;
	}
	if (e->got != want) {
		e->step = NULL;
		e->err = 0;
		errno = ECONNREFUSED;
		return -1;
	}
	return 0;
}

int spare_rdma_resolve(struct rdma_event_channel *ec, struct rdma_cm_id *id,
		       const struct sockaddr *src, const struct sockaddr *dst,
		       int timeout_ms, unsigned int wait_ms, uint8_t ack_timeout,
		       struct spare_rdma_err *e)
{
	e->ack_err = 0;
	if (rdma_resolve_addr(id, (struct sockaddr *)src, (struct sockaddr *)dst,
			      timeout_ms))
		return fail(e, "rdma_resolve_addr");
	if (spare_rdma_expect(ec, RDMA_CM_EVENT_ADDR_RESOLVED, wait_ms, e))
		return -1;
	if (ack_timeout && rdma_set_option(id, RDMA_OPTION_ID,
					   RDMA_OPTION_ID_ACK_TIMEOUT,
					   &ack_timeout, sizeof(ack_timeout)))
		e->ack_err = errno;
	if (rdma_resolve_route(id, timeout_ms))
		return fail(e, "rdma_resolve_route");
	return spare_rdma_expect(ec, RDMA_CM_EVENT_ROUTE_RESOLVED, wait_ms, e);
}

int spare_rdma_cq(struct ibv_context *verbs, int depth, void *cq_context,
		  unsigned int flags, struct ibv_comp_channel **cc,
		  struct ibv_cq **cq, struct spare_rdma_err *e)
{
	int ret;

	if (flags & SPARE_RDMA_CQ_CHANNEL) {
		*cc = ibv_create_comp_channel(verbs);
		if (!*cc)
			return fail(e, "ibv_create_comp_channel");
		if ((flags & SPARE_RDMA_CQ_NONBLOCK) &&
		    spare_rdma_nonblock((*cc)->fd))
			return fail(e, "completion channel");
	}
	*cq = ibv_create_cq(verbs, depth, cq_context,
			    flags & SPARE_RDMA_CQ_CHANNEL ? *cc : NULL, 0);
	if (!*cq)
		return fail(e, "ibv_create_cq");
	if (flags & SPARE_RDMA_CQ_ARM) {
		ret = ibv_req_notify_cq(*cq, 0);
		if (ret) {
			errno = ret;
			return fail(e, "ibv_req_notify_cq");
		}
	}
	return 0;
}

/* CLOCK_MONOTONIC in ms (libspare-agg.so links this file alone). */
static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int spare_rdma_cq_wait(struct ibv_cq *cq, struct ibv_comp_channel *cc,
		       int other_fd, struct ibv_wc *wc, unsigned int timeout_ms)
{
	uint64_t end = mono_ms() + timeout_ms;
	bool armed = false, last = false, other = false;
	struct ibv_cq *ecq;
	void *ctx;
	int n;

	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = cc->fd, .events = POLLIN },
			{ .fd = other_fd, .events = POLLIN },
		};
		uint64_t now;

		n = ibv_poll_cq(cq, 1, wc);
		if (n > 0)
			return 1;
		if (n < 0) {
			errno = EIO;
			return -1;
		}
		if (other)
			return 2;	/* after the CQ's last look */
		if (last)
			return 0;
		if (!armed) {
			/* what completed before this is polled again first */
			if (ibv_req_notify_cq(cq, 0)) {
				errno = EIO;
				return -1;
			}
			armed = true;
			continue;
		}
		now = mono_ms();
		last = now >= end;	/* one more look at the CQ after this */
		n = poll(pfd, other_fd >= 0 ? 2 : 1,
			 last ? 0 : (int)(end - now));
		if (n < 0 && errno != EINTR)
			return -1;
		if (n <= 0)
			continue;
		if (other_fd >= 0 && (pfd[1].revents & (POLLIN | POLLERR | POLLHUP)))
			other = true;
		if (!(pfd[0].revents & POLLIN))
			continue;
		if (ibv_get_cq_event(cc, &ecq, &ctx)) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return -1;
		}
		ibv_ack_cq_events(ecq, 1);
		if (ibv_req_notify_cq(cq, 0)) {
			errno = EIO;
			return -1;
		}
	}
}

int spare_rdma_cq_next(struct ibv_cq *cq, struct ibv_comp_channel *cc,
		       struct ibv_wc *wc, unsigned int timeout_ms)
{
	return spare_rdma_cq_wait(cq, cc, -1, wc, timeout_ms);
}

int spare_rdma_qp_sge(struct rdma_cm_id *id, struct ibv_pd *pd,
		      struct ibv_cq *cq, uint32_t send, uint32_t recv,
		      uint32_t send_sge)
{
	struct ibv_qp_init_attr qpa = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = send, .max_recv_wr = recv,
			 .max_send_sge = send_sge ? send_sge : 1,
			 .max_recv_sge = 1 },
	};

	return rdma_create_qp(id, pd, &qpa) ? -1 : 0;
}

int spare_rdma_qp(struct rdma_cm_id *id, struct ibv_pd *pd, struct ibv_cq *cq,
		  uint32_t send, uint32_t recv)
{
	return spare_rdma_qp_sge(id, pd, cq, send, recv, 1);
}

int spare_rdma_accept(struct rdma_cm_id *id, uint8_t responder_resources,
		      uint8_t initiator_depth)
{
	/* retry_count means nothing to the passive side (an IB CM REP has no
	 * such field); rnr_retry_count is what the peer's QP gets. */
	struct rdma_conn_param cp = {
		.responder_resources = responder_resources,
		.initiator_depth = initiator_depth,
		.retry_count = SPARE_RDMA_RETRY,
		.rnr_retry_count = SPARE_RDMA_RNR_RETRY,
	};

	return rdma_accept(id, &cp) ? -1 : 0;
}

int spare_rdma_connect(struct rdma_event_channel *ec, struct rdma_cm_id *id,
		       const void *priv, uint8_t priv_len,
		       uint8_t initiator_depth, unsigned int wait_ms,
		       struct spare_rdma_err *e)
{
	struct rdma_conn_param cp = {
		.private_data = priv,
		.private_data_len = priv_len,
		.initiator_depth = initiator_depth,
		.responder_resources = 0,
		.retry_count = SPARE_RDMA_RETRY,
		.rnr_retry_count = SPARE_RDMA_RNR_RETRY,
	};

	if (rdma_connect(id, &cp))
		return fail(e, "rdma_connect");
	return spare_rdma_expect(ec, RDMA_CM_EVENT_ESTABLISHED, wait_ms, e);
}

int spare_rdma_fast_rnr(struct ibv_qp *qp)
{
	struct ibv_qp_attr attr = { .min_rnr_timer = SPARE_RDMA_MIN_RNR_TIMER };

	return ibv_modify_qp(qp, &attr, IBV_QP_MIN_RNR_TIMER) ? -1 : 0;
}

void spare_rdma_teardown(const struct spare_rdma_objs *o)
{
	if (o->id && o->up)
		rdma_disconnect(o->id);
	if (o->id && o->id->qp)
		rdma_destroy_qp(o->id);
	if (o->mr)
		ibv_dereg_mr(o->mr);
	if (o->cq)
		ibv_destroy_cq(o->cq);
	if (o->cc)
		ibv_destroy_comp_channel(o->cc);
	if (o->pd)
		ibv_dealloc_pd(o->pd);
	if (o->id)
		rdma_destroy_id(o->id);
	if (o->ec)
		rdma_destroy_event_channel(o->ec);
}
