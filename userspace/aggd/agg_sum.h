/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Summation kernels of spare-aggd.
 *
 * agg_sum() reduces n_in input vectors of n elements into out with the
 * summation order defined in agg_proto.h: per element, binary32 additions
 * in input (= worker rank) order, fp16/bf16 widened exactly and rounded once
 * to nearest even at the end. Every ISA variant gives the same bits for
 * every non-NaN result; a NaN result is a NaN of unspecified payload.
 *
 * Each variant reads every input and writes the output once, summing a
 * block of 4 to 16 vector registers of binary32 accumulators over all
 * inputs before storing it, and prefetches every input stream ahead, so the
 * loop is bound by memory bandwidth (agg_sum.c, Documentation/perf-aggd.md).
 */
#ifndef SPARE_AGG_SUM_H
#define SPARE_AGG_SUM_H

#include <stddef.h>
#include <stdint.h>

enum agg_isa {
	AGG_ISA_SCALAR	= 0,
	AGG_ISA_AVX2	= 1,
	AGG_ISA_AVX512	= 2,
	AGG_ISA_COUNT,
};

typedef void (*agg_sum_fn)(void *out, const void *const *in,
			   unsigned int n_in, size_t n);

/* Best ISA this CPU runs, or the one named by $AGG_ISA if it runs it. */
enum agg_isa agg_isa_selected(void);
const char *agg_isa_name(enum agg_isa isa);
int agg_isa_supported(enum agg_isa isa);
/* Kernel for (isa, dtype), or NULL if the CPU lacks the ISA. */
agg_sum_fn agg_sum_kernel(enum agg_isa isa, unsigned int dtype);
/* Sum with the selected ISA. n_in >= 1. */
void agg_sum(unsigned int dtype, void *out, const void *const *in,
	     unsigned int n_in, size_t n);

/*
 * Sum on arrival (agg_job.c): carry a rank-order sum on by the next n_in
 * inputs, in order. acc holds n binary32 running sums. first: acc holds
 * nothing yet and the sum starts at in[0]. out NULL: the running sums go
 * back to acc. out non-NULL: these are the last inputs; the sums are
 * rounded once to dtype into out (acc is then left undefined). fp32 sums
 * are always in acc and out only says whether these are the last inputs. Every split of the inputs into successive calls gives the
 * bits agg_sum() gives for all of them at once. isa must be supported.
 */
void agg_fold(enum agg_isa isa, unsigned int dtype, float *acc, void *out,
	      const void *const *in, unsigned int n_in, int first, size_t n);

/* Scalar conversions (round to nearest even), exported for tests. */
float agg_f16_to_f32(uint16_t h);
uint16_t agg_f32_to_f16(float f);
float agg_bf16_to_f32(uint16_t h);
uint16_t agg_f32_to_bf16(float f);

/* The server optimizer step of agg_proto.h over n fp32 elements. */
void agg_sgd_momentum(float *w, float *v, const float *sum, size_t n,
		      unsigned int n_workers, float lr, float momentum);

#endif /* SPARE_AGG_SUM_H */
