// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the split table's placement (spare_ec_place.c).
 * The cases are spare_ec_place_cases.h, which the host test replays too: one
 * KUnit case whose parameters are the cases of that table.
 */
#include <kunit/test.h>
#include <linux/string.h>

#define ECPL_T			struct kunit *
#define ECPL_CHECK(t, cond)	KUNIT_EXPECT_TRUE(t, cond)
#define ECPL_EQ(t, a, b)	KUNIT_EXPECT_EQ(t, (long long)(a), (long long)(b))

#include "spare_ec_place_cases.h"

static void ecpl_case_desc(const struct spare_ec_place_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ecpl, spare_ec_place_cases, ecpl_case_desc);

static void ec_place(struct kunit *test)
{
	const struct spare_ec_place_case *c = test->param_value;

	c->run(test);
}

static struct kunit_case spare_ec_place_test_cases[] = {
	KUNIT_CASE_PARAM(ec_place, ecpl_gen_params),
	{}
};

static struct kunit_suite spare_ec_place_suite = {
	.name = "spare_ec_place",
	.test_cases = spare_ec_place_test_cases,
};
kunit_test_suite(spare_ec_place_suite);

MODULE_LICENSE("GPL");
