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

#include <immintrin.h>
#include <stdlib.h>
#include <string.h>

static uint32_t f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

static float bits_f32(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

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

AVX2 static void sum_f16_avx2(void *out, const void *const *in,
			      unsigned int n_in, size_t n)
{
	uint16_t *o = out;
	size_t i = 0;

	for (; i + 32 <= n; i += 32) {
		const uint16_t *p = (const uint16_t *)in[0] + i;
		__m256 a0 = ld_f16x8(p), a1 = ld_f16x8(p + 8);
		__m256 a2 = ld_f16x8(p + 16), a3 = ld_f16x8(p + 24);

		for (unsigned int r = 1; r < n_in; r++) {
			p = (const uint16_t *)in[r] + i;
			a0 = _mm256_add_ps(a0, ld_f16x8(p));
			a1 = _mm256_add_ps(a1, ld_f16x8(p + 8));
			a2 = _mm256_add_ps(a2, ld_f16x8(p + 16));
			a3 = _mm256_add_ps(a3, ld_f16x8(p + 24));
		}
		st_f16x8(o + i, a0);
		st_f16x8(o + i + 8, a1);
		st_f16x8(o + i + 16, a2);
		st_f16x8(o + i + 24, a3);
	}
	sum_f16_tail(o, in, n_in, i, n);
}

AVX2 static __m256 ld_bf16x8(const uint16_t *p)
{
	__m256i w = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p));

	return _mm256_castsi256_ps(_mm256_slli_epi32(w, 16));
}

/* Round 8 binary32 lanes to bf16 (nearest even, NaN kept quiet). */
AVX2 static __m256i rnd_bf16x8(__m256 v)
{
	__m256i x = _mm256_castps_si256(v);
	__m256i lsb = _mm256_and_si256(_mm256_srli_epi32(x, 16),
				       _mm256_set1_epi32(1));
	__m256i r = _mm256_add_epi32(x, _mm256_add_epi32(lsb,
					_mm256_set1_epi32(0x7fff)));
	__m256i nan = _mm256_or_si256(x, _mm256_set1_epi32(0x400000));
	__m256 isnan = _mm256_cmp_ps(v, v, _CMP_UNORD_Q);

	r = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(r),
						 _mm256_castsi256_ps(nan),
						 isnan));
	return _mm256_srli_epi32(r, 16);
}

AVX2 static void st_bf16x16(uint16_t *p, __m256 lo, __m256 hi)
{
	__m256i packed = _mm256_packus_epi32(rnd_bf16x8(lo), rnd_bf16x8(hi));

	packed = _mm256_permute4x64_epi64(packed, 0xd8);
	_mm256_storeu_si256((__m256i *)p, packed);
}

AVX2 static void sum_bf16_avx2(void *out, const void *const *in,
			       unsigned int n_in, size_t n)
{
	uint16_t *o = out;
	size_t i = 0;

	for (; i + 32 <= n; i += 32) {
		const uint16_t *p = (const uint16_t *)in[0] + i;
		__m256 a0 = ld_bf16x8(p), a1 = ld_bf16x8(p + 8);
		__m256 a2 = ld_bf16x8(p + 16), a3 = ld_bf16x8(p + 24);

		for (unsigned int r = 1; r < n_in; r++) {
			p = (const uint16_t *)in[r] + i;
			a0 = _mm256_add_ps(a0, ld_bf16x8(p));
			a1 = _mm256_add_ps(a1, ld_bf16x8(p + 8));
			a2 = _mm256_add_ps(a2, ld_bf16x8(p + 16));
			a3 = _mm256_add_ps(a3, ld_bf16x8(p + 24));
		}
		st_bf16x16(o + i, a0, a1);
		st_bf16x16(o + i + 16, a2, a3);
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

AVX512 static void sum_f16_avx512(void *out, const void *const *in,
				  unsigned int n_in, size_t n)
{
	uint16_t *o = out;
	size_t i = 0;

	for (; i + 64 <= n; i += 64) {
		const uint16_t *p = (const uint16_t *)in[0] + i;
		__m512 a0 = ld_f16x16(p), a1 = ld_f16x16(p + 16);
		__m512 a2 = ld_f16x16(p + 32), a3 = ld_f16x16(p + 48);

		for (unsigned int r = 1; r < n_in; r++) {
			p = (const uint16_t *)in[r] + i;
			a0 = _mm512_add_ps(a0, ld_f16x16(p));
			a1 = _mm512_add_ps(a1, ld_f16x16(p + 16));
			a2 = _mm512_add_ps(a2, ld_f16x16(p + 32));
			a3 = _mm512_add_ps(a3, ld_f16x16(p + 48));
		}
		st_f16x16(o + i, a0);
		st_f16x16(o + i + 16, a1);
		st_f16x16(o + i + 32, a2);
		st_f16x16(o + i + 48, a3);
	}
	sum_f16_tail(o, in, n_in, i, n);
}

AVX512 static __m512 ld_bf16x16(const uint16_t *p)
{
	__m512i w = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)p));

	return _mm512_castsi512_ps(_mm512_slli_epi32(w, 16));
}

AVX512 static void st_bf16x16_512(uint16_t *p, __m512 v)
{
	__m512i x = _mm512_castps_si512(v);
	__m512i lsb = _mm512_and_si512(_mm512_srli_epi32(x, 16),
				       _mm512_set1_epi32(1));
	__m512i r = _mm512_add_epi32(x, _mm512_add_epi32(lsb,
					_mm512_set1_epi32(0x7fff)));
	__mmask16 isnan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);

	r = _mm512_mask_or_epi32(r, isnan, x, _mm512_set1_epi32(0x400000));
	r = _mm512_srli_epi32(r, 16);
	_mm256_storeu_si256((__m256i *)p, _mm512_cvtepi32_epi16(r));
}

AVX512 static void sum_bf16_avx512(void *out, const void *const *in,
				   unsigned int n_in, size_t n)
{
	uint16_t *o = out;
	size_t i = 0;

	for (; i + 64 <= n; i += 64) {
		const uint16_t *p = (const uint16_t *)in[0] + i;
		__m512 a0 = ld_bf16x16(p), a1 = ld_bf16x16(p + 16);
		__m512 a2 = ld_bf16x16(p + 32), a3 = ld_bf16x16(p + 48);

		for (unsigned int r = 1; r < n_in; r++) {
			p = (const uint16_t *)in[r] + i;
			a0 = _mm512_add_ps(a0, ld_bf16x16(p));
			a1 = _mm512_add_ps(a1, ld_bf16x16(p + 16));
			a2 = _mm512_add_ps(a2, ld_bf16x16(p + 32));
			a3 = _mm512_add_ps(a3, ld_bf16x16(p + 48));
		}
		st_bf16x16_512(o + i, a0);
		st_bf16x16_512(o + i + 16, a1);
		st_bf16x16_512(o + i + 32, a2);
		st_bf16x16_512(o + i + 48, a3);
	}
	sum_bf16_tail(o, in, n_in, i, n);
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
