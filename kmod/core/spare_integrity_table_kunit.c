// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for integrity's shared part (spare_integrity_table.c). The
 * cases are spare_integrity_cases.h, which the host test replays too: one
 * KUnit case whose parameters are the cases of that table.
 */
#include <kunit/test.h>
#include <linux/string.h>

#define INTEG_T			struct kunit *
#define INTEG_CHECK(t, cond)	KUNIT_EXPECT_TRUE(t, cond)
#define INTEG_EQ(t, a, b)	KUNIT_EXPECT_EQ(t, (long long)(a), (long long)(b))
#define INTEG_ASSERT(t, cond)	KUNIT_ASSERT_TRUE(t, cond)

#include "spare_integrity_cases.h"

static void integ_case_desc(const struct spare_integrity_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(integ, spare_integrity_cases, integ_case_desc);

static void integrity(struct kunit *test)
{
	const struct spare_integrity_case *c = test->param_value;

	c->run(test);
}

static struct kunit_case spare_integrity_test_cases[] = {
	KUNIT_CASE_PARAM(integrity, integ_gen_params),
	{}
};

static struct kunit_suite spare_integrity_suite = {
	.name = "spare_integrity",
	.test_cases = spare_integrity_test_cases,
};
kunit_test_suite(spare_integrity_suite);

MODULE_LICENSE("GPL");
