// SPDX-License-Identifier: GPL-2.0
/*
 * The move of an evicted copy (spare_move.h): one state machine over the
 * slab map. Pure logic, tested by KUnit (spare_move_kunit.c) and, built
 * for userspace, by tests/unit/test_move.c, from the same cases
 * (spare_move_cases.h).
 */
#include <linux/errno.h>

#include "spare_move.h"

/**
 * spare_move_init() - a move begins: no target yet (SEEK)
 * @mv: the move
 * @slab: the slab's index
 * @evictor: the donor that asked its copy back
 * @from: the slot of that copy
 * @now: the driver's clock, ms
 * @due: when the move must be over (three quarters of the grace period)
 * @news: spare_move_in.news now
 */
void spare_move_init(struct spare_move *mv, u32 slab, u32 evictor, int from,
		     u64 now, u64 due, u32 news)
{
	*mv = (struct spare_move){
		.state = SPARE_MOVE_SEEK,
		.slab = slab,
		.evictor = evictor,
		.from = from,
		.to = -1,
		.tried = 1U << evictor,
		.refused = SPARE_NO_DONOR,
		.news = news,
		.start = now,
		.due = due,
	};
}

/**
 * spare_move_target() - take donor @donor as the move's target
 * @mv: the move, in SEEK
 * @map: the slab map
 * @slab: the slab, its lock held
 * @donor: the donor the driver picked (spare_move_pick())
 *
 * The donor counts as asked. Its copy goes in the spare slot, UNMAPPED,
 * for the driver's MAP; the move is in FILL.
 *
 * Return: 0 when taken; -EEXIST when @donor holds a copy of the slab
 * already (pick the next); -EBUSY or -EINVAL when no spare slot is free
 * or the old copy changed (the move cannot go on: spare_move_no_target()).
 */
int spare_move_target(struct spare_move *mv, const struct spare_slab_map *map,
		      struct spare_slab *slab, u32 donor)
{
	int to;

	mv->tried |= 1U << donor;
	to = spare_slab_move_begin(map, slab, mv->from, donor);
	if (to < 0)
		return to;
	mv->to = to;
	mv->to_gen = slab->copy[to].gen;
	mv->kicked = false;
	mv->state = SPARE_MOVE_FILL;
	return 0;
}

static void drop_held(struct spare_move *mv, const struct spare_slab_map *map,
		      struct spare_slab *slab)
{
	if (mv->to >= 0 && spare_slab_move_abort(map, slab, mv->to))
		mv->to = -1;
}

/**
 * spare_move_refused() - the target's MAP was refused (the driver asked it
 * and waited for the answer)
 * @mv: the move, in FILL or WAIT_GRANT (a held slot asked again)
 * @map: the slab map
 * @slab: the slab, its lock held
 *
 * In FILL the slot is given up and the move seeks the next donor; the
 * first donor to refuse is remembered (spare_move_no_target() may hold a
 * slot on it). In WAIT_GRANT the slot stays held.
 */
void spare_move_refused(struct spare_move *mv,
			const struct spare_slab_map *map,
			struct spare_slab *slab)
{
	if (mv->to < 0)
		return;
	if (mv->state == SPARE_MOVE_WAIT_GRANT) {
		mv->to_gen = slab->copy[mv->to].gen;
		return;
	}
	if (mv->refused == SPARE_NO_DONOR)
		mv->refused = slab->copy[mv->to].donor;
	spare_slab_move_abort(map, slab, mv->to);
	mv->to = -1;	/* a slot not UNMAPPED: its donor's failure road has it */
	mv->state = SPARE_MOVE_SEEK;
}

/**
 * spare_move_mapped() - the MAP of the held slot (SPARE_MOVE_ACT_MAP) was
 * answered yes: the move fills it
 * @mv: the move, in WAIT_GRANT
 * @slab: the slab, its lock held
 */
void spare_move_mapped(struct spare_move *mv, const struct spare_slab *slab)
{
	if (mv->to < 0 || mv->state != SPARE_MOVE_WAIT_GRANT)
		return;
	mv->to_gen = slab->copy[mv->to].gen;
	mv->kicked = false;
	mv->state = SPARE_MOVE_FILL;
}

/**
 * spare_move_evict() - the old way: the old copy EVICTING, then drained
 * @mv: the move
 * @map: the slab map
 * @slab: the slab, its lock held
 * @why: the reason, for the driver's log
 * @in: what the driver sees
 *
 * A new copy still MAPPING stays a copy of the slab.
 *
 * Return: SPARE_MOVE_ACT_EVICTING, or SPARE_MOVE_ACT_GONE when the old
 * copy failed meanwhile (its donor's failure road has it).
 */
enum spare_move_act spare_move_evict(struct spare_move *mv,
				     const struct spare_slab_map *map,
				     struct spare_slab *slab,
				     enum spare_move_why why,
				     const struct spare_move_in *in)
{
	if (mv->state == SPARE_MOVE_WAIT_GRANT)
		drop_held(mv, map, slab);
	mv->why = why;
	if (mv->from < 0 ||
	    spare_copy_set_state(map, slab, mv->from, SPARE_COPY_EVICTING)) {
		mv->state = SPARE_MOVE_DONE;
		return SPARE_MOVE_ACT_GONE;
	}
	mv->state = SPARE_MOVE_EVICT;
	mv->drain_until = in->now + in->drain_ms;
	return SPARE_MOVE_ACT_EVICTING;
}

static bool move_late(const struct spare_move *mv,
		      const struct spare_move_in *in)
{
	return in->now >= mv->due || in->stop;
}

static enum spare_move_why late_why(const struct spare_move_in *in)
{
	return in->stop ? SPARE_MOVE_WHY_STOP : SPARE_MOVE_WHY_LATE;
}

/**
 * spare_move_no_target() - the driver found no donor to take the move
 * @mv: the move, in SEEK
 * @map: the slab map
 * @slab: the slab, its lock held
 * @can_wait: a grant or a donor may yet come (the device lends against
 *	      a broker's grants)
 * @hold: while waiting for a grant, hold the spare slot on the first
 *	  donor that refused, unmapped, and ask its MAP again on news
 *	  (spare-ublk: the slab map shows where a grant is wanted)
 * @in: what the driver sees
 *
 * Return: SPARE_MOVE_ACT_WAITS (WAIT_DONOR when no donor was asked at
 * all, else WAIT_GRANT), or the old way (spare_move_evict()).
 */
enum spare_move_act spare_move_no_target(struct spare_move *mv,
					 const struct spare_slab_map *map,
					 struct spare_slab *slab, bool can_wait,
					 bool hold, const struct spare_move_in *in)
{
	int to;

	mv->news = in->news;
	if (!can_wait || move_late(mv, in))
		return spare_move_evict(mv, map, slab, move_late(mv, in) ?
					late_why(in) : SPARE_MOVE_WHY_NO_TARGET,
					in);
	mv->to = -1;
	if (mv->tried == 1U << mv->evictor && mv->refused == SPARE_NO_DONOR) {
		mv->state = SPARE_MOVE_WAIT_DONOR;
		return SPARE_MOVE_ACT_WAITS;
	}
	mv->state = SPARE_MOVE_WAIT_GRANT;
	if (hold && mv->refused != SPARE_NO_DONOR) {
		to = spare_slab_move_begin(map, slab, mv->from, mv->refused);
		if (to >= 0) {
			mv->to = to;
			mv->to_gen = slab->copy[to].gen;
		}
	}
	return SPARE_MOVE_ACT_WAITS;
}

/* Ask the donors again from the first: new grants, or a donor came up. */
static enum spare_move_act seek_again(struct spare_move *mv)
{
	mv->tried = 1U << mv->evictor;
	mv->refused = SPARE_NO_DONOR;
	mv->state = SPARE_MOVE_SEEK;
	return SPARE_MOVE_ACT_SEEK;
}

static enum spare_move_act step_wait(struct spare_move *mv,
				     const struct spare_slab_map *map,
				     struct spare_slab *slab,
				     const struct spare_move_in *in)
{
	if (slab->copy[mv->from].state != SPARE_COPY_MAPPED) {
		drop_held(mv, map, slab);
		mv->state = SPARE_MOVE_DONE;
		return SPARE_MOVE_ACT_GONE;
	}
	if (move_late(mv, in))
		return spare_move_evict(mv, map, slab, late_why(in), in);
	if (mv->to >= 0 && in->to_down) {
		drop_held(mv, map, slab);
		if (mv->to < 0)
			return seek_again(mv);
	}
	if (in->news == mv->news)
		return SPARE_MOVE_ACT_NONE;
	mv->news = in->news;
	return mv->to >= 0 ? SPARE_MOVE_ACT_MAP : seek_again(mv);
}

static enum spare_move_act step_fill(struct spare_move *mv,
				     const struct spare_slab_map *map,
				     struct spare_slab *slab,
				     const struct spare_move_in *in)
{
	struct spare_copy *from = &slab->copy[mv->from];
	struct spare_copy *to = &slab->copy[mv->to];
	bool late = move_late(mv, in), lost, mapped, ready;

	lost = from->state != SPARE_COPY_MAPPED;
	mapped = to->state == SPARE_COPY_MAPPED;
	ready = mapped && !lost &&
		spare_slab_move_ready(map, slab, mv->from, mv->to);
	if (ready || (mapped && !lost && late)) {
		/* the pages not copied yet, if shorted, are elsewhere only */
		mv->shorted = !ready;
		mv->why = ready ? SPARE_MOVE_WHY_NONE : late_why(in);
		spare_slab_move_release(map, slab, mv->from);
		mv->state = SPARE_MOVE_DRAIN;
		mv->drain_until = in->now + in->drain_ms;
		return SPARE_MOVE_ACT_NONE;	/* the caller drains at once */
	}
	if (lost) {
		/* a new copy mapped takes the failed one's place */
		if (mapped && (from->state == SPARE_COPY_FAILED ||
			       from->state == SPARE_COPY_UNMAPPED))
			spare_slab_slot_free(map, slab, mv->from);
		else if (to->state == SPARE_COPY_UNMAPPED)
			spare_slab_move_abort(map, slab, mv->to);
		mv->state = SPARE_MOVE_DONE;
		return SPARE_MOVE_ACT_GONE;
	}
	if (to->state == SPARE_COPY_UNMAPPED && (to->gen != mv->to_gen || late)) {
		/* refused, its donor failed, or out of time */
		spare_slab_move_abort(map, slab, mv->to);
		mv->to = -1;
		mv->state = SPARE_MOVE_SEEK;
	}
	if (late)	/* a new copy still MAPPING stays a copy */
		return spare_move_evict(mv, map, slab, late_why(in), in);
	if (mv->state == SPARE_MOVE_SEEK)
		return SPARE_MOVE_ACT_SEEK;
	if (mapped && !mv->kicked) {
		mv->kicked = true;
		return SPARE_MOVE_ACT_KICK;
	}
	return SPARE_MOVE_ACT_NONE;
}

/* Operations posted to the old copy finish; then it goes. */
static enum spare_move_act step_drain(struct spare_move *mv,
				      const struct spare_slab_map *map,
				      struct spare_slab *slab,
				      const struct spare_move_in *in)
{
	if (slab->copy[mv->from].inflight && in->now < mv->drain_until)
		return SPARE_MOVE_ACT_NONE;
	spare_slab_slot_free(map, slab, mv->from);
	mv->state = SPARE_MOVE_DONE;
	return SPARE_MOVE_ACT_MOVED;
}

/**
 * spare_move_step() - one look at a move
 * @mv: the move
 * @map: the slab map
 * @slab: the slab, its lock held
 * @in: what the driver sees now
 *
 * Return: what the driver does next, out of the lock. After
 * SPARE_MOVE_ACT_MOVED, _EVICTED and _GONE the move is over
 * (spare_move_over()).
 */
enum spare_move_act spare_move_step(struct spare_move *mv,
				    const struct spare_slab_map *map,
				    struct spare_slab *slab,
				    const struct spare_move_in *in)
{
	enum spare_move_act act;
	struct spare_copy *from;

	if (mv->state == SPARE_MOVE_DONE || mv->from < 0)
		return SPARE_MOVE_ACT_NONE;
	from = &slab->copy[mv->from];
	switch (mv->state) {
	case SPARE_MOVE_SEEK:
		if (from->state != SPARE_COPY_MAPPED) {
			mv->state = SPARE_MOVE_DONE;
			return SPARE_MOVE_ACT_GONE;
		}
		if (move_late(mv, in))
			return spare_move_evict(mv, map, slab, late_why(in), in);
		return SPARE_MOVE_ACT_SEEK;
	case SPARE_MOVE_WAIT_GRANT:
	case SPARE_MOVE_WAIT_DONOR:
		return step_wait(mv, map, slab, in);
	case SPARE_MOVE_FILL:
		act = step_fill(mv, map, slab, in);
		if (mv->state != SPARE_MOVE_DRAIN)
			return act;
		return step_drain(mv, map, slab, in);	/* at once */
	case SPARE_MOVE_DRAIN:
		return step_drain(mv, map, slab, in);
	case SPARE_MOVE_EVICT:
		if (from->inflight && in->now < mv->drain_until)
			return SPARE_MOVE_ACT_NONE;
		if (from->state == SPARE_COPY_EVICTING)
			spare_copy_set_state(map, slab, mv->from,
					     SPARE_COPY_UNMAPPED);
		mv->state = SPARE_MOVE_DONE;
		return SPARE_MOVE_ACT_EVICTED;
	case SPARE_MOVE_DONE:
		break;
	}
	return SPARE_MOVE_ACT_NONE;
}

/**
 * spare_move_cand_init() - donor @donor as a candidate to take a copy of
 * slab @slab moving off donor @from (SPARE_NO_DONOR: none)
 * @c: the candidate, filled; @c->room is SPARE_ROOM_OPEN (the driver
 *     that counts grants sets it)
 * @map: the slab map
 * @slab: the slab's index
 * @domain: the donors' failure domains, or NULL
 * @nr_domain: how many @domain has
 * @donor: the candidate
 * @from: the donor the copy moves off
 * @ok: the driver's part: live and not asked yet
 *
 * Read without the slabs' locks, as spare_slab_donor_slot(): the driver
 * rechecks under the lock (spare_move_target()).
 */
void spare_move_cand_init(struct spare_move_cand *c,
			  const struct spare_slab_map *map, u32 slab,
			  const u16 *domain, u32 nr_domain, u32 donor,
			  u32 from, bool ok)
{
	const struct spare_slab *sl = &map->slabs[slab];
	u32 x;

	c->ok = ok && spare_slab_donor_slot(map, sl, donor) < 0;
	c->fresh = c->ok && spare_slab_domain_fresh(map, sl, domain, nr_domain,
						    donor, from);
	c->load = 0;
	for (x = 0; c->ok && x < map->nr_slabs; x++)
		c->load += spare_slab_donor_slot(map, &map->slabs[x], donor) >= 0;
	c->room = SPARE_ROOM_OPEN;
}

/**
 * spare_slab_copy_sweep() - donor @donor's copy of @slab, if in a state of
 * @from_mask, goes to state @to (a step of a donor's failure road)
 * @map: the slab map
 * @slab: the slab, its lock held
 * @donor: the donor
 * @from_mask: the states swept, as bits (1 << state)
 * @to: the new state
 *
 * Return: 1 when the copy changed state, else 0.
 */
u32 spare_slab_copy_sweep(const struct spare_slab_map *map,
			  struct spare_slab *slab, u32 donor, u32 from_mask,
			  enum spare_copy_state to)
{
	int c = spare_slab_donor_slot(map, slab, donor);

	return c >= 0 && (from_mask & (1U << slab->copy[c].state)) &&
	       !spare_copy_set_state(map, slab, c, to);
}

/* The first MAPPED slot of @slab, or -1. */
static int first_mapped(const struct spare_slab_map *map,
			const struct spare_slab *slab)
{
	u32 c;

	for (c = 0; c < map->nr_slots; c++)
		if (slab->copy[c].state == SPARE_COPY_MAPPED)
			return c;
	return -1;
}

/*
 * Whether @slab's spare slot is free for a new copy: no move holds it
 * (one slot at least names no donor) and no slot naming none still drains.
 */
static bool spare_slot_ready(const struct spare_slab_map *map,
			     const struct spare_slab *slab)
{
	bool free = false;
	u32 c;

	for (c = 0; c < map->nr_slots; c++) {
		const struct spare_copy *cp = &slab->copy[c];

		if (cp->donor != SPARE_NO_DONOR)
			continue;
		if (cp->state != SPARE_COPY_UNMAPPED || cp->inflight)
			return false;
		free = true;
	}
	return free;
}

/**
 * spare_slab_rehome() - donor @donor, down too long
 * (spare_life_rehome_due()), gives its copy of @slab up to donor @target,
 * as a move would take it: the old copy's slot is emptied and the new
 * copy goes in the first empty slot (spare_slab_move_begin()), UNMAPPED,
 * for the driver's MAP; once mapped, resync refills it from a mapped copy
 * of the slab
 * @map: the slab map
 * @slab: the slab, its lock held
 * @donor: the donor that is down
 * @target: the live donor the driver picked (spare_move_pick())
 *
 * The old copy must be UNMAPPED and idle (its donor's failure road is
 * over and no resync chunk is open on it), the spare slot free (no move
 * holds it, nothing drains from it: a move's slots are its own), and some
 * copy must be MAPPED to
 * refill the new one from: without one the copy waits for its donor,
 * whose pages may be the only ones left.
 *
 * Return: the new copy's slot; -ENOENT when @donor holds no copy of the
 * slab; -EEXIST when @target holds one already (pick another) or is no
 * donor of the map; -EBUSY when the old copy is not idle or the spare slot
 * is not free (ask again later); -ENODATA when no copy is MAPPED.
 */
/*
 * Donor @donor's copy of @slab goes to @target: refilled from a MAPPED
 * copy (@refill), or empty, for a caller that rebuilds it otherwise.
 */
static int rehome_copy(const struct spare_slab_map *map,
		       struct spare_slab *slab, u32 donor, u32 target,
		       bool refill)
{
	int old = spare_slab_donor_slot(map, slab, donor), from = -1, to;
	const struct spare_copy *cp;

	if (old < 0)
		return -ENOENT;
	if (target >= map->nr_donors ||
	    spare_slab_donor_slot(map, slab, target) >= 0)
		return -EEXIST;
	cp = &slab->copy[old];
	if (cp->state != SPARE_COPY_UNMAPPED || cp->inflight || cp->rs_n ||
	    !spare_slot_ready(map, slab))
		return -EBUSY;
	if (refill) {
		from = first_mapped(map, slab);
		if (from < 0)
			return -ENODATA;
	}
	spare_slab_slot_free(map, slab, old);
	/* cannot fail now: every empty slot is idle, the old one too */
	to = refill ? spare_slab_move_begin(map, slab, from, target) :
		      spare_slab_slot_take(map, slab, target);
	if (to < 0) {
		WRITE_ONCE(slab->copy[old].donor, donor);
		spare_slab_changed(map);
	}
	return to;
}

int spare_slab_rehome(const struct spare_slab_map *map,
		      struct spare_slab *slab, u32 donor, u32 target)
{
	return rehome_copy(map, slab, donor, target, true);
}

/**
 * spare_slab_rehome_split() - spare_slab_rehome() for a split slab of an
 * erasure-coded device (one copy, spare.ko's split table): donor @donor,
 * down too long, gives the slab up to donor @target with nothing to
 * refill it from; the new copy, empty and UNMAPPED, is for the driver's
 * MAP, and the coding group's repair plan rebuilds its pages from K
 * other splits once it is mapped (spare_ec_split_mapped()). The old
 * slab is forgotten: it went with the donor's session.
 * @map: the split table
 * @slab: the split slab, its lock held
 * @donor: the donor that is down
 * @target: the live donor the driver picked (spare_ec_rehome_pick())
 *
 * Return: the new copy's slot; -ENOENT, -EEXIST and -EBUSY as
 * spare_slab_rehome(); never -ENODATA.
 */
int spare_slab_rehome_split(const struct spare_slab_map *map,
			    struct spare_slab *slab, u32 donor, u32 target)
{
	return rehome_copy(map, slab, donor, target, false);
}

const char *spare_move_why_name(enum spare_move_why why)
{
	switch (why) {
	case SPARE_MOVE_WHY_NONE:
		return "moved";
	case SPARE_MOVE_WHY_NO_TARGET:
		return "no other donor takes it";
	case SPARE_MOVE_WHY_NO_SLOT:
		return "no spare slot";
	case SPARE_MOVE_WHY_LATE:
		return "out of time";
	case SPARE_MOVE_WHY_STOP:
		return "the device is powering off";
	case SPARE_MOVE_WHY_NO_GRACE:
		return "no grace period";
	case SPARE_MOVE_WHY_RECLAIM:
		return "given back to the pool on a move mark";
	}
	return "?";
}
