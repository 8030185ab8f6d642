// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd summation kernels against an independent reference: every
 * ISA this CPU runs, every dtype, many input counts, and lengths around
 * every vector width. The reference converts fp16 with the compiler's
 * _Float16 and rounds bf16 by comparing distances in double, so it shares
 * no code with the kernels.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "agg_proto.h"
#include "agg_sum.h"
#include "tap.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t rnd32(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static float bits_f(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static uint32_t f_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static float ref_f16_to_f32(uint16_t h)
{
	_Float16 x;

	memcpy(&x, &h, 2);
	return (float)x;
}

static uint16_t ref_f32_to_f16(float f)
{
	_Float16 x = (_Float16)f;
	uint16_t h;

	memcpy(&h, &x, 2);
	return h;
}

static uint16_t ref_f32_to_bf16(float f)
{
	uint32_t u = f_bits(f);
	uint32_t lo = u & 0xffff0000U, hi = lo + 0x10000U;
	double dlo, dhi, d = fabs((double)f);

	if (isnan(f))
		return (uint16_t)((u >> 16) | 0x40);
	if ((u & 0xffff) == 0)
		return (uint16_t)(u >> 16);
	dlo = fabs((double)bits_f(lo));
	dhi = (hi & 0x7fffffffU) == 0x7f800000U ? ldexp(1.0, 128) :
						   fabs((double)bits_f(hi));
	if (d - dlo < dhi - d)
		return (uint16_t)(lo >> 16);
	if (d - dlo > dhi - d)
		return (uint16_t)(hi >> 16);
	return (uint16_t)(((lo >> 16) & 1) ? hi >> 16 : lo >> 16);
}

static float load(unsigned int dtype, const void *p, size_t i)
{
	uint16_t h;

	if (dtype == AGG_DTYPE_F32)
		return ((const float *)p)[i];
	h = ((const uint16_t *)p)[i];
	if (dtype == AGG_DTYPE_F16)
		return ref_f16_to_f32(h);
	return bits_f((uint32_t)h << 16);
}

/* The defined order: binary32 adds in rank order, one rounding at the end. */
static void reference(unsigned int dtype, void *out, void *const *in,
		      unsigned int n_in, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		volatile float acc = load(dtype, in[0], i);

		for (unsigned int r = 1; r < n_in; r++)
			acc = acc + load(dtype, in[r], i);
		if (dtype == AGG_DTYPE_F32)
			((float *)out)[i] = acc;
		else if (dtype == AGG_DTYPE_F16)
			((uint16_t *)out)[i] = ref_f32_to_f16(acc);
		else
			((uint16_t *)out)[i] = ref_f32_to_bf16(acc);
	}
}

/* Values: mostly ordinary, some tiny/subnormal, some huge, a few NaN/inf. */
static void fill(unsigned int dtype, void *p, size_t n, int wild)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t r = rnd32();

		if (dtype == AGG_DTYPE_F32) {
			float f;

			if (wild && (r & 63) == 0)
				f = bits_f(rnd32());	/* any pattern */
			else if ((r & 15) == 1)
				f = bits_f(rnd32() & 0x807fffffU); /* subnormal */
			else
				f = ((float)(int32_t)rnd32()) * 0x1p-28f;
			((float *)p)[i] = f;
		} else {
			uint16_t h;

			if (wild)
				h = (uint16_t)r;
			else if (dtype == AGG_DTYPE_F16)
				/* exponents 0..24: subnormals up to ~512 */
				h = (uint16_t)((r & 0x83ff) | ((r >> 16) % 25) << 10);
			else
				h = (uint16_t)((r & 0x807f) |
					       (((r >> 16) % 40 + 100) << 7));
			((uint16_t *)p)[i] = h;
		}
	}
}

static int same_bits(unsigned int dtype, const void *a, const void *b,
		     size_t i)
{
	if (dtype == AGG_DTYPE_F32) {
		float x = ((const float *)a)[i], y = ((const float *)b)[i];

		return (isnan(x) && isnan(y)) || f_bits(x) == f_bits(y);
	} else {
		uint16_t x = ((const uint16_t *)a)[i], y = ((const uint16_t *)b)[i];
		uint16_t em = dtype == AGG_DTYPE_F16 ? 0x7c00 : 0x7f80;
		uint16_t mm = dtype == AGG_DTYPE_F16 ? 0x03ff : 0x007f;
		int xn = (x & em) == em && (x & mm), yn = (y & em) == em && (y & mm);

		return (xn && yn) || x == y;
	}
}

/* Around every vector width and block size (64, 96, 128, 256 elements,
 * each followed by one-register steps and a scalar tail). */
static const size_t lens[] = { 0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47,
			       63, 64, 65, 95, 96, 97, 127, 128, 129, 191, 200,
			       255, 256, 257, 300, 383, 1000, 4099 };
static const unsigned int n_ins[] = { 1, 2, 3, 4, 5, 8, 16 };

static int check_dtype_isa(unsigned int dtype, enum agg_isa isa, int wild)
{
	size_t esz = agg_dtype_size(dtype);
	agg_sum_fn fn = agg_sum_kernel(isa, dtype);
	int bad = 0;

	if (!fn)
		return -1;	/* the caller reports the skip */
	for (size_t li = 0; li < sizeof(lens) / sizeof(*lens); li++) {
		for (size_t ni = 0; ni < sizeof(n_ins) / sizeof(*n_ins); ni++) {
			size_t n = lens[li];
			unsigned int k = n_ins[ni];
			void *in[16];
			/* +1 element each side: the kernel must not touch them */
			uint8_t *got = malloc((n + 2) * esz);
			uint8_t *want = malloc((n + 2) * esz);

			for (unsigned int r = 0; r < k; r++) {
				/* odd offset: unaligned inputs */
				in[r] = (uint8_t *)malloc((n + 1) * esz) + esz;
				fill(dtype, in[r], n, wild);
			}
			memset(got, 0xa5, (n + 2) * esz);
			reference(dtype, want + esz, in, k, n);
			fn(got + esz, (const void *const *)in, k, n);
			for (size_t i = 0; i < n && bad < 5; i++)
				if (!same_bits(dtype, got + esz, want + esz, i)) {
					fprintf(stderr, "# %s %s n=%zu k=%u i=%zu differs\n",
						agg_isa_name(isa),
						agg_dtype_name(dtype), n, k, i);
					bad++;
				}
			for (size_t b = 0; b < esz; b++)
				if (got[b] != 0xa5 || got[(n + 1) * esz + b] != 0xa5)
					bad++;
			for (unsigned int r = 0; r < k; r++)
				free((uint8_t *)in[r] - esz);
			free(got);
			free(want);
		}
	}
	return bad;
}

/*
 * One TAP line per kernel: "ok N - sum_f32/avx2", or, when this CPU lacks the
 * ISA, "ok N - sum_f32/avx512 # SKIP CPU lacks avx512" (a skip, not a pass:
 * scripts/check counts and lists it).
 */
static void check_all(unsigned int dtype, int wild)
{
	for (int isa = 0; isa < AGG_ISA_COUNT; isa++) {
		const char *in = agg_isa_name((enum agg_isa)isa);
		int bad;

		tap_case_failed = 0;
		bad = check_dtype_isa(dtype, (enum agg_isa)isa, wild);
		tap_n++;
		if (bad < 0) {
			printf("ok %d - sum_%s%s/%s # SKIP CPU lacks %s\n", tap_n,
			       agg_dtype_name(dtype), wild ? "_any_bits" : "",
			       in, in);
			continue;
		}
		EXPECT_EQ(bad, 0);
		printf("%sok %d - sum_%s%s/%s\n", tap_case_failed ? "not " : "",
		       tap_n, agg_dtype_name(dtype), wild ? "_any_bits" : "", in);
		fflush(stdout);
		tap_failed += tap_case_failed;
	}
}

static void test_f16_widen_exhaustive(void)
{
	int bad = 0;

	for (uint32_t h = 0; h < 65536; h++) {
		float a = agg_f16_to_f32((uint16_t)h), b = ref_f16_to_f32((uint16_t)h);

		if (!(isnan(a) && isnan(b)) && f_bits(a) != f_bits(b))
			bad++;
	}
	EXPECT_EQ(bad, 0);
}

static void test_f16_round(void)
{
	static const uint32_t edge[] = {
		0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x477fe000,
		0x477fefff, 0x477ff000, 0x47800000, 0x38800000, 0x387fffff,
		0x33000000, 0x33000001, 0x32ffffff, 0x33800000, 0x33c00000,
		0x38000000, 0x3f800000, 0x3f801000, 0x3f803000, 0x3f802fff,
	};
	int bad = 0;

	for (size_t i = 0; i < sizeof(edge) / sizeof(*edge); i++)
		if (agg_f32_to_f16(bits_f(edge[i])) != ref_f32_to_f16(bits_f(edge[i]))) {
			fprintf(stderr, "# f16 round of %08x\n", edge[i]);
			bad++;
		}
	/* every binary32 exponent that can round to a finite or inf half */
	for (uint32_t x = 0x30000000; x < 0x48000000; x += 0x1001) {
		for (uint32_t s = 0; s < 2; s++) {
			float f = bits_f(x | s << 31);

			if (agg_f32_to_f16(f) != ref_f32_to_f16(f))
				bad++;
		}
	}
	for (int i = 0; i < 200000; i++) {
		float f = bits_f(rnd32());

		if (!isnan(f) && agg_f32_to_f16(f) != ref_f32_to_f16(f))
			bad++;
	}
	EXPECT_EQ(bad, 0);
}

static void test_bf16_round(void)
{
	int bad = 0;

	for (int i = 0; i < 1000000; i++) {
		uint32_t u = rnd32();

		if (i < 65536)
			u = (uint32_t)i << 16 | 0x8000;	/* every tie */
		if (agg_f32_to_bf16(bits_f(u)) != ref_f32_to_bf16(bits_f(u)))
			bad++;
	}
	EXPECT_EQ(bad, 0);
}

/* The order matters and is the defined one: (1e8 + -1e8) + 1 != 1e8 + (-1e8 + 1). */
static void test_rank_order(void)
{
	float a[1] = { 1e8f }, b[1] = { -1e8f }, c[1] = { 1.0f }, out[1];
	const void *in1[3] = { a, b, c }, *in2[3] = { b, c, a };

	for (int isa = 0; isa < AGG_ISA_COUNT; isa++) {
		agg_sum_fn fn = agg_sum_kernel((enum agg_isa)isa, AGG_DTYPE_F32);

		if (!fn)
			continue;
		fn(out, in1, 3, 1);
		EXPECT(out[0] == 1.0f);
		fn(out, in2, 3, 1);
		EXPECT(out[0] == 0.0f);
	}
}

static void test_sgd_momentum(void)
{
	float w[3] = { 1.0f, -2.0f, 0.5f }, v[3] = { 0.0f, 1.0f, -1.0f };
	float sum[3] = { 4.0f, -4.0f, 0.0f };

	agg_sgd_momentum(w, v, sum, 3, 4, 0.5f, 0.9f);
	/* g = sum/4 = {1,-1,0}; v = 0.9 v + g; w -= 0.5 v */
	EXPECT(v[0] == 1.0f && v[1] == 0.9f * 1.0f - 1.0f && v[2] == -0.9f);
	EXPECT(w[0] == 0.5f);
	EXPECT(w[2] == 0.5f - 0.5f * -0.9f);
}

int main(void)
{
	printf("# selected ISA: %s\n", agg_isa_name(agg_isa_selected()));
	TAP_RUN(test_f16_widen_exhaustive);
	TAP_RUN(test_f16_round);
	TAP_RUN(test_bf16_round);
	check_all(AGG_DTYPE_F32, 0);
	check_all(AGG_DTYPE_F32, 1);
	check_all(AGG_DTYPE_F16, 0);
	check_all(AGG_DTYPE_F16, 1);
	check_all(AGG_DTYPE_BF16, 0);
	check_all(AGG_DTYPE_BF16, 1);
	TAP_RUN(test_rank_order);
	TAP_RUN(test_sgd_momentum);
	return tap_done();
}
