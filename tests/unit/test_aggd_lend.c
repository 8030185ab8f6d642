// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd: RDMA pushes folded from their lent receive slot, or copied
 * when the connection has lent all it may (AGG_RDMA_MAX_LENT), and the two
 * counters that tell them apart on /metrics and STATS
 * (spare_aggd_rdma_pushes_lent_total, spare_aggd_rdma_pushes_copied_total).
 * The daemon's own dispatch and jobs code (tests/agg/aggd_harness.h) with
 * a transport stub that lends as agg_rdma.c does; the real transport's
 * lending is run by tests/vm/agg/rdma.sh.
 *
 * A 4-worker fp32 job of NPART partitions:
 *  - iteration 0, ranks pushing in rank order: every push folds as it
 *    lands and gives its slot back, so all NW x NPART are lent, none copied;
 *  - iteration 1, rank 3 first, all NPART partitions: nothing of it can
 *    fold before ranks 0-2, so its first AGG_RDMA_MAX_LENT pushes are lent
 *    and the rest copied; then ranks 0-2 push (lent) and every slot comes
 *    back.
 * Each time every rank's pull gets the rank-order sum, whichever way the
 * pushes came in.
 */
#include <inttypes.h>

#include "tap.h"

static void check(int cond)
{
	if (!cond)
		abort();
}

#include "../agg/aggd_harness.h"

#define NW	4
#define NELEM	8
#define NPART	8

static unsigned int n_replies, n_wrong;

/* rank r's value for element i of partition p at iteration it */
static float value(unsigned int it, unsigned int r, unsigned int p, unsigned int i)
{
	return (float)(1000 * it + 100 * r + 10 * p + i) * 0.25f;
}

static void on_reply(const struct agg_hdr *h, const void *payload, size_t len)
{
	float got[NELEM];

	if (h->type != AGG_MSG_PULL_REPLY)
		return;
	n_replies++;
	if (len != sizeof(got) || h->part >= NPART) {
		n_wrong++;
		return;
	}
	memcpy(got, payload, len);
	for (unsigned int i = 0; i < NELEM; i++) {
		float want = 0;

		for (unsigned int r = 0; r < NW; r++)
			want += value(h->iter, r, h->part, i);
		if (got[i] != want)
			n_wrong++;
	}
}

static void send_msg(struct conn *c, unsigned int type, unsigned int part,
		     unsigned int it, const void *body, size_t len)
{
	struct agg_hdr h;

	memset(&h, 0, sizeof(h));
	h.job_id = c->job->id;
	h.part = part;
	h.iter = it;
	deliver(c, type, &h, body, len);
}

static void push_all(struct conn *c, unsigned int rank, unsigned int it)
{
	for (unsigned int p = 0; p < NPART; p++) {
		float v[NELEM];

		for (unsigned int i = 0; i < NELEM; i++)
			v[i] = value(it, rank, p, i);
		send_msg(c, AGG_MSG_PUSH, p, it, v, sizeof(v));
	}
}

static void pull_all(struct conn *w[NW], unsigned int it)
{
	for (unsigned int r = 0; r < NW; r++)
		for (unsigned int p = 0; p < NPART; p++)
			send_msg(w[r], AGG_MSG_PULL, p, it, NULL, 0);
}

/* The two counters as /metrics and STATS print them. */
static void counters(uint64_t *lent, uint64_t *copied)
{
	char *page = NULL, *at;
	size_t len = 0;
	FILE *f = open_memstream(&page, &len);

	check(f != NULL);
	check(stats_write(f, false) == 0);
	check(fclose(f) == 0);
	at = strstr(page, "\nspare_aggd_rdma_pushes_lent_total ");
	check(at && sscanf(at, " spare_aggd_rdma_pushes_lent_total %" SCNu64, lent) == 1);
	at = strstr(page, "\nspare_aggd_rdma_pushes_copied_total ");
	check(at && sscanf(at, " spare_aggd_rdma_pushes_copied_total %" SCNu64, copied) == 1);
	free(page);
}

static void register_workers(struct conn *w[NW])
{
	harness_register(w, NW, "lend", NELEM * NPART, NELEM);
	for (unsigned int r = 0; r < NW; r++)
		check(w[r]->job->spec.n_parts == NPART);
}

static void test_lent_then_copied(void)
{
	struct conn *w[NW];
	uint64_t lent, copied;

	harness_reset("test_aggd_lend");
	harness_real_sum = 1;
	harness_lend = 1;
	harness_sent = on_reply;
	n_replies = n_wrong = 0;
	register_workers(w);
	counters(&lent, &copied);
	EXPECT_EQ(lent, 0);
	EXPECT_EQ(copied, 0);

	for (unsigned int r = 0; r < NW; r++)
		push_all(w[r], r, 0);
	counters(&lent, &copied);
	EXPECT_EQ(lent, NW * NPART);
	EXPECT_EQ(copied, 0);
	EXPECT_EQ(harness_loans_out, 0);	/* every push folded at once */
	pull_all(w, 0);
	EXPECT_EQ(n_replies, NW * NPART);

	push_all(w[NW - 1], NW - 1, 1);
	counters(&lent, &copied);
	EXPECT_EQ(lent, NW * NPART + AGG_RDMA_MAX_LENT);
	EXPECT_EQ(copied, NPART - AGG_RDMA_MAX_LENT);
	EXPECT_EQ(harness_loans_out, AGG_RDMA_MAX_LENT);	/* waiting for rank 0 */
	for (unsigned int r = 0; r < NW - 1; r++)
		push_all(w[r], r, 1);
	counters(&lent, &copied);
	EXPECT_EQ(lent, 2 * NW * NPART - (NPART - AGG_RDMA_MAX_LENT));
	EXPECT_EQ(copied, NPART - AGG_RDMA_MAX_LENT);
	EXPECT_EQ(harness_loans_out, 0);
	pull_all(w, 1);
	EXPECT_EQ(n_replies, 2 * NW * NPART);
	EXPECT_EQ(n_wrong, 0);
	teardown();
	EXPECT_EQ(harness_loans_out, 0);
}

/* A job torn down with pushes still lent gives every slot back. */
static void test_teardown_returns_loans(void)
{
	struct conn *w[NW];

	harness_reset("test_aggd_lend");
	harness_lend = 1;
	harness_sent = NULL;
	register_workers(w);
	push_all(w[2], 2, 0);
	EXPECT_EQ(harness_loans_out, AGG_RDMA_MAX_LENT);
	teardown();
	EXPECT_EQ(harness_loans_out, 0);
}

int main(void)
{
	TAP_RUN(test_lent_then_copied);
	TAP_RUN(test_teardown_returns_loans);
	return tap_done();
}
