// SPDX-License-Identifier: GPL-2.0
/*
 * Request splitting across slab boundaries. See spare_split.h.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/minmax.h>

#include "spare_slab.h"
#include "spare_split.h"

int spare_split(u64 pos, u32 len, u64 dev_bytes, u8 slab_shift,
		struct spare_extent *ext, unsigned int max)
{
	u64 slab_mask = (1ULL << slab_shift) - 1;
	unsigned int n = 0;

	if (!len || slab_shift < SPARE_PAGE_SHIFT || slab_shift > 40 ||
	    pos >= dev_bytes || len > dev_bytes - pos)
		return -EINVAL;

	while (len) {
		u32 piece = min_t(u64, len, spare_bytes_to_slab_end(pos, slab_shift));
		u64 off = pos & slab_mask;
		u64 last = off + piece - 1;

		if (n == max)
			return -EINVAL;
		ext[n].slab = pos >> slab_shift;
		ext[n].offset = off;
		ext[n].len = piece;
		ext[n].first_page = off >> SPARE_PAGE_SHIFT;
		ext[n].nr_pages = (last >> SPARE_PAGE_SHIFT) -
				  ext[n].first_page + 1;
		n++;
		pos += piece;
		len -= piece;
	}
	return n;
}

int spare_extent_find(const struct spare_extent *ext, unsigned int n,
		      u8 slab_shift, u64 pos)
{
	u64 slab = pos >> slab_shift;
	u64 off = pos & ((1ULL << slab_shift) - 1);
	unsigned int i;

	for (i = 0; i < n; i++)
		if (ext[i].slab == slab && off >= ext[i].offset &&
		    off - ext[i].offset < ext[i].len)
			return i;
	return -1;
}
