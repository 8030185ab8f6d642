/* SPDX-License-Identifier: GPL-2.0 */
/* spare-sched-bench: shared helpers of the part-B harnesses (bench.c) and
 * the harnesses bench_main.c runs. */
#ifndef SPARE_SCHED_BENCH_H
#define SPARE_SCHED_BENCH_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

struct bench_rng {
	uint64_t s;
};

static inline uint64_t bench_u64(struct bench_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);	/* splitmix64 */

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static inline double bench_unif(struct bench_rng *r)
{
	return (double)(bench_u64(r) >> 11) / 9007199254740992.0;
}

static inline double bench_exp(struct bench_rng *r, double mean)
{
	return -mean * log1p(-bench_unif(r));
}

static inline double bench_lognormal(struct bench_rng *r, double median,
				     double sigma)
{
	double u1 = bench_unif(r), u2 = bench_unif(r);
	double z = sqrt(-2 * log1p(-u1)) * cos(2 * M_PI * u2);

	return median * exp(sigma * z);
}

double bench_now(void);
int bench_cmp_double(const void *a, const void *b);
/* Quantile q in [0, 1] of sorted v[n] (nearest rank). */
double bench_quantile(const double *sorted, size_t n, double q);
/* fopen DIR/NAME for writing; prints the error and returns NULL. */
FILE *bench_open(const char *dir, const char *name);

int bench_mip(int argc, char **argv);
int bench_dike(int argc, char **argv);
int bench_flowcon(int argc, char **argv);
int bench_specon(int argc, char **argv);

#endif
