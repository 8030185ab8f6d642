/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The move machine's test cases (spare_move.c), written once and replayed
 * twice: by KUnit (spare_move_kunit.c) and, built for userspace, by the
 * host test tests/unit/test_move.c. They are the cases both drivers meet:
 * a clean move; the old copy busy when the new one is ready (it drains,
 * then the drain's deadline passes); no target (the old way, or a wait);
 * out of time with the new copy mapped but not filled (shorted); the
 * target lost mid-copy (and a refused MAP); the old copy's donor lost
 * mid-copy; a grant that comes late (held slot, and none held) or too
 * late; the move cut short by power-off; and the re-home of a copy whose
 * donor is down too long (spare_slab_rehome()).
 *
 * The includer defines the harness:
 *   MOVE_T                  the case's argument (struct kunit *, or int)
 *   MOVE_CHECK(t, cond)     a check that goes on after a failure
 *   MOVE_EQ(t, a, b)        the same for a == b (as long long)
 *   MOVE_ASSERT(t, cond)    a check that ends the case on a failure
 * and runs every case of spare_move_cases[].
 */
#ifndef SPARE_MOVE_CASES_H
#define SPARE_MOVE_CASES_H

#include "spare_move.h"

#define MV_DUE		1000	/* ms: the move's due time */
#define MV_DRAIN	100	/* ms: the longest drain */

static bool mv_set(struct spare_slab_map *map, struct spare_slab *slab, int c,
		   enum spare_copy_state st)
{
	return !spare_copy_set_state(map, slab, c, st);
}

static bool mv_map(struct spare_slab_map *map, struct spare_slab *slab, int c)
{
	return mv_set(map, slab, c, SPARE_COPY_MAPPING) &&
	       mv_set(map, slab, c, SPARE_COPY_MAPPED);
}

/* A write of pages [first, first + n) that lands on every copy. */
static void mv_write(struct spare_slab_map *map, struct spare_slab *slab,
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

/* Resync copies every chunk it finds; whether it found one. */
static bool mv_fill(struct spare_slab_map *map, struct spare_slab *slab)
{
	struct spare_resync rs;
	bool any = false;

	while (!spare_slab_resync_begin(map, slab, 16, &rs)) {
		spare_slab_resync_end(map, slab, &rs, true);
		any = true;
	}
	return any;
}

/*
 * One 1 MiB slab (256 pages) of a device of two, two copies on donors 0
 * and 1 (slots 0 and 1), the spare slot 2 empty, donors 0-2; pages 3-5
 * written. Donor 0 asked slot 0 back: the move begins at time 0.
 */
static bool mv_setup(struct spare_slab_map *map, struct spare_slab **slab,
		     struct spare_move *mv, struct spare_move_in *in)
{
	if (spare_slab_map_init(map, 2 << 20, 20, 2, 3))
		return false;
	*slab = &map->slabs[0];
	if (spare_slab_donor_slot(map, *slab, 0) != 0 ||
	    spare_slab_donor_slot(map, *slab, 1) != 1 ||
	    !mv_map(map, *slab, 0) || !mv_map(map, *slab, 1))
		return false;
	mv_write(map, *slab, 3, 3);
	*in = (struct spare_move_in){ .now = 0, .news = 7, .drain_ms = MV_DRAIN };
	spare_move_init(mv, 0, 0, 0, 0, MV_DUE, in->news);
	return true;
}

/* The move takes donor 2: the spare slot, UNMAPPED, for the MAP. */
static bool mv_take(struct spare_slab_map *map, struct spare_slab *slab,
		    struct spare_move *mv, struct spare_move_in *in)
{
	return spare_move_step(mv, map, slab, in) == SPARE_MOVE_ACT_SEEK &&
	       spare_move_target(mv, map, slab, 2) == 0 && mv->to == 2 &&
	       mv->state == SPARE_MOVE_FILL;
}

static void move_clean(MOVE_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_move mv;
	struct spare_move_in in;

	MOVE_ASSERT(t, mv_setup(&map, &slab, &mv, &in));
	/* donor 1 holds a copy already: the next one is asked */
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_SEEK);
	MOVE_EQ(t, spare_move_target(&mv, &map, slab, 1), -EEXIST);
	MOVE_EQ(t, spare_move_target(&mv, &map, slab, 2), 0);
	MOVE_EQ(t, mv.tried, 0x7);
	MOVE_EQ(t, mv.to, 2);
	MOVE_EQ(t, slab->copy[2].donor, 2);
	/* the MAP is out: nothing to do */
	in.now = 10;
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_NONE);
	MOVE_ASSERT(t, mv_set(&map, slab, 2, SPARE_COPY_MAPPING));
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_NONE);
	MOVE_ASSERT(t, mv_set(&map, slab, 2, SPARE_COPY_MAPPED));
	/* mapped: resync is kicked once, and fills it */
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_KICK);
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_NONE);
	MOVE_EQ(t, mv.state, SPARE_MOVE_FILL);
	MOVE_CHECK(t, mv_fill(&map, slab));
	in.now = 20;
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_MOVED);
	MOVE_CHECK(t, spare_move_over(&mv));
	MOVE_CHECK(t, !mv.shorted);
	MOVE_EQ(t, mv.why, SPARE_MOVE_WHY_NONE);
	/* the old slot is the spare one now; the new copy serves */
	MOVE_EQ(t, slab->copy[0].donor, SPARE_NO_DONOR);
	MOVE_EQ(t, slab->copy[0].state, SPARE_COPY_UNMAPPED);
	MOVE_EQ(t, slab->copy[2].state, SPARE_COPY_MAPPED);
	MOVE_EQ(t, spare_slab_readable_mask(&map, slab, 3, 3), 0x6);
	/* over: later looks do nothing */
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_NONE);
	spare_slab_map_free(&map);
}

static void move_source_busy(MOVE_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_move mv;
	struct spare_move_in in;
	int round;

	/* round 0: the posted operation finishes; round 1: it never does */
	for (round = 0; round < 2; round++) {
		MOVE_ASSERT(t, mv_setup(&map, &slab, &mv, &in));
		MOVE_ASSERT(t, mv_take(&map, slab, &mv, &in));
		MOVE_ASSERT(t, mv_map(&map, slab, 2));
		MOVE_CHECK(t, mv_fill(&map, slab));
		slab->copy[0].inflight = 1;	/* a read posted to the old copy */
		in.now = 50;
		MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in),
			SPARE_MOVE_ACT_NONE);
		MOVE_EQ(t, mv.state, SPARE_MOVE_DRAIN);
		/* no new operation picks it meanwhile */
		MOVE_EQ(t, slab->copy[0].state, SPARE_COPY_EVICTING);
		MOVE_EQ(t, spare_slab_readable_mask(&map, slab, 3, 3), 0x6);
		in.now = 50 + MV_DRAIN - 1;
		MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in),
			SPARE_MOVE_ACT_NONE);
		MOVE_EQ(t, slab->copy[0].donor, 0);
		if (round == 0)
			slab->copy[0].inflight = 0;
		else
			in.now = 50 + MV_DRAIN;		/* the drain's deadline */
		MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in),
			SPARE_MOVE_ACT_MOVED);
		MOVE_EQ(t, slab->copy[0].donor, SPARE_NO_DONOR);
		MOVE_CHECK(t, !mv.shorted);
		spare_slab_map_free(&map);
	}
}

static void move_no_target(MOVE_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_move mv;
	struct spare_move_in in;

	/* no grants on the device: the old way at once */
	MOVE_ASSERT(t, mv_setup(&map, &slab, &mv, &in));
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_SEEK);
	MOVE_EQ(t, spare_move_no_target(&mv, &map, slab, false, false, &in),
		SPARE_MOVE_ACT_EVICTING);
	MOVE_EQ(t, mv.why, SPARE_MOVE_WHY_NO_TARGET);
	MOVE_EQ(t, slab->copy[0].state, SPARE_COPY_EVICTING);
	slab->copy[0].inflight = 1;
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_NONE);
	slab->copy[0].inflight = 0;
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_EVICTED);
	MOVE_EQ(t, slab->copy[0].state, SPARE_COPY_UNMAPPED);
	MOVE_EQ(t, slab->copy[0].donor, 0);	/* it stays the donor's slot */
	MOVE_EQ(t, slab->copy[2].donor, SPARE_NO_DONOR);
	spare_slab_map_free(&map);

	/* with grants: nobody was asked, it waits for a donor, then one is up */
	MOVE_ASSERT(t, mv_setup(&map, &slab, &mv, &in));
	MOVE_EQ(t, spare_move_no_target(&mv, &map, slab, true, true, &in),
		SPARE_MOVE_ACT_WAITS);
	MOVE_EQ(t, mv.state, SPARE_MOVE_WAIT_DONOR);
	MOVE_EQ(t, mv.to, -1);
	in.now = 200;
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_NONE);
	in.news++;
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_SEEK);
	MOVE_EQ(t, mv.tried, 0x1);
	/* still none; then the due time passes: the old way */
	MOVE_EQ(t, spare_move_no_target(&mv, &map, slab, true, true, &in),
		SPARE_MOVE_ACT_WAITS);
	in.now = MV_DUE;
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_EVICTING);
	MOVE_EQ(t, mv.why, SPARE_MOVE_WHY_LATE);
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_EVICTED);
	spare_slab_map_free(&map);

	/* no spare slot: the copy cannot move */
	MOVE_ASSERT(t, mv_setup(&map, &slab, &mv, &in));
	slab->copy[2].inflight = 1;	/* the last move's old copy drains */
	MOVE_EQ(t, spare_move_target(&mv, &map, slab, 2), -EBUSY);
	spare_slab_map_free(&map);
}

static void move_shorted(MOVE_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_move mv;
	struct spare_move_in in;

	MOVE_ASSERT(t, mv_setup(&map, &slab, &mv, &in));
	MOVE_ASSERT(t, mv_take(&map, slab, &mv, &in));
	MOVE_ASSERT(t, mv_map(&map, slab, 2));
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_KICK);
	/* pages 3-5 are not copied yet when the due time comes */
	in.now = MV_DUE - 1;
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_NONE);
	in.now = MV_DUE;
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_MOVED);
	MOVE_CHECK(t, mv.shorted);
	MOVE_EQ(t, mv.why, SPARE_MOVE_WHY_LATE);
	MOVE_EQ(t, slab->copy[0].donor, SPARE_NO_DONOR);
	/* the new copy takes over; pages 3-5 are on copy 1 alone */
	MOVE_EQ(t, spare_slab_readable_mask(&map, slab, 3, 3), 0x2);
	MOVE_EQ(t, spare_slab_readable_mask(&map, slab, 100, 1), 0x6);
	spare_slab_map_free(&map);
}

static void move_target_lost(MOVE_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_move mv;
	struct spare_move_in in;

	/* mapped, then its donor fails mid-copy */
	MOVE_ASSERT(t, mv_setup(&map, &slab, &mv, &in));
	MOVE_ASSERT(t, mv_take(&map, slab, &mv, &in));
	MOVE_ASSERT(t, mv_map(&map, slab, 2));
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_KICK);
	MOVE_ASSERT(t, mv_set(&map, slab, 2, SPARE_COPY_FAILED));
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_NONE);
	MOVE_EQ(t, slab->copy[2].donor, 2);	/* its failure road has it */
	MOVE_ASSERT(t, mv_set(&map, slab, 2, SPARE_COPY_UNMAPPED));
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_SEEK);
	MOVE_EQ(t, mv.to, -1);
	MOVE_EQ(t, slab->copy[2].donor, SPARE_NO_DONOR);
	MOVE_EQ(t, slab->copy[0].state, SPARE_COPY_MAPPED);
	/* donor 2 was asked: none left to ask, no grants: the old way */
	MOVE_EQ(t, mv.tried, 0x5);
	MOVE_EQ(t, spare_move_no_target(&mv, &map, slab, false, false, &in),
		SPARE_MOVE_ACT_EVICTING);
	spare_slab_map_free(&map);

	/* the MAP refused, seen later (spare.ko: the answer comes apart) */
	MOVE_ASSERT(t, mv_setup(&map, &slab, &mv, &in));
	MOVE_ASSERT(t, mv_take(&map, slab, &mv, &in));
	MOVE_ASSERT(t, mv_set(&map, slab, 2, SPARE_COPY_MAPPING));
	MOVE_ASSERT(t, mv_set(&map, slab, 2, SPARE_COPY_UNMAPPED));
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_SEEK);
	MOVE_EQ(t, slab->copy[2].donor, SPARE_NO_DONOR);
	spare_slab_map_free(&map);

	/* the MAP refused, answered at once (spare-ublk) */
	MOVE_ASSERT(t, mv_setup(&map, &slab, &mv, &in));
	MOVE_ASSERT(t, mv_take(&map, slab, &mv, &in));
	spare_move_refused(&mv, &map, slab);
	MOVE_EQ(t, mv.state, SPARE_MOVE_SEEK);
	MOVE_EQ(t, mv.refused, 2);
	MOVE_EQ(t, slab->copy[2].donor, SPARE_NO_DONOR);
	spare_slab_map_free(&map);
}

static void move_source_lost(MOVE_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_move mv;
	struct spare_move_in in;

	/* the new copy mapped: it takes the failed one's place */
	MOVE_ASSERT(t, mv_setup(&map, &slab, &mv, &in));
	MOVE_ASSERT(t, mv_take(&map, slab, &mv, &in));
	MOVE_ASSERT(t, mv_map(&map, slab, 2));
	MOVE_ASSERT(t, mv_set(&map, slab, 0, SPARE_COPY_FAILED));
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_GONE);
	MOVE_CHECK(t, spare_move_over(&mv));
	MOVE_EQ(t, slab->copy[0].donor, SPARE_NO_DONOR);
	MOVE_EQ(t, slab->copy[2].state, SPARE_COPY_MAPPED);
	spare_slab_map_free(&map);

	/* the new copy not mapped yet: its slot is given up */
	MOVE_ASSERT(t, mv_setup(&map, &slab, &mv, &in));
	MOVE_ASSERT(t, mv_take(&map, slab, &mv, &in));
	MOVE_ASSERT(t, mv_set(&map, slab, 0, SPARE_COPY_FAILED));
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_GONE);
	MOVE_EQ(t, slab->copy[2].donor, SPARE_NO_DONOR);
	MOVE_EQ(t, slab->copy[0].donor, 0);	/* its road has it */
	spare_slab_map_free(&map);

	/* lost while waiting for a grant, with a slot held */
	MOVE_ASSERT(t, mv_setup(&map, &slab, &mv, &in));
	MOVE_ASSERT(t, mv_take(&map, slab, &mv, &in));
	spare_move_refused(&mv, &map, slab);
	MOVE_EQ(t, spare_move_no_target(&mv, &map, slab, true, true, &in),
		SPARE_MOVE_ACT_WAITS);
	MOVE_EQ(t, mv.to, 2);
	MOVE_ASSERT(t, mv_set(&map, slab, 0, SPARE_COPY_FAILED));
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_GONE);
	MOVE_EQ(t, slab->copy[2].donor, SPARE_NO_DONOR);
	spare_slab_map_free(&map);
}

static void move_late_grant(MOVE_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_move mv;
	struct spare_move_in in;

	/* held slot (spare-ublk): donor 2 refused; a grant comes */
	MOVE_ASSERT(t, mv_setup(&map, &slab, &mv, &in));
	MOVE_ASSERT(t, mv_take(&map, slab, &mv, &in));
	spare_move_refused(&mv, &map, slab);
	MOVE_EQ(t, spare_move_no_target(&mv, &map, slab, true, true, &in),
		SPARE_MOVE_ACT_WAITS);
	MOVE_EQ(t, mv.state, SPARE_MOVE_WAIT_GRANT);
	MOVE_EQ(t, mv.to, 2);
	MOVE_EQ(t, slab->copy[2].state, SPARE_COPY_UNMAPPED);
	in.now = 300;
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_NONE);
	in.news++;
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_MAP);
	/* refused again: it still waits, the slot held */
	MOVE_ASSERT(t, mv_set(&map, slab, 2, SPARE_COPY_MAPPING));
	MOVE_ASSERT(t, mv_set(&map, slab, 2, SPARE_COPY_UNMAPPED));
	spare_move_refused(&mv, &map, slab);
	MOVE_EQ(t, mv.state, SPARE_MOVE_WAIT_GRANT);
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_NONE);
	in.news++;
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_MAP);
	MOVE_ASSERT(t, mv_map(&map, slab, 2));
	spare_move_mapped(&mv, slab);
	MOVE_EQ(t, mv.state, SPARE_MOVE_FILL);
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_KICK);
	MOVE_CHECK(t, mv_fill(&map, slab));
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_MOVED);
	MOVE_CHECK(t, !mv.shorted);
	spare_slab_map_free(&map);

	/* no slot held (spare.ko): the grant makes it ask everyone again */
	MOVE_ASSERT(t, mv_setup(&map, &slab, &mv, &in));
	MOVE_ASSERT(t, mv_take(&map, slab, &mv, &in));
	MOVE_ASSERT(t, mv_set(&map, slab, 2, SPARE_COPY_MAPPING));
	MOVE_ASSERT(t, mv_set(&map, slab, 2, SPARE_COPY_UNMAPPED));
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_SEEK);
	MOVE_EQ(t, spare_move_no_target(&mv, &map, slab, true, false, &in),
		SPARE_MOVE_ACT_WAITS);
	MOVE_EQ(t, mv.state, SPARE_MOVE_WAIT_GRANT);
	MOVE_EQ(t, mv.to, -1);
	in.news++;
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_SEEK);
	MOVE_EQ(t, mv.tried, 0x1);
	MOVE_EQ(t, spare_move_target(&mv, &map, slab, 2), 0);
	spare_slab_map_free(&map);

	/* the held slot's donor is lost: everyone is asked again */
	MOVE_ASSERT(t, mv_setup(&map, &slab, &mv, &in));
	MOVE_ASSERT(t, mv_take(&map, slab, &mv, &in));
	spare_move_refused(&mv, &map, slab);
	spare_move_no_target(&mv, &map, slab, true, true, &in);
	in.to_down = true;
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_SEEK);
	MOVE_EQ(t, slab->copy[2].donor, SPARE_NO_DONOR);
	spare_slab_map_free(&map);

	/* too late: the slot held is given up, the copy goes the old way */
	MOVE_ASSERT(t, mv_setup(&map, &slab, &mv, &in));
	MOVE_ASSERT(t, mv_take(&map, slab, &mv, &in));
	spare_move_refused(&mv, &map, slab);
	spare_move_no_target(&mv, &map, slab, true, true, &in);
	in.now = MV_DUE;
	in.news++;
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_EVICTING);
	MOVE_EQ(t, mv.why, SPARE_MOVE_WHY_LATE);
	MOVE_EQ(t, slab->copy[2].donor, SPARE_NO_DONOR);
	MOVE_EQ(t, slab->copy[0].state, SPARE_COPY_EVICTING);
	spare_slab_map_free(&map);
}

static void move_power_off(MOVE_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_move mv;
	struct spare_move_in in;

	/* mapped, not filled: the new copy takes over in part */
	MOVE_ASSERT(t, mv_setup(&map, &slab, &mv, &in));
	MOVE_ASSERT(t, mv_take(&map, slab, &mv, &in));
	MOVE_ASSERT(t, mv_map(&map, slab, 2));
	in.now = 10;
	in.stop = true;
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_MOVED);
	MOVE_CHECK(t, mv.shorted);
	MOVE_EQ(t, mv.why, SPARE_MOVE_WHY_STOP);
	spare_slab_map_free(&map);

	/* the MAP still out: the old way, the new copy stays a copy */
	MOVE_ASSERT(t, mv_setup(&map, &slab, &mv, &in));
	MOVE_ASSERT(t, mv_take(&map, slab, &mv, &in));
	MOVE_ASSERT(t, mv_set(&map, slab, 2, SPARE_COPY_MAPPING));
	in.stop = true;
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_EVICTING);
	MOVE_EQ(t, mv.why, SPARE_MOVE_WHY_STOP);
	MOVE_EQ(t, slab->copy[2].donor, 2);
	MOVE_EQ(t, spare_move_step(&mv, &map, slab, &in), SPARE_MOVE_ACT_EVICTED);
	MOVE_EQ(t, slab->copy[0].state, SPARE_COPY_UNMAPPED);
	spare_slab_map_free(&map);
}

/* The candidates and the failure road's sweep, as both drivers use them. */
static void move_cand_and_sweep(MOVE_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_move mv;
	struct spare_move_in in;
	struct spare_move_cand c;
	u16 domain[3] = { 0, 1, 1 };

	MOVE_ASSERT(t, mv_setup(&map, &slab, &mv, &in));
	spare_move_cand_init(&c, &map, 0, NULL, 0, 2, 0, true);
	MOVE_CHECK(t, c.ok && c.fresh);
	MOVE_EQ(t, c.load, 1);		/* slab 1: copies on donors 1 and 2 */
	MOVE_EQ(t, c.room, SPARE_ROOM_OPEN);
	spare_move_cand_init(&c, &map, 0, domain, 3, 2, 0, true);
	MOVE_CHECK(t, c.ok && !c.fresh);	/* donor 1 shares its domain */
	spare_move_cand_init(&c, &map, 0, NULL, 0, 1, 0, true);
	MOVE_CHECK(t, !c.ok);		/* it holds a copy of slab 0 */
	spare_move_cand_init(&c, &map, 0, NULL, 0, 2, 0, false);
	MOVE_CHECK(t, !c.ok && !c.fresh);

	MOVE_EQ(t, spare_slab_copy_sweep(&map, slab, 1,
					 1U << SPARE_COPY_MAPPED,
					 SPARE_COPY_FAILED), 1);
	MOVE_EQ(t, slab->copy[1].state, SPARE_COPY_FAILED);
	MOVE_EQ(t, spare_slab_copy_sweep(&map, slab, 1,
					 1U << SPARE_COPY_MAPPED,
					 SPARE_COPY_FAILED), 0);
	MOVE_EQ(t, spare_slab_copy_sweep(&map, slab, 2, ~0U,
					 SPARE_COPY_FAILED), 0);
	spare_slab_map_free(&map);
}

/*
 * Re-home (spare_slab_rehome()): donor 0, down too long, gives its copy of
 * slab 0 up. Two 1 MiB slabs, two copies, four donors: slab 0 on donors 0
 * and 1 (slots 0 and 1), pages 3-5 written.
 */
static void move_rehome(MOVE_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	u32 s;
	int to;

	MOVE_ASSERT(t, !spare_slab_map_init(&map, 2 << 20, 20, 2, 4));
	slab = &map.slabs[0];
	MOVE_ASSERT(t, mv_map(&map, slab, 0) && mv_map(&map, slab, 1));
	mv_write(&map, slab, 3, 3);
	/* its failure road still runs: the copy is not given up yet */
	MOVE_EQ(t, spare_slab_rehome(&map, slab, 0, 2), -EBUSY);
	MOVE_ASSERT(t, mv_set(&map, slab, 0, SPARE_COPY_FAILED));
	MOVE_EQ(t, spare_slab_rehome(&map, slab, 0, 2), -EBUSY);
	MOVE_ASSERT(t, mv_set(&map, slab, 0, SPARE_COPY_UNMAPPED));
	/* a donor without a copy; a target with one, or none such */
	MOVE_EQ(t, spare_slab_rehome(&map, slab, 3, 2), -ENOENT);
	MOVE_EQ(t, spare_slab_rehome(&map, slab, 0, 1), -EEXIST);
	MOVE_EQ(t, spare_slab_rehome(&map, slab, 0, 4), -EEXIST);
	/* an operation still posted to it, or a resync chunk open on it */
	slab->copy[0].inflight = 1;
	MOVE_EQ(t, spare_slab_rehome(&map, slab, 0, 2), -EBUSY);
	slab->copy[0].inflight = 0;
	slab->copy[0].rs_n = 1;
	MOVE_EQ(t, spare_slab_rehome(&map, slab, 0, 2), -EBUSY);
	slab->copy[0].rs_n = 0;
	/* a move holds the spare slot, then drains from it */
	MOVE_EQ(t, spare_slab_move_begin(&map, slab, 1, 3), 2);
	MOVE_EQ(t, spare_slab_rehome(&map, slab, 0, 2), -EBUSY);
	MOVE_CHECK(t, spare_slab_move_abort(&map, slab, 2));
	slab->copy[2].inflight = 1;
	MOVE_EQ(t, spare_slab_rehome(&map, slab, 0, 2), -EBUSY);
	slab->copy[2].inflight = 0;
	/* nothing changed by a refusal */
	MOVE_EQ(t, spare_slab_donor_slot(&map, slab, 0), 0);
	MOVE_EQ(t, slab->copy[2].donor, SPARE_NO_DONOR);

	/* given up: the new copy, UNMAPPED, for the MAP; donor 0 holds none */
	to = spare_slab_rehome(&map, slab, 0, 2);
	MOVE_ASSERT(t, to >= 0);
	MOVE_EQ(t, slab->copy[to].donor, 2);
	MOVE_EQ(t, slab->copy[to].state, SPARE_COPY_UNMAPPED);
	MOVE_EQ(t, spare_slab_donor_slot(&map, slab, 0), -1);
	for (s = 0, to = 0; s < map.nr_slots; s++)
		to += slab->copy[s].donor == SPARE_NO_DONOR;
	MOVE_EQ(t, to, 1);		/* one spare slot, as before */
	to = spare_slab_donor_slot(&map, slab, 2);
	MOVE_ASSERT(t, to >= 0);
	/* mapped: current for the pages never written; resync fills it */
	MOVE_ASSERT(t, mv_map(&map, slab, to));
	MOVE_EQ(t, spare_slab_readable_mask(&map, slab, 3, 3), 1U << 1);
	MOVE_CHECK(t, mv_fill(&map, slab));
	MOVE_EQ(t, spare_slab_readable_mask(&map, slab, 3, 3),
		(1U << 1) | (1U << to));
	MOVE_EQ(t, spare_slab_gap(&map, slab, false, &s), SPARE_SLAB_WHOLE);
	MOVE_EQ(t, s, 2);

	/* slab 1 (donors 1 and 2) lost both: its copy waits for donor 1 */
	slab = &map.slabs[1];
	MOVE_ASSERT(t, spare_slab_donor_slot(&map, slab, 1) == 0 &&
		    spare_slab_donor_slot(&map, slab, 2) == 1);
	MOVE_EQ(t, spare_slab_rehome(&map, slab, 1, 3), -ENODATA);
	MOVE_EQ(t, spare_slab_donor_slot(&map, slab, 1), 0);
	MOVE_EQ(t, spare_slab_donor_slot(&map, slab, 3), -1);
	spare_slab_map_free(&map);
}

/*
 * Re-home of a split slab (spare_slab_rehome_split()): spare.ko's split
 * table has one copy per slab, so spare_slab_rehome() finds nothing to
 * refill from; the split goes anyway, empty, for the coding group's
 * repair plan. One 1 MiB split slab on donor 0 (slot 0), donors 0-2.
 */
static void move_rehome_split(MOVE_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	u32 gen;
	int to;

	MOVE_ASSERT(t, !spare_slab_map_init(&map, 1 << 20, 20, 1, 3));
	slab = &map.slabs[0];
	MOVE_EQ(t, map.nr_slots, 2);
	MOVE_ASSERT(t, mv_map(&map, slab, 0));
	mv_write(&map, slab, 3, 3);
	/* still MAPPED, then its failure road not over: not given up */
	MOVE_EQ(t, spare_slab_rehome_split(&map, slab, 0, 1), -EBUSY);
	MOVE_ASSERT(t, mv_set(&map, slab, 0, SPARE_COPY_FAILED));
	MOVE_EQ(t, spare_slab_rehome_split(&map, slab, 0, 1), -EBUSY);
	MOVE_ASSERT(t, mv_set(&map, slab, 0, SPARE_COPY_UNMAPPED));
	slab->copy[0].inflight = 1;
	MOVE_EQ(t, spare_slab_rehome_split(&map, slab, 0, 1), -EBUSY);
	slab->copy[0].inflight = 0;
	MOVE_EQ(t, spare_slab_rehome_split(&map, slab, 2, 1), -ENOENT);
	MOVE_EQ(t, spare_slab_rehome_split(&map, slab, 0, 3), -EEXIST);
	/* the replicas' way waits for a mapped copy that will not come */
	MOVE_EQ(t, spare_slab_rehome(&map, slab, 0, 1), -ENODATA);
	MOVE_EQ(t, spare_slab_donor_slot(&map, slab, 0), 0);
	gen = slab->copy[0].gen;

	to = spare_slab_rehome_split(&map, slab, 0, 1);
	MOVE_ASSERT(t, to >= 0);
	MOVE_EQ(t, slab->copy[to].donor, 1);
	MOVE_EQ(t, slab->copy[to].state, SPARE_COPY_UNMAPPED);
	MOVE_EQ(t, spare_slab_donor_slot(&map, slab, 0), -1);
	/* a new slab: the old one's generation is not the new one's */
	MOVE_CHECK(t, to != 0 || slab->copy[0].gen != gen);
	/* one spare slot left, as before */
	MOVE_EQ(t, slab->copy[1 - to].donor, SPARE_NO_DONOR);
	MOVE_ASSERT(t, mv_map(&map, slab, to));
	MOVE_EQ(t, slab->copy[to].state, SPARE_COPY_MAPPED);
	/* the same again: donor 1 down too, the split goes to donor 2 */
	MOVE_ASSERT(t, mv_set(&map, slab, to, SPARE_COPY_FAILED) &&
		    mv_set(&map, slab, to, SPARE_COPY_UNMAPPED));
	to = spare_slab_rehome_split(&map, slab, 1, 2);
	MOVE_ASSERT(t, to >= 0);
	MOVE_EQ(t, slab->copy[to].donor, 2);
	MOVE_EQ(t, spare_slab_donor_slot(&map, slab, 1), -1);
	spare_slab_map_free(&map);
}

/* Every case, in the order they run; each harness goes through this table. */
struct spare_move_case {
	const char *name;
	void (*run)(MOVE_T t);
};

static const struct spare_move_case spare_move_cases[] = {
	{ "clean", move_clean },
	{ "source_busy", move_source_busy },
	{ "no_target", move_no_target },
	{ "shorted", move_shorted },
	{ "target_lost", move_target_lost },
	{ "source_lost", move_source_lost },
	{ "late_grant", move_late_grant },
	{ "power_off", move_power_off },
	{ "cand_and_sweep", move_cand_and_sweep },
	{ "rehome", move_rehome },
	{ "rehome_split", move_rehome_split },
};

#endif /* SPARE_MOVE_CASES_H */
