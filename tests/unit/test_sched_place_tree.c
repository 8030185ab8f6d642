// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the Fenwick-tree placement (userspace/sched/place_tree.c):
 * the tree's sums and searches against a linear scan, and place_slab()'s
 * contract (distinct donors and domains, weighting, -ENOSPC).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "place_tree.h"
#include "tap.h"

#define N 1000

/* find(r) is the index a linear prefix scan gives, after random updates. */
static void tree_matches_scan(void)
{
	static struct place_donor d[N];
	static uint64_t bit[N + 1], w[N];
	struct place_tree t;
	uint64_t seed = 5;

	for (int i = 0; i < N; i++)
		d[i] = (struct place_donor){ .free_slabs = (uint64_t)(i % 7), .domain = (uint32_t)i };
	EXPECT_EQ(place_tree_build(&t, bit, w, d, N), 0);
	for (int round = 0; round < 300; round++) {
		size_t i = (size_t)(seed = seed * 6364136223846793005ULL + 1) >> 33;
		uint64_t sum = 0, r;
		size_t want = 0;

		i %= N;
		d[i].free_slabs = (seed >> 20) % 50;
		EXPECT_EQ(place_tree_set(&t, i, d[i].free_slabs), 0);
		for (int k = 0; k < N; k++)
			sum += d[k].free_slabs;
		EXPECT(t.total == sum);
		r = (seed >> 7) % sum;
		for (uint64_t acc = 0; want < N; want++) {
			acc += d[want].free_slabs;
			if (acc > r)
				break;
		}
		EXPECT_EQ(place_tree_find(&t, r), want);
		EXPECT_EQ(place_tree_find(&t, 0) < N, 1);
		EXPECT(d[place_tree_find(&t, 0)].free_slabs > 0);
		EXPECT(d[place_tree_find(&t, sum - 1)].free_slabs > 0);
	}
	EXPECT_EQ(place_tree_set(&t, N, 1), -EINVAL);
}

static void distinct_donors_and_domains(void)
{
	struct place_donor d[12];
	uint64_t bit[13], w[12];
	struct place_tree t;
	struct spare_rng rng = { 42 };
	uint32_t out[3];

	for (int i = 0; i < 12; i++) {
		d[i].free_slabs = (uint64_t)(i % 4) * 10;	/* every 4th is full */
		d[i].domain = (uint32_t)(i / 3);		/* 4 domains of 3 */
	}
	EXPECT_EQ(place_tree_build(&t, bit, w, d, 12), 0);
	for (int round = 0; round < 2000; round++) {
		EXPECT_EQ(place_slab_tree(d, &t, 3, &rng, out), 0);
		for (int a = 0; a < 3; a++) {
			EXPECT(d[out[a]].free_slabs > 0);
			for (int b = a + 1; b < 3; b++) {
				EXPECT(out[a] != out[b]);
				EXPECT(d[out[a]].domain != d[out[b]].domain);
			}
		}
	}
	/* the tree is left as it was */
	for (int i = 0; i < 12; i++)
		EXPECT(w[i] == d[i].free_slabs);
	EXPECT(t.total == 180);
}

static void no_capacity(void)
{
	struct place_donor d[4] = { { 5, 0 }, { 7, 0 }, { 0, 1 }, { 3, 2 } };
	uint64_t bit[5], w[4];
	struct place_tree t;
	struct spare_rng rng = { 7 };
	uint32_t out[PLACE_MAX_COPIES + 1];

	EXPECT_EQ(place_tree_build(&t, bit, w, d, 4), 0);
	EXPECT_EQ(place_slab_tree(d, &t, 2, &rng, out), 0);
	EXPECT_EQ(place_slab_tree(d, &t, 3, &rng, out), -ENOSPC);
	EXPECT_EQ(place_slab_tree(d, &t, 0, &rng, out), -EINVAL);
	EXPECT_EQ(place_slab_tree(d, &t, PLACE_MAX_COPIES + 1, &rng, out), -EINVAL);
	/* everything full */
	for (int i = 0; i < 4; i++) {
		d[i].free_slabs = 0;
		EXPECT_EQ(place_tree_set(&t, (size_t)i, 0), 0);
	}
	EXPECT_EQ(place_slab_tree(d, &t, 1, &rng, out), -ENOSPC);
	/* empty table */
	EXPECT_EQ(place_tree_build(&t, bit, w, d, 0), 0);
	EXPECT_EQ(place_slab_tree(d, &t, 1, &rng, out), -ENOSPC);
}

/* Same weighting as place_slab: power of two choices by free slabs. */
static void prefers_free_donors(void)
{
	struct place_donor d[10];
	uint64_t bit[11], w[10];
	struct place_tree t;
	struct spare_rng rng = { 12345 };
	uint32_t out[1];
	int big = 0, tiny = 0, rounds = 20000;

	for (int i = 0; i < 10; i++)
		d[i] = (struct place_donor){ .free_slabs = 100, .domain = (uint32_t)i };
	d[0].free_slabs = 900;
	d[9].free_slabs = 1;
	EXPECT_EQ(place_tree_build(&t, bit, w, d, 10), 0);
	for (int r = 0; r < rounds; r++) {
		EXPECT_EQ(place_slab_tree(d, &t, 1, &rng, out), 0);
		big += out[0] == 0;
		tiny += out[0] == 9;
	}
	EXPECT(big > rounds * 70 / 100 && big < rounds * 86 / 100);
	EXPECT(tiny < 5);
}

/*
 * Most capacity in one domain: the second copy's draws are mostly
 * rejected, and the fallback scan still places it in another domain.
 */
static void skewed_domains_fall_back(void)
{
	struct place_donor d[3] = { { 1000000, 0 }, { 1000000, 0 }, { 1, 1 } };
	uint64_t bit[4], w[3];
	struct place_tree t;
	struct spare_rng rng = { 3 };
	uint32_t out[2];

	EXPECT_EQ(place_tree_build(&t, bit, w, d, 3), 0);
	for (int r = 0; r < 200; r++) {
		EXPECT_EQ(place_slab_tree(d, &t, 2, &rng, out), 0);
		EXPECT(d[out[0]].domain != d[out[1]].domain);
		EXPECT(out[0] == 2 || out[1] == 2);
	}
}

/* Debiting as a broker does: copies never land on a donor at 0. */
static void debit_until_full(void)
{
	struct place_donor d[6];
	uint64_t bit[7], w[6];
	struct place_tree t;
	struct spare_rng rng = { 11 };
	uint32_t out[2];
	int placed = 0, ret;

	for (int i = 0; i < 6; i++)
		d[i] = (struct place_donor){ .free_slabs = 5, .domain = (uint32_t)(i % 3) };
	EXPECT_EQ(place_tree_build(&t, bit, w, d, 6), 0);
	while ((ret = place_slab_tree(d, &t, 2, &rng, out)) == 0) {
		for (int c = 0; c < 2; c++) {
			EXPECT(d[out[c]].free_slabs > 0);
			d[out[c]].free_slabs--;
			place_tree_set(&t, out[c], d[out[c]].free_slabs);
		}
		placed++;
		if (placed > 100)
			break;
	}
	EXPECT_EQ(ret, -ENOSPC);
	EXPECT_EQ(placed, 15);	/* 30 free slabs, 2 copies each, 3 equal domains */
}

int main(void)
{
	TAP_RUN(tree_matches_scan);
	TAP_RUN(distinct_donors_and_domains);
	TAP_RUN(no_capacity);
	TAP_RUN(prefers_free_donors);
	TAP_RUN(skewed_domains_fall_back);
	TAP_RUN(debit_until_full);
	return tap_done();
}
