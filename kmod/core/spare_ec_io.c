// SPDX-License-Identifier: GPL-2.0
/*
 * The erasure-coded I/O path's decisions: coding groups, current splits,
 * writes, late-binding reads and repairs (spare_ec_io.h). No I/O: the
 * drivers post what these calls decide.
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "spare_ec_io.h"

int spare_ec_map_init(struct spare_ec_map *m, const struct spare_ec_geom *g,
		      u8 delta, u32 nr_groups, u32 pages_per_group)
{
	u32 i, j;

	memset(m, 0, sizeof(*m));
	if (!spare_ec_geom_valid(g) || delta > g->r || !nr_groups ||
	    !pages_per_group)
		return -EINVAL;
	m->g = *g;
	m->delta = delta;
	m->nr_groups = nr_groups;
	m->pages_per_group = pages_per_group;
	m->groups = kvcalloc(nr_groups, sizeof(*m->groups), GFP_KERNEL);
	if (!m->groups)
		return -ENOMEM;
	for (i = 0; i < nr_groups; i++) {
		m->groups[i].written = bitmap_zalloc(pages_per_group, GFP_KERNEL);
		m->groups[i].writing = bitmap_zalloc(pages_per_group, GFP_KERNEL);
		m->groups[i].trailing = bitmap_zalloc(pages_per_group,
						      GFP_KERNEL);
		if (!m->groups[i].written || !m->groups[i].writing ||
		    !m->groups[i].trailing) {
			spare_ec_map_free(m);
			return -ENOMEM;
		}
		for (j = 0; j < spare_ec_splits(g); j++) {
			m->groups[i].cur[j] = bitmap_zalloc(pages_per_group,
							    GFP_KERNEL);
			if (!m->groups[i].cur[j]) {
				spare_ec_map_free(m);
				return -ENOMEM;
			}
		}
	}
	return 0;
}

void spare_ec_map_free(struct spare_ec_map *m)
{
	u32 i, j;

	if (!m->groups)
		return;
	for (i = 0; i < m->nr_groups; i++) {
		bitmap_free(m->groups[i].written);
		bitmap_free(m->groups[i].writing);
		bitmap_free(m->groups[i].trailing);
		for (j = 0; j < SPARE_EC_MAX_SPLITS; j++)
			bitmap_free(m->groups[i].cur[j]);
	}
	kvfree(m->groups);
	m->groups = NULL;
}

bool spare_ec_current(const struct spare_ec_map *m,
		      const struct spare_ec_group *grp, u32 j, u32 p)
{
	return j < spare_ec_splits(&m->g) && p < m->pages_per_group &&
	       test_bit(p, grp->cur[j]);
}

/* Whether split @j is current on every written page of [first, first + n). */
static bool current_where_written(const struct spare_ec_group *grp, u32 j,
				  u32 first, u32 n)
{
	u32 p;

	for (p = find_next_bit(grp->written, first + n, first); p < first + n;
	     p = find_next_bit(grp->written, first + n, p + 1))
		if (!test_bit(p, grp->cur[j]))
			return false;
	return true;
}

u16 spare_ec_readable(const struct spare_ec_map *m,
		      const struct spare_ec_group *grp, u32 first, u32 n)
{
	u16 mask = 0;
	u32 j;

	if (!n || first >= m->pages_per_group ||
	    n > m->pages_per_group - first)
		return 0;
	for (j = 0; j < spare_ec_splits(&m->g); j++)
		if (!(grp->lost & (1U << j)) &&
		    current_where_written(grp, j, first, n))
			mask |= 1U << j;
	return mask;
}

/* Whether [first, first + n) is a range of the group's pages. */
static bool in_group(const struct spare_ec_map *m, u32 first, u32 n)
{
	return n && first < m->pages_per_group &&
	       n <= m->pages_per_group - first;
}

bool spare_ec_writing(const struct spare_ec_map *m,
		      const struct spare_ec_group *grp, u32 first, u32 n)
{
	return in_group(m, first, n) &&
	       find_next_bit(grp->writing, first + n, first) < first + n;
}

bool spare_ec_write_waits(const struct spare_ec_map *m,
			  const struct spare_ec_group *grp, u32 first, u32 n)
{
	return spare_ec_writing(m, grp, first, n) ||
	       (in_group(m, first, n) &&
		find_next_bit(grp->trailing, first + n, first) < first + n);
}

/* Whether [a, a + an) and [b, b + bn) share a page. */
static bool overlap(u32 a, u32 an, u32 b, u32 bn)
{
	return a < b + bn && b < a + an;
}

void spare_ec_split_lost(struct spare_ec_map *m, struct spare_ec_group *grp,
			 u32 j)
{
	if (j >= spare_ec_splits(&m->g))
		return;
	bitmap_zero(grp->cur[j], m->pages_per_group);
	grp->lost |= 1U << j;
	grp->repair |= 1U << j;
	grp->epoch[j]++;
	if (grp->rep_active && grp->rep_split == j)
		grp->rep_spoiled = true;
	if (grp->mv_active && grp->mv_split == j)
		spare_ec_move_end(grp);	/* lost: the decode rebuilds it */
}

void spare_ec_split_mapped(struct spare_ec_map *m, struct spare_ec_group *grp,
			   u32 j)
{
	if (j >= spare_ec_splits(&m->g))
		return;
	/* an empty slab: nothing on it is current until written */
	bitmap_zero(grp->cur[j], m->pages_per_group);
	grp->lost &= ~(1U << j);
	grp->repair |= 1U << j;
}

u16 spare_ec_write_begin(struct spare_ec_map *m, struct spare_ec_group *grp,
			 u32 first, u32 n, struct spare_ec_write *wr)
{
	u32 j;

	memset(wr, 0, sizeof(*wr));
	wr->first = first;
	wr->n = n;
	wr->k = m->g.k;
	if (!n || first >= m->pages_per_group ||
	    n > m->pages_per_group - first)
		return 0;
	for (j = 0; j < spare_ec_splits(&m->g); j++)
		bitmap_clear(grp->cur[j], first, n);
	bitmap_set(grp->written, first, n);
	bitmap_set(grp->writing, first, n);
	memcpy(wr->epoch, grp->epoch, sizeof(wr->epoch));
	wr->posted = spare_ec_all(&m->g) & ~grp->lost;
	if (grp->mv_active) {
		/* the moving split's new bytes land on its old slab only */
		bitmap_clear(grp->mv_copied, first, n);
		if (grp->mv_chunk && overlap(first, n, grp->mv_first, grp->mv_n))
			grp->mv_spoiled = true;
	}
	if (grp->rep_active && overlap(first, n, grp->rep_first, grp->rep_n)) {
		grp->rep_spoiled = true;
		/*
		 * the repair's write of its split may land after this one,
		 * with bytes decoded from before it: not written here, so
		 * never marked; it waits for the next repair
		 */
		wr->posted &= ~(1U << grp->rep_split);
	}
	return wr->posted;
}

void spare_ec_write_done(struct spare_ec_write *wr, u32 j, bool ok)
{
	u16 bit = j < 16 ? 1U << j : 0;

	if (!(wr->posted & bit) || ((wr->landed | wr->failed) & bit))
		return;		/* not one of ours, or a second time */
	if (ok)
		wr->landed |= bit;
	else
		wr->failed |= bit;
}

bool spare_ec_write_ready(const struct spare_ec_write *wr)
{
	return hweight32(wr->landed) >= wr->k ||
	       (wr->landed | wr->failed) == wr->posted;
}

/*
 * Mark @splits of @wr's pages current: those whose slab is still the one
 * the write began on (a split lost while its write was in flight stays
 * lost, and a slab mapped in its place since holds none of it). The
 * others are stale there: spare_ec_write_end() flags them for repair.
 */
static void mark_landed(struct spare_ec_map *m, struct spare_ec_group *grp,
			struct spare_ec_write *wr, u16 splits)
{
	u32 j;

	for (j = 0; j < spare_ec_splits(&m->g); j++) {
		if (!(splits & (1U << j)))
			continue;
		if (!(grp->lost & (1U << j)) && wr->epoch[j] == grp->epoch[j])
			bitmap_set(grp->cur[j], wr->first, wr->n);
		else
			wr->stale |= 1U << j;
	}
	wr->marked |= splits;
}

int spare_ec_write_commit(struct spare_ec_map *m, struct spare_ec_group *grp,
			  struct spare_ec_write *wr,
			  struct spare_ec_stats *st)
{
	if (wr->committed)
		return wr->result;
	wr->committed = true;
	if (!in_group(m, wr->first, wr->n)) {
		wr->result = -EIO;
		return wr->result;
	}
	bitmap_clear(grp->writing, wr->first, wr->n);
	if (hweight32(wr->landed) < m->g.k) {
		st->eio_pages += wr->n;
		wr->result = -EIO;
		return wr->result;
	}
	mark_landed(m, grp, wr, wr->landed);
	if ((wr->landed | wr->failed) != wr->posted)
		bitmap_set(grp->trailing, wr->first, wr->n);
	wr->result = 0;
	return 0;
}

int spare_ec_write_end(struct spare_ec_map *m, struct spare_ec_group *grp,
		       struct spare_ec_write *wr,
		       struct spare_ec_stats *st)
{
	u16 all = spare_ec_all(&m->g);
	int ret = spare_ec_write_commit(m, grp, wr, st);

	if (!in_group(m, wr->first, wr->n))
		return ret;
	bitmap_clear(grp->trailing, wr->first, wr->n);
	/* the splits that did not land are rebuilt, or stay not current */
	grp->repair |= all & ~wr->landed;
	if (ret)
		return ret;
	if (wr->landed != all)
		st->writes_short++;
	/* late splits: no write of these pages began since (write_waits) */
	mark_landed(m, grp, wr, wr->landed & ~wr->marked);
	/*
	 * Landed on a slab since replaced (a loss and re-map, a move's
	 * switch): not current here, so rebuilt here. Flagged now, at the
	 * end: a rebuild pass while the write was in flight found these
	 * pages not rebuildable (writing, trailing) and may have cleared
	 * the flag the loss or the switch set (spare_ec_repair_idle()).
	 */
	grp->repair |= wr->stale;
	return 0;
}

/* The lowest @count bits of @mask. */
static u16 lowest(u16 mask, u32 count)
{
	u16 out = 0;

	while (mask && count--) {
		u16 bit = mask & -mask;

		out |= bit;
		mask &= ~bit;
	}
	return out;
}

int spare_ec_read_plan(const struct spare_ec_map *m,
		       const struct spare_ec_group *grp, u32 first, u32 n,
		       struct spare_ec_read *rd, u16 *post,
		       struct spare_ec_stats *st)
{
	u16 readable = spare_ec_readable(m, grp, first, n);

	memset(rd, 0, sizeof(*rd));
	rd->n = n;
	rd->k = m->g.k;
	*post = 0;
	if (spare_ec_writing(m, grp, first, n)) {
		rd->done = true;
		return -EAGAIN;
	}
	if (in_group(m, first, n) &&
	    find_next_bit(grp->written, first + n, first) >= first + n) {
		rd->done = true;
		return 1;
	}
	if (hweight32(readable) < m->g.k) {
		rd->done = true;
		st->eio_pages += n;
		return -EIO;
	}
	/* data splits are the lowest bits: they come first */
	*post = lowest(readable, (u32)m->g.k + m->delta);
	rd->posted = *post;
	rd->todo = readable & ~*post;
	return 0;
}

enum spare_ec_read_act spare_ec_read_done(struct spare_ec_read *rd, u32 j,
					  bool ok, u32 *post,
					  struct spare_ec_stats *st)
{
	u16 bit = j < 16 ? 1U << j : 0;
	u16 outstanding;

	if (!(rd->posted & bit) ||
	    ((rd->arrived | rd->failed | rd->late) & bit))
		return SPARE_EC_WAIT;	/* not one of ours, or a second time */
	if (rd->done) {
		if (ok) {
			rd->late |= bit;
			st->late_dropped++;
		} else {
			rd->failed |= bit;
		}
		return SPARE_EC_LATE;
	}
	if (ok) {
		rd->arrived |= bit;
		if (hweight32(rd->arrived) < rd->k)
			return SPARE_EC_WAIT;
		rd->done = true;
		if (rd->arrived == (1U << rd->k) - 1)
			return SPARE_EC_COPY;
		rd->missing = ~rd->arrived & 0xffff;
		st->reads_decoded++;
		return SPARE_EC_DECODE;
	}
	rd->failed |= bit;
	if (rd->todo) {
		u16 next = lowest(rd->todo, 1);

		rd->todo &= ~next;
		rd->posted |= next;
		*post = __ffs(next);
		return SPARE_EC_POST;
	}
	outstanding = rd->posted & ~(rd->arrived | rd->failed);
	if (hweight32(rd->arrived) + hweight32(outstanding) >= rd->k)
		return SPARE_EC_WAIT;
	rd->done = true;
	st->eio_pages += rd->n;
	return SPARE_EC_EIO;
}

bool spare_ec_eio_first(struct spare_ec_group *grp)
{
	if (grp->eio_logged)
		return false;
	grp->eio_logged = true;
	return true;
}

/* The splits current at page @p of @grp (lost ones are current nowhere). */
static u16 page_current(const struct spare_ec_map *m,
			const struct spare_ec_group *grp, u32 p)
{
	u16 cur = 0;
	u32 j;

	for (j = 0; j < spare_ec_splits(&m->g); j++)
		if (test_bit(p, grp->cur[j]))
			cur |= 1U << j;
	return cur;
}

int spare_ec_eio_states(char *buf, size_t len, const struct spare_ec_map *m,
			const struct spare_ec_group *grp, u32 first, u32 n)
{
	u32 p;

	if (!in_group(m, first, n))
		return snprintf(buf, len, "page %u: not in the group", first);
	for (p = first; p < first + n; p++)
		if (test_bit(p, grp->written) &&
		    hweight32(page_current(m, grp, p) & ~grp->lost) < m->g.k)
			break;
	if (p == first + n)
		p = first;
	return snprintf(buf, len,
			"page %u: current 0x%02x, lost 0x%02x, to rebuild 0x%02x%s%s",
			p, page_current(m, grp, p), grp->lost, grp->repair,
			test_bit(p, grp->writing) ? ", writing" : "",
			test_bit(p, grp->trailing) ? ", trailing" : "");
}

/* Whether page @p of @grp can rebuild split @j: not current there, K
 * others are; @src the first K of them.
 */
static bool rebuildable(const struct spare_ec_map *m,
			const struct spare_ec_group *grp, u32 j, u32 p,
			u16 *src)
{
	u16 cur;

	/* a late split of a committed write may still land there */
	if (test_bit(p, grp->cur[j]) || test_bit(p, grp->trailing))
		return false;
	cur = page_current(m, grp, p) & ~grp->lost & ~(1U << j);
	if (hweight32(cur) < m->g.k)
		return false;
	*src = lowest(cur, m->g.k);
	return true;
}

/* Whether every split of @src is current at page @p. */
static bool sources_current(const struct spare_ec_map *m,
			    const struct spare_ec_group *grp, u16 src, u32 p)
{
	return (page_current(m, grp, p) & src) == src;
}

int spare_ec_repair_begin(struct spare_ec_map *m, struct spare_ec_group *grp,
			  u32 j, u32 from, u32 max, struct spare_ec_repair *rep)
{
	u32 p, end = m->pages_per_group;
	u16 src, unused;

	if (j >= spare_ec_splits(&m->g) || !max)
		return -EINVAL;
	if (grp->rep_active || (grp->lost & (1U << j)))
		return -EBUSY;
	for (p = from; p < end; p++)
		if (rebuildable(m, grp, j, p, &src))
			break;
	if (p >= end)
		return -ENOENT;
	rep->first = p;
	rep->split = (u8)j;
	rep->src = src;
	for (rep->n = 1; p + rep->n < end && rep->n < max; rep->n++)
		if (!rebuildable(m, grp, j, p + rep->n, &unused) ||
		    !sources_current(m, grp, src, p + rep->n))
			break;
	grp->rep_active = true;
	grp->rep_spoiled = false;
	grp->rep_split = (u8)j;
	grp->rep_first = rep->first;
	grp->rep_n = rep->n;
	return 0;
}

bool spare_ec_repair_end(struct spare_ec_map *m, struct spare_ec_group *grp,
			 const struct spare_ec_repair *rep, bool ok,
			 struct spare_ec_stats *st)
{
	bool mark = ok && grp->rep_active && !grp->rep_spoiled &&
		    !(grp->lost & (1U << rep->split));

	grp->rep_active = false;
	if (!mark)
		return false;
	bitmap_set(grp->cur[rep->split], rep->first, rep->n);
	st->repaired_pages += rep->n;
	return true;
}

void spare_ec_repair_idle(struct spare_ec_group *grp, u32 j)
{
	if (!(grp->lost & (1U << j)))
		grp->repair &= ~(1U << j);
}

int spare_ec_move_begin(struct spare_ec_map *m, struct spare_ec_group *grp,
			u32 j, unsigned long *copied)
{
	if (j >= spare_ec_splits(&m->g) || !copied)
		return -EINVAL;
	if (grp->mv_active || (grp->lost & (1U << j)))
		return -EBUSY;
	bitmap_zero(copied, m->pages_per_group);
	grp->mv_copied = copied;
	grp->mv_split = (u8)j;
	grp->mv_active = true;
	grp->mv_chunk = false;
	grp->mv_spoiled = false;
	return 0;
}

/* Whether page @p of the moving split is current and not copied yet. */
static bool move_todo(const struct spare_ec_group *grp, u32 p)
{
	return test_bit(p, grp->cur[grp->mv_split]) &&
	       !test_bit(p, grp->mv_copied);
}

int spare_ec_move_next(struct spare_ec_map *m, struct spare_ec_group *grp,
		       u32 from, u32 max, struct spare_ec_repair *rep)
{
	u32 p, end = m->pages_per_group;

	if (!grp->mv_active || grp->mv_chunk)
		return -EBUSY;
	if (!max)
		return -EINVAL;
	for (p = from; p < end && !move_todo(grp, p); p++)
		;
	if (p >= end)
		return -ENOENT;
	rep->first = p;
	rep->split = grp->mv_split;
	rep->src = 1U << grp->mv_split;
	for (rep->n = 1; p + rep->n < end && rep->n < max &&
	     move_todo(grp, p + rep->n); rep->n++)
		;
	grp->mv_chunk = true;
	grp->mv_spoiled = false;
	grp->mv_first = rep->first;
	grp->mv_n = rep->n;
	return 0;
}

bool spare_ec_move_chunk_end(struct spare_ec_map *m, struct spare_ec_group *grp,
			     const struct spare_ec_repair *rep, bool ok)
{
	bool mark = ok && grp->mv_active && grp->mv_chunk && !grp->mv_spoiled &&
		    rep->split == grp->mv_split;

	grp->mv_chunk = false;
	if (mark)
		bitmap_set(grp->mv_copied, rep->first, rep->n);
	return mark;
}

int spare_ec_move_switch(struct spare_ec_map *m, struct spare_ec_group *grp)
{
	u32 j = grp->mv_split, p;

	if (!grp->mv_active || grp->mv_chunk)
		return -EBUSY;
	for (p = 0; p < m->pages_per_group; p++)
		if (move_todo(grp, p))
			return -EAGAIN;
	/* a write begun on the old slab marks nothing on the new one */
	grp->epoch[j]++;
	grp->repair |= 1U << j;
	if (grp->rep_active && grp->rep_split == j)
		grp->rep_spoiled = true;
	spare_ec_move_end(grp);
	return 0;
}

void spare_ec_move_end(struct spare_ec_group *grp)
{
	grp->mv_active = false;
	grp->mv_copied = NULL;
}

const char *spare_ec_move_why_name(enum spare_ec_move_why why)
{
	switch (why) {
	case SPARE_EC_MOVE_GOES_ON:
		return "not given up";
	case SPARE_EC_MOVE_LOST:
		return "the evicting donor's slab was lost";
	case SPARE_EC_MOVE_LATE:
		return "out of time: 3/4 of the grace period";
	case SPARE_EC_MOVE_STOPPING:
		return "the device is powering off";
	case SPARE_EC_MOVE_NO_DONOR:
		return "no live donor outside the group and its failure domains";
	case SPARE_EC_MOVE_NO_GRANT:
		return "no donor outside the group and its failure domains has room in the device's grants";
	case SPARE_EC_MOVE_NO_SLOT:
		return "no free slot for a new slab";
	case SPARE_EC_MOVE_MAP_REFUSED:
		return "the new donor refused the MAP or was lost";
	case SPARE_EC_MOVE_NEW_LOST:
		return "the new slab's donor was lost";
	case SPARE_EC_MOVE_CHANGED:
		return "the split changed meanwhile";
	case SPARE_EC_MOVE_NOMEM:
		return "out of memory";
	}
	return "?";
}

enum spare_ec_move_why spare_ec_move_check(const struct spare_ec_group *grp,
					   u32 j, u64 now, u64 due,
					   bool stopping)
{
	if (grp->lost & (1U << j))
		return SPARE_EC_MOVE_LOST;
	if (now >= due)
		return SPARE_EC_MOVE_LATE;
	if (stopping)
		return SPARE_EC_MOVE_STOPPING;
	return SPARE_EC_MOVE_GOES_ON;
}

int spare_ec_move_give_up_line(char *buf, size_t len, u32 g, u32 j,
			       enum spare_ec_move_why why)
{
	return snprintf(buf, len,
			"coding group %u: split %u cannot move by copy (%s): read around from now, given back, rebuilt by a decode",
			g, j, spare_ec_move_why_name(why));
}

int spare_ec_stat_format(char *buf, size_t len,
			 const struct spare_ec_stat_line *s)
{
	return snprintf(buf, len,
			"%u %u %u %u %llu %llu %llu %llu %llu %llu %llu %llu %llu %u %u %llu %llu %llu %llu\n",
			SPARE_EC_STAT_VERSION, s->k, s->r, s->delta,
			(unsigned long long)s->reads,
			(unsigned long long)s->writes,
			(unsigned long long)s->ec.reads_decoded,
			(unsigned long long)s->ec.late_dropped,
			(unsigned long long)s->ec.eio_pages,
			(unsigned long long)s->ec.writes_short,
			(unsigned long long)s->waits,
			(unsigned long long)s->ec.repaired_pages,
			(unsigned long long)s->remapped,
			s->lost_now, s->rebuilding,
			(unsigned long long)s->moved,
			(unsigned long long)s->moves_given_up,
			(unsigned long long)s->copied_pages,
			(unsigned long long)s->fills_deferred);
}
