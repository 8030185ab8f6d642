// SPDX-License-Identifier: GPL-2.0
/*
 * Giving a copy back to the pool on a broker's move mark (spare_reclaim.h).
 * Pure logic, tested by KUnit (spare_reclaim_kunit.c) and, built for
 * userspace, by tests/unit/test_reclaim.c, from the same cases
 * (spare_reclaim_cases.h).
 */
#include "spare_reclaim.h"

bool spare_reclaim_others_hold(const struct spare_slab_map *map,
			       const struct spare_slab *slab, u32 c)
{
	u32 o, slots = 0;

	for (o = 0; o < map->nr_slots; o++)
		if (o != c && slab->copy[o].state == SPARE_COPY_MAPPED)
			slots |= 1U << o;
	return spare_slab_written_held(map, slab, slots);
}

/**
 * spare_reclaim_decide() - can copy @c of @slab leave the pool now, and how
 * @map: the slab map
 * @slab: the slab, its lock held
 * @c: the slot of the copy a broker's mark asks back
 * @in: what the driver sees
 * @why: set to the reason, for the driver's log and counters
 *
 * Return: what the driver does (spare_reclaim.h): MOVE whenever a target
 * is granted, before DROP. Never DROP unless every written page stays
 * readable without the copy, never MOVE without a target: a mark never
 * costs a page.
 */
enum spare_reclaim_act spare_reclaim_decide(const struct spare_slab_map *map,
					    const struct spare_slab *slab,
					    u32 c,
					    const struct spare_reclaim_in *in,
					    enum spare_reclaim_why *why)
{
	const struct spare_copy *cp;

	*why = SPARE_RECLAIM_WHY_NOT_MAPPED;
	if (c >= map->nr_slots)
		return SPARE_RECLAIM_KEEP;
	cp = &slab->copy[c];
	if (cp->state != SPARE_COPY_MAPPED)
		return SPARE_RECLAIM_KEEP;
	*why = SPARE_RECLAIM_WHY_STOP;
	if (in->stop)
		return SPARE_RECLAIM_KEEP;
	*why = SPARE_RECLAIM_WHY_BUSY;
	if (in->moving || slab->writes_inflight || cp->rs_n)
		return SPARE_RECLAIM_LATER;
	*why = SPARE_RECLAIM_WHY_ROOM;
	if (in->to >= 0 && (u32)in->to < map->nr_donors &&
	    spare_slab_donor_slot(map, slab, (u32)in->to) < 0)
		return SPARE_RECLAIM_MOVE;
	*why = SPARE_RECLAIM_WHY_COPIES;
	if (spare_reclaim_others_hold(map, slab, c))
		return SPARE_RECLAIM_DROP;
	*why = SPARE_RECLAIM_WHY_BACKUP;
	if (in->backup_whole)
		return SPARE_RECLAIM_DROP;
	*why = SPARE_RECLAIM_WHY_ONLY_COPY;
	return SPARE_RECLAIM_KEEP;
}

/**
 * spare_reclaim_move_begin() - start the move that spare_reclaim_decide()
 * said (MOVE): copy @c of slab @s, on donor @donor, to donor @to
 * @mv: the move, filled
 * @map: the slab map
 * @slab: the slab, its lock held
 * @s: the slab's index
 * @donor: the donor the mark asks the copy off
 * @c: the copy's slot
 * @to: the target (spare_reclaim_in.to)
 * @now: the driver's clock, ms
 * @news: spare_move_in.news now
 *
 * The move takes the slab's spare slot on @to (FILL: the driver sends
 * its MAP; resync fills it) and then runs as an EVICT's does, but a mark
 * sets no deadline: it is never cut short for time (only a power-off
 * ends it early, as every move), and it asks no other donor
 * (spare_reclaim_no_target()).
 *
 * Return: 0, or spare_move_target()'s error (the move is not begun).
 */
int spare_reclaim_move_begin(struct spare_move *mv,
			     const struct spare_slab_map *map,
			     struct spare_slab *slab, u32 s, u32 donor, u32 c,
			     u32 to, u64 now, u32 news)
{
	int ret;

	spare_move_init(mv, s, donor, (int)c, now, U64_MAX, news);
	mv->reclaim = true;
	ret = spare_move_target(mv, map, slab, to);
	if (ret)
		mv->state = SPARE_MOVE_DONE;
	return ret;
}

/**
 * spare_reclaim_no_target() - a move on a mark has no target now (its
 * target refused the MAP or failed): the copy is dropped or kept, never
 * moved elsewhere
 * @mv: the move (spare_reclaim_move_begin()), in SEEK
 * @map: the slab map
 * @slab: the slab, its lock held
 * @in: what the driver sees for the copy (@in->to and @in->moving are
 *	not used: this move is the slab's)
 * @min: what the driver sees for the move
 * @why: set to the reason, for the driver's log
 *
 * Return: SPARE_MOVE_ACT_EVICTING when the copy goes the old way (DROP,
 * why SPARE_MOVE_WHY_RECLAIM), SPARE_MOVE_ACT_KEPT when it stays (the move
 * is over), SPARE_MOVE_ACT_NONE when a write or resync is in flight
 * (asked again on the next step), or SPARE_MOVE_ACT_GONE.
 */
enum spare_move_act spare_reclaim_no_target(struct spare_move *mv,
					    const struct spare_slab_map *map,
					    struct spare_slab *slab,
					    const struct spare_reclaim_in *in,
					    const struct spare_move_in *min,
					    enum spare_reclaim_why *why)
{
	struct spare_reclaim_in rin = *in;

	rin.to = -1;
	rin.moving = false;
	switch (spare_reclaim_decide(map, slab, (u32)mv->from, &rin, why)) {
	case SPARE_RECLAIM_DROP:
		return spare_move_evict(mv, map, slab, SPARE_MOVE_WHY_RECLAIM,
					min);
	case SPARE_RECLAIM_LATER:
		return SPARE_MOVE_ACT_NONE;
	default:
		mv->state = SPARE_MOVE_DONE;
		return SPARE_MOVE_ACT_KEPT;
	}
}

u32 spare_reclaim_owed(u32 count, bool has_keep, u32 keep, u32 held,
		       u32 leaving)
{
	if (!count)
		return 0;
	if (has_keep) {
		held = held > leaving ? held - leaving : 0;
		return held > keep ? held - keep : 0;
	}
	return count > leaving ? count - leaving : 0;
}

const char *spare_reclaim_act_name(enum spare_reclaim_act act)
{
	switch (act) {
	case SPARE_RECLAIM_KEEP:
		return "keep";
	case SPARE_RECLAIM_LATER:
		return "later";
	case SPARE_RECLAIM_DROP:
		return "drop";
	case SPARE_RECLAIM_MOVE:
		return "move";
	}
	return "?";
}

const char *spare_reclaim_why_name(enum spare_reclaim_why why)
{
	switch (why) {
	case SPARE_RECLAIM_WHY_NONE:
		return "none";
	case SPARE_RECLAIM_WHY_COPIES:
		return "another copy is current";
	case SPARE_RECLAIM_WHY_BACKUP:
		return "the backup device holds every page";
	case SPARE_RECLAIM_WHY_ROOM:
		return "another donor's grants have room";
	case SPARE_RECLAIM_WHY_NOT_MAPPED:
		return "the copy is not mapped";
	case SPARE_RECLAIM_WHY_STOP:
		return "the device powers off";
	case SPARE_RECLAIM_WHY_BUSY:
		return "a write, resync or move is in flight";
	case SPARE_RECLAIM_WHY_ONLY_COPY:
		return "the only current copy, no backup, no donor with room";
	}
	return "?";
}
