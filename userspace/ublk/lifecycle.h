/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lifecycle: the pure rules of spare-ublk's moves and MAP answers
 * (lifecycle.c), here so that tests/unit/test_ublk_logic.c checks them.
 * The reconnect back-off is the donor life cycle's, shared with spare.ko
 * (kmod/core/spare_donor_life.h).
 */
#ifndef SPARE_UBLK_LIFECYCLE_H
#define SPARE_UBLK_LIFECYCLE_H

#include <stdbool.h>
#include <stdint.h>

#include "spare_slab.h"
#include "wire.h"

/*
 * A move must be over by three quarters of the donor's grace period (as
 * in spare.ko): then a new copy that is mapped but not complete takes over
 * anyway, and a move without a mapped new copy gives the slab back.
 */
static inline uint64_t life_move_due(uint64_t evict_at_ms, uint32_t deadline_ms)
{
	return evict_at_ms + deadline_ms / 4 * 3;
}

/*
 * The answer to the MAP of copy @c of @slab, which map_copy() moved to
 * MAPPING before it asked: the copy becomes MAPPED at @addr with @rkey
 * when the donor said yes (@ok) on a session that is still the donor's
 * (@live: it was not failed while the MAP was out), and UNMAPPED again
 * otherwise, so that the next session maps it (a dead session's rkey is
 * never taken). A copy no longer MAPPING was changed meanwhile (its
 * donor's failure road) and is left alone. true: MAPPED. Under
 * slab->lock.
 */
static inline bool life_map_answer(const struct spare_slab_map *map,
				   struct spare_slab *slab, u32 c, bool ok,
				   bool live, u64 addr, u32 rkey)
{
	if (slab->copy[c].state != SPARE_COPY_MAPPING)
		return false;
	if (!ok || !live) {
		spare_copy_set_state(map, slab, c, SPARE_COPY_UNMAPPED);
		return false;
	}
	slab->copy[c].addr = addr;
	slab->copy[c].rkey = rkey;
	spare_copy_set_state(map, slab, c, SPARE_COPY_MAPPED);
	return true;
}

#endif /* SPARE_UBLK_LIFECYCLE_H */
