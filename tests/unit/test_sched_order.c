// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for libspare-sched's pool job ordering (userspace/sched/order.c)
 * and spare-aggd's use of it (--policy dlas, userspace/aggd/agg_sched.c).
 */
#include <errno.h>
#include <stdint.h>

#include "agg_sched.h"
#include "order.h"
#include "tap.h"

static void dlas_queues(void)
{
	struct sched_order_cfg c = { .order = SCHED_ORDER_DLAS, .nlimits = 2,
				     .limit = { 100, 1000 } };

	EXPECT_EQ(sched_dlas_queue(&c, 0), 0);
	EXPECT_EQ(sched_dlas_queue(&c, 99), 0);
	EXPECT_EQ(sched_dlas_queue(&c, 100), 1);
	EXPECT_EQ(sched_dlas_queue(&c, 999), 1);
	EXPECT_EQ(sched_dlas_queue(&c, 1000), 2);
	EXPECT_EQ(sched_dlas_queue(&c, UINT64_MAX), 2);
	c.nlimits = 0;
	EXPECT_EQ(sched_dlas_queue(&c, UINT64_MAX), 0);
}

/* Two jobs in the same DLAS queue: FIFO there, where LAS would reorder. */
static void order_before(void)
{
	struct sched_order_cfg c = { .nlimits = 2, .limit = { 100, 1000 } };
	struct sched_order_key old_big = { .head_seq = 1, .vtime = 5, .attained = 900 };
	struct sched_order_key new_small = { .head_seq = 5, .vtime = 1, .attained = 150 };
	struct sched_order_key fresh = { .head_seq = 9, .vtime = 9, .attained = 50 };

	c.order = SCHED_ORDER_FIFO;
	EXPECT(sched_order_before(&c, &old_big, &new_small));
	c.order = SCHED_ORDER_WFS;
	EXPECT(sched_order_before(&c, &new_small, &old_big));
	c.order = SCHED_ORDER_LAS;
	EXPECT(sched_order_before(&c, &new_small, &old_big));
	c.order = SCHED_ORDER_DLAS;
	EXPECT(sched_order_before(&c, &old_big, &new_small));	/* both in Q1 */
	EXPECT(sched_order_before(&c, &fresh, &old_big));	/* Q0 first */
	EXPECT(!sched_order_before(&c, &old_big, &old_big));
}

/* spare-aggd's scheduler with --policy dlas. */
static void aggd_dlas(void)
{
	static struct agg_task t[8];
	struct agg_sched s;
	enum agg_policy p;
	const uint64_t limits[2] = { 100, 1000 }, bad[2] = { 100, 100 };
	struct agg_task *got;

	EXPECT_EQ(agg_policy_parse("dlas", &p), 0);
	EXPECT_EQ(p, AGG_POLICY_DLAS);
	EXPECT(strcmp(agg_policy_name(p), "dlas") == 0);
	agg_sched_init(&s, p);
	EXPECT_EQ(agg_sched_set_dlas_limits(&s, bad, 2), -EINVAL);
	EXPECT_EQ(agg_sched_set_dlas_limits(&s, limits, 2), 0);
	EXPECT_EQ(agg_sched_add_job(&s, 1, 1), 0);
	EXPECT_EQ(agg_sched_add_job(&s, 2, 1), 0);
	EXPECT_EQ(agg_sched_add_job(&s, 3, 1), 0);
	/* job 1 gets 150 bytes (Q1), job 2 110 bytes (Q1) */
	t[0] = (struct agg_task){ .job = 1, .cost = 150 };
	t[1] = (struct agg_task){ .job = 2, .cost = 110 };
	EXPECT_EQ(agg_sched_enqueue(&s, &t[0]), 0);
	EXPECT_EQ(agg_sched_enqueue(&s, &t[1]), 0);
	EXPECT(agg_sched_pick(&s) == &t[0]);
	EXPECT(agg_sched_pick(&s) == &t[1]);
	/* now job 1's task is older, job 2 has less service, job 3 none */
	t[2] = (struct agg_task){ .job = 1, .cost = 10 };
	t[3] = (struct agg_task){ .job = 2, .cost = 10 };
	t[4] = (struct agg_task){ .job = 3, .cost = 10 };
	EXPECT_EQ(agg_sched_enqueue(&s, &t[2]), 0);
	EXPECT_EQ(agg_sched_enqueue(&s, &t[3]), 0);
	EXPECT_EQ(agg_sched_enqueue(&s, &t[4]), 0);
	EXPECT(agg_sched_pick(&s) == &t[4]);	/* Q0 first */
	got = agg_sched_pick(&s);
	EXPECT(got == &t[2]);			/* FIFO in Q1, LAS would take t[3] */
	EXPECT(agg_sched_pick(&s) == &t[3]);
	EXPECT(agg_sched_pick(&s) == NULL);
	agg_sched_destroy(&s);

	/* the same under LAS takes job 2 first */
	agg_sched_init(&s, AGG_POLICY_LAS);
	agg_sched_add_job(&s, 1, 1);
	agg_sched_add_job(&s, 2, 1);
	t[0] = (struct agg_task){ .job = 1, .cost = 150 };
	t[1] = (struct agg_task){ .job = 2, .cost = 110 };
	agg_sched_enqueue(&s, &t[0]);
	agg_sched_pick(&s);
	agg_sched_enqueue(&s, &t[1]);
	agg_sched_pick(&s);
	t[2] = (struct agg_task){ .job = 1, .cost = 10 };
	t[3] = (struct agg_task){ .job = 2, .cost = 10 };
	agg_sched_enqueue(&s, &t[2]);
	agg_sched_enqueue(&s, &t[3]);
	EXPECT(agg_sched_pick(&s) == &t[3]);
	agg_sched_destroy(&s);
}

int main(void)
{
	TAP_RUN(dlas_queues);
	TAP_RUN(order_before);
	TAP_RUN(aggd_dlas);
	return tap_done();
}
