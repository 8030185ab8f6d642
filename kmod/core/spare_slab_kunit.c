// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the slab map (copy state machine, placement) and its
 * per-page "remote copy is current" bitmaps.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>

#include "spare_slab.h"

#define HOLD_T			struct kunit *
#define HOLD_CHECK(t, cond)	KUNIT_EXPECT_TRUE(t, cond)
#define HOLD_EQ(t, a, b)	KUNIT_EXPECT_EQ(t, (long long)(a), (long long)(b))
#define HOLD_ASSERT(t, cond)	KUNIT_ASSERT_TRUE(t, cond)
#include "spare_hold_cases.h"

#define MiB	(1ULL << 20)

static void init_map(struct kunit *test, struct spare_slab_map *map,
		     u64 bytes, u8 shift, u32 copies, u32 donors)
{
	KUNIT_ASSERT_EQ(test, spare_slab_map_init(map, bytes, shift, copies,
						  donors), 0);
}

static void slab_map_geometry(struct kunit *test)
{
	struct spare_slab_map map;

	init_map(test, &map, 10 * MiB, 22, 2, 3);	/* 4 MiB slabs */
	KUNIT_EXPECT_EQ(test, map.nr_slabs, 3U);	/* last one partial */
	KUNIT_EXPECT_EQ(test, map.pages_per_slab, 1024U);
	KUNIT_EXPECT_EQ(test, map.slabs[2].id, 2U);
	/* copies of one slab go to distinct donors, round robin */
	KUNIT_EXPECT_EQ(test, map.slabs[0].copy[0].donor, 0U);
	KUNIT_EXPECT_EQ(test, map.slabs[0].copy[1].donor, 1U);
	KUNIT_EXPECT_EQ(test, map.slabs[2].copy[0].donor, 2U);
	KUNIT_EXPECT_EQ(test, map.slabs[2].copy[1].donor, 0U);
	KUNIT_EXPECT_EQ(test, (int)spare_slab_state(&map, &map.slabs[1]),
			(int)SPARE_COPY_UNMAPPED);
	spare_slab_map_free(&map);
	KUNIT_EXPECT_NULL(test, map.slabs);
	spare_slab_map_free(&map);	/* idempotent */
}

static void slab_map_explicit_placement(struct kunit *test)
{
	static const u16 good[] = { 2, 0, 1, 3, 0, 2 };
	static const u16 twice[] = { 2, 0, 1, 1, 0, 2 };
	static const u16 far[] = { 2, 0, 1, 4, 0, 2 };
	struct spare_slab_map map;

	init_map(test, &map, 10 * MiB, 22, 2, 4);	/* 3 slabs, 2 copies */
	KUNIT_EXPECT_EQ(test, spare_slab_map_place(&map, good, 5), -EINVAL);
	KUNIT_EXPECT_EQ(test, spare_slab_map_place(&map, twice, 6), -EINVAL);
	KUNIT_EXPECT_EQ(test, spare_slab_map_place(&map, far, 6), -EINVAL);
	/* a refusal changes nothing: still round robin */
	KUNIT_EXPECT_EQ(test, map.slabs[1].copy[1].donor, 2U);
	KUNIT_EXPECT_EQ(test, spare_slab_map_place(&map, good, 6), 0);
	KUNIT_EXPECT_EQ(test, map.slabs[0].copy[0].donor, 2U);
	KUNIT_EXPECT_EQ(test, map.slabs[1].copy[1].donor, 3U);
	KUNIT_EXPECT_EQ(test, map.slabs[2].copy[0].donor, 0U);
	KUNIT_EXPECT_EQ(test, map.slabs[2].copy[1].donor, 2U);
	spare_slab_map_free(&map);
}

static void slab_map_rejects_bad_geometry(struct kunit *test)
{
	struct spare_slab_map map;

	KUNIT_EXPECT_EQ(test, spare_slab_map_init(&map, 0, 20, 1, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, spare_slab_map_init(&map, MiB, 11, 1, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, spare_slab_map_init(&map, MiB, 20, 0, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, spare_slab_map_init(&map, MiB, 20,
				SPARE_MAX_REPLICAS + 1, SPARE_MAX_DONORS), -EINVAL);
	/* two copies of a slab never share a donor */
	KUNIT_EXPECT_EQ(test, spare_slab_map_init(&map, MiB, 20, 2, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, spare_slab_map_init(&map, MiB, 20, 1,
				SPARE_MAX_DONORS + 1), -EINVAL);
}

static void copy_state_machine(struct kunit *test)
{
	static const struct {
		enum spare_copy_state from, to;
		bool ok;
	} cases[] = {
		{ SPARE_COPY_UNMAPPED, SPARE_COPY_MAPPING, true },
		{ SPARE_COPY_UNMAPPED, SPARE_COPY_MAPPED, false },
		{ SPARE_COPY_UNMAPPED, SPARE_COPY_FAILED, false },
		{ SPARE_COPY_MAPPING, SPARE_COPY_MAPPED, true },
		{ SPARE_COPY_MAPPING, SPARE_COPY_UNMAPPED, true },
		{ SPARE_COPY_MAPPING, SPARE_COPY_FAILED, true },
		{ SPARE_COPY_MAPPING, SPARE_COPY_EVICTING, false },
		{ SPARE_COPY_MAPPED, SPARE_COPY_EVICTING, true },
		{ SPARE_COPY_MAPPED, SPARE_COPY_FAILED, true },
		{ SPARE_COPY_MAPPED, SPARE_COPY_MAPPING, false },
		{ SPARE_COPY_EVICTING, SPARE_COPY_UNMAPPED, true },
		{ SPARE_COPY_EVICTING, SPARE_COPY_MAPPED, false },
		{ SPARE_COPY_FAILED, SPARE_COPY_UNMAPPED, true },
		{ SPARE_COPY_FAILED, SPARE_COPY_MAPPED, false },
		{ SPARE_COPY_FAILED, SPARE_COPY_NR_STATES, false },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test,
			spare_copy_transition_ok(cases[i].from, cases[i].to),
			cases[i].ok, "%s -> %s",
			spare_copy_state_name(cases[i].from),
			spare_copy_state_name(cases[i].to));
	KUNIT_EXPECT_STREQ(test, spare_copy_state_name(SPARE_COPY_NR_STATES), "?");
}

static void copy_set_state_walk(struct kunit *test)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	u32 gen;

	init_map(test, &map, 4 * MiB, 20, 2, 2);
	slab = &map.slabs[0];
	gen = slab->copy[1].gen;
	KUNIT_EXPECT_EQ(test, spare_copy_set_state(&map, slab, 1,
						   SPARE_COPY_MAPPED), -EINVAL);
	KUNIT_EXPECT_EQ(test, slab->copy[1].gen, gen);	/* nothing changed */
	/* slot 2 is the spare one: no donor, so it cannot be mapped */
	KUNIT_EXPECT_EQ(test, spare_copy_set_state(&map, slab, 2,
						   SPARE_COPY_MAPPING), -EINVAL);
	KUNIT_EXPECT_EQ(test, spare_copy_set_state(&map, slab, 3,
						   SPARE_COPY_MAPPING), -EINVAL);
	KUNIT_EXPECT_EQ(test, spare_copy_set_state(&map, slab, 1,
						   SPARE_COPY_MAPPING), 0);
	KUNIT_EXPECT_EQ(test, (int)spare_slab_state(&map, slab),
			(int)SPARE_COPY_MAPPING);
	KUNIT_EXPECT_EQ(test, spare_copy_set_state(&map, slab, 1,
						   SPARE_COPY_MAPPED), 0);
	KUNIT_EXPECT_EQ(test, (int)spare_slab_state(&map, slab),
			(int)SPARE_COPY_MAPPED);
	KUNIT_EXPECT_NE(test, slab->copy[1].gen, gen);
	/* an RDMA error seen with a stale generation changes nothing */
	KUNIT_EXPECT_FALSE(test, spare_copy_fail(&map, slab, 1, gen));
	KUNIT_EXPECT_TRUE(test, spare_copy_fail(&map, slab, 1, slab->copy[1].gen));
	KUNIT_EXPECT_EQ(test, (int)slab->copy[1].state, (int)SPARE_COPY_FAILED);
	KUNIT_EXPECT_EQ(test, (int)spare_slab_state(&map, slab),
			(int)SPARE_COPY_FAILED);
	KUNIT_EXPECT_EQ(test, spare_copy_set_state(&map, slab, 1,
						   SPARE_COPY_UNMAPPED), 0);
	spare_slab_map_free(&map);
}

static struct kunit_case slab_map_cases[] = {
	KUNIT_CASE(slab_map_geometry),
	KUNIT_CASE(slab_map_rejects_bad_geometry),
	KUNIT_CASE(slab_map_explicit_placement),
	KUNIT_CASE(copy_state_machine),
	KUNIT_CASE(copy_set_state_walk),
	{}
};

static struct kunit_suite slab_map_suite = {
	.name = "spare_slab_map",
	.test_cases = slab_map_cases,
};

/* Map copy @c of slab 0; the donor's slab is fresh (zeroed). */
static void map_copy(struct kunit *test, struct spare_slab_map *map, u32 c)
{
	struct spare_slab *slab = &map->slabs[0];

	KUNIT_ASSERT_EQ(test, spare_copy_set_state(map, slab, c,
						   SPARE_COPY_MAPPING), 0);
	KUNIT_ASSERT_EQ(test, spare_copy_set_state(map, slab, c,
						   SPARE_COPY_MAPPED), 0);
}

static void bitmap_fresh_copy_is_current_where_unwritten(struct kunit *test)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	u32 gens[SPARE_MAX_SLOTS];

	init_map(test, &map, MiB, 20, 2, 2);	/* 256 pages */
	slab = &map.slabs[0];
	KUNIT_EXPECT_EQ(test, spare_slab_pick_read(&map, slab, 0, 1, 0), -ENODATA);
	map_copy(test, &map, 0);
	KUNIT_EXPECT_EQ(test, spare_copy_current_pages(&map, &slab->copy[0]), 256U);

	/* write pages 10..13, landing on copy 0 only */
	KUNIT_EXPECT_EQ(test, spare_slab_write_begin(&map, slab, 10, 4, gens), 1U);
	KUNIT_EXPECT_EQ(test, spare_slab_pick_read(&map, slab, 10, 1, 0), -ENODATA);
	KUNIT_EXPECT_EQ(test, slab->writes_inflight, 1U);
	spare_slab_write_landed(&map, slab, 0, gens[0], 10, 4);
	spare_slab_write_end(slab);
	KUNIT_EXPECT_EQ(test, slab->writes_inflight, 0U);
	KUNIT_EXPECT_EQ(test, spare_slab_pick_read(&map, slab, 10, 4, 1), 0);
	KUNIT_EXPECT_TRUE(test, spare_slab_ever_written(slab, 13, 1));
	KUNIT_EXPECT_FALSE(test, spare_slab_ever_written(slab, 14, 100));

	/* copy 1 mapped later is current only for pages never written */
	map_copy(test, &map, 1);
	KUNIT_EXPECT_EQ(test, spare_copy_current_pages(&map, &slab->copy[1]), 252U);
	KUNIT_EXPECT_FALSE(test, spare_copy_is_current(&slab->copy[1], 9, 2));
	KUNIT_EXPECT_TRUE(test, spare_copy_is_current(&slab->copy[1], 14, 242));
	KUNIT_EXPECT_EQ(test, spare_slab_pick_read(&map, slab, 10, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, spare_slab_pick_read(&map, slab, 200, 1, 1), 1);
	spare_slab_map_free(&map);
}

static void bitmap_failed_copy_never_read(struct kunit *test)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	u32 gens[SPARE_MAX_SLOTS];

	init_map(test, &map, MiB, 20, 2, 2);
	slab = &map.slabs[0];
	map_copy(test, &map, 0);
	map_copy(test, &map, 1);
	KUNIT_EXPECT_EQ(test, spare_slab_write_begin(&map, slab, 0, 256, gens), 3U);
	spare_slab_write_landed(&map, slab, 0, gens[0], 0, 256);
	spare_slab_write_landed(&map, slab, 1, gens[1], 0, 256);
	spare_slab_write_end(slab);
	KUNIT_EXPECT_EQ(test, spare_slab_pick_read(&map, slab, 0, 256, 1), 1);

	KUNIT_EXPECT_TRUE(test, spare_copy_fail(&map, slab, 1, gens[1]));
	KUNIT_EXPECT_EQ(test, spare_copy_current_pages(&map, &slab->copy[1]), 0U);
	KUNIT_EXPECT_EQ(test, spare_slab_pick_read(&map, slab, 0, 256, 1), 0);

	/* a write in flight to the failed copy lands late: still not current */
	KUNIT_EXPECT_EQ(test, spare_slab_write_begin(&map, slab, 5, 1, gens), 1U);
	spare_slab_write_landed(&map, slab, 1, gens[1], 5, 1);
	KUNIT_EXPECT_FALSE(test, spare_copy_is_current(&slab->copy[1], 5, 1));
	KUNIT_EXPECT_FALSE(test, spare_copy_is_current(&slab->copy[0], 5, 1));
	spare_slab_write_landed(&map, slab, 0, gens[0], 5, 1);
	spare_slab_write_end(slab);

	/* remapped after failure: it holds none of the written pages */
	KUNIT_EXPECT_EQ(test, spare_copy_set_state(&map, slab, 1,
						   SPARE_COPY_UNMAPPED), 0);
	map_copy(test, &map, 1);
	KUNIT_EXPECT_EQ(test, spare_copy_current_pages(&map, &slab->copy[1]), 0U);
	KUNIT_EXPECT_EQ(test, spare_slab_pick_read(&map, slab, 5, 1, 1), 0);
	spare_slab_map_free(&map);
}

static void bitmap_evicting_copy_readable_not_written(struct kunit *test)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	u32 gens[SPARE_MAX_SLOTS];

	init_map(test, &map, MiB, 20, 1, 1);
	slab = &map.slabs[0];
	map_copy(test, &map, 0);
	KUNIT_EXPECT_EQ(test, spare_slab_write_begin(&map, slab, 7, 1, gens), 1U);
	spare_slab_write_landed(&map, slab, 0, gens[0], 7, 1);
	spare_slab_write_end(slab);
	KUNIT_EXPECT_EQ(test, spare_copy_set_state(&map, slab, 0,
						   SPARE_COPY_EVICTING), 0);
	/* still holds the data until UNMAP */
	KUNIT_EXPECT_EQ(test, spare_slab_pick_read(&map, slab, 7, 1, 0), 0);
	/* but new writes do not go there, and make it stale for their pages */
	KUNIT_EXPECT_EQ(test, spare_slab_write_begin(&map, slab, 7, 1, gens), 0U);
	spare_slab_write_end(slab);
	KUNIT_EXPECT_EQ(test, spare_slab_pick_read(&map, slab, 7, 1, 0), -ENODATA);
	KUNIT_EXPECT_EQ(test, spare_copy_set_state(&map, slab, 0,
						   SPARE_COPY_UNMAPPED), 0);
	KUNIT_EXPECT_EQ(test, spare_copy_current_pages(&map, &slab->copy[0]), 0U);
	spare_slab_map_free(&map);
}

/*
 * A request cut in two at a slab boundary whose second half has nowhere to
 * go is failed before anything is posted: its first half's operation never
 * wrote the copy, so the copy must not become current for those pages
 * (stale data would be read once the request's re-drives run out).
 */
static void settle_unsent_write_marks_nothing(struct kunit *test)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	u32 gens[SPARE_MAX_SLOTS];

	init_map(test, &map, 2 * MiB, 20, 2, 2);
	slab = &map.slabs[0];
	map_copy(test, &map, 0);
	map_copy(test, &map, 1);
	/* an older write landed on both copies */
	KUNIT_EXPECT_EQ(test, spare_slab_write_begin(&map, slab, 250, 6, gens), 3U);
	spare_slab_op_settle(&map, slab, 0, gens[0], 250, 6, true, SPARE_OP_DONE);
	spare_slab_op_settle(&map, slab, 1, gens[1], 250, 6, true, SPARE_OP_DONE);
	spare_slab_write_end(slab);
	KUNIT_EXPECT_EQ(test, spare_slab_readable_mask(&map, slab, 250, 6), 3U);

	/* the new write: copy 0 never sent, copy 1 landed */
	KUNIT_EXPECT_EQ(test, spare_slab_write_begin(&map, slab, 250, 6, gens), 3U);
	KUNIT_EXPECT_FALSE(test, spare_slab_op_settle(&map, slab, 0, gens[0],
				250, 6, true, SPARE_OP_UNSENT));
	spare_slab_op_settle(&map, slab, 1, gens[1], 250, 6, true, SPARE_OP_DONE);
	spare_slab_write_end(slab);
	KUNIT_EXPECT_FALSE(test, spare_copy_is_current(&slab->copy[0], 250, 6));
	KUNIT_EXPECT_EQ(test, spare_slab_readable_mask(&map, slab, 250, 6), 2U);
	KUNIT_EXPECT_EQ(test, spare_slab_pick_read(&map, slab, 250, 6, 0), 1);
	/* copy 0 is still MAPPED: only its bits are stale, resync refills them */
	KUNIT_EXPECT_EQ(test, (int)slab->copy[0].state, (int)SPARE_COPY_MAPPED);

	/* neither sent: no copy is current, a read must not find one */
	KUNIT_EXPECT_EQ(test, spare_slab_write_begin(&map, slab, 250, 6, gens), 3U);
	spare_slab_op_settle(&map, slab, 0, gens[0], 250, 6, true, SPARE_OP_UNSENT);
	spare_slab_op_settle(&map, slab, 1, gens[1], 250, 6, true, SPARE_OP_UNSENT);
	spare_slab_write_end(slab);
	KUNIT_EXPECT_EQ(test, spare_slab_readable_mask(&map, slab, 250, 6), 0U);
	KUNIT_EXPECT_EQ(test, spare_slab_pick_read(&map, slab, 250, 6, 0), -ENODATA);
	spare_slab_map_free(&map);
}

/* A fault fails the copy; an unsent read changes nothing. */
static void settle_fault_and_reads(struct kunit *test)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	u32 gens[SPARE_MAX_SLOTS];

	init_map(test, &map, MiB, 20, 2, 2);
	slab = &map.slabs[0];
	map_copy(test, &map, 0);
	map_copy(test, &map, 1);
	KUNIT_EXPECT_EQ(test, spare_slab_write_begin(&map, slab, 0, 1, gens), 3U);
	KUNIT_EXPECT_TRUE(test, spare_slab_op_settle(&map, slab, 0, gens[0],
				0, 1, true, SPARE_OP_COPY_FAULT));
	spare_slab_op_settle(&map, slab, 1, gens[1], 0, 1, true, SPARE_OP_DONE);
	spare_slab_write_end(slab);
	KUNIT_EXPECT_EQ(test, (int)slab->copy[0].state, (int)SPARE_COPY_FAILED);
	KUNIT_EXPECT_EQ(test, spare_slab_readable_mask(&map, slab, 0, 1), 2U);
	/* a read that was never sent leaves copy 1 alone */
	KUNIT_EXPECT_FALSE(test, spare_slab_op_settle(&map, slab, 1,
				slab->copy[1].gen, 0, 1, false, SPARE_OP_UNSENT));
	KUNIT_EXPECT_EQ(test, spare_slab_readable_mask(&map, slab, 0, 1), 2U);
	/* a stale generation's fault does not fail the copy */
	KUNIT_EXPECT_FALSE(test, spare_slab_op_settle(&map, slab, 1, gens[1] - 1,
				0, 1, false, SPARE_OP_COPY_FAULT));
	KUNIT_EXPECT_EQ(test, (int)slab->copy[1].state, (int)SPARE_COPY_MAPPED);
	spare_slab_map_free(&map);
}

static void bitmap_rejects_out_of_slab_ranges(struct kunit *test)
{
	struct spare_slab_map map;
	u32 gens[SPARE_MAX_SLOTS];

	init_map(test, &map, MiB, 20, 1, 1);
	map_copy(test, &map, 0);
	KUNIT_EXPECT_EQ(test, spare_slab_pick_read(&map, &map.slabs[0], 255, 2, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, spare_slab_pick_read(&map, &map.slabs[0], 0, 0, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, spare_slab_write_begin(&map, &map.slabs[0], 256, 1,
						     gens), 0U);
	KUNIT_EXPECT_EQ(test, map.slabs[0].writes_inflight, 0U);
	spare_slab_map_free(&map);
}

/* Slab 0 with both copies mapped, pages 0..63 written to copy 0 only. */
static void resync_setup(struct kunit *test, struct spare_slab_map *map)
{
	struct spare_slab *slab;
	u32 gens[SPARE_MAX_SLOTS];

	init_map(test, map, MiB, 20, 2, 2);	/* 256 pages */
	slab = &map->slabs[0];
	map_copy(test, map, 0);
	KUNIT_ASSERT_EQ(test, spare_slab_write_begin(map, slab, 0, 64, gens), 1U);
	spare_slab_write_landed(map, slab, 0, gens[0], 0, 64);
	spare_slab_write_end(slab);
	map_copy(test, map, 1);		/* mapped again after a failure */
	KUNIT_ASSERT_EQ(test, spare_copy_current_pages(map, &slab->copy[1]), 192U);
}

static void resync_refills_a_remapped_copy(struct kunit *test)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_resync rs;
	u32 done = 0;

	resync_setup(test, &map);
	slab = &map.slabs[0];
	while (!spare_slab_resync_begin(&map, slab, 16, &rs)) {
		KUNIT_EXPECT_EQ(test, rs.target, 1U);
		KUNIT_EXPECT_EQ(test, rs.source, 0U);
		KUNIT_EXPECT_EQ(test, rs.first, done);
		KUNIT_EXPECT_EQ(test, rs.n, 16U);
		/* one chunk per copy at a time */
		KUNIT_EXPECT_EQ(test, spare_slab_resync_begin(&map, slab, 16, &rs),
				-ENOENT);
		KUNIT_EXPECT_TRUE(test, spare_slab_resync_end(&map, slab, &rs, true));
		done += rs.n;
		if (done > 64)
			break;
	}
	KUNIT_EXPECT_EQ(test, done, 64U);
	KUNIT_EXPECT_EQ(test, spare_copy_current_pages(&map, &slab->copy[1]), 256U);
	KUNIT_EXPECT_EQ(test, spare_slab_pick_read(&map, slab, 0, 64, 1), 1);
	/* nothing left to do; a failed chunk is retried, not marked */
	KUNIT_EXPECT_EQ(test, spare_slab_resync_begin(&map, slab, 16, &rs), -ENOENT);
	spare_slab_map_free(&map);

	resync_setup(test, &map);
	slab = &map.slabs[0];
	KUNIT_ASSERT_EQ(test, spare_slab_resync_begin(&map, slab, 100, &rs), 0);
	KUNIT_EXPECT_EQ(test, rs.n, 64U);	/* stops where the stale run ends */
	KUNIT_EXPECT_FALSE(test, spare_slab_resync_end(&map, slab, &rs, false));
	KUNIT_EXPECT_EQ(test, spare_copy_current_pages(&map, &slab->copy[1]), 192U);
	KUNIT_EXPECT_EQ(test, spare_slab_resync_begin(&map, slab, 100, &rs), 0);
	spare_slab_map_free(&map);
}

static void resync_write_meanwhile_leaves_target_out(struct kunit *test)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_resync rs;
	u32 gens[SPARE_MAX_SLOTS];

	resync_setup(test, &map);
	slab = &map.slabs[0];
	KUNIT_ASSERT_EQ(test, spare_slab_resync_begin(&map, slab, 16, &rs), 0);
	/* a write to page 3 during the resync goes to copy 0 only */
	KUNIT_EXPECT_EQ(test, spare_slab_write_begin(&map, slab, 3, 1, gens), 1U);
	spare_slab_write_landed(&map, slab, 0, gens[0], 3, 1);
	spare_slab_write_end(slab);
	/* a write elsewhere still goes to both */
	KUNIT_EXPECT_EQ(test, spare_slab_write_begin(&map, slab, 100, 1, gens), 3U);
	spare_slab_write_landed(&map, slab, 0, gens[0], 100, 1);
	spare_slab_write_landed(&map, slab, 1, gens[1], 100, 1);
	spare_slab_write_end(slab);
	/* the resync copied older data for page 3: nothing is marked */
	KUNIT_EXPECT_FALSE(test, spare_slab_resync_end(&map, slab, &rs, true));
	KUNIT_EXPECT_FALSE(test, spare_copy_is_current(&slab->copy[1], 0, 1));
	KUNIT_EXPECT_FALSE(test, spare_copy_is_current(&slab->copy[1], 3, 1));
	KUNIT_EXPECT_TRUE(test, spare_copy_is_current(&slab->copy[1], 100, 1));
	/* and the chunk is picked again */
	KUNIT_EXPECT_EQ(test, spare_slab_resync_begin(&map, slab, 16, &rs), 0);
	KUNIT_EXPECT_EQ(test, rs.first, 0U);
	KUNIT_EXPECT_TRUE(test, spare_slab_resync_end(&map, slab, &rs, true));
	/* after the resync, writes go to both copies again */
	KUNIT_EXPECT_EQ(test, spare_slab_write_begin(&map, slab, 3, 1, gens), 3U);
	spare_slab_write_end(slab);
	spare_slab_map_free(&map);
}

static void resync_target_failed_meanwhile(struct kunit *test)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_resync rs;

	resync_setup(test, &map);
	slab = &map.slabs[0];
	KUNIT_ASSERT_EQ(test, spare_slab_resync_begin(&map, slab, 16, &rs), 0);
	KUNIT_EXPECT_TRUE(test, spare_copy_fail(&map, slab, 1, slab->copy[1].gen));
	KUNIT_EXPECT_EQ(test, spare_copy_set_state(&map, slab, 1,
						   SPARE_COPY_UNMAPPED), 0);
	map_copy(test, &map, 1);
	/* the chunk's copy is gone: its late answer marks nothing */
	KUNIT_EXPECT_FALSE(test, spare_slab_resync_end(&map, slab, &rs, true));
	KUNIT_EXPECT_FALSE(test, spare_copy_is_current(&slab->copy[1], 0, 16));
	/* no source at all: nothing to pick */
	KUNIT_EXPECT_TRUE(test, spare_copy_fail(&map, slab, 0, slab->copy[0].gen));
	KUNIT_EXPECT_EQ(test, spare_slab_resync_begin(&map, slab, 16, &rs), -ENOENT);
	spare_slab_map_free(&map);
}


/* A one-copy slab written at pages 3-5, mapped on donor 0 of 2. */
static void move_setup(struct kunit *test, struct spare_slab_map *map)
{
	struct spare_slab *slab;
	u32 gens[SPARE_MAX_SLOTS];

	init_map(test, map, MiB, 20, 1, 2);	/* 256 pages, 2 slots */
	KUNIT_ASSERT_EQ(test, map->nr_slots, 2U);
	slab = &map->slabs[0];
	KUNIT_ASSERT_EQ(test, slab->copy[1].donor, SPARE_NO_DONOR);
	map_copy(test, map, 0);
	KUNIT_ASSERT_EQ(test, spare_slab_write_begin(map, slab, 3, 3, gens), 1U);
	spare_slab_write_landed(map, slab, 0, gens[0], 3, 3);
	spare_slab_write_end(slab);
}

/*
 * An evicted copy moves to another donor: the new copy is ready only once
 * it holds every page the old one holds, and only then may the old one go;
 * after that, reads and writes use the new copy alone.
 */
static void move_copy_to_another_donor(struct kunit *test)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_resync rs;
	u32 gens[SPARE_MAX_SLOTS];
	int to;

	move_setup(test, &map);
	slab = &map.slabs[0];
	KUNIT_EXPECT_EQ(test, spare_slab_move_begin(&map, slab, 0, 0), -EEXIST);
	to = spare_slab_move_begin(&map, slab, 0, 1);
	KUNIT_ASSERT_EQ(test, to, 1);
	KUNIT_EXPECT_EQ(test, spare_slab_donor_slot(&map, slab, 1), 1);
	KUNIT_EXPECT_EQ(test, (int)slab->copy[1].state, (int)SPARE_COPY_UNMAPPED);
	/* the old copy still takes writes and serves reads */
	KUNIT_EXPECT_EQ(test, (int)slab->copy[0].state, (int)SPARE_COPY_MAPPED);
	KUNIT_EXPECT_FALSE(test, spare_slab_move_ready(&map, slab, 0, 1));

	map_copy(test, &map, 1);
	/* zero filled: current where never written, not for pages 3-5 */
	KUNIT_EXPECT_FALSE(test, spare_slab_move_ready(&map, slab, 0, 1));
	/* a write now goes to both copies; in flight, nothing is ready */
	KUNIT_EXPECT_EQ(test, spare_slab_write_begin(&map, slab, 10, 1, gens), 3U);
	spare_slab_write_landed(&map, slab, 0, gens[0], 10, 1);
	spare_slab_write_landed(&map, slab, 1, gens[1], 10, 1);
	KUNIT_EXPECT_FALSE(test, spare_slab_move_ready(&map, slab, 0, 1));
	spare_slab_write_end(slab);

	/* resync copies pages 3-5 from the old copy */
	KUNIT_ASSERT_EQ(test, spare_slab_resync_begin(&map, slab, 16, &rs), 0);
	KUNIT_EXPECT_EQ(test, rs.source, 0U);
	KUNIT_EXPECT_EQ(test, rs.target, 1U);
	KUNIT_EXPECT_EQ(test, rs.first, 3U);
	KUNIT_EXPECT_EQ(test, rs.n, 3U);
	KUNIT_EXPECT_FALSE(test, spare_slab_move_ready(&map, slab, 0, 1));
	KUNIT_EXPECT_TRUE(test, spare_slab_resync_end(&map, slab, &rs, true));
	KUNIT_EXPECT_TRUE(test, spare_slab_move_ready(&map, slab, 0, 1));

	/* the old copy goes: no new read picks it while it drains */
	KUNIT_EXPECT_EQ(test, spare_slab_move_release(&map, slab, 0), 0);
	KUNIT_EXPECT_EQ(test, (int)slab->copy[0].state, (int)SPARE_COPY_EVICTING);
	KUNIT_EXPECT_EQ(test, spare_slab_readable_mask(&map, slab, 3, 3), 2U);
	KUNIT_EXPECT_EQ(test, spare_slab_readable_mask(&map, slab, 10, 1), 2U);
	KUNIT_EXPECT_EQ(test, spare_slab_write_begin(&map, slab, 4, 1, gens), 2U);
	spare_slab_write_end(slab);
	spare_slab_slot_free(&map, slab, 0);
	KUNIT_EXPECT_EQ(test, slab->copy[0].donor, SPARE_NO_DONOR);
	KUNIT_EXPECT_EQ(test, (int)slab->copy[0].state, (int)SPARE_COPY_UNMAPPED);
	KUNIT_EXPECT_EQ(test, spare_slab_donor_slot(&map, slab, 0), -1);
	/* slot 0 is the spare one now: the copy can move back later */
	KUNIT_EXPECT_EQ(test, spare_slab_move_begin(&map, slab, 1, 0), 0);
	spare_slab_map_free(&map);
}

/*
 * A donor appended to a running device can take a moved copy; before it is
 * appended it cannot, and the donors can only grow, up to the maximum.
 */
static void move_to_appended_donor(struct kunit *test)
{
	struct spare_slab_map map;
	struct spare_slab *slab;

	move_setup(test, &map);			/* donors 0 and 1 */
	slab = &map.slabs[0];
	KUNIT_EXPECT_EQ(test, spare_slab_move_begin(&map, slab, 0, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, spare_slab_map_grow_donors(&map, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, spare_slab_map_grow_donors(&map, SPARE_MAX_DONORS + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, map.nr_donors, 2U);
	KUNIT_ASSERT_EQ(test, spare_slab_map_grow_donors(&map, 3), 0);
	KUNIT_EXPECT_EQ(test, spare_slab_move_begin(&map, slab, 0, 2), 1);
	KUNIT_EXPECT_EQ(test, spare_slab_donor_slot(&map, slab, 2), 1);
	/* the copies already placed stay where they were */
	KUNIT_EXPECT_EQ(test, slab->copy[0].donor, 0U);
	spare_slab_map_free(&map);
}

/*
 * A write that began before the new copy was mapped goes to the old copy
 * only: the move is not ready while it is in flight, nor after it landed,
 * until resync brought its page over.
 */
static void move_waits_for_older_write(struct kunit *test)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_resync rs;
	u32 gens[SPARE_MAX_SLOTS];

	move_setup(test, &map);
	slab = &map.slabs[0];
	KUNIT_ASSERT_EQ(test, spare_slab_move_begin(&map, slab, 0, 1), 1);
	KUNIT_EXPECT_EQ(test, spare_slab_write_begin(&map, slab, 20, 1, gens), 1U);
	map_copy(test, &map, 1);
	/* pages 3-5 resynced; page 20 is current nowhere while in flight */
	while (!spare_slab_resync_begin(&map, slab, 16, &rs))
		spare_slab_resync_end(&map, slab, &rs, true);
	KUNIT_EXPECT_FALSE(test, spare_slab_move_ready(&map, slab, 0, 1));
	spare_slab_write_landed(&map, slab, 0, gens[0], 20, 1);
	spare_slab_write_end(slab);
	KUNIT_EXPECT_FALSE(test, spare_slab_move_ready(&map, slab, 0, 1));
	KUNIT_ASSERT_EQ(test, spare_slab_resync_begin(&map, slab, 16, &rs), 0);
	KUNIT_EXPECT_EQ(test, rs.first, 20U);
	spare_slab_resync_end(&map, slab, &rs, true);
	KUNIT_EXPECT_TRUE(test, spare_slab_move_ready(&map, slab, 0, 1));
	spare_slab_map_free(&map);
}

static void move_refused_and_aborted(struct kunit *test)
{
	struct spare_slab_map map;
	struct spare_slab *slab;

	move_setup(test, &map);
	slab = &map.slabs[0];
	/* only a MAPPED copy moves */
	KUNIT_ASSERT_EQ(test, spare_copy_set_state(&map, slab, 0,
						   SPARE_COPY_EVICTING), 0);
	KUNIT_EXPECT_EQ(test, spare_slab_move_begin(&map, slab, 0, 1), -EINVAL);
	spare_slab_map_free(&map);

	move_setup(test, &map);
	slab = &map.slabs[0];
	KUNIT_ASSERT_EQ(test, spare_slab_move_begin(&map, slab, 0, 1), 1);
	/* one move at a time: the spare slot is taken */
	KUNIT_EXPECT_EQ(test, spare_slab_move_begin(&map, slab, 0, 1), -EEXIST);
	/* the MAP was refused: the slot is spare again, the old copy stays */
	KUNIT_EXPECT_TRUE(test, spare_slab_move_abort(&map, slab, 1));
	KUNIT_EXPECT_EQ(test, spare_slab_donor_slot(&map, slab, 1), -1);
	KUNIT_EXPECT_EQ(test, spare_slab_readable_mask(&map, slab, 3, 3), 1U);
	/* a mapped new copy is not aborted */
	KUNIT_ASSERT_EQ(test, spare_slab_move_begin(&map, slab, 0, 1), 1);
	map_copy(test, &map, 1);
	KUNIT_EXPECT_FALSE(test, spare_slab_move_abort(&map, slab, 1));
	/* a slot still draining is not handed out */
	KUNIT_ASSERT_EQ(test, spare_slab_move_release(&map, slab, 0), 0);
	slab->copy[0].inflight = 1;
	KUNIT_ASSERT_EQ(test, spare_copy_set_state(&map, slab, 0,
						   SPARE_COPY_UNMAPPED), 0);
	slab->copy[0].donor = SPARE_NO_DONOR;
	KUNIT_EXPECT_EQ(test, spare_slab_move_begin(&map, slab, 1, 0), -EBUSY);
	slab->copy[0].inflight = 0;
	KUNIT_EXPECT_EQ(test, spare_slab_move_begin(&map, slab, 1, 0), 0);
	spare_slab_map_free(&map);
}


/*
 * A one-copy slab mapped again after a failure is refilled from the backup
 * device: only pages written and current nowhere, and never while a write
 * is in flight (every write that ended is on the backup then; a write that
 * begins later makes the chunk dirty).
 */
static void resync_from_backup(struct kunit *test)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_resync rs;
	u32 gens[SPARE_MAX_SLOTS];

	init_map(test, &map, MiB, 20, 1, 1);
	slab = &map.slabs[0];
	map_copy(test, &map, 0);
	KUNIT_ASSERT_EQ(test, spare_slab_write_begin(&map, slab, 10, 100, gens), 1U);
	spare_slab_write_landed(&map, slab, 0, gens[0], 10, 100);
	spare_slab_write_end(slab);
	/* a current copy: nothing to take from the backup */
	KUNIT_EXPECT_EQ(test, spare_slab_resync_begin_backup(&map, slab, 64, &rs),
			-ENOENT);
	/* the donor failed and came back: current only where never written */
	KUNIT_EXPECT_TRUE(test, spare_copy_fail(&map, slab, 0, slab->copy[0].gen));
	KUNIT_ASSERT_EQ(test, spare_copy_set_state(&map, slab, 0,
						   SPARE_COPY_UNMAPPED), 0);
	/* an unmapped copy is no target */
	KUNIT_EXPECT_EQ(test, spare_slab_resync_begin_backup(&map, slab, 64, &rs),
			-ENOENT);
	map_copy(test, &map, 0);
	KUNIT_EXPECT_EQ(test, spare_slab_resync_begin(&map, slab, 64, &rs), -ENOENT);

	/* a write in flight: the backup may not hold it yet */
	KUNIT_ASSERT_EQ(test, spare_slab_write_begin(&map, slab, 200, 1, gens), 1U);
	KUNIT_EXPECT_EQ(test, spare_slab_resync_begin_backup(&map, slab, 64, &rs),
			-EBUSY);
	spare_slab_write_landed(&map, slab, 0, gens[0], 200, 1);
	spare_slab_write_end(slab);

	KUNIT_ASSERT_EQ(test, spare_slab_resync_begin_backup(&map, slab, 64, &rs), 0);
	KUNIT_EXPECT_EQ(test, rs.source, SPARE_RESYNC_BACKUP);
	KUNIT_EXPECT_EQ(test, rs.target, 0U);
	KUNIT_EXPECT_EQ(test, rs.first, 10U);
	KUNIT_EXPECT_EQ(test, rs.n, 64U);
	KUNIT_EXPECT_TRUE(test, spare_slab_resync_end(&map, slab, &rs, true));
	KUNIT_EXPECT_TRUE(test, spare_copy_is_current(&slab->copy[0], 10, 64));

	/* a write during the chunk: it lands, the chunk marks nothing */
	KUNIT_ASSERT_EQ(test, spare_slab_resync_begin_backup(&map, slab, 64, &rs), 0);
	KUNIT_EXPECT_EQ(test, rs.first, 74U);
	KUNIT_EXPECT_EQ(test, rs.n, 36U);	/* page 110 was never written */
	KUNIT_EXPECT_EQ(test, spare_slab_write_begin(&map, slab, 80, 1, gens), 0U);
	spare_slab_write_end(slab);
	KUNIT_EXPECT_FALSE(test, spare_slab_resync_end(&map, slab, &rs, true));
	KUNIT_EXPECT_FALSE(test, spare_copy_is_current(&slab->copy[0], 74, 1));
	/* picked again, now with page 80 too (written, current nowhere) */
	KUNIT_ASSERT_EQ(test, spare_slab_resync_begin_backup(&map, slab, 64, &rs), 0);
	KUNIT_EXPECT_EQ(test, rs.first, 74U);
	KUNIT_EXPECT_TRUE(test, spare_slab_resync_end(&map, slab, &rs, true));
	spare_slab_map_free(&map);
}

/* With two copies, a page one copy holds is copied from it, not the backup. */
static void resync_backup_only_where_no_copy(struct kunit *test)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_resync rs;

	resync_setup(test, &map);	/* copy 0 holds pages 0-63, copy 1 not */
	slab = &map.slabs[0];
	KUNIT_EXPECT_EQ(test, spare_slab_resync_begin_backup(&map, slab, 64, &rs),
			-ENOENT);
	KUNIT_EXPECT_FALSE(test, spare_slab_backup_only(&map, slab));
	/* copy 0 lost too: now the backup is the only source */
	KUNIT_EXPECT_TRUE(test, spare_copy_fail(&map, slab, 0, slab->copy[0].gen));
	KUNIT_EXPECT_TRUE(test, spare_slab_backup_only(&map, slab));
	KUNIT_ASSERT_EQ(test, spare_slab_resync_begin_backup(&map, slab, 64, &rs), 0);
	KUNIT_EXPECT_EQ(test, rs.target, 1U);
	KUNIT_EXPECT_EQ(test, rs.first, 0U);
	KUNIT_EXPECT_EQ(test, rs.n, 64U);
	spare_slab_resync_end(&map, slab, &rs, true);
	/* the refill made copy 1 current for every written page */
	KUNIT_EXPECT_FALSE(test, spare_slab_backup_only(&map, slab));
	spare_slab_map_free(&map);
}


/*
 * What a slab lacks before a resync may call it whole; and a write in
 * flight, whose pages no copy holds until it lands, is not such a lack.
 */
static void slab_gap_says_what_a_resync_lacks(struct kunit *test)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_resync rs;
	u32 gens[SPARE_MAX_SLOTS], k, c;

	resync_setup(test, &map);	/* copy 1 stale for pages 0-63 */
	slab = &map.slabs[0];
	KUNIT_EXPECT_EQ(test, spare_slab_gap(&map, slab, true, &k), SPARE_SLAB_STALE);
	KUNIT_EXPECT_EQ(test, k, 2U);
	while (!spare_slab_resync_begin(&map, slab, 64, &rs))
		spare_slab_resync_end(&map, slab, &rs, true);
	KUNIT_EXPECT_EQ(test, spare_slab_gap(&map, slab, true, &k), SPARE_SLAB_WHOLE);

	/* a write in flight: its pages are on no copy, and on the backup */
	KUNIT_ASSERT_EQ(test, spare_slab_write_begin(&map, slab, 100, 4, gens), 3U);
	KUNIT_EXPECT_TRUE(test, spare_slab_backup_only(&map, slab));
	KUNIT_EXPECT_EQ(test, spare_slab_gap(&map, slab, true, &k), SPARE_SLAB_WHOLE);
	spare_slab_write_landed(&map, slab, 0, gens[0], 100, 4);
	KUNIT_EXPECT_EQ(test, spare_slab_gap(&map, slab, true, &k), SPARE_SLAB_WHOLE);
	/* it ended without reaching copy 1 (never sent there) */
	spare_slab_write_end(slab);
	KUNIT_EXPECT_EQ(test, spare_slab_gap(&map, slab, true, &k), SPARE_SLAB_STALE);

	/* both copies lost and mapped again: written pages on the backup only */
	for (c = 0; c < 2; c++) {
		KUNIT_EXPECT_TRUE(test, spare_copy_fail(&map, slab, c, slab->copy[c].gen));
		KUNIT_ASSERT_EQ(test, spare_copy_set_state(&map, slab, c,
							   SPARE_COPY_UNMAPPED), 0);
	}
	KUNIT_EXPECT_EQ(test, spare_slab_gap(&map, slab, true, &k), SPARE_SLAB_UNMAPPED);
	KUNIT_EXPECT_EQ(test, k, 0U);
	map_copy(test, &map, 0);
	/* not yet whole, writes in flight or not */
	KUNIT_ASSERT_EQ(test, spare_slab_write_begin(&map, slab, 200, 1, gens), 1U);
	KUNIT_EXPECT_EQ(test, spare_slab_gap(&map, slab, true, &k), SPARE_SLAB_UNMAPPED);
	KUNIT_EXPECT_EQ(test, k, 1U);
	spare_slab_write_end(slab);
	map_copy(test, &map, 1);
	KUNIT_EXPECT_EQ(test, spare_slab_gap(&map, slab, true, &k), SPARE_SLAB_BACKUP_ONLY);
	KUNIT_EXPECT_EQ(test, k, 2U);
	/* without a backup no copy can be refilled: whole as it stands */
	KUNIT_EXPECT_EQ(test, spare_slab_gap(&map, slab, false, &k), SPARE_SLAB_WHOLE);
	spare_slab_map_free(&map);
}

/*
 * A read re-driven after a bad copy (crc32c) must try the other copy next,
 * whichever slots hold the copies: with two copies in three slots, going
 * round all the slots would try the bad copy twice in a row.
 */
static void read_slot_goes_round_the_readable_copies(struct kunit *test)
{
	u32 k;

	for (k = 0; k < 8; k++) {
		/* copies in slots 0 and 1, spare slot 2 */
		KUNIT_EXPECT_NE(test, spare_read_slot(0x3, k), spare_read_slot(0x3, k + 1));
		/* after a move: copies in slots 0 and 2 */
		KUNIT_EXPECT_NE(test, spare_read_slot(0x5, k), spare_read_slot(0x5, k + 1));
		KUNIT_EXPECT_TRUE(test, 0x5 & (1U << spare_read_slot(0x5, k)));
		KUNIT_EXPECT_EQ(test, spare_read_slot(0x4, k), 2U);
	}
	KUNIT_EXPECT_EQ(test, spare_read_slot(0x6, 0), 1U);
	KUNIT_EXPECT_EQ(test, spare_read_slot(0x6, 1), 2U);
	KUNIT_EXPECT_EQ(test, spare_read_slot(0x6, 2), 1U);
}

/*
 * A move goes first to a donor whose grants have room (or that needs none),
 * and only then to the one with the fewest copies: a broker's grant-only
 * donor with its grants used up would refuse the MAP and cost the move a
 * round trip of its grace period.
 */
static void move_pick_prefers_grant_room(struct kunit *test)
{
	struct spare_move_cand c[4] = {
		{ .ok = false, .load = 0, .room = SPARE_ROOM_OPEN },	/* evicting */
		{ .ok = true, .load = 1, .room = 0 },	/* grants used up */
		{ .ok = true, .load = 5, .room = 1 },
		{ .ok = true, .load = 3, .room = 2 },
	};
	bool roomy = false;

	KUNIT_EXPECT_EQ(test, spare_move_pick(c, 4, &roomy), 3);
	KUNIT_EXPECT_TRUE(test, roomy);
	c[1].room = SPARE_ROOM_OPEN;	/* no grant for it: it needs none */
	KUNIT_EXPECT_EQ(test, spare_move_pick(c, 4, &roomy), 1);
	c[1].room = -2;			/* more copies than its grants cover */
	c[3].ok = false;		/* holds a copy of the slab */
	KUNIT_EXPECT_EQ(test, spare_move_pick(c, 4, &roomy), 2);
	c[2].room = 0;
	/* none has room: the fewest copies, and the caller asks for a grant */
	KUNIT_EXPECT_EQ(test, spare_move_pick(c, 4, &roomy), 1);
	KUNIT_EXPECT_FALSE(test, roomy);
	c[1].ok = c[2].ok = false;
	KUNIT_EXPECT_EQ(test, spare_move_pick(c, 4, &roomy), -1);
	KUNIT_EXPECT_FALSE(test, roomy);
	/* a tie goes to the lowest index */
	c[1] = c[2] = (struct spare_move_cand){ .ok = true, .load = 2, .room = 1 };
	KUNIT_EXPECT_EQ(test, spare_move_pick(c, 4, NULL), 1);
}

/*
 * A moved copy goes to a failure domain that holds no other copy of its
 * slab: the copy leaving does not count, and a donor with grant room still
 * comes first (a fresh domain whose grants are used up means waiting for a
 * grant within the grace period).
 */
static void move_pick_prefers_fresh_domain(struct kunit *test)
{
	static const u16 place[] = { 2, 0, 1, 3, 0, 2 };
	static const u16 domain[] = { 0, 0, 1, 1 };
	struct spare_slab_map map;
	struct spare_slab *s0;
	struct spare_move_cand c[4] = {
		{ .ok = false },				/* copy of slab 0 */
		{ .ok = true, .load = 1, .room = 2 },
		{ .ok = false },				/* evicting */
		{ .ok = true, .load = 2, .room = 2 },
	};
	bool roomy;

	init_map(test, &map, 10 * MiB, 22, 2, 4);	/* 3 slabs, 2 copies */
	KUNIT_ASSERT_EQ(test, spare_slab_map_place(&map, place, 6), 0);
	s0 = &map.slabs[0];				/* on donors 2 and 0 */
	/* moving slab 0 away from donor 2: domain 1 is fresh, domain 0 not */
	KUNIT_EXPECT_FALSE(test, spare_slab_domain_fresh(&map, s0, domain, 4, 1, 2));
	KUNIT_EXPECT_TRUE(test, spare_slab_domain_fresh(&map, s0, domain, 4, 3, 2));
	/* the copy that stays on donor 2 would count */
	KUNIT_EXPECT_FALSE(test, spare_slab_domain_fresh(&map, s0, domain, 4, 3,
							 SPARE_NO_DONOR));
	/* no domains: each donor is its own */
	KUNIT_EXPECT_TRUE(test, spare_slab_domain_fresh(&map, s0, NULL, 0, 1, 2));
	KUNIT_EXPECT_FALSE(test, spare_slab_domain_fresh(&map, s0, NULL, 0, 0, 2));
	/* donors beyond the domains given (appended while running): their own */
	KUNIT_EXPECT_TRUE(test, spare_slab_domain_fresh(&map, s0, domain, 2, 3,
							SPARE_NO_DONOR));
	spare_slab_map_free(&map);

	c[1].fresh = false;
	c[3].fresh = true;
	KUNIT_EXPECT_EQ(test, spare_move_pick(c, 4, &roomy), 3);
	KUNIT_EXPECT_TRUE(test, roomy);
	c[3].room = 0;		/* fresh but no room: room comes first */
	KUNIT_EXPECT_EQ(test, spare_move_pick(c, 4, &roomy), 1);
	KUNIT_EXPECT_TRUE(test, roomy);
	c[1].room = -1;		/* neither has room: the fresh one, and ask */
	KUNIT_EXPECT_EQ(test, spare_move_pick(c, 4, &roomy), 3);
	KUNIT_EXPECT_FALSE(test, roomy);
}

/*
 * A page that failed its crc32c check on one copy: that copy is no source
 * for it any more (reads, resync, moves), and resync refills it from the
 * good copy; the last holder of a page is not demoted without a backup.
 */
static void bad_page_demotes_the_copy(struct kunit *test)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_resync rs;
	u32 gens[SPARE_MAX_SLOTS];

	init_map(test, &map, MiB, 20, 2, 2);	/* 256 pages */
	slab = &map.slabs[0];
	map_copy(test, &map, 0);
	map_copy(test, &map, 1);
	KUNIT_ASSERT_EQ(test, spare_slab_write_begin(&map, slab, 0, 64, gens), 3U);
	spare_slab_write_landed(&map, slab, 0, gens[0], 0, 64);
	spare_slab_write_landed(&map, slab, 1, gens[1], 0, 64);
	spare_slab_write_end(slab);
	KUNIT_EXPECT_EQ(test, spare_slab_resync_begin(&map, slab, 16, &rs), -ENOENT);

	/* an older generation's read says nothing about the copy now */
	KUNIT_EXPECT_FALSE(test, spare_slab_page_bad(&map, slab, 1,
				slab->copy[1].gen - 1, 5, false));
	KUNIT_EXPECT_EQ(test, spare_slab_readable_mask(&map, slab, 5, 1), 3U);

	/* page 5 of copy 1 is bad */
	KUNIT_EXPECT_TRUE(test, spare_slab_page_bad(&map, slab, 1,
				slab->copy[1].gen, 5, false));
	KUNIT_EXPECT_EQ(test, spare_slab_readable_mask(&map, slab, 5, 1), 1U);
	KUNIT_EXPECT_EQ(test, spare_slab_readable_mask(&map, slab, 4, 1), 3U);
	KUNIT_EXPECT_EQ(test, (int)slab->copy[1].state, (int)SPARE_COPY_MAPPED);
	/* resync refills it on copy 1, from copy 0, and only it */
	KUNIT_ASSERT_EQ(test, spare_slab_resync_begin(&map, slab, 16, &rs), 0);
	KUNIT_EXPECT_EQ(test, rs.target, 1U);
	KUNIT_EXPECT_EQ(test, rs.source, 0U);
	KUNIT_EXPECT_EQ(test, rs.first, 5U);
	KUNIT_EXPECT_EQ(test, rs.n, 1U);

	/* copy 0 is now the only holder of page 5: without a backup it stays */
	KUNIT_EXPECT_FALSE(test, spare_slab_page_bad(&map, slab, 0,
				slab->copy[0].gen, 5, false));
	KUNIT_EXPECT_EQ(test, spare_slab_readable_mask(&map, slab, 5, 1), 1U);
	KUNIT_EXPECT_TRUE(test, spare_slab_resync_end(&map, slab, &rs, true));
	KUNIT_EXPECT_EQ(test, spare_slab_readable_mask(&map, slab, 5, 1), 3U);

	/* one copy and a backup: the bad page goes to the backup refill */
	spare_slab_map_free(&map);
	init_map(test, &map, MiB, 20, 1, 1);
	slab = &map.slabs[0];
	map_copy(test, &map, 0);
	KUNIT_ASSERT_EQ(test, spare_slab_write_begin(&map, slab, 0, 8, gens), 1U);
	spare_slab_write_landed(&map, slab, 0, gens[0], 0, 8);
	spare_slab_write_end(slab);
	KUNIT_EXPECT_FALSE(test, spare_slab_page_bad(&map, slab, 0,
				slab->copy[0].gen, 3, false));
	KUNIT_EXPECT_TRUE(test, spare_copy_is_current(&slab->copy[0], 3, 1));
	KUNIT_EXPECT_TRUE(test, spare_slab_page_bad(&map, slab, 0,
				slab->copy[0].gen, 3, true));
	KUNIT_EXPECT_FALSE(test, spare_copy_is_current(&slab->copy[0], 3, 1));
	KUNIT_ASSERT_EQ(test, spare_slab_resync_begin_backup(&map, slab, 64, &rs), 0);
	KUNIT_EXPECT_EQ(test, rs.first, 3U);
	KUNIT_EXPECT_EQ(test, rs.n, 1U);
	/* out of range: refused */
	KUNIT_EXPECT_FALSE(test, spare_slab_page_bad(&map, slab, 0,
				slab->copy[0].gen, 256, true));
	KUNIT_EXPECT_FALSE(test, spare_slab_page_bad(&map, slab, 7,
				0, 1, true));
	spare_slab_map_free(&map);
}

/* A donor that holds our slabs over its restart: spare_hold_cases.h. */
static void kept_over_a_hold(struct kunit *test)
{
	hold_kept_over_a_hold(test);
}

static struct kunit_case bitmap_cases[] = {
	KUNIT_CASE(resync_refills_a_remapped_copy),
	KUNIT_CASE(resync_write_meanwhile_leaves_target_out),
	KUNIT_CASE(resync_target_failed_meanwhile),
	KUNIT_CASE(bitmap_fresh_copy_is_current_where_unwritten),
	KUNIT_CASE(bitmap_failed_copy_never_read),
	KUNIT_CASE(bitmap_evicting_copy_readable_not_written),
	KUNIT_CASE(bitmap_rejects_out_of_slab_ranges),
	KUNIT_CASE(settle_unsent_write_marks_nothing),
	KUNIT_CASE(settle_fault_and_reads),
	KUNIT_CASE(move_copy_to_another_donor),
	KUNIT_CASE(move_waits_for_older_write),
	KUNIT_CASE(move_to_appended_donor),
	KUNIT_CASE(move_refused_and_aborted),
	KUNIT_CASE(resync_from_backup),
	KUNIT_CASE(resync_backup_only_where_no_copy),
	KUNIT_CASE(slab_gap_says_what_a_resync_lacks),
	KUNIT_CASE(read_slot_goes_round_the_readable_copies),
	KUNIT_CASE(move_pick_prefers_grant_room),
	KUNIT_CASE(move_pick_prefers_fresh_domain),
	KUNIT_CASE(bad_page_demotes_the_copy),
	KUNIT_CASE(kept_over_a_hold),
	{}
};

static struct kunit_suite bitmap_suite = {
	.name = "spare_current_bitmap",
	.test_cases = bitmap_cases,
};

kunit_test_suites(&slab_map_suite, &bitmap_suite);

MODULE_LICENSE("GPL");
