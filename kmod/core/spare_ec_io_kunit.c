// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the erasure-coded I/O path's decisions (spare_ec_io.c).
 * The cases are spare_ec_io_cases.h, which the host test replays too: one
 * KUnit case whose parameters are the cases of that table.
 */
#include <kunit/test.h>
#include <linux/string.h>

#define ECIO_T			struct kunit *
#define ECIO_CHECK(t, cond)	KUNIT_EXPECT_TRUE(t, cond)
#define ECIO_EQ(t, a, b)	KUNIT_EXPECT_EQ(t, (long long)(a), (long long)(b))
#define ECIO_ASSERT(t, cond)	KUNIT_ASSERT_TRUE(t, cond)

#include "spare_ec_io_cases.h"

static void ecio_case_desc(const struct spare_ec_io_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ecio, spare_ec_io_cases, ecio_case_desc);

static void ec_io(struct kunit *test)
{
	const struct spare_ec_io_case *c = test->param_value;

	c->run(test);
}

static struct kunit_case spare_ec_io_test_cases[] = {
	KUNIT_CASE_PARAM(ec_io, ecio_gen_params),
	{}
};

static struct kunit_suite spare_ec_io_suite = {
	.name = "spare_ec_io",
	.test_cases = spare_ec_io_test_cases,
};
kunit_test_suite(spare_ec_io_suite);

MODULE_LICENSE("GPL");
