/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The resync plan's test cases, written once and replayed twice: by KUnit
 * (spare_resync_plan_kunit.c) and, built for userspace, by the host test
 * tests/unit/test_resync_plan.c. They are the cases both drivers meet: a
 * chunk from a current copy, a refill to the end, a chunk from the backup
 * (refused by the driver, then copied), the backup waiting for writes in
 * flight, a write during the chunk, and an eviction waiting for the chunk.
 *
 * The includer defines the harness:
 *   PLAN_T                  the case's argument (struct kunit *, or int)
 *   PLAN_CHECK(t, cond)     a check that goes on after a failure
 *   PLAN_EQ(t, a, b)        the same for a == b (as long long)
 *   PLAN_ASSERT(t, cond)    a check that ends the case on a failure
 * and runs every case of spare_resync_plan_cases[].
 */
#ifndef SPARE_RESYNC_PLAN_CASES_H
#define SPARE_RESYNC_PLAN_CASES_H

#include "spare_resync_plan.h"

#define PLAN_SRC_ADDR	0x100000ULL	/* where the copies live remotely */
#define PLAN_DST_ADDR	0x200000ULL
#define PLAN_SRC_RKEY	11U
#define PLAN_DST_RKEY	22U

static bool plan_map_copy(struct spare_slab_map *map, struct spare_slab *slab,
			  u32 c)
{
	return !spare_copy_set_state(map, slab, c, SPARE_COPY_MAPPING) &&
	       !spare_copy_set_state(map, slab, c, SPARE_COPY_MAPPED);
}

/* A write of pages [first, first + n) that lands on every copy it goes to. */
static void plan_write(struct spare_slab_map *map, struct spare_slab *slab,
		       u32 first, u32 n)
{
	u32 gens[SPARE_MAX_SLOTS];
	u32 mask = spare_slab_write_begin(map, slab, first, n, gens);
	u32 c;

	for (c = 0; c < map->nr_slots; c++)
		if (mask & (1U << c))
			spare_slab_write_landed(map, slab, c, gens[c], first, n);
	spare_slab_write_end(slab);
}

/*
 * Two 1 MiB slabs (256 pages), two copies on donors 0 and 1. In slab 1,
 * pages 0-63 were written to copy 0 alone; copy 1 is mapped again after a
 * failure, current only where never written.
 */
static bool plan_setup_copy(struct spare_slab_map *map)
{
	struct spare_slab *slab;

	if (spare_slab_map_init(map, 2 << 20, 20, 2, 2))
		return false;
	slab = &map->slabs[1];
	if (!plan_map_copy(map, slab, 0))
		return false;
	slab->copy[0].addr = PLAN_SRC_ADDR;	/* as the MAPPED reply says */
	slab->copy[0].rkey = PLAN_SRC_RKEY;
	plan_write(map, slab, 0, 64);
	if (!plan_map_copy(map, slab, 1))
		return false;
	slab->copy[1].addr = PLAN_DST_ADDR;
	slab->copy[1].rkey = PLAN_DST_RKEY;
	return true;
}

/*
 * Two 1 MiB slabs, one copy each (two slots, donors 0 and 1). In slab 1,
 * pages 10-19 were written, then the copy failed and was mapped again:
 * those pages are on the backup alone.
 */
static bool plan_setup_backup(struct spare_slab_map *map)
{
	struct spare_slab *slab;

	if (spare_slab_map_init(map, 2 << 20, 20, 1, 2))
		return false;
	slab = &map->slabs[1];
	if (!plan_map_copy(map, slab, 0))
		return false;
	plan_write(map, slab, 10, 10);
	if (!spare_copy_fail(map, slab, 0, slab->copy[0].gen) ||
	    spare_copy_set_state(map, slab, 0, SPARE_COPY_UNMAPPED) ||
	    !plan_map_copy(map, slab, 0))
		return false;
	slab->copy[0].addr = PLAN_DST_ADDR;
	slab->copy[0].rkey = PLAN_DST_RKEY;
	return true;
}

/* A chunk from a current copy: pages, places, and both copies counting it. */
static void plan_chunk_from_a_copy(PLAN_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_resync_chunk ck, again;
	struct spare_resync_after after;

	PLAN_ASSERT(t, plan_setup_copy(&map));
	slab = &map.slabs[1];
	PLAN_EQ(t, spare_resync_plan_begin(&map, slab, 16, false, &ck), 1);
	PLAN_CHECK(t, !spare_resync_from_backup(&ck));
	PLAN_EQ(t, ck.rs.source, 0);
	PLAN_EQ(t, ck.rs.target, 1);
	PLAN_EQ(t, ck.rs.first, 0);
	PLAN_EQ(t, ck.rs.n, 16);
	PLAN_EQ(t, ck.page, 256);	/* slab 1's first page */
	PLAN_EQ(t, ck.src_donor, slab->copy[0].donor);
	PLAN_EQ(t, ck.dst_donor, slab->copy[1].donor);
	PLAN_EQ(t, ck.src_addr, PLAN_SRC_ADDR);
	PLAN_EQ(t, ck.dst_addr, PLAN_DST_ADDR);
	PLAN_EQ(t, ck.src_rkey, PLAN_SRC_RKEY);
	PLAN_EQ(t, ck.dst_rkey, PLAN_DST_RKEY);
	PLAN_EQ(t, slab->copy[0].inflight, 1);
	PLAN_EQ(t, slab->copy[1].inflight, 1);
	/* one chunk per target at a time */
	PLAN_EQ(t, spare_resync_plan_begin(&map, slab, 16, false, &again), 0);
	PLAN_EQ(t, slab->copy[0].inflight, 1);

	after = spare_resync_plan_end(&map, slab, &ck, true);
	PLAN_CHECK(t, after.marked);
	PLAN_CHECK(t, !after.wake);
	PLAN_EQ(t, slab->copy[0].inflight, 0);
	PLAN_EQ(t, slab->copy[1].inflight, 0);
	PLAN_CHECK(t, spare_copy_is_current(&slab->copy[1], 0, 16));

	/* the next chunk starts where this one ended, at that offset remotely */
	PLAN_EQ(t, spare_resync_plan_begin(&map, slab, 16, false, &ck), 1);
	PLAN_EQ(t, ck.rs.first, 16);
	PLAN_EQ(t, ck.page, 256 + 16);
	PLAN_EQ(t, ck.src_addr, PLAN_SRC_ADDR + 16 * SPARE_PAGE_SIZE);
	PLAN_EQ(t, ck.dst_addr, PLAN_DST_ADDR + 16 * SPARE_PAGE_SIZE);
	spare_resync_plan_end(&map, slab, &ck, true);
	spare_slab_map_free(&map);
}

/* Chunk after chunk until the slab is whole; then nothing, backup or not. */
static void plan_refills_until_whole(PLAN_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_resync_chunk ck;
	u32 chunks = 0, pages = 0;

	PLAN_ASSERT(t, plan_setup_copy(&map));
	slab = &map.slabs[1];
	while (chunks < 10 &&
	       spare_resync_plan_begin(&map, slab, 16, false, &ck) == 1) {
		chunks++;
		if (spare_resync_plan_end(&map, slab, &ck, true).marked)
			pages += ck.rs.n;
	}
	PLAN_EQ(t, chunks, 4);
	PLAN_EQ(t, pages, 64);
	PLAN_EQ(t, spare_copy_current_pages(&map, &slab->copy[1]), 256);
	PLAN_EQ(t, spare_resync_plan_begin(&map, slab, 16, false, &ck), 0);
	PLAN_EQ(t, spare_resync_plan_begin(&map, slab, 16, true, &ck), 0);
	/* slab 0 was never mapped: nothing to do there either */
	PLAN_EQ(t, spare_resync_plan_begin(&map, &map.slabs[0], 16, true, &ck), 0);
	PLAN_EQ(t, slab->copy[0].inflight, 0);
	PLAN_EQ(t, slab->copy[1].inflight, 0);
	spare_slab_map_free(&map);
}

/*
 * Written pages on the backup alone: only with a backup is there a chunk,
 * with no source copy. The driver refuses it first (an async backup write
 * of its pages in flight): nothing is marked and the same chunk comes again.
 */
static void plan_chunk_from_the_backup(PLAN_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_resync_chunk ck;
	struct spare_resync_after after;

	PLAN_ASSERT(t, plan_setup_backup(&map));
	slab = &map.slabs[1];
	PLAN_EQ(t, spare_resync_plan_begin(&map, slab, 64, false, &ck), 0);
	PLAN_EQ(t, spare_resync_plan_begin(&map, slab, 64, true, &ck), 1);
	PLAN_CHECK(t, spare_resync_from_backup(&ck));
	PLAN_EQ(t, ck.rs.target, 0);
	PLAN_EQ(t, ck.rs.first, 10);
	PLAN_EQ(t, ck.rs.n, 10);
	PLAN_EQ(t, ck.page, 256 + 10);
	PLAN_EQ(t, ck.dst_addr, PLAN_DST_ADDR + 10 * SPARE_PAGE_SIZE);
	PLAN_EQ(t, ck.dst_rkey, PLAN_DST_RKEY);
	PLAN_EQ(t, ck.src_addr, 0);
	PLAN_EQ(t, ck.src_rkey, 0);
	PLAN_EQ(t, slab->copy[0].inflight, 1);
	PLAN_EQ(t, slab->copy[1].inflight, 0);	/* the spare slot */

	after = spare_resync_plan_end(&map, slab, &ck, false);
	PLAN_CHECK(t, !after.marked);
	PLAN_CHECK(t, !after.wake);
	PLAN_EQ(t, slab->copy[0].inflight, 0);
	PLAN_CHECK(t, !spare_copy_is_current(&slab->copy[0], 10, 1));

	PLAN_EQ(t, spare_resync_plan_begin(&map, slab, 64, true, &ck), 1);
	PLAN_EQ(t, ck.rs.first, 10);
	PLAN_CHECK(t, spare_resync_plan_end(&map, slab, &ck, true).marked);
	PLAN_CHECK(t, spare_copy_is_current(&slab->copy[0], 10, 10));
	PLAN_EQ(t, spare_resync_plan_begin(&map, slab, 64, true, &ck), 0);
	spare_slab_map_free(&map);
}

/* The backup is read only while no write is in flight in the slab. */
static void plan_backup_waits_for_writes(PLAN_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_resync_chunk ck;
	u32 gens[SPARE_MAX_SLOTS];

	PLAN_ASSERT(t, plan_setup_backup(&map));
	slab = &map.slabs[1];
	PLAN_EQ(t, spare_slab_write_begin(&map, slab, 200, 1, gens), 1);
	PLAN_EQ(t, spare_resync_plan_begin(&map, slab, 64, true, &ck), -EBUSY);
	PLAN_EQ(t, slab->copy[0].inflight, 0);
	spare_slab_write_landed(&map, slab, 0, gens[0], 200, 1);
	spare_slab_write_end(slab);
	PLAN_EQ(t, spare_resync_plan_begin(&map, slab, 64, true, &ck), 1);
	PLAN_EQ(t, ck.rs.first, 10);
	spare_resync_plan_end(&map, slab, &ck, true);
	spare_slab_map_free(&map);
}

/* A write during the chunk: the copied data is older, nothing is marked. */
static void plan_write_meanwhile_marks_nothing(PLAN_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_resync_chunk ck;
	struct spare_resync_after after;

	PLAN_ASSERT(t, plan_setup_copy(&map));
	slab = &map.slabs[1];
	PLAN_EQ(t, spare_resync_plan_begin(&map, slab, 16, false, &ck), 1);
	plan_write(&map, slab, 3, 1);
	after = spare_resync_plan_end(&map, slab, &ck, true);
	PLAN_CHECK(t, !after.marked);
	PLAN_EQ(t, slab->copy[0].inflight, 0);
	PLAN_EQ(t, slab->copy[1].inflight, 0);
	PLAN_CHECK(t, !spare_copy_is_current(&slab->copy[1], 0, 1));
	PLAN_EQ(t, spare_resync_plan_begin(&map, slab, 16, false, &ck), 1);
	PLAN_EQ(t, ck.rs.first, 0);
	PLAN_CHECK(t, spare_resync_plan_end(&map, slab, &ck, true).marked);
	spare_slab_map_free(&map);
}

/* An eviction of either copy waits for the chunk: its end says to wake it. */
static void plan_end_wakes_an_eviction(PLAN_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_resync_chunk ck;
	u32 c;

	for (c = 0; c < 2; c++) {
		PLAN_ASSERT(t, plan_setup_copy(&map));
		slab = &map.slabs[1];
		PLAN_EQ(t, spare_resync_plan_begin(&map, slab, 16, false, &ck), 1);
		PLAN_EQ(t, spare_copy_set_state(&map, slab, c,
						SPARE_COPY_EVICTING), 0);
		PLAN_CHECK(t, spare_resync_plan_end(&map, slab, &ck, true).wake);
		PLAN_EQ(t, slab->copy[c].inflight, 0);
		spare_slab_map_free(&map);
	}
}

/* Every case, in the order they run; each harness goes through this table. */
struct spare_resync_plan_case {
	const char *name;
	void (*run)(PLAN_T t);
};

static const struct spare_resync_plan_case spare_resync_plan_cases[] = {
	{ "chunk_from_a_copy", plan_chunk_from_a_copy },
	{ "refills_until_whole", plan_refills_until_whole },
	{ "chunk_from_the_backup", plan_chunk_from_the_backup },
	{ "backup_waits_for_writes", plan_backup_waits_for_writes },
	{ "write_meanwhile_marks_nothing", plan_write_meanwhile_marks_nothing },
	{ "end_wakes_an_eviction", plan_end_wakes_an_eviction },
};

#endif /* SPARE_RESYNC_PLAN_CASES_H */
