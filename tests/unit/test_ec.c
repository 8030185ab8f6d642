// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for the erasure codec (kmod/core/spare_ec.c) as libspare
 * builds it for spare-ublk, its coding done by ISA-L behind the kernel's
 * calls (userspace/lib/kshim/raid_isal.c): the cases of
 * kmod/core/spare_ec_cases.h, which KUnit replays over the kernel's
 * raid6_pq; then, here only, a bit-by-bit reference of the field
 * arithmetic (GF(2^8), 0x11d, Q = sum 2^i D_i, as lib/raid6 defines it),
 * written from the definition, against which the known answers and ISA-L
 * are checked, and pages whose parity the reference computed decoded by
 * the codec.
 *
 *   test_ec                  TAP
 *   test_ec --print-known    the known-answer table, from the reference
 */
#include <stdlib.h>
#include <string.h>

#include "core_cases.h"
#include <linux/bitops.h>

#define EC_T			CASE_T
#define EC_CHECK		CASE_CHECK
#define EC_EQ			CASE_EQ
#define EC_ALLOC(t, bytes)	ec_host_alloc(bytes)
#define EC_FREE(t, p)		free(p)

static void *ec_host_alloc(size_t bytes)
{
	void *p = aligned_alloc(64, (bytes + 63) & ~(size_t)63);

	if (p)
		memset(p, 0, bytes);
	return p;
}

#include "spare_ec_cases.h"

/* a * b in GF(2^8) modulo x^8 + x^4 + x^3 + x^2 + 1 (0x11d), bit by bit. */
static u8 ref_mul(u8 a, u8 b)
{
	unsigned int r = 0, x = a;

	while (b) {
		if (b & 1)
			r ^= x;
		b >>= 1;
		x <<= 1;
		if (x & 0x100)
			x ^= 0x11d;
	}
	return (u8)r;
}

/* P and Q of a page split K ways, from the definition. */
static void ref_parity(const u8 *page, unsigned int k, u8 *p, u8 *q)
{
	unsigned int len = SPARE_EC_PAGE / k, i, j;
	u8 coef = 1;

	memset(p, 0, len);
	memset(q, 0, len);
	for (i = 0; i < k; i++) {
		for (j = 0; j < len; j++) {
			p[j] ^= page[i * len + j];
			q[j] ^= ref_mul(coef, page[i * len + j]);
		}
		coef = ref_mul(coef, 2);
	}
}

/* The reference's answers are the table's. */
static void ref_known_answers(int t)
{
	static u8 page[SPARE_EC_PAGE], p[SPARE_EC_PAGE], q[SPARE_EC_PAGE];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ec_known_answers); i++) {
		const struct ec_known *c = &ec_known_answers[i];
		unsigned int len = SPARE_EC_PAGE / c->k;

		ec_fill(page, SPARE_EC_PAGE, c->seed);
		ref_parity(page, c->k, p, q);
		EXPECT_EQ(ec_fnv(p, len), c->p);
		if (c->r == 2)
			EXPECT_EQ(ec_fnv(q, len), c->q);
	}
}

/*
 * ISA-L's parity is the reference's, byte for byte, on many pages; and a
 * page whose parity the reference computed is rebuilt by the codec from
 * any K of its splits (here: the first R data splits lost).
 */
static void ref_against_codec(int t)
{
	u8 *page = ec_host_alloc(SPARE_EC_PAGE);
	u8 *slots = ec_host_alloc(EC_SLOTS * EC_SLOT);
	u8 p[SPARE_EC_PAGE], q[SPARE_EC_PAGE];
	unsigned int gi, seed, i;

	CASE_ASSERT(t, page && slots);
	for (gi = 0; gi < ARRAY_SIZE(ec_geoms); gi++) {
		const struct spare_ec_geom *g = &ec_geoms[gi];
		unsigned int len = spare_ec_split_bytes(g), n = spare_ec_splits(g);
		void *splits[SPARE_EC_MAX_SPLITS];
		void *parity[2] = { slots + 10 * EC_SLOT, slots + 11 * EC_SLOT };

		for (i = 0; i < n; i++)
			splits[i] = slots + i * EC_SLOT;
		for (seed = 100; seed < 164; seed++) {
			ec_fill(page, SPARE_EC_PAGE, seed);
			ref_parity(page, g->k, p, q);
			EXPECT_EQ(spare_ec_encode(g, page, parity), 0);
			EXPECT(!memcmp(parity[0], p, len));
			if (g->r == 2)
				EXPECT(!memcmp(parity[1], q, len));

			for (i = 0; i < g->k; i++)
				memcpy(splits[i], page + i * len, len);
			memcpy(splits[g->k], p, len);
			if (g->r == 2)
				memcpy(splits[g->k + 1], q, len);
			for (i = 0; i < g->r; i++)
				memset(splits[i], 0, len);
			EXPECT_EQ(spare_ec_recover(g, splits, (1UL << g->r) - 1), 0);
			for (i = 0; i < g->r; i++)
				EXPECT(!memcmp(splits[i], page + i * len, len));
		}
	}
	free(slots);
	free(page);
}

static const struct spare_ec_case ec_host_cases[] = {
	{ "reference_known_answers", ref_known_answers },
	{ "reference_against_codec", ref_against_codec },
};

static int print_known(void)
{
	static u8 page[SPARE_EC_PAGE], p[SPARE_EC_PAGE], q[SPARE_EC_PAGE];
	static const u32 seeds[] = { 1, 2, 3 };
	size_t gi, si;

	for (gi = 0; gi < ARRAY_SIZE(ec_geoms); gi++)
		for (si = 0; si < ARRAY_SIZE(seeds); si++) {
			const struct spare_ec_geom *g = &ec_geoms[gi];
			unsigned int len = SPARE_EC_PAGE / g->k;

			ec_fill(page, SPARE_EC_PAGE, seeds[si]);
			ref_parity(page, g->k, p, q);
			printf("\t{ %u, %u, %u, 0x%08x, 0x%08x },\n", g->k, g->r,
			       seeds[si], ec_fnv(p, len), g->r == 2 ? ec_fnv(q, len) : 0);
		}
	return 0;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc == 2 && !strcmp(argv[1], "--print-known"))
		return print_known();
	for (i = 0; i < ARRAY_SIZE(spare_ec_cases) + ARRAY_SIZE(ec_host_cases); i++) {
		const struct spare_ec_case *c = i < ARRAY_SIZE(spare_ec_cases) ?
			&spare_ec_cases[i] : &ec_host_cases[i - ARRAY_SIZE(spare_ec_cases)];

		tap_case_failed = 0;
		c->run(0);
		tap_n++;
		printf("%sok %d - %s\n", tap_case_failed ? "not " : "", tap_n, c->name);
		fflush(stdout);
		tap_failed += tap_case_failed;
	}
	return tap_done();
}
