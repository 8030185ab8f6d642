// SPDX-License-Identifier: GPL-2.0
/*
 * spare-ecbench: the cost of erasure coding one 4 KiB page on this host
 * (issue 34), against its memory bandwidth measured in the same run.
 *
 * For 2+1, 4+2 and 8+2 it times, over a ring of pages, the codec exactly
 * as spare-ublk builds it (kmod/core/spare_ec_code.c over ISA-L):
 *   encode      spare_ec_encode(): the R parity splits of a page
 *   decode1     spare_ec_recover() of data split 0 (P present: XOR)
 *   decode1q    data split 0 and P lost (R = 2: from Q, ISA-L decode)
 *   decode2     data splits 0 and 1 lost (R = 2: ISA-L decode)
 * and a STREAM-style copy loop (b[i] = a[i] over two arrays of 64 MiB of
 * doubles, bytes counted read + written as STREAM does). Each figure is the
 * median of --trials runs; GB/s is page bytes (4096) per second of codec
 * time, so that it compares with the copy bandwidth.
 *
 *   spare-ecbench [--trials N] [--pages N] [--iters N]
 *
 * Prints a TSV: what, geometry, ns per page, GB/s.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "spare_ec.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return v[n / 2];
}

static void *xalloc(size_t bytes)
{
	void *p = aligned_alloc(64, bytes);

	if (!p) {
		fprintf(stderr, "spare-ecbench: out of memory (%zu bytes)\n", bytes);
		exit(1);
	}
	memset(p, 0x5a, bytes);
	return p;
}

/* STREAM copy: GB/s of bytes read plus written, median of @trials. */
static double stream_copy(int trials)
{
	const size_t n = (64u << 20) / sizeof(double);
	double *a = xalloc(n * sizeof(double)), *b = xalloc(n * sizeof(double));
	double t[64], sink = 0;
	size_t i;
	int k;

	for (i = 0; i < n; i++)
		a[i] = (double)i;
	for (k = 0; k < trials; k++) {
		double t0 = now_s();

		for (i = 0; i < n; i++)
			b[i] = a[i];
		__asm__ __volatile__("" : : "r"(b) : "memory");
		t[k] = now_s() - t0;
		sink += b[k];
	}
	free(a);
	free(b);
	if (sink < 0)
		puts("");
	return 2.0 * n * sizeof(double) / median(t, trials) / 1e9;
}

enum op { ENCODE, DECODE1, DECODE1Q, DECODE2 };
static const char *const op_name[] = { "encode", "decode1", "decode1q", "decode2" };

/* ns per page of @op over a ring of @pages pages, median of @trials. */
static double time_op(const struct spare_ec_geom *g, enum op op, int pages,
		      int iters, int trials)
{
	u32 len = spare_ec_split_bytes(g), n = spare_ec_splits(g), i;
	u8 *data = xalloc((size_t)pages * SPARE_EC_PAGE);
	u8 *par = xalloc((size_t)pages * SPARE_EC_MAX_R * SPARE_EC_PAGE);
	void **splits = calloc((size_t)pages * n, sizeof(void *));
	unsigned long missing = op == DECODE1 ? 1UL : op == DECODE1Q ?
		(1UL | 1UL << g->k) : 3UL;
	double t[64];
	int p, k, it;

	if (!splits)
		exit(1);
	for (p = 0; p < pages; p++) {
		void *parity[SPARE_EC_MAX_R];

		for (i = 0; i < SPARE_EC_PAGE; i++)
			data[(size_t)p * SPARE_EC_PAGE + i] = (u8)(i * 7 + p);
		for (i = 0; i < g->r; i++)
			parity[i] = par + ((size_t)p * SPARE_EC_MAX_R + i) * SPARE_EC_PAGE;
		spare_ec_encode(g, data + (size_t)p * SPARE_EC_PAGE, parity);
		for (i = 0; i < g->k; i++)
			splits[(size_t)p * n + i] = data + (size_t)p * SPARE_EC_PAGE + i * len;
		for (i = 0; i < g->r; i++)
			splits[(size_t)p * n + g->k + i] = parity[i];
	}
	for (k = 0; k < trials; k++) {
		double t0 = now_s();

		for (it = 0; it < iters; it++)
			for (p = 0; p < pages; p++) {
				void **s = splits + (size_t)p * n;

				if (op == ENCODE)
					spare_ec_encode(g, s[0], s + g->k);
				else if (spare_ec_recover(g, s, missing))
					exit(1);
			}
		t[k] = (now_s() - t0) * 1e9 / ((double)iters * pages);
	}
	free(splits);
	free(par);
	free(data);
	return median(t, trials);
}

int main(int argc, char **argv)
{
	static const struct spare_ec_geom geoms[] = { { 2, 1 }, { 4, 2 }, { 8, 2 } };
	int trials = 7, pages = 256, iters = 200, a;
	unsigned int gi;
	enum op op;

	for (a = 1; a + 1 < argc + 1; a++) {
		if (a + 1 < argc && !strcmp(argv[a], "--trials"))
			trials = atoi(argv[++a]);
		else if (a + 1 < argc && !strcmp(argv[a], "--pages"))
			pages = atoi(argv[++a]);
		else if (a + 1 < argc && !strcmp(argv[a], "--iters"))
			iters = atoi(argv[++a]);
		else {
			fprintf(stderr, "usage: spare-ecbench [--trials N] [--pages N] [--iters N]\n");
			return 2;
		}
	}
	if (trials < 1 || trials > 64 || pages < 1 || iters < 1) {
		fprintf(stderr, "spare-ecbench: --trials 1..64, --pages and --iters at least 1\n");
		return 2;
	}
	printf("what\tgeometry\tns_per_page\tGB_per_s\n");
	printf("stream_copy\t-\t-\t%.2f\n", stream_copy(trials));
	for (gi = 0; gi < sizeof(geoms) / sizeof(geoms[0]); gi++)
		for (op = ENCODE; op <= DECODE2; op++) {
			double ns;

			if (geoms[gi].r < 2 && (op == DECODE1Q || op == DECODE2))
				continue;
			ns = time_op(&geoms[gi], op, pages, iters, trials);
			printf("%s\tec:%u+%u\t%.1f\t%.2f\n", op_name[op], geoms[gi].k,
			       geoms[gi].r, ns, SPARE_EC_PAGE / ns);
		}
	return 0;
}
