/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The move of an evicted copy, as one sans-IO state machine shared by
 * spare.ko (spare_evict.c) and spare-ublk (userspace/ublk/lifecycle.c).
 *
 * A donor asked copy @from of a slab back (EVICT). Before it is given
 * back, a new copy goes to another donor, in the slab's spare slot (@to):
 * once mapped it takes writes beside the old one and resync fills it;
 * when it holds every page the old one holds (or the move is out of time
 * with the new copy mapped: "shorted"), the old copy drains and goes
 * (UNMAP). With no donor to take it, the move waits for a grant or a
 * donor when the device can get one, else the copy goes "the old way":
 * EVICTING, drained, UNMAP, the other copies (and the backup) serve.
 *
 *   SEEK --target--> FILL --ready/shorted--> DRAIN --drained--> DONE
 *    | ^              |  \--refused/failed--> SEEK
 *    | +---news----+  +-----late, unmapped----> EVICT --drained--> DONE
 *    +--no target--> WAIT_GRANT / WAIT_DONOR --late--> EVICT
 *   any state but DRAIN/EVICT: the old copy failed --> DONE (its
 *   donor's failure road has it)
 *
 * The drivers keep the mechanism: which donors are live and have room
 * (spare_move_cand_init(), spare_move_pick()), sending MAP and UNMAP,
 * kicking resync, logging and counting, and looking at each move again
 * (spare.ko every 5 ms in its evict work, spare-ublk in its lifecycle
 * loop). Time is the driver's clock in milliseconds, passed in.
 *
 * Locking: every function taking a struct spare_slab expects slab->lock
 * held, as every function of spare_slab.h; none sleeps, allocates or
 * takes a lock. The actions they return are carried out by the caller
 * after it dropped the lock.
 */
#ifndef SPARE_MOVE_H
#define SPARE_MOVE_H

#include <linux/types.h>

#include "spare_slab.h"

enum spare_move_state {
	SPARE_MOVE_SEEK,	/* no target: the driver asks the next donor */
	SPARE_MOVE_FILL,	/* target slot @to: MAP asked, then resync fills it */
	SPARE_MOVE_WAIT_GRANT,	/* the donors refused: a new grant may come */
	SPARE_MOVE_WAIT_DONOR,	/* no donor to ask: one may be added or come up */
	SPARE_MOVE_DRAIN,	/* the new copy took over: the old one drains */
	SPARE_MOVE_EVICT,	/* the old way: the old copy EVICTING, draining */
	SPARE_MOVE_DONE,
};

/* What the driver does after a step, out of the lock. */
enum spare_move_act {
	SPARE_MOVE_ACT_NONE,	/* look again later */
	SPARE_MOVE_ACT_SEEK,	/* ask the next donor (spare_move_target()) */
	SPARE_MOVE_ACT_MAP,	/* ask the MAP of the held slot @to again */
	SPARE_MOVE_ACT_KICK,	/* the new copy is mapped: kick resync */
	SPARE_MOVE_ACT_WAITS,	/* it began waiting (WAIT_GRANT/_DONOR): log it */
	SPARE_MOVE_ACT_EVICTING,/* it goes the old way now (@why): log it */
	SPARE_MOVE_ACT_MOVED,	/* over: the old slot is free; UNMAP it */
	SPARE_MOVE_ACT_EVICTED,	/* over the old way: UNMAPPED; UNMAP it */
	SPARE_MOVE_ACT_GONE,	/* over: the old copy failed, its road has it */
	SPARE_MOVE_ACT_KEPT,	/* over: a move on a mark gave up; the copy stays */
};

/* Why a move goes the old way or waits, for the drivers' logs. */
enum spare_move_why {
	SPARE_MOVE_WHY_NONE,
	SPARE_MOVE_WHY_NO_TARGET,	/* no other donor takes it */
	SPARE_MOVE_WHY_NO_SLOT,		/* no spare slot, or the copy changed */
	SPARE_MOVE_WHY_LATE,		/* out of time */
	SPARE_MOVE_WHY_STOP,		/* the device powers off */
	SPARE_MOVE_WHY_NO_GRACE,	/* the EVICT gave no grace period */
	SPARE_MOVE_WHY_RECLAIM,		/* a move mark (spare_reclaim.h) */
};

struct spare_move {
	enum spare_move_state state;
	enum spare_move_why why;
	u32 slab;
	u32 evictor;		/* the donor that sent EVICT */
	int from, to;		/* slots; @to < 0: none */
	u32 to_gen;		/* @to's generation when it was taken */
	u32 tried;		/* donors asked, as a bit mask */
	u32 refused;		/* the best ranked donor that refused, or NO_DONOR */
	u32 news;		/* spare_move_in.news when the donors were asked */
	u64 start, due;		/* ms */
	u64 drain_until;	/* ms; DRAIN and EVICT */
	bool kicked;		/* resync was kicked for the mapped new copy */
	bool shorted;		/* the new copy took over without every page */
	bool reclaim;		/* asked by a move mark (spare_reclaim.h), not EVICT */
};

/* What the driver sees, passed to every step. */
struct spare_move_in {
	u64 now;		/* ms */
	bool stop;		/* the device powers off: no move can complete */
	bool to_down;		/* the donor of the held slot @to is not live */
	u32 news;		/* grows with every new grant and donor up */
	u32 drain_ms;		/* longest wait for operations on the old copy */
};

void spare_move_init(struct spare_move *mv, u32 slab, u32 evictor, int from,
		     u64 now, u64 due, u32 news);
int spare_move_target(struct spare_move *mv, const struct spare_slab_map *map,
		      struct spare_slab *slab, u32 donor);
void spare_move_refused(struct spare_move *mv,
			const struct spare_slab_map *map,
			struct spare_slab *slab);
void spare_move_mapped(struct spare_move *mv, const struct spare_slab *slab);
enum spare_move_act spare_move_no_target(struct spare_move *mv,
					 const struct spare_slab_map *map,
					 struct spare_slab *slab, bool can_wait,
					 bool hold, const struct spare_move_in *in);
enum spare_move_act spare_move_evict(struct spare_move *mv,
				     const struct spare_slab_map *map,
				     struct spare_slab *slab,
				     enum spare_move_why why,
				     const struct spare_move_in *in);
enum spare_move_act spare_move_step(struct spare_move *mv,
				    const struct spare_slab_map *map,
				    struct spare_slab *slab,
				    const struct spare_move_in *in);

void spare_move_cand_init(struct spare_move_cand *c,
			  const struct spare_slab_map *map, u32 slab,
			  const u16 *domain, u32 nr_domain, u32 donor,
			  u32 from, bool ok);
u32 spare_slab_copy_sweep(const struct spare_slab_map *map,
			  struct spare_slab *slab, u32 donor, u32 from_mask,
			  enum spare_copy_state to);
int spare_slab_rehome(const struct spare_slab_map *map,
		      struct spare_slab *slab, u32 donor, u32 target);
int spare_slab_rehome_split(const struct spare_slab_map *map,
			    struct spare_slab *slab, u32 donor, u32 target);

const char *spare_move_why_name(enum spare_move_why why);

static inline bool spare_move_over(const struct spare_move *mv)
{
	return mv->state == SPARE_MOVE_DONE;
}

#endif /* SPARE_MOVE_H */
