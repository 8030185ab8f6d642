// SPDX-License-Identifier: GPL-2.0
/*
 * The cost of spared's slab pool per loop turn and per MAP, built once
 * against the pool before session 46 (-DOLD_POOL: ready_bytes set by
 * hand, as spared_ready_step() did) and once against the current one.
 * See README.md; run.sh builds both and runs them in turns.
 *
 *   bench NSLABS ROUNDS
 *
 * Prints "idle NSLABS ns_per_call" (slab_pool_next_unready() with
 * map-ready met: what the loop asks on every turn) and "map NSLABS
 * ns_per_pair" (a slab_pool_take() and slab_pool_put()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pool.h"

#define MiB (1ULL << 20)

static char fake_mem;
static int owner;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void make_ready(struct slab_pool *p, struct slab *s)
{
	s->mem = &fake_mem;
#ifdef OLD_POOL
	s->ready_bytes = p->slab_size;
#else
	slab_pool_set_ready(p, s, p->slab_size);
#endif
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? (unsigned int)atoi(argv[1]) : 4096;
	unsigned long rounds = argc > 2 ? strtoul(argv[2], NULL, 0) : 100000;
	volatile unsigned long found = 0;
	struct slab_pool p;
	unsigned long r;
	unsigned int i;
	double t0, t1;

	if (n < 8 || slab_pool_init(&p, (uint64_t)n * 16 * MiB, 16 * MiB))
		return 1;
	/* half lent; of the free half, all mapped (lent before), 2 ready */
	for (i = 0; i < n; i++) {
		struct slab *s = slab_pool_take(&p, &owner, i);

		s->mem = &fake_mem;
	}
	for (i = 0; i < n / 2; i++)
		slab_pool_put(&p, &p.slabs[i], SLAB_RELEASE_UNMAP);
	make_ready(&p, &p.slabs[0]);
	make_ready(&p, &p.slabs[1]);

	t0 = now_ns();
	for (r = 0; r < rounds; r++)
		found += slab_pool_next_unready(&p, 2) != NULL;
	t1 = now_ns();
	if (found)
		return 2;	/* map-ready is met: nothing to populate */
	printf("idle %u %.1f\n", n, (t1 - t0) / (double)rounds);

	t0 = now_ns();
	for (r = 0; r < rounds; r++) {
		struct slab *s = slab_pool_take(&p, &owner, n + 1);

		slab_pool_put(&p, s, SLAB_RELEASE_UNMAP);
	}
	t1 = now_ns();
	printf("map %u %.1f\n", n, (t1 - t0) / (double)rounds);
	slab_pool_destroy(&p);
	return 0;
}
