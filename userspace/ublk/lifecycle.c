// SPDX-License-Identifier: GPL-2.0
/*
 * spare-ublk's lifecycle, run by the main thread once the device is up:
 * the donors' control connections (ACTIVITY_QUERY, EVICT), and what
 * spare.ko does in its error, connect, map and evict works
 * (kmod/spare_donor.c, Documentation/kmod.md "Failures: one road"):
 *
 *  - a donor lost (donor_fail(): link down, stall timer, an RDMA error, the
 *    control connection) has every copy on it FAILED by the shared state
 *    machine; the queue thread lets go of its data link (DETACH, pager.h),
 *    the links are torn down, its copies go UNMAPPED, and it is reconnected
 *    with a back-off that doubles from 0.5 s to 16 s, in a connect thread
 *    of its own, so that the other donors are served meanwhile; logged
 *    once per change of state, not per try. Every change of a donor's
 *    state, the back-off, the session and the re-home rule are spare.ko's
 *    too: the donor life cycle (kmod/core/spare_donor_life.c), through
 *    dl_set(); this file keeps the mechanism (threads, links, logs);
 *  - a reconnected donor is a new session: its copies are MAPped again
 *    (fresh: current only where never written) and resync.c refills them
 *    from a current copy. A donor down for --rehome-delay gives up
 *    its copies: each goes to another donor with room, if the slab has a
 *    mapped copy to refill it from;
 *  - EVICT: the copy moves to another donor before the grace period ends,
 *    by the move machine shared with spare.ko (kmod/core/spare_move.c,
 *    spare_move_step(); spare_move_pick() ranks the donors); when no donor
 *    takes it and the device lends against a broker's grants, it waits
 *    for one (WAIT_GRANT, the slot held: spare_move_no_target()): its new
 *    copy stays on the first donor that refused it, unmapped, where the
 *    slab map (NAME.map) shows it, so that `sparectl device monitor`
 *    asks the broker for a grant there and sends SIGHUP; the MAP is asked
 *    again whenever new grants came. With no grant by the deadline, or
 *    without grants at all, it goes the old way (EVICTING, drained,
 *    UNMAP) and fails at the deadline if the donor has not had it back.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "lifecycle.h"
#include "backup.h"
#include "pager.h"
#include "spare_donor_life.h"
#include "spare_move.h"
#include "spare_reclaim.h"
#include "spare_log.h"
#include "spare_notify.h"
#include "spare_util.h"

#define LIFE_REMAP_DELAY_MS	5000	/* after a refused MAP or an eviction */
#define LIFE_DRAIN_MS		10000	/* longest wait for posted operations */
#define LIFE_MOVE_POLL_MS	5	/* a move is looked at this often */

/*
 * A donor's life cycle (spare_donor_life.h), as spare-ublk runs it: ERROR
 * while its copies are failed and the queue threads let go of its links,
 * OFFLINE until retry_at, CONNECTING while a connect thread runs,
 * ATTACHING while the queue threads take the new links. Changed only by
 * dl_set(), on the lifecycle thread.
 */
struct dl {
	enum spare_donor_state st;
	struct spare_life life;
	u64		remap_at;
	unsigned int	tries;
	bool		warned;
	bool		added;		/* by a grant, while running: never connected yet */
	u32		kept, not_kept;	/* this session's MAPs of held copies */
	pthread_t	th;
	int		conn_rc;	/* 1 running, 0 ok, -1 failed; atomic */
	char		why[256];	/* the first error of a failed try */
	struct dev	*d;
	u32		idx;
};

struct life {
	struct dl	dl[SPARE_MAX_DONORS];
	struct spare_move *mv;		/* one per slot of every slab, at most */
	unsigned int	nmv, max_mv;
	u32		ups;		/* donors that came up, ever: news for moves */
	/* move marks (reclaim_step()): copies still to give back on each
	 * donor, as NAME.giveback last said less those already leaving */
	u32		giveback[SPARE_MAX_DONORS];
	u32		gb_kept_said[SPARE_MAX_DONORS];	/* kept, logged */
	u64		gb_next;	/* ms: the next look */
	/* wall clock, s: until then a donor's grants may include marked
	 * ones (the last expiry of its grants when copies were asked of it):
	 * no mark's move goes there (reclaim_marked()) */
	u64		gb_until[SPARE_MAX_DONORS];
	/* wall clock, s: the last EVICT each donor sent (0: none) */
	u64		evict_seen[SPARE_MAX_DONORS];
	bool		gb_nomove_said[SPARE_MAX_DONORS];
};

/* ---- helpers ---- */

static void wake(int fd)
{
	uint64_t one = 1;

	if (write(fd, &one, sizeof(one)) != sizeof(one))
		log_err("eventfd: %s", strerror(errno));
}

/* Every queue looks at its waiting requests again (io.c, rq_unpark()). */
static void kick_queues(struct dev *d)
{
	for (unsigned int k = 0; k < d->nr_queues; k++)
		if (d->queues[k].kick_fd >= 0)
			wake(d->queues[k].kick_fd);
}

/*
 * Donor @i's data links (one per queue, pager.h enum dn_link_state): ask
 * every queue thread to move to @st (DN_DETACH_REQ, DN_ATTACH_REQ), and
 * whether every queue has reached @st (DN_DETACHED, DN_ATTACHED).
 */
static void links_ask(struct dev *d, u32 i, int st, bool tell)
{
	for (unsigned int k = 0; k < d->nr_queues; k++) {
		__atomic_store_n(&d->queues[k].dn_link[i], st, __ATOMIC_RELEASE);
		if (tell)
			wake(d->queues[k].links_fd);
	}
}

static bool links_are(struct dev *d, u32 i, int st)
{
	for (unsigned int k = 0; k < d->nr_queues; k++)
		if (__atomic_load_n(&d->queues[k].dn_link[i], __ATOMIC_ACQUIRE) != st)
			return false;
	return true;
}

/* The one change of donor @l's state: the core's table and bookkeeping. */
static enum spare_life_act dl_set(struct dl *l, enum spare_life_ev ev, u64 now)
{
	return spare_life_set(&l->life, &l->st, ev, now);
}

/*
 * Donor @i is live: LIVE in its life cycle and its I/O path has not failed
 * it since (spare.ko's donor_live() reads only the state: its error road
 * changes the state itself). The lifecycle thread's view; it also answers
 * pager_reload_grants() (SIGHUP's grants), as that thread owns the
 * donor's control connection.
 */
static bool dl_live(struct dev *d, u32 i)
{
	return d->life->dl[i].st == SPARE_DONOR_LIVE &&
	       !__atomic_load_n(&d->donors[i].failed, __ATOMIC_ACQUIRE);
}

/* Move donor @i's copies in a state of @from_mask to @to. */
static u32 donor_copies_set(struct dev *d, u32 i, u32 from_mask,
			    enum spare_copy_state to)
{
	struct spare_slab_map *map = &d->map;
	u32 s, n = 0;

	for (s = 0; s < map->nr_slabs; s++) {
		struct spare_slab *slab = &map->slabs[s];

		if (spare_slab_donor_slot(map, slab, i) < 0)
			continue;
		spin_lock(&slab->lock);
		n += spare_slab_copy_sweep(map, slab, i, from_mask, to);
		spin_unlock(&slab->lock);
	}
	return n;
}

#define CMASK(s)	(1U << SPARE_COPY_##s)

/*
 * MAP slot @c of slab @s (UNMAPPED). Returns 0 mapped, 1 refused, -1 the
 * control connection failed or its donor is not live: a donor being torn
 * down, waiting to reconnect or reconnecting (its links are gone, or a
 * connect thread owns them) is never asked, and an answer that comes
 * after it was failed is dropped (life_map_answer()).
 */
static int map_copy(struct dev *d, u32 s, u32 c)
{
	struct spare_slab_map *map = &d->map;
	struct spare_slab *slab = &map->slabs[s];
	struct donor *dn;
	u32 i, rkey = 0, session, flags = 0;
	u64 addr = 0;
	int ok, ret;

	spin_lock(&slab->lock);
	i = slab->copy[c].donor;
	ret = i >= d->nr_donors ? -EINVAL : !dl_live(d, i) ? -ENOTCONN :
	      spare_copy_set_state(map, slab, c, SPARE_COPY_MAPPING);
	spin_unlock(&slab->lock);
	if (ret == -ENOTCONN)
		return -1;
	if (ret)
		return 1;
	dn = &d->donors[i];
	session = d->life->dl[i].life.session;
	ok = donor_map_flags(dn, pager_wire_id(s, c), &addr, &rkey, &flags) == 0;
	spin_lock(&slab->lock);
	ok = life_map_answer(map, slab, c, ok, dl_live(d, i) &&
			     spare_life_current(&d->life->dl[i].life,
						d->life->dl[i].st, session),
			     addr, rkey);
	if (ok && spare_copy_has_kept(&slab->copy[c])) {
		/* a held donor: what it kept is current, no resync */
		if (flags & SPARE_MAPPED_F_KEPT) {
			u32 n = spare_copy_adopt_kept(map, slab, c);

			__atomic_add_fetch(&d->st.kept_copies, 1, __ATOMIC_RELAXED);
			__atomic_add_fetch(&d->st.kept_pages, n, __ATOMIC_RELAXED);
			d->life->dl[i].kept++;
		} else {
			spare_copy_forget_kept(&slab->copy[c]);
			d->life->dl[i].not_kept++;
		}
	}
	spin_unlock(&slab->lock);
	if (ok) {
		spare_life_mapped(&d->life->dl[i].life);
		resync_kick(d);
		return 0;
	}
	/* A refusal keeps the control connection; a lost one fails below. */
	return dn->ctrl.up && !__atomic_load_n(&dn->failed, __ATOMIC_ACQUIRE) ? 1 : -1;
}

static void send_unmap(struct dev *d, u32 i, u32 id)
{
	if (d->life->dl[i].st == SPARE_DONOR_LIVE && donor_unmap(&d->donors[i], id))
		donor_fail(&d->donors[i], "cannot send UNMAP");
}

/*
 * The donor a copy of slab @s goes to (moving off @from, SPARE_NO_DONOR:
 * none): live, holding no copy of the slab, not in @tried; the shared
 * ranking (spare_move_pick(): first a failure domain holding no other copy
 * of the slab, by --domains, then the fewest copies). -1 if none.
 */
static int pick_target(struct dev *d, u32 s, u32 from, u32 tried)
{
	struct spare_move_cand c[SPARE_MAX_DONORS];
	u32 i;

	/* No grant accounting here (room stays open): a donor without room
	 * (or grant) refuses the MAP, and the next one is asked. */
	for (i = 0; i < d->nr_donors; i++)
		spare_move_cand_init(&c[i], &d->map, s,
				     d->nr_domains ? d->domain : NULL,
				     d->nr_domains, i, from,
				     !(tried & (1U << i)) && dl_live(d, i));
	return spare_move_pick(c, d->nr_donors, NULL);
}

/* ---- a donor lost, and back ---- */

static void *connect_thread(void *arg)
{
	struct dl *l = arg;
	struct dev *d = l->d;
	struct donor *dn = &d->donors[l->idx];
	int rc = -1;

	/* one log line per change of state (the caller's), not per try */
	spare_log_thread_capture(l->why, sizeof(l->why));
	if (donor_connect(dn, &d->pd, d->slab_shift, d->depth * MAX_OPS + 1) == 0) {
		if (dn->ctrl.id->verbs != d->pd->context)
			log_err("donor %s: now reached through another RDMA "
				"device than the device's memory", dn->host);
		else if (donor_connect_rs(dn, 2) == 0 && send_grants(d, dn) == 0)
			rc = 0;
	}
	if (rc)
		donor_close(dn);
	spare_log_thread_capture(NULL, 0);
	__atomic_store_n(&l->conn_rc, rc, __ATOMIC_RELEASE);
	wake(d->life_fd);
	return NULL;
}

/* Donor @i keeps our slabs if the session ends (HELLO F_HOLD granted). */
static bool held_by(struct dev *d, u32 i)
{
	return d->donors[i].hold && d->donors[i].resume_token;
}

/* What donor @i kept for us is gone: nothing waits for it any more. */
static u32 forget_kept(struct dev *d, u32 i)
{
	struct spare_slab_map *map = &d->map;
	u32 s, n = 0;

	for (s = 0; s < map->nr_slabs; s++) {
		struct spare_slab *slab = &map->slabs[s];
		int c = spare_slab_donor_slot(map, slab, i);

		if (c < 0)
			continue;
		spin_lock(&slab->lock);
		n += spare_copy_has_kept(&slab->copy[c]);
		spare_copy_forget_kept(&slab->copy[c]);
		spin_unlock(&slab->lock);
	}
	kick_queues(d);
	return n;
}

/*
 * A held donor's time ran out (spare_life_hold_expired()): as without a
 * hold, its copies' pages are lost where no other copy has them, and
 * what waited fails.
 */
static void hold_check(struct dev *d, u32 i, u64 now)
{
	struct dl *l = &d->life->dl[i];
	u32 n;

	if (!spare_life_hold_expired(&l->life, now))
		return;
	spare_slab_map_hold(&d->map, i, false);
	n = forget_kept(d, i);
	__atomic_add_fetch(&d->st.holds_expired, 1, __ATOMIC_RELAXED);
	log_warn("donor %s: not back within %u ms of its restart (--hold): "
		 "the %u slab copies it held are given up, as without a hold "
		 "(I/O that only they could serve fails)", d->donors[i].host,
		 d->hold_ms, n);
}

static void donor_step(struct dev *d, u32 i)
{
	struct dl *l = &d->life->dl[i];
	struct donor *dn = &d->donors[i];
	u64 now = spare_now_ms();
	u32 n;

	switch (l->st) {
	case SPARE_DONOR_LIVE:
		if (!__atomic_load_n(&dn->failed, __ATOMIC_ACQUIRE))
			return;
		donor_copies_set(d, i, CMASK(MAPPED) | CMASK(MAPPING) |
				 CMASK(EVICTING), SPARE_COPY_FAILED);
		/* every copy on it, failed here or by a request before */
		n = donor_copies_set(d, i, 0, SPARE_COPY_FAILED);
		for (u32 s = 0; s < d->map.nr_slabs; s++) {
			int c = spare_slab_donor_slot(&d->map, &d->map.slabs[s], i);

			n += c >= 0 && d->map.slabs[s].copy[c].state == SPARE_COPY_FAILED;
		}
		__atomic_add_fetch(&d->st.losses, 1, __ATOMIC_RELAXED);
		dn->ctrl.up = false;	/* no UNMAP goes there any more */
		l->tries = 0;
		l->warned = false;
		resync_donor_down(d, i);
		dl_set(l, SPARE_LIFE_EV_LOST, now);	/* ACT_TEARDOWN */
		if (spare_life_hold(&l->life, held_by(d, i), now, d->hold_ms))
			log_warn("donor %s lost: %u slab copies failed; it "
				 "holds our slabs over a restart: they are "
				 "waited for up to %u ms (--hold; I/O no other "
				 "copy serves waits); reconnecting", dn->host,
				 n, d->hold_ms);
		else
			log_warn("donor %s lost: %u slab copies failed, the "
				 "other copies serve; reconnecting in %u ms "
				 "(back-off up to %u s)", dn->host, n,
				 l->life.backoff_ms,
				 SPARE_LIFE_BACKOFF_MAX_MS / 1000);
		links_ask(d, i, DN_DETACH_REQ, true);
		if (!spare_life_holding(&l->life, now))
			forget_kept(d, i);
		return;
	case SPARE_DONOR_ERROR:
		if (!links_are(d, i, DN_DETACHED))
			return;
		donor_close(dn);
		donor_copies_set(d, i, CMASK(FAILED), SPARE_COPY_UNMAPPED);
		dl_set(l, SPARE_LIFE_EV_TORN_DOWN, now);	/* ACT_RETRY */
		return;
	case SPARE_DONOR_OFFLINE:
		if (spare_life_wait(&l->life, now))
			return;
		if (dl_set(l, SPARE_LIFE_EV_CONNECT, now) != SPARE_LIFE_ACT_CONNECT)
			return;
		l->d = d;
		l->idx = i;
		l->conn_rc = 1;
		l->tries++;
		if (pager_thread_create(&l->th, connect_thread, l)) {
			log_err("donor %s: cannot start a connect thread", dn->host);
			dl_set(l, SPARE_LIFE_EV_CONNECT_FAILED, now);
		}
		return;
	case SPARE_DONOR_CONNECTING:
		if (__atomic_load_n(&l->conn_rc, __ATOMIC_ACQUIRE) == 1)
			return;
		pthread_join(l->th, NULL);
		if (l->conn_rc) {
			const char *why = l->why[0] ? l->why : "?";
			size_t hl = strlen(dn->host);

			/* donor.c's lines name the donor already */
			if (!strncmp(why, "donor ", 6) &&
			    !strncmp(why + 6, dn->host, hl) &&
			    !strncmp(why + 6 + hl, ": ", 2))
				why += 8 + hl;
			if (!l->warned)
				log_warn("donor %s: %s failed: %s; retrying "
					 "with back-off up to %u s", dn->host,
					 l->added ? "connect" : "reconnect", why,
					 SPARE_LIFE_BACKOFF_MAX_MS / 1000);
			l->warned = true;
			dl_set(l, SPARE_LIFE_EV_CONNECT_FAILED, now);
			return;
		}
		__atomic_store_n(&dn->failed, 0, __ATOMIC_RELEASE);
		if (l->added) {
			log_info("donor %s: connected after %u tr%s: it may take "
				 "moved copies", dn->host, l->tries,
				 l->tries == 1 ? "y" : "ies");
			l->added = false;
		} else {
			__atomic_add_fetch(&d->st.reconnects, 1, __ATOMIC_RELAXED);
			log_info("donor %s: reconnected after %u tr%s, %.1f s down; "
				 "mapping its copies again", dn->host, l->tries,
				 l->tries == 1 ? "y" : "ies",
				 (double)(now - l->life.down_since) / 1000);
		}
		dl_set(l, SPARE_LIFE_EV_CONNECTED, now);	/* ACT_ATTACH */
		links_ask(d, i, DN_ATTACH_REQ, true);
		return;
	case SPARE_DONOR_ATTACHING:
		if (!links_are(d, i, DN_ATTACHED))
			return;
		resync_donor_up(d, i);
		l->remap_at = now;
		l->kept = l->not_kept = 0;
		dl_set(l, SPARE_LIFE_EV_UP, now);	/* a new session */
		spare_slab_map_hold(&d->map, i, held_by(d, i));
		d->life->ups++;		/* a waiting move asks again */
		return;
	case SPARE_DONOR_DELETING:
	case SPARE_DONOR_NR_STATES:
		return;
	}
}

/* Whether slot @c of slab @s is the target of a move in progress. */
static bool move_target_slot(struct dev *d, u32 s, int c)
{
	struct life *lf = d->life;

	for (unsigned int k = 0; k < lf->nmv; k++)
		if (lf->mv[k].slab == s && lf->mv[k].to == c)
			return true;
	return false;
}

/* Map donor @i's UNMAPPED copies again (after a reconnect or an eviction). */
static void remap_donor(struct dev *d, u32 i)
{
	struct spare_slab_map *map = &d->map;
	struct dl *l = &d->life->dl[i];
	u32 s, mapped = 0;

	if (!dl_live(d, i) || spare_now_ms() < l->remap_at)
		return;
	l->remap_at = UINT64_MAX;
	for (s = 0; s < map->nr_slabs && dl_live(d, i); s++) {
		struct spare_slab *slab = &map->slabs[s];
		int c = spare_slab_donor_slot(map, slab, i), ret;

		if (c < 0 || slab->copy[c].state != SPARE_COPY_UNMAPPED ||
		    move_target_slot(d, s, c))
			continue;
		ret = map_copy(d, s, (u32)c);
		if (ret > 0) {
			l->remap_at = spare_now_ms() + LIFE_REMAP_DELAY_MS;
			log_info("donor %s: MAP of slab %u refused; trying again "
				 "in %u s", d->donors[i].host, s,
				 LIFE_REMAP_DELAY_MS / 1000);
			break;
		}
		if (ret < 0)
			break;
		mapped++;
	}
	if (mapped) {
		__atomic_add_fetch(&d->st.remaps, mapped, __ATOMIC_RELAXED);
		log_info("donor %s: %u slab copies mapped again; resync refills "
			 "them", d->donors[i].host, mapped);
	}
	if (l->life.hold_until && l->remap_at == UINT64_MAX) {
		/* every copy there asked again: the hold is over */
		log_info("donor %s: resumed after its restart: %u slab copies "
			 "kept with their contents (MAPPED F_KEPT), %u not kept",
			 d->donors[i].host, l->kept, l->not_kept);
		spare_life_hold_end(&l->life);
		kick_queues(d);
	} else if (mapped) {
		kick_queues(d);
	}
}

/* Whether donor @i has been down --rehome-delay and is not held. */
static bool dl_rehome_due(struct dev *d, u32 i)
{
	struct dl *l = &d->life->dl[i];

	return i < d->nr_donors &&
	       spare_life_rehome_due(&l->life, l->st, spare_now_ms(),
				     d->rehome_ms);
}

/*
 * A donor down for --rehome-delay (spare_life_rehome_due()) gives up
 * its copies: each goes to another live donor as a move would take it
 * (spare_slab_rehome(), shared with spare.ko), refilled from a mapped copy
 * of the slab; without one the copy waits for its donor.
 */
static void rehome(struct dev *d)
{
	struct spare_slab_map *map = &d->map;
	u64 now = spare_now_ms();
	u32 i, s;

	for (i = 0; i < d->nr_donors; i++) {
		struct dl *l = &d->life->dl[i];

		if (!spare_life_rehome_due(&l->life, l->st, now, d->rehome_ms))
			continue;
		for (s = 0; s < map->nr_slabs; s++) {
			struct spare_slab *slab = &map->slabs[s];
			int to, t;

			if (spare_slab_donor_slot(map, slab, i) < 0)
				continue;
			t = pick_target(d, s, i, 1U << i);
			if (t < 0)
				continue;
			spin_lock(&slab->lock);
			to = spare_slab_rehome(map, slab, i, (u32)t);
			spin_unlock(&slab->lock);
			if (to < 0)
				continue;
			log_info("slab %u: its copy on donor %s (down %" PRIu64
				 " s) goes to donor %s", s, d->donors[i].host,
				 (now - l->life.down_since) / 1000, d->donors[t].host);
			if (map_copy(d, s, (u32)to) == 0) {
				__atomic_add_fetch(&d->st.remaps, 1, __ATOMIC_RELAXED);
				continue;
			}
			/* refused: the slab has a copy fewer; the slot stays
			 * with the target, which is asked again later */
			d->life->dl[t].remap_at = now + LIFE_REMAP_DELAY_MS;
		}
	}
}

/* ---- eviction: moving a copy ---- */

/*
 * The move machine is kmod/core/spare_move.c, shared with spare.ko; here
 * is its mechanism: the MAP answered at once (map_copy()), UNMAP, the
 * logs and counters, and a look at every move each LIFE_MOVE_POLL_MS.
 */
static void move_end(struct dev *d, unsigned int k)
{
	struct life *lf = d->life;

	lf->mv[k] = lf->mv[--lf->nmv];
}

static u32 grants_seq(struct dev *d)
{
	return __atomic_load_n(&d->grants_seq, __ATOMIC_ACQUIRE);
}

static void move_in(struct dev *d, const struct spare_move *mv,
		    struct spare_move_in *in)
{
	u32 t = mv->to < 0 ? SPARE_NO_DONOR :
		READ_ONCE(d->map.slabs[mv->slab].copy[mv->to].donor);

	*in = (struct spare_move_in){
		.now = spare_now_ms(),
		.to_down = t < d->nr_donors && !dl_live(d, t),
		/* new grants (SIGHUP), or a donor came up or was added */
		.news = grants_seq(d) + d->life->ups,
		.drain_ms = LIFE_DRAIN_MS,
	};
}

/* The moves waiting for a donor, for the counters' NAME.moving (stats.c). */
static void moves_publish(struct dev *d)
{
	struct life *lf = d->life;
	unsigned int n = 0;

	for (unsigned int k = 0; k < lf->nmv && n < PAGER_MAX_WAITING; k++)
		if (lf->mv[k].state == SPARE_MOVE_WAIT_DONOR) {
			d->waiting_slab[n] = lf->mv[k].slab;
			d->waiting_from[n++] = lf->mv[k].evictor;
		}
	d->nr_waiting = n;
}

/*
 * Ask the next donor to take the move; its MAP is answered here. With no
 * donor left and the device's grants from a broker (--grant-file), the
 * move waits: for a donor to be added or come back when none could be
 * asked, else for a grant, its new copy held on the first donor that
 * refused, unmapped, where the slab map (NAME.map) shows it so that
 * `sparectl device monitor` asks the broker for a grant there.
 */
static enum spare_move_act reclaim_no_target(struct dev *d, struct spare_move *mv,
					     const struct spare_move_in *min);

static enum spare_move_act move_seek(struct dev *d, struct spare_move *mv,
				     const struct spare_move_in *in)
{
	struct spare_slab *slab = &d->map.slabs[mv->slab];
	enum spare_move_act act;
	int t, ret;

	if (mv->reclaim)
		return reclaim_no_target(d, mv, in);
	for (;;) {
		t = pick_target(d, mv->slab, mv->evictor, mv->tried);
		spin_lock(&slab->lock);
		if (t < 0) {
			act = spare_move_no_target(mv, &d->map, slab,
						   d->grant_path[0], true, in);
		} else {
			ret = spare_move_target(mv, &d->map, slab, (u32)t);
			act = ret == -EEXIST ? SPARE_MOVE_ACT_SEEK :
			      !ret ? SPARE_MOVE_ACT_NONE :
			      spare_move_evict(mv, &d->map, slab,
					       SPARE_MOVE_WHY_NO_SLOT, in);
		}
		spin_unlock(&slab->lock);
		if (act == SPARE_MOVE_ACT_SEEK)
			continue;
		if (mv->state != SPARE_MOVE_FILL)
			return act;
		if (map_copy(d, mv->slab, (u32)mv->to) == 0)
			return SPARE_MOVE_ACT_NONE;	/* resync was kicked */
		spin_lock(&slab->lock);
		spare_move_refused(mv, &d->map, slab);
		spin_unlock(&slab->lock);
	}
}

/* The MAP of the slot a move holds, asked again: new grants came. */
static void move_map_again(struct dev *d, struct spare_move *mv)
{
	struct spare_slab *slab = &d->map.slabs[mv->slab];
	u32 t = slab->copy[mv->to].donor;
	bool ok = map_copy(d, mv->slab, (u32)mv->to) == 0;

	spin_lock(&slab->lock);
	if (ok)
		spare_move_mapped(mv, slab);
	else
		spare_move_refused(mv, &d->map, slab);
	spin_unlock(&slab->lock);
	if (ok)
		log_info("donor %s: slab %u: donor %s takes it now",
			 d->donors[mv->evictor].host, mv->slab, d->donors[t].host);
}

static void move_waits(struct dev *d, const struct spare_move *mv)
{
	const char *ev = d->donors[mv->evictor].host;

	if (mv->state == SPARE_MOVE_WAIT_DONOR)
		log_info("donor %s: slab %u: every other donor holds a copy of it "
			 "or is down; waiting for a donor to be added (a new grant) "
			 "or to come back", ev, mv->slab);
	else if (mv->to >= 0)
		log_info("donor %s: slab %u: no donor's grants have room for it; "
			 "waiting for a grant on donor %s", ev, mv->slab,
			 d->donors[d->map.slabs[mv->slab].copy[mv->to].donor].host);
	else
		log_info("donor %s: slab %u: no donor takes it; waiting for a grant",
			 ev, mv->slab);
}

/*
 * ---- move marks: copies given back to the pool ----
 *
 * `sparectl device renew` / `monitor` asks the broker for its move marks
 * and writes, beside the grants file, how many copies on each donor are
 * beyond the grants the broker did not mark (NAME.giveback, "ADDR COUNT"
 * lines; Documentation/ublk.md "Move marks"). Read on SIGHUP; then, a
 * look a second, each copy asked back is judged by the core
 * (spare_reclaim_decide()): a copy whose pages another current copy or
 * the backup holds is taken out of service as an eviction the old way
 * (EVICTING, drained), UNMAPped and its slot freed, so that the slab map
 * no longer names it and sparectl renews its grant no more; a copy that
 * cannot leave without losing a page stays (logged with why), and its
 * grant stays renewed. Before either, a copy moves (the core's MOVE) when
 * a donor's grants have room for it (reclaim_target()): the move machine
 * as on EVICT (reclaim_move()), no other donor asked if that one refuses.
 */
#define LIFE_GIVEBACK_LOOK_MS	1000

static bool move_act(struct dev *d, struct spare_move *mv, enum spare_move_act act);

/* The giveback file beside --grant-file @g (its ".grants" replaced). */
static void giveback_path(const char *g, char *path, size_t len)
{
	size_t n = strlen(g);

	if (n > 7 && !strcmp(g + n - 7, ".grants"))
		n -= 7;
	snprintf(path, len, "%.*s.giveback", (int)n, g);
}

/* Copies of donor @i already leaving on a mark. */
static u32 giveback_leaving(const struct dev *d, u32 i)
{
	const struct life *lf = d->life;
	u32 n = 0;

	for (unsigned int k = 0; k < lf->nmv; k++)
		n += (lf->mv[k].reclaim || lf->mv[k].why == SPARE_MOVE_WHY_RECLAIM) &&
		     lf->mv[k].evictor == i;
	return n;
}

/*
 * Whether donor @i may hold grants a broker marked: copies are asked of
 * it or leave it, or a grant it had when they were asked has not lapsed
 * (the pager is told only the copies beyond the unmarked grants). Nor
 * to a donor that sent EVICT lately (SPARE_RECLAIM_EVICT_COOL_S).
 */
static bool reclaim_marked(const struct dev *d, u32 i)
{
	u64 now = (u64)time(NULL), ev = d->life->evict_seen[i];

	return d->life->giveback[i] || giveback_leaving(d, i) ||
	       now < d->life->gb_until[i] ||
	       (ev && now < ev + SPARE_RECLAIM_EVICT_COOL_S);
}

/*
 * Where the copy of slab @s on donor @from asked back may move: a live
 * donor without a copy of the slab whose unexpired grants cover one slab
 * more than the copies it holds (room the broker granted), that may hold
 * no marked grant; or -1 (no room: no move).
 */
static int reclaim_target(struct dev *d, u32 s, u32 from)
{
	struct spare_move_cand c[SPARE_MAX_DONORS];
	bool roomy;
	u64 last;
	u32 i;
	int t;

	for (i = 0; i < d->nr_donors; i++) {
		spare_move_cand_init(&c[i], &d->map, s,
				     d->nr_domains ? d->domain : NULL,
				     d->nr_domains, i, from,
				     i != from && dl_live(d, i) && !reclaim_marked(d, i));
		if (!c[i].ok)
			continue;
		c[i].room = pager_grants_cover(d, &d->donors[i], &last);
		if (c[i].room < 0)
			c[i].ok = false;	/* no grant: no room granted */
		else
			c[i].room -= c[i].load;
	}
	t = spare_move_pick(c, d->nr_donors, &roomy);
	return roomy ? t : -1;
}

/* The backup holds every page written to slab @s. */
static bool reclaim_backup_whole(struct dev *d, u32 s)
{
	return d->bk && backup_range_ok(d, (u64)s * d->map.pages_per_slab,
					d->map.pages_per_slab);
}

/*
 * Copies on donor @i now, whatever their state (NAME.map's count): a slab
 * holds at most one copy on a donor, so the slabs with a slot of it.
 */
static u32 copies_on(struct dev *d, u32 i)
{
	u32 n = 0;

	for (u32 s = 0; s < d->map.nr_slabs; s++)
		n += spare_slab_donor_slot(&d->map, &d->map.slabs[s], i) >= 0;
	return n;
}

/*
 * SIGHUP: NAME.giveback read again (none: nothing asked). "ADDR COUNT
 * KEEP": what donor ADDR holds beyond KEEP copies, less those leaving
 * already, is owed; "ADDR COUNT" (sparectl before session 49): COUNT
 * less those leaving.
 */
static void giveback_reload(struct dev *d)
{
	struct life *lf = d->life;
	u32 want[SPARE_MAX_DONORS] = { 0 }, keep[SPARE_MAX_DONORS] = { 0 };
	bool kept[SPARE_MAX_DONORS] = { false };
	char path[300], line[160];
	FILE *f;
	u32 i;

	if (!d->grant_path[0])
		return;
	giveback_path(d->grant_path, path, sizeof(path));
	f = fopen(path, "re");
	if (!f && errno != ENOENT)
		log_warn("SIGHUP: %s: %s; no copy is given back", path, strerror(errno));
	while (f && fgets(line, sizeof(line), f)) {
		char addr[128], dn[80];
		unsigned int n, k;
		int got = sscanf(line, "%127s %u %u", addr, &n, &k);

		if (got < 2)
			continue;
		for (i = 0; i < d->nr_donors; i++) {
			snprintf(dn, sizeof(dn), "%s:%s", d->donors[i].host, d->donors[i].port);
			if (!strcmp(dn, addr)) {
				want[i] = n;
				kept[i] = got == 3;
				keep[i] = k;
			}
		}
	}
	if (f)
		fclose(f);
	for (i = 0; i < d->nr_donors; i++) {
		u32 leaving = giveback_leaving(d, i);

		/* copies_on() counts those leaving too */
		lf->giveback[i] = spare_reclaim_owed(want[i], kept[i], keep[i],
						     kept[i] ? copies_on(d, i) : 0,
						     leaving);
		lf->gb_kept_said[i] = 0;
		lf->gb_nomove_said[i] = false;
		if (want[i])	/* a marked grant the pager holds lapses by then */
			pager_grants_cover(d, &d->donors[i], &lf->gb_until[i]);
		if (lf->giveback[i])
			log_info("donor %s: %u slab cop%s asked back by the broker's move "
				 "marks (%u leaving already)", d->donors[i].host,
				 lf->giveback[i], lf->giveback[i] == 1 ? "y" : "ies", leaving);
	}
	lf->gb_next = 0;
}

/* Whether a move of slab @s is in progress. */
static bool slab_moving(const struct dev *d, u32 s)
{
	for (unsigned int k = 0; k < d->life->nmv; k++)
		if (d->life->mv[k].slab == s)
			return true;
	return false;
}

/* Copy @c of slab @s on donor @i given back: out of service, draining. */
static void reclaim_start(struct dev *d, u32 i, u32 s, int c, enum spare_reclaim_why why)
{
	struct life *lf = d->life;
	struct spare_slab *slab = &d->map.slabs[s];
	struct spare_move *mv = &lf->mv[lf->nmv++];
	struct spare_move_in in;
	enum spare_move_act act;

	*mv = (struct spare_move){ .to = -1 };
	move_in(d, mv, &in);
	spare_move_init(mv, s, i, c, in.now, in.now + LIFE_DRAIN_MS, in.news);
	spin_lock(&slab->lock);
	act = spare_move_evict(mv, &d->map, slab, SPARE_MOVE_WHY_RECLAIM, &in);
	spin_unlock(&slab->lock);
	log_info("donor %s: slab %u given back to the pool (a move mark): %s",
		 d->donors[i].host, s, spare_reclaim_why_name(why));
	move_act(d, mv, act);
}

/*
 * Copy @c of slab @s on donor @i moves to donor @t on a mark (the move
 * machine, as an EVICT's: spare_reclaim_move_begin()); its MAP answered
 * here. A target that refuses is not replaced (spare_reclaim_no_target()).
 * false: not begun (the copy changed).
 */
static bool reclaim_move(struct dev *d, u32 i, u32 s, int c, int t)
{
	struct life *lf = d->life;
	struct spare_slab *slab = &d->map.slabs[s];
	struct spare_move *mv = &lf->mv[lf->nmv];
	struct spare_move_in in;
	int ret;

	*mv = (struct spare_move){ .to = -1 };
	move_in(d, mv, &in);
	spin_lock(&slab->lock);
	ret = spare_reclaim_move_begin(mv, &d->map, slab, s, i, (u32)c, (u32)t,
				       in.now, in.news);
	spin_unlock(&slab->lock);
	if (ret)
		return false;
	lf->nmv++;
	log_info("donor %s: slab %u moves to donor %s (a move mark): %s",
		 d->donors[i].host, s, d->donors[t].host,
		 spare_reclaim_why_name(SPARE_RECLAIM_WHY_ROOM));
	if (map_copy(d, s, (u32)mv->to) == 0)
		return true;	/* resync was kicked */
	spin_lock(&slab->lock);
	spare_move_refused(mv, &d->map, slab);
	spin_unlock(&slab->lock);
	move_act(d, mv, move_seek(d, mv, &in));
	return true;
}

/* A mark's move lost its target: dropped if nothing is lost, else kept. */
static enum spare_move_act reclaim_no_target(struct dev *d, struct spare_move *mv,
					     const struct spare_move_in *min)
{
	struct spare_slab *slab = &d->map.slabs[mv->slab];
	struct spare_reclaim_in in = {
		.backup_whole = reclaim_backup_whole(d, mv->slab),
		.to = -1,
	};
	enum spare_reclaim_why why;
	enum spare_move_act act;

	spin_lock(&slab->lock);
	act = spare_reclaim_no_target(mv, &d->map, slab, &in, min, &why);
	spin_unlock(&slab->lock);
	if (act == SPARE_MOVE_ACT_EVICTING || act == SPARE_MOVE_ACT_KEPT)
		log_info("donor %s: slab %u: the donor asked did not take it; %s (a move "
			 "mark): %s", d->donors[mv->evictor].host, mv->slab,
			 act == SPARE_MOVE_ACT_KEPT ? "kept" : "given back to the pool",
			 spare_reclaim_why_name(why));
	return act;
}

/* Over: the old copy drained; UNMAP it and free its slot. */
static void reclaim_done(struct dev *d, const struct spare_move *mv)
{
	struct spare_slab *slab = &d->map.slabs[mv->slab];

	send_unmap(d, mv->evictor, pager_wire_id(mv->slab, (u32)mv->from));
	spin_lock(&slab->lock);
	spare_slab_slot_free(&d->map, slab, (u32)mv->from);
	spin_unlock(&slab->lock);
	__atomic_add_fetch(&d->st.reclaims, 1, __ATOMIC_RELAXED);
	d->stats_now = true;
	log_info("donor %s: slab %u: the copy given back is unmapped",
		 d->donors[mv->evictor].host, mv->slab);
}

/* One look at the copies asked back (LIFE_GIVEBACK_LOOK_MS apart). */
static void reclaim_step(struct dev *d)
{
	struct spare_slab_map *map = &d->map;
	struct life *lf = d->life;
	u64 now = spare_now_ms();
	u32 i;

	if (now < lf->gb_next)
		return;
	lf->gb_next = now + LIFE_GIVEBACK_LOOK_MS;
	for (i = 0; i < d->nr_donors; i++) {
		u32 kept = 0, s;
		enum spare_reclaim_why kwhy = SPARE_RECLAIM_WHY_NONE;

		if (!lf->giveback[i] || !dl_live(d, i))
			continue;
		if (ec_on(d)) {
			if (!lf->gb_kept_said[i]++)
				log_warn("donor %s: %u cop%s asked back: an erasure-coded "
					 "device does not give splits back yet; kept",
					 d->donors[i].host, lf->giveback[i],
					 lf->giveback[i] == 1 ? "y" : "ies");
			continue;
		}
		/* the last slabs first: a swap device fills from the front */
		for (s = map->nr_slabs; s-- > 0 && lf->giveback[i];) {
			struct spare_slab *slab = &map->slabs[s];
			struct spare_reclaim_in in = {
				.moving = slab_moving(d, s),
				.backup_whole = reclaim_backup_whole(d, s),
			};
			enum spare_reclaim_act act;
			enum spare_reclaim_why why;
			int c = spare_slab_donor_slot(map, slab, i);

			if (c < 0 || lf->nmv == lf->max_mv)
				continue;
			in.to = reclaim_target(d, s, i);
			spin_lock(&slab->lock);
			act = spare_reclaim_decide(map, slab, (u32)c, &in, &why);
			spin_unlock(&slab->lock);
			if (act == SPARE_RECLAIM_MOVE) {
				if (reclaim_move(d, i, s, c, in.to))
					lf->giveback[i]--;
			} else if (act == SPARE_RECLAIM_DROP) {
				if (in.to < 0 && !lf->gb_nomove_said[i]) {
					lf->gb_nomove_said[i] = true;
					log_info("donor %s: no other donor's grants have room for "
						 "the copies asked back: given back without a "
						 "move, the slabs served by their other copies or "
						 "the backup until new room comes",
						 d->donors[i].host);
				}
				reclaim_start(d, i, s, c, why);
				lf->giveback[i]--;
			} else if (act != SPARE_RECLAIM_LATER && why != SPARE_RECLAIM_WHY_NOT_MAPPED) {
				kept++;
				kwhy = why;
			}
		}
		if (lf->giveback[i] && kept > lf->gb_kept_said[i]) {
			lf->gb_kept_said[i] = kept;
			log_warn("donor %s: %u cop%s asked back by a move mark kept (%s, "
				 "e.g.); its grants stay renewed", d->donors[i].host,
				 lf->giveback[i], lf->giveback[i] == 1 ? "y" : "ies",
				 spare_reclaim_why_name(kwhy));
		}
	}
}

/* What a look at a move said; true: it is over. */
static bool move_act(struct dev *d, struct spare_move *mv,
		     enum spare_move_act act)
{
	struct spare_slab *slab = &d->map.slabs[mv->slab];
	const char *ev = d->donors[mv->evictor].host;
	u32 id = pager_wire_id(mv->slab, (u32)mv->from);
	u64 now = spare_now_ms();

	switch (act) {
	case SPARE_MOVE_ACT_MAP:
		move_map_again(d, mv);
		break;
	case SPARE_MOVE_ACT_KICK:
		resync_kick(d);
		break;
	case SPARE_MOVE_ACT_WAITS:
		move_waits(d, mv);
		break;
	case SPARE_MOVE_ACT_EVICTING:
		if (mv->why == SPARE_MOVE_WHY_RECLAIM)
			break;	/* reclaim_step() said why */
		log_warn("donor %s: slab %u cannot move (%s): given back; the "
			 "other copies serve it", ev, mv->slab,
			 spare_move_why_name(mv->why));
		break;
	case SPARE_MOVE_ACT_MOVED:
		if (mv->shorted) {
			__atomic_add_fetch(&d->st.moves_short, 1, __ATOMIC_RELAXED);
			log_warn("donor %s: slab %u moved only in part: %s", ev,
				 mv->slab, spare_move_why_name(mv->why));
		}
		if (!mv->reclaim)
			__atomic_add_fetch(&d->st.evictions, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&d->st.moves, 1, __ATOMIC_RELAXED);
		log_info("donor %s: slab %u moved to donor %s in %" PRIu64 " ms%s",
			 ev, mv->slab, d->donors[slab->copy[mv->to].donor].host,
			 now - mv->start, mv->reclaim ? " (a move mark)" : "");
		send_unmap(d, mv->evictor, id);
		break;
	case SPARE_MOVE_ACT_EVICTED:
		if (mv->why == SPARE_MOVE_WHY_RECLAIM) {
			reclaim_done(d, mv);
			break;
		}
		__atomic_add_fetch(&d->st.evictions, 1, __ATOMIC_RELAXED);
		d->life->dl[mv->evictor].remap_at = now + LIFE_REMAP_DELAY_MS;
		send_unmap(d, mv->evictor, id);
		break;
	default:	/* nothing now, or over: the failure road has the copy */
		break;
	}
	return spare_move_over(mv);
}

/* One look at a move (spare_move_step()). true: it is over. */
static bool move_step(struct dev *d, struct spare_move *mv)
{
	struct spare_slab *slab = &d->map.slabs[mv->slab];
	struct spare_move_in in;
	enum spare_move_act act;

	move_in(d, mv, &in);
	spin_lock(&slab->lock);
	act = spare_move_step(mv, &d->map, slab, &in);
	spin_unlock(&slab->lock);
	if (act == SPARE_MOVE_ACT_SEEK)
		act = move_seek(d, mv, &in);
	return move_act(d, mv, act);
}

static void on_evict(struct donor *dn, uint32_t id, uint32_t reason,
		     uint32_t deadline_ms, void *arg)
{
	struct dev *d = arg;
	struct life *lf = d->life;
	u32 i = (u32)(dn - d->donors), s = id / SPARE_MAX_REPLICAS;
	struct spare_slab *slab;
	struct spare_move *mv;
	struct spare_move_in in;
	int c;

	lf->evict_seen[i] = (u64)time(NULL);
	if (ec_on(d)) {
		ec_on_evict(d, i, id, deadline_ms);
		return;
	}
	if (s >= d->map.nr_slabs) {
		log_warn("donor %s: EVICT of slab id %u, which it does not lend "
			 "us: ignored", dn->host, id);
		return;
	}
	slab = &d->map.slabs[s];
	c = spare_slab_donor_slot(&d->map, slab, i);
	if (c < 0 || pager_wire_id(s, (u32)c) != id) {
		log_warn("donor %s: EVICT of slab id %u, which it does not lend "
			 "us: ignored", dn->host, id);
		return;
	}
	for (unsigned int k = 0; k < lf->nmv; k++)
		if (lf->mv[k].slab == s && lf->mv[k].evictor == i) {
			log_info("donor %s: EVICT of slab %u again while it "
				 "moves: ignored", dn->host, s);
			return;
		}
	if (slab->copy[c].state != SPARE_COPY_MAPPED) {
		log_info("donor %s: EVICT of slab %u in state %s: ignored",
			 dn->host, s, spare_copy_state_name(slab->copy[c].state));
		return;
	}
	if (lf->nmv == lf->max_mv) {	/* cannot be: one per slot */
		log_warn("donor %s: too many moves at once; EVICT of slab %u "
			 "ignored", dn->host, s);
		return;
	}
	mv = &lf->mv[lf->nmv++];
	*mv = (struct spare_move){ .to = -1 };
	move_in(d, mv, &in);
	spare_move_init(mv, s, i, c, in.now, life_move_due(in.now, deadline_ms),
			in.news);
	log_info("donor %s: EVICT slab %u (reason %u, deadline %u ms): moving it",
		 dn->host, s, reason, deadline_ms);
	if (!deadline_ms) {
		enum spare_move_act act;

		spin_lock(&slab->lock);
		act = spare_move_evict(mv, &d->map, slab,
				       SPARE_MOVE_WHY_NO_GRACE, &in);
		spin_unlock(&slab->lock);
		move_act(d, mv, act);
		return;
	}
	move_step(d, mv);	/* over or not, the loop's next look ends it */
}

/* ---- the loop ---- */

int life_init(struct dev *d)
{
	u64 now = spare_now_ms();
	u32 i;

	d->life = calloc(1, sizeof(*d->life));
	if (!d->life)
		return -1;
	d->life->max_mv = d->map.nr_slabs * SPARE_MAX_SLOTS;
	d->life->mv = calloc(d->life->max_mv, sizeof(*d->life->mv));
	if (!d->life->mv)
		return -1;
	for (i = 0; i < d->nr_donors; i++) {
		struct dl *l = &d->life->dl[i];

		/* connected by pager start-up: OFFLINE (calloc), then up */
		spare_life_init(&l->life, now);
		dl_set(l, SPARE_LIFE_EV_CONNECT, now);
		dl_set(l, SPARE_LIFE_EV_UP, now);
		l->remap_at = UINT64_MAX;
		d->donors[i].notify_fd = &d->life_fd;
		if (d->donors[i].ctrl.up && donor_data_up(&d->donors[i])) {
			spare_slab_map_hold(&d->map, i, held_by(d, i));
			continue;
		}
		/*
		 * A restarted pager that could not reach this donor (its
		 * copies are failed, pager_restore_map()): it is a lost
		 * donor from the start, detached (no poll was armed for it),
		 * then reconnected with back-off like any other.
		 */
		__atomic_store_n(&d->donors[i].failed, 1, __ATOMIC_RELEASE);
		d->donors[i].ctrl.up = false;
		dl_set(l, SPARE_LIFE_EV_LOST, now);	/* ERROR: detached first */
		links_ask(d, i, DN_DETACH_REQ, false);	/* the queues start looking */
	}
	return 0;
}

int life_add_donor(struct dev *d, const char *addr)
{
	u32 i = d->nr_donors;
	struct donor *dn = &d->donors[i];
	struct dl *l;
	const char *why;

	if (i == SPARE_MAX_DONORS) {
		log_warn("a grant names donor %s, but the device has %u donors, the most: not added",
			 addr, i);
		return -1;
	}
	l = &d->life->dl[i];
	memset(dn, 0, sizeof(*dn));
	why = donor_parse(dn, addr);
	if (why) {
		log_warn("a grant names donor \"%s\": %s: not added", addr, why);
		return -1;
	}
	pager_donor_init(d, dn);
	dn->notify_fd = &d->life_fd;
	__atomic_store_n(&dn->failed, 1, __ATOMIC_RELEASE);
	/* no link yet on any queue: attached once connected */
	links_ask(d, i, DN_DETACHED, false);
	memset(l, 0, sizeof(*l));	/* OFFLINE, its first connect due now */
	spare_life_init(&l->life, spare_now_ms());
	l->added = true;
	l->remap_at = UINT64_MAX;
	/* with failure domains: a domain of its own (it shares none known) */
	if (d->nr_domains) {
		d->domain[i] = pager_domain_next(d);
		d->nr_domains = i + 1;
	}
	if (spare_slab_map_grow_donors(&d->map, i + 1)) {
		log_err("donor %s: the slab map takes no more donors", addr);
		return -1;
	}
	/* last: the queue and resync threads look at donors below it */
	__atomic_store_n(&d->nr_donors, i + 1, __ATOMIC_RELEASE);
	log_info("donor %s: added (a new grant names it) as donor %u; connecting",
		 addr, i);
	return 0;
}

/* control CQ, control CM, resync CM, each data link's CM */
#define PFD_PER_DONOR	(3 + DONOR_MAX_DATA)

void life_loop(struct dev *d, int sfd, void (*tick)(struct dev *d))
{
	struct pollfd pfd[2 + SPARE_MAX_DONORS * PFD_PER_DONOR];
	struct life *lf = d->life;
	u32 i;

	for (;;) {
		int timeout = -1;
		u64 now = spare_now_ms();

		pfd[0] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = d->life_fd, .events = POLLIN };
		for (i = 0; i < d->nr_donors; i++) {
			struct donor *dn = &d->donors[i];
			struct pollfd *p = &pfd[2 + i * PFD_PER_DONOR];
			bool on = lf->dl[i].st == SPARE_DONOR_LIVE;

			p[0] = (struct pollfd){ .fd = on ? dn->ctrl.cc->fd : -1, .events = POLLIN };
			p[1] = (struct pollfd){ .fd = on ? dn->ctrl.ev->fd : -1, .events = POLLIN };
			p[2] = (struct pollfd){ .fd = on && dn->rs.ev ? dn->rs.ev->fd : -1,
						.events = POLLIN };
			for (unsigned int k = 0; k < DONOR_MAX_DATA; k++)
				p[3 + k] = (struct pollfd){
					.fd = on && k < dn->nr_data && dn->data[k].ev ?
					      dn->data[k].ev->fd : -1,
					.events = POLLIN };
			if (lf->dl[i].st == SPARE_DONOR_OFFLINE) {
				int w = (int)spare_life_wait(&lf->dl[i].life, now);

				if (timeout < 0 || w < timeout)
					timeout = w;
			}
			if (lf->dl[i].st == SPARE_DONOR_LIVE && lf->dl[i].remap_at != UINT64_MAX) {
				int w = lf->dl[i].remap_at > now ?
					(int)(lf->dl[i].remap_at - now) : 0;

				if (timeout < 0 || w < timeout)
					timeout = w;
			}
			if (lf->dl[i].st != SPARE_DONOR_LIVE &&
			    lf->dl[i].st != SPARE_DONOR_ERROR &&
			    (timeout < 0 || timeout > 1000))
				timeout = 1000;		/* re-homing */
		}
		if (lf->nmv && (timeout < 0 || timeout > LIFE_MOVE_POLL_MS))
			timeout = LIFE_MOVE_POLL_MS;
		tick(d);
		if (timeout < 0 || timeout > 1000)
			timeout = 1000;		/* the live counters file */
		if (poll(pfd, 2 + d->nr_donors * PFD_PER_DONOR, timeout) < 0) {
			if (errno == EINTR)
				continue;
			log_err("poll: %s", strerror(errno));
			return;
		}
		if (pfd[0].revents) {
			struct signalfd_siginfo si;

			if (read(sfd, &si, sizeof(si)) == sizeof(si) &&
			    si.ssi_signo == SIGHUP) {
				/* as the daemons: systemctl reload waits for it */
				spare_notify_reloading();
				pager_reload_grants(d, dl_live, life_add_donor);
				giveback_reload(d);
				spare_notify_ready("/dev/ublkb%u ready", d->ctrl.info.dev_id);
				continue;
			}
			log_info("signal %u: stopping", si.ssi_signo);
			return;
		}
		if (pfd[1].revents) {
			uint64_t v;

			if (read(d->life_fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
				log_err("lifecycle eventfd: %s", strerror(errno));
		}
		for (i = 0; i < d->nr_donors; i++) {
			struct donor *dn = &d->donors[i];
			struct pollfd *p = &pfd[2 + i * PFD_PER_DONOR];
			const char *why = NULL;

			if (lf->dl[i].st != SPARE_DONOR_LIVE)
				continue;
			if (p[0].revents && donor_poll_ctrl(dn, on_evict, d) < 0)
				why = "control connection lost";
			if (!why && p[1].revents && donor_cm_event(dn, &dn->ctrl) < 0)
				why = "control link down";
			if (!why && dn->ctrl.lost)	/* taken by a wait */
				why = "control link down";
			if (!why && p[2].revents && donor_cm_event(dn, &dn->rs) < 0)
				why = "resync link down";
			for (unsigned int k = 0; !why && k < dn->nr_data; k++)
				if (p[3 + k].revents &&
				    donor_cm_event(dn, &dn->data[k]) < 0)
					why = "data link down";
			if (why)
				donor_fail(dn, why);
		}
		for (i = 0; i < d->nr_donors; i++) {
			donor_step(d, i);
			hold_check(d, i, spare_now_ms());
		}
		for (unsigned int k = 0; k < lf->nmv; )
			if (move_step(d, &lf->mv[k]))
				move_end(d, k);
			else
				k++;
		reclaim_step(d);
		moves_publish(d);
		for (i = 0; i < d->nr_donors; i++)
			remap_donor(d, i);
		rehome(d);
		if (ec_on(d))
			ec_life_step(d, dl_live, dl_rehome_due);	/* ec.c */
	}
}

/*
 * Stopping: a connect thread still trying (its steps time out only after
 * --timeout) is left to run while the process ends; its donor is not
 * touched any more (no UNMAP, no close: the donor releases the session's
 * slabs when the connection goes with the process).
 */
void life_stop(struct dev *d)
{
	bool keep = false;
	u32 i;

	if (!d->life)
		return;
	for (i = 0; i < d->nr_donors; i++)
		if (d->life->dl[i].st == SPARE_DONOR_CONNECTING) {
			if (__atomic_load_n(&d->life->dl[i].conn_rc,
					    __ATOMIC_ACQUIRE) == 1) {
				pthread_detach(d->life->dl[i].th);
				d->donors[i].abandoned = true;
				keep = true;	/* the thread uses it */
				continue;
			}
			pthread_join(d->life->dl[i].th, NULL);
		}
	if (keep)
		return;
	free(d->life->mv);
	free(d->life);
	d->life = NULL;
}
