// SPDX-License-Identifier: GPL-2.0
/*
 * The resync plan (spare_resync_plan.h): begin and end of one chunk over
 * the slab map. Pure logic, tested by KUnit (spare_resync_plan_kunit.c)
 * and, built for userspace, by tests/unit/test_resync_plan.c.
 */
#include <linux/errno.h>

#include "spare_resync_plan.h"

/**
 * spare_resync_plan_begin() - plan the next chunk of a resync of @slab
 * @map: the slab map
 * @slab: the slab, its lock held by the caller
 * @max: pages at most in the chunk
 * @backup: the device has a backup to refill from where no copy is current
 * @ck: the chunk, filled when one begins
 *
 * A chunk is taken from a current copy (spare_slab_resync_begin()), or
 * else, with @backup, from the backup device
 * (spare_slab_resync_begin_backup()). Once begun, the chunk's copies count
 * it in their inflight, so that an eviction of either waits for it before
 * its UNMAP; spare_resync_plan_end() gives that back. A chunk from the
 * backup may still overlap an async backup write: the caller checks that
 * (spare_resync_from_backup()) before it reads, and ends the chunk
 * unmarked if it may not.
 *
 * Return: 1 when a chunk began; 0 when the slab needs nothing now; -EBUSY
 * when it needs a chunk from the backup while a write is in flight in it.
 */
int spare_resync_plan_begin(const struct spare_slab_map *map,
			    struct spare_slab *slab, u32 max, bool backup,
			    struct spare_resync_chunk *ck)
{
	struct spare_copy *src = NULL, *dst;
	u64 off;
	int ret;

	*ck = (struct spare_resync_chunk){};
	ret = spare_slab_resync_begin(map, slab, max, &ck->rs);
	if (ret && backup)
		ret = spare_slab_resync_begin_backup(map, slab, max, &ck->rs);
	if (ret)
		return ret == -EBUSY ? -EBUSY : 0;
	if (!spare_resync_from_backup(ck))
		src = &slab->copy[ck->rs.source];
	dst = &slab->copy[ck->rs.target];
	off = (u64)ck->rs.first << SPARE_PAGE_SHIFT;
	ck->page = (u64)slab->id * map->pages_per_slab + ck->rs.first;
	if (src) {
		ck->src_donor = src->donor;
		ck->src_addr = src->addr + off;
		ck->src_rkey = src->rkey;
		src->inflight++;
	}
	ck->dst_donor = dst->donor;
	ck->dst_addr = dst->addr + off;
	ck->dst_rkey = dst->rkey;
	dst->inflight++;
	return 1;
}

/**
 * spare_resync_plan_end() - close a chunk that spare_resync_plan_begin() began
 * @map: the slab map
 * @slab: the slab, its lock held by the caller
 * @ck: the chunk
 * @ok: the chunk was copied whole to its target
 *
 * The target becomes current for the chunk only if @ok, no write touched
 * the chunk meanwhile and the copy kept its generation
 * (spare_slab_resync_end()). Both copies stop counting the chunk.
 *
 * Return: whether the target was marked current, and whether a copy of the
 * chunk is EVICTING (its drain waits for the inflight count just dropped).
 */
struct spare_resync_after
spare_resync_plan_end(const struct spare_slab_map *map,
		      struct spare_slab *slab,
		      const struct spare_resync_chunk *ck, bool ok)
{
	struct spare_copy *src = spare_resync_from_backup(ck) ? NULL :
				 &slab->copy[ck->rs.source];
	struct spare_copy *dst = &slab->copy[ck->rs.target];
	struct spare_resync_after after;

	after.marked = spare_slab_resync_end(map, slab, &ck->rs, ok);
	if (src)
		src->inflight--;
	dst->inflight--;
	after.wake = (src && src->state == SPARE_COPY_EVICTING) ||
		     dst->state == SPARE_COPY_EVICTING;
	return after;
}
