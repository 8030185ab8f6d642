/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cutting a request's byte range at slab boundaries: pure logic, tested by
 * spare_split_kunit.c.
 */
#ifndef SPARE_SPLIT_H
#define SPARE_SPLIT_H

#include <linux/types.h>

/* The part of a request that falls in one slab. */
struct spare_extent {
	u32 slab;		/* slab index */
	u64 offset;		/* byte offset inside the slab */
	u32 len;		/* bytes */
	u32 first_page;		/* first device page touched, inside the slab */
	u32 nr_pages;		/* device pages touched */
};

/*
 * Cut [pos, pos + len) of a device of @dev_bytes bytes into at most @max
 * extents of slabs of 2^@slab_shift bytes. Returns the number of extents, or
 * -EINVAL if the range is empty, leaves the device, or needs more than @max.
 */
int spare_split(u64 pos, u32 len, u64 dev_bytes, u8 slab_shift,
		struct spare_extent *ext, unsigned int max);

/* Index of the extent of @ext[0..n) that holds device byte @pos, or -1. */
int spare_extent_find(const struct spare_extent *ext, unsigned int n,
		      u8 slab_shift, u64 pos);

/* Bytes from @pos to the end of its slab. */
static inline u64 spare_bytes_to_slab_end(u64 pos, u8 slab_shift)
{
	return (1ULL << slab_shift) - (pos & ((1ULL << slab_shift) - 1));
}

/*
 * How long the @attempts-th re-drive of a request waits (1-based), in
 * milliseconds as blk_mq_delay_kick_requeue_list() takes them: @base_ms
 * doubled per attempt (up to 32x), at most @max_ms.
 */
static inline unsigned long spare_redrive_delay(unsigned int attempts,
						unsigned int base_ms,
						unsigned int max_ms)
{
	unsigned int ms = base_ms << (attempts > 6 ? 5 : attempts - 1);

	return ms < max_ms ? ms : max_ms;
}

#endif /* SPARE_SPLIT_H */
