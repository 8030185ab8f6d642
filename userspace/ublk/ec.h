/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ec: spare-ublk's erasure-coded request path (--redundancy ec:K+R,
 * issue 34). The decisions are kmod/core/spare_ec_io.c's (current splits,
 * late-binding reads, writes that land on K..K+R splits); this file posts
 * them: K+R split slabs per coding group, one per donor, mapped at start;
 * writes encode into a bounce slot and post K+R RDMA WRITEs; reads post
 * K+Δ RDMA READs into a bounce slot and copy or decode the first K.
 * Documentation/erasure-coding.md, "The I/O path".
 */
#ifndef SPARE_UBLK_EC_H
#define SPARE_UBLK_EC_H

#include <infiniband/verbs.h>
#include <pthread.h>
#include <stdbool.h>

#include "spare_ec_io.h"
#include "spare_slab.h"

struct dev;
struct queue;
struct ibv_wc;

/* wr_id of an erasure-coded RDMA operation: this bit, slot << 8, op. */
#define EC_WR_FLAG	(1ULL << 63)

/*
 * One split slab: split j of coding group g, on one donor. Changed under
 * the group's lock; @gen and @inflight are atomic besides, for the
 * operations in flight on it (ec.c, "Lost, evicted, rebuilt").
 */
struct ec_split {
	u32	donor;
	u32	id;		/* the slab id on the wire */
	u64	addr;
	u32	rkey;
	u32	fail_seq;	/* the donor's fail_seq when it was mapped */
	bool	mapped;		/* the donor lends it to us now */
	/* moves when the slab is lost or replaced: an operation posted for
	 * an older one is not posted, marks nothing, fails no donor */
	u32	gen;
	/* RDMA operations posted, not reaped, by the parity of their gen */
	u32	inflight[2];
	/* evicted: the slab on unmap_donor is given back (UNMAP) once the
	 * operations on it drained, or at unmap_at (the deadline's 3/4) */
	bool	unmap_due;
	u64	unmap_at;
	u32	unmap_donor;
	u32	evictor;	/* the donor that evicted it, or SPARE_NO_DONOR */
	u64	retry_at;	/* a replacement's MAP was refused: ask again then */
	bool	warned;		/* no replacement found: said once */
	/*
	 * Lost, and a replacement's donor picked (@donor now) but its MAP
	 * not granted yet: NAME.map lists it there, unmapped, as spare.ko's
	 * slab_map lists a re-homed split, so that sparectl's monitor asks
	 * the broker for room there; @lost_on is where it was mapped.
	 */
	bool	picked;
	u32	lost_on;
	/*
	 * Lost, and no donor the device holds a grant for fits while one
	 * without a grant would (or none fits at all), under a broker's
	 * grants: listed in NAME.moving, so that sparectl's monitor asks
	 * the broker for a new donor (MOVE_REQ). Read by the stats writer.
	 */
	bool	wait_donor;
	/*
	 * An evicted split moving by copy (ec.c, "Moves"): @mv from the
	 * EVICT until the switch or the move's end; @mv_fill once the new
	 * slab (on mv_donor) is mapped and resync copies into it;
	 * @mv_copying while a chunk is copied there; @mv_unmap: the move
	 * gave up, its new slab is given back once no chunk is copied.
	 */
	bool	mv, mv_fill, mv_copying, mv_unmap;
	u32	mv_donor, mv_rkey, mv_fail_seq;
	u64	mv_addr;
	unsigned long *mv_copied;	/* the core's bitmap of copied pages */
};

struct ec_dev {
	struct spare_ec_map map;
	u8	gshift;		/* log2 of a coding group's device bytes */
	struct ec_split *sp;	/* nr_groups * (K + R) */
	pthread_mutex_t *lock;	/* one per group */
	size_t	slot_bytes;
	unsigned int slots_per_queue;
	char	*slots;		/* every queue's bounce slots */
	struct ibv_mr *mr;
	/* the rebuild (resync thread): K+R regions of a chunk's splits */
	char	*rs_buf;
	struct ibv_mr *rs_mr;
	bool	all_current;	/* resync thread: every split current, last pass */
	u64	waiting_since;	/* resync thread: not all current since (ms) */
	u64	repaired0;	/* repaired_pages when it began */
};

/*
 * After the donors connected: the coding groups, their split slabs placed
 * on distinct donors (and domains) and mapped, the bounce slots. 0, or -1
 * (said why).
 */
int ec_init(struct dev *d);
/* UNMAP the split slabs of live donors; free everything. */
void ec_fini(struct dev *d);
/* The queue's request @tag (read or write, fields of q->rqs[tag] set). */
void ec_rq_start(struct queue *q, unsigned int tag);
/*
 * On @q's thread, after its kick eventfd (another queue's write of the
 * pages was answered or ended): its requests that wait for a write start
 * again (one that still finds the write in the way waits again).
 */
void ec_kicked(struct queue *q);
/* An RDMA completion whose wr_id has EC_WR_FLAG. */
void ec_rdma_done(struct queue *q, u32 dn, const struct ibv_wc *wc);
/*
 * EVICT of slab id @id from donor @i (lifecycle thread). With a grace
 * period, the split moves by copy: the lifecycle thread maps a new slab
 * on another donor, resync copies the split's current pages into it, the
 * new slab takes its place and the old one is given back (UNMAP) once its
 * operations drained; the split stays current all along. Without one, or
 * when the move cannot end by 3/4 of @deadline_ms (no donor, a donor
 * lost, out of time), the split is lost (never posted again), given back
 * once drained, and resync rebuilds it on another donor by a decode.
 */
void ec_on_evict(struct dev *d, u32 i, u32 id, u32 deadline_ms);
/*
 * The lifecycle thread's look at the split slabs (once a loop): lost ones
 * (their donor failed) noticed, evicted ones given back once drained, and
 * a lost split given a replacement slab (the core's
 * spare_ec_rehome_pick()) on a donor @live says is live, holding no other
 * split of its group (in a failure domain the group does not use, with
 * --domains), then resync kicked to rebuild it. A split whose donor stays
 * down waits until @rehome_due says that donor has been down
 * --rehome-delay (and is not held); an evicted one, or one whose donor is
 * back, goes at once.
 */
void ec_life_step(struct dev *d, bool (*live)(struct dev *d, u32 i),
		  bool (*rehome_due)(struct dev *d, u32 i));
/*
 * The resync thread's pass (resync.c): every split waiting for repair
 * rebuilt from K current others, chunk by chunk. 0: every split of every
 * group is current where a page can be rebuilt; 1: something waits (a lost
 * split without a replacement yet, a donor busy or down): look again soon.
 */
int ec_repair_pass(struct dev *d);
/* Split slabs lost now (no slab), and waiting for a rebuild (lost or not). */
static inline void ec_split_counts(struct ec_dev *e, u32 *lost, u32 *rebuilding)
{
	*lost = 0;
	*rebuilding = 0;
	for (u32 g = 0; g < e->map.nr_groups; g++) {
		pthread_mutex_lock(&e->lock[g]);
		*lost += (u32)__builtin_popcount(e->map.groups[g].lost);
		*rebuilding += (u32)__builtin_popcount(e->map.groups[g].repair);
		pthread_mutex_unlock(&e->lock[g]);
	}
}

/*
 * Split slab @s (split s % (K + R) of group s / (K + R)) as spare.ko's
 * slab_map shows an ec device's split slabs, for NAME.map: its donor
 * now, its state (failed once lost; unmapped on the donor a re-home
 * picked until that donor maps it; evicting while an EVICT moves it or
 * gives it back; mapped) and the pages current on it.
 */
static inline void ec_split_snap(struct ec_dev *e, u32 n, u32 s, u32 *donor,
				 enum spare_copy_state *state, u32 *pages)
{
	u32 g = s / n, j = s % n;
	const struct spare_ec_group *grp = &e->map.groups[g];
	const struct ec_split *sp = &e->sp[s];

	pthread_mutex_lock(&e->lock[g]);
	*donor = sp->donor;
	*state = grp->lost & (1U << j) ?
		 (sp->picked ? SPARE_COPY_UNMAPPED : SPARE_COPY_FAILED) :
		 sp->mv || sp->unmap_due ? SPARE_COPY_EVICTING :
		 sp->mapped ? SPARE_COPY_MAPPED : SPARE_COPY_UNMAPPED;
	*pages = bitmap_weight(grp->cur[j], e->map.pages_per_group);
	pthread_mutex_unlock(&e->lock[g]);
}

/*
 * Whether split slab @s waits for a donor the device does not have
 * (ec_split.wait_donor), and the donor it was lost on (*@donor), for
 * NAME.moving.
 */
static inline bool ec_split_waits_donor(struct ec_dev *e, u32 n, u32 s, u32 *donor)
{
	const struct ec_split *sp = &e->sp[s];

	if (!__atomic_load_n(&sp->wait_donor, __ATOMIC_RELAXED))
		return false;
	pthread_mutex_lock(&e->lock[s / n]);
	*donor = sp->picked ? sp->lost_on : sp->donor;
	pthread_mutex_unlock(&e->lock[s / n]);
	return true;
}

#endif /* SPARE_UBLK_EC_H */
