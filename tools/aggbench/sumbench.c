// SPDX-License-Identifier: GPL-2.0
/*
 * aggbench-sum: single-core throughput of the spare-aggd summation kernels
 * against a STREAM-style add (c[i] = a[i] + b[i], plain C) in the same run.
 *
 *   aggbench-sum [-n ELEMS] [-r REPEATS] [-c CPU] [-d DTYPE] [-i ISA]
 *
 * -d fp32|fp16|bf16 and -i scalar|avx2|avx512 run only that dtype or ISA.
 * Each of REPEATS rounds times both STREAM adds (plain C, and AVX-512
 * intrinsics) and then the kernel, back to back; reported are the medians
 * of the kernel's GB/s and of its ratio to the faster add of its round.
 * Bytes are counted as STREAM does: every array read or written once, no
 * write-allocate traffic. The kernels' bytes are (inputs + 1) x elements x
 * element size. Output: one line per case, "case dtype isa inputs GB/s
 * ratio-to-stream-add", easy to feed to gnuplot.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <immintrin.h>
#include <unistd.h>

#include "agg_proto.h"
#include "agg_sum.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* STREAM "Add", kept out of line so it is compiled as plain C. */
__attribute__((noinline)) static void stream_add(float *restrict c,
						 const float *restrict a,
						 const float *restrict b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		c[i] = a[i] + b[i];
}

/* The same add hand-vectorised for AVX-512, to compare with the best add. */
__attribute__((noinline, target("avx512f")))
static void stream_add_avx512(float *restrict c, const float *restrict a,
			      const float *restrict b, size_t n)
{
	size_t i = 0;

	for (; i + 64 <= n; i += 64) {
		__m512 x0 = _mm512_add_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i));
		__m512 x1 = _mm512_add_ps(_mm512_loadu_ps(a + i + 16),
					  _mm512_loadu_ps(b + i + 16));
		__m512 x2 = _mm512_add_ps(_mm512_loadu_ps(a + i + 32),
					  _mm512_loadu_ps(b + i + 32));
		__m512 x3 = _mm512_add_ps(_mm512_loadu_ps(a + i + 48),
					  _mm512_loadu_ps(b + i + 48));

		_mm512_storeu_ps(c + i, x0);
		_mm512_storeu_ps(c + i + 16, x1);
		_mm512_storeu_ps(c + i + 32, x2);
		_mm512_storeu_ps(c + i + 48, x3);
	}
	for (; i < n; i++)
		c[i] = a[i] + b[i];
}

static double time_add(void (*add)(float *restrict, const float *restrict,
				   const float *restrict, size_t),
		       void *const *in, void *out, size_t n, int repeats)
{
	double best = 1e30;

	for (int r = 0; r < repeats; r++) {
		double t = now();

		add(out, in[0], in[1], n);
		t = now() - t;
		if (t < best)
			best = t;
	}
	return 3.0 * 4.0 * (double)n / best / 1e9;
}

/* STREAM copy (c[i] = a[i]): one memory pass, the yardstick of sum on
 * arrival's CPU time per byte (Documentation/perf-aggd.md section 5). */
__attribute__((noinline)) static void stream_copy(float *restrict c,
						  const float *restrict a,
						  size_t n)
{
	for (size_t i = 0; i < n; i++)
		c[i] = a[i];
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void *big(size_t bytes)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, bytes)) {
		fprintf(stderr, "aggbench-sum: out of memory\n");
		exit(1);
	}
	memset(p, 0, bytes);	/* fault every page in before timing */
	return p;
}

int main(int argc, char **argv)
{
	size_t n = 32u << 20;	/* 128 MiB per fp32 array: far beyond any LLC */
	int repeats = 10, cpu = 0, copy_only = 0, opt;
	const char *only_dtype = NULL, *only_isa = NULL;
	static const unsigned int dtypes[] = {
		AGG_DTYPE_F32, AGG_DTYPE_F16, AGG_DTYPE_BF16,
	};
	static const unsigned int inputs[] = { 2, 4, 8 };
	void *in[8], *out;
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "n:r:c:d:i:C")) != -1) {
		switch (opt) {
		case 'n': n = strtoull(optarg, NULL, 0); break;
		case 'r': repeats = atoi(optarg); break;
		case 'c': cpu = atoi(optarg); break;
		case 'd': only_dtype = optarg; break;
		case 'i': only_isa = optarg; break;
		case 'C': copy_only = 1; break;
		default:
			fprintf(stderr, "usage: aggbench-sum [-n ELEMS] [-r REPEATS] [-c CPU] "
				"[-d fp32|fp16|bf16] [-i scalar|avx2|avx512] [-C]\n");
			return 2;
		}
	}
	if (n < 1024 || repeats < 1) {
		fprintf(stderr, "aggbench-sum: -n >= 1024, -r >= 1\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("aggbench-sum: sched_setaffinity (running unpinned)");

	for (int i = 0; i < 8; i++)
		in[i] = big(n * 4);
	out = big(n * 4);
	for (int i = 0; i < 8; i++)
		for (size_t j = 0; j < n; j++)
			((float *)in[i])[j] = (float)(j % 1000) * 0.25f + (float)i;

	if (copy_only) {
		/* -C: STREAM copy only; bytes copied (read once, written
		 * once) per ns, median of the rounds */
		double t[64], ns[64];
		int reps = repeats > 64 ? 64 : repeats;

		for (int r = 0; r < reps; r++) {
			t[r] = now();
			stream_copy(out, in[0], n);
			t[r] = now() - t[r];
			ns[r] = t[r] * 1e9 / (4.0 * (double)n);
		}
		printf("# stream-copy elements %zu rounds %d: ns per byte copied (median)\n",
		       n, reps);
		printf("stream-copy fp32 %.4f ns/B %.2f GB/s\n", median(ns, reps),
		       1.0 / median(ns, reps));
		return 0;
	}
	printf("# elements %zu, %d rounds, cpu %d, selected isa %s\n", n, repeats,
	       cpu, agg_isa_name(agg_isa_selected()));
	printf("# Each round runs both STREAM adds and then the kernel back to back;\n"
	       "# the ratio is kernel GB/s over the faster add of the same round, and\n"
	       "# the columns are medians over the rounds (robust to a busy machine).\n");
	printf("# case dtype isa inputs GB/s ratio-to-stream-add\n");
	{
		double plain[64], vec[64];
		int reps = repeats > 64 ? 64 : repeats;

		for (int r = 0; r < reps; r++) {
			plain[r] = time_add(stream_add, in, out, n, 1);
			vec[r] = agg_isa_supported(AGG_ISA_AVX512) ?
				 time_add(stream_add_avx512, in, out, n, 1) : 0;
		}
		printf("stream-add fp32 plain-c 2 %.2f -\n", median(plain, reps));
		if (vec[0])
			printf("stream-add fp32 avx512 2 %.2f -\n", median(vec, reps));
	}

	for (size_t d = 0; d < sizeof(dtypes) / sizeof(*dtypes); d++) {
		size_t esz = agg_dtype_size(dtypes[d]);

		if (only_dtype && strcmp(only_dtype, agg_dtype_name(dtypes[d])))
			continue;
		for (int isa = 0; isa < AGG_ISA_COUNT; isa++) {
			agg_sum_fn fn = agg_sum_kernel((enum agg_isa)isa, dtypes[d]);

			if (!fn || (only_isa &&
				    strcmp(only_isa, agg_isa_name((enum agg_isa)isa))))
				continue;
			for (size_t k = 0; k < sizeof(inputs) / sizeof(*inputs); k++) {
				unsigned int w = inputs[k];
				double gbs[64], ratio[64];
				/* the scalar half-precision paths are slow: 3 rounds */
				int reps = isa == AGG_ISA_SCALAR ? 3 :
					   (repeats > 64 ? 64 : repeats);

				/* half-size dtypes: valid half values in every input */
				if (esz == 2)
					for (unsigned int i = 0; i < w; i++)
						for (size_t j = 0; j < n; j++)
							((uint16_t *)in[i])[j] =
								dtypes[d] == AGG_DTYPE_F16 ?
								agg_f32_to_f16((float)(j % 100)) :
								agg_f32_to_bf16((float)(j % 100));
				for (int r = 0; r < reps; r++) {
					double add = time_add(stream_add, in, out, n, 1), t;

					if (agg_isa_supported(AGG_ISA_AVX512)) {
						double v = time_add(stream_add_avx512, in, out, n, 1);

						if (v > add)
							add = v;
					}
					t = now();
					fn(out, (const void *const *)in, w, n);
					t = now() - t;
					gbs[r] = (double)(w + 1) * (double)esz * (double)n / t / 1e9;
					ratio[r] = gbs[r] / add;
				}
				printf("agg-sum %s %s %u %.2f %.3f\n",
				       agg_dtype_name(dtypes[d]),
				       agg_isa_name((enum agg_isa)isa), w,
				       median(gbs, reps), median(ratio, reps));
				fflush(stdout);
			}
		}
		/* the adds below read fp32 again */
		for (int i = 0; i < 2; i++)
			for (size_t j = 0; j < n; j++)
				((float *)in[i])[j] = (float)(j % 1000) * 0.25f + (float)i;
	}
	return 0;
}
