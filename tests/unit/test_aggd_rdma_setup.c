// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd: an RDMA worker connection's set-up off the event loop
 * (issue 35), userspace/aggd/agg_rdma.c against a fake rdma_cm and verbs
 * layer (every call it makes is defined here and counted). The offload
 * hook holds each set-up until the test runs it (the helper) and then its
 * done() (the loop):
 *  - a CONNECT_REQUEST leaves the loop with nothing registered, no QP, no
 *    accept; run() registers the buffer, makes the QP and posts the 8
 *    receives; done() hands the connection over (accepted()) and accepts;
 *  - a REJECTED / DISCONNECTED / DEVICE_REMOVAL event while the helper
 *    holds the request only marks it: no callback, nothing destroyed;
 *    done() then destroys the id once and never accepts; the buffer goes
 *    back to the cache;
 *  - the daemon stopping (done(exiting)): rejected and destroyed once;
 *  - a failed registration: rejected, destroyed once, not accepted;
 *  - beyond AGG_RDMA_SETUP_HELPERS set-ups at once the next ones wait, in
 *    order, each started by a done(); one withdrawn while it waits is
 *    destroyed at its turn without a helper; the stop rejects the rest.
 * The real layer (soft-RoCE) is run by tests/vm/agg/rdma.sh.
 */
#include "tap.h"

#include "../../userspace/lib/agg_proto.c"
#include "../../userspace/lib/spare_log.c"
#include "../../userspace/lib/spare_util.c"
#include "../../userspace/aggd/agg_rdma.c"

/* ---- the fake layer ---- */

static struct {
	unsigned int reg_mr, dereg_mr, create_qp, destroy_qp, post_recv;
	unsigned int reject, destroy_id, accept, accepted, failed;
	bool reg_fail;
} n;

static struct ibv_device fake_dev;
static struct ibv_context fake_ctx = { .device = &fake_dev };
static struct ibv_pd fake_pd = { .context = &fake_ctx };

static int fake_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
			  struct ibv_recv_wr **bad)
{
	n.post_recv++;
	return 0;
}

const char *ibv_get_device_name(struct ibv_device *device)
{
	return "fake0";
}

struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)
{
	return &fake_pd;
}

struct ibv_mr *(ibv_reg_mr)(struct ibv_pd *pd, void *addr, size_t length,
			    int access)
{
	struct ibv_mr *mr;

	if (n.reg_fail) {
		errno = EPERM;
		return NULL;
	}
	mr = calloc(1, sizeof(*mr));
	if (!mr)
		return NULL;
	mr->addr = addr;
	mr->length = length;
	n.reg_mr++;
	return mr;
}

struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length,
				uint64_t iova, unsigned int access)
{
	return (ibv_reg_mr)(pd, addr, length, (int)access);
}

int ibv_dereg_mr(struct ibv_mr *mr)
{
	n.dereg_mr++;
	free(mr);
	return 0;
}

int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq,
		     void **cq_context)
{
	return -1;
}

void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)
{
}

const char *ibv_wc_status_str(enum ibv_wc_status status)
{
	return "fake";
}

int spare_rdma_open(struct rdma_event_channel **ec, struct rdma_cm_id **id,
		    void *context, bool nonblock, struct spare_rdma_err *e)
{
	e->step = "rdma_create_event_channel";
	e->err = ENODEV;
	return -1;
}

int spare_rdma_listen(struct rdma_cm_id *id, const struct sockaddr *addr,
		      int backlog, struct spare_rdma_err *e)
{
	e->step = "rdma_listen";
	e->err = ENODEV;
	return -1;
}

int spare_rdma_cq(struct ibv_context *verbs, int depth, void *cq_context,
		  unsigned int flags, struct ibv_comp_channel **cc,
		  struct ibv_cq **cq, struct spare_rdma_err *e)
{
	*cc = NULL;
	*cq = NULL;
	return 0;
}

int spare_rdma_qp_sge(struct rdma_cm_id *id, struct ibv_pd *pd,
		      struct ibv_cq *cq, uint32_t send, uint32_t recv,
		      uint32_t send_sge)
{
	id->qp = calloc(1, sizeof(*id->qp));
	if (!id->qp)
		return -1;
	id->qp->context = id->verbs;
	n.create_qp++;
	return 0;
}

int spare_rdma_accept(struct rdma_cm_id *id, uint8_t responder_resources,
		      uint8_t initiator_depth)
{
	n.accept++;
	return 0;
}

int spare_rdma_fast_rnr(struct ibv_qp *qp)
{
	return 0;
}

void spare_rdma_teardown(const struct spare_rdma_objs *o)
{
	if (o->id && o->id->qp) {
		n.destroy_qp++;
		free(o->id->qp);
		o->id->qp = NULL;
	}
	if (o->id) {
		n.destroy_id++;
		free(o->id);
	}
}

/* queued events for rdma_get_cm_event() */
static struct rdma_cm_event evq[8];
static unsigned int n_ev, ev_at;

int rdma_get_cm_event(struct rdma_event_channel *channel,
		      struct rdma_cm_event **event)
{
	if (ev_at == n_ev) {
		n_ev = ev_at = 0;
		errno = EAGAIN;
		return -1;
	}
	*event = &evq[ev_at++];
	return 0;
}

int rdma_ack_cm_event(struct rdma_cm_event *event)
{
	return 0;
}

int rdma_reject(struct rdma_cm_id *id, const void *private_data,
		uint8_t private_data_len)
{
	n.reject++;
	return 0;
}

int rdma_destroy_id(struct rdma_cm_id *id)
{
	n.destroy_id++;
	free(id);
	return 0;
}

int rdma_disconnect(struct rdma_cm_id *id)
{
	return 0;
}

const char *rdma_event_str(enum rdma_cm_event_type event)
{
	return "event";
}

/* ---- the daemon's side ---- */

static int cookie;

static void *on_accepted(struct agg_rdma_conn *rc, const char *peer)
{
	n.accepted++;
	return &cookie;
}

static void on_received(void *c, const uint8_t *msg, size_t len)
{
}

static void on_sent(void *c)
{
}

static void on_failed(void *c, const char *why)
{
	n.failed++;
}

/* set-ups held for the test: run() then done() when it says */
static struct held {
	void (*run)(void *arg);
	void (*done)(void *arg, bool exiting);
	void *arg;
} held[16];
static unsigned int n_held;

static int hold(void (*run)(void *arg), void (*done)(void *arg, bool exiting),
		void *arg)
{
	if (n_held == sizeof(held) / sizeof(held[0]))
		abort();
	held[n_held++] = (struct held){ run, done, arg };
	return 0;
}

static const struct agg_rdma_ops ops = {
	.accepted = on_accepted,
	.received = on_received,
	.sent = on_sent,
	.failed = on_failed,
	.offload = hold,
};

static struct agg_rdma_srv *srv_new(void)
{
	struct agg_rdma_srv *s = calloc(1, sizeof(*s));

	if (!s)
		abort();
	s->ops = &ops;
	memset(&n, 0, sizeof(n));
	n_held = 0;
	return s;
}

static void srv_free(struct agg_rdma_srv *s)
{
	for (uint32_t i = 0; i < s->n_conns; i++)
		if (s->conns[i])
			conn_free(s->conns[i]);
	free(s->conns);
	while (s->n_cache)
		conn_buf_free(s->cache[--s->n_cache]);
	free(s);
}

static struct rdma_cm_id *request(void)
{
	struct rdma_cm_id *id = calloc(1, sizeof(*id));

	if (!id)
		abort();
	id->verbs = &fake_ctx;
	evq[n_ev++] = (struct rdma_cm_event){
		.id = id, .event = RDMA_CM_EVENT_CONNECT_REQUEST };
	return id;
}

static void event(struct rdma_cm_id *id, enum rdma_cm_event_type type)
{
	evq[n_ev++] = (struct rdma_cm_event){ .id = id, .event = type };
}

static void accepted_after_done(void)
{
	struct agg_rdma_srv *s = srv_new();

	request();
	agg_rdma_cm_event(s);
	/* on the loop: nothing registered, no QP, no accept yet */
	EXPECT_EQ(n.reg_mr, 0);
	EXPECT_EQ(n.create_qp, 0);
	EXPECT_EQ(n.accepted, 0);
	EXPECT_EQ(n.accept, 0);
	EXPECT_EQ(n_held, 1);
	EXPECT_EQ(s->n_setting_up, 1);
	if (n_held != 1)
		goto out;
	held[0].run(held[0].arg);	/* the helper */
	EXPECT_EQ(n.reg_mr, 1);
	EXPECT_EQ(n.create_qp, 1);
	EXPECT_EQ(n.post_recv, AGG_RDMA_RECV_DEPTH);
	EXPECT_EQ(n.accept, 0);
	held[0].done(held[0].arg, false);	/* the loop */
	EXPECT_EQ(n.accepted, 1);
	EXPECT_EQ(n.accept, 1);
	EXPECT_EQ(n.reject, 0);
	EXPECT_EQ(n.destroy_id, 0);
	EXPECT_EQ(s->n_setting_up, 0);
	EXPECT_EQ(s->bufs_made, 1);
out:
	srv_free(s);
}

/* the peer gives up (or the device goes) while a helper holds it */
static void gone_while_held(enum rdma_cm_event_type type)
{
	struct agg_rdma_srv *s = srv_new();
	struct rdma_cm_id *id = request();

	agg_rdma_cm_event(s);
	EXPECT_EQ(n_held, 1);
	if (n_held != 1)
		goto out;
	event(id, type);
	agg_rdma_cm_event(s);	/* while the helper runs: only marked */
	EXPECT_EQ(n.destroy_id, 0);
	EXPECT_EQ(n.failed, 0);
	held[0].run(held[0].arg);
	held[0].done(held[0].arg, false);
	EXPECT_EQ(n.accepted, 0);
	EXPECT_EQ(n.accept, 0);
	EXPECT_EQ(n.destroy_qp, 1);
	EXPECT_EQ(n.destroy_id, 1);
	EXPECT_EQ(s->n_cache, 1);	/* its buffer kept for the next */
	EXPECT_EQ(s->n_setting_up, 0);
	/* the next request takes the cached buffer: nothing registered */
	request();
	agg_rdma_cm_event(s);
	EXPECT_EQ(n_held, 2);
	if (n_held == 2) {
		held[1].run(held[1].arg);
		held[1].done(held[1].arg, false);
	}
	EXPECT_EQ(n.reg_mr, 1);
	EXPECT_EQ(n.accepted, 1);
out:
	srv_free(s);
}

static void rejected_while_held(void)
{
	gone_while_held(RDMA_CM_EVENT_REJECTED);
}

static void disconnected_while_held(void)
{
	gone_while_held(RDMA_CM_EVENT_DISCONNECTED);
}

static void device_removal_while_held(void)
{
	gone_while_held(RDMA_CM_EVENT_DEVICE_REMOVAL);
}

static void exiting_while_held(void)
{
	struct agg_rdma_srv *s = srv_new();

	request();
	agg_rdma_cm_event(s);
	EXPECT_EQ(n_held, 1);
	if (n_held == 1) {
		held[0].run(held[0].arg);
		held[0].done(held[0].arg, true);
	}
	EXPECT_EQ(n.accepted, 0);
	EXPECT_EQ(n.accept, 0);
	EXPECT_EQ(n.reject, 1);
	EXPECT_EQ(n.destroy_id, 1);
	EXPECT_EQ(s->n_setting_up, 0);
	srv_free(s);
}

static void registration_fails(void)
{
	struct agg_rdma_srv *s = srv_new();

	n.reg_fail = true;
	request();
	agg_rdma_cm_event(s);
	EXPECT_EQ(n_held, 1);
	if (n_held == 1) {
		held[0].run(held[0].arg);
		EXPECT_EQ(n.create_qp, 0);
		held[0].done(held[0].arg, false);
	}
	EXPECT_EQ(n.accepted, 0);
	EXPECT_EQ(n.reject, 1);
	EXPECT_EQ(n.destroy_id, 1);
	EXPECT_EQ(s->n_cache, 0);
	srv_free(s);
}

static void held_finish(unsigned int i)
{
	held[i].run(held[i].arg);
	held[i].done(held[i].arg, false);
}

static void beyond_the_helpers_queued(void)
{
	struct agg_rdma_srv *s = srv_new();
	struct rdma_cm_id *ids[AGG_RDMA_SETUP_HELPERS + 2];
	unsigned int i, nreq = AGG_RDMA_SETUP_HELPERS + 2;

	for (i = 0; i < nreq; i++) {
		ids[i] = request();
		agg_rdma_cm_event(s);
	}
	/* two wait, nothing spent on them */
	EXPECT_EQ(n_held, AGG_RDMA_SETUP_HELPERS);
	EXPECT_EQ(s->n_setting_up, nreq);
	EXPECT_EQ(agg_rdma_setups_queued(s), 2);
	EXPECT_EQ(s->setups_inline, 0);
	/* the last one's peer gives up while it waits */
	event(ids[nreq - 1], RDMA_CM_EVENT_REJECTED);
	agg_rdma_cm_event(s);
	EXPECT_EQ(n.destroy_id, 0);
	EXPECT_EQ(agg_rdma_setups_queued(s), 2);	/* until its turn */
	held_finish(0);		/* starts the first waiting one */
	EXPECT_EQ(n.accepted, 1);
	EXPECT_EQ(n_held, AGG_RDMA_SETUP_HELPERS + 1);
	EXPECT_EQ(agg_rdma_setups_queued(s), 1);
	held_finish(1);		/* its turn: the withdrawn one goes */
	EXPECT_EQ(n_held, AGG_RDMA_SETUP_HELPERS + 1);
	EXPECT_EQ(agg_rdma_setups_queued(s), 0);
	EXPECT_EQ(n.destroy_id, 1);
	EXPECT_EQ(n.reject, 0);
	if (n_held == AGG_RDMA_SETUP_HELPERS + 1)
		held_finish(AGG_RDMA_SETUP_HELPERS);
	EXPECT_EQ(n.accepted, 3);
	EXPECT_EQ(n.reg_mr, 3);	/* the withdrawn one never registered */
	EXPECT_EQ(s->n_setting_up, 0);
	EXPECT_EQ(s->n_helpers, 0);
	srv_free(s);
}

/* The daemon stops with requests on helpers and waiting for one. */
static void stop_with_queued(void)
{
	struct agg_rdma_srv *s = srv_new();
	unsigned int i, nreq = AGG_RDMA_SETUP_HELPERS + 2;

	for (i = 0; i < nreq; i++) {
		request();
		agg_rdma_cm_event(s);
	}
	EXPECT_EQ(n_held, AGG_RDMA_SETUP_HELPERS);
	/* jobs_free_all(): the running ones' done(exiting), nothing new */
	for (i = 0; i < n_held; i++) {
		held[i].run(held[i].arg);
		held[i].done(held[i].arg, true);
	}
	EXPECT_EQ(n_held, AGG_RDMA_SETUP_HELPERS);
	agg_rdma_stop(s);	/* rejects the waiting ones */
	EXPECT_EQ(n.accepted, 0);
	EXPECT_EQ(n.reject, nreq);
	EXPECT_EQ(n.destroy_id, nreq);
}

int main(void)
{
	spare_log_init("test_aggd_rdma_setup", SPARE_LOG_INFO);
	fake_ctx.ops.post_recv = fake_post_recv;
	TAP_RUN(accepted_after_done);
	TAP_RUN(rejected_while_held);
	TAP_RUN(disconnected_while_held);
	TAP_RUN(device_removal_while_held);
	TAP_RUN(exiting_while_held);
	TAP_RUN(registration_fails);
	TAP_RUN(beyond_the_helpers_queued);
	TAP_RUN(stop_with_queued);
	return tap_done();
}
