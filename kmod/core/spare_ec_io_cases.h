/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The erasure-coded I/O path's test cases (spare_ec_io.c), written once and
 * replayed twice: by KUnit (spare_ec_io_kunit.c) and, built for userspace,
 * by the host test tests/unit/test_ec_io.c. The patterns: 0, 1 and 2
 * splits lost for 4+2 and 2+1, a third loss (EIO for those pages only), a
 * write landing on K..K+R splits and on fewer than K, a stale split never
 * chosen, a posted split failing (another posted in its place, or EIO),
 * late splits dropped and counted, Δ = 0, and repairs (marked, spoiled by
 * a write or a loss, a write across a split mapped again).
 *
 * The includer defines the harness:
 *   ECIO_T                  the case's argument (struct kunit *, or int)
 *   ECIO_CHECK(t, cond)     a check that goes on after a failure
 *   ECIO_EQ(t, a, b)        the same for a == b (as long long)
 *   ECIO_ASSERT(t, cond)    a check that ends the case on a failure
 * and runs every case of spare_ec_io_cases[].
 */
#ifndef SPARE_EC_IO_CASES_H
#define SPARE_EC_IO_CASES_H

#include <linux/string.h>

#include "spare_ec_io.h"

#define EC_PAGES	64	/* pages per group in the cases */
#define EC_GROUPS	2

#define EC_B(j)		((u16)(1U << (j)))

static bool ec_setup(struct spare_ec_map *m, u8 k, u8 r, u8 delta)
{
	struct spare_ec_geom g = { .k = k, .r = r };

	return !spare_ec_map_init(m, &g, delta, EC_GROUPS, EC_PAGES);
}

/* A write of [first, first + n) of group @gi landing on @lands; its result. */
static int ec_write(struct spare_ec_map *m, u32 gi, u32 first, u32 n,
		    u16 lands, struct spare_ec_stats *st)
{
	struct spare_ec_group *grp = &m->groups[gi];
	struct spare_ec_write wr;
	u16 posted = spare_ec_write_begin(m, grp, first, n, &wr);
	u32 j;

	for (j = 0; j < spare_ec_splits(&m->g); j++)
		if (posted & EC_B(j))
			spare_ec_write_done(&wr, j, !!(lands & EC_B(j)));
	return spare_ec_write_end(m, grp, &wr, st);
}

/*
 * A read of page @p of group @gi: the splits in @order complete in that
 * order (those in @fail fail); returns the last action before the read
 * was done (or SPARE_EC_WAIT), with what was posted in *@posted.
 */
static enum spare_ec_read_act ec_read(struct spare_ec_map *m, u32 gi, u32 p,
				      const u8 *order, u32 n_order, u16 fail,
				      struct spare_ec_read *rd, u16 *posted,
				      struct spare_ec_stats *st)
{
	enum spare_ec_read_act act = SPARE_EC_WAIT, a;
	u32 i, next;
	u16 post;

	if (spare_ec_read_plan(m, &m->groups[gi], p, 1, rd, &post, st))
		return SPARE_EC_EIO;
	*posted = post;
	for (i = 0; i < n_order; i++) {
		a = spare_ec_read_done(rd, order[i], !(fail & EC_B(order[i])),
				       &next, st);
		if (a == SPARE_EC_POST)
			*posted |= EC_B(next);
		if (a != SPARE_EC_WAIT && a != SPARE_EC_LATE &&
		    a != SPARE_EC_POST)
			act = a;
	}
	return act;
}

static const u8 ec_in_order[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };

/* 4+2, nothing lost: K data splits and P posted (Δ = 1); the data splits
 * first is a copy, no decode; P comes late and is dropped, counted.
 */
static void ecio_42_none_lost(ECIO_T t)
{
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_read rd;
	u16 posted;

	ECIO_ASSERT(t, ec_setup(&m, 4, 2, 1));
	ECIO_EQ(t, ec_write(&m, 0, 3, 1, 0x3f, &st), 0);
	ECIO_EQ(t, ec_read(&m, 0, 3, ec_in_order, 5, 0, &rd, &posted, &st),
		SPARE_EC_COPY);
	ECIO_EQ(t, posted, 0x1f);
	ECIO_EQ(t, st.reads_decoded, 0);
	ECIO_EQ(t, st.late_dropped, 1);
	ECIO_EQ(t, st.writes_short, 0);
	spare_ec_map_free(&m);
}

/* P arrives before the last data split: decode, with that data split and
 * Q missing; the data split that came after is late.
 */
static void ecio_42_parity_first(ECIO_T t)
{
	static const u8 order[] = { 4, 0, 1, 2, 3 };
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_read rd;
	u16 posted;

	ECIO_ASSERT(t, ec_setup(&m, 4, 2, 1));
	ECIO_EQ(t, ec_write(&m, 0, 0, EC_PAGES, 0x3f, &st), 0);
	ECIO_EQ(t, ec_read(&m, 0, 9, order, 5, 0, &rd, &posted, &st),
		SPARE_EC_DECODE);
	ECIO_EQ(t, rd.missing & 0x3f, EC_B(3) | EC_B(5));
	ECIO_EQ(t, st.reads_decoded, 1);
	ECIO_EQ(t, st.late_dropped, 1);
	spare_ec_map_free(&m);
}

/* One split slab lost (its donor gone): it is never posted; the read
 * takes the other data splits, P and Q, and decodes.
 */
static void ecio_42_one_lost(ECIO_T t)
{
	static const u8 order[] = { 0, 2, 3, 4, 5 };
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_read rd;
	u16 posted;

	ECIO_ASSERT(t, ec_setup(&m, 4, 2, 1));
	ECIO_EQ(t, ec_write(&m, 1, 0, EC_PAGES, 0x3f, &st), 0);
	spare_ec_split_lost(&m, &m.groups[1], 1);
	ECIO_CHECK(t, !spare_ec_current(&m, &m.groups[1], 1, 5));
	ECIO_EQ(t, ec_read(&m, 1, 5, order, 5, 0, &rd, &posted, &st),
		SPARE_EC_DECODE);
	ECIO_EQ(t, posted, 0x3d);
	ECIO_EQ(t, rd.missing & 0x3f, EC_B(1) | EC_B(5));
	ECIO_EQ(t, st.late_dropped, 1);
	/* the other group is untouched: a copy */
	ECIO_EQ(t, ec_write(&m, 0, 5, 1, 0x3f, &st), 0);
	ECIO_EQ(t, ec_read(&m, 0, 5, ec_in_order, 4, 0, &rd, &posted, &st),
		SPARE_EC_COPY);
	spare_ec_map_free(&m);
}

/* Two lost at once: the four left are all posted, all needed. */
static void ecio_42_two_lost(ECIO_T t)
{
	static const u8 order[] = { 5, 1, 4, 2 };
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_read rd;
	u16 posted;

	ECIO_ASSERT(t, ec_setup(&m, 4, 2, 1));
	ECIO_EQ(t, ec_write(&m, 0, 0, EC_PAGES, 0x3f, &st), 0);
	spare_ec_split_lost(&m, &m.groups[0], 0);
	spare_ec_split_lost(&m, &m.groups[0], 3);
	ECIO_EQ(t, ec_read(&m, 0, 7, order, 4, 0, &rd, &posted, &st),
		SPARE_EC_DECODE);
	ECIO_EQ(t, posted, EC_B(1) | EC_B(2) | EC_B(4) | EC_B(5));
	ECIO_EQ(t, rd.missing & 0x3f, EC_B(0) | EC_B(3));
	ECIO_EQ(t, st.eio_pages, 0);
	spare_ec_map_free(&m);
}

/* A third loss: the group's pages read as EIO (counted, logged once per
 * group); the other group's pages still read.
 */
static void ecio_42_third_lost(ECIO_T t)
{
	const char *want = "page 7: current 0x2a, lost 0x15, to rebuild 0x15";
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_read rd;
	char buf[96];
	u16 posted;

	ECIO_ASSERT(t, ec_setup(&m, 4, 2, 1));
	ECIO_EQ(t, ec_write(&m, 0, 0, EC_PAGES, 0x3f, &st), 0);
	ECIO_EQ(t, ec_write(&m, 1, 0, EC_PAGES, 0x3f, &st), 0);
	spare_ec_split_lost(&m, &m.groups[0], 0);
	spare_ec_split_lost(&m, &m.groups[0], 4);
	spare_ec_split_lost(&m, &m.groups[0], 2);
	ECIO_EQ(t, ec_read(&m, 0, 7, ec_in_order, 6, 0, &rd, &posted, &st),
		SPARE_EC_EIO);
	ECIO_CHECK(t, rd.done);
	ECIO_EQ(t, st.eio_pages, 1);
	ECIO_CHECK(t, spare_ec_eio_first(&m.groups[0]));
	ECIO_CHECK(t, !spare_ec_eio_first(&m.groups[0]));
	/* the log line's split states: the first page short of K */
	ECIO_EQ(t, spare_ec_eio_states(buf, sizeof(buf), &m, &m.groups[0], 7,
				       1), strlen(want));
	ECIO_CHECK(t, !strcmp(buf, want));
	ECIO_EQ(t, ec_read(&m, 1, 7, ec_in_order, 5, 0, &rd, &posted, &st),
		SPARE_EC_COPY);
	ECIO_EQ(t, st.eio_pages, 1);
	/* a write to a page of the broken group lands on 3 splits: EIO */
	ECIO_EQ(t, ec_write(&m, 0, 7, 1, 0x3f, &st), -EIO);
	ECIO_EQ(t, st.eio_pages, 2);
	/* page 9 written short of K, page 8 whole: page 9 is named */
	ECIO_EQ(t, ec_write(&m, 0, 9, 1, 0x0a, &st), -EIO);
	spare_ec_split_mapped(&m, &m.groups[0], 2);
	ECIO_EQ(t, ec_write(&m, 0, 8, 1, 0x3e, &st), 0);
	spare_ec_eio_states(buf, sizeof(buf), &m, &m.groups[0], 8, 2);
	ECIO_CHECK(t, !strcmp(buf, "page 9: current 0x00, lost 0x11, to rebuild 0x35"));
	spare_ec_map_free(&m);
}

/* 2+1: nothing lost, one lost (decode from P), two lost (EIO). */
static void ecio_21_patterns(ECIO_T t)
{
	static const u8 order_p[] = { 0, 2 };
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_read rd;
	u16 posted;

	ECIO_ASSERT(t, ec_setup(&m, 2, 1, 1));
	ECIO_EQ(t, ec_write(&m, 0, 0, 8, 0x7, &st), 0);
	ECIO_EQ(t, ec_read(&m, 0, 2, ec_in_order, 3, 0, &rd, &posted, &st),
		SPARE_EC_COPY);
	ECIO_EQ(t, posted, 0x7);
	ECIO_EQ(t, st.late_dropped, 1);
	spare_ec_split_lost(&m, &m.groups[0], 1);
	ECIO_EQ(t, ec_read(&m, 0, 2, order_p, 2, 0, &rd, &posted, &st),
		SPARE_EC_DECODE);
	ECIO_EQ(t, posted, EC_B(0) | EC_B(2));
	ECIO_EQ(t, rd.missing & 0x7, EC_B(1));
	spare_ec_split_lost(&m, &m.groups[0], 0);
	ECIO_EQ(t, ec_read(&m, 0, 2, ec_in_order, 3, 0, &rd, &posted, &st),
		SPARE_EC_EIO);
	ECIO_EQ(t, st.eio_pages, 1);
	spare_ec_map_free(&m);
}

/* Writes landing on K, K+1 and K+R splits are readable, short ones
 * counted and their missing splits queued for repair; on K-1 splits:
 * EIO, and not even the splits that landed are current.
 */
static void ecio_write_landing(ECIO_T t)
{
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_read rd;
	u16 posted;
	u32 j;

	ECIO_ASSERT(t, ec_setup(&m, 4, 2, 1));
	ECIO_EQ(t, ec_write(&m, 0, 0, 1, 0x3f, &st), 0);
	ECIO_EQ(t, ec_write(&m, 0, 1, 1, 0x3e, &st), 0);	/* K+1 */
	ECIO_EQ(t, ec_write(&m, 0, 2, 1, 0x3c, &st), 0);	/* K */
	ECIO_EQ(t, st.writes_short, 2);
	ECIO_EQ(t, m.groups[0].repair, EC_B(0) | EC_B(1));
	ECIO_EQ(t, spare_ec_readable(&m, &m.groups[0], 0, 1), 0x3f);
	ECIO_EQ(t, spare_ec_readable(&m, &m.groups[0], 1, 1), 0x3e);
	ECIO_EQ(t, spare_ec_readable(&m, &m.groups[0], 2, 1), 0x3c);
	ECIO_EQ(t, ec_read(&m, 0, 2, ec_in_order + 2, 4, 0, &rd, &posted,
			   &st), SPARE_EC_DECODE);
	ECIO_EQ(t, posted, 0x3c);
	/* K-1 landed: EIO, nothing current, page 3 unreadable */
	ECIO_EQ(t, ec_write(&m, 0, 3, 1, 0x38, &st), -EIO);
	for (j = 0; j < 6; j++)
		ECIO_CHECK(t, !spare_ec_current(&m, &m.groups[0], j, 3));
	ECIO_EQ(t, st.eio_pages, 1);
	ECIO_EQ(t, ec_read(&m, 0, 3, ec_in_order, 6, 0, &rd, &posted, &st),
		SPARE_EC_EIO);
	/* an old page overwritten by a write that failed is not readable */
	ECIO_EQ(t, ec_write(&m, 0, 0, 1, 0x01, &st), -EIO);
	ECIO_EQ(t, spare_ec_readable(&m, &m.groups[0], 0, 1), 0);
	spare_ec_map_free(&m);
}

/* A split that missed the last write holds the old bytes: it is never
 * posted, even when every other split is (Δ = R).
 */
static void ecio_stale_never_chosen(ECIO_T t)
{
	static const u8 order[] = { 1, 2, 3, 4, 5 };
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_read rd;
	u16 posted;

	ECIO_ASSERT(t, ec_setup(&m, 4, 2, 2));
	ECIO_EQ(t, ec_write(&m, 0, 10, 4, 0x3f, &st), 0);
	ECIO_EQ(t, ec_write(&m, 0, 11, 2, 0x3e, &st), 0);	/* 0 missed */
	ECIO_EQ(t, ec_read(&m, 0, 11, order, 5, 0, &rd, &posted, &st),
		SPARE_EC_DECODE);
	ECIO_CHECK(t, !(posted & EC_B(0)));
	ECIO_EQ(t, posted, 0x3e);
	/* a range over a stale page excludes split 0 for all of it */
	ECIO_EQ(t, spare_ec_readable(&m, &m.groups[0], 10, 4), 0x3e);
	ECIO_EQ(t, spare_ec_readable(&m, &m.groups[0], 13, 1), 0x3f);
	spare_ec_map_free(&m);
}

/* A posted split fails: the next readable one is posted in its place;
 * with none left and fewer than K able to come: EIO.
 */
static void ecio_read_fail_redrive(ECIO_T t)
{
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_read rd;
	u32 next = 99;
	u16 post;

	ECIO_ASSERT(t, ec_setup(&m, 4, 2, 1));
	ECIO_EQ(t, ec_write(&m, 0, 0, 1, 0x3f, &st), 0);
	ECIO_EQ(t, spare_ec_read_plan(&m, &m.groups[0], 0, 1, &rd, &post, &st),
		0);
	ECIO_EQ(t, post, 0x1f);
	ECIO_EQ(t, spare_ec_read_done(&rd, 1, false, &next, &st),
		SPARE_EC_POST);
	ECIO_EQ(t, next, 5);
	ECIO_EQ(t, spare_ec_read_done(&rd, 0, true, &next, &st), SPARE_EC_WAIT);
	/* a second failure: four still able to come (0 in, 2 3 4 5) */
	ECIO_EQ(t, spare_ec_read_done(&rd, 2, false, &next, &st),
		SPARE_EC_WAIT);
	/* a third: 0 in, 3 4 5 out: still four */
	ECIO_EQ(t, spare_ec_read_done(&rd, 3, true, &next, &st), SPARE_EC_WAIT);
	ECIO_EQ(t, spare_ec_read_done(&rd, 5, false, &next, &st),
		SPARE_EC_EIO);
	ECIO_EQ(t, st.eio_pages, 1);
	/* the last one, late: dropped and counted, nothing else */
	ECIO_EQ(t, spare_ec_read_done(&rd, 4, true, &next, &st), SPARE_EC_LATE);
	ECIO_EQ(t, st.late_dropped, 1);
	ECIO_EQ(t, st.reads_decoded, 0);
	/* a completion twice, or of a split never posted, is ignored */
	ECIO_EQ(t, spare_ec_read_done(&rd, 4, true, &next, &st), SPARE_EC_WAIT);
	ECIO_EQ(t, st.late_dropped, 1);
	spare_ec_map_free(&m);
}

/* Δ = 0: exactly the K data splits; one fails: P in its place, decode. */
static void ecio_delta_zero(ECIO_T t)
{
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_read rd;
	u32 next = 99;
	u16 post;

	ECIO_ASSERT(t, ec_setup(&m, 4, 2, 0));
	ECIO_EQ(t, ec_write(&m, 0, 0, 1, 0x3f, &st), 0);
	ECIO_EQ(t, spare_ec_read_plan(&m, &m.groups[0], 0, 1, &rd, &post, &st),
		0);
	ECIO_EQ(t, post, 0x0f);
	ECIO_EQ(t, spare_ec_read_done(&rd, 3, false, &next, &st),
		SPARE_EC_POST);
	ECIO_EQ(t, next, 4);
	ECIO_EQ(t, spare_ec_read_done(&rd, 0, true, &next, &st), SPARE_EC_WAIT);
	ECIO_EQ(t, spare_ec_read_done(&rd, 1, true, &next, &st), SPARE_EC_WAIT);
	ECIO_EQ(t, spare_ec_read_done(&rd, 4, true, &next, &st), SPARE_EC_WAIT);
	ECIO_EQ(t, spare_ec_read_done(&rd, 2, true, &next, &st),
		SPARE_EC_DECODE);
	ECIO_EQ(t, rd.missing & 0x3f, EC_B(3) | EC_B(5));
	ECIO_EQ(t, st.late_dropped, 0);
	/* Δ above R is refused */
	spare_ec_map_free(&m);
	{
		struct spare_ec_geom g = { .k = 4, .r = 2 };
		struct spare_ec_geom bad = { .k = 3, .r = 2 };

		ECIO_EQ(t, spare_ec_map_init(&m, &g, 3, 1, 8), -EINVAL);
		ECIO_EQ(t, spare_ec_map_init(&m, &bad, 1, 1, 8), -EINVAL);
	}
}

/* A lost split mapped again is rebuilt from K others and marked; pages
 * with fewer than K current splits (never written) are skipped.
 */
static void ecio_repair(ECIO_T t)
{
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_repair rep;
	struct spare_ec_group *grp;

	ECIO_ASSERT(t, ec_setup(&m, 4, 2, 1));
	grp = &m.groups[0];
	ECIO_EQ(t, ec_write(&m, 0, 4, 8, 0x3f, &st), 0);
	ECIO_EQ(t, ec_write(&m, 0, 20, 2, 0x3f, &st), 0);
	spare_ec_split_lost(&m, grp, 2);
	ECIO_EQ(t, spare_ec_repair_begin(&m, grp, 2, 0, 16, &rep), -EBUSY);
	spare_ec_split_mapped(&m, grp, 2);
	ECIO_CHECK(t, grp->repair & EC_B(2));
	ECIO_EQ(t, spare_ec_repair_begin(&m, grp, 2, 0, 16, &rep), 0);
	ECIO_EQ(t, rep.first, 4);
	ECIO_EQ(t, rep.n, 8);
	ECIO_EQ(t, rep.src, 0x1b);	/* D0 D1 D3 P */
	ECIO_CHECK(t, spare_ec_repair_end(&m, grp, &rep, true, &st));
	ECIO_CHECK(t, spare_ec_current(&m, grp, 2, 4));
	ECIO_CHECK(t, spare_ec_current(&m, grp, 2, 11));
	ECIO_EQ(t, st.repaired_pages, 8);
	/* the next range; a write to it meanwhile spoils the repair */
	ECIO_EQ(t, spare_ec_repair_begin(&m, grp, 2, 12, 16, &rep), 0);
	ECIO_EQ(t, rep.first, 20);
	ECIO_EQ(t, rep.n, 2);
	ECIO_EQ(t, ec_write(&m, 0, 21, 1, 0x3b, &st), 0);
	ECIO_CHECK(t, !spare_ec_repair_end(&m, grp, &rep, true, &st));
	ECIO_CHECK(t, !spare_ec_current(&m, grp, 2, 20));
	/* again: page 20 and 21 both rebuildable, a failed copy marks nothing */
	ECIO_EQ(t, spare_ec_repair_begin(&m, grp, 2, 0, 16, &rep), 0);
	ECIO_EQ(t, rep.first, 20);
	ECIO_CHECK(t, !spare_ec_repair_end(&m, grp, &rep, false, &st));
	/* the split lost again mid-repair: nothing marked */
	ECIO_EQ(t, spare_ec_repair_begin(&m, grp, 2, 0, 16, &rep), 0);
	spare_ec_split_lost(&m, grp, 2);
	ECIO_CHECK(t, !spare_ec_repair_end(&m, grp, &rep, true, &st));
	spare_ec_split_mapped(&m, grp, 2);
	ECIO_EQ(t, spare_ec_repair_begin(&m, grp, 2, 0, 64, &rep), 0);
	ECIO_EQ(t, rep.first, 4);
	ECIO_CHECK(t, spare_ec_repair_end(&m, grp, &rep, true, &st));
	ECIO_EQ(t, spare_ec_repair_begin(&m, grp, 2, 0, 64, &rep), 0);
	ECIO_EQ(t, rep.first, 20);
	ECIO_CHECK(t, spare_ec_repair_end(&m, grp, &rep, true, &st));
	ECIO_EQ(t, spare_ec_repair_begin(&m, grp, 2, 0, 64, &rep), -ENOENT);
	spare_ec_repair_idle(grp, 2);
	ECIO_EQ(t, grp->repair & EC_B(2), 0);
	ECIO_EQ(t, spare_ec_readable(&m, grp, 4, 8), 0x3f);
	spare_ec_map_free(&m);
}

/* A write in flight while its split is lost and mapped again (a new,
 * empty slab): its landing on the old slab marks nothing on the new one,
 * which waits for repair; the other splits are current. A later write
 * lands on the new slab and marks it.
 */
static void ecio_write_across_remap(ECIO_T t)
{
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_group *grp;
	struct spare_ec_write wr;
	u32 j;

	ECIO_ASSERT(t, ec_setup(&m, 4, 2, 1));
	grp = &m.groups[0];
	ECIO_EQ(t, spare_ec_write_begin(&m, grp, 8, 4, &wr), 0x3f);
	spare_ec_split_lost(&m, grp, 3);
	spare_ec_split_mapped(&m, grp, 3);
	for (j = 0; j < 6; j++)
		spare_ec_write_done(&wr, j, true);
	ECIO_EQ(t, spare_ec_write_end(&m, grp, &wr, &st), 0);
	ECIO_CHECK(t, !spare_ec_current(&m, grp, 3, 8));
	ECIO_CHECK(t, !spare_ec_current(&m, grp, 3, 11));
	ECIO_EQ(t, spare_ec_readable(&m, grp, 8, 4), 0x37);
	ECIO_CHECK(t, grp->repair & EC_B(3));
	/* lost during the write and still lost: nothing either */
	ECIO_EQ(t, spare_ec_write_begin(&m, grp, 20, 1, &wr), 0x3f);
	spare_ec_split_lost(&m, grp, 1);
	for (j = 0; j < 6; j++)
		spare_ec_write_done(&wr, j, true);
	ECIO_EQ(t, spare_ec_write_end(&m, grp, &wr, &st), 0);
	ECIO_EQ(t, spare_ec_readable(&m, grp, 20, 1), 0x3d);
	/* a write begun after the new slab was mapped marks it */
	ECIO_EQ(t, ec_write(&m, 0, 8, 4, 0x3f & ~EC_B(1), &st), 0);
	ECIO_EQ(t, spare_ec_readable(&m, grp, 8, 4), 0x3d);
	spare_ec_map_free(&m);
}

/* A write to pages a repair of split j is rebuilding: the repair's write
 * of j may land after the write's, with bytes decoded from before it, so
 * the write does not post j (nor mark it), and j waits for repair there.
 */
static void ecio_write_during_repair(ECIO_T t)
{
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_repair rep;
	struct spare_ec_group *grp;
	struct spare_ec_write wr;
	u32 j;

	ECIO_ASSERT(t, ec_setup(&m, 4, 2, 1));
	grp = &m.groups[0];
	ECIO_EQ(t, ec_write(&m, 0, 0, 8, 0x3f, &st), 0);
	spare_ec_split_lost(&m, grp, 4);
	spare_ec_split_mapped(&m, grp, 4);
	ECIO_EQ(t, spare_ec_repair_begin(&m, grp, 4, 0, 16, &rep), 0);
	ECIO_EQ(t, rep.n, 8);
	ECIO_EQ(t, spare_ec_write_begin(&m, grp, 2, 1, &wr), 0x2f);
	for (j = 0; j < 6; j++)
		spare_ec_write_done(&wr, j, true);
	ECIO_EQ(t, spare_ec_write_end(&m, grp, &wr, &st), 0);
	ECIO_CHECK(t, !spare_ec_current(&m, grp, 4, 2));
	ECIO_CHECK(t, !spare_ec_repair_end(&m, grp, &rep, true, &st));
	ECIO_CHECK(t, grp->repair & EC_B(4));
	/* outside a repair's range, a write posts every split */
	ECIO_EQ(t, spare_ec_repair_begin(&m, grp, 4, 0, 1, &rep), 0);
	ECIO_EQ(t, spare_ec_write_begin(&m, grp, 5, 1, &wr), 0x3f);
	spare_ec_map_free(&m);
}

/* The move of an evicted split by copy (spare_ec_move_*()): its current
 * pages copied chunk by chunk while it stays current and readable (no
 * split short at any point), a write between chunks copied again, the
 * switch only once everything current is copied, no decode after it.
 */
static void ecio_move_copy(ECIO_T t)
{
	static unsigned long copied[BITS_TO_LONGS(EC_PAGES)];
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_repair rep;
	struct spare_ec_group *grp;

	ECIO_ASSERT(t, ec_setup(&m, 4, 2, 1));
	grp = &m.groups[0];
	ECIO_EQ(t, ec_write(&m, 0, 0, 8, 0x3f, &st), 0);
	ECIO_EQ(t, ec_write(&m, 0, 20, 2, 0x3f, &st), 0);
	ECIO_EQ(t, spare_ec_move_next(&m, grp, 0, 4, &rep), -EBUSY);
	ECIO_EQ(t, spare_ec_move_begin(&m, grp, 6, copied), -EINVAL);
	ECIO_EQ(t, spare_ec_move_begin(&m, grp, 5, copied), 0);
	ECIO_EQ(t, spare_ec_move_begin(&m, grp, 1, copied), -EBUSY);
	ECIO_EQ(t, spare_ec_move_next(&m, grp, 0, 4, &rep), 0);
	ECIO_EQ(t, rep.first, 0);
	ECIO_EQ(t, rep.n, 4);
	ECIO_EQ(t, rep.split, 5);
	ECIO_EQ(t, rep.src, EC_B(5));
	ECIO_EQ(t, spare_ec_move_next(&m, grp, 4, 4, &rep), -EBUSY);
	ECIO_CHECK(t, spare_ec_move_chunk_end(&m, grp, &rep, true));
	/* still current and posted: the group is never a split short */
	ECIO_EQ(t, spare_ec_readable(&m, grp, 0, 8), 0x3f);
	ECIO_EQ(t, grp->lost, 0);
	/* a write to a copied page: it lands on the old slab, copied again */
	ECIO_EQ(t, ec_write(&m, 0, 2, 1, 0x3f, &st), 0);
	ECIO_EQ(t, spare_ec_move_next(&m, grp, 4, 64, &rep), 0);
	ECIO_EQ(t, rep.first, 4);
	ECIO_EQ(t, rep.n, 4);
	/* a failed copy marks nothing */
	ECIO_CHECK(t, !spare_ec_move_chunk_end(&m, grp, &rep, false));
	ECIO_EQ(t, spare_ec_move_next(&m, grp, 4, 64, &rep), 0);
	ECIO_CHECK(t, spare_ec_move_chunk_end(&m, grp, &rep, true));
	ECIO_EQ(t, spare_ec_move_next(&m, grp, 8, 64, &rep), 0);
	ECIO_EQ(t, rep.first, 20);
	ECIO_EQ(t, rep.n, 2);
	ECIO_CHECK(t, spare_ec_move_chunk_end(&m, grp, &rep, true));
	ECIO_EQ(t, spare_ec_move_next(&m, grp, 22, 64, &rep), -ENOENT);
	ECIO_EQ(t, spare_ec_move_switch(&m, grp), -EAGAIN);	/* page 2 */
	ECIO_EQ(t, spare_ec_move_next(&m, grp, 0, 64, &rep), 0);
	ECIO_EQ(t, rep.first, 2);
	ECIO_EQ(t, rep.n, 1);
	ECIO_EQ(t, spare_ec_move_switch(&m, grp), -EBUSY);	/* a chunk */
	ECIO_CHECK(t, spare_ec_move_chunk_end(&m, grp, &rep, true));
	ECIO_EQ(t, spare_ec_move_switch(&m, grp), 0);
	ECIO_CHECK(t, !grp->mv_active);
	/* current on the new slab: nothing to rebuild, nothing decoded */
	ECIO_EQ(t, spare_ec_readable(&m, grp, 0, 8), 0x3f);
	ECIO_EQ(t, spare_ec_readable(&m, grp, 20, 2), 0x3f);
	ECIO_EQ(t, spare_ec_repair_begin(&m, grp, 5, 0, 64, &rep), -ENOENT);
	ECIO_EQ(t, st.repaired_pages, 0);
	ECIO_EQ(t, spare_ec_move_switch(&m, grp), -EBUSY);
	spare_ec_map_free(&m);
}

/* A write during a move: one over a chunk in flight spoils it (its bytes
 * may be read before the write landed); one in flight at the switch
 * (begun on the old slab) marks nothing on the new one, whose pages are
 * rebuilt there; a later write marks the new slab.
 */
static void ecio_move_write_races(ECIO_T t)
{
	static unsigned long copied[BITS_TO_LONGS(EC_PAGES)];
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_repair rep;
	struct spare_ec_group *grp;
	struct spare_ec_write wr;
	u32 j;

	ECIO_ASSERT(t, ec_setup(&m, 4, 2, 1));
	grp = &m.groups[0];
	ECIO_EQ(t, ec_write(&m, 0, 0, 8, 0x3f, &st), 0);
	ECIO_EQ(t, spare_ec_move_begin(&m, grp, 1, copied), 0);
	ECIO_EQ(t, spare_ec_move_next(&m, grp, 0, 64, &rep), 0);
	ECIO_EQ(t, rep.n, 8);
	/* the moving split is written (old slab) like any other */
	ECIO_EQ(t, ec_write(&m, 0, 3, 1, 0x3f, &st), 0);
	ECIO_CHECK(t, !spare_ec_move_chunk_end(&m, grp, &rep, true));
	ECIO_EQ(t, spare_ec_move_switch(&m, grp), -EAGAIN);
	ECIO_EQ(t, spare_ec_move_next(&m, grp, 0, 64, &rep), 0);
	ECIO_EQ(t, rep.first, 0);
	ECIO_EQ(t, rep.n, 8);
	ECIO_CHECK(t, spare_ec_move_chunk_end(&m, grp, &rep, true));
	/* a write begun before the switch, landing after it */
	ECIO_EQ(t, spare_ec_write_begin(&m, grp, 6, 1, &wr), 0x3f);
	ECIO_EQ(t, spare_ec_move_switch(&m, grp), 0);
	for (j = 0; j < 6; j++)
		spare_ec_write_done(&wr, j, true);
	ECIO_EQ(t, spare_ec_write_end(&m, grp, &wr, &st), 0);
	ECIO_CHECK(t, !spare_ec_current(&m, grp, 1, 6));
	ECIO_CHECK(t, spare_ec_current(&m, grp, 1, 5));
	ECIO_EQ(t, spare_ec_readable(&m, grp, 6, 1), 0x3d);
	ECIO_CHECK(t, grp->repair & EC_B(1));
	ECIO_EQ(t, spare_ec_repair_begin(&m, grp, 1, 0, 64, &rep), 0);
	ECIO_EQ(t, rep.first, 6);
	ECIO_EQ(t, rep.n, 1);
	ECIO_CHECK(t, spare_ec_repair_end(&m, grp, &rep, true, &st));
	/* a write begun after the switch marks the new slab */
	ECIO_EQ(t, ec_write(&m, 0, 7, 1, 0x3f, &st), 0);
	ECIO_EQ(t, spare_ec_readable(&m, grp, 0, 8), 0x3f);
	spare_ec_map_free(&m);
}

/*
 * Run the rebuild as both drivers do (spare.ko's repair_split(), the
 * pager's ec_repair_pass()): each split flagged for repair and not lost,
 * range after range from page 0, its flag cleared once a pass from page
 * 0 finds nothing (spare_ec_repair_idle()); every range rebuilt.
 */
static void ec_rebuild_all(struct spare_ec_map *m, u32 gi,
			   struct spare_ec_stats *st)
{
	struct spare_ec_group *grp = &m->groups[gi];
	struct spare_ec_repair rep;
	u32 j, from;

	for (j = 0; j < spare_ec_splits(&m->g); j++) {
		if (!(grp->repair & EC_B(j)) || (grp->lost & EC_B(j)))
			continue;
		from = 0;
		while (!spare_ec_repair_begin(m, grp, j, from, EC_PAGES, &rep)) {
			spare_ec_repair_end(m, grp, &rep, true, st);
			from = rep.first + rep.n;
		}
		if (!spare_ec_repair_begin(m, grp, j, 0, EC_PAGES, &rep))
			spare_ec_repair_end(m, grp, &rep, false, st);
		else
			spare_ec_repair_idle(grp, j);
	}
}

/*
 * Split @j of @grp begins a move and its current pages are copied in one
 * chunk; the pages copied, or -1 when the move did not begin or copy.
 */
static int ec_move_copy_all(struct spare_ec_map *m, struct spare_ec_group *grp,
			    u32 j, unsigned long *copied)
{
	struct spare_ec_repair rep;

	if (spare_ec_move_begin(m, grp, j, copied) ||
	    spare_ec_move_next(m, grp, 0, m->pages_per_group, &rep) ||
	    !spare_ec_move_chunk_end(m, grp, &rep, true))
		return -1;
	return (int)rep.n;
}

/*
 * client/ec-evict@kmod's EIO (session 44, 6.1): a write in flight over
 * pages of a moving split at its switch lands on the old slab (or on the
 * new one, posted after the switch) and marks nothing on the split
 * there. The rebuild work runs right after the switch, while the write is
 * still in flight (or its late splits are: trailing), finds nothing it can
 * rebuild and clears the split's repair flag; the write's end must flag
 * the split again, or those pages keep K + R - 1 current splits for good,
 * and two more losses (R = 2) leave them K - 1: EIO with four splits of
 * the group alive. Likewise for a write across a loss and re-map.
 */
static void ecio_move_write_after_rebuild(ECIO_T t)
{
	static unsigned long copied[BITS_TO_LONGS(EC_PAGES)];
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_group *grp;
	struct spare_ec_write wr;
	struct spare_ec_read rd;
	u16 post;
	u32 j;

	ECIO_ASSERT(t, ec_setup(&m, 4, 2, 1));
	grp = &m.groups[0];
	ECIO_EQ(t, ec_write(&m, 0, 0, 32, 0x3f, &st), 0);
	/* split 0 moves: every page copied */
	ECIO_EQ(t, ec_move_copy_all(&m, grp, 0, copied), 32);
	/* a write of pages 16-31 begins, and the split switches meanwhile */
	ECIO_EQ(t, spare_ec_write_begin(&m, grp, 16, 16, &wr), 0x3f);
	ECIO_EQ(t, spare_ec_move_switch(&m, grp), 0);
	/* the rebuild work's pass, at once: nothing rebuildable yet */
	ec_rebuild_all(&m, 0, &st);
	/* the write lands on all six (split 0 on the old slab), K first */
	for (j = 1; j < 6; j++)
		spare_ec_write_done(&wr, j, true);
	ECIO_EQ(t, spare_ec_write_commit(&m, grp, &wr, &st), 0);
	ec_rebuild_all(&m, 0, &st);	/* trailing: nothing yet either */
	spare_ec_write_done(&wr, 0, true);
	ECIO_EQ(t, spare_ec_write_end(&m, grp, &wr, &st), 0);
	ECIO_CHECK(t, !spare_ec_current(&m, grp, 0, 16));
	/* split 0 is flagged again and its pages there are rebuilt */
	ECIO_CHECK(t, grp->repair & EC_B(0));
	ec_rebuild_all(&m, 0, &st);
	ECIO_EQ(t, st.repaired_pages, 16);
	ECIO_EQ(t, spare_ec_readable(&m, grp, 0, 32), 0x3f);
	/* hosts 3 and 4: two other splits lost; every page still reads */
	spare_ec_split_lost(&m, grp, 1);
	spare_ec_split_lost(&m, grp, 2);
	ECIO_EQ(t, spare_ec_read_plan(&m, grp, 16, 16, &rd, &post, &st), 0);
	ECIO_EQ(t, post, 0x39);
	ECIO_EQ(t, st.eio_pages, 0);

	/* a write across a loss and re-map of split 3, the same way */
	spare_ec_split_mapped(&m, grp, 1);
	spare_ec_split_mapped(&m, grp, 2);
	ec_rebuild_all(&m, 0, &st);
	ECIO_EQ(t, spare_ec_readable(&m, grp, 0, 32), 0x3f);
	ECIO_EQ(t, spare_ec_write_begin(&m, grp, 40, 4, &wr), 0x3f);
	spare_ec_write_done(&wr, 3, true);	/* landed on the old slab */
	spare_ec_split_lost(&m, grp, 3);
	spare_ec_split_mapped(&m, grp, 3);
	ec_rebuild_all(&m, 0, &st);		/* pages 0-31 only */
	for (j = 0; j < 6; j++)
		spare_ec_write_done(&wr, j, true);
	ECIO_EQ(t, spare_ec_write_end(&m, grp, &wr, &st), 0);
	ECIO_CHECK(t, grp->repair & EC_B(3));
	ec_rebuild_all(&m, 0, &st);
	ECIO_EQ(t, spare_ec_readable(&m, grp, 40, 4), 0x3f);
	spare_ec_split_lost(&m, grp, 0);
	spare_ec_split_lost(&m, grp, 1);
	ECIO_EQ(t, spare_ec_read_plan(&m, grp, 40, 4, &rd, &post, &st), 0);
	ECIO_EQ(t, st.eio_pages, 0);
	spare_ec_map_free(&m);
}

/* The moving split lost (its donor died mid-move): the move is over, a
 * chunk in flight marks nothing, no switch; it is lost and rebuilt by a
 * decode. A move of a lost split cannot begin; another split's can.
 */
static void ecio_move_lost(ECIO_T t)
{
	static unsigned long copied[BITS_TO_LONGS(EC_PAGES)];
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_repair rep;
	struct spare_ec_group *grp;

	ECIO_ASSERT(t, ec_setup(&m, 4, 2, 1));
	grp = &m.groups[1];
	ECIO_EQ(t, ec_write(&m, 1, 0, 4, 0x3f, &st), 0);
	ECIO_EQ(t, spare_ec_move_begin(&m, grp, 0, copied), 0);
	ECIO_EQ(t, spare_ec_move_next(&m, grp, 0, 64, &rep), 0);
	spare_ec_split_lost(&m, grp, 0);
	ECIO_CHECK(t, !grp->mv_active);
	ECIO_CHECK(t, !spare_ec_move_chunk_end(&m, grp, &rep, true));
	ECIO_EQ(t, spare_ec_move_switch(&m, grp), -EBUSY);
	ECIO_EQ(t, spare_ec_move_begin(&m, grp, 0, copied), -EBUSY);
	ECIO_EQ(t, spare_ec_readable(&m, grp, 0, 4), 0x3e);
	/* the move ended by the caller (out of time): nothing marked */
	ECIO_EQ(t, spare_ec_move_begin(&m, grp, 2, copied), 0);
	ECIO_EQ(t, spare_ec_move_next(&m, grp, 0, 64, &rep), 0);
	spare_ec_move_end(grp);
	ECIO_CHECK(t, !spare_ec_move_chunk_end(&m, grp, &rep, true));
	ECIO_EQ(t, spare_ec_move_next(&m, grp, 0, 64, &rep), -EBUSY);
	ECIO_EQ(t, spare_ec_readable(&m, grp, 0, 4), 0x3e);
	spare_ec_map_free(&m);
}

/* 8+2: two data splits lost, the read posts the other data and both
 * parities; a write while a split is lost posts the rest and lands.
 */
static void ecio_82_two_lost(ECIO_T t)
{
	static const u8 order[] = { 0, 1, 2, 4, 5, 7, 8, 9 };
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_read rd;
	struct spare_ec_write wr;
	u16 posted;

	ECIO_ASSERT(t, ec_setup(&m, 8, 2, 1));
	spare_ec_split_lost(&m, &m.groups[1], 3);
	posted = spare_ec_write_begin(&m, &m.groups[1], 0, 4, &wr);
	ECIO_EQ(t, posted, 0x3f7);
	spare_ec_split_lost(&m, &m.groups[1], 6);	/* mid-write */
	for (u32 j = 0; j < 10; j++)
		spare_ec_write_done(&wr, j, j != 6);
	ECIO_EQ(t, spare_ec_write_end(&m, &m.groups[1], &wr, &st), 0);
	ECIO_CHECK(t, !spare_ec_current(&m, &m.groups[1], 6, 0));
	ECIO_EQ(t, ec_read(&m, 1, 2, order, 8, 0, &rd, &posted, &st),
		SPARE_EC_DECODE);
	ECIO_EQ(t, posted, 0x3b7);
	ECIO_EQ(t, rd.missing & 0x3ff, EC_B(3) | EC_B(6));
	spare_ec_map_free(&m);
}

/* Pages never written read as zeros, nothing posted; a range over
 * written and unwritten pages picks its splits by the written ones; a
 * page whose write failed is written, and reads as EIO.
 */
static void ecio_never_written(ECIO_T t)
{
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_read rd;
	u16 post = 0xffff;

	ECIO_ASSERT(t, ec_setup(&m, 4, 2, 1));
	ECIO_EQ(t, spare_ec_read_plan(&m, &m.groups[0], 0, 8, &rd, &post, &st),
		1);
	ECIO_EQ(t, post, 0);
	ECIO_CHECK(t, rd.done);
	ECIO_EQ(t, st.eio_pages, 0);
	ECIO_EQ(t, ec_write(&m, 0, 2, 1, 0x3e, &st), 0);
	ECIO_EQ(t, spare_ec_readable(&m, &m.groups[0], 0, 8), 0x3e);
	ECIO_EQ(t, spare_ec_read_plan(&m, &m.groups[0], 0, 8, &rd, &post, &st),
		0);
	ECIO_EQ(t, post, 0x3e);
	/* a split lost: still K+1 for the written page */
	spare_ec_split_lost(&m, &m.groups[0], 5);
	ECIO_EQ(t, spare_ec_readable(&m, &m.groups[0], 0, 8), 0x1e);
	/* a failed write: written, nothing current, EIO */
	ECIO_EQ(t, ec_write(&m, 0, 6, 1, 0x03, &st), -EIO);
	ECIO_EQ(t, spare_ec_read_plan(&m, &m.groups[0], 6, 1, &rd, &post, &st),
		-EIO);
	ECIO_EQ(t, spare_ec_read_plan(&m, &m.groups[0], 7, 1, &rd, &post, &st),
		1);
	spare_ec_map_free(&m);
}

/*
 * A read of a page whose write is in flight waits (-EAGAIN, no EIO
 * counted) until the write ends, then reads what landed; a read of a
 * page beside it is not held up.
 */
static void ecio_read_racing_write(ECIO_T t)
{
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_group *grp;
	struct spare_ec_write wr;
	struct spare_ec_read rd;
	u16 post, posted;
	u32 j;

	ECIO_ASSERT(t, ec_setup(&m, 4, 2, 1));
	grp = &m.groups[0];
	ECIO_EQ(t, ec_write(&m, 0, 4, 2, 0x3f, &st), 0);
	posted = spare_ec_write_begin(&m, grp, 4, 1, &wr);
	ECIO_EQ(t, posted, 0x3f);
	ECIO_CHECK(t, spare_ec_writing(&m, grp, 4, 1));
	ECIO_CHECK(t, spare_ec_writing(&m, grp, 0, 8));
	ECIO_CHECK(t, !spare_ec_writing(&m, grp, 5, 1));
	ECIO_CHECK(t, !spare_ec_writing(&m, &m.groups[1], 4, 1));
	ECIO_EQ(t, spare_ec_read_plan(&m, grp, 4, 1, &rd, &post, &st),
		-EAGAIN);
	ECIO_EQ(t, post, 0);
	ECIO_EQ(t, spare_ec_read_plan(&m, grp, 3, 3, &rd, &post, &st),
		-EAGAIN);
	ECIO_EQ(t, st.eio_pages, 0);
	/* the page beside it reads */
	ECIO_EQ(t, spare_ec_read_plan(&m, grp, 5, 1, &rd, &post, &st), 0);
	ECIO_EQ(t, post, 0x1f);
	/* an unwritten page under a write in flight waits too */
	posted = spare_ec_write_begin(&m, grp, 9, 1, &wr);
	ECIO_EQ(t, spare_ec_read_plan(&m, grp, 9, 1, &rd, &post, &st),
		-EAGAIN);
	for (j = 0; j < 6; j++)
		spare_ec_write_done(&wr, j, true);
	ECIO_EQ(t, spare_ec_write_end(&m, grp, &wr, &st), 0);
	ECIO_CHECK(t, !spare_ec_writing(&m, grp, 9, 1));
	/* the first write ends at K+1: the read goes on with those */
	posted = spare_ec_write_begin(&m, grp, 4, 1, &wr);
	for (j = 0; j < 6; j++)
		spare_ec_write_done(&wr, j, j != 0);
	ECIO_EQ(t, spare_ec_write_end(&m, grp, &wr, &st), 0);
	ECIO_CHECK(t, !spare_ec_writing(&m, grp, 0, 8));
	ECIO_EQ(t, spare_ec_read_plan(&m, grp, 4, 1, &rd, &post, &st), 0);
	ECIO_EQ(t, post, 0x3e);
	/* a write that failed ends the wait too: then EIO, counted */
	posted = spare_ec_write_begin(&m, grp, 6, 1, &wr);
	ECIO_EQ(t, spare_ec_read_plan(&m, grp, 6, 1, &rd, &post, &st),
		-EAGAIN);
	ECIO_EQ(t, spare_ec_write_end(&m, grp, &wr, &st), -EIO);
	ECIO_EQ(t, st.eio_pages, 1);
	ECIO_EQ(t, spare_ec_read_plan(&m, grp, 6, 1, &rd, &post, &st), -EIO);
	ECIO_EQ(t, st.eio_pages, 2);
	spare_ec_map_free(&m);
}

/*
 * A write completes once K splits landed (issue 34, Deliver 4): the
 * others may be on a dead donor. Its pages read from the landed splits at
 * once; a late split is marked when it lands, one that fails waits for
 * the rebuild; a second write of the pages waits for the late splits,
 * and no repair takes them meanwhile. Before K it completes only when
 * every split did (then EIO).
 */
static void ecio_write_completes_at_k(ECIO_T t)
{
	struct spare_ec_map m;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_group *grp;
	struct spare_ec_repair rep;
	struct spare_ec_write wr, wr2;
	struct spare_ec_read rd;
	u16 post;
	u32 j;

	ECIO_ASSERT(t, ec_setup(&m, 4, 2, 1));
	grp = &m.groups[0];
	ECIO_EQ(t, spare_ec_write_begin(&m, grp, 8, 2, &wr), 0x3f);
	for (j = 0; j < 3; j++)
		spare_ec_write_done(&wr, j, true);
	ECIO_CHECK(t, !spare_ec_write_ready(&wr));
	spare_ec_write_done(&wr, 4, true);	/* the K-th, a parity split */
	ECIO_CHECK(t, spare_ec_write_ready(&wr));
	ECIO_EQ(t, spare_ec_write_commit(&m, grp, &wr, &st), 0);
	/* readable from the four landed splits, a read does not wait */
	ECIO_CHECK(t, !spare_ec_writing(&m, grp, 8, 2));
	ECIO_EQ(t, spare_ec_readable(&m, grp, 8, 2), 0x17);
	ECIO_EQ(t, spare_ec_read_plan(&m, grp, 8, 2, &rd, &post, &st), 0);
	ECIO_EQ(t, post, 0x17);
	/* a second write of them waits for the late splits; beside: not */
	ECIO_CHECK(t, spare_ec_write_waits(&m, grp, 9, 1));
	ECIO_CHECK(t, !spare_ec_write_waits(&m, grp, 10, 1));
	/* no repair of split 3 or 5 while their writes may still land */
	ECIO_EQ(t, spare_ec_repair_begin(&m, grp, 3, 0, 16, &rep), -ENOENT);
	/* split 3 lands late, split 5 fails (its donor died) */
	spare_ec_write_done(&wr, 3, true);
	spare_ec_write_done(&wr, 5, false);
	ECIO_EQ(t, spare_ec_write_end(&m, grp, &wr, &st), 0);
	ECIO_EQ(t, spare_ec_write_commit(&m, grp, &wr, &st), 0);	/* again */
	ECIO_EQ(t, spare_ec_readable(&m, grp, 8, 2), 0x1f);
	ECIO_CHECK(t, !spare_ec_current(&m, grp, 5, 8));
	ECIO_CHECK(t, !spare_ec_write_waits(&m, grp, 8, 2));
	ECIO_EQ(t, st.writes_short, 1);
	ECIO_EQ(t, st.eio_pages, 0);
	ECIO_CHECK(t, grp->repair & EC_B(5));
	/* the rebuild takes split 5 now, from the data splits */
	ECIO_EQ(t, spare_ec_repair_begin(&m, grp, 5, 0, 16, &rep), 0);
	ECIO_EQ(t, rep.first, 8);
	ECIO_EQ(t, rep.n, 2);
	ECIO_EQ(t, rep.src, 0x0f);
	ECIO_CHECK(t, spare_ec_repair_end(&m, grp, &rep, true, &st));
	/* a late split whose slab was lost and mapped again marks nothing */
	ECIO_EQ(t, spare_ec_write_begin(&m, grp, 20, 1, &wr2), 0x3f);
	for (j = 0; j < 4; j++)
		spare_ec_write_done(&wr2, j, true);
	ECIO_CHECK(t, spare_ec_write_ready(&wr2));
	ECIO_EQ(t, spare_ec_write_commit(&m, grp, &wr2, &st), 0);
	spare_ec_split_lost(&m, grp, 4);
	spare_ec_split_mapped(&m, grp, 4);
	spare_ec_write_done(&wr2, 4, true);
	spare_ec_write_done(&wr2, 5, true);
	ECIO_EQ(t, spare_ec_write_end(&m, grp, &wr2, &st), 0);
	ECIO_EQ(t, spare_ec_readable(&m, grp, 20, 1), 0x2f);
	/* three landed, three failed: EIO only once all completed */
	ECIO_EQ(t, spare_ec_write_begin(&m, grp, 30, 1, &wr2), 0x3f);
	for (j = 0; j < 5; j++)
		spare_ec_write_done(&wr2, j, j < 3);
	ECIO_CHECK(t, !spare_ec_write_ready(&wr2));
	spare_ec_write_done(&wr2, 5, false);
	ECIO_CHECK(t, spare_ec_write_ready(&wr2));
	ECIO_EQ(t, spare_ec_write_commit(&m, grp, &wr2, &st), -EIO);
	ECIO_EQ(t, spare_ec_write_end(&m, grp, &wr2, &st), -EIO);
	ECIO_EQ(t, st.eio_pages, 1);
	ECIO_EQ(t, spare_ec_readable(&m, grp, 30, 1), 0);
	spare_ec_map_free(&m);
}

/*
 * The one ec_stat line of both drivers: field N of the ABI file's table
 * holds N here (field 1 is the version), so a field out of place shows.
 */
static void ecio_stat_format(ECIO_T t)
{
	const struct spare_ec_stat_line l = {
		.k = 2, .r = 3, .delta = 4, .reads = 5, .writes = 6,
		.ec = { .reads_decoded = 7, .late_dropped = 8, .eio_pages = 9,
			.writes_short = 10, .repaired_pages = 12 },
		.waits = 11, .remapped = 13, .lost_now = 14, .rebuilding = 15,
		.moved = 16, .moves_given_up = 17, .copied_pages = 18,
		.fills_deferred = 19,
	};
	const char *want = "5 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19\n";
	char buf[128];

	ECIO_EQ(t, SPARE_EC_STAT_VERSION, 5);
	ECIO_EQ(t, spare_ec_stat_format(buf, sizeof(buf), &l), strlen(want));
	ECIO_CHECK(t, !strcmp(buf, want));
}

/* Why a move gives up (spare_ec_move_check()): a lost split first, then
 * the deadline, then a device powering off; and the one log line both
 * drivers write for it, reason by reason.
 */
static void ecio_move_give_up(ECIO_T t)
{
	const char *want = "coding group 3: split 5 cannot move by copy (no live donor outside the group and its failure domains): read around from now, given back, rebuilt by a decode";
	struct spare_ec_map m;
	struct spare_ec_group *grp;
	char buf[256];
	int why;

	ECIO_ASSERT(t, ec_setup(&m, 4, 2, 1));
	grp = &m.groups[0];
	ECIO_EQ(t, spare_ec_move_check(grp, 1, 99, 100, false),
		SPARE_EC_MOVE_GOES_ON);
	ECIO_EQ(t, spare_ec_move_check(grp, 1, 100, 100, false),
		SPARE_EC_MOVE_LATE);
	ECIO_EQ(t, spare_ec_move_check(grp, 1, 99, 100, true),
		SPARE_EC_MOVE_STOPPING);
	ECIO_EQ(t, spare_ec_move_check(grp, 1, 100, 100, true),
		SPARE_EC_MOVE_LATE);
	spare_ec_split_lost(&m, grp, 1);
	ECIO_EQ(t, spare_ec_move_check(grp, 1, 100, 100, true),
		SPARE_EC_MOVE_LOST);
	ECIO_EQ(t, spare_ec_move_check(grp, 2, 0, 100, false),
		SPARE_EC_MOVE_GOES_ON);
	ECIO_EQ(t, spare_ec_move_give_up_line(buf, sizeof(buf), 3, 5,
					      SPARE_EC_MOVE_NO_DONOR),
		strlen(want));
	ECIO_CHECK(t, !strcmp(buf, want));
	/* every reason named, none the other's, and any line fits */
	for (why = SPARE_EC_MOVE_GOES_ON; why <= SPARE_EC_MOVE_NOMEM; why++) {
		int other;

		ECIO_CHECK(t, strcmp(spare_ec_move_why_name(why), "?"));
		for (other = SPARE_EC_MOVE_GOES_ON; other < why; other++)
			ECIO_CHECK(t, strcmp(spare_ec_move_why_name(why),
					     spare_ec_move_why_name(other)));
		ECIO_CHECK(t, spare_ec_move_give_up_line(buf, sizeof(buf),
							 U32_MAX, U32_MAX,
							 why) < (int)sizeof(buf));
	}
	ECIO_CHECK(t, !strcmp(spare_ec_move_why_name(SPARE_EC_MOVE_NOMEM + 1),
			      "?"));
	spare_ec_map_free(&m);
}

struct spare_ec_io_case {
	const char *name;
	void (*run)(ECIO_T t);
};

static const struct spare_ec_io_case spare_ec_io_cases[] = {
	{ "4+2_none_lost", ecio_42_none_lost },
	{ "4+2_parity_first", ecio_42_parity_first },
	{ "4+2_one_lost", ecio_42_one_lost },
	{ "4+2_two_lost", ecio_42_two_lost },
	{ "4+2_third_lost_eio", ecio_42_third_lost },
	{ "2+1_patterns", ecio_21_patterns },
	{ "write_landing_k_to_k_plus_r", ecio_write_landing },
	{ "stale_split_never_chosen", ecio_stale_never_chosen },
	{ "read_fail_redrive", ecio_read_fail_redrive },
	{ "delta_zero", ecio_delta_zero },
	{ "repair", ecio_repair },
	{ "8+2_two_lost", ecio_82_two_lost },
	{ "never_written_reads_zero", ecio_never_written },
	{ "write_across_remap", ecio_write_across_remap },
	{ "write_during_repair", ecio_write_during_repair },
	{ "move_copy", ecio_move_copy },
	{ "move_write_races", ecio_move_write_races },
	{ "move_lost", ecio_move_lost },
	{ "move_write_after_rebuild", ecio_move_write_after_rebuild },
	{ "move_give_up", ecio_move_give_up },
	{ "read_racing_write_waits", ecio_read_racing_write },
	{ "write_completes_at_k", ecio_write_completes_at_k },
	{ "stat_format", ecio_stat_format },
};

#endif /* SPARE_EC_IO_CASES_H */
