// SPDX-License-Identifier: GPL-2.0
/* Coding groups (CodingSets): see ecgroup.h. */
/* qsort_r: _GNU_SOURCE comes from the build */
#include <errno.h>
#include <stdlib.h>

#include "ecgroup.h"

static int by_domain_key(const void *a, const void *b, void *arg)
{
	const struct ec_member *m = arg;
	const struct ec_member *x = &m[*(const uint32_t *)a], *y = &m[*(const uint32_t *)b];

	if (x->domain != y->domain)
		return x->domain < y->domain ? -1 : 1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

/* Domains are runs in idx[]; run r starts at start[r] and holds len[r]. */
struct runs {
	uint32_t	*idx, *start, *len, *order;
	size_t		n;
};

static int by_len_desc(const void *a, const void *b, void *arg)
{
	const struct runs *r = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (r->len[x] != r->len[y])
		return r->len[x] > r->len[y] ? -1 : 1;
	return x < y ? -1 : 1;	/* runs are in domain order: the lower domain */
}

/* Sort donors by (domain, key) and find the domains' runs. */
static void find_runs(const struct ec_member *m, size_t n, uint32_t *scratch, struct runs *r)
{
	r->idx = scratch;
	r->start = scratch + n;
	r->len = scratch + 2 * n;
	r->n = 0;
	for (size_t i = 0; i < n; i++)
		r->idx[i] = (uint32_t)i;
	qsort_r(r->idx, n, sizeof(*r->idx), by_domain_key, (void *)m);
	for (size_t i = 0; i < n; i++) {
		if (i && m[r->idx[i]].domain == m[r->idx[i - 1]].domain) {
			r->len[r->n - 1]++;
			continue;
		}
		r->start[r->n] = (uint32_t)i;
		r->len[r->n++] = 1;
	}
}

static int feasible(const struct runs *r, size_t g, unsigned int width)
{
	size_t sum = 0;

	for (size_t k = 0; k < r->n; k++)
		sum += r->len[k] < g ? r->len[k] : g;
	return sum >= g * width;
}

static size_t max_groups(const struct runs *r, size_t n, unsigned int width)
{
	size_t lo = 0, hi = n / width;

	/* feasible() holds on [0, G] and fails above: min(len, g) is concave */
	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2;

		if (feasible(r, mid, width))
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

size_t ec_groups_max(const struct ec_member *members, size_t n, unsigned int width,
		     uint32_t *scratch)
{
	struct runs r;

	if (!members || !scratch || !width || width > EC_GROUP_MAX_WIDTH || n > UINT32_MAX)
		return 0;
	find_runs(members, n, scratch, &r);
	return max_groups(&r, n, width);
}

long ec_groups_build(const struct ec_member *members, size_t n, unsigned int width,
		     uint32_t *scratch, uint32_t *out)
{
	struct runs r;
	size_t g, placed = 0;

	if (!members || !scratch || !out || !width || width > EC_GROUP_MAX_WIDTH ||
	    n > UINT32_MAX)
		return -EINVAL;
	find_runs(members, n, scratch, &r);
	g = max_groups(&r, n, width);
	if (!g)
		return 0;
	/*
	 * Lay the donors out domain by domain, the largest domain first, at
	 * most g from each, and deal entry i to group i mod g: a domain's
	 * entries are at most g consecutive ones, so they land in distinct
	 * groups.
	 */
	r.order = scratch + 3 * n;
	for (size_t k = 0; k < r.n; k++)
		r.order[k] = (uint32_t)k;
	qsort_r(r.order, r.n, sizeof(*r.order), by_len_desc, &r);
	for (size_t k = 0; k < r.n && placed < g * width; k++) {
		uint32_t run = r.order[k];
		size_t take = r.len[run] < g ? r.len[run] : g;

		for (size_t j = 0; j < take && placed < g * width; j++, placed++)
			out[(placed % g) * width + placed / g] = r.idx[r.start[run] + j];
	}
	return (long)g;
}

long ec_group_pick(const uint32_t *groups, size_t ngroups, unsigned int width,
		   const struct place_donor *donors, struct spare_rng *rng, uint32_t *scratch)
{
	uint64_t best[2];
	size_t eligible = 0;
	uint32_t pick[2];

	if (!groups || !donors || !rng || !scratch || !width || width > EC_GROUP_MAX_WIDTH)
		return -EINVAL;
	for (size_t g = 0; g < ngroups; g++) {
		uint64_t low = UINT64_MAX;

		for (unsigned int j = 0; j < width; j++) {
			uint64_t f = donors[groups[g * width + j]].free_slabs;

			low = f < low ? f : low;
		}
		if (low)
			scratch[eligible++] = (uint32_t)g;
	}
	if (!eligible)
		return -ENOSPC;
	for (int c = 0; c < 2; c++) {
		pick[c] = scratch[spare_rng_below(rng, eligible)];
		best[c] = UINT64_MAX;
		for (unsigned int j = 0; j < width; j++) {
			uint64_t f = donors[groups[pick[c] * width + j]].free_slabs;

			best[c] = f < best[c] ? f : best[c];
		}
	}
	if (best[0] != best[1])
		return best[0] > best[1] ? pick[0] : pick[1];
	return pick[0] < pick[1] ? pick[0] : pick[1];
}
