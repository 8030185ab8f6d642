/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Integrity's test cases (spare_integrity_table.c), written once and
 * replayed twice: by KUnit (spare_integrity_table_kunit.c) and, built for
 * userspace, by the host test tests/unit/test_integrity.c: the checksum
 * table (a page or a split read back with other bytes is caught, one never
 * written is not checked, a CRC of 0), logging once per slab, where a read
 * goes after bad pages, a bad split of an erasure-coded page demoted
 * and flagged for repair only while K others can rebuild it, and the
 * split checks both drivers run (spare_ec_split_verify(), _demote()).
 *
 * The includer defines the harness:
 *   INTEG_T                  the case's argument (struct kunit *, or int)
 *   INTEG_CHECK(t, cond)     a check that goes on after a failure
 *   INTEG_EQ(t, a, b)        the same for a == b (as long long)
 *   INTEG_ASSERT(t, cond)    a check that ends the case on a failure
 * and runs every case of spare_integrity_cases[].
 */
#ifndef SPARE_INTEGRITY_CASES_H
#define SPARE_INTEGRITY_CASES_H

#include "spare_ec_io.h"
#include "spare_integrity_table.h"

/* 4 slabs of 16 pages, one checksum per page: a corrupted page is caught. */
static void integ_page_bad(INTEG_T t)
{
	struct spare_crc_table tab;

	INTEG_ASSERT(t, !spare_crc_table_init(&tab, 64, 1, 4));
	INTEG_EQ(t, spare_crc_table_bytes(&tab), 256);
	spare_crc_set(&tab, 5, 0, 0x12345678);
	INTEG_EQ(t, spare_crc_check(&tab, 5, 0, 0x12345678), SPARE_CRC_OK);
	/* the same page read back with other bytes */
	INTEG_EQ(t, spare_crc_check(&tab, 5, 0, 0x12345679), SPARE_CRC_BAD);
	/* a page never written is not checked (it reads as zeros) */
	INTEG_EQ(t, spare_crc_check(&tab, 6, 0, 0xdeadbeef), SPARE_CRC_UNCHECKED);
	/* past the device, or an entry a page does not have */
	INTEG_EQ(t, spare_crc_check(&tab, 64, 0, 1), SPARE_CRC_UNCHECKED);
	INTEG_EQ(t, spare_crc_check(&tab, 5, 1, 0x12345678), SPARE_CRC_UNCHECKED);
	spare_crc_set(&tab, 64, 0, 7);	/* ignored, not a write past the end */
	/* rewritten: the new bytes are the right ones */
	spare_crc_set(&tab, 5, 0, 0x9abcdef0);
	INTEG_EQ(t, spare_crc_check(&tab, 5, 0, 0x12345678), SPARE_CRC_BAD);
	INTEG_EQ(t, spare_crc_check(&tab, 5, 0, 0x9abcdef0), SPARE_CRC_OK);
	spare_crc_table_free(&tab);
	INTEG_CHECK(t, !tab.crc && !tab.logged);
}

/* A CRC that comes out 0 is stored as 1, and checks as itself. */
static void integ_crc_zero(INTEG_T t)
{
	struct spare_crc_table tab;

	INTEG_ASSERT(t, !spare_crc_table_init(&tab, 8, 1, 2));
	spare_crc_set(&tab, 3, 0, 0);
	INTEG_EQ(t, spare_crc_check(&tab, 3, 0, 0), SPARE_CRC_OK);
	INTEG_EQ(t, spare_crc_check(&tab, 3, 0, 2), SPARE_CRC_BAD);
	spare_crc_table_free(&tab);
}

/* K + R checksums a page: each split is checked on its own. */
static void integ_split_entries(INTEG_T t)
{
	struct spare_crc_table tab;
	u32 j;

	INTEG_ASSERT(t, !spare_crc_table_init(&tab, 32, 6, 3));
	INTEG_EQ(t, spare_crc_table_bytes(&tab), 32 * 6 * 4);
	for (j = 0; j < 6; j++)
		spare_crc_set(&tab, 9, j, 100 + j);
	for (j = 0; j < 6; j++)
		INTEG_EQ(t, spare_crc_check(&tab, 9, j, 100 + j), SPARE_CRC_OK);
	/* split 4 holds split 3's bytes: caught */
	INTEG_EQ(t, spare_crc_check(&tab, 9, 4, 103), SPARE_CRC_BAD);
	/* the neighbour pages' entries are untouched */
	INTEG_EQ(t, spare_crc_check(&tab, 8, 5, 105), SPARE_CRC_UNCHECKED);
	INTEG_EQ(t, spare_crc_check(&tab, 10, 0, 100), SPARE_CRC_UNCHECKED);
	spare_crc_table_free(&tab);
}

static void integ_bad_init(INTEG_T t)
{
	struct spare_crc_table tab;

	INTEG_EQ(t, spare_crc_table_init(&tab, 0, 1, 4), -EINVAL);
	INTEG_EQ(t, spare_crc_table_init(&tab, 8, 0, 4), -EINVAL);
	INTEG_EQ(t, spare_crc_table_init(&tab, 8, 17, 4), -EINVAL);
	INTEG_CHECK(t, !tab.crc);
}

/* A mismatch is logged once per slab; the next slab's first is logged. */
static void integ_log_once_per_slab(INTEG_T t)
{
	struct spare_crc_table tab;

	INTEG_ASSERT(t, !spare_crc_table_init(&tab, 64, 1, 4));
	INTEG_CHECK(t, spare_crc_log_first(&tab, 3));
	INTEG_CHECK(t, !spare_crc_log_first(&tab, 3));
	INTEG_CHECK(t, !spare_crc_log_first(&tab, 15));	/* slab 0 still */
	INTEG_CHECK(t, spare_crc_log_first(&tab, 16));	/* slab 1 */
	INTEG_CHECK(t, spare_crc_log_first(&tab, 63));	/* slab 3 */
	INTEG_CHECK(t, !spare_crc_log_first(&tab, 64));	/* past the end */
	spare_crc_table_free(&tab);
}

/* After bad reads: the other copies, then the backup, then EIO. */
static void integ_next_source(INTEG_T t)
{
	INTEG_EQ(t, spare_integrity_next(1, 2, false, false), SPARE_BAD_OTHER_COPY);
	INTEG_EQ(t, spare_integrity_next(2, 2, false, false), SPARE_BAD_EIO);
	INTEG_EQ(t, spare_integrity_next(2, 2, true, false), SPARE_BAD_BACKUP);
	INTEG_EQ(t, spare_integrity_next(1, 1, true, false), SPARE_BAD_BACKUP);
	INTEG_EQ(t, spare_integrity_next(1, 1, false, false), SPARE_BAD_EIO);
	/* the backup is the last source */
	INTEG_EQ(t, spare_integrity_next(0, 2, true, true), SPARE_BAD_EIO);
}

#define INTEG_EC_PAGES	16

/* ec:@k+@r, one group, pages [0, n) written landing on the splits of @lands. */
static bool integ_ec_setup(struct spare_ec_map *m, u8 k, u8 r, u32 n, u16 lands)
{
	struct spare_ec_geom g = { .k = k, .r = r };
	struct spare_ec_stats st = { 0 };
	struct spare_ec_write wr;
	u16 posted;
	u32 j;

	if (spare_ec_map_init(m, &g, 1, 1, INTEG_EC_PAGES))
		return false;
	posted = spare_ec_write_begin(m, &m->groups[0], 0, n, &wr);
	for (j = 0; j < spare_ec_splits(&g); j++)
		if (posted & (1U << j))
			spare_ec_write_done(&wr, j, !!(lands & (1U << j)));
	return !spare_ec_write_end(m, &m->groups[0], &wr, &st);
}

/*
 * A bad split is treated as missing: no longer current for that page
 * (reads plan around it, decoding from the others) and flagged for repair,
 * which rebuilds that page and marks it current again.
 */
static void integ_ec_split_demoted(INTEG_T t)
{
	struct spare_ec_map m;
	struct spare_ec_group *grp;
	struct spare_ec_stats st = { 0 };
	struct spare_ec_repair rep;
	struct spare_ec_read rd;
	u16 post;

	INTEG_ASSERT(t, integ_ec_setup(&m, 4, 2, 4, 0x3f));
	grp = &m.groups[0];
	INTEG_EQ(t, grp->repair, 0);
	INTEG_CHECK(t, spare_ec_split_bad(&m, grp, 1, 2));
	INTEG_CHECK(t, !spare_ec_current(&m, grp, 1, 2));
	INTEG_CHECK(t, spare_ec_current(&m, grp, 1, 1));	/* only that page */
	INTEG_EQ(t, grp->repair, 1U << 1);
	/* a read of page 2 never posts split 1 */
	INTEG_EQ(t, spare_ec_read_plan(&m, grp, 2, 1, &rd, &post, &st), 0);
	INTEG_EQ(t, post & (1U << 1), 0);
	INTEG_EQ(t, spare_ec_readable(&m, grp, 2, 1), 0x3d);
	/* twice: nothing more to do */
	INTEG_CHECK(t, !spare_ec_split_bad(&m, grp, 1, 2));
	/* the repair finds that page and marks it current again */
	INTEG_EQ(t, spare_ec_repair_begin(&m, grp, 1, 0, 8, &rep), 0);
	INTEG_EQ(t, rep.first, 2);
	INTEG_EQ(t, rep.n, 1);
	INTEG_EQ(t, rep.src & (1U << 1), 0);
	INTEG_CHECK(t, spare_ec_repair_end(&m, grp, &rep, true, &st));
	INTEG_CHECK(t, spare_ec_current(&m, grp, 1, 2));
	INTEG_EQ(t, st.repaired_pages, 1);
	spare_ec_map_free(&m);
}

/*
 * A bad split with only K splits current (two of 4+2 lost): nothing could
 * rebuild it, so it stays as it is; the read that found it bad has fewer
 * than K good splits and fails (EIO), never decodes from it.
 */
static void integ_ec_split_last_source(INTEG_T t)
{
	struct spare_ec_map m;
	struct spare_ec_group *grp;

	/* the write landed on splits 0..3 only: the page has K = 4 current */
	INTEG_ASSERT(t, integ_ec_setup(&m, 4, 2, 1, 0x0f));
	grp = &m.groups[0];
	grp->repair = 0;
	INTEG_CHECK(t, !spare_ec_split_bad(&m, grp, 0, 0));
	INTEG_CHECK(t, spare_ec_current(&m, grp, 0, 0));
	INTEG_EQ(t, grp->repair, 0);
	/* a split never current, or out of range: no change */
	INTEG_CHECK(t, !spare_ec_split_bad(&m, grp, 5, 0));
	INTEG_CHECK(t, !spare_ec_split_bad(&m, grp, 6, 0));
	INTEG_CHECK(t, !spare_ec_split_bad(&m, grp, 0, INTEG_EC_PAGES));
	spare_ec_map_free(&m);
}

/* A lost split does not count as a source that could rebuild a bad one. */
static void integ_ec_lost_not_source(INTEG_T t)
{
	struct spare_ec_map m;
	struct spare_ec_group *grp;

	INTEG_ASSERT(t, integ_ec_setup(&m, 2, 1, 2, 0x07));
	grp = &m.groups[0];
	INTEG_CHECK(t, spare_ec_split_bad(&m, grp, 2, 0));	/* 0, 1 left */
	spare_ec_split_lost(&m, grp, 0);
	/* page 1: split 1 bad with split 0 lost: only split 2 is left */
	INTEG_CHECK(t, !spare_ec_split_bad(&m, grp, 1, 1));
	INTEG_CHECK(t, spare_ec_current(&m, grp, 1, 1));
	spare_ec_map_free(&m);
}

/* A stand-in for CRC-32C: the split page's first byte, plus one. */
static u32 integ_fake_crc(void *ctx, const void *buf, u32 len)
{
	(*(u32 *)ctx)++;
	return (u32)((const u8 *)buf)[0] + 1;
}

/*
 * A split's pages read back are checked each against its own entry (page
 * g * pages_per_group + first + i, entry j): the one with other bytes is
 * named in the answer, pages never written are not checked (no CRC is
 * computed for them), a table that is off checks nothing.
 */
static void integ_ec_split_verify(INTEG_T t)
{
	struct spare_ec_geom g = { .k = 4, .r = 2 };
	struct spare_crc_table tab;
	struct spare_ec_map m;
	static u8 buf[4 * 1024];	/* not on the stack: KUnit's frames are small */
	u32 calls = 0, i;

	INTEG_ASSERT(t, !spare_ec_map_init(&m, &g, 1, 2, INTEG_EC_PAGES));
	INTEG_ASSERT(t, !spare_crc_table_init(&tab, 2 * INTEG_EC_PAGES, 6, 4));
	/* group 1, split 3, pages 5..8 written with bytes 10..13 */
	for (i = 0; i < 4; i++) {
		memset(buf + i * 1024, 10 + i, 1024);
		spare_crc_set(&tab, INTEG_EC_PAGES + 5 + i, 3, 11 + i);
	}
	INTEG_EQ(t, spare_ec_split_verify(&tab, &m, 1, 3, 5, 4, buf, 1024,
					  integ_fake_crc, &calls), 0);
	INTEG_EQ(t, calls, 4);
	/* page 7 came back with other bytes */
	buf[2 * 1024] = 99;
	INTEG_EQ(t, spare_ec_split_verify(&tab, &m, 1, 3, 5, 4, buf, 1024,
					  integ_fake_crc, &calls), 1ULL << 2);
	/* split 2's entries (never written) are not split 3's */
	INTEG_EQ(t, spare_ec_split_verify(&tab, &m, 1, 2, 5, 4, buf, 1024,
					  integ_fake_crc, &calls), 0);
	/* group 0's page 5 is checked against its own entry */
	spare_crc_set(&tab, 5, 3, 11);
	INTEG_EQ(t, spare_ec_split_verify(&tab, &m, 0, 3, 5, 1, buf + 1024,
					  1024, integ_fake_crc, &calls), 1);
	/* pages 9 and 10 never written: not checked, no CRC computed */
	calls = 0;
	INTEG_EQ(t, spare_ec_split_verify(&tab, &m, 1, 3, 8, 3, buf + 3 * 1024,
					  1024, integ_fake_crc, &calls), 0);
	INTEG_EQ(t, calls, 1);
	spare_crc_table_free(&tab);
	/* off: nothing checked */
	calls = 0;
	INTEG_EQ(t, spare_ec_split_verify(&tab, &m, 1, 3, 5, 4, buf, 1024,
					  integ_fake_crc, &calls), 0);
	INTEG_EQ(t, calls, 0);
	spare_ec_map_free(&m);
}

/*
 * A written page's K + R split checksums land in its own entries (page
 * g * pages_per_group + p, entry j), each of its own split's bytes, and
 * are what spare_ec_split_verify() checks the splits against.
 */
static void integ_ec_split_set(INTEG_T t)
{
	struct spare_ec_geom g = { .k = 4, .r = 2 };
	struct spare_crc_table tab;
	struct spare_ec_map m;
	static u8 buf[6 * 1024];
	void *split[6];
	u32 calls = 0, j;

	INTEG_ASSERT(t, !spare_ec_map_init(&m, &g, 1, 2, INTEG_EC_PAGES));
	INTEG_ASSERT(t, !spare_crc_table_init(&tab, 2 * INTEG_EC_PAGES, 6, 4));
	for (j = 0; j < 6; j++) {
		memset(buf + j * 1024, 20 + j, 1024);
		split[j] = buf + j * 1024;
	}
	spare_ec_split_set(&tab, &m, 1, 7, split, 1024, integ_fake_crc, &calls);
	INTEG_EQ(t, calls, 6);
	for (j = 0; j < 6; j++) {
		INTEG_EQ(t, spare_crc_check(&tab, INTEG_EC_PAGES + 7, j, 21 + j),
			 SPARE_CRC_OK);
		INTEG_EQ(t, spare_ec_split_verify(&tab, &m, 1, j, 7, 1,
						  split[j], 1024,
						  integ_fake_crc, &calls), 0);
	}
	/* group 0's page 7 and group 1's page 6 untouched */
	INTEG_EQ(t, spare_crc_check(&tab, 7, 0, 21), SPARE_CRC_UNCHECKED);
	INTEG_EQ(t, spare_crc_check(&tab, INTEG_EC_PAGES + 6, 0, 21),
		 SPARE_CRC_UNCHECKED);
	/* split 4 (P) read back with split 5's bytes: caught */
	INTEG_EQ(t, spare_ec_split_verify(&tab, &m, 1, 4, 7, 1, split[5], 1024,
					  integ_fake_crc, &calls), 1);
	spare_crc_table_free(&tab);
	spare_ec_map_free(&m);
}

/*
 * A split's bad pages are treated as missing (each spare_ec_split_bad())
 * and the first is logged once per group; with only K current, none is
 * demoted, and the log line says so.
 */
static void integ_ec_split_demote(INTEG_T t)
{
	struct spare_ec_bad_log log;
	struct spare_crc_table tab;
	struct spare_ec_map m;
	struct spare_ec_group *grp;

	INTEG_ASSERT(t, integ_ec_setup(&m, 4, 2, 4, 0x3f));
	INTEG_ASSERT(t, !spare_crc_table_init(&tab, INTEG_EC_PAGES, 6, 4));
	grp = &m.groups[0];
	INTEG_EQ(t, spare_ec_split_demote(&tab, &m, grp, 0, 0, 0,
					  (1ULL << 1) | (1ULL << 3), &log), 2);
	INTEG_CHECK(t, log.log && log.demoted);
	INTEG_EQ(t, log.page, 1);
	INTEG_CHECK(t, !spare_ec_current(&m, grp, 0, 1));
	INTEG_CHECK(t, !spare_ec_current(&m, grp, 0, 3));
	INTEG_CHECK(t, spare_ec_current(&m, grp, 0, 2));
	INTEG_EQ(t, grp->repair, 1U << 0);
	/* another split of the group: demoted, not logged again */
	INTEG_EQ(t, spare_ec_split_demote(&tab, &m, grp, 0, 2, 2, 1, &log), 1);
	INTEG_CHECK(t, !log.log);
	INTEG_CHECK(t, !spare_ec_current(&m, grp, 2, 2));
	/* page 1 has splits 1..5 current: split 1 goes, then split 2 may not */
	INTEG_EQ(t, spare_ec_split_demote(&tab, &m, grp, 0, 1, 1, 1, &log), 1);
	INTEG_EQ(t, spare_ec_split_demote(&tab, &m, grp, 0, 2, 1, 1, &log), 0);
	INTEG_CHECK(t, spare_ec_current(&m, grp, 2, 1));
	/* nothing bad: nothing done */
	INTEG_EQ(t, spare_ec_split_demote(&tab, &m, grp, 0, 4, 0, 0, &log), 0);
	INTEG_CHECK(t, !log.log);
	spare_crc_table_free(&tab);
	spare_ec_map_free(&m);

	/* K current only: not demoted; the group's first line says so */
	INTEG_ASSERT(t, integ_ec_setup(&m, 4, 2, 1, 0x0f));
	INTEG_ASSERT(t, !spare_crc_table_init(&tab, INTEG_EC_PAGES, 6, 4));
	INTEG_EQ(t, spare_ec_split_demote(&tab, &m, &m.groups[0], 0, 0, 0, 1,
					  &log), 0);
	INTEG_CHECK(t, log.log && !log.demoted);
	INTEG_EQ(t, log.page, 0);
	INTEG_CHECK(t, spare_ec_current(&m, &m.groups[0], 0, 0));
	spare_crc_table_free(&tab);
	spare_ec_map_free(&m);
}

struct spare_integrity_case {
	const char *name;
	void (*run)(INTEG_T t);
};

static const struct spare_integrity_case spare_integrity_cases[] = {
	{ "page_bad", integ_page_bad },
	{ "crc_zero", integ_crc_zero },
	{ "split_entries", integ_split_entries },
	{ "bad_init", integ_bad_init },
	{ "log_once_per_slab", integ_log_once_per_slab },
	{ "next_source", integ_next_source },
	{ "ec_split_demoted", integ_ec_split_demoted },
	{ "ec_split_last_source", integ_ec_split_last_source },
	{ "ec_lost_not_source", integ_ec_lost_not_source },
	{ "ec_split_set", integ_ec_split_set },
	{ "ec_split_verify", integ_ec_split_verify },
	{ "ec_split_demote", integ_ec_split_demote },
};

#endif /* SPARE_INTEGRITY_CASES_H */
