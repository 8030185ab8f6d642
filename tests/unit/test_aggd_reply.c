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
 */
#include "tap.h"

static void check(int cond)
{
	if (!cond)
		abort();
}

#include "../agg/aggd_harness.h"

#define NW	2
#define NELEM	8

static unsigned int n_replies, n_wrong, n_errors;

static float value(unsigned int it, unsigned int r, unsigned int i)
{
	return (float)(1000 * it + 100 * r + i) * 0.25f;
}

static void on_sent(const struct agg_hdr *h, const void *payload, size_t len)
{
	float got[NELEM];

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

static struct agg_part *start(struct conn *w[NW])
{
	harness_reset("test_aggd_reply");
	harness_real_sum = 1;
	harness_sent = on_sent;
	harness_hold_sends = 0;
	n_replies = n_wrong = n_errors = 0;
	harness_register(w, NW, "reply", NELEM, NELEM);
	for (unsigned int r = 0; r < NW; r++)
		check(w[r]->job->spec.n_parts == 1);
	return &w[0]->job->parts[0];
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
	EXPECT_EQ(n_replies, 2);
	EXPECT_EQ(p->state, AGG_PART_READY);
	EXPECT_EQ(p->iter, 0);
	EXPECT_EQ(p->pull_pending[0], 1);
	EXPECT_EQ(p->pull_pending[1], 1);
	EXPECT_EQ(p->n_pulled, 0);
	release();
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

int main(void)
{
	TAP_RUN(test_pull_done_at_completion);
	TAP_RUN(test_next_request_before_completion);
	TAP_RUN(test_close_counts_pull);
	return tap_done();
}
