/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Giving a copy back to the pool: what a client does with a broker's move
 * mark (Documentation/protocol.md, "Taking excess back"), as one sans-IO
 * decision shared by spare-ublk (userspace/ublk/lifecycle.c) and, next,
 * spare.ko.
 *
 * A broker that marks a renewed grant asks the client to take that many
 * slab copies off the donor, so that a client waiting below its fair
 * share gets the room. A mark is a request, not an order: the copy leaves
 * only if no page is lost by it.
 *
 *   the copy is not MAPPED, or the device stops       -> KEEP (why)
 *   a write, a resync or a move is in flight on it    -> LATER (busy)
 *   a donor whose grants still have room (@to)        -> MOVE there
 *   every written page is current on another MAPPED
 *   copy of the slab                                  -> DROP (copies)
 *   else, the backup device holds every written page  -> DROP (backup)
 *   else                                              -> KEEP (only copy)
 *
 * MOVE comes first: a copy moved keeps the slab whole (a dropped one
 * leaves it a copy short, or served by the backup, until new room comes).
 * MOVE: the move machine (spare_move.h) moves it to @to
 * (spare_reclaim_move_begin(): EVICT's path, copy, switch, drain, UNMAP),
 * with no fallback to another donor: if @to refuses or fails, the copy
 * is judged again without a target (spare_reclaim_no_target()), dropped
 * if that loses nothing, else kept. DROP: the driver takes the copy out
 * of service as an eviction "the old way" does (EVICTING: reads go to the
 * other copies or the backup; the copy drains), then UNMAPs it and frees
 * its slot, so that the slab map no longer names it and the grant for it
 * is not renewed. KEEP: the driver logs why and goes on renewing the
 * grant.
 *
 * Locking: expects slab->lock held, as spare_slab.h; never sleeps,
 * allocates or takes a lock.
 */
#ifndef SPARE_RECLAIM_H
#define SPARE_RECLAIM_H

#include <linux/types.h>

#include "spare_move.h"
#include "spare_slab.h"

/*
 * A donor that sent EVICT within this many seconds takes no copy a move
 * mark moves (both drivers): it asked for memory back, and its grants'
 * room is the broker's older view (broker/move, session 44: a donor
 * evicting every slab got two copies back two seconds later, asked back
 * by sparectl with no mark, which session 46 mended; the cool-down stays).
 */
#define SPARE_RECLAIM_EVICT_COOL_S	60

enum spare_reclaim_act {
	SPARE_RECLAIM_KEEP,	/* it stays (why); its grant is renewed */
	SPARE_RECLAIM_LATER,	/* not now: ask again on the next look */
	SPARE_RECLAIM_DROP,	/* out of service, drained, UNMAPped, slot freed */
	SPARE_RECLAIM_MOVE,	/* moved to donor @to (the move machine) */
};

enum spare_reclaim_why {
	SPARE_RECLAIM_WHY_NONE,
	SPARE_RECLAIM_WHY_COPIES,	/* DROP: another copy is current */
	SPARE_RECLAIM_WHY_BACKUP,	/* DROP: the backup holds every page */
	SPARE_RECLAIM_WHY_ROOM,		/* MOVE: a donor's grants have room */
	SPARE_RECLAIM_WHY_NOT_MAPPED,	/* KEEP: the copy is not MAPPED */
	SPARE_RECLAIM_WHY_STOP,		/* KEEP: the device powers off */
	SPARE_RECLAIM_WHY_BUSY,		/* LATER: a write, resync or move */
	SPARE_RECLAIM_WHY_ONLY_COPY,	/* KEEP: the one current copy, no room */
};

/* What the driver sees, for one copy. */
struct spare_reclaim_in {
	bool stop;		/* the device powers off */
	bool moving;		/* a move of this slab is in progress */
	/*
	 * The backup device holds every page written to the slab: one is
	 * configured, and no backup write of the slab is in flight (with
	 * backup=sync every write that ended is on it).
	 */
	bool backup_whole;
	/*
	 * A donor holding no copy of the slab whose unmarked grants have
	 * room for one (the driver's choice, spare_move_pick() with
	 * *roomy, among donors it holds grants for), or -1: no room
	 * granted, no move.
	 */
	int to;
};

enum spare_reclaim_act spare_reclaim_decide(const struct spare_slab_map *map,
					    const struct spare_slab *slab,
					    u32 c,
					    const struct spare_reclaim_in *in,
					    enum spare_reclaim_why *why);

int spare_reclaim_move_begin(struct spare_move *mv,
			     const struct spare_slab_map *map,
			     struct spare_slab *slab, u32 s, u32 donor, u32 c,
			     u32 to, u64 now, u32 news);
enum spare_move_act spare_reclaim_no_target(struct spare_move *mv,
					    const struct spare_slab_map *map,
					    struct spare_slab *slab,
					    const struct spare_reclaim_in *in,
					    const struct spare_move_in *min,
					    enum spare_reclaim_why *why);

/* Whether every written page of @slab is current on a MAPPED copy but @c. */
bool spare_reclaim_others_hold(const struct spare_slab_map *map,
			       const struct spare_slab *slab, u32 c);

/*
 * How many copies a donor is asked back by one give-back request
 * (spare-ublk's NAME.giveback line; Documentation/ublk.md). @count is
 * what the monitor asks of the donor (0: nothing). With @has_keep ("ADDR
 * COUNT KEEP"), the copies the device holds there (@held) beyond @keep
 * (those the monitor's unmarked grants and the room just granted cover),
 * less @leaving (copies already on their way out): a count read off a
 * slab map that lags by a give-back asks nothing twice. Without it ("ADDR
 * COUNT", an older monitor) @count less @leaving. Never negative.
 */
u32 spare_reclaim_owed(u32 count, bool has_keep, u32 keep, u32 held,
		       u32 leaving);

const char *spare_reclaim_act_name(enum spare_reclaim_act act);
const char *spare_reclaim_why_name(enum spare_reclaim_why why);

#endif /* SPARE_RECLAIM_H */
