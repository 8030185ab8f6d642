// SPDX-License-Identifier: GPL-2.0
/*
 * spare-sched-bench SUBCOMMAND --out DIR [options]
 *
 * Harnesses for the part-B policies of libspare-sched. Each writes raw CSV
 * and a summary JSON under DIR and prints the summary on stdout. The clock
 * is read here, never inside the library.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

static void usage(void)
{
	fprintf(stderr,
		"usage: spare-sched-bench mip-decide|mip-sim|dike|flowcon|specon --out DIR [--seeds N]\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage();
		return 2;
	}
	if (!strcmp(argv[1], "mip-decide") || !strcmp(argv[1], "mip-sim"))
		return bench_mip(argc, argv);
	if (!strcmp(argv[1], "dike"))
		return bench_dike(argc, argv);
	if (!strcmp(argv[1], "flowcon"))
		return bench_flowcon(argc, argv);
	if (!strcmp(argv[1], "specon"))
		return bench_specon(argc, argv);
	usage();
	return 2;
}
