// SPDX-License-Identifier: GPL-2.0
/*
 * Slab map: copy states and per-page bitmaps. See spare_slab.h.
 *
 * Pure logic: generic kernel headers only, so that the KUnit build (User-Mode
 * Linux, no RDMA, no block device) compiles it unchanged.
 */
#include <linux/bitmap.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/slab.h>

#include "spare_slab.h"

static const char *const copy_state_names[SPARE_COPY_NR_STATES] = {
	[SPARE_COPY_UNMAPPED]	= "unmapped",
	[SPARE_COPY_MAPPING]	= "mapping",
	[SPARE_COPY_MAPPED]	= "mapped",
	[SPARE_COPY_EVICTING]	= "evicting",
	[SPARE_COPY_FAILED]	= "failed",
};

int spare_slab_map_grow_donors(struct spare_slab_map *map, u32 nr_donors)
{
	if (nr_donors <= map->nr_donors || nr_donors > SPARE_MAX_DONORS)
		return -EINVAL;
	WRITE_ONCE(map->nr_donors, nr_donors);
	return 0;
}

const char *spare_copy_state_name(enum spare_copy_state s)
{
	if ((unsigned int)s >= SPARE_COPY_NR_STATES)
		return "?";
	return copy_state_names[s];
}

/* Allowed transitions: bit (1 << to) set in allowed_to[from]. */
#define TO(s)	(1U << SPARE_COPY_##s)
static const u32 allowed_to[SPARE_COPY_NR_STATES] = {
	[SPARE_COPY_UNMAPPED]	= TO(MAPPING),
	[SPARE_COPY_MAPPING]	= TO(MAPPED) | TO(UNMAPPED) | TO(FAILED),
	[SPARE_COPY_MAPPED]	= TO(EVICTING) | TO(FAILED) | TO(UNMAPPED),
	[SPARE_COPY_EVICTING]	= TO(UNMAPPED) | TO(FAILED),
	[SPARE_COPY_FAILED]	= TO(UNMAPPED),
};
#undef TO

bool spare_copy_transition_ok(enum spare_copy_state from,
			      enum spare_copy_state to)
{
	if ((unsigned int)from >= SPARE_COPY_NR_STATES ||
	    (unsigned int)to >= SPARE_COPY_NR_STATES)
		return false;
	return allowed_to[from] & (1U << to);
}

int spare_slab_map_init(struct spare_slab_map *map, u64 dev_bytes,
			u8 slab_shift, u32 nr_copies, u32 nr_donors)
{
	u64 nr_slabs;
	u32 s, c;

	memset(map, 0, sizeof(*map));
	if (slab_shift < SPARE_PAGE_SHIFT || slab_shift > 40 || !dev_bytes ||
	    !nr_copies || nr_copies > SPARE_MAX_REPLICAS ||
	    !nr_donors || nr_donors > SPARE_MAX_DONORS || nr_copies > nr_donors)
		return -EINVAL;
	nr_slabs = (dev_bytes + (1ULL << slab_shift) - 1) >> slab_shift;
	if (nr_slabs > U32_MAX / 2)
		return -EINVAL;

	map->nr_slabs = nr_slabs;
	map->nr_copies = nr_copies;
	map->nr_slots = nr_copies + 1;
	map->nr_donors = nr_donors;
	map->slab_shift = slab_shift;
	map->pages_per_slab = 1U << (slab_shift - SPARE_PAGE_SHIFT);
	map->slabs = kvcalloc(map->nr_slabs, sizeof(*map->slabs), GFP_KERNEL);
	if (!map->slabs)
		return -ENOMEM;

	for (s = 0; s < map->nr_slabs; s++) {
		struct spare_slab *slab = &map->slabs[s];

		spin_lock_init(&slab->lock);
		slab->id = s;
		atomic64_set(&slab->accesses, 0);
		slab->written = bitmap_zalloc(map->pages_per_slab, GFP_KERNEL);
		if (!slab->written)
			goto nomem;
		for (c = 0; c < map->nr_slots; c++) {
			struct spare_copy *cp = &slab->copy[c];

			cp->state = SPARE_COPY_UNMAPPED;
			cp->donor = c < nr_copies ?
				    spare_slab_place(s, c, nr_donors) :
				    SPARE_NO_DONOR;
			cp->current_map = bitmap_zalloc(map->pages_per_slab,
							GFP_KERNEL);
			cp->kept_map = bitmap_zalloc(map->pages_per_slab,
						     GFP_KERNEL);
			if (!cp->current_map || !cp->kept_map)
				goto nomem;
		}
	}
	return 0;
nomem:
	spare_slab_map_free(map);
	return -ENOMEM;
}

int spare_slab_map_place(struct spare_slab_map *map, const u16 *donor, u32 n)
{
	u32 s, c, k;

	if ((u64)map->nr_slabs * map->nr_copies != n)
		return -EINVAL;
	for (s = 0; s < map->nr_slabs; s++) {
		const u16 *d = donor + (size_t)s * map->nr_copies;

		for (c = 0; c < map->nr_copies; c++) {
			if (d[c] >= map->nr_donors)
				return -EINVAL;
			for (k = 0; k < c; k++)
				if (d[k] == d[c])
					return -EINVAL;
		}
	}
	for (s = 0; s < map->nr_slabs; s++)
		for (c = 0; c < map->nr_copies; c++)
			map->slabs[s].copy[c].donor =
				donor[(size_t)s * map->nr_copies + c];
	return 0;
}

void spare_slab_map_free(struct spare_slab_map *map)
{
	u32 s, c;

	if (!map->slabs)
		return;
	for (s = 0; s < map->nr_slabs; s++) {
		bitmap_free(map->slabs[s].written);
		for (c = 0; c < SPARE_MAX_SLOTS; c++) {
			bitmap_free(map->slabs[s].copy[c].current_map);
			bitmap_free(map->slabs[s].copy[c].kept_map);
		}
	}
	kvfree(map->slabs);
	map->slabs = NULL;
	map->nr_slabs = 0;
}

int spare_copy_set_state(const struct spare_slab_map *map,
			 struct spare_slab *slab, u32 c,
			 enum spare_copy_state to)
{
	struct spare_copy *cp;

	if (c >= map->nr_slots)
		return -EINVAL;
	cp = &slab->copy[c];
	if (!spare_copy_transition_ok(cp->state, to))
		return -EINVAL;
	if (cp->donor == SPARE_NO_DONOR && to != SPARE_COPY_UNMAPPED)
		return -EINVAL;		/* the spare slot holds no copy */

	if (cp->state == SPARE_COPY_MAPPED && to == SPARE_COPY_FAILED &&
	    cp->donor < 32 && (READ_ONCE(map->hold_donors) & (1U << cp->donor))) {
		/* its donor holds the slab: what it held may come back */
		bitmap_copy(cp->kept_map, cp->current_map, map->pages_per_slab);
		cp->kept_gen = cp->gen;
		cp->kept = true;
	}
	if (to == SPARE_COPY_MAPPED) {
		/* A freshly lent slab is zeroed: current where never written. */
		bitmap_complement(cp->current_map, slab->written,
				  map->pages_per_slab);
	} else if (to != SPARE_COPY_EVICTING) {
		/* EVICTING keeps its data readable until UNMAP is sent. */
		bitmap_zero(cp->current_map, map->pages_per_slab);
	}
	if (to == SPARE_COPY_UNMAPPED || to == SPARE_COPY_FAILED) {
		cp->addr = 0;
		cp->rkey = 0;
	}
	cp->state = to;
	cp->gen++;
	spare_slab_changed(map);
	return 0;
}

enum spare_copy_state spare_slab_state(const struct spare_slab_map *map,
				       const struct spare_slab *slab)
{
	static const enum spare_copy_state best_first[] = {
		SPARE_COPY_MAPPED, SPARE_COPY_EVICTING, SPARE_COPY_MAPPING,
		SPARE_COPY_FAILED,
	};
	u32 i, c;

	for (i = 0; i < ARRAY_SIZE(best_first); i++)
		for (c = 0; c < map->nr_slots; c++)
			if (slab->copy[c].state == best_first[i])
				return best_first[i];
	return SPARE_COPY_UNMAPPED;
}

/* True if bits [first, first + n) of @map are all set. */
static bool range_full(const unsigned long *bits, u32 first, u32 n)
{
	return find_next_zero_bit(bits, first + n, first) >= first + n;
}

bool spare_copy_is_current(const struct spare_copy *cp, u32 first, u32 n)
{
	return range_full(cp->current_map, first, n);
}

bool spare_slab_ever_written(const struct spare_slab *slab, u32 first, u32 n)
{
	return find_next_bit(slab->written, first + n, first) < first + n;
}

u32 spare_copy_current_pages(const struct spare_slab_map *map,
			     const struct spare_copy *cp)
{
	return bitmap_weight(cp->current_map, map->pages_per_slab);
}

static bool range_ok(const struct spare_slab_map *map, u32 first, u32 n)
{
	return n && first < map->pages_per_slab &&
	       n <= map->pages_per_slab - first;
}

/* A copy a read may use: MAPPED, or EVICTING until its UNMAP is sent. */
static bool copy_readable(const struct spare_copy *cp)
{
	return cp->state == SPARE_COPY_MAPPED ||
	       cp->state == SPARE_COPY_EVICTING;
}

int spare_slab_pick_read(const struct spare_slab_map *map,
			 const struct spare_slab *slab, u32 first, u32 n,
			 u32 hint)
{
	u32 i;

	if (!range_ok(map, first, n))
		return -EINVAL;
	for (i = 0; i < map->nr_slots; i++) {
		u32 c = (hint + i) % map->nr_slots;
		const struct spare_copy *cp = &slab->copy[c];

		if (!copy_readable(cp))
			continue;
		if (spare_copy_is_current(cp, first, n))
			return c;
	}
	return -ENODATA;
}

u32 spare_slab_readable_mask(const struct spare_slab_map *map,
			     const struct spare_slab *slab, u32 first, u32 n)
{
	u32 c, mask = 0;

	if (!range_ok(map, first, n))
		return 0;
	for (c = 0; c < map->nr_slots; c++)
		if (spare_slab_pick_read(map, slab, first, n, c) == (int)c)
			mask |= 1U << c;
	return mask;
}

u32 spare_slab_write_begin(const struct spare_slab_map *map,
			   struct spare_slab *slab, u32 first, u32 n,
			   u32 gens[SPARE_MAX_SLOTS])
{
	u32 c, mask = 0;

	if (!range_ok(map, first, n))
		return 0;
	bitmap_set(slab->written, first, n);
	for (c = 0; c < map->nr_slots; c++) {
		struct spare_copy *cp = &slab->copy[c];

		bitmap_clear(cp->current_map, first, n);
		if (cp->kept)
			bitmap_clear(cp->kept_map, first, n);
		gens[c] = cp->gen;
		if (cp->rs_n && first < cp->rs_first + cp->rs_n &&
		    cp->rs_first < first + n) {
			/* the resync in flight owns these pages of this copy */
			cp->rs_dirty = true;
			continue;
		}
		if (cp->state == SPARE_COPY_MAPPED)
			mask |= 1U << c;
	}
	slab->writes_inflight++;
	return mask;
}

void spare_slab_write_landed(const struct spare_slab_map *map,
			     struct spare_slab *slab, u32 c, u32 gen,
			     u32 first, u32 n)
{
	struct spare_copy *cp;

	if (c >= map->nr_slots || !range_ok(map, first, n))
		return;
	cp = &slab->copy[c];
	if (cp->kept && gen == cp->kept_gen && cp->state != SPARE_COPY_MAPPED) {
		/* it landed before the session ended: the donor keeps it */
		bitmap_set(cp->kept_map, first, n);
		return;
	}
	if (cp->gen != gen || cp->state != SPARE_COPY_MAPPED)
		return;
	bitmap_set(cp->current_map, first, n);
}

bool spare_slab_op_settle(const struct spare_slab_map *map,
			  struct spare_slab *slab, u32 c, u32 gen,
			  u32 first, u32 n, bool write,
			  enum spare_op_result result)
{
	switch (result) {
	case SPARE_OP_COPY_FAULT:
		return spare_copy_fail(map, slab, c, gen);
	case SPARE_OP_DONE:
		if (write)
			spare_slab_write_landed(map, slab, c, gen, first, n);
		return false;
	case SPARE_OP_UNSENT:
	default:
		/* write_begin() cleared the bits: the copy stays stale here */
		return false;
	}
}

void spare_slab_write_end(struct spare_slab *slab)
{
	if (!WARN_ON_ONCE(!slab->writes_inflight))
		slab->writes_inflight--;
}

/* First page at or after @p where @t is stale and @src current, or @end. */
static u32 resync_next(const struct spare_copy *t, const struct spare_copy *src,
		       u32 p, u32 end)
{
	for (;;) {
		p = find_next_zero_bit(t->current_map, end, p);
		if (p >= end)
			return end;
		p = find_next_bit(src->current_map, end, p);
		if (p >= end)
			return end;
		if (!test_bit(p, t->current_map))
			return p;
	}
}

/* Record chunk [p, p + n) of copy @t, from @source, on the copy and in @rs. */
static void resync_record(struct spare_slab *slab, u32 t, u32 source, u32 p,
			  u32 n, struct spare_resync *rs)
{
	struct spare_copy *ct = &slab->copy[t];

	ct->rs_first = p;
	ct->rs_n = n;
	ct->rs_gen = ct->gen;
	ct->rs_dirty = false;
	rs->target = t;
	rs->source = source;
	rs->first = p;
	rs->n = n;
}

int spare_slab_resync_begin(const struct spare_slab_map *map,
			    struct spare_slab *slab, u32 max,
			    struct spare_resync *rs)
{
	u32 end = map->pages_per_slab, t, s, p, n;

	if (!max)
		return -EINVAL;
	for (t = 0; t < map->nr_slots; t++) {
		struct spare_copy *ct = &slab->copy[t];

		if (ct->state != SPARE_COPY_MAPPED || ct->rs_n)
			continue;
		for (s = 0; s < map->nr_slots; s++) {
			struct spare_copy *cs = &slab->copy[s];

			if (s == t || cs->state != SPARE_COPY_MAPPED)
				continue;
			p = resync_next(ct, cs, 0, end);
			if (p >= end)
				continue;
			for (n = 1; n < max && p + n < end; n++)
				if (test_bit(p + n, ct->current_map) ||
				    !test_bit(p + n, cs->current_map))
					break;
			resync_record(slab, t, s, p, n, rs);
			return 0;
		}
	}
	return -ENOENT;
}

/* True if no copy of @slab could serve a read of page @p. */
static bool current_nowhere(const struct spare_slab_map *map,
			    const struct spare_slab *slab, u32 p)
{
	return !spare_slab_readable_mask(map, slab, p, 1);
}

/*
 * Whether every written page of @slab is current on one of the copies in
 * @slots (a mask of slot numbers). A word of the bitmaps at a time, for a
 * caller that asks of every slab. Under the slab's lock.
 */
bool spare_slab_written_held(const struct spare_slab_map *map,
			     const struct spare_slab *slab, u32 slots)
{
	u32 w, c, words = BITS_TO_LONGS(map->pages_per_slab);

	for (w = 0; w < words; w++) {
		unsigned long held = 0, want = slab->written[w];

		if (w == words - 1 && map->pages_per_slab % BITS_PER_LONG)
			want &= BIT_MASK(map->pages_per_slab) - 1;
		if (!want)
			continue;
		for (c = 0; c < map->nr_slots; c++)
			if (slots & (1U << c))
				held |= slab->copy[c].current_map[w];
		if (want & ~held)
			return false;
	}
	return true;
}

/*
 * Whether some written page of @slab is current on no copy a read may use,
 * so that only a backup can hold it: the pages
 * spare_slab_resync_begin_backup() refills (spare-ublk's resync asks it
 * of every slab before it says every copy is whole). Under the slab's
 * lock.
 */
bool spare_slab_backup_only(const struct spare_slab_map *map,
			    const struct spare_slab *slab)
{
	u32 c, slots = 0;

	for (c = 0; c < map->nr_slots; c++)
		if (copy_readable(&slab->copy[c]))
			slots |= 1U << c;
	return !spare_slab_written_held(map, slab, slots);
}

enum spare_slab_gap spare_slab_gap(const struct spare_slab_map *map,
				    const struct spare_slab *slab, bool backup,
				    u32 *mapped)
{
	u32 c, o, k = 0;

	for (c = 0; c < map->nr_slots; c++)
		k += slab->copy[c].state == SPARE_COPY_MAPPED;
	*mapped = k;
	if (k < map->nr_copies)
		return SPARE_SLAB_UNMAPPED;
	/*
	 * A write in flight has cleared its pages' bits on every copy; they
	 * are current again where it lands (and a copy where it fails fails).
	 * Until then, its pages say nothing about what a refill must do.
	 */
	if (slab->writes_inflight)
		return SPARE_SLAB_WHOLE;
	for (c = 0; c < map->nr_slots; c++)
		for (o = 0; o < map->nr_slots; o++)
			if (o != c && slab->copy[c].state == SPARE_COPY_MAPPED &&
			    slab->copy[o].state == SPARE_COPY_MAPPED &&
			    !bitmap_subset(slab->copy[o].current_map,
					   slab->copy[c].current_map,
					   map->pages_per_slab))
				return SPARE_SLAB_STALE;
	if (backup && spare_slab_backup_only(map, slab))
		return SPARE_SLAB_BACKUP_ONLY;
	return SPARE_SLAB_WHOLE;
}

int spare_slab_resync_begin_backup(const struct spare_slab_map *map,
				   struct spare_slab *slab, u32 max,
				   struct spare_resync *rs)
{
	u32 end = map->pages_per_slab, t, p, n;

	if (!max)
		return -EINVAL;
	for (t = 0; t < map->nr_slots; t++) {
		struct spare_copy *ct = &slab->copy[t];

		if (ct->state != SPARE_COPY_MAPPED || ct->rs_n)
			continue;
		for (p = find_next_bit(slab->written, end, 0); p < end;
		     p = find_next_bit(slab->written, end, p + 1))
			if (current_nowhere(map, slab, p))
				break;
		if (p >= end)
			continue;
		if (slab->writes_inflight)
			return -EBUSY;
		for (n = 1; n < max && p + n < end; n++)
			if (!test_bit(p + n, slab->written) ||
			    !current_nowhere(map, slab, p + n))
				break;
		resync_record(slab, t, SPARE_RESYNC_BACKUP, p, n, rs);
		return 0;
	}
	return -ENOENT;
}

bool spare_slab_resync_end(const struct spare_slab_map *map,
			   struct spare_slab *slab, const struct spare_resync *rs,
			   bool ok)
{
	struct spare_copy *ct;
	bool marked;

	if (rs->target >= map->nr_slots)
		return false;
	ct = &slab->copy[rs->target];
	if (!ct->rs_n || ct->rs_first != rs->first || ct->rs_n != rs->n)
		return false;
	marked = ok && !ct->rs_dirty && ct->gen == ct->rs_gen &&
		 ct->state == SPARE_COPY_MAPPED;
	if (marked)
		bitmap_set(ct->current_map, rs->first, rs->n);
	ct->rs_n = 0;
	ct->rs_dirty = false;
	return marked;
}

bool spare_copy_fail(const struct spare_slab_map *map, struct spare_slab *slab,
		     u32 c, u32 gen)
{
	if (c >= map->nr_slots || slab->copy[c].gen != gen)
		return false;
	return spare_copy_set_state(map, slab, c, SPARE_COPY_FAILED) == 0;
}

bool spare_slab_page_bad(const struct spare_slab_map *map,
			 struct spare_slab *slab, u32 c, u32 gen, u32 p,
			 bool backup)
{
	struct spare_copy *cp;

	if (c >= map->nr_slots || !range_ok(map, p, 1))
		return false;
	cp = &slab->copy[c];
	if (cp->gen != gen || !test_bit(p, cp->current_map))
		return false;
	/* some other source must be able to refill it */
	if (!backup && !(spare_slab_readable_mask(map, slab, p, 1) & ~(1U << c)))
		return false;
	__clear_bit(p, cp->current_map);
	return true;
}

int spare_slab_donor_slot(const struct spare_slab_map *map,
			  const struct spare_slab *slab, u32 donor)
{
	u32 c;

	if (donor == SPARE_NO_DONOR)
		return -1;
	for (c = 0; c < map->nr_slots; c++)
		if (READ_ONCE(slab->copy[c].donor) == donor)
			return c;
	return -1;
}

bool spare_slab_domain_fresh(const struct spare_slab_map *map,
			     const struct spare_slab *slab, const u16 *domain,
			     u32 nr_domain, u32 to, u32 from)
{
	bool named = domain && to < nr_domain;
	u32 c, o;

	for (c = 0; c < map->nr_slots; c++) {
		o = READ_ONCE(slab->copy[c].donor);
		if (o == SPARE_NO_DONOR || o == from ||
		    o >= READ_ONCE(map->nr_donors))
			continue;
		if (o == to || (named && o < nr_domain && domain[o] == domain[to]))
			return false;
	}
	return true;
}

/* Whether candidate @a goes before @b: room, then fresh domain, then load. */
static bool move_cand_before(const struct spare_move_cand *a,
			     const struct spare_move_cand *b)
{
	bool ra = a->room > 0, rb = b->room > 0;

	if (ra != rb)
		return ra;
	if (a->fresh != b->fresh)
		return a->fresh;
	return a->load < b->load;
}

int spare_move_pick(const struct spare_move_cand *c, u32 n, bool *roomy)
{
	int best = -1;
	u32 i;

	for (i = 0; i < n; i++)
		if (c[i].ok && (best < 0 || move_cand_before(&c[i], &c[best])))
			best = i;
	if (roomy)
		*roomy = best >= 0 && c[best].room > 0;
	return best;
}

int spare_slab_move_begin(const struct spare_slab_map *map,
			  struct spare_slab *slab, u32 from, u32 to)
{
	if (from >= map->nr_slots || to >= map->nr_donors ||
	    slab->copy[from].state != SPARE_COPY_MAPPED)
		return -EINVAL;
	return spare_slab_slot_take(map, slab, to);
}

int spare_slab_slot_take(const struct spare_slab_map *map,
			 struct spare_slab *slab, u32 to)
{
	u32 c;

	if (to >= map->nr_donors)
		return -EINVAL;
	if (spare_slab_donor_slot(map, slab, to) >= 0)
		return -EEXIST;
	for (c = 0; c < map->nr_slots; c++) {
		struct spare_copy *cp = &slab->copy[c];

		if (cp->donor != SPARE_NO_DONOR)
			continue;
		if (cp->state != SPARE_COPY_UNMAPPED || cp->inflight)
			return -EBUSY;	/* still draining */
		spare_copy_forget_kept(cp);
		WRITE_ONCE(cp->donor, to);
		cp->gen++;
		spare_slab_changed(map);
		return c;
	}
	return -EBUSY;
}

bool spare_slab_move_ready(const struct spare_slab_map *map,
			   const struct spare_slab *slab, u32 from, u32 to_slot)
{
	const struct spare_copy *src, *dst;

	if (from >= map->nr_slots || to_slot >= map->nr_slots ||
	    from == to_slot)
		return false;
	src = &slab->copy[from];
	dst = &slab->copy[to_slot];
	if (dst->state != SPARE_COPY_MAPPED || dst->rs_n ||
	    slab->writes_inflight)
		return false;
	/* every page the old copy holds, the new one holds too */
	return bitmap_subset(src->current_map, dst->current_map,
			     map->pages_per_slab);
}

int spare_slab_move_release(const struct spare_slab_map *map,
			    struct spare_slab *slab, u32 from)
{
	struct spare_copy *cp;
	int ret;

	if (from >= map->nr_slots)
		return -EINVAL;
	cp = &slab->copy[from];
	if (cp->state == SPARE_COPY_MAPPED) {
		ret = spare_copy_set_state(map, slab, from,
					   SPARE_COPY_EVICTING);
		if (ret)
			return ret;
	} else if (cp->state != SPARE_COPY_EVICTING) {
		return -EINVAL;
	}
	/* posted operations finish; no new one picks this copy */
	bitmap_zero(cp->current_map, map->pages_per_slab);
	return 0;
}

void spare_slab_slot_free(const struct spare_slab_map *map,
			  struct spare_slab *slab, u32 c)
{
	if (c >= map->nr_slots)
		return;
	if (slab->copy[c].state != SPARE_COPY_UNMAPPED)
		spare_copy_set_state(map, slab, c, SPARE_COPY_UNMAPPED);
	if (slab->copy[c].state == SPARE_COPY_UNMAPPED) {
		spare_copy_forget_kept(&slab->copy[c]);
		WRITE_ONCE(slab->copy[c].donor, SPARE_NO_DONOR);
		spare_slab_changed(map);
	}
}

bool spare_slab_move_abort(const struct spare_slab_map *map,
			   struct spare_slab *slab, u32 to_slot)
{
	if (to_slot >= map->nr_slots ||
	    slab->copy[to_slot].state != SPARE_COPY_UNMAPPED)
		return false;
	WRITE_ONCE(slab->copy[to_slot].donor, SPARE_NO_DONOR);
	slab->copy[to_slot].gen++;
	spare_slab_changed(map);
	return true;
}

/**
 * spare_slab_map_hold() - whether donor @donor keeps our slabs when a
 * session ends (a hold granted); see spare_slab.h
 * @map: the slab map
 * @donor: the donor's index
 * @on: it holds (true), or no longer (false)
 */
void spare_slab_map_hold(struct spare_slab_map *map, u32 donor, bool on)
{
	u32 m = READ_ONCE(map->hold_donors);

	if (donor >= SPARE_MAX_DONORS)
		return;
	WRITE_ONCE(map->hold_donors, on ? m | (1U << donor) : m & ~(1U << donor));
}

/**
 * spare_copy_has_kept() - whether @cp may come back with pages its donor
 * kept (under the slab's lock)
 * @cp: the copy
 *
 * Return: true while a failed copy's kept pages are neither adopted nor
 * forgotten.
 */
bool spare_copy_has_kept(const struct spare_copy *cp)
{
	return cp->kept;
}

/**
 * spare_copy_adopt_kept() - the donor kept copy @c's slab (MAPPED F_KEPT):
 * it is current again for the pages it kept
 * @map: the slab map
 * @slab: the slab, its lock held
 * @c: the copy, MAPPED again
 *
 * Return: the pages this made current (0 when nothing was kept, or the
 * copy is not MAPPED).
 */
u32 spare_copy_adopt_kept(const struct spare_slab_map *map,
			  struct spare_slab *slab, u32 c)
{
	struct spare_copy *cp;
	u32 before;

	if (c >= map->nr_slots)
		return 0;
	cp = &slab->copy[c];
	if (!cp->kept || cp->state != SPARE_COPY_MAPPED)
		return 0;
	before = bitmap_weight(cp->current_map, map->pages_per_slab);
	bitmap_or(cp->current_map, cp->current_map, cp->kept_map,
		  map->pages_per_slab);
	cp->kept = false;
	return bitmap_weight(cp->current_map, map->pages_per_slab) - before;
}

/**
 * spare_copy_forget_kept() - what the donor kept of @cp is gone (its hold
 * passed, it answered a MAP without F_KEPT, the slot moved)
 * @cp: the copy, its slab's lock held
 */
void spare_copy_forget_kept(struct spare_copy *cp)
{
	cp->kept = false;
}
