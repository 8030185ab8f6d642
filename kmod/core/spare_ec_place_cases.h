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

#include <linux/string.h>

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

/* The split slabs each of @nd donors holds in @place (@total entries). */
static void ecpl_load(const u16 *place, u32 total, u32 nd, u32 *load)
{
	u32 i;

	for (i = 0; i < nd; i++)
		load[i] = 0;
	for (i = 0; i < total; i++)
		load[place[i]]++;
}

/* Group @grp's donors in @place, as u32 for spare_ec_rehome_pick(). */
static void ecpl_group(const u16 *place, u32 grp, u32 n, u32 *group)
{
	u32 j;

	for (j = 0; j < n; j++)
		group[j] = place[grp * n + j];
}

/*
 * Re-home (spare_ec_rehome_pick()): 4+2 over 7 donors, the rig's device
 * (3 groups, group g on donors g..g+5). Donor 4 holds a split of every
 * group (0's split 4, 1's split 3, 2's split 2) and stays down: each goes
 * to the one donor its group does not use, never to a donor of the group.
 */
static void ecpl_rehome(ECPL_T t)
{
	struct spare_ec_geom g = { .k = 4, .r = 2 };
	u32 ok = 0x7f & ~(1U << 4), load[8], group[SPARE_EC_MAX_SPLITS];
	u16 place[ECPL_MAX];
	int d;

	ECPL_EQ(t, spare_ec_place(&g, 3, 7, NULL, place), 0);
	ecpl_load(place, 18, 7, load);
	ecpl_group(place, 0, 6, group);
	ECPL_EQ(t, spare_ec_rehome_pick(&g, 7, NULL, group, 4, 0, ok, load), 6);
	ecpl_group(place, 1, 6, group);
	d = spare_ec_rehome_pick(&g, 7, NULL, group, 3, 0, ok, load);
	ECPL_EQ(t, d, 0);
	ecpl_group(place, 2, 6, group);
	ECPL_EQ(t, spare_ec_rehome_pick(&g, 7, NULL, group, 2, 0, ok, load), 1);
	/* the one free donor not allowed (the evictor, or down): none */
	ECPL_EQ(t, spare_ec_rehome_pick(&g, 7, NULL, group, 2, 0, ok & ~2U,
					load), -ENOENT);
	/* K + R donors for K + R splits: nowhere to go */
	ECPL_EQ(t, spare_ec_place(&g, 1, 6, NULL, place), 0);
	ecpl_group(place, 0, 6, group);
	ECPL_EQ(t, spare_ec_rehome_pick(&g, 6, NULL, group, 1, 0, 0x3d, NULL),
		-ENOENT);
	/* its own donor back (the pager's re-map of a lost split): taken */
	ECPL_EQ(t, spare_ec_rehome_pick(&g, 6, NULL, group, 1, 0, 0x3f, NULL),
		1);
	/*
	 * ... before a donor holding fewer split slabs: 7 donors, group on
	 * 0-5, split 1's donor back and live with 3 split slabs, donor 6
	 * with none. Were donor 6 picked, the group would leave its place
	 * (in the rig a later loss of donor 6 then took a third split).
	 */
	load[0] = 3; load[1] = 3; load[2] = 3; load[3] = 3; load[4] = 3;
	load[5] = 3; load[6] = 0;
	ECPL_EQ(t, spare_ec_rehome_pick(&g, 7, NULL, group, 1, 0, 0x7f, load),
		1);
	/* its own donor not allowed (down, or the evictor): by load */
	ECPL_EQ(t, spare_ec_rehome_pick(&g, 7, NULL, group, 1, 0, 0x7d, load),
		6);
}

/*
 * Two splits of a group gone with their donors (0 and 1 down, 7 donors,
 * group on 0-5): the first re-homed takes donor 6, the one left; the
 * second then finds none (donor 6 holds a split of the group now). A gone
 * split's donor is free for the others: donor 1, were it live, could take
 * split 0.
 */
static void ecpl_rehome_gone(ECPL_T t)
{
	struct spare_ec_geom g = { .k = 4, .r = 2 };
	u32 group[SPARE_EC_MAX_SPLITS] = { 0, 1, 2, 3, 4, 5 };
	u32 ok = 0x7c;

	ECPL_EQ(t, spare_ec_rehome_pick(&g, 7, NULL, group, 0, 1U << 1, ok,
					NULL), 6);
	group[0] = 6;
	ECPL_EQ(t, spare_ec_rehome_pick(&g, 7, NULL, group, 1, 0, ok, NULL),
		-ENOENT);
	group[0] = 0;
	ECPL_EQ(t, spare_ec_rehome_pick(&g, 7, NULL, group, 0, 1U << 1,
					ok | 2, NULL), 1);
	/* not gone: donor 1 holds split 1, never taken for split 0 */
	ECPL_EQ(t, spare_ec_rehome_pick(&g, 7, NULL, group, 0, 0, ok | 2,
					NULL), 6);
}

/*
 * Domains: 2+1 over 7 donors in domains 0 0 1 1 2 2 3, a group on donors
 * 0, 2, 4 (domains 0, 1, 2). Donor 2 down: donors 1 and 5 share a domain
 * with a split of the group, so 3 (donor 2's own domain, free now) or 6;
 * the one holding fewer split slabs, the lower index on a tie.
 */
static void ecpl_rehome_domains(ECPL_T t)
{
	struct spare_ec_geom g = { .k = 2, .r = 1 };
	static const u16 dom[] = { 0, 0, 1, 1, 2, 2, 3 };
	static const u16 one[] = { 4, 4, 4, 4, 4, 4, 4 };
	u32 group[SPARE_EC_MAX_SPLITS] = { 0, 2, 4 };
	u32 load[7] = { 1, 0, 1, 2, 1, 0, 1 };
	u32 ok = 0x7f & ~(1U << 2);

	ECPL_EQ(t, spare_ec_rehome_pick(&g, 7, dom, group, 1, 0, ok, load), 6);
	ECPL_EQ(t, spare_ec_rehome_pick(&g, 7, dom, group, 1, 0, ok, NULL), 3);
	ECPL_EQ(t, spare_ec_rehome_pick(&g, 7, dom, group, 1, 0, ok & ~0x48U,
					load), -ENOENT);
	/* one domain (or none): distinct donors are enough, 1 or 5 (load 0) */
	ECPL_EQ(t, spare_ec_rehome_pick(&g, 7, one, group, 1, 0, ok, load), 1);
	ECPL_EQ(t, spare_ec_rehome_pick(&g, 7, NULL, group, 1, 0, ok, load), 1);
}

static void ecpl_rehome_bad(ECPL_T t)
{
	struct spare_ec_geom g = { .k = 4, .r = 2 };
	struct spare_ec_geom bad_g = { .k = 3, .r = 1 };
	u32 group[SPARE_EC_MAX_SPLITS] = { 0, 1, 2, 3, 4, 5 };

	ECPL_EQ(t, spare_ec_rehome_pick(&g, 7, NULL, group, 6, 0, 0x7f, NULL),
		-EINVAL);
	ECPL_EQ(t, spare_ec_rehome_pick(&bad_g, 7, NULL, group, 0, 0, 0x7f,
					NULL), -EINVAL);
	ECPL_EQ(t, spare_ec_rehome_pick(&g, 33, NULL, group, 0, 0, 0x7f, NULL),
		-EINVAL);
	/* a donor past nr_donors in @ok is no candidate */
	ECPL_EQ(t, spare_ec_rehome_pick(&g, 6, NULL, group, 0, 0, 0x40, NULL),
		-ENOENT);
}

/*
 * Re-home under grants (spare_ec_rehome_pick_granted()): 4+2 over 8
 * donors, group 1 on donors 1-6, donor 4 down: donors 0 and 7 fit its
 * split 3. Donor 0 holds fewer split slabs, so the plain pick takes it;
 * under grants a donor with room comes first (7 when only 7 has room),
 * a granted donor without room next (reported, *roomy false), and never
 * one the device holds no grant for (-ENOSPC when only such donors fit).
 */
static void ecpl_rehome_granted(ECPL_T t)
{
	struct spare_ec_geom g = { .k = 4, .r = 2 };
	u32 group[SPARE_EC_MAX_SPLITS] = { 1, 2, 3, 4, 5, 6 };
	u32 held[8] = { 1, 3, 3, 3, 3, 3, 3, 2 }, cover[8];
	u32 ok = 0xff & ~(1U << 4), d;
	bool roomy;

	for (d = 0; d < 8; d++)
		cover[d] = held[d];	/* every grant used up */
	ECPL_EQ(t, spare_ec_rehome_pick_granted(&g, 8, NULL, group, 3, 0, ok,
						held, NULL, &roomy), 0);
	ECPL_CHECK(t, roomy);
	cover[7] = 3;			/* room on donor 7 only */
	ECPL_EQ(t, spare_ec_rehome_pick_granted(&g, 8, NULL, group, 3, 0, ok,
						held, cover, &roomy), 7);
	ECPL_CHECK(t, roomy);
	cover[7] = 2;			/* no room anywhere: the fewest held */
	ECPL_EQ(t, spare_ec_rehome_pick_granted(&g, 8, NULL, group, 3, 0, ok,
						held, cover, &roomy), 0);
	ECPL_CHECK(t, !roomy);
	cover[0] = 0;			/* no grant on donor 0: never there */
	ECPL_EQ(t, spare_ec_rehome_pick_granted(&g, 8, NULL, group, 3, 0, ok,
						held, cover, &roomy), 7);
	ECPL_CHECK(t, !roomy);
	cover[2] = 9;			/* room on a donor of the group: no use */
	cover[7] = 0;
	ECPL_EQ(t, spare_ec_rehome_pick_granted(&g, 8, NULL, group, 3, 0, ok,
						held, cover, &roomy), -ENOSPC);
	/* no donor fits at all: -ENOENT, grants or not */
	ECPL_EQ(t, spare_ec_rehome_pick_granted(&g, 8, NULL, group, 3, 0,
						ok & ~0x81U, held, cover,
						&roomy), -ENOENT);
	/* grants without the load they are checked against */
	ECPL_EQ(t, spare_ec_rehome_pick_granted(&g, 8, NULL, group, 3, 0, ok,
						NULL, cover, &roomy), -EINVAL);
}

/*
 * A lost split waits for a donor the device lacks (spare_ec_wait_donor()):
 * under grants, when no donor fits (-ENOENT) or only donors without a
 * grant do (-ENOSPC); said once per wait (spare.ko's slab_moving uevent),
 * not on every retry of the re-home work; a new loss of its donor is a new
 * wait. Then the donor a broker gives (appended, granted) is the pick:
 * ec:4+2 over donors 0-5, donor 0 down, donor 6 added with a grant of 2.
 */
static void ecpl_wait_donor(ECPL_T t)
{
	struct spare_ec_geom g = { .k = 4, .r = 2 };
	u32 group[SPARE_EC_MAX_SPLITS] = { 0, 1, 2, 3, 4, 5 };
	u32 held[7] = { 2, 2, 2, 2, 2, 2, 0 }, cover[7] = { 2, 2, 2, 2, 2, 2, 0 };
	u64 w = 0;
	bool roomy;
	int p;

	p = spare_ec_rehome_pick_granted(&g, 6, NULL, group, 0, 0, 0x3e, held,
					 cover, &roomy);
	ECPL_EQ(t, p, -ENOENT);
	ECPL_CHECK(t, spare_ec_wait_donor(&w, p, true, 1000));
	ECPL_CHECK(t, !spare_ec_wait_donor(&w, p, true, 1000));	/* a retry */
	ECPL_CHECK(t, !spare_ec_wait_donor(&w, p, true, 1000));
	/* only a donor without a grant fits (donor 6, live, no grant) */
	p = spare_ec_rehome_pick_granted(&g, 7, NULL, group, 0, 0, 0x7e, held,
					 cover, &roomy);
	ECPL_EQ(t, p, -ENOSPC);
	ECPL_CHECK(t, !spare_ec_wait_donor(&w, p, true, 1000));	/* same wait */
	/* the broker's donor granted: picked, the wait over */
	cover[6] = 2;
	p = spare_ec_rehome_pick_granted(&g, 7, NULL, group, 0, 0, 0x7e, held,
					 cover, &roomy);
	ECPL_EQ(t, p, 6);
	ECPL_CHECK(t, roomy);
	ECPL_CHECK(t, !spare_ec_wait_donor(&w, p, true, 1000));
	ECPL_EQ(t, w, 0);
	/* waits again, and a new loss (down since 5000) is a new wait */
	ECPL_CHECK(t, spare_ec_wait_donor(&w, -ENOSPC, true, 1000));
	ECPL_CHECK(t, spare_ec_wait_donor(&w, -ENOSPC, true, 5000));
	ECPL_CHECK(t, !spare_ec_wait_donor(&w, -ENOSPC, true, 5000));
	/* without grants no broker is asked; nor for bad input */
	w = 0;
	ECPL_CHECK(t, !spare_ec_wait_donor(&w, -ENOENT, false, 1000));
	ECPL_CHECK(t, !spare_ec_wait_donor(&w, -EINVAL, true, 1000));
	ECPL_EQ(t, w, 0);
}

/*
 * A line of the list of what waits for a donor (spare_moving_line()):
 * spare.ko's sysfs "moving" and spare-ublk's NAME.moving, parsed by
 * sparectl's dev_parse_moving(); cut short, as snprintf(), in a small
 * buffer.
 */
static void ecpl_moving_line(ECPL_T t)
{
	static const char want[] = "1 13 0 10.0.0.2:18515\n";
	char buf[96];

	ECPL_EQ(t, SPARE_MOVING_VERSION, 1);
	ECPL_EQ(t, spare_moving_line(buf, sizeof(buf), 13, 0, "10.0.0.2:18515"),
		sizeof(want) - 1);
	ECPL_CHECK(t, !strcmp(buf, want));
	ECPL_EQ(t, spare_moving_line(buf, sizeof(buf), U32_MAX, 31,
				     "[fd00::2]:18515"),
		strlen("1 4294967295 31 [fd00::2]:18515\n"));
	ECPL_CHECK(t, !strcmp(buf, "1 4294967295 31 [fd00::2]:18515\n"));
	/* too small: cut, the length it wanted said */
	ECPL_EQ(t, spare_moving_line(buf, 8, 13, 0, "10.0.0.2:18515"),
		sizeof(want) - 1);
	ECPL_CHECK(t, !strcmp(buf, "1 13 0 "));
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
	{ "rehome_to_the_free_donor", ecpl_rehome },
	{ "rehome_gone_splits", ecpl_rehome_gone },
	{ "rehome_domains_and_load", ecpl_rehome_domains },
	{ "rehome_bad_input", ecpl_rehome_bad },
	{ "rehome_under_grants", ecpl_rehome_granted },
	{ "rehome_waits_for_a_donor", ecpl_wait_donor },
	{ "moving_line", ecpl_moving_line },
};

#endif /* SPARE_EC_PLACE_CASES_H */
