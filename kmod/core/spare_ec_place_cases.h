/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test cases of the split table's placement (spare_ec_place.c), written
 * once and replayed by KUnit (spare_ec_place_kunit.c) and by the host test
 * tests/unit/test_ec_place.c.
 *
 * The includer defines the harness:
 *   ECPL_T                  the case's argument (struct kunit *, or int)
 *   ECPL_CHECK(t, cond)     a check that goes on after a failure
 *   ECPL_EQ(t, a, b)        the same for a == b (as long long)
 * and runs every case of spare_ec_place_cases[].
 */
#ifndef SPARE_EC_PLACE_CASES_H
#define SPARE_EC_PLACE_CASES_H

#include "spare_ec_place.h"

#define ECPL_MAX	(8 * SPARE_EC_MAX_SPLITS)

/* Whether group @grp of @place has its @n splits on distinct donors. */
static bool ecpl_distinct(const u16 *place, u32 grp, u32 n)
{
	u32 i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			if (place[grp * n + i] == place[grp * n + j])
				return false;
	return true;
}

static void ecpl_groups(ECPL_T t)
{
	struct spare_ec_geom g42 = { .k = 4, .r = 2 };
	struct spare_ec_geom g82 = { .k = 8, .r = 2 };

	/* 96 MiB in 8 MiB split slabs: 3 groups of 32 MiB */
	ECPL_EQ(t, spare_ec_nr_groups(&g42, 96ULL << 20, 23), 3);
	/* a partial group counts */
	ECPL_EQ(t, spare_ec_nr_groups(&g42, (96ULL << 20) + 4096, 23), 4);
	ECPL_EQ(t, spare_ec_nr_groups(&g82, 1ULL << 30, 26), 2);
}

/* 4+2 over 7 donors: group g on donors g..g+5 mod 7, as the pager does. */
static void ecpl_round_robin(ECPL_T t)
{
	struct spare_ec_geom g = { .k = 4, .r = 2 };
	u16 place[ECPL_MAX];
	u32 grp, j, bad;

	ECPL_EQ(t, spare_ec_place(&g, 3, 7, NULL, place), 0);
	for (grp = 0; grp < 3; grp++) {
		ECPL_CHECK(t, ecpl_distinct(place, grp, 6));
		for (j = 0; j < 6; j++)
			ECPL_EQ(t, place[grp * 6 + j], (grp + j) % 7);
	}
	ECPL_EQ(t, spare_ec_place_check(&g, 3, 7, NULL, place, 18, &bad), 0);
	/* exactly K + R donors: every group on all of them */
	ECPL_EQ(t, spare_ec_place(&g, 4, 6, NULL, place), 0);
	for (grp = 0; grp < 4; grp++)
		ECPL_CHECK(t, ecpl_distinct(place, grp, 6));
}

static void ecpl_too_few(ECPL_T t)
{
	struct spare_ec_geom g = { .k = 4, .r = 2 };
	struct spare_ec_geom bad_g = { .k = 3, .r = 1 };
	u16 place[ECPL_MAX];

	ECPL_EQ(t, spare_ec_place(&g, 2, 5, NULL, place), -EINVAL);
	ECPL_EQ(t, spare_ec_place(&bad_g, 2, 6, NULL, place), -EINVAL);
	ECPL_EQ(t, spare_ec_place(&g, 2, 0, NULL, place), -EINVAL);
}

/* Donors in more than one domain: a group's splits in distinct domains. */
static void ecpl_domains(ECPL_T t)
{
	struct spare_ec_geom g = { .k = 2, .r = 1 };
	/* six donors, three domains of two */
	static const u16 dom[] = { 0, 0, 1, 1, 2, 2 };
	static const u16 one[] = { 5, 5, 5, 5, 5, 5 };
	u16 place[ECPL_MAX];
	u32 grp, i, j, bad;

	ECPL_EQ(t, spare_ec_nr_domains(dom, 6), 3);
	ECPL_EQ(t, spare_ec_nr_domains(one, 6), 1);
	ECPL_EQ(t, spare_ec_nr_domains(NULL, 6), 0);
	ECPL_EQ(t, spare_ec_place(&g, 6, 6, dom, place), 0);
	for (grp = 0; grp < 6; grp++)
		for (i = 0; i < 3; i++)
			for (j = 0; j < i; j++)
				ECPL_CHECK(t, dom[place[grp * 3 + i]] !=
					      dom[place[grp * 3 + j]]);
	ECPL_EQ(t, spare_ec_place_check(&g, 6, 6, dom, place, 18, &bad), 0);
	/* one domain: distinct donors are enough (spared's "default") */
	ECPL_EQ(t, spare_ec_place(&g, 6, 6, one, place), 0);
	ECPL_EQ(t, place[0], 0);
	ECPL_EQ(t, place[1], 1);
	ECPL_EQ(t, place[2], 2);
	/* 4+2 in three domains cannot be placed */
	g.k = 4;
	g.r = 2;
	ECPL_EQ(t, spare_ec_place(&g, 1, 6, dom, place), -EINVAL);
}

/* A placement from configfs: checked group by group. */
static void ecpl_check(ECPL_T t)
{
	struct spare_ec_geom g = { .k = 2, .r = 1 };
	static const u16 dom[] = { 0, 0, 1, 1, 2, 2 };
	static const u16 good[] = { 0, 2, 4, 1, 3, 5 };
	static const u16 twice[] = { 0, 2, 4, 1, 3, 1 };
	static const u16 far[] = { 0, 2, 4, 1, 3, 6 };
	static const u16 samedom[] = { 0, 1, 4, 1, 3, 5 };
	u32 bad = 0;

	ECPL_EQ(t, spare_ec_place_check(&g, 2, 6, dom, good, 6, &bad), 0);
	ECPL_EQ(t, spare_ec_place_check(&g, 2, 6, dom, twice, 6, &bad), -EINVAL);
	ECPL_EQ(t, bad, 1);
	ECPL_EQ(t, spare_ec_place_check(&g, 2, 6, dom, far, 6, &bad), -EINVAL);
	ECPL_EQ(t, bad, 1);
	ECPL_EQ(t, spare_ec_place_check(&g, 2, 6, dom, samedom, 6, &bad),
		-EINVAL);
	ECPL_EQ(t, bad, 0);
	/* the same without domains: donors 0 and 1 are distinct */
	ECPL_EQ(t, spare_ec_place_check(&g, 2, 6, NULL, samedom, 6, &bad), 0);
	ECPL_EQ(t, spare_ec_place_check(&g, 2, 6, dom, good, 5, &bad), -EINVAL);
	ECPL_EQ(t, bad, U32_MAX);
}

struct spare_ec_place_case {
	const char *name;
	void (*run)(ECPL_T t);
};

static const struct spare_ec_place_case spare_ec_place_cases[] = {
	{ "groups_of_a_device", ecpl_groups },
	{ "round_robin_distinct", ecpl_round_robin },
	{ "too_few_donors", ecpl_too_few },
	{ "distinct_domains", ecpl_domains },
	{ "check_given_placement", ecpl_check },
};

#endif /* SPARE_EC_PLACE_CASES_H */
