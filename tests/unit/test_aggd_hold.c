// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd: requests held while a job moves, over the message transport
 * (RDMA), where the messages are copied and queued in order. The host
 * integration test (tests/agg/rollback.py) covers TCP; RDMA needs the VM
 * rig, so the queue and its replay are checked here against the daemon's
 * own code (tests/agg/aggd_harness.h).
 *
 * A 2-worker fp32 job on two message-transport peers: iteration 0 done,
 * then a move is under way (barrier 1) and each worker sends PUSH 1 then
 * PULL 1, which are held. Then:
 *  - the move fails: the held PUSH and PULL are served in order and each
 *    worker gets the PULL_REPLY of iteration 1 with the right sum; nothing
 *    stays queued;
 *  - the move succeeds (the job is redirected): the held requests are
 *    dropped, no PULL_REPLY is sent, nothing stays queued.
 */
#include "tap.h"

static void check(int cond)
{
	if (!cond)
		abort();
}

#include "../agg/aggd_harness.h"

#define NELEM 8

static unsigned int n_replies, n_redirects;
static float reply[2][NELEM];

static void on_sent(const struct agg_hdr *h, const void *payload, size_t len)
{
	if (h->type == AGG_MSG_PULL_REPLY && h->iter == 1 && h->rank < 2 &&
	    len == sizeof(reply[0])) {
		memcpy(reply[h->rank], payload, len);
		n_replies++;
	}
	if (h->type == AGG_MSG_REDIRECT)
		n_redirects++;
}

static void setup(void)
{
	harness_reset("test_aggd_hold");
	harness_real_sum = 1;
	harness_sent = on_sent;
	n_replies = n_redirects = 0;
	memset(reply, 0, sizeof(reply));
}

static void push(struct conn *c, uint32_t job_id, uint32_t iter, float v)
{
	harness_push_ramp(c, job_id, iter, v, NELEM);
}

#define pull harness_pull

/* Two workers registered and through iteration 0; returns the job. */
static struct agg_job *start_job(struct conn *w[2])
{
	for (int r = 0; r < 2; r++) {
		w[r] = harness_peer();
		check(w[r] != NULL);
		harness_register_rank(w[r], "hold", "tok", 2, (unsigned int)r, NELEM, NELEM);
		check(w[r]->job != NULL);
	}
	for (int r = 0; r < 2; r++)
		push(w[r], w[r]->job->id, 0, 1.0f);
	for (int r = 0; r < 2; r++)
		pull(w[r], w[r]->job->id, 0);
	return w[0]->job;
}

/* A move under way at barrier 1, and both workers' iteration 1 held. */
static struct migration *move_and_hold(struct agg_job *job, struct conn *w[2])
{
	struct migration *m = calloc(1, sizeof(*m));

	check(m != NULL);
	m->job = job;
	m->state = MIG_DRAIN;
	snprintf(m->to.host, sizeof(m->to.host), "127.0.0.2");
	m->to.port = 1;
	job->mig = m;
	job->migrating = true;
	job->mig_barrier = 1;
	for (int r = 0; r < 2; r++) {
		push(w[r], job->id, 1, 10.0f * (float)(r + 1));
		pull(w[r], job->id, 1);
	}
	return m;
}

static void test_rollback_serves_held_in_order(void)
{
	struct conn *w[2];
	struct agg_job *job;
	struct migration *m;

	setup();
	job = start_job(w);
	m = move_and_hold(job, w);
	for (int r = 0; r < 2; r++) {
		EXPECT(w[r]->held);
		/* PUSH and PULL both queued, in order */
		EXPECT(w[r]->held_head && w[r]->held_head->next &&
		       !w[r]->held_head->next->next);
	}
	EXPECT_EQ(n_replies, 0);
	mig_fail(m, AGG_EPROTO, "target gone (test)");
	settle();
	EXPECT_EQ(n_replies, 2);
	for (int r = 0; r < 2; r++) {
		EXPECT(!w[r]->held && !w[r]->held_head);
		for (int i = 0; i < NELEM; i++)
			EXPECT(reply[r][i] == 30.0f + 2.0f * (float)i);
	}
	EXPECT(!job->failed);
	EXPECT(!job->migrating);
	/* the link would free the migration when it goes; there is none here */
	job->mig = NULL;
	free(m);
	teardown();
}

static void test_moved_drops_held(void)
{
	struct conn *w[2];
	struct agg_job *job;
	struct migration *m;

	setup();
	job = start_job(w);
	m = move_and_hold(job, w);
	m->state = MIG_COMMIT;
	m->link = harness_peer();	/* a stand-in for the link to close */
	check(m->link != NULL);
	m->link->mig_link = m;
	mig_done(m);
	settle();
	EXPECT_EQ(n_redirects, 2);
	EXPECT_EQ(n_replies, 0);
	for (int r = 0; r < 2; r++) {
		EXPECT(!w[r]->held && !w[r]->held_head);
		EXPECT(w[r]->redirected && !w[r]->job);
	}
	teardown();
}

int main(void)
{
	TAP_RUN(test_rollback_serves_held_in_order);
	TAP_RUN(test_moved_drops_held);
	return tap_done();
}
