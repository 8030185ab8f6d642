/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test cases of giving a copy back on a move mark (spare_reclaim.c),
 * written once and replayed twice: by KUnit (spare_reclaim_kunit.c) and,
 * built for userspace, by tests/unit/test_reclaim.c. They are what a
 * driver meets: two current copies (one goes); one copy stale where the
 * other is not (it goes; the stale one stays); the only copy with and
 * without a backup, and with a donor whose grants have room (moved before
 * dropped); a write, a resync or a move in flight; a copy not mapped;
 * power-off; and the move on a mark itself: never cut short, no other
 * donor asked when its target refuses (dropped or kept then).
 *
 * The includer defines the harness:
 *   RECLAIM_T                  the case's argument (struct kunit *, or int)
 *   RECLAIM_CHECK(t, cond)     a check that goes on after a failure
 *   RECLAIM_EQ(t, a, b)        the same for a == b (as long long)
 *   RECLAIM_ASSERT(t, cond)    a check that ends the case on a failure
 */
#ifndef SPARE_RECLAIM_CASES_H
#define SPARE_RECLAIM_CASES_H

#include <linux/errno.h>

#include "spare_reclaim.h"

static bool rc_map(struct spare_slab_map *map, struct spare_slab *slab, int c)
{
	return !spare_copy_set_state(map, slab, c, SPARE_COPY_MAPPING) &&
	       !spare_copy_set_state(map, slab, c, SPARE_COPY_MAPPED);
}

/* A write of pages [first, first + n) that lands on the copies in @land. */
static void rc_write(struct spare_slab_map *map, struct spare_slab *slab,
		     u32 first, u32 n, u32 land)
{
	u32 gens[SPARE_MAX_SLOTS];
	u32 mask = spare_slab_write_begin(map, slab, first, n, gens);
	u32 c;

	for (c = 0; c < map->nr_slots; c++)
		if (mask & land & (1U << c))
			spare_slab_write_landed(map, slab, c, gens[c], first, n);
	spare_slab_write_end(slab);
}

/*
 * One 1 MiB slab (256 pages) of a device of two, @copies copies on donors
 * 0 (and 1), mapped, donors 0-2; pages 3-5 written to every copy.
 */
static bool rc_setup(struct spare_slab_map *map, struct spare_slab **slab,
		     u32 copies)
{
	u32 c;

	if (spare_slab_map_init(map, 2 << 20, 20, copies, 3))
		return false;
	*slab = &map->slabs[0];
	for (c = 0; c < copies; c++)
		if (spare_slab_donor_slot(map, *slab, c) != (int)c ||
		    !rc_map(map, *slab, (int)c))
			return false;
	rc_write(map, *slab, 3, 3, ~0U);
	return true;
}

static const struct spare_reclaim_in rc_none = { .to = -1 };

/* The core's answer for copy @c given @in: @act, for the reason @why. */
static void rc_says(RECLAIM_T t, struct spare_slab_map *map,
		    struct spare_slab *slab, u32 c,
		    const struct spare_reclaim_in *in,
		    enum spare_reclaim_act act, enum spare_reclaim_why why)
{
	enum spare_reclaim_why w;

	RECLAIM_EQ(t, spare_reclaim_decide(map, slab, c, in, &w), act);
	RECLAIM_EQ(t, w, why);
}

/* Two current copies: either may go, by the other. */
static void reclaim_two_copies(RECLAIM_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	enum spare_reclaim_why why;

	RECLAIM_ASSERT(t, rc_setup(&map, &slab, 2));
	RECLAIM_EQ(t, spare_reclaim_decide(&map, slab, 0, &rc_none, &why),
		   SPARE_RECLAIM_DROP);
	RECLAIM_EQ(t, why, SPARE_RECLAIM_WHY_COPIES);
	RECLAIM_EQ(t, spare_reclaim_decide(&map, slab, 1, &rc_none, &why),
		   SPARE_RECLAIM_DROP);
	/* once copy 0 is out of service, copy 1 is the only one */
	RECLAIM_ASSERT(t, !spare_copy_set_state(&map, slab, 0, SPARE_COPY_EVICTING));
	RECLAIM_EQ(t, spare_reclaim_decide(&map, slab, 1, &rc_none, &why),
		   SPARE_RECLAIM_KEEP);
	RECLAIM_EQ(t, why, SPARE_RECLAIM_WHY_ONLY_COPY);
	spare_slab_map_free(&map);
}

/* A write landed on copy 0 only: copy 1 may go, copy 0 may not. */
static void reclaim_stale_copy(RECLAIM_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	enum spare_reclaim_why why;

	RECLAIM_ASSERT(t, rc_setup(&map, &slab, 2));
	rc_write(&map, slab, 200, 1, 1U << 0);
	RECLAIM_EQ(t, spare_reclaim_decide(&map, slab, 1, &rc_none, &why),
		   SPARE_RECLAIM_DROP);
	RECLAIM_EQ(t, why, SPARE_RECLAIM_WHY_COPIES);
	RECLAIM_EQ(t, spare_reclaim_decide(&map, slab, 0, &rc_none, &why),
		   SPARE_RECLAIM_KEEP);
	RECLAIM_EQ(t, why, SPARE_RECLAIM_WHY_ONLY_COPY);
	RECLAIM_CHECK(t, !spare_reclaim_others_hold(&map, slab, 0));
	RECLAIM_CHECK(t, spare_reclaim_others_hold(&map, slab, 1));
	/* the last page of the slab (the bitmap's last word) counts too */
	rc_write(&map, slab, 255, 1, 1U << 1);
	RECLAIM_CHECK(t, !spare_reclaim_others_hold(&map, slab, 1));
	spare_slab_map_free(&map);
}

/* The only copy: the backup, else a donor with room, else it stays. */
static void reclaim_only_copy(RECLAIM_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	enum spare_reclaim_why why;
	struct spare_reclaim_in in = rc_none;

	RECLAIM_ASSERT(t, rc_setup(&map, &slab, 1));
	RECLAIM_EQ(t, spare_reclaim_decide(&map, slab, 0, &in, &why),
		   SPARE_RECLAIM_KEEP);
	RECLAIM_EQ(t, why, SPARE_RECLAIM_WHY_ONLY_COPY);
	in.to = 2;
	RECLAIM_EQ(t, spare_reclaim_decide(&map, slab, 0, &in, &why),
		   SPARE_RECLAIM_MOVE);
	RECLAIM_EQ(t, why, SPARE_RECLAIM_WHY_ROOM);
	/* a target that holds the copy already, or no donor of the device */
	in.to = 0;
	RECLAIM_EQ(t, spare_reclaim_decide(&map, slab, 0, &in, &why),
		   SPARE_RECLAIM_KEEP);
	in.to = 3;
	RECLAIM_EQ(t, spare_reclaim_decide(&map, slab, 0, &in, &why),
		   SPARE_RECLAIM_KEEP);
	/* the backup holds every page: moved all the same, else dropped */
	in.to = 2;
	in.backup_whole = true;
	rc_says(t, &map, slab, 0, &in, SPARE_RECLAIM_MOVE, SPARE_RECLAIM_WHY_ROOM);
	in.to = -1;
	rc_says(t, &map, slab, 0, &in, SPARE_RECLAIM_DROP,
		SPARE_RECLAIM_WHY_BACKUP);
	spare_slab_map_free(&map);
}

/*
 * Room granted on a donor without a copy: the copy moves, even where
 * dropping it would lose nothing (another copy current, or the backup),
 * so the slab keeps its copies. No room granted: dropped as before.
 */
static void reclaim_moves_before_drop(RECLAIM_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	struct spare_reclaim_in in = rc_none;

	RECLAIM_ASSERT(t, rc_setup(&map, &slab, 2));
	in.to = 2;
	rc_says(t, &map, slab, 0, &in, SPARE_RECLAIM_MOVE, SPARE_RECLAIM_WHY_ROOM);
	in.backup_whole = true;
	rc_says(t, &map, slab, 1, &in, SPARE_RECLAIM_MOVE, SPARE_RECLAIM_WHY_ROOM);
	/* busy first: a move in flight is looked at later, room or not */
	in.moving = true;
	rc_says(t, &map, slab, 1, &in, SPARE_RECLAIM_LATER,
		SPARE_RECLAIM_WHY_BUSY);
	in.moving = false;
	/* the target holds a copy already: no move, dropped by the other */
	in.to = 1;
	rc_says(t, &map, slab, 0, &in, SPARE_RECLAIM_DROP,
		SPARE_RECLAIM_WHY_COPIES);
	spare_slab_map_free(&map);
}

/*
 * The move on a mark (spare_reclaim_move_begin()): the copy goes to the
 * spare slot on the target; it is never cut short for time; a target
 * that refuses ends it without another donor asked: dropped where that
 * loses nothing, else kept (the spare slot freed); a target that maps
 * it: moved, as an EVICT's move.
 */
static void reclaim_move_no_fallback(RECLAIM_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	enum spare_reclaim_why why;
	struct spare_reclaim_in in = rc_none;
	struct spare_move_in min = { .now = 1000, .drain_ms = 100 };
	struct spare_move mv;
	int to;

	RECLAIM_ASSERT(t, rc_setup(&map, &slab, 1));
	RECLAIM_EQ(t, spare_reclaim_move_begin(&mv, &map, slab, 0, 0, 0, 2,
					       min.now, 0), 0);
	RECLAIM_CHECK(t, mv.reclaim);
	RECLAIM_EQ(t, mv.state, SPARE_MOVE_FILL);
	to = mv.to;
	RECLAIM_ASSERT(t, to == 1);
	RECLAIM_EQ(t, slab->copy[to].donor, 2);
	/* hours later, its MAP not answered: not late, still filling */
	min.now += 3600 * 1000;
	RECLAIM_EQ(t, spare_move_step(&mv, &map, slab, &min),
		   SPARE_MOVE_ACT_NONE);
	RECLAIM_EQ(t, mv.state, SPARE_MOVE_FILL);
	/* refused: the only copy, no backup: kept, the spare slot free */
	spare_move_refused(&mv, &map, slab);
	RECLAIM_EQ(t, mv.state, SPARE_MOVE_SEEK);
	RECLAIM_EQ(t, spare_reclaim_no_target(&mv, &map, slab, &in, &min, &why),
		   SPARE_MOVE_ACT_KEPT);
	RECLAIM_EQ(t, why, SPARE_RECLAIM_WHY_ONLY_COPY);
	RECLAIM_CHECK(t, spare_move_over(&mv));
	RECLAIM_EQ(t, slab->copy[0].state, SPARE_COPY_MAPPED);
	RECLAIM_EQ(t, slab->copy[to].donor, SPARE_NO_DONOR);
	/* again, with the backup whole: refused, then dropped the old way */
	RECLAIM_EQ(t, spare_reclaim_move_begin(&mv, &map, slab, 0, 0, 0, 2,
					       min.now, 0), 0);
	spare_move_refused(&mv, &map, slab);
	in.backup_whole = true;
	RECLAIM_EQ(t, spare_reclaim_no_target(&mv, &map, slab, &in, &min, &why),
		   SPARE_MOVE_ACT_EVICTING);
	RECLAIM_EQ(t, why, SPARE_RECLAIM_WHY_BACKUP);
	RECLAIM_EQ(t, mv.why, SPARE_MOVE_WHY_RECLAIM);
	RECLAIM_EQ(t, slab->copy[0].state, SPARE_COPY_EVICTING);
	/* a target that holds a copy already: not begun */
	RECLAIM_ASSERT(t, !spare_copy_set_state(&map, slab, 0, SPARE_COPY_UNMAPPED));
	RECLAIM_ASSERT(t, rc_map(&map, slab, 0));
	rc_write(&map, slab, 3, 3, 1U << 0);
	RECLAIM_EQ(t, spare_reclaim_move_begin(&mv, &map, slab, 0, 0, 0, 0,
					       min.now, 0), -EEXIST);
	RECLAIM_CHECK(t, spare_move_over(&mv));
	/* a target that maps it: filled, it ends as an EVICT's move does */
	RECLAIM_EQ(t, spare_reclaim_move_begin(&mv, &map, slab, 0, 0, 0, 2,
					       min.now, 0), 0);
	to = mv.to;
	RECLAIM_ASSERT(t, to >= 0 && rc_map(&map, slab, to));
	RECLAIM_EQ(t, spare_move_step(&mv, &map, slab, &min),
		   SPARE_MOVE_ACT_KICK);
	/* resync copies pages 3-5: then the new copy holds every page */
	rc_write(&map, slab, 3, 3, ~0U);
	RECLAIM_EQ(t, spare_move_step(&mv, &map, slab, &min),
		   SPARE_MOVE_ACT_MOVED);
	RECLAIM_CHECK(t, !mv.shorted);
	RECLAIM_EQ(t, slab->copy[0].donor, SPARE_NO_DONOR);
	RECLAIM_EQ(t, slab->copy[to].state, SPARE_COPY_MAPPED);
	RECLAIM_EQ(t, spare_slab_donor_slot(&map, slab, 2), to);
	spare_slab_map_free(&map);
}

/* A slab never written: nothing is lost, the copy goes. */
static void reclaim_never_written(RECLAIM_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	enum spare_reclaim_why why;

	RECLAIM_ASSERT(t, !spare_slab_map_init(&map, 2 << 20, 20, 1, 3));
	slab = &map.slabs[1];
	RECLAIM_ASSERT(t, rc_map(&map, slab, 0));
	RECLAIM_EQ(t, spare_reclaim_decide(&map, slab, 0, &rc_none, &why),
		   SPARE_RECLAIM_DROP);
	RECLAIM_EQ(t, why, SPARE_RECLAIM_WHY_COPIES);
	spare_slab_map_free(&map);
}

/* In flight, not mapped, stopping: not now, or never. */
static void reclaim_busy_and_not_mapped(RECLAIM_T t)
{
	struct spare_slab_map map;
	struct spare_slab *slab;
	enum spare_reclaim_why why;
	struct spare_reclaim_in in = rc_none;
	struct spare_resync rs;
	u32 gens[SPARE_MAX_SLOTS];

	RECLAIM_ASSERT(t, rc_setup(&map, &slab, 2));
	in.backup_whole = true;
	/* a write in flight */
	spare_slab_write_begin(&map, slab, 7, 1, gens);
	RECLAIM_EQ(t, spare_reclaim_decide(&map, slab, 0, &in, &why),
		   SPARE_RECLAIM_LATER);
	RECLAIM_EQ(t, why, SPARE_RECLAIM_WHY_BUSY);
	spare_slab_write_landed(&map, slab, 0, gens[0], 7, 1);
	spare_slab_write_landed(&map, slab, 1, gens[1], 7, 1);
	spare_slab_write_end(slab);
	/* a move of the slab */
	in.moving = true;
	RECLAIM_EQ(t, spare_reclaim_decide(&map, slab, 0, &in, &why),
		   SPARE_RECLAIM_LATER);
	in.moving = false;
	/* a resync filling copy 1 */
	rc_write(&map, slab, 9, 1, 1U << 0);
	RECLAIM_ASSERT(t, !spare_slab_resync_begin(&map, slab, 16, &rs));
	RECLAIM_EQ(t, rs.target, 1);
	RECLAIM_EQ(t, spare_reclaim_decide(&map, slab, 1, &in, &why),
		   SPARE_RECLAIM_LATER);
	spare_slab_resync_end(&map, slab, &rs, true);
	RECLAIM_EQ(t, spare_reclaim_decide(&map, slab, 1, &in, &why),
		   SPARE_RECLAIM_DROP);
	/* power-off */
	in.stop = true;
	RECLAIM_EQ(t, spare_reclaim_decide(&map, slab, 1, &in, &why),
		   SPARE_RECLAIM_KEEP);
	RECLAIM_EQ(t, why, SPARE_RECLAIM_WHY_STOP);
	in.stop = false;
	/* not mapped (failed), the spare slot, a slot out of range */
	RECLAIM_ASSERT(t, !spare_copy_set_state(&map, slab, 1, SPARE_COPY_FAILED));
	RECLAIM_EQ(t, spare_reclaim_decide(&map, slab, 1, &in, &why),
		   SPARE_RECLAIM_KEEP);
	RECLAIM_EQ(t, why, SPARE_RECLAIM_WHY_NOT_MAPPED);
	RECLAIM_EQ(t, spare_reclaim_decide(&map, slab, 2, &in, &why),
		   SPARE_RECLAIM_KEEP);
	RECLAIM_EQ(t, spare_reclaim_decide(&map, slab, 9, &in, &why),
		   SPARE_RECLAIM_KEEP);
	RECLAIM_EQ(t, why, SPARE_RECLAIM_WHY_NOT_MAPPED);
	spare_slab_map_free(&map);
}

/*
 * A give-back request's count (spare_reclaim_owed()). The KEEP form: the
 * monitor of session 48's stuck hog read a slab map that still showed a
 * copy given back a second before and asked for one more; with KEEP the
 * repeat asks nothing. The count form (no KEEP) as before.
 */
static void reclaim_owed(RECLAIM_T t)
{
	/* no KEEP: the count less those leaving */
	RECLAIM_EQ(t, spare_reclaim_owed(2, false, 0, 5, 0), 2);
	RECLAIM_EQ(t, spare_reclaim_owed(2, false, 0, 5, 1), 1);
	RECLAIM_EQ(t, spare_reclaim_owed(1, false, 0, 5, 3), 0);
	/* KEEP: 5 held, 4 covered: one owed */
	RECLAIM_EQ(t, spare_reclaim_owed(1, true, 4, 5, 0), 1);
	/* the same line read again while that copy leaves: nothing more */
	RECLAIM_EQ(t, spare_reclaim_owed(1, true, 4, 5, 1), 0);
	/* and after it left (a lagging map still counts it): nothing more */
	RECLAIM_EQ(t, spare_reclaim_owed(1, true, 4, 4, 0), 0);
	/* never below KEEP, whatever the count */
	RECLAIM_EQ(t, spare_reclaim_owed(3, true, 4, 3, 0), 0);
	RECLAIM_EQ(t, spare_reclaim_owed(9, true, 4, 6, 1), 1);
	/* KEEP 0: every copy there not leaving */
	RECLAIM_EQ(t, spare_reclaim_owed(1, true, 0, 3, 1), 2);
	/* a count of 0 asks nothing, KEEP or not */
	RECLAIM_EQ(t, spare_reclaim_owed(0, true, 0, 3, 0), 0);
	RECLAIM_EQ(t, spare_reclaim_owed(0, false, 0, 3, 0), 0);
}

/* Every case, in the order they run; each harness goes through this table. */
struct spare_reclaim_case {
	const char *name;
	void (*run)(RECLAIM_T t);
};

static const struct spare_reclaim_case spare_reclaim_cases[] = {
	{ "two_copies", reclaim_two_copies },
	{ "stale_copy", reclaim_stale_copy },
	{ "only_copy", reclaim_only_copy },
	{ "never_written", reclaim_never_written },
	{ "busy_and_not_mapped", reclaim_busy_and_not_mapped },
	{ "moves_before_drop", reclaim_moves_before_drop },
	{ "move_no_fallback", reclaim_move_no_fallback },
	{ "owed", reclaim_owed },
};

#endif /* SPARE_RECLAIM_CASES_H */
