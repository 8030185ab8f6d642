// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd: a moving job's optimizer state by RDMA WRITE
 * (agg_state_rdma.h).
 */
#include <errno.h>
#include <pthread.h>
#include <rdma/rdma_cma.h>
#include <signal.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "agg_state_rdma.h"
#include "spare_rdma.h"

/* WRITEs in flight at the source, each signalled */
#define STATE_SEND_DEPTH	32
/* a WRITE's completion, at most (soft-RoCE in a loaded guest is slow) */
#define STATE_WRITE_MS		30000
/* how often a sender waiting for completions looks at its cancel flag */
#define STATE_CANCEL_MS		50

struct state_target {
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct rdma_cm_id *id;		/* the accepted connection, or NULL */
	uint32_t n;
	struct ibv_mr **mrs;
	uint8_t token[AGG_STATE_TOKEN_LEN];
	bool used;			/* a connection took the token */
};

static void say(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

void state_target_free(struct state_target *t)
{
	if (!t)
		return;
	/* the rkeys die first: nothing can WRITE into the job after this */
	for (uint32_t i = 0; i < t->n; i++)
		if (t->mrs[i])
			ibv_dereg_mr(t->mrs[i]);
	if (t->id) {
		rdma_disconnect(t->id);
		rdma_destroy_qp(t->id);
		rdma_destroy_id(t->id);
	}
	if (t->cq)
		ibv_destroy_cq(t->cq);
	if (t->pd)
		ibv_dealloc_pd(t->pd);
	sodium_memzero(t->token, sizeof(t->token));
	free(t->mrs);
	free(t);
}

struct state_target *state_target_new(struct ibv_context *verbs,
				      const struct state_local *bufs,
				      uint32_t n, char *why, size_t why_len)
{
	struct state_target *t = calloc(1, sizeof(*t));

	if (!t || !(t->mrs = calloc(n ? n : 1, sizeof(*t->mrs)))) {
		free(t);
		say(why, why_len, "out of memory");
		return NULL;
	}
	t->n = n;
	t->pd = ibv_alloc_pd(verbs);
	if (!t->pd) {
		say(why, why_len, "ibv_alloc_pd: %s", strerror(errno));
		goto fail;
	}
	for (uint32_t i = 0; i < n; i++) {
		t->mrs[i] = ibv_reg_mr(t->pd, bufs[i].addr, bufs[i].len,
				       IBV_ACCESS_LOCAL_WRITE |
				       IBV_ACCESS_REMOTE_WRITE);
		if (!t->mrs[i]) {
			say(why, why_len, "ibv_reg_mr of %u bytes: %s",
			    bufs[i].len, strerror(errno));
			goto fail;
		}
	}
	randombytes_buf(t->token, sizeof(t->token));
	return t;
fail:
	state_target_free(t);
	return NULL;
}

void state_target_describe(const struct state_target *t, const uint8_t addr[4],
			   uint32_t port, struct agg_state_rdma *r)
{
	memcpy(r->token, t->token, sizeof(r->token));
	memcpy(r->addr, addr, 4);
	r->port = port;
	r->n_bufs = t->n;
	for (uint32_t i = 0; i < t->n; i++) {
		r->bufs[i].addr = (uintptr_t)t->mrs[i]->addr;
		r->bufs[i].rkey = t->mrs[i]->rkey;
		r->bufs[i].len = (uint32_t)t->mrs[i]->length;
	}
}

int state_target_accept(struct state_target *t, struct rdma_cm_id *id,
			const uint8_t *token)
{
	struct spare_rdma_err e;

	/* constant time, and once: a replayed token finds t->used */
	if (crypto_verify_32(t->token, token) || t->used ||
	    id->verbs != t->pd->context)
		return -1;
	t->used = true;
	if (spare_rdma_cq(id->verbs, 2, NULL, 0, NULL, &t->cq, &e) ||
	    spare_rdma_qp(id, t->pd, t->cq, 1, 1))
		return -1;
	if (spare_rdma_accept(id, 0, 0)) {
		rdma_destroy_qp(id);
		return -1;
	}
	t->id = id;
	return 0;
}

/* Everything the source made for one move. */
struct state_src {
	struct rdma_event_channel *ec;
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_comp_channel *cc;
	struct ibv_cq *cq;
	struct ibv_mr **mrs;
	uint32_t n;
	bool up;
};

static void state_src_free(struct state_src *s)
{
	if (s->up)
		rdma_disconnect(s->id);
	if (s->id && s->id->qp)
		rdma_destroy_qp(s->id);
	for (uint32_t i = 0; s->mrs && i < s->n; i++)
		if (s->mrs[i])
			ibv_dereg_mr(s->mrs[i]);
	free(s->mrs);
	spare_rdma_teardown(&(struct spare_rdma_objs){
		.ec = s->ec, .id = s->id, .cq = s->cq, .cc = s->cc, .pd = s->pd });
}

/* Post WRITE @i (signalled). */
static int post_write(struct state_src *s, const struct agg_state_rdma *r,
		      const struct state_local *bufs, uint32_t i)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)bufs[i].addr, .length = bufs[i].len,
		.lkey = s->mrs[i]->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = i, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = r->bufs[i].addr, .rkey = r->bufs[i].rkey },
	}, *bad;

	return ibv_post_send(s->id->qp, &wr, &bad);
}

static bool cancelled(const int *cancel)
{
	return cancel && __atomic_load_n(cancel, __ATOMIC_ACQUIRE);
}

/*
 * The next completion: 1 (in @wc), 0 when none came within STATE_WRITE_MS,
 * -1 on an error (errno), -2 when *@cancel was set meanwhile.
 *
 * The CQ alone: a target that goes away closes the move's TCP link too,
 * and the event loop then cancels us (mig_link_closing()); watching the
 * CM channel here as well would race that path for the move's reason
 * (agg/rdma-faults' move-kill). A WRITE whose ACK never comes fails after
 * 7 ACK timeouts (SPARE_RDMA_RETRY), within STATE_WRITE_MS.
 */
static int next_completion(struct state_src *s, struct ibv_wc *wc,
			   const int *cancel)
{
	for (unsigned int waited = 0; waited < STATE_WRITE_MS;
	     waited += STATE_CANCEL_MS) {
		int got = spare_rdma_cq_next(s->cq, s->cc, wc, STATE_CANCEL_MS);

		if (got)
			return got;
		if (cancelled(cancel))
			return -2;
	}
	return 0;
}

/* state_send(), stopping early (as a failure) once *@cancel is set. */
static enum state_send_result send_cancellable(const struct sockaddr_in *src,
					       const struct agg_state_rdma *r,
					       uint32_t job_id,
					       const struct state_local *bufs,
					       uint32_t n, unsigned int connect_ms,
					       const int *cancel, char *why,
					       size_t why_len)
{
	struct state_src s = { .n = n };
	struct sockaddr_in dst = { .sin_family = AF_INET };
	uint8_t priv[AGG_STATE_PRIV_SIZE];
	struct spare_rdma_err e = { 0 };
	char eb[128];
	uint32_t posted = 0, done = 0;

	memcpy(&dst.sin_addr, r->addr, 4);
	dst.sin_port = htons((uint16_t)r->port);
	if (spare_rdma_open(&s.ec, &s.id, NULL, false, &e) ||
	    spare_rdma_resolve(s.ec, s.id, (const struct sockaddr *)src,
			       (const struct sockaddr *)&dst, (int)connect_ms,
			       connect_ms, 0, &e)) {
		say(why, why_len, "rdma_cm: %s", spare_rdma_strerr(&e, eb, sizeof(eb)));
		goto not_sent;
	}
	s.pd = ibv_alloc_pd(s.id->verbs);
	if (!s.pd || spare_rdma_cq(s.id->verbs, STATE_SEND_DEPTH + 1, NULL,
				   SPARE_RDMA_CQ_CHANNEL, &s.cc, &s.cq, &e) ||
	    spare_rdma_qp(s.id, s.pd, s.cq, STATE_SEND_DEPTH, 1)) {
		say(why, why_len, "verbs set-up: %s", strerror(errno));
		goto not_sent;
	}
	s.mrs = calloc(n ? n : 1, sizeof(*s.mrs));
	if (!s.mrs) {
		say(why, why_len, "out of memory");
		goto not_sent;
	}
	/* local access only: no rkey to the live job exists */
	for (uint32_t i = 0; i < n; i++) {
		s.mrs[i] = ibv_reg_mr(s.pd, bufs[i].addr, bufs[i].len, 0);
		if (!s.mrs[i]) {
			say(why, why_len, "ibv_reg_mr of %u bytes: %s", bufs[i].len,
			    strerror(errno));
			goto not_sent;
		}
	}
	agg_state_priv_encode(job_id, r->token, priv);
	if (cancelled(cancel)) {
		say(why, why_len, "cancelled");
		goto not_sent;
	}
	if (spare_rdma_connect(s.ec, s.id, priv, sizeof(priv), 0, connect_ms, &e)) {
		say(why, why_len, "rdma_cm: %s", spare_rdma_strerr(&e, eb, sizeof(eb)));
		goto not_sent;
	}
	s.up = true;
	while (done < n) {
		struct ibv_wc wc;
		int got;

		while (posted < n && posted - done < STATE_SEND_DEPTH) {
			if (post_write(&s, r, bufs, posted)) {
				say(why, why_len, "ibv_post_send of WRITE %u: %s",
				    posted, strerror(errno));
				goto broken_or_not;
			}
			posted++;
		}
		got = next_completion(&s, &wc, cancel);
		if (got == -2) {
			say(why, why_len, "cancelled after %u of %u WRITEs", done, n);
			goto broken;
		}
		if (got <= 0) {
			say(why, why_len, "no WRITE completion within %u ms%s%s",
			    STATE_WRITE_MS, got < 0 ? ": " : "",
			    got < 0 ? strerror(errno) : "");
			goto broken;
		}
		if (wc.status != IBV_WC_SUCCESS) {
			say(why, why_len, "WRITE %llu of %u failed: %s",
			    (unsigned long long)wc.wr_id, n,
			    ibv_wc_status_str(wc.status));
			goto broken;
		}
		done++;
	}
	state_src_free(&s);
	return STATE_SENT;
broken_or_not:
	if (!posted)
		goto not_sent;
broken:
	state_src_free(&s);
	return STATE_BROKEN;
not_sent:
	state_src_free(&s);
	return STATE_NOT_SENT;
}

enum state_send_result state_send(const struct sockaddr_in *src,
				  const struct agg_state_rdma *r, uint32_t job_id,
				  const struct state_local *bufs, uint32_t n,
				  unsigned int connect_ms, char *why,
				  size_t why_len)
{
	return send_cancellable(src, r, job_id, bufs, n, connect_ms, NULL, why,
				why_len);
}

struct state_sender {
	pthread_t tid;
	int efd;
	int cancel;			/* atomic: set by state_sender_cancel() */
	struct sockaddr_in src;
	struct agg_state_rdma r;	/* r.bufs: a copy */
	uint32_t job_id;
	struct state_local *bufs;	/* a copy of the list, not the bytes */
	uint32_t n;
	unsigned int connect_ms;
	enum state_send_result result;
	char why[160];
};

static void sender_free(struct state_sender *s)
{
	if (s->efd >= 0)
		close(s->efd);
	free(s->r.bufs);
	free(s->bufs);
	free(s);
}

static void *sender_main(void *arg)
{
	struct state_sender *s = arg;
	uint64_t one = 1;

	s->result = send_cancellable(&s->src, &s->r, s->job_id, s->bufs, s->n,
				     s->connect_ms, &s->cancel, s->why,
				     sizeof(s->why));
	/* the caller joins before it reads the result */
	if (write(s->efd, &one, sizeof(one)) != sizeof(one))
		abort();	/* a counter of 1 cannot overflow */
	return NULL;
}

struct state_sender *state_send_start(const struct sockaddr_in *src,
				      const struct agg_state_rdma *r,
				      uint32_t job_id,
				      const struct state_local *bufs,
				      uint32_t n, unsigned int connect_ms,
				      char *why, size_t why_len)
{
	struct state_sender *s = calloc(1, sizeof(*s));
	sigset_t all, old;
	int err;

	if (!s) {
		say(why, why_len, "out of memory");
		return NULL;
	}
	s->efd = -1;
	s->r = *r;
	s->r.bufs = calloc(r->n_bufs ? r->n_bufs : 1, sizeof(*r->bufs));
	s->bufs = calloc(n ? n : 1, sizeof(*bufs));
	if (!s->r.bufs || !s->bufs) {
		say(why, why_len, "out of memory");
		goto fail;
	}
	memcpy(s->r.bufs, r->bufs, (size_t)r->n_bufs * sizeof(*r->bufs));
	memcpy(s->bufs, bufs, (size_t)n * sizeof(*bufs));
	s->src = *src;
	s->job_id = job_id;
	s->n = n;
	s->connect_ms = connect_ms;
	s->efd = eventfd(0, EFD_CLOEXEC);
	if (s->efd < 0) {
		say(why, why_len, "eventfd: %s", strerror(errno));
		goto fail;
	}
	/* the thread takes no signal: they are the caller's to handle */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&s->tid, NULL, sender_main, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		say(why, why_len, "pthread_create: %s", strerror(err));
		goto fail;
	}
	return s;
fail:
	sender_free(s);
	return NULL;
}

int state_sender_fd(const struct state_sender *s)
{
	return s->efd;
}

void state_sender_cancel(struct state_sender *s)
{
	__atomic_store_n(&s->cancel, 1, __ATOMIC_RELEASE);
}

enum state_send_result state_sender_finish(struct state_sender *s, char *why,
					   size_t why_len)
{
	enum state_send_result r;

	pthread_join(s->tid, NULL);
	r = s->result;
	say(why, why_len, "%s", s->why);
	sender_free(s);
	return r;
}
