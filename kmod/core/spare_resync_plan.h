/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The resync plan: the bookkeeping of one chunk of a resynchronisation, as
 * a sans-IO step over the slab map, shared by spare.ko (spare_resync.c)
 * and spare-ublk (userspace/ublk/resync.c). The drivers copy the chunk
 * (RDMA READ or a backup read, then RDMA WRITE); the plan says which pages,
 * from where to where, and closes the chunk with what the driver reports.
 *
 * Locking: both calls expect the slab's lock held by the caller, as every
 * function of spare_slab.h; the actions they return are carried out by the
 * caller after it dropped the lock.
 */
#ifndef SPARE_RESYNC_PLAN_H
#define SPARE_RESYNC_PLAN_H

#include <linux/types.h>

#include "spare_slab.h"

/* One chunk in flight: its pages and the remote places it moves between. */
struct spare_resync_chunk {
	struct spare_resync rs;
	u64 page;			/* device page of the chunk's first page */
	u32 src_donor, dst_donor;	/* src_*: none from the backup */
	u64 src_addr, dst_addr;		/* remote address of the chunk */
	u32 src_rkey, dst_rkey;
};

/* What the caller does after spare_resync_plan_end(), out of the lock. */
struct spare_resync_after {
	bool marked;	/* the target is current for the chunk: count its pages */
	bool wake;	/* a copy of the chunk is EVICTING: wake its drain */
};

int spare_resync_plan_begin(const struct spare_slab_map *map,
			    struct spare_slab *slab, u32 max, bool backup,
			    struct spare_resync_chunk *ck);
struct spare_resync_after
spare_resync_plan_end(const struct spare_slab_map *map,
		      struct spare_slab *slab,
		      const struct spare_resync_chunk *ck, bool ok);

static inline bool spare_resync_from_backup(const struct spare_resync_chunk *ck)
{
	return ck->rs.source == SPARE_RESYNC_BACKUP;
}

#endif /* SPARE_RESYNC_PLAN_H */
