// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd: over RDMA a pull is done at its reply's send completion, not
 * at the post (issue 35: the reply is to be sent from the partition's
 * output in place, so the output must stay as it is until every reply
 * completed). The daemon's own dispatch and jobs code
 * (tests/agg/aggd_harness.h) with sends held in flight
 * (harness_hold_sends); the real transport is run by tests/vm/agg/rdma.sh.
 *
 * A 2-worker fp32 job of one partition:
 *  - both replies in flight: the partition stays READY at its iteration,
 *    both pulls pending; the completions move it on;
 *  - a worker's next push and pull come before its reply's completion
 *    (the SEND arrives before its ACK): taken as early ones, and every
 *    reply still carries the rank-order sum;
 *  - a worker closes with its reply in flight: that pull counts (its QP
 *    is gone), the job goes on, and the other's completion moves the
 *    partition on.
 * The reply is sent from the partition's output in place (the job's
 * outputs registered at its first RDMA worker's REGISTER): the harness
 * reads the payload at the send's completion, as the NIC does, so
 *  - the output stays byte for byte as sent while replies are in flight
 *    and a worker runs ahead into the next iteration;
 *  - a close, or the daemon's teardown, with replies in flight frees the
 *    job (and drops its registration) only once no send reads it;
 *  - a failed registration falls back to the copy and counts it;
 *  - SET_WEIGHTS, which writes the output, is refused while it is sent.
 * The registration runs off the event loop (pinning a large job's outputs
 * takes milliseconds to seconds), held by the stub until the test lets it
 * end:
 *  - REGISTER is answered while it runs, and it runs once for the job;
 *  - replies are copied until it ends, and sent in place after;
 *  - a job whose workers all leave while it runs is freed once it ends
 *    (ASan sees a use after free), its registration dropped;
 *  - one that fails while held is counted once and its replies copied.
 */
#include <inttypes.h>

#include "tap.h"

static void check(int cond)
{
	if (!cond)
		abort();
}

#include "../agg/aggd_harness.h"

#define NW	2
#define NELEM	8

static unsigned int n_replies, n_wrong, n_errors, n_reg_replies;

static float value(unsigned int it, unsigned int r, unsigned int i)
{
	return (float)(1000 * it + 100 * r + i) * 0.25f;
}

static void on_sent(const struct agg_hdr *h, const void *payload, size_t len)
{
	float got[NELEM];

	if (h->type == AGG_MSG_REGISTER_REPLY) {
		n_reg_replies++;
		return;
	}
	if (h->type == AGG_MSG_ERROR) {
		n_errors++;
		return;
	}
	if (h->type != AGG_MSG_PULL_REPLY)
		return;
	n_replies++;
	if (len != sizeof(got)) {
		n_wrong++;
		return;
	}
	memcpy(got, payload, len);
	for (unsigned int i = 0; i < NELEM; i++)
		if (got[i] != value(h->iter, 0, i) + value(h->iter, 1, i))
			n_wrong++;
}

static void send_msg(struct conn *c, unsigned int type, unsigned int it,
		     const void *body, size_t len)
{
	struct agg_hdr h;

	memset(&h, 0, sizeof(h));
	h.job_id = c->job->id;
	h.iter = it;
	deliver(c, type, &h, body, len);
}

static void push(struct conn *c, unsigned int rank, unsigned int it)
{
	float v[NELEM];

	for (unsigned int i = 0; i < NELEM; i++)
		v[i] = value(it, rank, i);
	send_msg(c, AGG_MSG_PUSH, it, v, sizeof(v));
}

static void pull(struct conn *c, unsigned int it)
{
	send_msg(c, AGG_MSG_PULL, it, NULL, 0);
}

/* The daemon's counter @name as /metrics and STATS print it. */
static uint64_t counter(const char *name)
{
	char *page = NULL, *at, key[96];
	size_t len = 0;
	uint64_t v;
	FILE *f = open_memstream(&page, &len);

	check(f != NULL);
	check(stats_write(f, false) == 0);
	check(fclose(f) == 0);
	snprintf(key, sizeof(key), "\n%s ", name);
	at = strstr(page, key);
	check(at && sscanf(at + strlen(key), "%" SCNu64, &v) == 1);
	free(page);
	return v;
}

static struct agg_part *start_with(struct conn *w[NW], int reg_fail,
				   int reg_hold)
{
	harness_reset("test_aggd_reply");
	harness_reg_fail = reg_fail;
	harness_hold_regs(reg_hold);
	harness_real_sum = 1;
	harness_sent = on_sent;
	harness_hold_sends = 0;
	n_replies = n_wrong = n_errors = n_reg_replies = 0;
	harness_register(w, NW, "reply", NELEM, NELEM);
	for (unsigned int r = 0; r < NW; r++)
		check(w[r]->job->spec.n_parts == 1);
	return &w[0]->job->parts[0];
}

static struct agg_part *start(struct conn *w[NW])
{
	return start_with(w, 0, 0);
}

/* Both replies of iteration 0 posted, neither completed. */
static void round0_in_flight(struct conn *w[NW])
{
	push(w[0], 0, 0);
	push(w[1], 1, 0);
	harness_hold_sends = 1;
	pull(w[0], 0);
	pull(w[1], 0);
	check(w[0]->tx_busy && w[1]->tx_busy);
}

static void release(void)
{
	harness_hold_sends = 0;
	settle();
}

static void test_pull_done_at_completion(void)
{
	struct conn *w[NW];
	struct agg_part *p = start(w);

	round0_in_flight(w);
	EXPECT_EQ(n_replies, 0);	/* sent in place: read at completion */
	EXPECT_EQ(p->state, AGG_PART_READY);
	EXPECT_EQ(p->iter, 0);
	EXPECT_EQ(p->pull_pending[0], 1);
	EXPECT_EQ(p->pull_pending[1], 1);
	EXPECT_EQ(p->n_pulled, 0);
	release();
	EXPECT_EQ(n_replies, 2);
	EXPECT_EQ(p->iter, 1);
	EXPECT_EQ(p->state, AGG_PART_COLLECT);
	EXPECT_EQ(p->pull_pending[0], 0);
	EXPECT_EQ(n_wrong, 0);
	EXPECT_EQ(n_errors, 0);
	teardown();
}

static void test_next_request_before_completion(void)
{
	struct conn *w[NW];
	struct agg_part *p = start(w);

	round0_in_flight(w);
	/* rank 0 got its reply; its ACK has not come back yet */
	push(w[0], 0, 1);
	pull(w[0], 1);
	EXPECT_EQ(n_errors, 0);
	EXPECT_EQ(p->iter, 0);
	EXPECT_EQ(p->state, AGG_PART_READY);
	release();
	EXPECT_EQ(p->iter, 1);
	push(w[1], 1, 1);
	pull(w[1], 1);
	EXPECT_EQ(p->iter, 2);
	EXPECT_EQ(n_replies, 4);
	EXPECT_EQ(n_wrong, 0);
	EXPECT_EQ(n_errors, 0);
	teardown();
}

static void test_close_counts_pull(void)
{
	struct conn *w[NW];
	struct agg_part *p = start(w);
	struct agg_job *job = w[0]->job;

	round0_in_flight(w);
	conn_close(w[1], "test: worker gone with its reply in flight");
	EXPECT_EQ(job->failed, 0);
	EXPECT_EQ(p->n_pulled, 1);
	EXPECT_EQ(p->pull_pending[1], 0);
	EXPECT_EQ(p->state, AGG_PART_READY);	/* rank 0's reply in flight */
	release();
	EXPECT_EQ(p->iter, 1);
	EXPECT_EQ(job->failed, 0);
	EXPECT_EQ(n_wrong, 0);
	teardown();
}

/*
 * Replies in flight read the output at their completion: it must not
 * change meanwhile, though rank 0 already pushed and pulled iteration 1.
 */
static void test_in_place_output_unchanged(void)
{
	struct conn *w[NW];
	struct agg_part *p = start(w);
	float sent[NELEM];

	EXPECT_EQ(w[0]->job->out_reg != NULL, 1);
	EXPECT_EQ(harness_regions, 1);		/* once for the job */
	round0_in_flight(w);
	EXPECT_EQ(n_replies, 0);		/* nothing read at the post */
	EXPECT_EQ(w[0]->job->inflight, 2);	/* both sends pin the job */
	EXPECT_EQ(p->sending, 2);
	memcpy(sent, p->out, sizeof(sent));
	push(w[0], 0, 1);
	pull(w[0], 1);
	EXPECT_EQ(memcmp(sent, p->out, sizeof(sent)), 0);
	release();
	EXPECT_EQ(n_replies, 2);
	EXPECT_EQ(w[0]->job->inflight, 0);
	EXPECT_EQ(p->sending, 0);
	push(w[1], 1, 1);
	pull(w[1], 1);
	EXPECT_EQ(n_replies, 4);
	EXPECT_EQ(n_wrong, 0);
	EXPECT_EQ(n_errors, 0);
	EXPECT_EQ(counter("spare_aggd_rdma_replies_in_place_total"), 4);
	EXPECT_EQ(counter("spare_aggd_rdma_replies_copied_total"), 0);
	EXPECT_EQ(counter("spare_aggd_rdma_output_reg_failures_total"), 0);
	teardown();
}

/*
 * Both workers close with their replies in flight: each QP goes before the
 * job (and its registration) goes; no reply is read after its close.
 */
static void test_close_in_flight_frees_after(void)
{
	struct conn *w[NW];

	start(w);
	round0_in_flight(w);
	conn_close(w[1], "test: gone with its reply in flight");
	EXPECT_EQ(harness_regions, 1);
	conn_close(w[0], "test: gone with its reply in flight");
	EXPECT_EQ(g.jobs == NULL, 1);		/* freed: nothing reads it */
	EXPECT_EQ(harness_regions, 0);
	release();
	EXPECT_EQ(n_replies, 0);
	teardown();
}

/* The daemon's teardown (conn_destroy without a close) with replies in flight. */
static void test_teardown_in_flight(void)
{
	struct conn *w[NW];

	start(w);
	round0_in_flight(w);
	teardown();			/* checks no region goes under a send */
	EXPECT_EQ(harness_regions, 0);
	EXPECT_EQ(n_replies, 0);
}

/* No registration (RLIMIT_MEMLOCK): replies copied, counted, still right. */
static void test_reg_failure_copies(void)
{
	struct conn *w[NW];
	struct agg_part *p = start_with(w, 1, 0);

	EXPECT_EQ(w[0]->job->out_reg == NULL, 1);
	EXPECT_EQ(counter("spare_aggd_rdma_output_reg_failures_total"), 1);
	round0_in_flight(w);
	EXPECT_EQ(n_replies, 2);		/* copied at the post */
	EXPECT_EQ(w[0]->job->inflight, 0);
	EXPECT_EQ(p->sending, 0);
	release();
	EXPECT_EQ(p->iter, 1);
	EXPECT_EQ(n_wrong, 0);
	EXPECT_EQ(counter("spare_aggd_rdma_replies_in_place_total"), 0);
	EXPECT_EQ(counter("spare_aggd_rdma_replies_copied_total"), 2);
	EXPECT_EQ(counter("spare_aggd_rdma_output_reg_failures_total"), 1);
	teardown();
}

/* Both workers push and pull iteration @it; the replies complete. */
static void round_done(struct conn *w[NW], unsigned int it)
{
	push(w[0], 0, it);
	push(w[1], 1, it);
	pull(w[0], it);
	pull(w[1], it);
}

/* The registration runs off the loop: REGISTER does not wait for it. */
static void test_register_answered_while_registering(void)
{
	struct conn *w[NW];

	start_with(w, 0, 1);
	EXPECT_EQ(n_reg_replies, NW);		/* both answered */
	EXPECT_EQ(harness_reg_on_loop, 0);	/* never on the loop */
	EXPECT_EQ(w[0]->job->out_reg == NULL, 1);
	EXPECT_EQ(harness_regions, 0);
	EXPECT_EQ(counter("spare_aggd_rdma_output_regs_running"), 1);
	harness_hold_regs(0);
	settle();
	EXPECT_EQ(w[0]->job->out_reg != NULL, 1);
	EXPECT_EQ(harness_regions, 1);
	EXPECT_EQ(counter("spare_aggd_rdma_output_regs_running"), 0);
	EXPECT_EQ(harness_reg_calls, 1);	/* once for the job */
	EXPECT_EQ(harness_reg_on_loop, 0);
	teardown();
}

/* Until the registration ends replies are copied; in place after. */
static void test_copied_until_registered(void)
{
	struct conn *w[NW];
	struct agg_part *p = start_with(w, 0, 1);

	round_done(w, 0);
	EXPECT_EQ(n_replies, 2);
	EXPECT_EQ(p->iter, 1);
	EXPECT_EQ(counter("spare_aggd_rdma_replies_copied_total"), 2);
	EXPECT_EQ(counter("spare_aggd_rdma_replies_in_place_total"), 0);
	harness_hold_regs(0);
	settle();
	EXPECT_EQ(w[0]->job->out_reg != NULL, 1);
	round_done(w, 1);
	EXPECT_EQ(n_replies, 4);
	EXPECT_EQ(p->iter, 2);
	EXPECT_EQ(counter("spare_aggd_rdma_replies_copied_total"), 2);
	EXPECT_EQ(counter("spare_aggd_rdma_replies_in_place_total"), 2);
	EXPECT_EQ(counter("spare_aggd_rdma_output_reg_failures_total"), 0);
	EXPECT_EQ(n_wrong, 0);
	EXPECT_EQ(n_errors, 0);
	teardown();
}

/* Its workers leave while it runs: the job waits for it, then goes. */
static void test_retired_while_registering(void)
{
	struct conn *w[NW];

	start_with(w, 0, 1);
	round_done(w, 0);
	conn_close(w[0], "test: gone while its job registers");
	conn_close(w[1], "test: gone while its job registers");
	EXPECT_EQ(g.jobs != NULL, 1);		/* the registration reads it */
	EXPECT_EQ(g.jobs && g.jobs->dead, 1);
	harness_hold_regs(0);
	settle();
	EXPECT_EQ(g.jobs == NULL, 1);		/* freed once it ended */
	EXPECT_EQ(counter("spare_aggd_rdma_output_regs_running"), 0);
	EXPECT_EQ(harness_reg_calls, 1);
	EXPECT_EQ(harness_regions, 0);		/* and its registration dropped */
	EXPECT_EQ(counter("spare_aggd_rdma_output_reg_failures_total"), 0);
	teardown();
}

/* It fails off the loop: counted once, replies copied before and after. */
static void test_reg_failure_while_held(void)
{
	struct conn *w[NW];
	struct agg_part *p = start_with(w, 1, 1);

	round_done(w, 0);
	EXPECT_EQ(counter("spare_aggd_rdma_output_reg_failures_total"), 0);
	harness_hold_regs(0);
	settle();
	EXPECT_EQ(w[0]->job->out_reg == NULL, 1);
	EXPECT_EQ(counter("spare_aggd_rdma_output_reg_failures_total"), 1);
	round_done(w, 1);
	EXPECT_EQ(p->iter, 2);
	EXPECT_EQ(n_replies, 4);
	EXPECT_EQ(n_wrong, 0);
	EXPECT_EQ(harness_reg_calls, 1);	/* not tried again */
	EXPECT_EQ(counter("spare_aggd_rdma_replies_copied_total"), 4);
	EXPECT_EQ(counter("spare_aggd_rdma_replies_in_place_total"), 0);
	EXPECT_EQ(counter("spare_aggd_rdma_output_reg_failures_total"), 1);
	teardown();
}

/* SET_WEIGHTS writes the output: refused while a reply is sent from it. */
static void test_set_weights_refused_while_sending(void)
{
	struct conn *w[NW];
	struct agg_part *p;

	harness_reset("test_aggd_reply");
	harness_opt = AGG_OPT_SGD_MOMENTUM;
	harness_register(w, NW, "weights", NELEM, NELEM);
	p = &w[0]->job->parts[0];
	EXPECT_EQ(agg_part_weights_check(w[0]->job, p, 0), 0);
	p->sending = 1;
	EXPECT_EQ(agg_part_weights_check(w[0]->job, p, 0), -AGG_ESTATE);
	p->sending = 0;
	teardown();
}

int main(void)
{
	TAP_RUN(test_pull_done_at_completion);
	TAP_RUN(test_next_request_before_completion);
	TAP_RUN(test_close_counts_pull);
	TAP_RUN(test_in_place_output_unchanged);
	TAP_RUN(test_close_in_flight_frees_after);
	TAP_RUN(test_teardown_in_flight);
	TAP_RUN(test_reg_failure_copies);
	TAP_RUN(test_set_weights_refused_while_sending);
	TAP_RUN(test_register_answered_while_registering);
	TAP_RUN(test_copied_until_registered);
	TAP_RUN(test_retired_while_registering);
	TAP_RUN(test_reg_failure_while_held);
	return tap_done();
}
