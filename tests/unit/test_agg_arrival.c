// SPDX-License-Identifier: GPL-2.0
/*
 * Sum on arrival (agg_job.c, agg_fold): whatever order the pushes of a
 * round arrive in, and however the pool's folds interleave with them, the
 * result is the documented rank-order sum bit for bit (Documentation/
 * aggd.md "Summation order"): every arrival order of 4 workers, random ones
 * of 8, fp32, fp16 and bf16, with and without the server optimizer, and
 * agg_fold() split every way on every ISA this CPU runs; pushes folded
 * from a lent receive buffer (agg_part_push_lent) as from their slots.
 *
 * The reference is computed here, independently of the daemon's kernels:
 * fp16 through the compiler's _Float16, bf16 rounded by comparing
 * distances in double. A guard checks that the data tell orders apart
 * (summing in arrival order gives other bits for some orders), so a fold
 * in the wrong order cannot pass.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agg_job.h"
#include "agg_proto.h"
#include "agg_sum.h"
#include "tap.h"

#define NELEM	301	/* vector blocks, one-register steps and a tail */
#define MAXW	8

static uint64_t rng = 0x2545f4914f6cdd1dULL;

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

static float ref_widen(unsigned int dtype, const void *p, size_t i)
{
	uint16_t h;
	_Float16 x;

	if (dtype == AGG_DTYPE_F32)
		return ((const float *)p)[i];
	h = ((const uint16_t *)p)[i];
	if (dtype == AGG_DTYPE_BF16)
		return bits_f((uint32_t)h << 16);
	memcpy(&x, &h, 2);
	return (float)x;
}

static uint16_t ref_bf16(float f)
{
	uint32_t u = f_bits(f), lo = u & 0xffff0000U, hi = lo + 0x10000U;
	double d = fabs((double)f), dlo, dhi;

	if ((u & 0xffff) == 0)
		return (uint16_t)(u >> 16);
	dlo = fabs((double)bits_f(lo));
	dhi = (hi & 0x7fffffffU) == 0x7f800000U ? ldexp(1.0, 128) :
						   fabs((double)bits_f(hi));
	if (d - dlo != dhi - d)
		return (uint16_t)((d - dlo < dhi - d ? lo : hi) >> 16);
	return (uint16_t)(((lo >> 16) & 1) ? hi >> 16 : lo >> 16);
}

/* Sum of in[order[0]], in[order[1]], ... in that order, rounded once. */
static void ref_sum(unsigned int dtype, void *out, void *const *in,
		    const unsigned int *order, unsigned int w)
{
	for (size_t i = 0; i < NELEM; i++) {
		volatile float acc = ref_widen(dtype, in[order[0]], i);

		for (unsigned int k = 1; k < w; k++)
			acc = acc + ref_widen(dtype, in[order[k]], i);
		if (dtype == AGG_DTYPE_F32) {
			((float *)out)[i] = acc;
		} else if (dtype == AGG_DTYPE_BF16) {
			((uint16_t *)out)[i] = ref_bf16(acc);
		} else {
			_Float16 x = (_Float16)acc;

			memcpy((uint16_t *)out + i, &x, 2);
		}
	}
}

/* A finite value of dtype: sign, unbiased exponent e, random mantissa. */
static void put(unsigned int dtype, void *p, size_t i, int neg, int e)
{
	uint32_t m = rnd32();

	if (dtype == AGG_DTYPE_F32)
		((float *)p)[i] = bits_f((uint32_t)neg << 31 |
					 (uint32_t)(e + 127) << 23 | (m & 0x7fffff));
	else if (dtype == AGG_DTYPE_F16)
		((uint16_t *)p)[i] = (uint16_t)(neg << 15 | (e + 15) << 10 |
						(m & 0x3ff));
	else
		((uint16_t *)p)[i] = (uint16_t)(neg << 15 | (e + 127) << 7 |
						(m & 0x7f));
}

/*
 * One round's data for w ranks. Half the elements are random over a wide
 * range of magnitudes; in the other half two ranks carry +big and -big and
 * the rest small values, which a binary32 sum loses while big is in it:
 * the result depends on the order of additions in any dtype.
 */
static void fill_round(unsigned int dtype, void *const *data, unsigned int w)
{
	int big = dtype == AGG_DTYPE_F16 ? 14 : 60;
	int small_lo = dtype == AGG_DTYPE_F16 ? -14 : 10;
	int wide_lo = dtype == AGG_DTYPE_F16 ? -14 : -60;

	for (size_t i = 0; i < NELEM; i++) {
		uint32_t x = rnd32();
		unsigned int a = x % w, b = (a + 1 + (x >> 8) % (w - 1)) % w;
		int neg = (x >> 20) & 1;

		for (unsigned int r = 0; r < w; r++) {
			uint32_t y = rnd32();

			if (x >> 31)
				put(dtype, data[r], i, y & 1,
				    wide_lo + (int)((y >> 1) % (unsigned int)(big - wide_lo + 1)));
			else if (r == a || r == b)
				put(dtype, data[r], i, neg ^ (r == b), big);
			else
				put(dtype, data[r], i, y & 1, small_lo + (int)((y >> 1) % 4));
		}
		if (x >> 31)
			continue;
		/* the same magnitude, the other sign: they cancel */
		if (dtype == AGG_DTYPE_F32)
			((float *)data[b])[i] = -((float *)data[a])[i];
		else
			((uint16_t *)data[b])[i] = ((uint16_t *)data[a])[i] ^ 0x8000;
	}
}

static int same(unsigned int dtype, const void *a, const void *b)
{
	return !memcmp(a, b, NELEM * agg_dtype_size(dtype));
}

static struct agg_job *make_job(unsigned int w, unsigned int dtype,
				unsigned int opt)
{
	struct agg_job_spec s;

	memset(&s, 0, sizeof(s));
	strcpy(s.name, "arrival");
	strcpy(s.token, "t");
	s.n_workers = (uint16_t)w;
	s.dtype = (uint8_t)dtype;
	s.opt = (uint8_t)opt;
	if (opt) {
		s.lr = 0.25f;
		s.momentum = 0.5f;
	}
	s.weight = 1;
	s.part_elems = NELEM;
	s.n_tensors = 1;
	s.tensors = calloc(1, sizeof(*s.tensors));
	if (!s.tensors)
		return NULL;
	strcpy(s.tensors[0].name, "g");
	s.tensors[0].nelem = NELEM;
	if (agg_spec_finish(&s))
		return NULL;
	return agg_job_create(1, &s);
}

/*
 * Ranks whose pushes are lent (agg_part_push_lent: folded where they landed,
 * as from an RDMA receive slot) rather than copied into their slots; 0 but
 * in test_lent_pushes.
 */
static int lent_mask;
static void *lent_buf[MAXW];
static int lent_token[MAXW], lent_back[MAXW];

static void push_one(struct agg_part *p, unsigned int r, const void *data)
{
	if (lent_mask >> r & 1) {
		memcpy(lent_buf[r], data, p->bytes);
		agg_part_push_lent(p, r, lent_buf[r], &lent_token[r]);
	} else {
		memcpy(agg_part_push_buf(p, r), data, p->bytes);
	}
}

/*
 * The pool runs the fold handed over; 1 if the next one follows at once.
 * As the daemon does (aggd_jobs.c fold_done), the fold's ranks give their
 * loans back then; a buffer given back is overwritten at once (with NaNs,
 * as the next message would), so a fold that read it later, or a loan
 * given back before its rank was folded, spoils the sum.
 */
static int fold_step(struct agg_job *j, struct agg_part *p)
{
	EXPECT(p->folding);
	agg_part_reduce(j, p);
	for (unsigned int r = p->fold_from; r < p->fold_to; r++) {
		void *l = agg_part_take_loan(p, r);

		EXPECT_EQ(l, lent_mask >> r & 1 ? (void *)&lent_token[r] : NULL);
		EXPECT(p->in[r] == p->slots[r]);
		if (l) {
			lent_back[r]++;
			memset(lent_buf[r], 0xff, p->bytes);
		}
	}
	return agg_part_reduced(p, j->spec.n_workers);
}

static void run_folds(struct agg_job *j, struct agg_part *p)
{
	while (fold_step(j, p))
		;
}

/*
 * One round of job j: ranks push data[order[k]] in that order. mode 0: a
 * fold runs as soon as it is handed over; 1: the pool is slow, a fold
 * handed over finishes only when the next push has landed; 2: random.
 * Returns with the partition READY.
 */
static void round_in_order(struct agg_job *j, void *const *data,
			   const unsigned int *order, int mode)
{
	struct agg_part *p = &j->parts[0];
	unsigned int w = j->spec.n_workers;
	int pending = 0;

	for (unsigned int k = 0; k < w; k++) {
		unsigned int r = order[k];
		int more;

		EXPECT_EQ(agg_part_push_check(p, r, p->iter), 0);
		push_one(p, r, data[r]);
		more = agg_part_push_done(p, w, r, p->iter);
		EXPECT(!(more && pending));	/* one fold at a time */
		if (pending && (mode == 1 || (mode == 2 && (rnd32() & 1))))
			pending = fold_step(j, p);
		pending |= more;
		if (pending && mode == 0)
			pending = fold_step(j, p);
	}
	while (pending)
		pending = fold_step(j, p);
	EXPECT_EQ(p->state, AGG_PART_READY);
	EXPECT_EQ(p->n_folded, w);
	EXPECT(!p->folding);
}

static int next_perm(unsigned int *a, unsigned int n)
{
	unsigned int i = n - 1, k;

	while (i > 0 && a[i - 1] >= a[i])
		i--;
	if (!i)
		return 0;
	k = n - 1;
	while (a[k] <= a[i - 1])
		k--;
	unsigned int t = a[i - 1];

	a[i - 1] = a[k];
	a[k] = t;
	for (unsigned int x = i, y = n - 1; x < y; x++, y--) {
		t = a[x];
		a[x] = a[y];
		a[y] = t;
	}
	return 1;
}

static void shuffle(unsigned int *a, unsigned int n)
{
	for (unsigned int i = n - 1; i > 0; i--) {
		unsigned int k = rnd32() % (i + 1), t = a[i];

		a[i] = a[k];
		a[k] = t;
	}
}

struct order_stats {
	unsigned int rounds, bad, arrival_differs;
};

/* One round in 'order' on a fresh job, checked against the reference. */
static void check_order(unsigned int dtype, unsigned int w,
			const unsigned int *order, int mode,
			struct order_stats *st)
{
	static const unsigned int rank_order[MAXW] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	struct agg_job *j = make_job(w, dtype, 0);
	size_t esz = agg_dtype_size(dtype);
	void *data[MAXW];
	uint8_t want[NELEM * 4], other[NELEM * 4];

	EXPECT(j != NULL);
	if (!j)
		return;
	for (unsigned int r = 0; r < w; r++)
		data[r] = malloc(NELEM * esz);
	fill_round(dtype, data, w);
	ref_sum(dtype, want, data, rank_order, w);
	ref_sum(dtype, other, data, order, w);
	if (!same(dtype, want, other))
		st->arrival_differs++;
	round_in_order(j, data, order, mode);
	if (!same(dtype, j->parts[0].out, want))
		st->bad++;
	st->rounds++;
	for (unsigned int r = 0; r < w; r++)
		free(data[r]);
	agg_job_free(j);
}

static void perms(unsigned int dtype)
{
	struct order_stats st = { 0 };
	unsigned int order[MAXW];

	/* every arrival order of 4 workers, each with three pool speeds */
	for (unsigned int i = 0; i < 4; i++)
		order[i] = i;
	do {
		for (int mode = 0; mode < 3; mode++)
			check_order(dtype, 4, order, mode, &st);
	} while (next_perm(order, 4));
	EXPECT_EQ(st.rounds, 72);
	EXPECT_EQ(st.bad, 0);
	/* the data tell orders apart: a fold in arrival order would fail */
	EXPECT(st.arrival_differs >= 24);
	printf("# %s, 4 workers: %u rounds, %u wrong; arrival-order sums differ in %u\n",
	       agg_dtype_name(dtype), st.rounds, st.bad, st.arrival_differs);

	/* random arrival orders of 8 workers */
	memset(&st, 0, sizeof(st));
	for (int n = 0; n < 200; n++) {
		for (unsigned int i = 0; i < 8; i++)
			order[i] = i;
		shuffle(order, 8);
		check_order(dtype, 8, order, n % 3, &st);
	}
	EXPECT_EQ(st.bad, 0);
	EXPECT(st.arrival_differs >= 150);
	printf("# %s, 8 workers: %u rounds, %u wrong; arrival-order sums differ in %u\n",
	       agg_dtype_name(dtype), st.rounds, st.bad, st.arrival_differs);
}

static void test_perms_f32(void)
{
	perms(AGG_DTYPE_F32);
}

static void test_perms_f16(void)
{
	perms(AGG_DTYPE_F16);
}

static void test_perms_bf16(void)
{
	perms(AGG_DTYPE_BF16);
}

/*
 * Rounds after the first: ranks that have pulled push the next round
 * early, before the others pulled; those pushes are folded when the
 * partition moves on (agg_part_pull_done), the rest as they come.
 */
static void test_early_pushes(void)
{
	static const unsigned int rank_order[4] = { 0, 1, 2, 3 };
	unsigned int w = 4, bad = 0;
	struct agg_job *j = make_job(w, AGG_DTYPE_F16, 0);
	struct agg_part *p;
	void *data[4];
	uint16_t want[NELEM];

	EXPECT(j != NULL);
	if (!j)
		return;
	p = &j->parts[0];
	for (unsigned int r = 0; r < w; r++)
		data[r] = malloc(NELEM * 2);
	for (uint32_t it = 0; it < 40; it++) {
		unsigned int order[4] = { 0, 1, 2, 3 };
		unsigned int early = it ? rnd32() % 4 : 0;
		int more = 0;

		shuffle(order, 4);
		fill_round(AGG_DTYPE_F16, data, w);
		ref_sum(AGG_DTYPE_F16, want, data, rank_order, w);
		if (it) {
			/* the first 'early' ranks of the order push while the
			 * previous round's replies are still going out */
			for (unsigned int k = 0; k < early; k++) {
				unsigned int r = order[k];

				EXPECT_EQ(agg_part_pull_check(p, r, it - 1), 0);
				agg_part_pull_done(p, w, r);
				EXPECT_EQ(agg_part_push_check(p, r, it), 0);
				memcpy(agg_part_push_buf(p, r), data[r], p->bytes);
				EXPECT_EQ(agg_part_push_done(p, w, r, it), 0);
			}
			for (unsigned int k = early; k < w; k++) {
				EXPECT_EQ(agg_part_pull_check(p, order[k], it - 1), 0);
				more = agg_part_pull_done(p, w, order[k]);
			}
			EXPECT_EQ(p->iter, it);
			/* a fold starts at once if rank 0 came early */
			EXPECT_EQ(more, p->slot_iter[0] == it);
			if (more)
				run_folds(j, p);
		}
		for (unsigned int k = early; k < w; k++) {
			unsigned int r = order[k];

			EXPECT_EQ(agg_part_push_check(p, r, it), 0);
			memcpy(agg_part_push_buf(p, r), data[r], p->bytes);
			if (agg_part_push_done(p, w, r, it))
				run_folds(j, p);
		}
		EXPECT_EQ(p->state, AGG_PART_READY);
		if (memcmp(p->out, want, sizeof(want)))
			bad++;
	}
	EXPECT_EQ(bad, 0);
	for (unsigned int r = 0; r < w; r++)
		free(data[r]);
	agg_job_free(j);
}

/*
 * Pushes folded where they landed (agg_part_push_lent: an RDMA receive
 * slot, no copy): every arrival order of 4 workers, every choice of which
 * ranks are lent, three pool speeds; random orders and choices of 8. Each
 * lent buffer is given back once, after its rank was folded (fold_step).
 */
static unsigned int lent_round(unsigned int dtype, unsigned int w,
			       const unsigned int *order, int mode)
{
	static const unsigned int rank_order[MAXW] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	struct agg_job *j = make_job(w, dtype, 0);
	size_t esz = agg_dtype_size(dtype);
	void *data[MAXW];
	uint8_t want[NELEM * 4];
	unsigned int bad = 0;

	EXPECT(j != NULL);
	if (!j)
		return 1;
	for (unsigned int r = 0; r < w; r++) {
		data[r] = malloc(NELEM * esz);
		lent_buf[r] = malloc(NELEM * esz);
		lent_back[r] = 0;
	}
	fill_round(dtype, data, w);
	ref_sum(dtype, want, data, rank_order, w);
	round_in_order(j, data, order, mode);
	if (!same(dtype, j->parts[0].out, want))
		bad++;
	for (unsigned int r = 0; r < w; r++) {
		EXPECT_EQ(lent_back[r], lent_mask >> r & 1);
		free(data[r]);
		free(lent_buf[r]);
	}
	agg_job_free(j);
	return bad;
}

static void test_lent_pushes(void)
{
	static const unsigned int dtypes[] = {
		AGG_DTYPE_F32, AGG_DTYPE_F16, AGG_DTYPE_BF16 };
	unsigned int order[MAXW], rounds = 0, bad = 0;

	for (unsigned int d = 0; d < 3; d++) {
		for (unsigned int i = 0; i < 4; i++)
			order[i] = i;
		do {
			for (lent_mask = 0; lent_mask < 16; lent_mask++)
				for (int mode = 0; mode < 3; mode++, rounds++)
					bad += lent_round(dtypes[d], 4, order, mode);
		} while (next_perm(order, 4));
		for (int n = 0; n < 100; n++, rounds++) {
			for (unsigned int i = 0; i < 8; i++)
				order[i] = i;
			shuffle(order, 8);
			lent_mask = (int)(n ? rnd32() & 0xff : 0xff);
			bad += lent_round(dtypes[d], 8, order, n % 3);
		}
	}
	lent_mask = 0;
	EXPECT_EQ(rounds, 3 * (24 * 16 * 3 + 100));
	EXPECT_EQ(bad, 0);
	printf("# lent pushes: %u rounds, %u wrong\n", rounds, bad);
}

/* The server optimizer's step sees the rank-order sum. */
static void test_optimizer(void)
{
	static const unsigned int rank_order[4] = { 0, 1, 2, 3 };
	unsigned int order[4] = { 0, 1, 2, 3 }, bad = 0, n = 0;

	do {
		struct agg_job *j = make_job(4, AGG_DTYPE_F32, AGG_OPT_SGD_MOMENTUM);
		float w0[NELEM], v[NELEM], sum[NELEM], *data[4];

		EXPECT(j != NULL);
		if (!j)
			return;
		for (unsigned int r = 0; r < 4; r++)
			data[r] = malloc(sizeof(sum));
		fill_round(AGG_DTYPE_F32, (void *const *)data, 4);
		memcpy(w0, data[3], sizeof(w0));	/* any weights */
		memcpy(j->parts[0].out, w0, sizeof(w0));
		j->parts[0].weights_set = true;
		ref_sum(AGG_DTYPE_F32, sum, (void *const *)data, rank_order, 4);
		memset(v, 0, sizeof(v));
		agg_sgd_momentum(w0, v, sum, NELEM, 4, 0.25f, 0.5f);
		round_in_order(j, (void *const *)data, order, n % 3);
		if (memcmp(j->parts[0].out, w0, sizeof(w0)) ||
		    memcmp(j->parts[0].momentum, v, sizeof(v)))
			bad++;
		n++;
		for (unsigned int r = 0; r < 4; r++)
			free(data[r]);
		agg_job_free(j);
	} while (next_perm(order, 4));
	EXPECT_EQ(n, 24);
	EXPECT_EQ(bad, 0);
}

/*
 * agg_fold() itself on every ISA: the 4 inputs split into successive
 * folds every way (8 compositions of 4), against the reference.
 */
static void test_fold_splits(void)
{
	static const unsigned int dtypes[] = {
		AGG_DTYPE_F32, AGG_DTYPE_F16, AGG_DTYPE_BF16
	};
	static const unsigned int rank_order[4] = { 0, 1, 2, 3 };
	unsigned int checked = 0, bad = 0;

	for (int isa = 0; isa < AGG_ISA_COUNT; isa++) {
		if (!agg_isa_supported((enum agg_isa)isa))
			continue;
		for (size_t d = 0; d < 3; d++) {
			unsigned int dtype = dtypes[d];
			size_t esz = agg_dtype_size(dtype);
			void *data[4];
			uint8_t want[NELEM * 4], out[NELEM * 4];
			float *acc = malloc(NELEM * sizeof(float));

			for (unsigned int r = 0; r < 4; r++)
				data[r] = malloc(NELEM * esz);
			fill_round(dtype, data, 4);
			ref_sum(dtype, want, data, rank_order, 4);
			/* bit b of cuts: a fold ends after input b + 1 */
			for (unsigned int cuts = 0; cuts < 8; cuts++) {
				unsigned int from = 0;

				memset(out, 0xa5, sizeof(out));
				for (unsigned int r = 0; r < 4; r++) {
					int end = r == 3 || (cuts >> r & 1);

					if (!end)
						continue;
					agg_fold((enum agg_isa)isa, dtype, acc,
						 r == 3 ? (dtype == AGG_DTYPE_F32 ?
							   (void *)acc : out) : NULL,
						 (const void *const *)&data[from],
						 r + 1 - from, from == 0, NELEM);
					from = r + 1;
				}
				if (!same(dtype, dtype == AGG_DTYPE_F32 ?
					  (void *)acc : out, want)) {
					bad++;
					printf("# %s %s cuts %u: wrong bits\n",
					       agg_isa_name((enum agg_isa)isa),
					       agg_dtype_name(dtype), cuts);
				}
				checked++;
			}
			for (unsigned int r = 0; r < 4; r++)
				free(data[r]);
			free(acc);
		}
	}
	EXPECT(checked >= 24);
	EXPECT_EQ(bad, 0);
}

int main(void)
{
	printf("# selected ISA: %s\n", agg_isa_name(agg_isa_selected()));
	TAP_RUN(test_fold_splits);
	TAP_RUN(test_perms_f32);
	TAP_RUN(test_perms_f16);
	TAP_RUN(test_perms_bf16);
	TAP_RUN(test_early_pushes);
	TAP_RUN(test_lent_pushes);
	TAP_RUN(test_optimizer);
	return tap_done();
}
