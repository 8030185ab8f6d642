// SPDX-License-Identifier: GPL-2.0
/*
 * spare.ko RDMA transport: what a donor asks back. EVICT (the copy moves to
 * another donor, kmod/core/spare_move.c, or is given back the old way) and
 * ACTIVITY_QUERY, answered in the donor's evict work; the copies a
 * broker's move marks ask back (spare_giveback.c), given back there too;
 * and the re-home of the copies of a donor down too long, in its rehome
 * work.
 */
#include <linux/delay.h>
#include <linux/sched/mm.h>
#include <linux/timekeeping.h>

#include "spare.h"
#include "spare_rdma.h"
#include "spare_move.h"
#include "spare_reclaim.h"

static u32 copy_inflight(struct spare_slab *slab, int c)
{
	unsigned long flags;
	u32 n;

	spin_lock_irqsave(&slab->lock, flags);
	n = slab->copy[c].inflight;
	spin_unlock_irqrestore(&slab->lock, flags);
	return n;
}

/**
 * spare_donor_send_unmap() - give slab @s back to donor @d (UNMAP); a send
 * that fails takes the donor's error road
 * @d: the donor
 * @s: the slab (a split slab on an ec:K+R device)
 */
void spare_donor_send_unmap(struct spare_donor *d, u32 s)
{
	struct spare_msg m;

	msg_prepare(d, &m, SPARE_MSG_UNMAP);
	m.unmap.slab_id = cpu_to_le32(s);
	if (spare_ctrl_send(d, &m))
		spare_donor_error(d, "cannot send UNMAP");
}

/*
 * Whether donor @t may hold grants a broker marked: copies are asked of it
 * or leave it, or a grant it had when they were asked has not lapsed. The
 * module is not told which grants are marked, only the copies beyond the
 * unmarked ones (configfs "giveback"): a mark's move does not go there.
 * Nor to a donor that sent EVICT lately (SPARE_RECLAIM_EVICT_COOL_S).
 */
static bool giveback_marked(struct spare_donor *t)
{
	u64 now = ktime_get_real_seconds();

	return READ_ONCE(t->giveback) || atomic_read(&t->giveback_leaving) ||
	       now < READ_ONCE(t->giveback_until) ||
	       (READ_ONCE(t->evict_seen) &&
		now < READ_ONCE(t->evict_seen) + SPARE_RECLAIM_EVICT_COOL_S);
}

/*
 * The donor the move of slab @s away from donor @from asks next
 * (spare_move_pick()): not one in @tried, live, without a copy of the
 * slab; one whose grants have room first, then one in a failure domain
 * holding no other copy. *@roomy: whether it has room (else a grant is
 * asked for). @mark: for a move mark's move, only a donor the device
 * holds grants for that may hold no marked one (giveback_marked()).
 */
static struct spare_donor *pick_target(struct spare_dev *dev, u32 s, u32 from,
				       u32 tried, bool mark, bool *roomy)
{
	struct spare_slab_map *map = &dev->map;
	struct spare_move_cand c[SPARE_MAX_DONORS];
	/* pairs with the store-release of each count when it grows */
	u32 nr_domain = smp_load_acquire(&dev->cfg.nr_domains);
	const u16 *domain = nr_domain ? dev->cfg.domain : NULL;
	u32 i, n = min_t(u32, smp_load_acquire(&dev->cfg.nr_donors),
			 SPARE_MAX_DONORS);
	int best;

	for (i = 0; i < n; i++) {
		struct spare_donor *t = &dev->donors[i];

		spare_move_cand_init(&c[i], map, s, domain, nr_domain, i, from,
				     !(tried & BIT(i)) && donor_live(t) &&
				     !(mark && giveback_marked(t)));
		if (!c[i].ok)
			continue;
		c[i].room = spare_grants_cover(dev,
				(const struct sockaddr_in *)&t->addr);
		if (c[i].room != SPARE_ROOM_OPEN)
			c[i].room -= c[i].load;
		else if (mark)
			c[i].ok = false;	/* no grant: no room granted */
	}
	best = spare_move_pick(c, n, roomy);
	return best < 0 ? NULL : &dev->donors[best];
}

static struct spare_donor *move_target(struct spare_dev *dev, u32 s, u32 from,
				       u32 tried, bool *roomy)
{
	return pick_target(dev, s, from, tried, false, roomy);
}

/*
 * Re-home (Documentation/kmod.md, "Donor life cycle"): a donor out of LIVE
 * for the device's rehome_delay_ms (SPARE_LIFE_REHOME_MS unless set;
 * spare_life_rehome_due()) gives its copies up.
 * Each goes to the donor a move would ask first, in the slab's spare slot
 * (spare_slab_rehome(), shared with spare-ublk); that donor's map work
 * maps it and resync refills it from a mapped copy. A copy that cannot go
 * yet (no live donor without a copy of its slab, no mapped copy to refill
 * it from, its failure road not over) is asked again every
 * SPARE_REMAP_DELAY_MS while its donor stays down.
 */

/* Slab @s's copy on donor @d goes to another donor: which, or NULL. */
static struct spare_donor *rehome_copy(struct spare_donor *d, u32 s)
{
	struct spare_dev *dev = d->dev;
	struct spare_slab *slab = &dev->map.slabs[s];
	struct spare_donor *t;
	unsigned long flags;
	bool roomy;
	int to;

	t = move_target(dev, s, d->idx, BIT(d->idx), &roomy);
	if (!t)
		return NULL;
	spin_lock_irqsave(&slab->lock, flags);
	/*
	 * Under the slab's lock, as the map work moves a copy to MAPPING
	 * only while its donor is live: a donor back meanwhile keeps it.
	 */
	to = donor_live(d) ? -EAGAIN :
	     spare_slab_rehome(&dev->map, slab, d->idx, t->idx);
	spin_unlock_irqrestore(&slab->lock, flags);
	return to < 0 ? NULL : t;
}

/**
 * spare_donor_rehome_arm() - look at donor @d's copies again once it has
 * been down the device's rehome_delay_ms
 * @d: a donor that just went down (torn down), or of a device powering on
 */
void spare_donor_rehome_arm(struct spare_donor *d)
{
	u64 due = READ_ONCE(d->life.down_since) + d->dev->cfg.rehome_delay_ms;
	u64 now = spare_now_ms();

	queue_delayed_work(d->dev->wq, &d->rehome_work,
			   msecs_to_jiffies(due > now ? due - now : 0));
}

void spare_donor_rehome_work(struct work_struct *work)
{
	struct spare_donor *d = container_of(to_delayed_work(work),
					     struct spare_donor, rehome_work);
	struct spare_dev *dev = d->dev;
	struct spare_donor *t;
	unsigned long to_mask = 0;
	u32 s, moved = 0, left = 0;
	/*
	 * Pairs with the full barrier of the exchange that took the donor
	 * out of ERROR or OFFLINE (spare_donor_set_state()): its down time,
	 * written when it left LIVE, is seen with the state.
	 */
	int state = atomic_read_acquire(&d->state);
	u64 now = spare_now_ms();
	u64 down = now - READ_ONCE(d->life.down_since);

	if (!spare_life_rehome_due(&d->life, state, now,
				   dev->cfg.rehome_delay_ms)) {
		/* lost again since it was armed: not due yet */
		if (state != SPARE_DONOR_LIVE && state != SPARE_DONOR_ERROR &&
		    state != SPARE_DONOR_DELETING)
			spare_donor_rehome_arm(d);
		return;	/* ERROR: its error work arms it when over */
	}
	for (s = 0; s < dev->map.nr_slabs; s++) {
		if (donor_copy(d, s) < 0)
			continue;
		/* a split slab: rebuilt from its group's other splits */
		t = dev->ec ? spare_ec_rehome(d, s) : rehome_copy(d, s);
		if (!t) {
			left++;
			continue;
		}
		moved++;
		to_mask |= BIT(t->idx);
	}
	for_each_set_bit(s, &to_mask, SPARE_MAX_DONORS)
		queue_work(dev->wq, &dev->donors[s].map_work);
	if (moved && dev->ec)
		pr_info("donor %s: down %llu s: %u split slabs re-homed to other donors; each rebuilt from %u other splits of its group\n",
			d->name, down / 1000, moved, dev->cfg.ec.k);
	else if (moved)
		pr_info("donor %s: down %llu s: %u slab copies re-homed to other donors; resync refills them\n",
			d->name, down / 1000, moved);
	if (left && left != d->rehome_left && dev->ec)
		pr_info("donor %s: down %llu s: %u split slabs wait for it (no other live donor outside their coding group and its failure domains)\n",
			d->name, down / 1000, left);
	else if (left && left != d->rehome_left)
		pr_info("donor %s: down %llu s: %u slab copies wait for it (no other live donor takes them, or no mapped copy to refill them from)\n",
			d->name, down / 1000, left);
	d->rehome_left = left;
	if (left)
		queue_delayed_work(dev->wq, &d->rehome_work,
				   msecs_to_jiffies(SPARE_REMAP_DELAY_MS));
}

static void move_in(struct spare_dev *dev, struct spare_move_in *in)
{
	*in = (struct spare_move_in){
		.now = spare_now_ms(),
		/* Powering off stops resync: then no move can complete. */
		.stop = READ_ONCE(dev->resync_stop),
		/*
		 * New grants, or a donor came up (one appended for a move
		 * connects after its grant was written): ask them again.
		 */
		.news = spare_grants_seq(dev) + atomic_read(&dev->donor_ups),
		.drain_ms = SPARE_CM_TIMEOUT_MS,
	};
}

static enum spare_move_act giveback_no_target(struct spare_donor *d,
					      struct spare_kmove *km,
					      const struct spare_move_in *min);

/*
 * Ask the next donor to take the move. A target whose grants are used up
 * is still asked (the kernel's count of them may lag the donor's), but the
 * slab_moving uevent tells userspace (sparectl device monitor) to get a
 * grant for one, once per move: asking again on every change of the
 * grants would feed back into itself (each answer is a change), as it did
 * on the debug kernel with a target lost. With no donor left, the move
 * waits for a grant if the device has any (a broker's donors lend only
 * against them), else the copy goes the old way.
 */
static enum spare_move_act move_seek(struct spare_donor *d,
				     struct spare_kmove *km,
				     const struct spare_move_in *in)
{
	struct spare_dev *dev = d->dev;
	struct spare_slab_map *map = &dev->map;
	struct spare_move *mv = &km->m;
	struct spare_slab *slab = &map->slabs[mv->slab];
	enum spare_move_act act;
	unsigned long flags;
	bool roomy;
	int ret;

	if (mv->reclaim)
		return giveback_no_target(d, km, in);
	do {
		km->t = move_target(dev, mv->slab, d->idx, mv->tried, &roomy);
		if (!roomy && !km->asked && READ_ONCE(dev->nr_grants)) {
			km->asked = true;
			pr_info("donor %s: slab %u: no other donor's grants have room for it; asking for a grant\n",
				d->name, mv->slab);
			spare_uevent(dev, "slab_moving", d, mv->slab);
		}
		spin_lock_irqsave(&slab->lock, flags);
		if (!km->t) {
			act = spare_move_no_target(mv, map, slab,
						   READ_ONCE(dev->nr_grants),
						   false, in);
		} else {
			ret = spare_move_target(mv, map, slab, km->t->idx);
			act = ret == -EEXIST ? SPARE_MOVE_ACT_SEEK :
			      !ret ? SPARE_MOVE_ACT_NONE :
			      spare_move_evict(mv, map, slab,
					       SPARE_MOVE_WHY_NO_SLOT, in);
		}
		spin_unlock_irqrestore(&slab->lock, flags);
	} while (act == SPARE_MOVE_ACT_SEEK);
	if (mv->state == SPARE_MOVE_FILL)	/* its map work sends the MAP */
		queue_work(dev->wq, &km->t->map_work);
	return act;
}

/*
 * A copy given back the old way is drained and UNMAPPED, its UNMAP owed
 * (unmap_owed, set under the slab's lock in the hold that made it
 * UNMAPPED): UNMAP it; only then may map_work map the slot again. A MAP
 * sent first would reach the donor before the UNMAP: refused while it
 * still holds the slab, or, once its deadline took the slab, answered
 * with a new one that the UNMAP then takes away under a MAPPED copy.
 */
static void evict_done(struct spare_donor *d, u32 s)
{
	struct spare_dev *dev = d->dev;

	atomic64_inc(&d->stats.evictions);
	d->remap_after = jiffies + msecs_to_jiffies(SPARE_REMAP_DELAY_MS);
	pr_info("donor %s: slab %u evicted; using other copies%s\n", d->name,
		s, dev->has_backup ? " and backup" : "");
	spare_donor_send_unmap(d, s);
	/* sent, or the send failed and the error road ends the session */
	clear_bit(s, d->unmap_owed);
	spare_uevent(dev, "slab_evicted", d, s);
}

/*
 * ---- Move marks: copies given back to the pool (spare_giveback.c) ----
 *
 * A donor owing copies (configfs "giveback") has them judged here, in its
 * evict work, a look a second (heartbeat work queues the work while any
 * are owed): from the last slab back (a swap device fills from the
 * front), each copy on the donor by spare_reclaim_decide(). DROP goes as
 * an eviction the old way does, through the move machine
 * (SPARE_MOVE_WHY_RECLAIM: EVICTING, reads may still use it, writes skip
 * it; drained), its slot freed, then UNMAP (giveback_done()), so that
 * slab_map no longer names it and sparectl renews its grant no more.
 * LATER is looked at again; KEEP is logged once with the reason, and its
 * grant stays renewed. MOVE (a donor the device holds grants for, owing
 * no copies, has room: giveback_target()) comes before DROP: the copy
 * moves there through the move machine (spare_reclaim_move_begin(): the
 * target's map work MAPs it, resync fills it, the old copy drains and
 * is UNMAPped) and the slab keeps its copies. A target that refuses or
 * fails is not replaced by another donor (giveback_no_target()): the
 * copy is then dropped if nothing is lost, else kept. With no target,
 * DROP is the fallback, logged once a count.
 */
#define SPARE_GIVEBACK_LOOK_MS	1000

/* Whether a move of slab @s runs among @d's moves[0 .. n). */
static bool moves_have(const struct spare_donor *d, u32 n, u32 s)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (d->moves[i].m.slab == s)
			return true;
	return false;
}

/*
 * Whether another donor of the device may be moving a copy: an EVICT
 * waiting there, or its evict work queued or running. A copy is judged
 * only on a map that no move is changing.
 */
static bool others_evicting(const struct spare_donor *d, u32 s)
{
	struct spare_dev *dev = d->dev;
	/* pairs with the store-release of the count when donors are added */
	u32 i, n = min_t(u32, smp_load_acquire(&dev->cfg.nr_donors),
			 SPARE_MAX_DONORS);

	for (i = 0; i < n; i++) {
		struct spare_donor *t = &dev->donors[i];

		if (t != d && (test_bit(s, t->evict_pending) ||
			       work_busy(&t->evict_work)))
			return true;
	}
	return false;
}

/*
 * Copy @c of slab @s on donor @d, asked back: judged, and on DROP taken
 * out of service as move @km (the old way). What the core said, *@why
 * its reason.
 */
/* What the core is told of slab @s for a mark. Under the slab's lock. */
static void giveback_in(struct spare_donor *d, u32 s,
			const struct spare_move_in *min,
			struct spare_reclaim_in *in)
{
	struct spare_dev *dev = d->dev;
	struct spare_slab_map *map = &dev->map;

	in->stop = min->stop;
	/* under the slab's lock: no write of the slab begins meanwhile */
	in->backup_whole = dev->has_backup &&
		spare_backup_range_ok(dev, (u64)s * map->pages_per_slab,
				      map->pages_per_slab);
}

/*
 * Where a copy of slab @s on donor @d asked back by a mark may move: a
 * live donor without a copy of the slab, owing none itself, whose grants
 * on the device have room for one more (the broker granted it), or -1.
 */
static int giveback_target(struct spare_donor *d, u32 s)
{
	struct spare_donor *t;
	bool roomy;

	t = pick_target(d->dev, s, d->idx, BIT(d->idx), true, &roomy);
	return t && roomy ? (int)t->idx : -1;
}

/* A copy on its way off @d on a mark (moving or dropped): counted. */
static void giveback_leaves(struct spare_donor *d)
{
	spin_lock_bh(&d->pending_lock);
	if (d->giveback)
		d->giveback--;
	atomic_inc(&d->giveback_leaving);
	spin_unlock_bh(&d->pending_lock);
}

/*
 * Copy @c of slab @s on donor @d, asked back: judged, and on MOVE begun
 * as move @km (its target's map work MAPs it), on DROP taken out of
 * service as move @km (the old way). What the core said, *@why its
 * reason.
 */
static enum spare_reclaim_act giveback_one(struct spare_donor *d, u32 s, u32 c,
					   bool moving,
					   const struct spare_move_in *min,
					   struct spare_kmove *km,
					   enum spare_reclaim_why *why)
{
	struct spare_dev *dev = d->dev;
	struct spare_slab_map *map = &dev->map;
	struct spare_slab *slab = &map->slabs[s];
	struct spare_reclaim_in in = { .moving = moving };
	enum spare_move_act mact = SPARE_MOVE_ACT_NONE;
	enum spare_reclaim_act act;
	unsigned long flags;
	int ret = 0;

	in.to = giveback_target(d, s);
	spin_lock_irqsave(&slab->lock, flags);
	giveback_in(d, s, min, &in);
	act = spare_reclaim_decide(map, slab, c, &in, why);
	if (act == SPARE_RECLAIM_MOVE) {
		ret = spare_reclaim_move_begin(&km->m, map, slab, s, d->idx, c,
					       (u32)in.to, min->now, min->news);
	} else if (act == SPARE_RECLAIM_DROP) {
		spare_move_init(&km->m, s, d->idx, c, min->now, min->now,
				min->news);
		mact = spare_move_evict(&km->m, map, slab,
					SPARE_MOVE_WHY_RECLAIM, min);
	}
	spin_unlock_irqrestore(&slab->lock, flags);
	if (act != SPARE_RECLAIM_DROP && act != SPARE_RECLAIM_MOVE)
		return act;
	if (ret || (act == SPARE_RECLAIM_DROP &&
		    mact != SPARE_MOVE_ACT_EVICTING))
		return SPARE_RECLAIM_LATER;	/* the copy changed: not now */
	km->t = act == SPARE_RECLAIM_MOVE ? &dev->donors[in.to] : NULL;
	km->asked = false;
	giveback_leaves(d);
	if (act == SPARE_RECLAIM_MOVE) {
		queue_work(dev->wq, &km->t->map_work);	/* it sends the MAP */
		pr_info("donor %s: slab %u moves to donor %s (a move mark): %s\n",
			d->name, s, km->t->name, spare_reclaim_why_name(*why));
		return act;
	}
	if (in.to < 0 && !READ_ONCE(d->giveback_nomove_said)) {
		WRITE_ONCE(d->giveback_nomove_said, true);
		pr_info("donor %s: no other donor's grants have room for the copies asked back: given back without a move, the slabs served by their other copies or the backup until new room comes\n",
			d->name);
	}
	pr_info("donor %s: slab %u given back to the pool (a move mark): %s\n",
		d->name, s, spare_reclaim_why_name(*why));
	return act;
}

/*
 * The target of a mark's move refused its MAP or failed: no other donor
 * is asked; the core drops the copy if that loses nothing, else keeps it
 * (spare_reclaim_no_target()).
 */
static enum spare_move_act giveback_no_target(struct spare_donor *d,
					      struct spare_kmove *km,
					      const struct spare_move_in *min)
{
	struct spare_slab_map *map = &d->dev->map;
	struct spare_slab *slab = &map->slabs[km->m.slab];
	struct spare_reclaim_in in = { .to = -1 };
	enum spare_reclaim_why why;
	enum spare_move_act act;
	unsigned long flags;

	spin_lock_irqsave(&slab->lock, flags);
	giveback_in(d, km->m.slab, min, &in);
	act = spare_reclaim_no_target(&km->m, map, slab, &in, min, &why);
	spin_unlock_irqrestore(&slab->lock, flags);
	if (act == SPARE_MOVE_ACT_EVICTING || act == SPARE_MOVE_ACT_KEPT)
		pr_info("donor %s: slab %u: donor %s did not take it; %s (a move mark): %s\n",
			d->name, km->m.slab, km->t ? km->t->name : "?",
			act == SPARE_MOVE_ACT_KEPT ? "kept" : "given back to the pool",
			spare_reclaim_why_name(why));
	return act;
}

/* @kept copies kept this look: log it? Once until the count changes. */
static bool giveback_kept_news(struct spare_donor *d, u32 kept)
{
	bool news;

	spin_lock_bh(&d->pending_lock);
	news = d->giveback && kept > d->giveback_kept_said;
	if (news)
		d->giveback_kept_said = kept;
	spin_unlock_bh(&d->pending_lock);
	return news;
}

/*
 * One look at the copies donor @d owes, from its evict work with @n moves
 * running; returns how many run now (the copies given back added).
 */
static u32 giveback_look(struct spare_donor *d, u32 n)
{
	struct spare_dev *dev = d->dev;
	enum spare_reclaim_why why, kwhy = SPARE_RECLAIM_WHY_NONE;
	struct spare_move_in min;
	enum spare_reclaim_act act;
	u32 s, kept = 0;
	int c;

	move_in(dev, &min);
	if (!READ_ONCE(d->giveback) || !donor_live(d) ||
	    min.now < READ_ONCE(d->giveback_next))
		return n;
	WRITE_ONCE(d->giveback_next, min.now + SPARE_GIVEBACK_LOOK_MS);
	if (dev->ec) {
		if (giveback_kept_news(d, READ_ONCE(d->giveback)))
			pr_warn("donor %s: %u cop%s asked back by a move mark kept: an erasure-coded device gives no split back yet\n",
				d->name, d->giveback,
				d->giveback == 1 ? "y" : "ies");
		return n;
	}
	for (s = dev->map.nr_slabs; s-- > 0 && READ_ONCE(d->giveback);) {
		c = donor_copy(d, s);
		if (c < 0)
			continue;
		act = giveback_one(d, s, c,
				   moves_have(d, n, s) || others_evicting(d, s),
				   &min, &d->moves[n], &why);
		if (act == SPARE_RECLAIM_DROP || act == SPARE_RECLAIM_MOVE) {
			n++;
		} else if (act != SPARE_RECLAIM_LATER &&
			   why != SPARE_RECLAIM_WHY_NOT_MAPPED) {
			kept++;
			kwhy = why;
		}
	}
	if (kept && giveback_kept_news(d, kept))
		pr_warn("donor %s: %u cop%s asked back by a move mark kept (%s, e.g.); its grants stay renewed\n",
			d->name, d->giveback, d->giveback == 1 ? "y" : "ies",
			spare_reclaim_why_name(kwhy));
	return n;
}

/*
 * A copy given back on a mark is drained and its slot freed (move_step(),
 * under the slab's lock, so that no map work maps it again and slab_map no
 * longer names it): UNMAP it (the slab_evicted uevent has sparectl's
 * monitor count the copies again).
 */
static void giveback_done(struct spare_donor *d, const struct spare_move *mv)
{
	if (donor_live(d))
		spare_donor_send_unmap(d, mv->slab);
	clear_bit(mv->slab, d->unmap_owed);
	atomic_dec(&d->giveback_leaving);
	pr_info("donor %s: slab %u: the copy given back is unmapped\n",
		d->name, mv->slab);
	spare_uevent(d->dev, "slab_evicted", d, mv->slab);
}

static void move_done(struct spare_donor *d, struct spare_kmove *km)
{
	struct spare_move *mv = &km->m;

	if (mv->shorted) {
		atomic64_inc(&d->stats.moves_short);
		pr_warn("donor %s: slab %u moved to donor %s only in part: %s\n",
			d->name, mv->slab, km->t->name,
			spare_move_why_name(mv->why));
	}
	atomic64_inc(&d->stats.moves);
	if (mv->reclaim) {
		atomic_dec(&d->giveback_leaving);
		pr_info("donor %s: slab %u moved to donor %s in %llu ms (a move mark)\n",
			d->name, mv->slab, km->t->name,
			spare_now_ms() - mv->start);
	} else {
		atomic64_inc(&d->stats.evictions);
		pr_info("donor %s: slab %u evicted; moved to donor %s in %llu ms\n",
			d->name, mv->slab, km->t->name,
			spare_now_ms() - mv->start);
	}
	spare_donor_send_unmap(d, mv->slab);
	/* sent, or the send failed and the error road ends the session */
	clear_bit(mv->slab, d->unmap_owed);
	spare_uevent(d->dev, "slab_evicted", d, mv->slab);
}

/*
 * One look at a move (spare_move_step()), and what it says to do. Returns
 * true when it is over: the old copy is gone (moved, or the old way), or
 * it failed meanwhile and its donor's failure road has it.
 */
static bool move_step(struct spare_donor *d, struct spare_kmove *km)
{
	struct spare_dev *dev = d->dev;
	struct spare_slab *slab = &dev->map.slabs[km->m.slab];
	struct spare_move_in in;
	enum spare_move_act act;
	unsigned long flags;

	move_in(dev, &in);
	spin_lock_irqsave(&slab->lock, flags);
	act = spare_move_step(&km->m, &dev->map, slab, &in);
	/*
	 * A copy given back is UNMAPPED now: free its slot under the same
	 * lock, before giveback_done() sends the UNMAP, or this donor's map
	 * work (woken by a renewal's grants) could MAP it again first, and
	 * the donor's answer would find the slot gone (a protocol violation
	 * by our own doing: the connection dropped in broker/fair-share).
	 */
	if (act == SPARE_MOVE_ACT_EVICTED &&
	    km->m.why == SPARE_MOVE_WHY_RECLAIM &&
	    slab->copy[km->m.from].donor == d->idx)
		spare_slab_slot_free(&dev->map, slab, km->m.from);
	/*
	 * Whenever the copy on this donor is gone (moved, given back, or
	 * kept in its slot the old way), its UNMAP is owed until it is sent
	 * (giveback_done(), move_done(), evict_done()): until then this
	 * donor's map work maps nothing of the slab, not even in a new slot
	 * that another move or a resync gave it meanwhile, or its MAP would
	 * reach the donor before the UNMAP of the slab it still holds.
	 */
	if (act == SPARE_MOVE_ACT_EVICTED || act == SPARE_MOVE_ACT_MOVED)
		set_bit(km->m.slab, d->unmap_owed);
	spin_unlock_irqrestore(&slab->lock, flags);
	if (act == SPARE_MOVE_ACT_SEEK)
		act = move_seek(d, km, &in);
	switch (act) {
	case SPARE_MOVE_ACT_KICK:
		spare_resync_kick_now(dev);
		break;
	case SPARE_MOVE_ACT_EVICTING:
		if (km->m.why != SPARE_MOVE_WHY_RECLAIM)
			pr_info("donor %s: slab %u cannot move (%s): given back\n",
				d->name, km->m.slab,
				spare_move_why_name(km->m.why));
		break;
	case SPARE_MOVE_ACT_MOVED:
		move_done(d, km);
		break;
	case SPARE_MOVE_ACT_EVICTED:
		if (km->m.why == SPARE_MOVE_WHY_RECLAIM)
			giveback_done(d, &km->m);
		else
			evict_done(d, km->m.slab);
		break;
	case SPARE_MOVE_ACT_GONE:
		pr_info_ratelimited("donor %s: slab %u: its copy failed while it moved; the failure road has it\n",
				    d->name, km->m.slab);
		fallthrough;
	case SPARE_MOVE_ACT_KEPT:	/* said by giveback_no_target() */
		if (km->m.reclaim)
			atomic_dec(&d->giveback_leaving);
		break;
	default:	/* nothing now; spare.ko holds no slot while it waits */
		break;
	}
	return spare_move_over(&km->m);
}

static bool move_start(struct spare_donor *d, u32 s, struct spare_kmove *km)
{
	struct spare_dev *dev = d->dev;
	u32 grace = READ_ONCE(d->evict_deadline_ms);
	int from = donor_copy(d, s);
	struct spare_move_in in;
	u64 due;

	if (from < 0 || !dev->resync_pages[0] || !grace)
		return false;
	move_in(dev, &in);
	/* due: three quarters of the grace period after the EVICT came */
	due = in.now - jiffies_to_msecs(jiffies - d->evict_at[s]) +
	      grace / 4 * 3;
	spare_move_init(&km->m, s, d->idx, from, in.now, due, in.news);
	km->t = NULL;
	km->asked = false;
	return true;
}

static void evict_slab(struct spare_donor *d, u32 s)
{
	struct spare_dev *dev = d->dev;
	struct spare_slab_map *map = &dev->map;
	struct spare_slab *slab = &map->slabs[s];
	int c = donor_copy(d, s);
	enum spare_copy_state state;
	unsigned long flags;
	int ret;

	if (c < 0) {
		pr_info_ratelimited("donor %s: EVICT of slab %u ignored: the donor holds no copy of it now\n",
				    d->name, s);
		return;
	}
	spin_lock_irqsave(&slab->lock, flags);
	ret = spare_copy_set_state(map, slab, c, SPARE_COPY_EVICTING);
	state = slab->copy[c].state;
	spin_unlock_irqrestore(&slab->lock, flags);
	if (ret) {
		pr_info_ratelimited("donor %s: EVICT of slab %u in state %s ignored\n",
				    d->name, s, spare_copy_state_name(state));
		return;
	}
	/* Reads may still use the copy; let them finish, then give it back. */
	wait_event_timeout(dev->inflight_wait, !copy_inflight(slab, c),
			   msecs_to_jiffies(SPARE_CM_TIMEOUT_MS));
	spin_lock_irqsave(&slab->lock, flags);
	if (!spare_copy_set_state(map, slab, c, SPARE_COPY_UNMAPPED))
		set_bit(s, d->unmap_owed);	/* evict_done() clears it */
	spin_unlock_irqrestore(&slab->lock, flags);
	evict_done(d, s);
}

static bool take_pending(struct spare_donor *d, unsigned long *bits, u32 *s)
{
	u32 n = d->dev->map.nr_slabs;
	bool found;

	spin_lock_bh(&d->pending_lock);
	*s = find_first_bit(bits, n);
	found = *s < n;
	if (found)
		clear_bit(*s, bits);
	spin_unlock_bh(&d->pending_lock);
	return found;
}

static void answer_activity(struct spare_donor *d)
{
	struct spare_msg m;
	u32 s;

	while (donor_live(d) && take_pending(d, d->activity_pending, &s)) {
		msg_prepare(d, &m, SPARE_MSG_ACTIVITY_REPLY);
		m.activity_reply.slab_id = cpu_to_le32(s);
		m.activity_reply.accesses = cpu_to_le64(
			atomic64_xchg(&d->dev->map.slabs[s].accesses, 0));
		if (spare_ctrl_send(d, &m))
			spare_donor_error(d, "cannot send ACTIVITY_REPLY");
	}
}

/*
 * EVICT and ACTIVITY_QUERY need sends, so they are answered here. EVICTs
 * that come while moves run join them; activity is answered meanwhile.
 */
void spare_donor_evict_work(struct work_struct *work)
{
	struct spare_donor *d = container_of(work, struct spare_donor,
					     evict_work);
	unsigned int noio = memalloc_noio_save();
	u32 s, i, n = 0;

	for (;;) {
		while (donor_live(d) && take_pending(d, d->evict_pending, &s)) {
			if (moves_have(d, n, s))
				pr_info_ratelimited("donor %s: EVICT of slab %u again while it moves; ignored\n",
						    d->name, s);
			else if (d->dev->ec && spare_ec_evict(d, s))
				;	/* a split: it moves in the rebuild work */
			else if (!d->dev->ec && move_start(d, s, &d->moves[n]))
				n++;
			else
				evict_slab(d, s);
		}
		answer_activity(d);
		n = giveback_look(d, n);
		for (i = 0; i < n; )
			if (move_step(d, &d->moves[i]))
				d->moves[i] = d->moves[--n];
			else
				i++;
		if (!n)
			break;
		msleep(5);
	}
	memalloc_noio_restore(noio);
}
