/* SPDX-License-Identifier: GPL-2.0 */
/*
 * O(log n) slab placement for large donor tables: the same policy and
 * contract as place_slab() (place.h: power of two choices weighted by free
 * slabs, distinct donors in distinct failure domains, -ENOSPC when
 * impossible), with the weighted draws done on a Fenwick tree over the free
 * slab counts.
 *
 * Draws that land on a donor in a failure domain already used for this
 * slab are rejected and redrawn, which leaves each draw distributed exactly
 * as place_slab's (free / eligible total). After PLACE_TREE_MAX_REJECT
 * rejections in a row (few domains, most capacity in used ones) it falls
 * back to place_slab() for that slab, which also decides -ENOSPC.
 *
 * Pure: the caller owns the donor table, the tree's memory and the random
 * state, and keeps the tree in step with donors[].free_slabs
 * (place_tree_set).
 */
#ifndef SPARE_SCHED_PLACE_TREE_H
#define SPARE_SCHED_PLACE_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "place.h"

#define PLACE_TREE_MAX_REJECT	32

struct place_tree {
	uint64_t	*bit;	/* caller's array of n + 1 entries; bit[0] unused */
	uint64_t	*w;	/* caller's array of n entries: the weights */
	size_t		n;
	size_t		top;	/* highest power of two <= n */
	uint64_t	total;
};

/*
 * Build over donors[0..n) in O(n) into caller arrays bit[n + 1], w[n].
 * Returns 0, or -EINVAL (NULL, n > UINT32_MAX, total overflows).
 */
int place_tree_build(struct place_tree *t, uint64_t *bit, uint64_t *w,
		     const struct place_donor *donors, size_t n);

/* Set donor i's weight (its free slabs) in O(log n). 0 or -EINVAL. */
int place_tree_set(struct place_tree *t, size_t i, uint64_t free_slabs);

/* The index whose weight covers r, for r < t->total. O(log n). */
size_t place_tree_find(const struct place_tree *t, uint64_t r);

/*
 * place_slab() over @t: donors must be the table the tree was built over,
 * with free_slabs equal to the tree's weights. Same results and errors.
 */
int place_slab_tree(const struct place_donor *donors, struct place_tree *t,
		    unsigned int copies, struct spare_rng *rng, uint32_t *out);

#endif /* SPARE_SCHED_PLACE_TREE_H */
