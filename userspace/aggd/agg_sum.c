// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd summation kernels: scalar, AVX2 (+F16C) and AVX-512F variants
 * of fp32/fp16/bf16 n-way sums, chosen at run time with
 * __builtin_cpu_supports(). See agg_sum.h for the summation order.
 *
 * The bf16 rounding is done with integer arithmetic in every variant:
 * VCVTNEPS2BF16 treats denormals as zero, which would break bit equality
 * with the scalar reference.
 */
#include "agg_sum.h"
#include "agg_proto.h"
#include "agg_bits.h"

#include <immintrin.h>
#include <stdlib.h>
#include <string.h>

float agg_f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16;
	uint32_t exp = (h >> 10) & 0x1f;
	uint32_t mant = h & 0x3ff;

	if (exp == 0) {
		/* zero or subnormal: mant * 2^-24, exact in binary32 */
		float f = (float)mant * 0x1p-24f;

		return sign ? -f : f;
	}
	if (exp == 31)
		return bits_f32(sign | 0x7f800000 | mant << 13 |
				(mant ? 0x400000 : 0));
	return bits_f32(sign | (exp + 112) << 23 | mant << 13);
}

uint16_t agg_f32_to_f16(float f)
{
	uint32_t x = f32_bits(f);
	uint16_t sign = (x >> 16) & 0x8000;
	uint32_t e, m, q, rem, half;
	int shift;

	x &= 0x7fffffff;
	if (x >= 0x7f800000) {			/* inf or NaN */
		if (x == 0x7f800000)
			return sign | 0x7c00;
		return sign | 0x7e00 | ((x >> 13) & 0x3ff);
	}
	if (x >= 0x477ff000)			/* >= 65520 rounds to inf */
		return sign | 0x7c00;
	e = x >> 23;
	if (e >= 113) {				/* normal half */
		uint32_t h = ((e - 112) << 10) | ((x & 0x7fffff) >> 13);

		rem = x & 0x1fff;
		if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
			h++;
		return sign | (uint16_t)h;
	}
	if (e < 102)				/* < 2^-25: rounds to zero */
		return sign;
	/* subnormal half: units of 2^-24 */
	m = (x & 0x7fffff) | 0x800000;
	shift = 126 - (int)e;
	q = m >> shift;
	rem = m & ((1U << shift) - 1);
	half = 1U << (shift - 1);
	if (rem > half || (rem == half && (q & 1)))
		q++;
	return sign | (uint16_t)q;
}

float agg_bf16_to_f32(uint16_t h)
{
	return bits_f32((uint32_t)h << 16);
}

uint16_t agg_f32_to_bf16(float f)
{
	uint32_t x = f32_bits(f);

	if ((x & 0x7fffffff) > 0x7f800000)
		return (uint16_t)((x >> 16) | 0x0040);
	x += 0x7fff + ((x >> 16) & 1);
	return (uint16_t)(x >> 16);
}

/* ---- scalar ---- */

static void sum_f32_scalar(void *out, const void *const *in,
			   unsigned int n_in, size_t n)
{
	float *o = out;

	for (size_t i = 0; i < n; i++) {
		float acc = ((const float *)in[0])[i];

		for (unsigned int r = 1; r < n_in; r++)
			acc += ((const float *)in[r])[i];
		o[i] = acc;
	}
}

static void sum_f16_tail(uint16_t *o, const void *const *in,
			 unsigned int n_in, size_t from, size_t n)
{
	for (size_t i = from; i < n; i++) {
		float acc = agg_f16_to_f32(((const uint16_t *)in[0])[i]);

		for (unsigned int r = 1; r < n_in; r++)
			acc += agg_f16_to_f32(((const uint16_t *)in[r])[i]);
		o[i] = agg_f32_to_f16(acc);
	}
}

static void sum_bf16_tail(uint16_t *o, const void *const *in,
			  unsigned int n_in, size_t from, size_t n)
{
	for (size_t i = from; i < n; i++) {
		float acc = agg_bf16_to_f32(((const uint16_t *)in[0])[i]);

		for (unsigned int r = 1; r < n_in; r++)
			acc += agg_bf16_to_f32(((const uint16_t *)in[r])[i]);
		o[i] = agg_f32_to_bf16(acc);
	}
}

static void sum_f32_tail(float *o, const void *const *in,
			 unsigned int n_in, size_t from, size_t n)
{
	for (size_t i = from; i < n; i++) {
		float acc = ((const float *)in[0])[i];

		for (unsigned int r = 1; r < n_in; r++)
			acc += ((const float *)in[r])[i];
		o[i] = acc;
	}
}

static void sum_f16_scalar(void *out, const void *const *in,
			   unsigned int n_in, size_t n)
{
	sum_f16_tail(out, in, n_in, 0, n);
}

static void sum_bf16_scalar(void *out, const void *const *in,
			    unsigned int n_in, size_t n)
{
	sum_bf16_tail(out, in, n_in, 0, n);
}

/*
 * Vector kernels. Every variant walks the output once: for a block of
 * elements it loads rank 0's values, adds every other rank's values in
 * rank order into binary32 registers, and stores the block once, so
 * nothing but the inputs and the output crosses the memory bus. A block is
 * 8 to 16 vector registers of accumulators (below); a one-register loop and
 * the scalar tail finish the rest.
 *
 * Software prefetch: each input stream is prefetched AGG_PREFETCH bytes
 * ahead. Without it the half-precision kernels missed STREAM add from DRAM
 * with 4-8 inputs: widening costs extra instructions per cache line, so
 * the out-of-order window held fewer outstanding misses than the fp32 and
 * copy loops (which reached the add). Prefetches never fault, so running
 * past the end of a buffer is harmless.
 *
 * bf16 is widened without shuffles: a vector of 2k bf16 is read as k 32-bit
 * lanes; "lane << 16" is the even element, "lane & 0xffff0000" the odd one.
 * The sums of even and odd elements live in separate registers and are
 * rounded and merged back into the same lanes at the store. The order of
 * additions of each element is unchanged (rank order), only the placement
 * of elements in registers differs.
 */
#define AGG_PREFETCH	1024
#define PREFETCH(p)	_mm_prefetch((const char *)(p) + AGG_PREFETCH, _MM_HINT_T0)
#define INLINE		static inline __attribute__((always_inline))

/*
 * Block widths, measured from DRAM (Documentation/perf-aggd.md): wider
 * blocks keep more misses in flight per instruction, which pays with 4 or
 * more inputs; with fewer the rounding and store of the block dominate and
 * the wider bf16 blocks spill registers there, so they use the narrower one.
 * The helpers below are instantiated with constant widths; their loops are
 * fully unrolled and the accumulator arrays live in registers.
 */
#define WIDE_FROM_INPUTS	4

/* Prefetch the lines of bytes [p, p + bytes) AGG_PREFETCH ahead. */
INLINE void prefetch_block(const void *p, size_t bytes)
{
#pragma GCC unroll 8
	for (size_t b = 0; b < bytes; b += 64)
		PREFETCH((const char *)p + b);
}

/* ---- AVX2 (+F16C) ---- */

#define AVX2 __attribute__((target("avx2,f16c")))

AVX2 static void sum_f32_avx2(void *out, const void *const *in,
			      unsigned int n_in, size_t n)
{
	float *o = out;
	size_t i = 0;

	for (; i + 32 <= n; i += 32) {
		const float *p = (const float *)in[0] + i;
		__m256 a0 = _mm256_loadu_ps(p), a1 = _mm256_loadu_ps(p + 8);
		__m256 a2 = _mm256_loadu_ps(p + 16), a3 = _mm256_loadu_ps(p + 24);

		for (unsigned int r = 1; r < n_in; r++) {
			p = (const float *)in[r] + i;
			a0 = _mm256_add_ps(a0, _mm256_loadu_ps(p));
			a1 = _mm256_add_ps(a1, _mm256_loadu_ps(p + 8));
			a2 = _mm256_add_ps(a2, _mm256_loadu_ps(p + 16));
			a3 = _mm256_add_ps(a3, _mm256_loadu_ps(p + 24));
		}
		_mm256_storeu_ps(o + i, a0);
		_mm256_storeu_ps(o + i + 8, a1);
		_mm256_storeu_ps(o + i + 16, a2);
		_mm256_storeu_ps(o + i + 24, a3);
	}
	sum_f32_tail(o, in, n_in, i, n);
}

AVX2 static __m256 ld_f16x8(const uint16_t *p)
{
	return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p));
}

AVX2 static void st_f16x8(uint16_t *p, __m256 v)
{
	_mm_storeu_si128((__m128i *)p,
			 _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
}

/* Sums blocks of 8 * nv elements from i = 0; returns where it stopped. */
AVX2 INLINE size_t f16_avx2_blocks(uint16_t *o, const void *const *in,
				  unsigned int n_in, size_t n, const int nv)
{
	const size_t step = 8 * (size_t)nv;
	size_t i = 0;

	for (; i + step <= n; i += step) {
		const uint16_t *p = (const uint16_t *)in[0] + i;
		__m256 a[16];

		prefetch_block(p, step * 2);
#pragma GCC unroll 16
		for (int j = 0; j < nv; j++)
			a[j] = ld_f16x8(p + 8 * j);
		for (unsigned int r = 1; r < n_in; r++) {
			p = (const uint16_t *)in[r] + i;
			prefetch_block(p, step * 2);
#pragma GCC unroll 16
			for (int j = 0; j < nv; j++)
				a[j] = _mm256_add_ps(a[j], ld_f16x8(p + 8 * j));
		}
#pragma GCC unroll 16
		for (int j = 0; j < nv; j++)
			st_f16x8(o + i + 8 * j, a[j]);
	}
	return i;
}

AVX2 static void sum_f16_avx2(void *out, const void *const *in,
			      unsigned int n_in, size_t n)
{
	uint16_t *o = out;
	size_t i = f16_avx2_blocks(o, in, n_in, n, 12);

	for (; i + 8 <= n; i += 8) {
		__m256 a = ld_f16x8((const uint16_t *)in[0] + i);

		for (unsigned int r = 1; r < n_in; r++)
			a = _mm256_add_ps(a, ld_f16x8((const uint16_t *)in[r] + i));
		st_f16x8(o + i, a);
	}
	sum_f16_tail(o, in, n_in, i, n);
}

/* Even (<< 16) and odd (& 0xffff0000) bf16 elements of 32-bit lanes. */
AVX2 static __m256 bf16_even8(__m256i x)
{
	return _mm256_castsi256_ps(_mm256_slli_epi32(x, 16));
}

AVX2 static __m256 bf16_odd8(__m256i x)
{
	return _mm256_castsi256_ps(_mm256_and_si256(x,
				   _mm256_set1_epi32((int)0xffff0000)));
}

/* Round 8 binary32 lanes to bf16 in their high halves (nearest even, NaN
 * kept quiet); the low halves are garbage. */
AVX2 static __m256i rnd_bf16x8(__m256 v)
{
	__m256i x = _mm256_castps_si256(v);
	__m256i lsb = _mm256_and_si256(_mm256_srli_epi32(x, 16),
				       _mm256_set1_epi32(1));
	__m256i r = _mm256_add_epi32(x, _mm256_add_epi32(lsb,
					_mm256_set1_epi32(0x7fff)));
	__m256i nan = _mm256_or_si256(x, _mm256_set1_epi32(0x400000));
	__m256 isnan = _mm256_cmp_ps(v, v, _CMP_UNORD_Q);

	return _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(r),
						    _mm256_castsi256_ps(nan),
						    isnan));
}

/* Store 16 bf16: the even elements' sums in ev, the odd ones' in od. */
AVX2 static void st_bf16x16(uint16_t *p, __m256 ev, __m256 od)
{
	__m256i hi = _mm256_and_si256(rnd_bf16x8(od),
				      _mm256_set1_epi32((int)0xffff0000));
	__m256i lo = _mm256_srli_epi32(rnd_bf16x8(ev), 16);

	_mm256_storeu_si256((__m256i *)p, _mm256_or_si256(hi, lo));
}

AVX2 static __m256i ld_256(const uint16_t *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}

/* Sums blocks of 16 * nv elements (nv 256-bit loads per input) from
 * i = 0; returns where it stopped. */
AVX2 INLINE size_t bf16_avx2_blocks(uint16_t *o, const void *const *in,
				   unsigned int n_in, size_t n, const int nv)
{
	const size_t step = 16 * (size_t)nv;
	size_t i = 0;

	for (; i + step <= n; i += step) {
		const uint16_t *p = (const uint16_t *)in[0] + i;
		__m256 ev[8], od[8];

		prefetch_block(p, step * 2);
#pragma GCC unroll 8
		for (int j = 0; j < nv; j++) {
			__m256i x = ld_256(p + 16 * j);

			ev[j] = bf16_even8(x);
			od[j] = bf16_odd8(x);
		}
		for (unsigned int r = 1; r < n_in; r++) {
			p = (const uint16_t *)in[r] + i;
			prefetch_block(p, step * 2);
#pragma GCC unroll 8
			for (int j = 0; j < nv; j++) {
				__m256i x = ld_256(p + 16 * j);

				ev[j] = _mm256_add_ps(ev[j], bf16_even8(x));
				od[j] = _mm256_add_ps(od[j], bf16_odd8(x));
			}
		}
#pragma GCC unroll 8
		for (int j = 0; j < nv; j++)
			st_bf16x16(o + i + 16 * j, ev[j], od[j]);
	}
	return i;
}

AVX2 static void sum_bf16_avx2(void *out, const void *const *in,
			       unsigned int n_in, size_t n)
{
	uint16_t *o = out;
	size_t i = n_in >= WIDE_FROM_INPUTS ? bf16_avx2_blocks(o, in, n_in, n, 6) :
					      bf16_avx2_blocks(o, in, n_in, n, 4);

	for (; i + 16 <= n; i += 16) {
		__m256i x = ld_256((const uint16_t *)in[0] + i);
		__m256 ev = bf16_even8(x), od = bf16_odd8(x);

		for (unsigned int r = 1; r < n_in; r++) {
			x = ld_256((const uint16_t *)in[r] + i);
			ev = _mm256_add_ps(ev, bf16_even8(x));
			od = _mm256_add_ps(od, bf16_odd8(x));
		}
		st_bf16x16(o + i, ev, od);
	}
	sum_bf16_tail(o, in, n_in, i, n);
}

/* ---- AVX-512F ---- */

#define AVX512 __attribute__((target("avx512f")))

AVX512 static void sum_f32_avx512(void *out, const void *const *in,
				  unsigned int n_in, size_t n)
{
	float *o = out;
	size_t i = 0;

	for (; i + 64 <= n; i += 64) {
		const float *p = (const float *)in[0] + i;
		__m512 a0 = _mm512_loadu_ps(p), a1 = _mm512_loadu_ps(p + 16);
		__m512 a2 = _mm512_loadu_ps(p + 32), a3 = _mm512_loadu_ps(p + 48);

		for (unsigned int r = 1; r < n_in; r++) {
			p = (const float *)in[r] + i;
			a0 = _mm512_add_ps(a0, _mm512_loadu_ps(p));
			a1 = _mm512_add_ps(a1, _mm512_loadu_ps(p + 16));
			a2 = _mm512_add_ps(a2, _mm512_loadu_ps(p + 32));
			a3 = _mm512_add_ps(a3, _mm512_loadu_ps(p + 48));
		}
		_mm512_storeu_ps(o + i, a0);
		_mm512_storeu_ps(o + i + 16, a1);
		_mm512_storeu_ps(o + i + 32, a2);
		_mm512_storeu_ps(o + i + 48, a3);
	}
	sum_f32_tail(o, in, n_in, i, n);
}

AVX512 static __m512 ld_f16x16(const uint16_t *p)
{
	return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)p));
}

AVX512 static void st_f16x16(uint16_t *p, __m512 v)
{
	_mm256_storeu_si256((__m256i *)p,
			    _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT |
					       _MM_FROUND_NO_EXC));
}

/* Sums blocks of 16 * nv elements from i = 0; returns where it stopped. */
AVX512 INLINE size_t f16_avx512_blocks(uint16_t *o, const void *const *in,
				      unsigned int n_in, size_t n, const int nv)
{
	const size_t step = 16 * (size_t)nv;
	size_t i = 0;

	for (; i + step <= n; i += step) {
		const uint16_t *p = (const uint16_t *)in[0] + i;
		__m512 a[16];

		prefetch_block(p, step * 2);
#pragma GCC unroll 16
		for (int j = 0; j < nv; j++)
			a[j] = ld_f16x16(p + 16 * j);
		for (unsigned int r = 1; r < n_in; r++) {
			p = (const uint16_t *)in[r] + i;
			prefetch_block(p, step * 2);
#pragma GCC unroll 16
			for (int j = 0; j < nv; j++)
				a[j] = _mm512_add_ps(a[j], ld_f16x16(p + 16 * j));
		}
#pragma GCC unroll 16
		for (int j = 0; j < nv; j++)
			st_f16x16(o + i + 16 * j, a[j]);
	}
	return i;
}

AVX512 static void sum_f16_avx512(void *out, const void *const *in,
				  unsigned int n_in, size_t n)
{
	uint16_t *o = out;
	size_t i = n_in >= WIDE_FROM_INPUTS ? f16_avx512_blocks(o, in, n_in, n, 16) :
					      f16_avx512_blocks(o, in, n_in, n, 8);

	for (; i + 16 <= n; i += 16) {
		__m512 a = ld_f16x16((const uint16_t *)in[0] + i);

		for (unsigned int r = 1; r < n_in; r++)
			a = _mm512_add_ps(a, ld_f16x16((const uint16_t *)in[r] + i));
		st_f16x16(o + i, a);
	}
	sum_f16_tail(o, in, n_in, i, n);
}

AVX512 static __m512 bf16_even16(__m512i x)
{
	return _mm512_castsi512_ps(_mm512_slli_epi32(x, 16));
}

AVX512 static __m512 bf16_odd16(__m512i x)
{
	return _mm512_castsi512_ps(_mm512_and_si512(x,
				   _mm512_set1_epi32((int)0xffff0000)));
}

/* Round 16 binary32 lanes to bf16 in their high halves (see rnd_bf16x8). */
AVX512 static __m512i rnd_bf16x16(__m512 v)
{
	__m512i x = _mm512_castps_si512(v);
	__m512i lsb = _mm512_and_si512(_mm512_srli_epi32(x, 16),
				       _mm512_set1_epi32(1));
	__m512i r = _mm512_add_epi32(x, _mm512_add_epi32(lsb,
					_mm512_set1_epi32(0x7fff)));
	__mmask16 isnan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);

	return _mm512_mask_or_epi32(r, isnan, x, _mm512_set1_epi32(0x400000));
}

/* Store 32 bf16: the even elements' sums in ev, the odd ones' in od. */
AVX512 static void st_bf16x32(uint16_t *p, __m512 ev, __m512 od)
{
	__m512i hi = _mm512_and_si512(rnd_bf16x16(od),
				      _mm512_set1_epi32((int)0xffff0000));
	__m512i lo = _mm512_srli_epi32(rnd_bf16x16(ev), 16);

	_mm512_storeu_si512(p, _mm512_or_si512(hi, lo));
}

AVX512 static void sum_bf16_avx512(void *out, const void *const *in,
				   unsigned int n_in, size_t n)
{
	uint16_t *o = out;
	size_t i = 0;

	for (; i + 128 <= n; i += 128) {
		const uint16_t *p = (const uint16_t *)in[0] + i;
		__m512 ev[4], od[4];

#pragma GCC unroll 4
		for (int j = 0; j < 4; j++) {
			__m512i x = _mm512_loadu_si512(p + 32 * j);

			PREFETCH(p + 32 * j);
			ev[j] = bf16_even16(x);
			od[j] = bf16_odd16(x);
		}
		for (unsigned int r = 1; r < n_in; r++) {
			p = (const uint16_t *)in[r] + i;
#pragma GCC unroll 4
			for (int j = 0; j < 4; j++) {
				__m512i x = _mm512_loadu_si512(p + 32 * j);

				PREFETCH(p + 32 * j);
				ev[j] = _mm512_add_ps(ev[j], bf16_even16(x));
				od[j] = _mm512_add_ps(od[j], bf16_odd16(x));
			}
		}
#pragma GCC unroll 4
		for (int j = 0; j < 4; j++)
			st_bf16x32(o + i + 32 * j, ev[j], od[j]);
	}
	for (; i + 32 <= n; i += 32) {
		__m512i x = _mm512_loadu_si512((const uint16_t *)in[0] + i);
		__m512 ev = bf16_even16(x), od = bf16_odd16(x);

		for (unsigned int r = 1; r < n_in; r++) {
			x = _mm512_loadu_si512((const uint16_t *)in[r] + i);
			ev = _mm512_add_ps(ev, bf16_even16(x));
			od = _mm512_add_ps(od, bf16_odd16(x));
		}
		st_bf16x32(o + i, ev, od);
	}
	sum_bf16_tail(o, in, n_in, i, n);
}

/* ---- sum on arrival (agg_fold) ---- */

/*
 * Half-precision folds keep binary32 running sums in acc and round once,
 * when the last inputs are in. Blocks of 32 elements (4 registers of 8 with
 * AVX2 + F16C; the AVX-512 machine runs these too: the folds read data the
 * pushes just brought into cache, see Documentation/perf-aggd.md), then a
 * scalar tail. The order of additions per element is agg_sum()'s.
 */
static float widen(int bf, const uint16_t *p, size_t i)
{
	return bf ? agg_bf16_to_f32(p[i]) : agg_f16_to_f32(p[i]);
}

static void fold_half_tail(int bf, float *acc, uint16_t *out,
			   const void *const *in, unsigned int n_in, int first,
			   size_t from, size_t n)
{
	for (size_t i = from; i < n; i++) {
		unsigned int r = 0;
		float a;

		if (first)
			a = widen(bf, in[r++], i);
		else
			a = acc[i];
		for (; r < n_in; r++)
			a += widen(bf, in[r], i);
		if (!out)
			acc[i] = a;
		else
			out[i] = bf ? agg_f32_to_bf16(a) : agg_f32_to_f16(a);
	}
}

AVX2 static __m256 ld_bf16x8(const uint16_t *p)
{
	__m256i x = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p));

	return _mm256_castsi256_ps(_mm256_slli_epi32(x, 16));
}

/* Round 8 binary32 lanes to 8 contiguous bf16 (see rnd_bf16x8). */
AVX2 static void st_bf16x8(uint16_t *p, __m256 v)
{
	__m256i x = _mm256_srli_epi32(rnd_bf16x8(v), 16);

	_mm_storeu_si128((__m128i *)p,
			 _mm_packus_epi32(_mm256_castsi256_si128(x),
					  _mm256_extracti128_si256(x, 1)));
}

AVX2 INLINE void fold_half_avx2(const int bf, float *acc, uint16_t *out,
				const void *const *in, unsigned int n_in,
				int first, size_t n)
{
	size_t i = 0;

	for (; i + 32 <= n; i += 32) {
		unsigned int r = 0;
		__m256 a[4];

		if (first) {
			const uint16_t *p = (const uint16_t *)in[r++] + i;

#pragma GCC unroll 4
			for (int j = 0; j < 4; j++)
				a[j] = bf ? ld_bf16x8(p + 8 * j) : ld_f16x8(p + 8 * j);
		} else {
#pragma GCC unroll 4
			for (int j = 0; j < 4; j++)
				a[j] = _mm256_loadu_ps(acc + i + 8 * j);
		}
		for (; r < n_in; r++) {
			const uint16_t *p = (const uint16_t *)in[r] + i;

			prefetch_block(p, 64);
#pragma GCC unroll 4
			for (int j = 0; j < 4; j++)
				a[j] = _mm256_add_ps(a[j], bf ? ld_bf16x8(p + 8 * j) :
								ld_f16x8(p + 8 * j));
		}
#pragma GCC unroll 4
		for (int j = 0; j < 4; j++) {
			if (!out)
				_mm256_storeu_ps(acc + i + 8 * j, a[j]);
			else if (bf)
				st_bf16x8(out + i + 8 * j, a[j]);
			else
				st_f16x8(out + i + 8 * j, a[j]);
		}
	}
	fold_half_tail(bf, acc, out, in, n_in, first, i, n);
}

AVX2 static void fold_f16_avx2(float *acc, uint16_t *out, const void *const *in,
			       unsigned int n_in, int first, size_t n)
{
	fold_half_avx2(0, acc, out, in, n_in, first, n);
}

AVX2 static void fold_bf16_avx2(float *acc, uint16_t *out, const void *const *in,
				unsigned int n_in, int first, size_t n)
{
	fold_half_avx2(1, acc, out, in, n_in, first, n);
}

/* ---- dispatch ---- */

static const agg_sum_fn kernels[AGG_ISA_COUNT][4] = {
	[AGG_ISA_SCALAR] = {
		[AGG_DTYPE_F32] = sum_f32_scalar,
		[AGG_DTYPE_F16] = sum_f16_scalar,
		[AGG_DTYPE_BF16] = sum_bf16_scalar,
	},
	[AGG_ISA_AVX2] = {
		[AGG_DTYPE_F32] = sum_f32_avx2,
		[AGG_DTYPE_F16] = sum_f16_avx2,
		[AGG_DTYPE_BF16] = sum_bf16_avx2,
	},
	[AGG_ISA_AVX512] = {
		[AGG_DTYPE_F32] = sum_f32_avx512,
		[AGG_DTYPE_F16] = sum_f16_avx512,
		[AGG_DTYPE_BF16] = sum_bf16_avx512,
	},
};

int agg_isa_supported(enum agg_isa isa)
{
	__builtin_cpu_init();
	switch (isa) {
	case AGG_ISA_SCALAR:
		return 1;
	case AGG_ISA_AVX2:
		return __builtin_cpu_supports("avx2") &&
		       __builtin_cpu_supports("f16c");
	case AGG_ISA_AVX512:
		return __builtin_cpu_supports("avx512f");
	default:
		return 0;
	}
}

const char *agg_isa_name(enum agg_isa isa)
{
	switch (isa) {
	case AGG_ISA_SCALAR:
		return "scalar";
	case AGG_ISA_AVX2:
		return "avx2";
	case AGG_ISA_AVX512:
		return "avx512";
	default:
		return "?";
	}
}

static enum agg_isa choose_isa(void)
{
	const char *want = getenv("AGG_ISA");

	if (want) {
		for (int i = 0; i < AGG_ISA_COUNT; i++)
			if (!strcmp(want, agg_isa_name(i)) &&
			    agg_isa_supported(i))
				return i;
	}
	if (agg_isa_supported(AGG_ISA_AVX512))
		return AGG_ISA_AVX512;
	if (agg_isa_supported(AGG_ISA_AVX2))
		return AGG_ISA_AVX2;
	return AGG_ISA_SCALAR;
}

enum agg_isa agg_isa_selected(void)
{
	static int selected = -1;

	/* idempotent: racing first callers compute the same value */
	if (__atomic_load_n(&selected, __ATOMIC_RELAXED) < 0)
		__atomic_store_n(&selected, choose_isa(), __ATOMIC_RELAXED);
	return __atomic_load_n(&selected, __ATOMIC_RELAXED);
}

agg_sum_fn agg_sum_kernel(enum agg_isa isa, unsigned int dtype)
{
	if (isa >= AGG_ISA_COUNT || !agg_dtype_size(dtype) ||
	    !agg_isa_supported(isa))
		return NULL;
	return kernels[isa][dtype];
}

void agg_sum(unsigned int dtype, void *out, const void *const *in,
	     unsigned int n_in, size_t n)
{
	agg_sum_fn fn = agg_sum_kernel(agg_isa_selected(), dtype);

	if (fn && n_in)
		fn(out, in, n_in, n);
}

/* At most this many inputs per call of an fp32 kernel: acc + 15. */
#define FOLD_CHUNK	16

void agg_fold(enum agg_isa isa, unsigned int dtype, float *acc, void *out,
	      const void *const *in, unsigned int n_in, int first, size_t n)
{
	if (!n_in)
		return;
	if (first && (out || dtype == AGG_DTYPE_F32)) {
		/* the whole sum at once, or fp32's first inputs: agg_sum()'s
		 * kernel */
		kernels[isa][dtype](dtype == AGG_DTYPE_F32 ? acc : out, in, n_in, n);
		return;
	}
	if (dtype == AGG_DTYPE_F32) {
		/* the running sum is the first input of the n-way kernel */
		while (n_in) {
			const void *chunk[FOLD_CHUNK];
			unsigned int k = n_in < FOLD_CHUNK - 1 ? n_in : FOLD_CHUNK - 1;

			chunk[0] = acc;
			memcpy(&chunk[1], in, k * sizeof(*in));
			kernels[isa][dtype](acc, chunk, k + 1, n);
			in += k;
			n_in -= k;
		}
		return;
	}
	if (isa != AGG_ISA_SCALAR && dtype == AGG_DTYPE_F16)
		fold_f16_avx2(acc, out, in, n_in, first, n);
	else if (isa != AGG_ISA_SCALAR)
		fold_bf16_avx2(acc, out, in, n_in, first, n);
	else
		fold_half_tail(dtype == AGG_DTYPE_BF16, acc, out, in, n_in, first,
			       0, n);
}

void agg_sgd_momentum(float *w, float *v, const float *sum, size_t n,
		      unsigned int n_workers, float lr, float momentum)
{
	float div = (float)n_workers;

	for (size_t i = 0; i < n; i++) {
		float g = sum[i] / div;
		float mv = momentum * v[i];

		v[i] = mv + g;
		w[i] = w[i] - lr * v[i];
	}
}
