// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for giving a copy back on a move mark (spare_reclaim.c).
 * The cases are spare_reclaim_cases.h, which the host test replays too:
 * one KUnit case whose parameters are the cases of that table.
 */
#include <kunit/test.h>
#include <linux/string.h>

#define RECLAIM_T		struct kunit *
#define RECLAIM_CHECK(t, cond)	KUNIT_EXPECT_TRUE(t, cond)
#define RECLAIM_EQ(t, a, b)	KUNIT_EXPECT_EQ(t, (long long)(a), (long long)(b))
#define RECLAIM_ASSERT(t, cond)	KUNIT_ASSERT_TRUE(t, cond)

#include "spare_reclaim_cases.h"

static void reclaim_case_desc(const struct spare_reclaim_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(reclaim, spare_reclaim_cases, reclaim_case_desc);

static void reclaim_case(struct kunit *test)
{
	const struct spare_reclaim_case *c = test->param_value;

	c->run(test);
}

static struct kunit_case spare_reclaim_test_cases[] = {
	KUNIT_CASE_PARAM(reclaim_case, reclaim_gen_params),
	{}
};

static struct kunit_suite spare_reclaim_suite = {
	.name = "spare_reclaim",
	.test_cases = spare_reclaim_test_cases,
};
kunit_test_suite(spare_reclaim_suite);

MODULE_LICENSE("GPL");
