// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the resync plan (spare_resync_plan.c). The cases are
 * spare_resync_plan_cases.h, which the host test replays too: one KUnit
 * case whose parameters are the cases of that table.
 */
#include <kunit/test.h>
#include <linux/string.h>

#define PLAN_T			struct kunit *
#define PLAN_CHECK(t, cond)	KUNIT_EXPECT_TRUE(t, cond)
#define PLAN_EQ(t, a, b)	KUNIT_EXPECT_EQ(t, (long long)(a), (long long)(b))
#define PLAN_ASSERT(t, cond)	KUNIT_ASSERT_TRUE(t, cond)

#include "spare_resync_plan_cases.h"

static void plan_case_desc(const struct spare_resync_plan_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(plan, spare_resync_plan_cases, plan_case_desc);

static void resync_plan(struct kunit *test)
{
	const struct spare_resync_plan_case *c = test->param_value;

	c->run(test);
}

static struct kunit_case spare_resync_plan_test_cases[] = {
	KUNIT_CASE_PARAM(resync_plan, plan_gen_params),
	{}
};

static struct kunit_suite spare_resync_plan_suite = {
	.name = "spare_resync_plan",
	.test_cases = spare_resync_plan_test_cases,
};
kunit_test_suite(spare_resync_plan_suite);

MODULE_LICENSE("GPL");
