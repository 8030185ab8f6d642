/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A spare-aggd daemon state without the outside world, for tests that
 * drive its message handling directly (tests/fuzz/fuzz_aggd_dispatch.c,
 * tests/unit/test_aggd_hold.c). It includes the daemon's own rooms
 * (connection I/O, jobs, dispatch, migration) and the codec, and replaces
 * what talks to the outside:
 *  - peers are message-transport connections (the RDMA path of
 *    aggd_conn.c): agg_rdma_send/recv_done/close are stubs (nothing is
 *    lent: agg_rdma_recv_lend() says no, so pushes are copied, unless the
 *    test sets harness_lend: then each peer lends the message being
 *    delivered while fewer than AGG_RDMA_MAX_LENT of its messages are lent,
 *    as agg_rdma.c does), every message sent is handed to harness_sent()
 *    if the test sets it, and a send completes in settle() (unless the
 *    test sets harness_hold_sends: then it stays in flight), and
 *    registrations run off the loop (aggd_jobs.c's threads) end in
 *    settle() unless the test holds them; a message
 *    sent in place (agg_rdma_send_region) is read, and handed to
 *    harness_sent(), at its completion, as a NIC reads it, and not at
 *    all when its connection closes first; regions register unless the
 *    test sets harness_reg_fail, and a region deregistered while a send
 *    still reads it stops the test; a registration counts in
 *    harness_reg_on_loop if it runs on the test's (the event loop's)
 *    thread, and off it waits while the test sets harness_reg_hold;
 *    job creations (their buffers made off the loop) end in settle()
 *    unless the test sets harness_create_hold;
 *  - the pool runs each reduction at once on the calling thread and hands
 *    it back as done in settle() (deterministic);
 *  - summation copies the first input (agg_sum.c has its own tests) unless
 *    the test sets harness_real_sum, then it adds fp32;
 *  - no io_uring: a test must not create TCP connections (MIGRATE with a
 *    --peer-key-file would).
 * The including file defines check(int cond), which must stop the test
 * when cond is false.
 */
#ifndef SPARE_AGGD_HARNESS_H
#define SPARE_AGGD_HARNESS_H

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../userspace/lib/agg_proto.c"
#include "../../userspace/lib/spare_fdlimit.c"
#include "../../userspace/lib/spare_log.c"
#include "../../userspace/lib/spare_util.c"
#include "../../userspace/aggd/agg_job.c"
#include "../../userspace/aggd/aggd_conn.c"
#include "../../userspace/aggd/aggd_jobs.c"
#include "../../userspace/aggd/aggd_migrate.c"
#include "../../userspace/aggd/aggd_dispatch.c"
#include "../../userspace/aggd/aggd_report.c"
#include "../../userspace/lib/spare_keyfile.c"
#include "../../userspace/lib/spare_auth.c"
#include "../../userspace/lib/agg_auth.c"
#include "../../userspace/aggd/aggd_tenants.c"
#include "../../userspace/sched/flowcon.c"
#include "../../userspace/aggd/agg_rdma.h"

struct aggd_state g;

/* ---- summation: agg_sum.c is tested by test_agg_sum (and needs gcc's
 * cpu-feature names for clang); here the first input, or an fp32 sum ---- */
static int harness_real_sum;

void agg_sum(unsigned int dtype, void *out, const void *const *in,
	     unsigned int n_in, size_t n)
{
	if (harness_real_sum && dtype == AGG_DTYPE_F32) {
		float *o = out;

		for (size_t i = 0; i < n; i++) {
			o[i] = 0;
			for (unsigned int k = 0; k < n_in; k++)
				o[i] += ((const float *)in[k])[i];
		}
		return;
	}
	memcpy(out, in[0], n * agg_dtype_size(dtype));
}

/* Sum on arrival, the same way: the first input (rank 0's), or fp32 sums. */
void agg_fold(enum agg_isa isa, unsigned int dtype, float *acc, void *out,
	      const void *const *in, unsigned int n_in, int first, size_t n)
{
	size_t esz = agg_dtype_size(dtype);

	(void)isa;
	if (harness_real_sum && dtype == AGG_DTYPE_F32) {
		for (size_t i = 0; i < n; i++) {
			float a = first ? 0 : acc[i];

			for (unsigned int k = 0; k < n_in; k++)
				a += ((const float *)in[k])[i];
			acc[i] = a;
		}
		return;
	}
	/* fp16/bf16: acc (n floats) holds rank 0's n half values */
	if (first)
		memcpy(out && dtype != AGG_DTYPE_F32 ? out : (void *)acc, in[0],
		       n * esz);
	else if (out && dtype != AGG_DTYPE_F32)
		memcpy(out, acc, n * esz);
}

void agg_sgd_momentum(float *w, float *v, const float *sum, size_t n,
		      unsigned int n_workers, float lr, float momentum)
{
	for (size_t i = 0; i < n; i++) {
		v[i] = momentum * v[i] + sum[i] / (float)n_workers;
		w[i] -= lr * v[i];
	}
}

enum agg_isa agg_isa_selected(void) { return (enum agg_isa)0; }
const char *agg_isa_name(enum agg_isa isa) { (void)isa; return "fuzz"; }

/* ---- io_uring: never reached (no TCP connection exists here) ---- */
int io_uring_submit(struct io_uring *ring)
{
	(void)ring;
	abort();
}

/* ---- the RDMA transport, as stubs ---- */

/*
 * Each peer is one of these (kept until teardown: loans outlive their
 * connection). With harness_lend it lends the message deliver() is
 * handing it (which then stays allocated until its loan comes back).
 */
struct agg_rdma_region {
	const uint8_t *buf;
	size_t len;
};
struct agg_rdma_conn {
	struct agg_rdma_conn *all_next;
	int lends;
	unsigned int n_lent;
	/* a send in place, posted and not completed: read at completion */
	int inplace;
	uint8_t inplace_hdr[AGG_HDR_SIZE];
	const struct agg_rdma_region *inplace_region;
	const void *inplace_payload;
	size_t inplace_len;
};
struct agg_rdma_loan {
	struct agg_rdma_conn *rc;
	uint8_t *msg;
};
static int harness_lend;
static struct agg_rdma_conn *harness_rcs;	/* every peer's, all_next */
static int harness_reg_fail;		/* agg_rdma_region_reg() fails */
/* The optimizer harness_register() asks for (AGG_OPT_*; lr and momentum 0.5). */
static int harness_opt;
static unsigned int harness_regions;	/* registered, not deregistered */
static unsigned int harness_reg_calls;	/* agg_rdma_region_reg() calls */
static unsigned int harness_reg_on_loop; /* of them, on the loop's thread */
static int harness_reg_hold;		/* one off the loop waits while set */
static int harness_create_hold;		/* settle() leaves creations running */
static pthread_t harness_loop;		/* the test's thread: the event loop */
static uint8_t *harness_delivering;	/* deliver()'s message */
static int harness_msg_lent;		/* it was lent: not freed by deliver() */
static unsigned int harness_loans_out;

/* The test's eye on what the daemon sends (header decoded, payload). */
static void (*harness_sent)(const struct agg_hdr *h, const void *payload,
			    size_t len);

int agg_rdma_send(struct agg_rdma_conn *rc, const void *hdr, size_t hdr_len,
		  const void *payload, size_t len)
{
	(void)rc;
	if (hdr_len + len > AGG_HDR_SIZE + AGG_RDMA_MAX_PAYLOAD)
		return -1;
	if (harness_sent) {
		struct agg_hdr h;

		agg_hdr_decode(hdr, &h, UINT32_MAX);
		harness_sent(&h, payload, len);
	}
	return 0;
}

struct agg_rdma_region *agg_rdma_region_reg(struct agg_rdma_srv *s,
					    void *buf, size_t len)
{
	struct agg_rdma_region *r;

	(void)s;
	__atomic_add_fetch(&harness_reg_calls, 1, __ATOMIC_SEQ_CST);
	if (pthread_equal(pthread_self(), harness_loop))
		harness_reg_on_loop++;
	else
		while (__atomic_load_n(&harness_reg_hold, __ATOMIC_SEQ_CST))
			usleep(1000);
	if (harness_reg_fail) {
		errno = ENOMEM;
		return NULL;
	}
	r = malloc(sizeof(*r));
	check(r != NULL);
	r->buf = buf;
	r->len = len;
	__atomic_add_fetch(&harness_regions, 1, __ATOMIC_SEQ_CST);
	return r;
}

void agg_rdma_region_dereg(struct agg_rdma_region *r)
{
	/* no send may still read it */
	for (struct agg_rdma_conn *rc = harness_rcs; rc; rc = rc->all_next)
		check(!rc->inplace || rc->inplace_region != r);
	check(harness_regions > 0);
	__atomic_sub_fetch(&harness_regions, 1, __ATOMIC_SEQ_CST);
	free(r);
}

int agg_rdma_send_region(struct agg_rdma_conn *rc, const void *hdr,
			 size_t hdr_len, const struct agg_rdma_region *r,
			 const void *payload, size_t len)
{
	const uint8_t *at = payload;

	check(hdr_len == AGG_HDR_SIZE && !rc->inplace);
	check(at >= r->buf && len <= r->len && (size_t)(at - r->buf) <= r->len - len);
	if (len > AGG_RDMA_MAX_PAYLOAD)
		return -1;
	memcpy(rc->inplace_hdr, hdr, AGG_HDR_SIZE);
	rc->inplace_region = r;
	rc->inplace_payload = payload;
	rc->inplace_len = len;
	rc->inplace = 1;
	return 0;
}

/* Registrations off the loop wait (on) or go on (off). */
static __attribute__((unused)) void harness_hold_regs(int on)
{
	__atomic_store_n(&harness_reg_hold, on, __ATOMIC_SEQ_CST);
}

/* The send in place completes: the NIC reads the payload now. */
static void harness_inplace_complete(struct agg_rdma_conn *rc)
{
	if (!rc || !rc->inplace)
		return;
	rc->inplace = 0;
	if (harness_sent) {
		struct agg_hdr h;

		agg_hdr_decode(rc->inplace_hdr, &h, UINT32_MAX);
		harness_sent(&h, rc->inplace_payload, rc->inplace_len);
	}
}

void agg_rdma_recv_done(struct agg_rdma_conn *rc) { (void)rc; }
/* its QP destroyed: a send in flight reads nothing more */
void agg_rdma_close(struct agg_rdma_conn *rc) { rc->inplace = 0; }

/*
 * Without harness_lend the test's messages are its own buffers: pushes are
 * copied, never lent (tests/unit/test_agg_arrival.c tests folding lent
 * pushes). With it, the bound is agg_rdma.c's: AGG_RDMA_MAX_LENT a peer.
 */
struct agg_rdma_loan *agg_rdma_recv_lend(struct agg_rdma_conn *rc,
					 const uint8_t *msg)
{
	struct agg_rdma_loan *l;

	if (!harness_lend || !rc->lends || msg != harness_delivering ||
	    harness_msg_lent || rc->n_lent >= AGG_RDMA_MAX_LENT)
		return NULL;
	l = malloc(sizeof(*l));
	check(l != NULL);
	l->rc = rc;
	l->msg = harness_delivering;
	rc->n_lent++;
	harness_loans_out++;
	harness_msg_lent = 1;
	return l;
}

void agg_rdma_loan_return(struct agg_rdma_loan *l)
{
	check(harness_lend && l->rc->n_lent > 0);
	l->rc->n_lent--;
	harness_loans_out--;
	free(l->msg);
	free(l);
}

/* the state transfer needs a device: never offered here (g.rdma NULL) */
struct ibv_context *agg_rdma_verbs(const struct agg_rdma_srv *s)
{
	(void)s;
	return NULL;
}

/* no listener here (g.rdma NULL): never asked */
unsigned int agg_rdma_setups_queued(const struct agg_rdma_srv *s)
{
	(void)s;
	return 0;
}

void agg_rdma_addr(const struct agg_rdma_srv *s, uint8_t addr[4], uint32_t *port)
{
	(void)s;
	memset(addr, 0, 4);
	*port = 0;
}

struct state_target *state_target_new(struct ibv_context *verbs,
				      const struct state_local *bufs,
				      uint32_t n, char *why, size_t why_len)
{
	(void)verbs; (void)bufs; (void)n;
	snprintf(why, why_len, "no RDMA in the harness");
	return NULL;
}

void state_target_describe(const struct state_target *t, const uint8_t addr[4],
			   uint32_t port, struct agg_state_rdma *r)
{
	(void)t; (void)addr; (void)port; (void)r;
	abort();
}

int state_target_accept(struct state_target *t, struct rdma_cm_id *id,
			const uint8_t *token)
{
	(void)t; (void)id; (void)token;
	return -1;
}

void state_target_free(struct state_target *t) { (void)t; }

enum state_send_result state_send(const struct sockaddr_in *src,
				  const struct agg_state_rdma *r, uint32_t job_id,
				  const struct state_local *bufs, uint32_t n,
				  unsigned int connect_ms, char *why,
				  size_t why_len)
{
	(void)src; (void)r; (void)job_id; (void)bufs; (void)n; (void)connect_ms;
	snprintf(why, why_len, "no RDMA in the harness");
	return STATE_NOT_SENT;
}

struct state_sender *state_send_start(const struct sockaddr_in *src,
				      const struct agg_state_rdma *r,
				      uint32_t job_id,
				      const struct state_local *bufs,
				      uint32_t n, unsigned int connect_ms,
				      char *why, size_t why_len)
{
	(void)src; (void)r; (void)job_id; (void)bufs; (void)n; (void)connect_ms;
	snprintf(why, why_len, "no RDMA in the harness");
	return NULL;
}

int state_sender_fd(const struct state_sender *s) { (void)s; abort(); }
void state_sender_cancel(struct state_sender *s) { (void)s; abort(); }

enum state_send_result state_sender_finish(struct state_sender *s, char *why,
					   size_t why_len)
{
	(void)s; (void)why; (void)why_len;
	abort();
}

/* ---- the pool, synchronous ---- */
static struct agg_task *done_head;
static agg_pool_run_fn run_fn = pool_run;

int agg_pool_add_job(struct agg_pool *p, uint32_t id, uint32_t weight)
{
	(void)p; (void)id; (void)weight;
	return 0;
}

static uint32_t harness_weight[64];	/* by job id, what FlowCon set */

int agg_pool_set_weight(struct agg_pool *p, uint32_t id, uint32_t weight)
{
	(void)p;
	if (id < 64)
		harness_weight[id] = weight;
	return 0;
}

struct agg_task *agg_pool_remove_job(struct agg_pool *p, uint32_t id)
{
	(void)p; (void)id;
	return NULL;		/* nothing waits: every task ran at once */
}

int agg_pool_submit(struct agg_pool *p, struct agg_task *t)
{
	(void)p;
	run_fn(t);
	t->next = done_head;
	done_head = t;
	return 0;
}

/* every fold goes through agg_pool_submit, so run_fn sees it */
int agg_pool_charge_if_idle(struct agg_pool *p, uint32_t id, uint64_t cost)
{
	(void)p; (void)id; (void)cost;
	return 0;
}

struct agg_task *agg_pool_take_done(struct agg_pool *p)
{
	struct agg_task *t = done_head;

	(void)p;
	done_head = NULL;
	return t;
}

void agg_pool_stats(struct agg_pool *p, struct agg_pool_stats *st)
{
	(void)p;
	memset(st, 0, sizeof(*st));
}

/* ---- the harness ---- */

/*
 * A fresh daemon state for one test (or fuzz input): the daemon's rooms set
 * up once (logging as @name), then g zeroed with small limits (1 MiB for
 * all jobs, 256 KiB per job, 4 KiB pushes) and a clock at 1 ns.
 */
static void harness_rcs_free(void)
{
	while (harness_rcs) {
		struct agg_rdma_conn *rc = harness_rcs;

		harness_rcs = rc->all_next;
		check(!rc->n_lent);
		free(rc);
	}
}

static __attribute__((unused)) void harness_reset(const char *name)
{
	static int once;

	if (!once) {
		spare_log_init(name, SPARE_LOG_ERR);
		check(sodium_init() >= 0);
		dispatch_init();
		migrate_init();
		once = 1;
	}
	tenants_free(&g.tenants);
	memset(&g, 0, sizeof(g));
	g.pool = (struct agg_pool *)&g;	/* not dereferenced by the stubs */
	g.mem_max = 1 << 20;
	g.job_mem_max = 1 << 18;
	g.max_push = 4096;
	g.now_ns = 1;
	g.event_fd = -1;	/* registrations ended: settle() waits for them */
	harness_lend = 0;
	harness_reg_fail = 0;
	harness_opt = AGG_OPT_NONE;
	harness_regions = 0;
	harness_reg_calls = harness_reg_on_loop = 0;
	harness_reg_hold = 0;
	harness_create_hold = 0;
	harness_loop = pthread_self();
	harness_rcs_free();
}

#define N_PEERS 4
static struct conn *peer[N_PEERS];

static __attribute__((unused)) int alive(struct conn *c)
{
	for (struct conn *x = g.conns; x; x = x->next)
		if (x == c)
			return 1;
	return 0;
}

/* Set by a test to keep sends in flight: settle() completes none. */
static int harness_hold_sends;

/* Until no job is being created (its buffers made off the loop). */
static void harness_wait_creates(void)
{
	for (;;) {
		int creating = 0;

		for (struct job_entry *e = g.jobs; e; e = e->next)
			creating |= e->job->creating;
		if (!creating)
			return;
		usleep(1000);
		handle_done_regs();
	}
}

static __attribute__((unused)) void settle(void)
{
	/* registrations off the loop end, unless held; creations end
	 * unless the test holds them */
	if (__atomic_load_n(&harness_reg_hold, __ATOMIC_SEQ_CST)) {
		if (!harness_create_hold)
			harness_wait_creates();
		handle_done_regs();
	} else if (harness_create_hold) {
		handle_done_regs();
	} else {
		jobs_wait_regs();
	}
	/* complete sends and finished reductions until nothing moves */
	for (int round = 0; round < 64; round++) {
		int moved = 0;

		for (struct conn *c = g.conns, *n; c && !harness_hold_sends; c = n) {
			n = c->next;
			if (c->tx_busy && c->tx_head && !c->closing) {
				harness_inplace_complete(c->rdma);
				on_send(c, (int)(AGG_HDR_SIZE + c->tx_head->len - c->tx_head->off));
				moved = 1;
				break;	/* the list may have changed */
			}
		}
		if (done_head) {
			handle_done_tasks();
			moved = 1;
		}
		if (!moved)
			break;
	}
	for (int i = 0; i < N_PEERS; i++)
		if (peer[i] && !alive(peer[i]))
			peer[i] = NULL;
}

static __attribute__((unused)) void invariants(void)
{
	size_t mem = 0;

	for (struct job_entry *e = g.jobs; e; e = e->next)
		mem += e->job->mem_bytes;
	check(mem == g.mem_used);
	for (struct conn *c = g.conns; c; c = c->next)
		if (c->job)
			check(c->job->rank_conn[c->rank] == c);
}

static __attribute__((unused)) void deliver(struct conn *c, unsigned int type, struct agg_hdr *h,
		    const uint8_t *body, size_t len)
{
	uint8_t *msg = malloc(AGG_HDR_SIZE + len);

	check(msg != NULL);
	h->magic = AGG_PROTO_MAGIC;
	h->version = AGG_PROTO_VERSION;
	h->type = (uint16_t)type;
	h->len = (uint32_t)len;
	agg_hdr_encode(h, msg);
	if (len)
		memcpy(msg + AGG_HDR_SIZE, body, len);
	harness_delivering = msg;
	harness_msg_lent = 0;
	conn_message(c, msg, AGG_HDR_SIZE + len);
	harness_delivering = NULL;
	settle();
	if (!harness_msg_lent)
		free(msg);	/* held messages were copied */
}

/* A PUSH of @nelem floats v, v + 1, ... for job @job_id's iteration @iter. */
static __attribute__((unused)) void harness_push_ramp(struct conn *c, uint32_t job_id,
						      uint32_t iter, float v, int nelem)
{
	struct agg_hdr h;
	float buf[nelem];

	for (int i = 0; i < nelem; i++)
		buf[i] = v + (float)i;
	memset(&h, 0, sizeof(h));
	h.job_id = job_id;
	h.iter = iter;
	deliver(c, AGG_MSG_PUSH, &h, (const uint8_t *)buf, sizeof(buf));
}

/* A PULL of job @job_id's iteration @iter. */
static __attribute__((unused)) void harness_pull(struct conn *c, uint32_t job_id, uint32_t iter)
{
	struct agg_hdr h;

	memset(&h, 0, sizeof(h));
	h.job_id = job_id;
	h.iter = iter;
	deliver(c, AGG_MSG_PULL, &h, NULL, 0);
}

/* A new peer: a message-transport connection of the daemon. */
static __attribute__((unused)) struct conn *harness_peer(void)
{
	struct conn *c = conn_open(-1, "harness");
	struct agg_rdma_conn *rc = calloc(1, sizeof(*rc));

	check(rc != NULL);
	rc->lends = harness_lend;
	rc->all_next = harness_rcs;
	harness_rcs = rc;
	if (c) {
		c->rdma = rc;
		c->admin = g.stats_open;
	}
	return c;
}

/*
 * Rank @rank of @nw of job @name registered on @c (token @token, an fp32
 * tensor of @nelem elements in partitions of @part_elems, optimizer
 * harness_opt); the answer is the test's to check.
 */
static __attribute__((unused)) void harness_register_rank(struct conn *c, const char *name,
							  const char *token, unsigned int nw,
							  unsigned int rank, uint32_t nelem,
							  uint32_t part_elems)
{
	struct agg_tensor_desc t = { .name = "grad", .nelem = nelem };
	struct agg_job_spec s = {
		.n_workers = (uint16_t)nw, .rank = (uint16_t)rank,
		.dtype = AGG_DTYPE_F32, .weight = 1,
		.opt = (uint8_t)harness_opt,
		.lr = harness_opt ? 0.5f : 0, .momentum = harness_opt ? 0.5f : 0,
		.part_elems = part_elems, .n_tensors = 1, .tensors = &t,
	};
	uint8_t body[256];
	struct agg_hdr h = { 0 };
	int len;

	snprintf(s.name, sizeof(s.name), "%s", name);
	snprintf(s.token, sizeof(s.token), "%s", token);
	len = agg_register_encode(&s, body, sizeof(body));
	check(len > 0);
	deliver(c, AGG_MSG_REGISTER, &h, body, (size_t)len);
}

/*
 * nw workers of job @name (token "secret", as harness_register_rank())
 * registered, each on a harness_peer() of its own, in rank order; each
 * ends attached to the job.
 */
static __attribute__((unused)) void harness_register(struct conn **w, unsigned int nw,
						     const char *name, uint32_t nelem,
						     uint32_t part_elems)
{
	for (unsigned int r = 0; r < nw; r++) {
		w[r] = harness_peer();
		check(w[r] != NULL);
		harness_register_rank(w[r], name, "secret", nw, r, nelem, part_elems);
		check(w[r]->job != NULL);
	}
}

static __attribute__((unused)) void teardown(void)
{
	while (g.conns) {
		struct conn *c = g.conns;

		c->closing = true;
		c->rx_busy = c->tx_busy = false;
		c->left = true;
		c->replaying = false;
		conn_destroy(c);
	}
	if (done_head)
		handle_done_tasks();
	jobs_free_all();
	report_free();
	memset(peer, 0, sizeof(peer));
	check(harness_regions == 0);	/* every job's registration dropped */
	harness_rcs_free();
}


#endif /* SPARE_AGGD_HARNESS_H */
