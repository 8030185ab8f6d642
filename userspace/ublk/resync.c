// SPDX-License-Identifier: GPL-2.0
/*
 * spare-ublk's resynchronisation, as spare.ko's (kmod/spare_resync.c): a
 * copy mapped again after its donor failed, or the new copy of a slab that
 * moves off an evicting donor, is current only for never-written pages.
 * This thread refills it from a current copy, one chunk of up to
 * RS_MAX_PAGES (256 KiB) at a time: RDMA READ from the source copy into
 * one registered bounce buffer, then RDMA WRITE to the target.
 *
 * The chunk's bookkeeping is the resync plan, shared with spare.ko
 * (kmod/core/spare_resync_plan.c). The rules that make it safe against the
 * queue thread's writes are the shared ones (kmod/core/spare_slab.c):
 * spare_slab_resync_begin() takes a chunk only where its source is current
 * (so no write to it is in flight) and records it on the target; a write that begins meanwhile leaves the target
 * out and makes the chunk dirty; spare_slab_resync_end() marks the target
 * current only for a clean chunk of an unchanged copy. Both copies count
 * the chunk in their inflight, so an eviction waits for it before UNMAP.
 *
 * With a backup device (--backup), a copy is refilled from the backup
 * where no copy is current for written pages (one copy per slab, mapped
 * again after its donor was lost; or every copy lost), as spare.ko does:
 * spare_slab_resync_begin_backup() takes such a chunk only while no write
 * is in flight in the slab, so every write that ended is on the backup;
 * backup_range_ok() then refuses the chunk while an async backup write of
 * its pages is still going on or one of them failed (stale); the chunk is
 * read from the backup fd (pread, O_DIRECT) into the bounce buffer and
 * written to the target by RDMA. A write that begins meanwhile makes the
 * chunk dirty and leaves the target out, as for a chunk from a copy, so
 * older backup data never overwrites it. A slab busy with writes is tried
 * again a few times 5 ms apart (writes are short), then, as a slab whose
 * backup pages are not readable yet, a second later.
 *
 * Each donor has a resync DATA connection of its own (donor->rs), so the
 * queue thread's QPs and CQs stay its own. Memory in flight: one chunk.
 *
 * When a pass finds nothing to do, spare_slab_gap() says whether every
 * slab is whole (a slab with writes in flight by its mapped copies only:
 * their pages are stale until the writes land). Not whole, the thread
 * looks again in a while even unkicked, and says what it waits for after
 * RS_SAY_MS, then ever less often (a donor down for hours is one line an
 * RS_SAY_MAX_MS).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backup.h"
#include "pager.h"
#include "spare_log.h"
#include "spare_resync_plan.h"
#include "spare_util.h"

#define RS_MAX_PAGES	64		/* 256 KiB, as spare.ko's chunk */
#define RS_TMO_MS	5000		/* one RDMA operation; then the donor fails */
#define RS_RETRY_MS	1000		/* a donor was busy: try again */
#define RS_BUSY_MS	5		/* writes in flight in a slab (backup chunk) */
#define RS_BUSY_TRIES	20		/* then the next slab, and again in a while */
#define RS_SAY_MS	10000		/* not all current this long: say why */
#define RS_SAY_MAX_MS	600000		/* and again, the wait doubling up to this */

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
	u64		backup_pages;	/* pages refilled from the backup */
	unsigned int	bk_warned;	/* backup read failures logged */
	/* not all current since (ms), last said at; the last pass's gap */
	u64		waiting_since, said_at;
	u32		say_ms;		/* the wait before saying it again */
	u32		why_slab;
	const char	*why;
};

static bool chunk_end(struct dev *d, u32 s, struct spare_resync_chunk *ck,
		      bool ok);

/*
 * Begin a chunk in slab @s (spare_resync_plan_begin()): from a current
 * copy, or else (with a backup) from the backup device. 1: begun; 0: the
 * slab needs nothing now; it needs a chunk from the backup, which cannot
 * be read for it now: -EBUSY, a write is in flight in the slab; -EAGAIN,
 * an async backup write of the pages is, or the backup lost one of them
 * (stale).
 */
static int chunk_begin(struct dev *d, u32 s, struct spare_resync_chunk *ck)
{
	struct spare_slab *slab = &d->map.slabs[s];
	int ret;

	spin_lock(&slab->lock);
	ret = spare_resync_plan_begin(&d->map, slab, RS_MAX_PAGES, d->bk != NULL,
				      ck);
	spin_unlock(&slab->lock);
	if (ret <= 0)
		return ret;
	if (spare_resync_from_backup(ck) && !backup_range_ok(d, ck->page, ck->rs.n)) {
		chunk_end(d, s, ck, false);
		return -EAGAIN;
	}
	return 1;
}

/*
 * Close the chunk. An eviction that waits for it polls the copies'
 * inflight (lifecycle.c), so the plan's wake has no one to wake here.
 */
static bool chunk_end(struct dev *d, u32 s, struct spare_resync_chunk *ck,
		      bool ok)
{
	struct spare_slab *slab = &d->map.slabs[s];
	bool marked;

	spin_lock(&slab->lock);
	marked = spare_resync_plan_end(&d->map, slab, ck, ok).marked;
	spin_unlock(&slab->lock);
	if (marked) {
		__atomic_add_fetch(&d->st.resync_pages, ck->rs.n, __ATOMIC_RELAXED);
		if (spare_resync_from_backup(ck))
			d->rsync->backup_pages += ck->rs.n;
	}
	return marked;
}

int resync_rdma(struct dev *d, u32 i, bool write, void *local, u32 lkey,
		u32 len, u64 raddr, u32 rkey)
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
	ret = donor_rs_rdma(dn, write, local, lkey, len, raddr, rkey, RS_TMO_MS);
	if (ret == -ETIMEDOUT) {
		donor_fail(dn, "a resync RDMA operation took over 5 s");
		ret = -EIO;
	}
	pthread_mutex_unlock(&r->dn_lock[i]);
	return ret;
}

/*
 * Copy one chunk. 0: done (marked or not); -EAGAIN: a donor was not ready,
 * or the backup could not be read.
 */
static int chunk_copy(struct dev *d, u32 s, struct spare_resync_chunk *ck)
{
	struct resync *r = d->rsync;
	u32 len = ck->rs.n << SPARE_PAGE_SHIFT;
	int ret;

	if (spare_resync_from_backup(ck)) {
		u64 first = ck->page;	/* device page */

		ret = backup_read_pages(d, first, ck->rs.n, r->buf);
		if (ret) {
			if (r->bk_warned < 20) {
				r->bk_warned++;
				log_warn("resync: reading pages %" PRIu64 "+%u "
					 "from the backup failed: %s%s", first,
					 ck->rs.n, strerror(-ret),
					 r->bk_warned == 20 ?
					 " (further failures not logged)" : "");
			}
			ret = -EAGAIN;
		}
	} else {
		ret = resync_rdma(d, ck->src_donor, false, r->buf, r->mr->lkey,
				  len, ck->src_addr, ck->src_rkey);
	}
	if (!ret)
		ret = resync_rdma(d, ck->dst_donor, true, r->buf, r->mr->lkey,
				  len, ck->dst_addr, ck->dst_rkey);
	chunk_end(d, s, ck, !ret);
	return ret == -EAGAIN ? -EAGAIN : 0;
}

/*
 * Whether every copy of every slab is MAPPED and current wherever any is
 * (with a backup: and for every written page). If not, the first slab
 * that is not and why go to r->why_slab and r->why.
 */
static bool all_current(struct dev *d, u32 *mapped)
{
	static const char *const gap_why[] = {
		[SPARE_SLAB_UNMAPPED] = "a copy is not mapped",
		[SPARE_SLAB_STALE] = "a copy is stale where another is current",
		[SPARE_SLAB_BACKUP_ONLY] = "written pages only on the backup",
	};
	struct spare_slab_map *map = &d->map;
	struct resync *r = d->rsync;
	bool whole = true;
	u32 s, n = 0;

	for (s = 0; s < map->nr_slabs; s++) {
		struct spare_slab *slab = &map->slabs[s];
		enum spare_slab_gap gap;
		u32 k;

		spin_lock(&slab->lock);
		gap = spare_slab_gap(map, slab, d->bk != NULL, &k);
		spin_unlock(&slab->lock);
		n += k;
		if (gap != SPARE_SLAB_WHOLE && whole) {
			whole = false;
			r->why_slab = s;
			r->why = gap_why[gap];
		}
	}
	*mapped = n;
	return whole;
}

/* Not all current from now on (the first time since it was). */
static void waiting_begin(struct resync *r)
{
	if (r->waiting_since)
		return;
	r->waiting_since = r->said_at = spare_now_ms();
	r->say_ms = RS_SAY_MS;
}

/*
 * Not all current since r->waiting_since: say what the resync waits for,
 * after RS_SAY_MS and then twice as long each time up to RS_SAY_MAX_MS, so
 * that a refill that cannot end is not silent, nor a long outage noisy.
 */
static void say_waiting(struct dev *d)
{
	struct resync *r = d->rsync;
	u64 now = spare_now_ms();

	if (!r->waiting_since) {
		waiting_begin(r);
		return;
	}
	if (now - r->said_at < r->say_ms || !r->why)
		return;
	r->said_at = now;
	r->say_ms = r->say_ms >= RS_SAY_MAX_MS / 2 ? RS_SAY_MAX_MS : r->say_ms * 2;
	log_info("resync: not all copies current after %.0f s: slab %u: %s",
		 (double)(now - r->waiting_since) / 1000, r->why_slab, r->why);
}

static void *resync_thread(void *arg)
{
	struct dev *d = arg;
	struct resync *r = d->rsync;
	struct spare_resync_chunk ck;
	u64 pages0 = 0, bk0 = 0;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		bool busy = false, later = false;
		u32 s, mapped;

		while (!r->kick && !r->stop)
			pthread_cond_wait(&r->cond, &r->lock);
		if (r->stop)
			break;
		r->kick = false;
		pthread_mutex_unlock(&r->lock);

		if (ec_on(d)) {
			/* split slabs: rebuilt by decoding (ec.c) */
			bool wait = ec_repair_pass(d) != 0;

			pthread_mutex_lock(&r->lock);
			if (wait && !r->stop && !r->kick) {
				struct timespec ts;

				clock_gettime(CLOCK_REALTIME, &ts);
				ts.tv_sec += RS_RETRY_MS / 1000;
				pthread_cond_timedwait(&r->cond, &r->lock, &ts);
				r->kick = true;
			}
			continue;
		}

		for (s = 0; s < d->map.nr_slabs && !busy; s++) {
			unsigned int tries = 0;
			int begun;

			while ((begun = chunk_begin(d, s, &ck)) != 0) {
				if (begun == -EBUSY && ++tries <= RS_BUSY_TRIES) {
					/* writes in flight in the slab: they are short */
					usleep(RS_BUSY_MS * 1000);
					continue;
				}
				if (begun < 0) {
					later = true;	/* the backup, in a while */
					r->why_slab = s;
					r->why = begun == -EBUSY ?
						 "writes in flight in it, refill from the backup waits" :
						 "its backup pages are not readable yet";
					break;
				}
				if (r->all_current) {
					r->all_current = false;
					pages0 = __atomic_load_n(&d->st.resync_pages,
								 __ATOMIC_RELAXED);
					bk0 = r->backup_pages;
				}
				waiting_begin(r);
				if (chunk_copy(d, s, &ck)) {
					busy = true;
					r->why_slab = s;
					r->why = "a donor of its chunk is busy or down, or the backup read failed";
					break;
				}
				if (__atomic_load_n(&r->stop, __ATOMIC_RELAXED))
					break;
			}
		}
		if (!busy) {
			/* a slab waits for the backup: not all current */
			bool now = !later && all_current(d, &mapped);

			if (now && !r->all_current) {
				char from_bk[48] = "";

				if (d->bk)
					snprintf(from_bk, sizeof(from_bk),
						 ", %" PRIu64 " from the backup",
						 r->backup_pages - bk0);
				log_info("resync: all %u copies mapped and current "
					 "(%" PRIu64 " pages copied%s) in %.1f s",
					 mapped, __atomic_load_n(&d->st.resync_pages,
								 __ATOMIC_RELAXED) - pages0,
					 from_bk, r->waiting_since ?
					 (double)(spare_now_ms() - r->waiting_since) / 1000 : 0.0);
			}
			if (!now && r->all_current) {
				pages0 = __atomic_load_n(&d->st.resync_pages,
							 __ATOMIC_RELAXED);
				bk0 = r->backup_pages;
			}
			r->all_current = now;
		}
		if (!busy && r->all_current)
			r->waiting_since = 0;
		else
			say_waiting(d);
		pthread_mutex_lock(&r->lock);
		if ((busy || later || !r->all_current) && !r->stop && !r->kick) {
			struct timespec ts;

			/*
			 * A donor was busy or down, or the backup could not be
			 * read yet: look again in a while. A copy that waits
			 * for its donor: look again now and then, to say so.
			 */
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += (busy || later ? RS_RETRY_MS : RS_SAY_MS) / 1000;
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
	resync_kick(d);		/* not all current from now: it says so */
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
