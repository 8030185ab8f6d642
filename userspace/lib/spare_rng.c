// SPDX-License-Identifier: GPL-2.0
/* xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift
 * generators, scrambled"): shifts 12, 25, 27 and the multiplier
 * 0x2545f4914f6cdd1d. */
#include "spare_rng.h"

uint64_t spare_rng_next(struct spare_rng *rng)
{
	uint64_t x = rng->s ? rng->s : 0x9e3779b97f4a7c15ULL;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng->s = x;
	return x * 0x2545f4914f6cdd1dULL;
}

uint64_t spare_rng_below(struct spare_rng *rng, uint64_t bound)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % bound, x;

	do
		x = spare_rng_next(rng);
	while (x >= limit);
	return x % bound;
}
