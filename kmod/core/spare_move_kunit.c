// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the move machine (spare_move.c). The cases are
 * spare_move_cases.h, which the host test replays too: one KUnit
 * case whose parameters are the cases of that table.
 */
#include <kunit/test.h>
#include <linux/string.h>

#define MOVE_T			struct kunit *
#define MOVE_CHECK(t, cond)	KUNIT_EXPECT_TRUE(t, cond)
#define MOVE_EQ(t, a, b)	KUNIT_EXPECT_EQ(t, (long long)(a), (long long)(b))
#define MOVE_ASSERT(t, cond)	KUNIT_ASSERT_TRUE(t, cond)

#include "spare_move_cases.h"

static void move_case_desc(const struct spare_move_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(move, spare_move_cases, move_case_desc);

static void move_case(struct kunit *test)
{
	const struct spare_move_case *c = test->param_value;

	c->run(test);
}

static struct kunit_case spare_move_test_cases[] = {
	KUNIT_CASE_PARAM(move_case, move_gen_params),
	{}
};

static struct kunit_suite spare_move_suite = {
	.name = "spare_move",
	.test_cases = spare_move_test_cases,
};
kunit_test_suite(spare_move_suite);

MODULE_LICENSE("GPL");
