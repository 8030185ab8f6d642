// SPDX-License-Identifier: GPL-2.0
/*
 * Slab placement: power of two choices weighted by free slabs, copies in
 * distinct failure domains (see place.h).
 */
#include <errno.h>
#include <stdbool.h>

#include "place.h"

static bool eligible(const struct place_donor *donors, size_t i,
		     const uint32_t *chosen, unsigned int nchosen)
{
	if (donors[i].free_slabs == 0)
		return false;
	for (unsigned int k = 0; k < nchosen; k++)
		if (chosen[k] == i || donors[chosen[k]].domain == donors[i].domain)
			return false;
	return true;
}

/* Draw one eligible donor with probability free / total. */
static size_t draw(const struct place_donor *donors, size_t n, const uint32_t *chosen,
		   unsigned int nchosen, uint64_t total, struct spare_rng *rng)
{
	uint64_t r = spare_rng_below(rng, total);
	size_t i, last = 0;

	for (i = 0; i < n; i++) {
		if (!eligible(donors, i, chosen, nchosen))
			continue;
		last = i;
		if (r < donors[i].free_slabs)
			return i;
		r -= donors[i].free_slabs;
	}
	return last;	/* not reached: r < total */
}

int place_slab(const struct place_donor *donors, size_t n, unsigned int copies,
	       struct spare_rng *rng, uint32_t *out)
{
	if (!donors || !rng || !out || copies < 1 || copies > PLACE_MAX_COPIES ||
	    n > UINT32_MAX)
		return -EINVAL;
	for (unsigned int c = 0; c < copies; c++) {
		uint64_t total = 0;
		size_t a, b;

		for (size_t i = 0; i < n; i++) {
			if (!eligible(donors, i, out, c))
				continue;
			if (donors[i].free_slabs > UINT64_MAX - total)
				return -EINVAL;
			total += donors[i].free_slabs;
		}
		if (total == 0)
			return -ENOSPC;
		a = draw(donors, n, out, c, total, rng);
		b = draw(donors, n, out, c, total, rng);
		if (donors[b].free_slabs > donors[a].free_slabs ||
		    (donors[b].free_slabs == donors[a].free_slabs && b < a))
			a = b;
		out[c] = (uint32_t)a;
	}
	return 0;
}
