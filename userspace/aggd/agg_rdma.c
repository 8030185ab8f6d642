// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd RDMA transport, server side (agg_rdma.h).
 */
#include "agg_rdma.h"
#include "agg_proto.h"
#include "spare_log.h"
#include "spare_rdma.h"
#include "spare_util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <rdma/rdma_cma.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOT_SIZE	(AGG_HDR_SIZE + AGG_RDMA_MAX_PAYLOAD)
/*
 * A slot starts AGG_HDR_SIZE before a cache line, so that a payload folded
 * where it landed (agg_rdma_recv_lend()) is 64-byte aligned as the job's
 * own buffers are.
 */
#define SLOT_HEAD	((64 - AGG_HDR_SIZE % 64) % 64)
#define SLOT_STRIDE	((SLOT_HEAD + SLOT_SIZE + 63) / 64 * 64)
#define BUF_SIZE	((size_t)N_SLOTS * SLOT_STRIDE)
#define SEND_SLOT	AGG_RDMA_RECV_DEPTH
#define N_SLOTS		(AGG_RDMA_RECV_DEPTH + 1)
#define CQ_DEPTH	4096
/*
 * Registered receive/send buffers kept for the next connection. Pinning and
 * registering a fresh 2.3 MiB buffer took 0.5-1.6 s on a loaded soft-RoCE
 * guest, which is what made late connections miss their peers' deadline.
 */
#define BUF_CACHE	16
/* Completions handled per agg_rdma_cq_event() call, so rdma_cm events and
 * TCP connections get their turn while RDMA pushes keep arriving. */
#define CQ_BUDGET	64

/* A receive slot lent out by agg_rdma_recv_lend(). */
struct agg_rdma_loan {
	struct conn_buf *cb;
	unsigned int slot;
};

/*
 * A connection's registered buffer. It outlives its connection while slots
 * are lent: the last agg_rdma_loan_return() frees it then.
 */
struct conn_buf {
	uint8_t *buf;		/* N_SLOTS slots of SLOT_SIZE */
	struct ibv_mr *mr;
	struct agg_rdma_conn *owner;	/* NULL once the connection closed */
	unsigned int n_lent;
	struct agg_rdma_loan loans[AGG_RDMA_RECV_DEPTH];
};

struct agg_rdma_conn {
	struct agg_rdma_srv *srv;
	struct rdma_cm_id *id;
	uint32_t index, gen;
	void *cookie;
	struct conn_buf *cb;
	uint8_t *buf;		/* cb->buf */
	struct ibv_mr *mr;	/* cb->mr */
	int cur;		/* recv slot being processed, or -1 */
	int established;
	/*
	 * Set up off the loop (setup_run()) until setup_done(): the loop
	 * leaves the id, the QP and the buffer alone meanwhile, and an event
	 * saying the request is gone only sets @gone.
	 */
	bool setting_up, gone;
	struct agg_rdma_conn *qnext;	/* waiting for a helper: s->queue */
	int setup_err;			/* errno of the failed step, or 0 */
	const char *setup_step;		/* which step failed */
	uint64_t buf_ns;		/* a new buffer's making, 0 if cached */
	char peer[64];
};

struct agg_rdma_srv {
	const struct agg_rdma_ops *ops;
	struct rdma_event_channel *ec;
	struct rdma_cm_id *listen;
	struct ibv_context *verbs;
	struct ibv_pd *pd;
	struct ibv_comp_channel *cc;
	struct ibv_cq *cq;
	struct agg_rdma_conn **conns;	/* by index; NULL when free */
	uint32_t n_conns, gen;
	struct conn_buf *cache[BUF_CACHE];	/* registered on s->pd */
	unsigned int n_cache;
	/*
	 * connection buffers made and registered (on helper threads): how
	 * many, their time in all and the longest; logged at the stop
	 */
	uint64_t bufs_made, bufs_ns, bufs_max_ns;
	unsigned int n_setting_up;	/* set-ups not done yet, queued too */
	unsigned int n_helpers;		/* of them, on helpers now */
	/* requests waiting for a helper (AGG_RDMA_SETUP_HELPERS busy) */
	struct agg_rdma_conn *queue, **queue_tail;
	/*
	 * set-ups finished on the loop (accepted(), rdma_accept): their
	 * loop time in all and the longest; logged at the stop
	 */
	uint64_t setups_done, setup_loop_ns, setup_loop_max_ns;
	uint64_t setups_inline;		/* set up on the loop (no helper) */
};

/* userspace/lib logging, every line tagged as the RDMA transport's */
#define rlog(fmt, ...)	log_info("rdma: " fmt, ##__VA_ARGS__)

struct agg_rdma_srv *agg_rdma_listen(const char *addr, unsigned int port,
				     const struct agg_rdma_ops *ops)
{
	struct agg_rdma_srv *s = calloc(1, sizeof(*s));
	struct addrinfo hints = { .ai_flags = AI_PASSIVE | AI_NUMERICHOST }, *ai;
	struct spare_rdma_err e;
	char portstr[16];
	int ret;

	if (!s)
		return NULL;
	s->ops = ops;
	if (spare_rdma_open(&s->ec, &s->listen, s, true, &e)) {
		rlog("%s: %s", e.step, strerror(e.err));
		goto fail;
	}
	snprintf(portstr, sizeof(portstr), "%u", port);
	ret = getaddrinfo(addr, portstr, &hints, &ai);
	if (ret) {
		rlog("bad address %s: %s", addr, gai_strerror(ret));
		goto fail;
	}
	ret = spare_rdma_listen(s->listen, ai->ai_addr, 64, &e);
	freeaddrinfo(ai);
	if (ret) {
		rlog("listen on %s:%u: %s", addr, port, strerror(e.err));
		goto fail;
	}
	rlog("listening on %s:%u", addr, port);
	return s;
fail:
	agg_rdma_stop(s);
	return NULL;
}

int agg_rdma_cm_fd(const struct agg_rdma_srv *s)
{
	return s->ec->fd;
}

int agg_rdma_cq_fd(const struct agg_rdma_srv *s)
{
	return s->cc ? s->cc->fd : -1;
}

/* The device, PD and shared CQ, opened by the first connection. */
static int open_device(struct agg_rdma_srv *s, struct ibv_context *verbs)
{
	struct spare_rdma_err e;

	if (s->verbs)
		return s->verbs == verbs ? 0 : -1;
	s->pd = ibv_alloc_pd(verbs);
	if (!s->pd || spare_rdma_cq(verbs, CQ_DEPTH, NULL, SPARE_RDMA_CQ_CHANNEL |
				    SPARE_RDMA_CQ_NONBLOCK | SPARE_RDMA_CQ_ARM,
				    &s->cc, &s->cq, &e)) {
		rlog("cannot set up the device: %s", strerror(errno));
		spare_rdma_teardown(&(struct spare_rdma_objs){
			.cq = s->cq, .cc = s->cc, .pd = s->pd });
		s->cq = NULL;
		s->cc = NULL;
		s->pd = NULL;
		return -1;
	}
	s->verbs = verbs;
	return 0;
}

static uint64_t wr_id(const struct agg_rdma_conn *rc, unsigned int slot)
{
	return (uint64_t)rc->gen << 32 | (uint64_t)rc->index << 8 | slot;
}

static uint8_t *slot_at(const struct agg_rdma_conn *rc, unsigned int slot)
{
	return rc->buf + (size_t)slot * SLOT_STRIDE + SLOT_HEAD;
}

static int post_recv(struct agg_rdma_conn *rc, unsigned int slot)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)slot_at(rc, slot),
		.length = SLOT_SIZE,
		.lkey = rc->mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = wr_id(rc, slot), .sg_list = &sge,
				  .num_sge = 1 }, *bad;

	return ibv_post_recv(rc->id->qp, &wr, &bad);
}

static void conn_buf_free(struct conn_buf *cb)
{
	if (cb->mr)
		ibv_dereg_mr(cb->mr);
	free(cb->buf);
	free(cb);
}

static void conn_buf_attach(struct agg_rdma_conn *rc, struct conn_buf *cb)
{
	cb->owner = rc;
	rc->cb = cb;
	rc->buf = cb->buf;
	rc->mr = cb->mr;
}

/* A cached registered buffer for a new connection, if one is free (loop). */
static void conn_buf_cached(struct agg_rdma_srv *s, struct agg_rdma_conn *rc)
{
	if (s->n_cache)
		conn_buf_attach(rc, s->cache[--s->n_cache]);
}

/*
 * A new registered buffer (off the loop: reads only s->pd, which stays
 * until agg_rdma_stop()); its time in rc->buf_ns. 0, or -1 with errno.
 */
static int conn_buf_new(struct agg_rdma_srv *s, struct agg_rdma_conn *rc)
{
	uint64_t t0 = spare_now_ns();
	struct conn_buf *cb = calloc(1, sizeof(*cb));
	int err;

	if (!cb)
		return -1;
	/* C11's aligned_alloc() wants a multiple of the alignment */
	cb->buf = aligned_alloc(4096, (BUF_SIZE + 4095) / 4096 * 4096);
	if (cb->buf)
		cb->mr = ibv_reg_mr(s->pd, cb->buf, BUF_SIZE,
				    IBV_ACCESS_LOCAL_WRITE);
	if (!cb->mr) {
		err = cb->buf ? errno : ENOMEM;
		conn_buf_free(cb);
		errno = err;
		return -1;
	}
	rc->buf_ns = spare_now_ns() - t0;
	if (!rc->buf_ns)
		rc->buf_ns = 1;
	conn_buf_attach(rc, cb);
	return 0;
}

/*
 * Only after the QP is destroyed: no work request names the buffer then.
 * A buffer with slots still lent stays until the last one comes back.
 */
static void conn_buf_put(struct agg_rdma_srv *s, struct conn_buf *cb)
{
	if (!cb)
		return;
	cb->owner = NULL;
	if (cb->n_lent)
		return;
	if (s && s->n_cache < BUF_CACHE) {
		s->cache[s->n_cache++] = cb;
		return;
	}
	conn_buf_free(cb);
}

static void conn_free(struct agg_rdma_conn *rc)
{
	struct agg_rdma_srv *s = rc->srv;

	s->conns[rc->index] = NULL;
	spare_rdma_teardown(&(struct spare_rdma_objs){ .id = rc->id });
	conn_buf_put(s, rc->cb);
	free(rc);
}

static struct agg_rdma_conn *conn_new(struct agg_rdma_srv *s,
				      struct rdma_cm_id *id)
{
	struct agg_rdma_conn *rc = calloc(1, sizeof(*rc));
	uint32_t i;

	if (!rc)
		return NULL;
	for (i = 0; i < s->n_conns && s->conns[i]; i++)
		;
	if (i == s->n_conns) {
		uint32_t n = s->n_conns ? s->n_conns * 2 : 16;
		void *p = realloc(s->conns, n * sizeof(*s->conns));

		if (!p) {
			free(rc);
			return NULL;
		}
		s->conns = p;
		memset(s->conns + s->n_conns, 0,
		       (n - s->n_conns) * sizeof(*s->conns));
		s->n_conns = n;
	}
	rc->srv = s;
	rc->index = i;
	rc->gen = ++s->gen;
	rc->id = id;
	rc->cur = -1;
	id->context = rc;
	s->conns[i] = rc;
	return rc;
}

/*
 * A worker connection's expensive part, off the loop (or on it when no
 * helper is to be had): the buffer unless a cached one was taken, the QP
 * on the shared PD and CQ, the receives. Touches only @rc's id, QP and
 * buffer, which the loop leaves alone until setup_done().
 */
static void setup_run(void *arg)
{
	struct agg_rdma_conn *rc = arg;
	struct agg_rdma_srv *s = rc->srv;

	if (!rc->cb && conn_buf_new(s, rc)) {
		rc->setup_err = errno;
		rc->setup_step = "ibv_reg_mr";
		return;
	}
	if (spare_rdma_qp_sge(rc->id, s->pd, s->cq, 4, AGG_RDMA_RECV_DEPTH, 2)) {
		rc->setup_err = errno;
		rc->setup_step = "rdma_create_qp";
		return;
	}
	for (unsigned int i = 0; i < AGG_RDMA_RECV_DEPTH; i++)
		if (post_recv(rc, i)) {
			rc->setup_err = errno;
			rc->setup_step = "ibv_post_recv";
			return;
		}
}

static void setup_start(struct agg_rdma_srv *s, struct agg_rdma_conn *rc);

/* A queued request let go without a helper: the peer went, or the stop. */
static void setup_drop(struct agg_rdma_srv *s, struct agg_rdma_conn *rc)
{
	rc->setting_up = false;
	s->n_setting_up--;
	if (rc->gone)
		rlog("%s: connect request withdrawn while it waited", rc->peer);
	else
		rdma_reject(rc->id, NULL, 0);
	conn_free(rc);
}

/* Start queued set-ups while helpers are free (on the loop). */
static void setup_next(struct agg_rdma_srv *s)
{
	while (s->queue && s->n_helpers < AGG_RDMA_SETUP_HELPERS) {
		struct agg_rdma_conn *rc = s->queue;

		s->queue = rc->qnext;
		if (!s->queue)
			s->queue_tail = &s->queue;
		rc->qnext = NULL;
		if (rc->gone)
			setup_drop(s, rc);
		else
			setup_start(s, rc);
	}
}

/*
 * On the loop, after setup_run(): a request whose peer went meanwhile, or
 * the daemon stopping, is let go (QP, id and buffer); else the connection
 * is handed to the daemon (accepted()) and accepted; then the next
 * waiting request is started.
 */
static void setup_done(void *arg, bool exiting)
{
	struct agg_rdma_conn *rc = arg;
	struct agg_rdma_srv *s = rc->srv;
	struct rdma_cm_id *id = rc->id;
	uint64_t t0 = spare_now_ns(), dt;

	rc->setting_up = false;
	s->n_setting_up--;
	s->n_helpers--;
	if (rc->buf_ns) {
		s->bufs_made++;
		s->bufs_ns += rc->buf_ns;
		if (rc->buf_ns > s->bufs_max_ns)
			s->bufs_max_ns = rc->buf_ns;
	}
	if (rc->gone || exiting) {
		if (rc->gone)
			rlog("%s: connect request withdrawn while it was set up",
			     rc->peer);
		else
			rdma_reject(id, NULL, 0);
		conn_free(rc);
		goto out;
	}
	if (rc->setup_err) {
		rlog("%s: rejected: %s: %s (request on %s, our PD on %s)",
		     rc->peer, rc->setup_step, strerror(rc->setup_err),
		     ibv_get_device_name(id->verbs->device),
		     ibv_get_device_name(s->pd->context->device));
		rdma_reject(id, NULL, 0);
		conn_free(rc);
		goto out;
	}
	rc->cookie = s->ops->accepted(rc, rc->peer);
	if (!rc->cookie) {
		rdma_reject(id, NULL, 0);
		conn_free(rc);
		goto out;
	}
	if (spare_rdma_accept(id, 0, 0)) {
		void *cookie = rc->cookie;

		rlog("%s: rdma_accept: %s", rc->peer, strerror(errno));
		rc->cookie = NULL;
		s->ops->failed(cookie, "rdma_accept failed");
		goto out;
	}
	/* the QP is in RTS now; a failure here only costs speed */
	if (spare_rdma_fast_rnr(id->qp))
		rlog("%s: cannot shorten the RNR timer: %s", rc->peer,
		     strerror(errno));
out:
	dt = spare_now_ns() - t0;
	s->setups_done++;
	s->setup_loop_ns += dt;
	if (dt > s->setup_loop_max_ns)
		s->setup_loop_max_ns = dt;
	if (!exiting)
		setup_next(s);	/* agg_rdma_stop() drops the rest */
}

/* On a helper, or here when none can be had. */
static void setup_start(struct agg_rdma_srv *s, struct agg_rdma_conn *rc)
{
	s->n_helpers++;
	if (!s->ops->offload || s->ops->offload(setup_run, setup_done, rc)) {
		s->setups_inline++;
		setup_run(rc);
		setup_done(rc, false);
	}
}

unsigned int agg_rdma_setups_queued(const struct agg_rdma_srv *s)
{
	return s->n_setting_up - s->n_helpers;
}

static void on_connect_request(struct agg_rdma_srv *s, struct rdma_cm_id *id,
			       const uint8_t *priv, size_t priv_len)
{
	struct agg_rdma_conn *rc;
	char peer[64] = "?";
	struct sockaddr_in *sin = (struct sockaddr_in *)rdma_get_peer_addr(id);
	uint8_t token[AGG_STATE_TOKEN_LEN];
	uint32_t job_id;

	if (sin && sin->sin_family == AF_INET) {
		char ip[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, &sin->sin_addr, ip, sizeof(ip));
		snprintf(peer, sizeof(peer), "rdma %s:%u", ip, ntohs(sin->sin_port));
	}
	if (!agg_state_priv_decode(priv, priv_len, &job_id, token)) {
		/* a move's state transfer: never a worker's connection */
		id->context = NULL;
		if (!s->ops->state_request ||
		    s->ops->state_request(id, job_id, token, peer)) {
			rdma_reject(id, NULL, 0);
			rdma_destroy_id(id);
		}
		sodium_memzero(token, sizeof(token));
		return;
	}
	if (open_device(s, id->verbs)) {
		rlog("%s: rejected: device unavailable", peer);
		rdma_reject(id, NULL, 0);
		rdma_destroy_id(id);
		return;
	}
	rc = conn_new(s, id);
	if (!rc) {
		rlog("%s: rejected: out of memory", peer);
		rdma_reject(id, NULL, 0);
		rdma_destroy_id(id);
		return;
	}
	snprintf(rc->peer, sizeof(rc->peer), "%s", peer);
	conn_buf_cached(s, rc);
	rc->setting_up = true;
	s->n_setting_up++;
	if (s->n_helpers < AGG_RDMA_SETUP_HELPERS) {
		setup_start(s, rc);
		return;
	}
	if (!s->queue)
		s->queue_tail = &s->queue;
	*s->queue_tail = rc;
	s->queue_tail = &rc->qnext;
}

void agg_rdma_cm_event(struct agg_rdma_srv *s)
{
	struct rdma_cm_event *ev;

	while (!rdma_get_cm_event(s->ec, &ev)) {
		struct rdma_cm_id *id = ev->id;
		enum rdma_cm_event_type type = ev->event;
		struct agg_rdma_conn *rc = id == s->listen ? NULL : id->context;
		int status = ev->status;
		uint8_t priv[AGG_STATE_PRIV_SIZE];
		size_t priv_len = 0;

		if (type == RDMA_CM_EVENT_CONNECT_REQUEST &&
		    ev->param.conn.private_data &&
		    ev->param.conn.private_data_len >= sizeof(priv)) {
			memcpy(priv, ev->param.conn.private_data, sizeof(priv));
			priv_len = sizeof(priv);
		}
		rdma_ack_cm_event(ev);
		switch (type) {
		case RDMA_CM_EVENT_CONNECT_REQUEST:
			on_connect_request(s, id, priv, priv_len);
			break;
		case RDMA_CM_EVENT_ESTABLISHED:
			if (rc)
				rc->established = 1;
			break;
		case RDMA_CM_EVENT_DISCONNECTED:
		case RDMA_CM_EVENT_CONNECT_ERROR:
		case RDMA_CM_EVENT_UNREACHABLE:
		case RDMA_CM_EVENT_REJECTED:
		case RDMA_CM_EVENT_DEVICE_REMOVAL:
			if (rc && rc->setting_up) {
				/*
				 * a helper uses it, or it waits for one:
				 * setup_done() or setup_next() lets it go
				 */
				rc->gone = true;
			} else if (rc && rc->cookie) {
				char why[64];

				snprintf(why, sizeof(why), "%s (status %d)",
					 rdma_event_str(type), status);
				s->ops->failed(rc->cookie, why);
			}
			break;
		default:
			break;
		}
	}
}

int agg_rdma_cq_event(struct agg_rdma_srv *s)
{
	struct ibv_cq *cq;
	void *ctx;
	struct ibv_wc wc[16];
	unsigned int done = 0;
	int n;

	if (!s->cq)
		return 0;
	while (!ibv_get_cq_event(s->cc, &cq, &ctx))
		ibv_ack_cq_events(cq, 1);
	if (ibv_req_notify_cq(s->cq, 0))
		rlog("ibv_req_notify_cq failed");
	while (done < CQ_BUDGET && (n = ibv_poll_cq(s->cq, 16, wc)) > 0) {
		done += (unsigned int)n;
		for (int i = 0; i < n; i++) {
			uint32_t idx = (uint32_t)(wc[i].wr_id >> 8) & 0xffffff;
			uint32_t gen = (uint32_t)(wc[i].wr_id >> 32);
			unsigned int slot = wc[i].wr_id & 0xff;
			struct agg_rdma_conn *rc = idx < s->n_conns ? s->conns[idx] : NULL;

			if (!rc || rc->gen != gen || !rc->cookie)
				continue;	/* a closed connection's flush */
			if (wc[i].status != IBV_WC_SUCCESS) {
				char why[96];

				snprintf(why, sizeof(why), "%s failed: %s",
					 slot == SEND_SLOT ? "send" : "receive",
					 ibv_wc_status_str(wc[i].status));
				s->ops->failed(rc->cookie, why);
				continue;
			}
			if (slot == SEND_SLOT) {
				s->ops->sent(rc->cookie);
			} else {
				rc->cur = (int)slot;
				s->ops->received(rc->cookie,
						 slot_at(rc, slot),
						 wc[i].byte_len);
			}
		}
	}
	return done >= CQ_BUDGET;
}

int agg_rdma_send(struct agg_rdma_conn *rc, const void *hdr, size_t hdr_len,
		  const void *payload, size_t len)
{
	uint8_t *slot = slot_at(rc, SEND_SLOT);
	struct ibv_sge sge = { .addr = (uintptr_t)slot, .lkey = rc->mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = wr_id(rc, SEND_SLOT), .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
	}, *bad;

	if (hdr_len + len > SLOT_SIZE)
		return -1;
	memcpy(slot, hdr, hdr_len);
	if (len)
		memcpy(slot + hdr_len, payload, len);
	sge.length = (uint32_t)(hdr_len + len);
	return ibv_post_send(rc->id->qp, &wr, &bad) ? -1 : 0;
}

/* A job's memory registered for in-place sends: one MR. */
struct agg_rdma_region {
	struct ibv_mr *mr;
};

struct agg_rdma_region *agg_rdma_region_reg(struct agg_rdma_srv *s,
					    void *buf, size_t len)
{
	struct agg_rdma_region *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->mr = ibv_reg_mr(s->pd, buf, len, IBV_ACCESS_LOCAL_WRITE);
	if (!r->mr) {
		int err = errno;

		free(r);
		errno = err;
		return NULL;
	}
	return r;
}

void agg_rdma_region_dereg(struct agg_rdma_region *r)
{
	if (!r)
		return;
	if (ibv_dereg_mr(r->mr))
		rlog("ibv_dereg_mr failed: %s", strerror(errno));
	free(r);
}

int agg_rdma_send_region(struct agg_rdma_conn *rc, const void *hdr,
			 size_t hdr_len, const struct agg_rdma_region *r,
			 const void *payload, size_t len)
{
	uint8_t *slot = slot_at(rc, SEND_SLOT);
	uintptr_t at = (uintptr_t)payload, base = (uintptr_t)r->mr->addr;
	struct ibv_sge sge[2] = {
		{ .addr = (uintptr_t)slot, .length = (uint32_t)hdr_len,
		  .lkey = rc->mr->lkey },
		{ .addr = at, .length = (uint32_t)len, .lkey = r->mr->lkey },
	};
	struct ibv_send_wr wr = {
		.wr_id = wr_id(rc, SEND_SLOT), .sg_list = sge,
		.num_sge = len ? 2 : 1, .opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
	}, *bad;

	if (hdr_len > SLOT_SIZE || len > SLOT_SIZE - hdr_len ||
	    at < base || len > r->mr->length || at - base > r->mr->length - len)
		return -1;
	memcpy(slot, hdr, hdr_len);
	return ibv_post_send(rc->id->qp, &wr, &bad) ? -1 : 0;
}

void agg_rdma_recv_done(struct agg_rdma_conn *rc)
{
	int slot = rc->cur;

	rc->cur = -1;
	if (slot >= 0 && post_recv(rc, (unsigned int)slot) && rc->cookie) {
		void *cookie = rc->cookie;

		rc->cookie = NULL;
		rc->srv->ops->failed(cookie, "ibv_post_recv failed");
	}
}

struct agg_rdma_loan *agg_rdma_recv_lend(struct agg_rdma_conn *rc,
					 const uint8_t *msg)
{
	struct conn_buf *cb = rc->cb;
	struct agg_rdma_loan *l;

	if (rc->cur < 0 || msg != slot_at(rc, (unsigned int)rc->cur) ||
	    cb->n_lent >= AGG_RDMA_MAX_LENT)
		return NULL;
	l = &cb->loans[rc->cur];
	l->cb = cb;
	l->slot = (unsigned int)rc->cur;
	cb->n_lent++;
	rc->cur = -1;		/* agg_rdma_recv_done() leaves it alone */
	return l;
}

void agg_rdma_loan_return(struct agg_rdma_loan *l)
{
	struct conn_buf *cb = l->cb;
	struct agg_rdma_conn *rc = cb->owner;

	cb->n_lent--;
	if (!rc) {
		/* its connection is gone: the last slot back frees the buffer */
		if (!cb->n_lent)
			conn_buf_free(cb);
		return;
	}
	if (post_recv(rc, l->slot) && rc->cookie) {
		void *cookie = rc->cookie;

		rc->cookie = NULL;
		rc->srv->ops->failed(cookie, "ibv_post_recv failed");
	}
}

void agg_rdma_close(struct agg_rdma_conn *rc)
{
	rc->cookie = NULL;
	if (rc->established)
		rdma_disconnect(rc->id);
	conn_free(rc);
}

void agg_rdma_stop(struct agg_rdma_srv *s)
{
	if (!s)
		return;
	if (s->bufs_made)
		rlog("%llu connection buffers (%zu bytes each) registered off the event loop: %.1f ms in all, longest %.2f ms",
		     (unsigned long long)s->bufs_made, BUF_SIZE,
		     (double)s->bufs_ns / 1e6, (double)s->bufs_max_ns / 1e6);
	if (s->setups_done)
		rlog("%llu connection set-ups finished on the event loop (accept): %.1f ms in all, longest %.2f ms; %llu set up wholly on the loop (no helper)",
		     (unsigned long long)s->setups_done,
		     (double)s->setup_loop_ns / 1e6,
		     (double)s->setup_loop_max_ns / 1e6,
		     (unsigned long long)s->setups_inline);
	/*
	 * the requests still waiting for a helper (the running ones' done()
	 * has run: the caller waited for it)
	 */
	while (s->queue) {
		struct agg_rdma_conn *rc = s->queue;

		s->queue = rc->qnext;
		setup_drop(s, rc);
	}
	for (uint32_t i = 0; i < s->n_conns; i++)
		if (s->conns[i])
			agg_rdma_close(s->conns[i]);
	free(s->conns);
	while (s->n_cache)
		conn_buf_free(s->cache[--s->n_cache]);
	/* the listener's cm_id, then the shared CQ, channel and PD */
	spare_rdma_teardown(&(struct spare_rdma_objs){
		.ec = s->ec, .id = s->listen, .cq = s->cq, .cc = s->cc,
		.pd = s->pd });
	free(s);
}

struct ibv_context *agg_rdma_verbs(const struct agg_rdma_srv *s)
{
	return s ? s->listen->verbs : NULL;
}

void agg_rdma_addr(const struct agg_rdma_srv *s, uint8_t addr[4], uint32_t *port)
{
	const struct sockaddr_in *sin =
		(const struct sockaddr_in *)rdma_get_local_addr(s->listen);

	memset(addr, 0, 4);
	*port = 0;
	if (sin->sin_family != AF_INET)
		return;
	memcpy(addr, &sin->sin_addr, 4);
	*port = ntohs(sin->sin_port);
}
