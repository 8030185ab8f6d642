// SPDX-License-Identifier: GPL-2.0
/* spare-sched-bench: the helpers its harnesses share (bench.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench.h"

double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double bench_quantile(const double *sorted, size_t n, double q)
{
	size_t k;

	if (n == 0)
		return NAN;
	k = (size_t)ceil(q * n);
	if (k == 0)
		k = 1;
	return sorted[k - 1];
}

FILE *bench_open(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path)) {
		fprintf(stderr, "spare-sched-bench: %s/%s: path too long\n", dir, name);
		return NULL;
	}
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "spare-sched-bench: %s: %s\n", path, strerror(errno));
	return f;
}
