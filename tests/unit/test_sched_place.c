// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the slab placement (userspace/sched/place.c).
 */
#include <errno.h>
#include <stdint.h>

#include "place.h"
#include "tap.h"

/* Copies are on distinct donors in distinct domains, never on a full donor. */
static void distinct_donors_and_domains(void)
{
	struct place_donor d[12];
	struct spare_rng rng = { 42 };
	uint32_t out[3];

	for (int i = 0; i < 12; i++) {
		d[i].free_slabs = (uint64_t)(i % 4) * 10;	/* every 4th is full */
		d[i].domain = (uint32_t)(i / 3);		/* 4 domains of 3 */
	}
	for (int round = 0; round < 2000; round++) {
		EXPECT_EQ(place_slab(d, 12, 3, &rng, out), 0);
		for (int a = 0; a < 3; a++) {
			EXPECT(d[out[a]].free_slabs > 0);
			for (int b = a + 1; b < 3; b++) {
				EXPECT(out[a] != out[b]);
				EXPECT(d[out[a]].domain != d[out[b]].domain);
			}
		}
	}
}

/* Fewer usable domains than copies: -ENOSPC; bad arguments: -EINVAL. */
static void not_enough_domains(void)
{
	struct place_donor d[4] = {
		{ 5, 0 }, { 7, 0 }, { 0, 1 }, { 3, 2 },
	};
	struct spare_rng rng = { 7 };
	uint32_t out[PLACE_MAX_COPIES + 1];

	EXPECT_EQ(place_slab(d, 4, 2, &rng, out), 0);
	EXPECT_EQ(place_slab(d, 4, 3, &rng, out), -ENOSPC);	/* domain 1 is full */
	EXPECT_EQ(place_slab(d, 4, 0, &rng, out), -EINVAL);
	EXPECT_EQ(place_slab(d, 4, PLACE_MAX_COPIES + 1, &rng, out), -EINVAL);
	EXPECT_EQ(place_slab(NULL, 4, 1, &rng, out), -EINVAL);
	EXPECT_EQ(place_slab(d, 0, 1, &rng, out), -ENOSPC);
}

/*
 * Weighted two choices: a donor with 9x the free slabs of each of the
 * others wins far more than its 1/10 share; a donor with 1 free slab of
 * 1,000 is picked rarely (it must be drawn twice).
 */
static void prefers_free_donors(void)
{
	struct place_donor d[10];
	struct spare_rng rng = { 12345 };
	uint32_t out[1];
	int big = 0, tiny = 0, rounds = 20000;

	for (int i = 0; i < 10; i++)
		d[i] = (struct place_donor){ .free_slabs = 100, .domain = (uint32_t)i };
	d[0].free_slabs = 900;
	d[9].free_slabs = 1;
	for (int r = 0; r < rounds; r++) {
		EXPECT_EQ(place_slab(d, 10, 1, &rng, out), 0);
		big += out[0] == 0;
		tiny += out[0] == 9;
	}
	/* P(donor 0) = 1 - (1 - 900/1701)^2 ~ 0.78; P(donor 9) ~ 3.5e-7. */
	EXPECT(big > rounds * 70 / 100 && big < rounds * 86 / 100);
	EXPECT(tiny < 5);
}

/* The same seed gives the same placements. */
static void deterministic(void)
{
	struct place_donor d[16];
	struct spare_rng r1 = { 99 }, r2 = { 99 };
	uint32_t a[2], b[2];

	for (int i = 0; i < 16; i++)
		d[i] = (struct place_donor){ .free_slabs = (uint64_t)(i * 7 % 5 + 1),
					     .domain = (uint32_t)(i % 5) };
	for (int r = 0; r < 500; r++) {
		EXPECT_EQ(place_slab(d, 16, 2, &r1, a), 0);
		EXPECT_EQ(place_slab(d, 16, 2, &r2, b), 0);
		EXPECT(a[0] == b[0] && a[1] == b[1]);
	}
}

int main(void)
{
	TAP_RUN(distinct_donors_and_domains);
	TAP_RUN(not_enough_domains);
	TAP_RUN(prefers_free_donors);
	TAP_RUN(deterministic);
	return tap_done();
}
