// SPDX-License-Identifier: GPL-2.0
/*
 * spare-ublk's resynchronisation, as spare.ko's (kmod/spare_resync.c): a
 * copy mapped again after its donor failed, or the new copy of a slab that
 * moves off an evicting donor, is current only for never-written pages.
 * This thread refills it from a current copy, one chunk of up to
 * RS_MAX_PAGES (256 KiB) at a time: RDMA READ from the source copy into
 * one registered bounce buffer, then RDMA WRITE to the target.
 *
 * The rules that make it safe against the queue thread's writes are the
 * shared ones (kmod/spare_slab.c): spare_slab_resync_begin() takes a chunk
 * only where its source is current (so no write to it is in flight) and
 * records it on the target; a write that begins meanwhile leaves the target
 * out and makes the chunk dirty; spare_slab_resync_end() marks the target
 * current only for a clean chunk of an unchanged copy. Both copies count
 * the chunk in their inflight, so an eviction waits for it before UNMAP.
 *
 * Each donor has a resync DATA connection of its own (donor->rs), so the
 * queue thread's QPs and CQs stay its own. Memory in flight: one chunk.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pager.h"
#include "spare_log.h"
#include "spare_util.h"

#define RS_MAX_PAGES	64		/* 256 KiB, as spare.ko's chunk */
#define RS_TMO_MS	5000		/* one RDMA operation; then the donor fails */
#define RS_RETRY_MS	1000		/* a donor was busy: try again */

struct resync {
	pthread_t	th;
	bool		running;
	pthread_mutex_t	lock;		/* kick, stop */
	pthread_cond_t	cond;
	bool		kick, stop;
	/* per donor: held while a chunk uses its resync link */
	pthread_mutex_t	dn_lock[SPARE_MAX_DONORS];
	bool		dn_up[SPARE_MAX_DONORS];
	char		*buf;
	struct ibv_mr	*mr;
	bool		all_current;	/* logged once per change */
};

struct chunk {
	struct spare_resync rs;
	u32 src_donor, dst_donor;
	u64 src_addr, dst_addr;
	u32 src_rkey, dst_rkey;
};

/* 1: a chunk of slab @s began; 0: the slab needs nothing now. */
static int chunk_begin(struct dev *d, u32 s, struct chunk *ck)
{
	struct spare_slab_map *map = &d->map;
	struct spare_slab *slab = &map->slabs[s];
	struct spare_copy *src, *dst;
	u64 off;

	spin_lock(&slab->lock);
	if (spare_slab_resync_begin(map, slab, RS_MAX_PAGES, &ck->rs)) {
		spin_unlock(&slab->lock);
		return 0;
	}
	src = &slab->copy[ck->rs.source];
	dst = &slab->copy[ck->rs.target];
	off = (u64)ck->rs.first << SPARE_PAGE_SHIFT;
	ck->src_donor = src->donor;
	ck->src_addr = src->addr + off;
	ck->src_rkey = src->rkey;
	ck->dst_donor = dst->donor;
	ck->dst_addr = dst->addr + off;
	ck->dst_rkey = dst->rkey;
	src->inflight++;
	dst->inflight++;
	spin_unlock(&slab->lock);
	return 1;
}

static bool chunk_end(struct dev *d, u32 s, struct chunk *ck, bool ok)
{
	struct spare_slab *slab = &d->map.slabs[s];
	bool marked;

	spin_lock(&slab->lock);
	marked = spare_slab_resync_end(&d->map, slab, &ck->rs, ok);
	slab->copy[ck->rs.source].inflight--;
	slab->copy[ck->rs.target].inflight--;
	spin_unlock(&slab->lock);
	if (marked)
		__atomic_add_fetch(&d->st.resync_pages, ck->rs.n, __ATOMIC_RELAXED);
	return marked;
}

/* RDMA on donor @i's resync link. 0, -EAGAIN (not up or busy), -EIO. */
static int chunk_rdma(struct dev *d, u32 i, bool write, u64 raddr, u32 rkey,
		      u32 len)
{
	struct resync *r = d->rsync;
	struct donor *dn = &d->donors[i];
	int ret;

	if (i >= d->nr_donors || pthread_mutex_trylock(&r->dn_lock[i]))
		return -EAGAIN;
	if (!r->dn_up[i] || __atomic_load_n(&dn->failed, __ATOMIC_ACQUIRE)) {
		pthread_mutex_unlock(&r->dn_lock[i]);
		return -EAGAIN;
	}
	ret = donor_rs_rdma(dn, write, r->buf, r->mr->lkey, len, raddr, rkey,
			    RS_TMO_MS);
	if (ret == -ETIMEDOUT) {
		donor_fail(dn, "a resync RDMA operation took over 5 s");
		ret = -EIO;
	}
	pthread_mutex_unlock(&r->dn_lock[i]);
	return ret;
}

/* Copy one chunk. 0: done (marked or not); -EAGAIN: a donor was not ready. */
static int chunk_copy(struct dev *d, u32 s, struct chunk *ck)
{
	u32 len = ck->rs.n << SPARE_PAGE_SHIFT;
	int ret;

	ret = chunk_rdma(d, ck->src_donor, false, ck->src_addr, ck->src_rkey, len);
	if (!ret)
		ret = chunk_rdma(d, ck->dst_donor, true, ck->dst_addr,
				 ck->dst_rkey, len);
	chunk_end(d, s, ck, !ret);
	return ret == -EAGAIN ? -EAGAIN : 0;
}

/* Whether every copy of every slab is MAPPED and current wherever any is. */
static bool all_current(struct dev *d, u32 *mapped)
{
	struct spare_slab_map *map = &d->map;
	bool ok = true;
	u32 s, c, n = 0;

	for (s = 0; s < map->nr_slabs; s++) {
		struct spare_slab *slab = &map->slabs[s];
		struct spare_copy *cp;
		u32 k = 0;

		spin_lock(&slab->lock);
		for (c = 0; c < map->nr_slots; c++) {
			cp = &slab->copy[c];
			if (cp->state != SPARE_COPY_MAPPED)
				continue;
			k++;
			for (u32 o = 0; o < map->nr_slots; o++)
				if (o != c &&
				    slab->copy[o].state == SPARE_COPY_MAPPED &&
				    !bitmap_subset(slab->copy[o].current_map,
						   cp->current_map,
						   map->pages_per_slab))
					ok = false;
		}
		spin_unlock(&slab->lock);
		n += k;
		if (k < map->nr_copies)
			ok = false;
	}
	*mapped = n;
	return ok;
}

static void *resync_thread(void *arg)
{
	struct dev *d = arg;
	struct resync *r = d->rsync;
	struct chunk ck;
	u64 pages0 = 0;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		bool busy = false;
		u32 s, mapped;

		while (!r->kick && !r->stop)
			pthread_cond_wait(&r->cond, &r->lock);
		if (r->stop)
			break;
		r->kick = false;
		pthread_mutex_unlock(&r->lock);

		for (s = 0; s < d->map.nr_slabs && !busy; s++) {
			while (chunk_begin(d, s, &ck) > 0) {
				if (r->all_current) {
					r->all_current = false;
					pages0 = __atomic_load_n(&d->st.resync_pages,
								 __ATOMIC_RELAXED);
				}
				if (chunk_copy(d, s, &ck)) {
					busy = true;
					break;
				}
				if (__atomic_load_n(&r->stop, __ATOMIC_RELAXED))
					break;
			}
		}
		if (!busy) {
			bool now = all_current(d, &mapped);

			if (now && !r->all_current)
				log_info("resync: all %u copies mapped and current "
					 "(%" PRIu64 " pages copied)", mapped,
					 __atomic_load_n(&d->st.resync_pages,
							 __ATOMIC_RELAXED) - pages0);
			if (!now && r->all_current)
				pages0 = __atomic_load_n(&d->st.resync_pages,
							 __ATOMIC_RELAXED);
			r->all_current = now;
		}
		pthread_mutex_lock(&r->lock);
		if (busy && !r->stop && !r->kick) {
			struct timespec ts;

			/* a donor was busy or down: look again in a while */
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += RS_RETRY_MS / 1000;
			pthread_cond_timedwait(&r->cond, &r->lock, &ts);
			r->kick = true;
		}
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

void resync_kick(struct dev *d)
{
	struct resync *r = d->rsync;

	if (!r)
		return;
	pthread_mutex_lock(&r->lock);
	r->kick = true;
	pthread_cond_signal(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

void resync_donor_down(struct dev *d, u32 i)
{
	struct resync *r = d->rsync;

	if (!r)
		return;
	pthread_mutex_lock(&r->dn_lock[i]);	/* a chunk on it ends, flushed */
	r->dn_up[i] = false;
	pthread_mutex_unlock(&r->dn_lock[i]);
}

void resync_donor_up(struct dev *d, u32 i)
{
	struct resync *r = d->rsync;

	if (!r)
		return;
	pthread_mutex_lock(&r->dn_lock[i]);
	r->dn_up[i] = true;
	pthread_mutex_unlock(&r->dn_lock[i]);
	resync_kick(d);
}

int resync_init(struct dev *d)
{
	struct resync *r = calloc(1, sizeof(*r));
	size_t len = (size_t)RS_MAX_PAGES << SPARE_PAGE_SHIFT;
	u32 i;

	if (!r)
		return -1;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	for (i = 0; i < SPARE_MAX_DONORS; i++) {
		pthread_mutex_init(&r->dn_lock[i], NULL);
		r->dn_up[i] = i < d->nr_donors;
	}
	r->all_current = true;		/* every copy was just mapped */
	r->buf = aligned_alloc(4096, len);
	if (!r->buf) {
		free(r);
		return -1;
	}
	memset(r->buf, 0, len);
	r->mr = ibv_reg_mr(d->pd, r->buf, len, IBV_ACCESS_LOCAL_WRITE);
	if (!r->mr) {
		log_err("ibv_reg_mr of the resync buffer: %s", strerror(errno));
		free(r->buf);
		free(r);
		return -1;
	}
	d->rsync = r;
	if (pager_thread_create(&r->th, resync_thread, d)) {
		log_err("cannot start the resync thread");
		return -1;
	}
	r->running = true;
	return 0;
}

void resync_stop(struct dev *d)
{
	struct resync *r = d->rsync;

	if (!r)
		return;
	if (r->running) {
		pthread_mutex_lock(&r->lock);
		r->stop = true;
		pthread_cond_signal(&r->cond);
		pthread_mutex_unlock(&r->lock);
		pthread_join(r->th, NULL);
	}
	if (r->mr)
		ibv_dereg_mr(r->mr);
	free(r->buf);
	free(r);
	d->rsync = NULL;
}
