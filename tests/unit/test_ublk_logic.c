// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for libspare-ublk: the kmod pure logic (spare_slab.c,
 * spare_split.c) compiled for userspace through userspace/ublk/kcompat.h.
 * They check that the same sources behave in userspace as KUnit sees them
 * in the kernel, and that the shim's bitmap helpers agree with the kernel's
 * semantics at word boundaries.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "spare_slab.h"
#include "spare_split.h"
#include "tap.h"

static void test_bitmap_shim(void)
{
	unsigned long *a = bitmap_zalloc(130, GFP_KERNEL);
	unsigned long *b = bitmap_zalloc(130, GFP_KERNEL);

	EXPECT(a && b);
	if (!a || !b)
		goto out;
	bitmap_set(a, 62, 4);		/* crosses a 64-bit word */
	EXPECT(test_bit(63, a) && test_bit(64, a) && !test_bit(66, a));
	EXPECT_EQ(bitmap_weight(a, 130), 4);
	EXPECT_EQ(find_next_bit(a, 130, 0), 62);
	EXPECT_EQ(find_next_zero_bit(a, 130, 62), 66);
	EXPECT_EQ(find_next_bit(a, 62, 0), 62);	/* none below size */
	bitmap_complement(b, a, 130);
	EXPECT_EQ(bitmap_weight(b, 130), 126);
	EXPECT(!test_bit(130, b));	/* nothing past nbits */
	bitmap_clear(a, 63, 2);
	EXPECT_EQ(bitmap_weight(a, 130), 2);
out:
	bitmap_free(a);
	bitmap_free(b);
}

static void test_map_init_rules(void)
{
	struct spare_slab_map map;

	EXPECT_EQ(spare_slab_map_init(&map, 0, 20, 1, 1), -EINVAL);
	EXPECT_EQ(spare_slab_map_init(&map, 1 << 20, 11, 1, 1), -EINVAL);
	EXPECT_EQ(spare_slab_map_init(&map, 1 << 20, 20, 2, 1), -EINVAL);
	EXPECT_EQ(spare_slab_map_init(&map, 5ULL << 20, 21, 2, 3), 0);
	EXPECT_EQ(map.nr_slabs, 3);		/* 5 MiB in 2 MiB slabs */
	EXPECT_EQ(map.pages_per_slab, 512);
	EXPECT_EQ(map.slabs[2].copy[1].donor, spare_slab_place(2, 1, 3));
	spare_slab_map_free(&map);
}

/* A write makes the copy current only once it landed; reads follow. */
static void test_write_then_read(void)
{
	struct spare_slab_map map;
	struct spare_slab *s;
	u32 gens[SPARE_MAX_SLOTS], mask;

	if (spare_slab_map_init(&map, 1 << 20, 20, 1, 1)) {
		EXPECT(0);
		return;
	}
	s = &map.slabs[0];
	EXPECT_EQ(spare_slab_pick_read(&map, s, 0, 1, 0), -ENODATA);
	EXPECT_EQ(spare_copy_set_state(&map, s, 0, SPARE_COPY_MAPPED), -EINVAL);
	EXPECT_EQ(spare_copy_set_state(&map, s, 0, SPARE_COPY_MAPPING), 0);
	EXPECT_EQ(spare_copy_set_state(&map, s, 0, SPARE_COPY_MAPPED), 0);
	/* A fresh lent slab is zero filled: current for never-written pages. */
	EXPECT_EQ(spare_slab_pick_read(&map, s, 0, 256, 0), 0);
	EXPECT(!spare_slab_ever_written(s, 0, 256));

	mask = spare_slab_write_begin(&map, s, 10, 3, gens);
	EXPECT_EQ(mask, 1);
	EXPECT_EQ(spare_slab_pick_read(&map, s, 11, 1, 0), -ENODATA);
	EXPECT_EQ(spare_slab_pick_read(&map, s, 0, 10, 0), 0);
	spare_slab_write_landed(&map, s, 0, gens[0], 10, 3);
	spare_slab_write_end(s);
	EXPECT_EQ(spare_slab_pick_read(&map, s, 10, 3, 0), 0);
	EXPECT(spare_slab_ever_written(s, 12, 1));

	/* A copy fault leaves no copy to read the written pages from. */
	mask = spare_slab_write_begin(&map, s, 20, 1, gens);
	EXPECT(spare_slab_op_settle(&map, s, 0, gens[0], 20, 1, true,
				    SPARE_OP_COPY_FAULT));
	spare_slab_write_end(s);
	EXPECT_EQ(spare_slab_state(&map, s), SPARE_COPY_FAILED);
	EXPECT_EQ(spare_slab_pick_read(&map, s, 10, 1, 0), -ENODATA);
	spare_slab_map_free(&map);
}

static void test_split(void)
{
	struct spare_extent e[4];

	/* 12 KiB starting 4 KiB before the end of 1 MiB slab 0. */
	EXPECT_EQ(spare_split((1 << 20) - 4096, 12288, 4 << 20, 20, e, 4), 2);
	EXPECT_EQ(e[0].slab, 0);
	EXPECT_EQ(e[0].len, 4096);
	EXPECT_EQ(e[0].first_page, 255);
	EXPECT_EQ(e[1].slab, 1);
	EXPECT_EQ(e[1].offset, 0);
	EXPECT_EQ(e[1].nr_pages, 2);
	EXPECT_EQ(spare_split((4 << 20) - 4096, 8192, 4 << 20, 20, e, 4),
		  -EINVAL);	/* leaves the device */
	EXPECT_EQ(spare_split(0, 3 << 20, 4 << 20, 20, e, 2), -EINVAL);
}

int main(void)
{
	TAP_RUN(test_bitmap_shim);
	TAP_RUN(test_map_init_rules);
	TAP_RUN(test_write_then_read);
	TAP_RUN(test_split);
	return tap_done();
}
