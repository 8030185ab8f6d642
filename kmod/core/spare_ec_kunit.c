// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the erasure codec (spare_ec.c) over the kernel's own
 * raid6_pq and xor_blocks. The cases are spare_ec_cases.h, which the host
 * test replays over ISA-L: the same known answers from both.
 */
#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/slab.h>
#include <linux/string.h>

/* kmalloc of a power-of-two size is aligned to it: 4 KiB and up here. */
#define EC_T			struct kunit *
#define EC_CHECK(t, cond)	KUNIT_EXPECT_TRUE(t, cond)
#define EC_EQ(t, a, b)		KUNIT_EXPECT_EQ(t, (long long)(a), (long long)(b))
#define EC_ALLOC(t, bytes)	kunit_kzalloc(t, roundup_pow_of_two(bytes), GFP_KERNEL)
#define EC_FREE(t, p)		kunit_kfree(t, p)

#include "spare_ec_cases.h"

static void ec_case_desc(const struct spare_ec_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ec, spare_ec_cases, ec_case_desc);

static void ec_case(struct kunit *test)
{
	const struct spare_ec_case *c = test->param_value;

	c->run(test);
}

static struct kunit_case spare_ec_test_cases[] = {
	KUNIT_CASE_PARAM(ec_case, ec_gen_params),
	{}
};

static struct kunit_suite spare_ec_suite = {
	.name = "spare_ec",
	.test_cases = spare_ec_test_cases,
};
kunit_test_suite(spare_ec_suite);

MODULE_LICENSE("GPL");
