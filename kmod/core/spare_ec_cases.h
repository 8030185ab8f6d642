/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The erasure codec's test cases (spare_ec.c), written once and replayed
 * twice: by KUnit (spare_ec_kunit.c), where the parity and the recovery
 * are the kernel's raid6_pq and xor_blocks, and by the host test
 * tests/unit/test_ec.c, where they are ISA-L. The known answers below
 * (digests of P and Q for seeded pages) are what both must compute: the
 * host test also checks them against a bit-by-bit reference of the field
 * arithmetic it carries itself, so the table is the same bytes from three
 * implementations, and a page one driver encoded is one the other decodes.
 *
 * The includer defines the harness:
 *   EC_T                  the case's argument (struct kunit *, or int)
 *   EC_CHECK(t, cond)     a check that goes on after a failure
 *   EC_EQ(t, a, b)        the same for a == b (as long long)
 *   EC_ALLOC(t, bytes)    zeroed memory, 64-byte aligned, or NULL
 *   EC_FREE(t, p)         gives it back
 */
#ifndef SPARE_EC_CASES_H
#define SPARE_EC_CASES_H

#include "spare_ec.h"

/* Every geometry redundancy=ec:K+R accepts. */
static const struct spare_ec_geom ec_geoms[] = {
	{ 2, 1 }, { 2, 2 }, { 4, 1 }, { 4, 2 }, { 8, 1 }, { 8, 2 },
};

#define EC_SLOT		SPARE_EC_PAGE	/* one buffer per split, aligned */
#define EC_SLOTS	(SPARE_EC_MAX_SPLITS + 2)

/* A seeded page (xorshift32), the same bytes in the kernel and on the host. */
static void ec_fill(u8 *p, u32 len, u32 seed)
{
	u32 x = seed * 2654435761u + 1, i;

	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (u8)(x >> 24);
	}
}

/* FNV-1a, 32 bits: a digest of a split for the known answers. */
static u32 ec_fnv(const u8 *p, u32 len)
{
	u32 h = 2166136261u, i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 16777619u;
	}
	return h;
}

struct ec_known {
	u8 k, r;
	u32 seed;
	u32 p, q;		/* digests of P and Q (q: R = 2 only) */
};

/*
 * P and Q of ec_fill(page, 4096, seed), split K ways, as the host test's
 * reference computes them (test_ec --print-known).
 */
static const struct ec_known ec_known_answers[] = {
	{ 2, 1, 1, 0x3956c0f4, 0x00000000 },
	{ 2, 1, 2, 0x86f55060, 0x00000000 },
	{ 2, 1, 3, 0x5e3ee4b6, 0x00000000 },
	{ 2, 2, 1, 0x3956c0f4, 0x2c2e26b2 },
	{ 2, 2, 2, 0x86f55060, 0x912945af },
	{ 2, 2, 3, 0x5e3ee4b6, 0x4b2e9a1b },
	{ 4, 1, 1, 0xc91c1bf8, 0x00000000 },
	{ 4, 1, 2, 0xaafbbba4, 0x00000000 },
	{ 4, 1, 3, 0x91ef929e, 0x00000000 },
	{ 4, 2, 1, 0xc91c1bf8, 0x1734de8d },
	{ 4, 2, 2, 0xaafbbba4, 0x8f6b868e },
	{ 4, 2, 3, 0x91ef929e, 0x05b68dc8 },
	{ 8, 1, 1, 0x8314c9b4, 0x00000000 },
	{ 8, 1, 2, 0xb9b0d15c, 0x00000000 },
	{ 8, 1, 3, 0x05d56682, 0x00000000 },
	{ 8, 2, 1, 0x8314c9b4, 0x201c35d8 },
	{ 8, 2, 2, 0xb9b0d15c, 0xcff0b532 },
	{ 8, 2, 3, 0x05d56682, 0xd358f741 },
};

static int ec_parse_str(const char *s, struct spare_ec_geom *g,
			const char **why)
{
	return spare_ec_parse(s, strlen(s), g, why);
}

/* The values the option takes, and its spelling back. */
static void ec_parse_good(EC_T t)
{
	static const struct {
		const char *in, *out;
		u8 k, r;
	} good[] = {
		{ "none", "none", 0, 0 }, { "none\n", "none", 0, 0 },
		{ "ec:2+1", "ec:2+1", 2, 1 }, { "ec:2+2", "ec:2+2", 2, 2 },
		{ "ec:4+1", "ec:4+1", 4, 1 }, { "ec:4+2\n", "ec:4+2", 4, 2 },
		{ "ec:8+1", "ec:8+1", 8, 1 }, { "ec:8+2", "ec:8+2", 8, 2 },
	};
	char buf[SPARE_EC_NAME_MAX];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		struct spare_ec_geom g = { 9, 9 };
		const char *why = NULL;

		EC_EQ(t, ec_parse_str(good[i].in, &g, &why), 0);
		EC_EQ(t, g.k, good[i].k);
		EC_EQ(t, g.r, good[i].r);
		EC_CHECK(t, !why);
		EC_EQ(t, spare_ec_format(&g, buf, sizeof(buf)),
		      strlen(good[i].out));
		EC_CHECK(t, !strcmp(buf, good[i].out));
	}
}

/* Bad values are refused with the reason, the setting left as it was. */
static void ec_parse_bad(EC_T t)
{
	static const struct {
		const char *in, *reason;
	} bad[] = {
		{ "ec:3+5", "K (data" }, { "ec:3+1", "K (data" },
		{ "ec:0+2", "K (data" }, { "ec:6+2", "K (data" },
		{ "ec:4+0", "R (parity" }, { "ec:4+3", "R (parity" },
		{ "ec:8+9", "R (parity" },
		{ "garbage", "ec:K+R" }, { "", "ec:K+R" }, { "\n", "ec:K+R" },
		{ "ec:16+2", "ec:K+R" }, { "ec:4+2x", "ec:K+R" },
		{ "ec:4+2\n\n", "ec:K+R" }, { "EC:4+2", "ec:K+R" },
		{ "ec:+2", "ec:K+R" }, { "ec:4-2", "ec:K+R" },
		{ "ec:4+", "ec:K+R" }, { "nonex", "ec:K+R" },
		{ "replicas=2", "ec:K+R" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct spare_ec_geom g = { 4, 2 };
		const char *why = NULL;

		EC_EQ(t, ec_parse_str(bad[i].in, &g, &why), -EINVAL);
		EC_EQ(t, g.k, 4);
		EC_EQ(t, g.r, 2);
		EC_CHECK(t, why && strstr(why, bad[i].reason));
	}
}

/* Power-on: K + R distinct donors and domains, no whole-page copies. */
static void ec_check_settings(EC_T t)
{
	struct spare_ec_geom none = { 0, 0 }, g42 = { 4, 2 }, g21 = { 2, 1 };
	struct spare_ec_geom odd = { 3, 5 };
	char why[160];

	EC_EQ(t, spare_ec_check(&none, 3, 1, 0, why, sizeof(why)), 0);
	EC_EQ(t, spare_ec_check(&g42, 1, 6, 0, why, sizeof(why)), 0);
	EC_EQ(t, spare_ec_check(&g42, 1, 8, 6, why, sizeof(why)), 0);
	EC_EQ(t, spare_ec_check(&g21, 1, 3, 3, why, sizeof(why)), 0);
	/* every donor in one domain (a broker's "default"): as none */
	EC_EQ(t, spare_ec_check(&g42, 1, 6, 1, why, sizeof(why)), 0);

	EC_EQ(t, spare_ec_check(&g42, 1, 5, 0, why, sizeof(why)), -EINVAL);
	EC_CHECK(t, strstr(why, "needs 6 distinct donors, the device has 5 (1 missing)"));
	EC_EQ(t, spare_ec_check(&g42, 1, 2, 0, why, sizeof(why)), -EINVAL);
	EC_CHECK(t, strstr(why, "(4 missing)"));
	EC_EQ(t, spare_ec_check(&g42, 1, 8, 3, why, sizeof(why)), -EINVAL);
	EC_CHECK(t, strstr(why, "needs 6 distinct failure domains, the device's donors are in 3 (3 missing)"));
	EC_EQ(t, spare_ec_check(&g42, 2, 8, 0, why, sizeof(why)), -EINVAL);
	EC_CHECK(t, strstr(why, "replicas=2 both set"));
	EC_EQ(t, spare_ec_check(&odd, 1, 10, 0, why, sizeof(why)), -EINVAL);
	EC_CHECK(t, strstr(why, "not a valid geometry"));
}

/* Every parity split of every known answer, computed here. */
static void ec_known_parity(EC_T t)
{
	u8 *buf = EC_ALLOC(t, 3 * EC_SLOT);
	unsigned int i;

	EC_CHECK(t, buf);
	if (!buf)
		return;
	for (i = 0; i < ARRAY_SIZE(ec_known_answers); i++) {
		const struct ec_known *c = &ec_known_answers[i];
		struct spare_ec_geom g = { c->k, c->r };
		void *parity[2] = { buf + EC_SLOT, buf + 2 * EC_SLOT };
		u32 len = spare_ec_split_bytes(&g);

		ec_fill(buf, SPARE_EC_PAGE, c->seed);
		EC_EQ(t, spare_ec_encode(&g, buf, parity), 0);
		EC_EQ(t, ec_fnv(parity[0], len), c->p);
		if (c->r == 2)
			EC_EQ(t, ec_fnv(parity[1], len), c->q);
	}
	EC_FREE(t, buf);
}

/*
 * The splits of a seeded page in separate buffers (slots 0..K+R), the
 * expected bytes of each in slots of @want; @mask's splits spoiled.
 */
static void ec_lay_out(const struct spare_ec_geom *g, u8 *page, u8 *want,
		       void **splits, unsigned long mask, u32 seed)
{
	u32 len = spare_ec_split_bytes(g), n = spare_ec_splits(g), i;
	void *parity[SPARE_EC_MAX_R];

	ec_fill(page, SPARE_EC_PAGE, seed);
	for (i = 0; i < g->r; i++)
		parity[i] = want + (g->k + i) * EC_SLOT;
	spare_ec_encode(g, page, parity);
	for (i = 0; i < g->k; i++)
		memcpy(want + i * EC_SLOT, page + i * len, len);
	for (i = 0; i < n; i++) {
		memcpy(splits[i], want + i * EC_SLOT, len);
		if (mask & (1UL << i))
			memset(splits[i], 0xa5, len);
	}
}

/*
 * Every pattern of up to R missing splits, data and parity, rebuilt
 * exactly; every pattern of R + 1 refused with -EIO, nothing written.
 */
static void ec_recover_patterns(EC_T t)
{
	u8 *page = EC_ALLOC(t, EC_SLOT);
	u8 *want = EC_ALLOC(t, EC_SLOTS * EC_SLOT);
	u8 *slots = EC_ALLOC(t, EC_SLOTS * EC_SLOT);
	unsigned int gi, tried = 0, refused = 0;

	EC_CHECK(t, page && want && slots);
	if (!page || !want || !slots)
		goto out;
	for (gi = 0; gi < ARRAY_SIZE(ec_geoms); gi++) {
		const struct spare_ec_geom *g = &ec_geoms[gi];
		u32 len = spare_ec_split_bytes(g), n = spare_ec_splits(g), i;
		void *splits[SPARE_EC_MAX_SPLITS];
		unsigned long mask;

		for (i = 0; i < n; i++)
			splits[i] = slots + i * EC_SLOT;
		for (mask = 0; mask < (1UL << n); mask++) {
			u32 lost = hweight32((u32)mask);
			int ret;

			if (lost > g->r + 1u)
				continue;
			ec_lay_out(g, page, want, splits, mask, 7 + mask);
			ret = spare_ec_recover(g, splits, mask);
			for (i = 0; i < n; i++) {
				const u8 *s = splits[i];
				bool same = !memcmp(s, want + i * EC_SLOT, len);

				if (lost <= g->r)
					EC_CHECK(t, same);
				else if (mask & (1UL << i))	/* untouched */
					EC_CHECK(t, s[0] == 0xa5 && s[len - 1] == 0xa5 &&
						 !memcmp(s, s + 1, len - 1));
				else
					EC_CHECK(t, same);
			}
			EC_EQ(t, ret, lost <= g->r ? 0 : -EIO);
			tried++;
			refused += lost > g->r;
		}
	}
	/* sum over the geometries of C(n, 0..R+1) patterns, R + 1 of them refused */
	EC_EQ(t, tried, 7 + 15 + 16 + 42 + 46 + 176);
	EC_EQ(t, refused, 3 + 4 + 10 + 20 + 36 + 120);
out:
	EC_FREE(t, slots);
	EC_FREE(t, want);
	EC_FREE(t, page);
}

/* Bad calls: a geometry the option never gives, a bit beyond K + R. */
static void ec_bad_calls(EC_T t)
{
	struct spare_ec_geom g42 = { 4, 2 }, g31 = { 3, 1 }, none = { 0, 0 };
	u8 *buf = EC_ALLOC(t, EC_SLOTS * EC_SLOT);
	void *splits[SPARE_EC_MAX_SPLITS];
	unsigned int i;

	EC_CHECK(t, buf);
	if (!buf)
		return;
	for (i = 0; i < SPARE_EC_MAX_SPLITS; i++)
		splits[i] = buf + i * EC_SLOT;
	EC_EQ(t, spare_ec_encode(&g31, buf, splits + 4), -EINVAL);
	EC_EQ(t, spare_ec_encode(&none, buf, splits + 4), -EINVAL);
	EC_EQ(t, spare_ec_recover(&g31, splits, 1), -EINVAL);
	EC_EQ(t, spare_ec_recover(&g42, splits, 1UL << 6), -EINVAL);
	EC_EQ(t, spare_ec_recover(&g42, splits, 0), 0);
	EC_FREE(t, buf);
}

struct spare_ec_case {
	const char *name;
	void (*run)(EC_T t);
};

static const struct spare_ec_case spare_ec_cases[] = {
	{ "parse_good", ec_parse_good },
	{ "parse_bad", ec_parse_bad },
	{ "check_settings", ec_check_settings },
	{ "known_parity", ec_known_parity },
	{ "recover_patterns", ec_recover_patterns },
	{ "bad_calls", ec_bad_calls },
};

#endif /* SPARE_EC_CASES_H */
