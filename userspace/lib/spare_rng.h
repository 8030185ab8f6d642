/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One small pseudo-random generator for the pure policies (slab placement,
 * the broker, batch eviction, the simulators): xorshift64*, seeded by the
 * caller, so that a run is reproduced from its seed. Not for secrets
 * (spare_random_bytes() in spare_util.h is).
 */
#ifndef SPARE_RNG_H
#define SPARE_RNG_H

#include <stdint.h>

/* xorshift64* state; any seed (0 is replaced by a fixed nonzero one). */
struct spare_rng {
	uint64_t s;
};

/* The next 64 random bits. */
uint64_t spare_rng_next(struct spare_rng *rng);
/* Uniform in [0, bound), bound > 0, without modulo bias. */
uint64_t spare_rng_below(struct spare_rng *rng, uint64_t bound);

#endif /* SPARE_RNG_H */
