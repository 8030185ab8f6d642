// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the donor life cycle (spare_donor_life.c). The cases are
 * spare_donor_life_cases.h, which the host test replays too: one KUnit
 * case whose parameters are the cases of that table.
 */
#include <kunit/test.h>
#include <linux/string.h>

#define LIFE_T			struct kunit *
#define LIFE_CHECK(t, cond)	KUNIT_EXPECT_TRUE(t, cond)
#define LIFE_EQ(t, a, b)	KUNIT_EXPECT_EQ(t, (long long)(a), (long long)(b))

#include "spare_donor_life_cases.h"

static void life_case_desc(const struct spare_donor_life_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(life, spare_donor_life_cases, life_case_desc);

static void life_case(struct kunit *test)
{
	const struct spare_donor_life_case *c = test->param_value;

	c->run(test);
}

static struct kunit_case spare_donor_life_test_cases[] = {
	KUNIT_CASE_PARAM(life_case, life_gen_params),
	{}
};

static struct kunit_suite spare_donor_life_suite = {
	.name = "spare_donor_life",
	.test_cases = spare_donor_life_test_cases,
};
kunit_test_suite(spare_donor_life_suite);

MODULE_LICENSE("GPL");
