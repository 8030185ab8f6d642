// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd: a job's buffers made off the event loop (issue 35), over the
 * message transport (RDMA), against the daemon's own code
 * (tests/agg/aggd_harness.h). tests/agg/run agg-create-* covers TCP with
 * the real daemon; here the creation is held with the same test hook
 * (SPARE_AGGD_TEST_CREATE_GATE: job "mk"'s creation waits until the gate
 * file exists) and harness_create_hold, and:
 *  - both ranks' REGISTERs wait, and what they send meanwhile (PUSH, PULL)
 *    is held, while another job registers and sums; once the gate opens
 *    each gets its REGISTER_REPLY first, then its held requests are served
 *    in order, with the right sums;
 *  - its only worker closes while it is held: the creation stops and the
 *    job goes without the gate ever opening;
 *  - the allocation fails (SPARE_AGGD_TEST_CREATE_FAIL) with two ranks
 *    waiting: both get ERROR AGG_ENOMEM, the job goes, its budget back.
 */
#include "tap.h"

static void check(int cond)
{
	if (!cond)
		abort();
}

#include "../agg/aggd_harness.h"

#define NELEM 8

static char gate_dir[] = "/tmp/aggd-create.XXXXXX";
static char gate[64];
/* what each peer got, in order: 'R' REGISTER_REPLY, 'P' PULL_REPLY,
 * 'E' ERROR (its status in err_status) */
static char got[4][16];
static unsigned int n_got[4], err_status[4];
static float sum[4][NELEM];

static void on_sent(const struct agg_hdr *h, const void *payload, size_t len)
{
	int i = -1;

	/* the harness names no connection: the header's rank does (an
	 * ERROR carries none: the test sends one ERROR at a time) */
	if (h->type == AGG_MSG_REGISTER_REPLY || h->type == AGG_MSG_PULL_REPLY)
		i = (int)h->rank;
	else if (h->type == AGG_MSG_ERROR)
		i = 3;
	if (i < 0 || i > 3 || n_got[i] >= sizeof(got[i]) - 1)
		return;
	if (h->type == AGG_MSG_REGISTER_REPLY)
		got[i][n_got[i]++] = 'R';
	else if (h->type == AGG_MSG_PULL_REPLY && len == sizeof(sum[i])) {
		got[i][n_got[i]++] = 'P';
		memcpy(sum[i], payload, len);
	} else if (h->type == AGG_MSG_ERROR) {
		got[i][n_got[i]++] = 'E';
		err_status[i] = h->status;
	}
}

static void setup(void)
{
	harness_reset("test_aggd_create");
	harness_real_sum = 1;
	harness_sent = on_sent;
	harness_create_hold = 1;
	memset(got, 0, sizeof(got));
	memset(n_got, 0, sizeof(n_got));
	unlink(gate);
	setenv("SPARE_AGGD_TEST_CREATE_GATE", gate, 1);
	setenv("SPARE_AGGD_TEST_CREATE_JOB", "mk", 1);
	unsetenv("SPARE_AGGD_TEST_CREATE_FAIL");
}

static void reg(struct conn *c, const char *name, unsigned int nw,
		unsigned int rank)
{
	harness_register_rank(c, name, "tok", nw, rank, NELEM, NELEM);
}

static void push(struct conn *c, uint32_t job_id, uint32_t iter, float v)
{
	harness_push_ramp(c, job_id, iter, v, NELEM);
}

#define pull harness_pull

static struct job_entry *entry(const char *name)
{
	for (struct job_entry *e = g.jobs; e; e = e->next)
		if (!strcmp(e->job->spec.name, name))
			return e;
	return NULL;
}

/* Until job @name is not being created (or gone), at most 10 s. */
static void wait_created(const char *name)
{
	for (int i = 0; i < 10000; i++) {
		struct job_entry *e = entry(name);

		if (!e || !e->job->creating)
			break;
		usleep(1000);
		handle_done_regs();
	}
	settle();
}

/* Until creation of @name reached the gate (PATH.wait written). */
static void wait_at_gate(void)
{
	char w[80];

	snprintf(w, sizeof(w), "%s.wait", gate);
	for (int i = 0; i < 10000 && access(w, F_OK); i++)
		usleep(1000);
	check(!access(w, F_OK));
	unlink(w);
}

static void open_gate(void)
{
	FILE *f = fopen(gate, "w");

	check(f != NULL);
	fclose(f);
}

static void test_waits_holds_and_replays(void)
{
	struct conn *w[2], *by;
	struct job_entry *e;
	uint32_t id;

	setup();
	w[0] = harness_peer();
	w[1] = harness_peer();
	reg(w[0], "mk", 2, 0);
	wait_at_gate();
	e = entry("mk");
	EXPECT_EQ(e != NULL && e->job->creating, 1);
	id = e->job->id;
	EXPECT_EQ(w[0]->job == e->job && w[0]->reg_pending, 1);
	EXPECT_EQ(n_got[0], 0);			/* not answered */
	reg(w[1], "mk", 2, 1);
	EXPECT_EQ(w[1]->reg_pending, 1);
	EXPECT_EQ(n_got[1], 0);
	/* pipelined before the answer: held, in order */
	push(w[0], id, 0, 1.0f);
	pull(w[0], id, 0);
	push(w[1], id, 0, 10.0f);
	EXPECT_EQ(w[0]->held && w[1]->held, 1);
	EXPECT_EQ(e->job->pushes, 0);
	/* another job meanwhile: registered and summed at once */
	by = harness_peer();
	reg(by, "by", 1, 0);
	wait_created("by");
	EXPECT_EQ(by->job != NULL && !by->job->creating, 1);
	push(by, by->job->id, 0, 5.0f);
	pull(by, by->job->id, 0);
	EXPECT_EQ(n_got[0], 2);		/* rank 0 of "by": REGISTER_REPLY, PULL_REPLY */
	EXPECT_EQ(got[0][1], 'P');
	EXPECT_EQ(sum[0][3] == 8.0f, 1);
	EXPECT_EQ(e->job->creating, 1);	/* still held */
	memset(got, 0, sizeof(got));
	memset(n_got, 0, sizeof(n_got));

	open_gate();
	wait_created("mk");
	EXPECT_EQ(e->job->creating, 0);
	EXPECT_EQ(w[0]->reg_pending || w[1]->reg_pending, 0);
	EXPECT_EQ(w[0]->held || w[1]->held, 0);
	pull(w[1], id, 0);
	/* each: its REGISTER_REPLY, then the PULL_REPLY of the held requests */
	EXPECT_EQ(strcmp(got[0], "RP"), 0);
	EXPECT_EQ(strcmp(got[1], "RP"), 0);
	EXPECT_EQ(sum[0][2] == 1.0f + 2 + 10.0f + 2, 1);
	EXPECT_EQ(sum[1][7] == 1.0f + 7 + 10.0f + 7, 1);
	EXPECT_EQ(e->job->pushes, 2);
	invariants();
	teardown();
}

static void test_close_cancels(void)
{
	struct conn *w;

	setup();
	w = harness_peer();
	reg(w, "mk", 2, 0);
	wait_at_gate();
	EXPECT_EQ(g.jobs != NULL && g.jobs->job->creating, 1);
	EXPECT_EQ(g.mem_used > 0, 1);
	conn_close(w, "test: gone while its job is created");
	EXPECT_EQ(g.jobs != NULL && g.jobs->dead, 1);	/* the thread reads it */
	wait_created("mk");			/* the gate stays shut */
	EXPECT_EQ(g.jobs == NULL, 1);
	EXPECT_EQ(g.mem_used, 0);
	EXPECT_EQ(access(gate, F_OK) != 0, 1);
	teardown();
}

static void test_alloc_failure(void)
{
	struct conn *w[2];

	setup();
	setenv("SPARE_AGGD_TEST_CREATE_FAIL", "1", 1);
	w[0] = harness_peer();
	w[1] = harness_peer();
	reg(w[0], "mk", 2, 0);
	wait_at_gate();
	reg(w[1], "mk", 2, 1);
	EXPECT_EQ(n_got[0] + n_got[1] + n_got[3], 0);
	open_gate();
	wait_created("mk");
	EXPECT_EQ(n_got[0] + n_got[1], 0);	/* no REGISTER_REPLY */
	EXPECT_EQ(strcmp(got[3], "EE"), 0);	/* an ERROR to each */
	EXPECT_EQ(err_status[3], AGG_ENOMEM);
	EXPECT_EQ(g.jobs == NULL, 1);
	EXPECT_EQ(g.mem_used, 0);
	EXPECT_EQ(alive(w[0]) ? w[0]->job == NULL : 1, 1);
	teardown();
}

int main(void)
{
	int ret;

	check(mkdtemp(gate_dir) != NULL);
	snprintf(gate, sizeof(gate), "%s/gate", gate_dir);
	TAP_RUN(test_waits_holds_and_replays);
	TAP_RUN(test_close_cancels);
	TAP_RUN(test_alloc_failure);
	ret = tap_done();
	unlink(gate);
	rmdir(gate_dir);
	return ret;
}
