/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slab placement for spare-broker: where the copies of one slab go.
 *
 * Power of two choices weighted by free slabs: for each copy, two
 * candidates are drawn with probability proportional to their free slabs,
 * and the one with more free slabs wins (the lower index on a tie). Copies
 * land on distinct donors in distinct failure domains. Pure: the caller owns
 * the donor table and the random state; nothing is allocated.
 */
#ifndef SPARE_SCHED_PLACE_H
#define SPARE_SCHED_PLACE_H

#include <stddef.h>
#include <stdint.h>

#include "spare_rng.h"

struct place_donor {
	uint64_t free_slabs;
	uint32_t domain;	/* failure domain (rack, PDU, ...) */
};

#define PLACE_MAX_COPIES 8


/*
 * Choose copies (1..PLACE_MAX_COPIES) donors out of donors[0..n) for one
 * slab, writing their indices to out[0..copies). Does not change the free
 * counts: the caller reserves on the chosen donors. Returns 0, -EINVAL, or
 * -ENOSPC when fewer than copies failure domains have a donor with a free
 * slab.
 */
int place_slab(const struct place_donor *donors, size_t n, unsigned int copies,
	       struct spare_rng *rng, uint32_t *out);

#endif /* SPARE_SCHED_PLACE_H */
