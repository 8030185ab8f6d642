/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The random Dike instances: one generator for spare-sched-bench dike and
 * spare-sim dike --random, so that both check dike_search() against
 * dike_exhaustive() on the same instances.
 */
#ifndef SPARE_SCHED_DIKE_RANDOM_H
#define SPARE_SCHED_DIKE_RANDOM_H

#include <stdint.h>

#include "dike.h"

#define DIKE_RANDOM_HOSTS	4	/* at most, and at least 2 */
#define DIKE_RANDOM_LAYERS	12	/* at most, and at least 2 */
#define DIKE_RANDOM_SEED	5000	/* the harness's first instance */

/*
 * Instance @seed: 2-4 hosts of 1-3 GPUs (2-16 TFLOP/s), 4-32 cores summing
 * 0.5-1.5e9 parameters per second each, NICs of 1.25-12.5 GB/s; 2-12 layers
 * of lognormal size (median 1e6, sigma 1.5); 1e9-1e11 FLOPs per sample, a
 * batch of 32-512, fp32; at most 1-4 partitions. Fills @m (its layers point
 * to @layers), @h, *@nhosts and *@max_parts.
 */
void dike_random(uint64_t seed, struct dike_model *m,
		 struct dike_layer layers[DIKE_RANDOM_LAYERS],
		 struct dike_host h[DIKE_RANDOM_HOSTS], unsigned int *nhosts,
		 unsigned int *max_parts);

#endif /* SPARE_SCHED_DIKE_RANDOM_H */
