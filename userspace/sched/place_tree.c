// SPDX-License-Identifier: GPL-2.0
/*
 * Slab placement in O(log n) per draw on a Fenwick tree (place_tree.h).
 */
#include <errno.h>
#include <stdbool.h>

#include "place_tree.h"

int place_tree_build(struct place_tree *t, uint64_t *bit, uint64_t *w,
		     const struct place_donor *donors, size_t n)
{
	uint64_t total = 0;

	if (!t || !bit || !w || (!donors && n) || n > UINT32_MAX)
		return -EINVAL;
	t->bit = bit;
	t->w = w;
	t->n = n;
	t->top = 1;
	while (t->top * 2 <= n)
		t->top *= 2;
	bit[0] = 0;
	for (size_t i = 0; i < n; i++) {
		if (donors[i].free_slabs > UINT64_MAX - total)
			return -EINVAL;
		total += donors[i].free_slabs;
		w[i] = donors[i].free_slabs;
		bit[i + 1] = w[i];
	}
	/* O(n) build: push each node's sum to its parent */
	for (size_t i = 1; i <= n; i++) {
		size_t p = i + (i & -i);

		if (p <= n)
			bit[p] += bit[i];
	}
	t->total = total;
	return 0;
}

int place_tree_set(struct place_tree *t, size_t i, uint64_t free_slabs)
{
	uint64_t old;

	if (!t || i >= t->n)
		return -EINVAL;
	old = t->w[i];
	if (free_slabs > old && free_slabs - old > UINT64_MAX - t->total)
		return -EINVAL;
	t->w[i] = free_slabs;
	t->total = t->total - old + free_slabs;
	/* unsigned wrap-around makes the delta work both ways */
	for (size_t k = i + 1; k <= t->n; k += k & -k)
		t->bit[k] += free_slabs - old;
	return 0;
}

size_t place_tree_find(const struct place_tree *t, uint64_t r)
{
	size_t pos = 0;

	for (size_t step = t->top; step; step >>= 1) {
		size_t next = pos + step;

		if (next <= t->n && t->bit[next] <= r) {
			pos = next;
			r -= t->bit[next];
		}
	}
	return pos;	/* 0-based index of the first prefix sum > r */
}

/* One weighted draw among donors outside the domains of out[0..c). */
static bool draw(const struct place_donor *donors, const struct place_tree *t,
		 const uint32_t *out, unsigned int c, struct spare_rng *rng,
		 size_t *pick)
{
	for (unsigned int tries = 0; tries < PLACE_TREE_MAX_REJECT; tries++) {
		size_t i = place_tree_find(t, spare_rng_below(rng, t->total));
		bool ok = true;

		for (unsigned int k = 0; k < c && ok; k++)
			if (donors[out[k]].domain == donors[i].domain)
				ok = false;
		if (ok) {
			*pick = i;
			return true;
		}
	}
	return false;
}

int place_slab_tree(const struct place_donor *donors, struct place_tree *t,
		    unsigned int copies, struct spare_rng *rng, uint32_t *out)
{
	unsigned int c;
	int ret = 0;

	if (!donors || !t || !rng || !out || copies < 1 || copies > PLACE_MAX_COPIES)
		return -EINVAL;
	for (c = 0; c < copies; c++) {
		size_t a, b;

		if (t->total == 0 || !draw(donors, t, out, c, rng, &a) ||
		    !draw(donors, t, out, c, rng, &b)) {
			ret = -EAGAIN;
			break;
		}
		if (donors[b].free_slabs > donors[a].free_slabs ||
		    (donors[b].free_slabs == donors[a].free_slabs && b < a))
			a = b;
		out[c] = (uint32_t)a;
		/* a chosen donor is out of the running for this slab */
		place_tree_set(t, a, 0);
	}
	for (unsigned int k = 0; k < c; k++)
		place_tree_set(t, out[k], donors[out[k]].free_slabs);
	if (ret == -EAGAIN)	/* capacity mostly in used domains: scan */
		ret = place_slab(donors, t->n, copies, rng, out);
	return ret;
}
