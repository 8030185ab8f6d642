// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for splitting requests at slab boundaries.
 */
#include <kunit/test.h>

#include "spare_slab.h"
#include "spare_split.h"

#define MiB	(1ULL << 20)

static void split_inside_one_slab(struct kunit *test)
{
	struct spare_extent e[2];

	KUNIT_ASSERT_EQ(test, spare_split(MiB + 8192, 65536, 16 * MiB, 20, e, 2), 1);
	KUNIT_EXPECT_EQ(test, e[0].slab, 1U);
	KUNIT_EXPECT_EQ(test, e[0].offset, 8192ULL);
	KUNIT_EXPECT_EQ(test, e[0].len, 65536U);
	KUNIT_EXPECT_EQ(test, e[0].first_page, 2U);
	KUNIT_EXPECT_EQ(test, e[0].nr_pages, 16U);
}

static void split_across_boundary(struct kunit *test)
{
	struct spare_extent e[2];

	/* 3 pages before the end of slab 0, 5 pages after */
	KUNIT_ASSERT_EQ(test, spare_split(MiB - 3 * 4096, 8 * 4096, 16 * MiB, 20,
					  e, 2), 2);
	KUNIT_EXPECT_EQ(test, e[0].slab, 0U);
	KUNIT_EXPECT_EQ(test, e[0].len, 3U * 4096);
	KUNIT_EXPECT_EQ(test, e[0].first_page, 253U);
	KUNIT_EXPECT_EQ(test, e[0].nr_pages, 3U);
	KUNIT_EXPECT_EQ(test, e[1].slab, 1U);
	KUNIT_EXPECT_EQ(test, e[1].offset, 0ULL);
	KUNIT_EXPECT_EQ(test, e[1].len, 5U * 4096);
	KUNIT_EXPECT_EQ(test, e[1].first_page, 0U);
	KUNIT_EXPECT_EQ(test, e[1].nr_pages, 5U);
	KUNIT_EXPECT_EQ(test, spare_extent_find(e, 2, 20, MiB - 1), 0);
	KUNIT_EXPECT_EQ(test, spare_extent_find(e, 2, 20, MiB), 1);
	KUNIT_EXPECT_EQ(test, spare_extent_find(e, 2, 20, MiB + 5 * 4096), -1);
}

static void split_unaligned_pieces_touch_pages(struct kunit *test)
{
	struct spare_extent e[2];

	/* 512 bytes straddling a page boundary touch two pages */
	KUNIT_ASSERT_EQ(test, spare_split(4096 - 256, 512, MiB, 20, e, 2), 1);
	KUNIT_EXPECT_EQ(test, e[0].first_page, 0U);
	KUNIT_EXPECT_EQ(test, e[0].nr_pages, 2U);
	/* cut exactly at the slab end mid-page is impossible: slabs are pages */
	KUNIT_ASSERT_EQ(test, spare_split(MiB - 512, 1024, 2 * MiB, 20, e, 2), 2);
	KUNIT_EXPECT_EQ(test, e[0].nr_pages, 1U);
	KUNIT_EXPECT_EQ(test, e[1].nr_pages, 1U);
	KUNIT_EXPECT_EQ(test, e[1].len, 512U);
}

static void split_rejects_bad_ranges(struct kunit *test)
{
	struct spare_extent e[2];

	KUNIT_EXPECT_EQ(test, spare_split(0, 0, MiB, 20, e, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, spare_split(MiB, 4096, MiB, 20, e, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, spare_split(MiB - 4096, 8192, MiB, 20, e, 2), -EINVAL);
	/* overflow of pos + len must not wrap */
	KUNIT_EXPECT_EQ(test, spare_split(U64_MAX - 10, 4096, U64_MAX, 20, e, 2),
			-EINVAL);
	/* three slabs do not fit in two extents */
	KUNIT_EXPECT_EQ(test, spare_split(MiB - 4096, MiB + 8192, 4 * MiB, 20,
					  e, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, spare_split(0, 4096, MiB, 8, e, 2), -EINVAL);
}

static void split_covers_range_exactly(struct kunit *test)
{
	struct spare_extent e[8];
	u64 pos = 3 * MiB - 12288, total = 0;
	int n, i;

	n = spare_split(pos, 2 * MiB + 4096, 64 * MiB, 20, e, 8);
	KUNIT_ASSERT_EQ(test, n, 3);	/* slabs 2, 3 and 4 */
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, ((u64)e[i].slab << 20) + e[i].offset,
				pos + total);
		KUNIT_EXPECT_LE(test, e[i].offset + e[i].len, MiB);
		total += e[i].len;
	}
	KUNIT_EXPECT_EQ(test, total, 2 * MiB + 4096);
}

/*
 * The re-drive delay goes to blk_mq_delay_kick_requeue_list(), which takes
 * milliseconds: 20, 40, 80 ... ms, at most 500 ms, whatever HZ is.
 */
static void redrive_delay_is_milliseconds(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, spare_redrive_delay(1, 20, 500), 20UL);
	KUNIT_EXPECT_EQ(test, spare_redrive_delay(2, 20, 500), 40UL);
	KUNIT_EXPECT_EQ(test, spare_redrive_delay(4, 20, 500), 160UL);
	KUNIT_EXPECT_EQ(test, spare_redrive_delay(5, 20, 500), 320UL);
	KUNIT_EXPECT_EQ(test, spare_redrive_delay(6, 20, 500), 500UL);
	KUNIT_EXPECT_EQ(test, spare_redrive_delay(4000, 20, 500), 500UL);
}

static struct kunit_case split_cases[] = {
	KUNIT_CASE(split_inside_one_slab),
	KUNIT_CASE(split_across_boundary),
	KUNIT_CASE(split_unaligned_pieces_touch_pages),
	KUNIT_CASE(split_rejects_bad_ranges),
	KUNIT_CASE(split_covers_range_exactly),
	KUNIT_CASE(redrive_delay_is_milliseconds),
	{}
};

static struct kunit_suite split_suite = {
	.name = "spare_split",
	.test_cases = split_cases,
};

kunit_test_suite(split_suite);

MODULE_LICENSE("GPL");
