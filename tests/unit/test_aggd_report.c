// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd: REPORT handling and FlowCon's weights, through the daemon's
 * own dispatch code on message-transport peers (tests/agg/aggd_harness.h).
 *
 *  - every refused REPORT (old iteration, CPU-seconds going back, NaN
 *    loss, a first loss of 0, another payload version) gets an ERROR with
 *    its status, leaves the job's report state as it was and the
 *    connection open;
 *  - an unknown job and a wrong token, in REPORT and in MIGRATE, get one
 *    and the same answer (EAUTH, the same words) and the connection is
 *    closed: a peer cannot tell which names exist, nor guess tokens on one
 *    connection;
 *  - with FlowCon on, three jobs report rounds in which one barely
 *    improves: it joins the watch list, its REPORT_REPLY says so, and the
 *    weight set in the pool is the smallest; the shares sum to the cores;
 *  - a new job resets the shares: the next decision splits them equally
 *    again apart from the watched job's cut.
 */
#include <math.h>

#include "tap.h"

static void check(int cond)
{
	if (!cond)
		abort();
}

#include "../agg/aggd_harness.h"

static struct agg_hdr last;
static double last_share;
static uint32_t last_flags;
static char last_text[AGG_MAX_ERR_TEXT + 1];

static void on_sent(const struct agg_hdr *h, const void *payload, size_t len)
{
	last = *h;
	if (h->type == AGG_MSG_ERROR) {
		memcpy(last_text, payload, len < AGG_MAX_ERR_TEXT ? len : AGG_MAX_ERR_TEXT);
		last_text[len < AGG_MAX_ERR_TEXT ? len : AGG_MAX_ERR_TEXT] = 0;
	}
	if (h->type == AGG_MSG_REPORT_REPLY &&
	    agg_report_reply_decode(payload, len, &last_share, &last_flags))
		last.type = 0;	/* a malformed reply fails the checks */
}

static void setup(bool flowcon)
{
	harness_reset("test_aggd_report");
	harness_sent = on_sent;
	memset(harness_weight, 0, sizeof(harness_weight));
	if (flowcon)
		report_flowcon_enable(3.0, 60000000000ULL);
}

static struct job_entry *reg(struct conn *c, const char *name)
{
	harness_register_rank(c, name, "tok", 1, 0, 16, 16);
	check(last.type == AGG_MSG_REGISTER_REPLY);
	return job_find("", name);
}

/* Deliver a REPORT; returns the ERROR status, 0 for a REPORT_REPLY. */
static int report(struct conn *c, const char *name, const char *token,
		  uint64_t iter, double loss, double cpu, int version)
{
	uint8_t b[AGG_REPORT_SIZE];
	struct agg_report r;
	struct agg_hdr h;

	memset(&r, 0, sizeof(r));
	snprintf(r.name, sizeof(r.name), "%s", name);
	snprintf(r.token, sizeof(r.token), "%s", token);
	r.iter = iter;
	r.loss = 1;
	r.cpu_seconds = cpu;
	check(agg_report_encode(&r, b) == AGG_REPORT_SIZE);
	memcpy(b + 80, &loss, 8);	/* any value, NaN included */
	b[64] = (uint8_t)version;
	memset(&h, 0, sizeof(h));
	memset(&last, 0, sizeof(last));
	deliver(c, AGG_MSG_REPORT, &h, b, sizeof(b));
	if (last.type == AGG_MSG_ERROR)
		return (int)last.status;
	return last.type == AGG_MSG_REPORT_REPLY ? 0 : -1;
}

static void test_refused(void)
{
	struct conn *w, *r;
	struct job_entry *e;
	struct job_report before;

	setup(false);
	w = harness_peer();
	r = harness_peer();
	e = reg(w, "job");
	EXPECT(e != NULL);
	if (!e)
		return;
	/* a first loss of 0 cannot anchor the growth */
	EXPECT_EQ(report(r, "job", "tok", 1, 0.0, 1, 1), AGG_EINVAL);
	EXPECT_EQ(e->rep.n, 0);
	EXPECT_EQ(report(r, "job", "tok", 10, 4.0, 5, 1), 0);
	EXPECT(last_share < 0 && last_flags == 0);
	before = e->rep;
	EXPECT_EQ(report(r, "job", "tok", 10, 3.0, 6, 1), AGG_ESEQ);
	EXPECT_EQ(report(r, "job", "tok", 9, 3.0, 6, 1), AGG_ESEQ);
	EXPECT_EQ(report(r, "job", "tok", 11, 3.0, 4, 1), AGG_EINVAL);
	EXPECT_EQ(report(r, "job", "tok", 11, NAN, 6, 1), AGG_EINVAL);
	EXPECT_EQ(report(r, "job", "tok", 11, -INFINITY, 6, 1), AGG_EINVAL);
	EXPECT_EQ(report(r, "job", "tok", 11, 3.0, 6, 2), AGG_EVERSION);
	EXPECT(!memcmp(&before, &e->rep, sizeof(before)));
	EXPECT_EQ(g.reports_refused, 7);
	EXPECT(alive(r) && alive(w));
	EXPECT(!e->job->failed);
	/* and it reads on */
	EXPECT_EQ(report(r, "job", "tok", 11, 3.0, 6, 1), 0);
	EXPECT_EQ(e->rep.n, 2);
	EXPECT(e->rep.prev_loss == 4.0 && e->rep.loss == 3.0);
	/* the growth: (4 - 3) / 4 per CPU-second */
	EXPECT(fabs(e->rep.fc.g - 0.25) < 1e-12);
	teardown();
	report_free();
}

/* MIGRATE with @name and @token; returns the ERROR status (0: none). */
static int migrate(struct conn *c, const char *name, const char *token)
{
	struct agg_migrate_req m;
	uint8_t b[AGG_MIGRATE_SIZE];
	struct agg_hdr h;

	memset(&m, 0, sizeof(m));
	snprintf(m.name, sizeof(m.name), "%s", name);
	snprintf(m.token, sizeof(m.token), "%s", token);
	snprintf(m.to.host, sizeof(m.to.host), "127.0.0.1");
	m.to.port = 9;
	check(agg_migrate_encode(&m, b) == AGG_MIGRATE_SIZE);
	memset(&h, 0, sizeof(h));
	memset(&last, 0, sizeof(last));
	deliver(c, AGG_MSG_MIGRATE, &h, b, sizeof(b));
	return last.type == AGG_MSG_ERROR ? (int)last.status : 0;
}

/*
 * Unknown job or wrong token: the same status and the same words (the
 * name put back in each), and the connection closes after the answer. The
 * job is untouched and its worker goes on.
 */
static void test_token_one_answer(void)
{
	char unknown[AGG_MAX_ERR_TEXT + 1], wrong[AGG_MAX_ERR_TEXT + 1];
	struct conn *w, *a, *b;
	struct job_entry *e;
	char *at;

	setup(false);
	w = harness_peer();
	e = reg(w, "job");
	EXPECT(e != NULL);
	if (!e)
		return;
	for (int kind = 0; kind < 2; kind++) {
		const char *what = kind ? "MIGRATE" : "REPORT";

		a = harness_peer();
		b = harness_peer();
		/* MIGRATE is the operator's: these come on the admin address */
		a->admin = b->admin = kind;
		EXPECT_EQ(kind ? migrate(a, "jo0", "tok") :
			  report(a, "jo0", "tok", 11, 3.0, 6, 1), AGG_EAUTH);
		snprintf(unknown, sizeof(unknown), "%s", last_text);
		EXPECT_EQ(kind ? migrate(b, "job", "bad") :
			  report(b, "job", "bad", 11, 3.0, 6, 1), AGG_EAUTH);
		snprintf(wrong, sizeof(wrong), "%s", last_text);
		/* the same words once the names are the same */
		at = strstr(unknown, "jo0");
		EXPECT(at != NULL);
		if (at)
			at[2] = 'b';
		if (strcmp(unknown, wrong))
			fprintf(stderr, "# %s: '%s' vs '%s'\n", what, unknown, wrong);
		EXPECT(!strcmp(unknown, wrong));
		EXPECT(strncmp(wrong, what, strlen(what)) == 0);
		EXPECT(!alive(a));
		EXPECT(!alive(b));
	}
	EXPECT(alive(w));
	EXPECT(!e->job->failed);
	EXPECT_EQ(e->rep.n, 0);
	teardown();
	report_free();
}

static void test_flowcon_weights(void)
{
	static const char *const names[3] = { "fast1", "fast2", "slow" };
	struct conn *c[4];
	struct job_entry *e[4];
	double sum = 0;

	setup(true);
	for (int j = 0; j < 3; j++) {
		c[j] = harness_peer();
		e[j] = reg(c[j], names[j]);
		check(e[j] != NULL);
		EXPECT_EQ(e[j]->rep.weight, AGGD_FLOWCON_UNIT_WEIGHT);
	}
	for (unsigned int r = 1; r <= 6; r++)
		for (int j = 0; j < 3; j++) {
			double loss = j == 2 ? 10.0 - 0.001 * r : 10.0 * pow(0.7, r);

			EXPECT_EQ(report(c[j], names[j], "tok", r, loss, r, 1), 0);
		}
	EXPECT(last_flags == (AGG_REPORT_FLOWCON | AGG_REPORT_WATCHED));
	EXPECT(e[2]->rep.fc.watched && !e[0]->rep.fc.watched && !e[1]->rep.fc.watched);
	for (int j = 0; j < 3; j++)
		sum += e[j]->rep.fc.share;
	EXPECT(fabs(sum - 3.0) < 1e-9);
	EXPECT(fabs(last_share - e[2]->rep.fc.share) < 1e-12);
	/* the pool got the weights: the slow job's is the smallest */
	EXPECT(harness_weight[e[2]->job->id] > 0);
	EXPECT(harness_weight[e[2]->job->id] < harness_weight[e[0]->job->id]);
	EXPECT(harness_weight[e[2]->job->id] < harness_weight[e[1]->job->id]);
	EXPECT(harness_weight[e[2]->job->id] < AGGD_FLOWCON_UNIT_WEIGHT);
	EXPECT_EQ(harness_weight[e[0]->job->id], e[0]->rep.weight);
	/* an arrival resets the shares at the next report: 4 equal shares of
	 * 0.75, then the watched job gives up half of its own */
	c[3] = harness_peer();
	e[3] = reg(c[3], "late");
	check(e[3] != NULL);
	EXPECT(!e[3]->rep.decided);
	{
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		check(f != NULL);
		stats_write(f, true);
		fclose(f);
		/* no share for it yet; the others keep theirs */
		EXPECT(!strstr(text, "spare_aggd_job_flowcon_share{job_name=\"late\"}"));
		EXPECT(strstr(text, "spare_aggd_job_flowcon_share{job_name=\"slow\"}") != NULL);
		EXPECT(strstr(text, "spare_aggd_job_flowcon_watched{job_name=\"slow\"} 1\n") != NULL);
		free(text);
	}
	EXPECT_EQ(report(c[3], "late", "tok", 1, 5.0, 1, 1), 0);
	EXPECT(fabs(e[2]->rep.fc.share - 0.375) < 1e-9);
	EXPECT(e[2]->rep.fc.watched);
	EXPECT(e[3]->rep.fc.share >= 0.75 - 1e-9);
	EXPECT(e[3]->rep.decided);
	teardown();
	report_free();
}

int main(void)
{
	TAP_RUN(test_refused);
	TAP_RUN(test_token_one_answer);
	TAP_RUN(test_flowcon_weights);
	return tap_done();
}
