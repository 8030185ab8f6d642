// SPDX-License-Identifier: GPL-2.0
/* The random Dike instances (dike_random.h). */
#include <math.h>

#include "bench.h"
#include "dike_random.h"

void dike_random(uint64_t seed, struct dike_model *m,
		 struct dike_layer layers[DIKE_RANDOM_LAYERS],
		 struct dike_host h[DIKE_RANDOM_HOSTS], unsigned int *nhosts,
		 unsigned int *max_parts)
{
	struct bench_rng r = { .s = seed };

	*nhosts = 2 + bench_u64(&r) % 3;
	*max_parts = 1 + bench_u64(&r) % 4;
	for (unsigned int k = 0; k < *nhosts; k++) {
		h[k].gpus = 1 + bench_u64(&r) % 3;
		h[k].gpu_flops = 2e12 + 14e12 * bench_unif(&r);
		h[k].cores = 4 + bench_u64(&r) % 29;
		h[k].sum_rate = 0.5e9 + 1e9 * bench_unif(&r);
		h[k].nic_bps = 1.25e9 * pow(10, bench_unif(&r));
	}
	m->nlayers = 2 + bench_u64(&r) % 11;
	for (unsigned int i = 0; i < m->nlayers; i++) {
		layers[i].params = bench_lognormal(&r, 1e6, 1.5);
		layers[i].type = DIKE_OTHER;
	}
	m->layers = layers;
	m->flops_per_sample = 1e9 * pow(100, bench_unif(&r));
	m->batch = 32 << (bench_u64(&r) % 5);
	m->bytes_per_param = 4;
}
