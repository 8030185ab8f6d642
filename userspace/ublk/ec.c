// SPDX-License-Identifier: GPL-2.0
/*
 * spare-ublk's erasure-coded request path (ec.h). The queue thread posts
 * what kmod/core/spare_ec_io.c decides and feeds it the completions.
 *
 * A request takes a bounce slot of its queue for its life: K+R regions of
 * MAX_IO / K bytes, split j of the request's pages in region j, page after
 * page (so split j of n pages is one contiguous RDMA operation), then a
 * scratch page for decoding. A read is committed to the kernel at the K-th
 * split of its last extent, but keeps its slot until its last split
 * completed: a late split must land in memory no other request uses. A
 * queue has two slots per tag; a request that finds none waits for one.
 *
 * Lost, evicted, rebuilt. A split slab whose donor failed (its fail_seq
 * moved) or evicted it is lost at once: spare_ec_split_lost(), and its
 * gen moves, so that nothing planned before is posted there (ec_post()
 * checks the gen after counting itself in the split's inflight) and a
 * failed operation there fails no donor; a write that landed there marks
 * nothing (the core's epoch of the split, spare_ec_write_end()). An
 * evicted split is given back (UNMAP) once its inflight is 0, or at 3/4
 * of the donor's deadline. The lifecycle thread then maps a
 * replacement slab on a live donor holding no other split of the group
 * (in a domain the group does not use: ec_life_step()), and the resync
 * thread rebuilds its pages from K current splits through the core's
 * repair plan (ec_repair_pass()): read, spare_ec_recover(), write,
 * spare_ec_repair_end(), which marks nothing where a write or a loss came
 * meanwhile. Its pages read from the others while K of their splits are
 * current, and as EIO after that: never stale.
 *
 * Moves. An EVICT with a grace period does not lose the split: a new slab
 * is mapped on the donor a replacement would take (move_seek()), the
 * resync thread copies the split's current pages into it through the
 * core's move (move_split(): spare_ec_move_next(), _chunk_end(), _switch())
 * while the split stays current on its old slab, then the new slab takes
 * its place (gen and epoch move) and the old one is given back once the
 * operations on it drained (inflight[] by gen parity). A move that cannot
 * end by 3/4 of the grace period, or loses a donor, gives up: the split
 * goes the lost way above (move_give_up()).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ec.h"
#include "spare_ec_place.h"
#include "lifecycle.h"
#include "pager.h"
#include "spare_log.h"
#include "spare_util.h"

#define EC_MAX_OPS	(MAX_EXT * SPARE_EC_MAX_SPLITS)
#define EC_RS_PAGES	64	/* a rebuild's chunk, as resync.c's */
#define EC_REMAP_MS	5000	/* a replacement's MAP refused: again then */

struct ec_op {
	u8 ext, split;
	bool done;
};

/* Where split j of an extent was when it was planned (under the lock). */
struct ec_at {
	u32 donor, rkey, gen;
	u64 addr;
};

struct ec_ext {
	u32 group, first, n;
	u32 pidx;		/* its first page within the request */
	int plan;		/* read: spare_ec_read_plan()'s answer */
	u16 post;		/* the splits to post */
	struct spare_ec_read rd;
	struct spare_ec_write wr;
	struct ec_at at[SPARE_EC_MAX_SPLITS];
	bool finished;		/* read: done (copied, decoded or EIO) */
};

struct ec_slot {
	bool busy, committed, write;
	unsigned int tag, inflight, nr_ext, nr_ops;
	int err;
	struct ec_ext ext[MAX_EXT];
	struct ec_op ops[EC_MAX_OPS];
};

static struct ec_split *split_of(struct dev *d, u32 g, u32 j)
{
	return &d->ec->sp[(size_t)g * spare_ec_splits(&d->ec_geom) + j];
}

/* Region of split @j in slot @s of queue @q. */
static char *slot_region(struct queue *q, unsigned int s, u32 j)
{
	struct ec_dev *e = q->d->ec;

	return e->slots + ((size_t)q->id * e->slots_per_queue + s) * e->slot_bytes +
	       (size_t)j * (MAX_IO / q->d->ec_geom.k);
}

static bool integ_split_ok(struct dev *d, u32 g, u32 j, u32 first, u32 n,
			   const char *buf, u64 *errors);

static char *slot_scratch(struct queue *q, unsigned int s)
{
	return slot_region(q, s, spare_ec_splits(&q->d->ec_geom));
}

/*
 * Count an operation on @sp, if it is still the slab of @gen. Counted
 * by the gen's parity: after a move's switch (or a loss) the operations
 * on the slab before it drain apart from those on the new one.
 */
static bool sp_hold(struct ec_split *sp, u32 gen)
{
	__atomic_add_fetch(&sp->inflight[gen & 1], 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&sp->gen, __ATOMIC_SEQ_CST) == gen)
		return true;
	__atomic_sub_fetch(&sp->inflight[gen & 1], 1, __ATOMIC_SEQ_CST);
	return false;
}

static void sp_put(struct ec_split *sp, u32 gen)
{
	__atomic_sub_fetch(&sp->inflight[gen & 1], 1, __ATOMIC_SEQ_CST);
}

/* Whether the operations on the slab before the current gen ended. */
static bool sp_drained(struct ec_split *sp)
{
	u32 gen = __atomic_load_n(&sp->gen, __ATOMIC_SEQ_CST);

	return !__atomic_load_n(&sp->inflight[(gen + 1) & 1], __ATOMIC_SEQ_CST);
}

/* Split @j of group @g is lost: group @g's lock held. */
static void split_lose(struct dev *d, u32 g, u32 j)
{
	struct ec_split *sp = split_of(d, g, j);

	spare_ec_split_lost(&d->ec->map, &d->ec->map.groups[g], j);
	sp->mapped = false;
	/* after this, ec_post() posts nothing there and the lifecycle
	 * reads inflight to know when the last one ended */
	__atomic_add_fetch(&sp->gen, 1, __ATOMIC_SEQ_CST);
}

/* Evicted split @j of group @g goes the old way: lost now, its slab
 * given back once drained; resync decodes it elsewhere. Lock held. */
static void split_lose_evicted(struct dev *d, u32 g, u32 j)
{
	struct ec_split *sp = split_of(d, g, j);

	if (!(d->ec->map.groups[g].lost & (1U << j)))
		split_lose(d, g, j);
	sp->unmap_due = true;
	sp->unmap_donor = sp->donor;
}

/* Where each split of group @g is now: group @g's lock held. */
static void snap_at(struct dev *d, u32 g, struct ec_at *at)
{
	for (u32 j = 0; j < spare_ec_splits(&d->ec_geom); j++) {
		struct ec_split *sp = split_of(d, g, j);

		at[j] = (struct ec_at){ .donor = sp->donor, .rkey = sp->rkey,
					.gen = sp->gen, .addr = sp->addr };
	}
}

/*
 * Split slabs that are gone: their donor failed since they were mapped
 * (even if it is back: its slab there is not the one written), or they
 * were evicted. Group @g's lock held.
 */
static void sync_lost(struct dev *d, u32 g)
{
	struct spare_ec_group *grp = &d->ec->map.groups[g];
	u32 j;

	for (j = 0; j < spare_ec_splits(&d->ec_geom); j++) {
		struct ec_split *sp = split_of(d, g, j);
		struct donor *dn = &d->donors[sp->donor];

		if (grp->lost & (1U << j))
			continue;
		if (!sp->mapped ||
		    __atomic_load_n(&dn->failed, __ATOMIC_ACQUIRE) ||
		    __atomic_load_n(&dn->fail_seq, __ATOMIC_ACQUIRE) != sp->fail_seq)
			split_lose(d, g, j);
	}
}

/* Whether donors @donor[0..n) are distinct, in distinct domains where set. */
static bool placement_ok(const struct dev *d, const u32 *donor, u32 n)
{
	bool one_domain = true;
	u32 i, k;

	for (i = 1; i < d->nr_domains; i++)
		if (d->domain[i] != d->domain[0])
			one_domain = false;
	for (i = 0; i < n; i++) {
		if (donor[i] >= d->nr_donors)
			return false;
		for (k = 0; k < i; k++)
			if (donor[k] == donor[i] ||
			    (!one_domain && d->domain[donor[k]] == d->domain[donor[i]]))
				return false;
	}
	return true;
}

/*
 * Donors for group @g: a broker's (--grant-file: split j of group g is
 * grant g * (K + R) + j, as sparectl hands them over), else round robin
 * from donor g, distinct, and in distinct domains where set.
 */
static int place_group(struct dev *d, u32 g, u32 *donor)
{
	u32 n = spare_ec_splits(&d->ec_geom), got = 0, i;
	u32 used_dom[SPARE_MAX_DONORS];

	if (d->placement) {
		if ((u64)(g + 1) * n > d->nr_placement)
			return -1;
		for (i = 0; i < n; i++)
			donor[i] = d->placement[(size_t)g * n + i];
		return placement_ok(d, donor, n) ? 0 : -1;
	}

	for (i = 0; i < d->nr_donors && got < n; i++) {
		u32 c = (g + i) % d->nr_donors, k;

		for (k = 0; d->nr_domains && k < got; k++)
			if (used_dom[k] == d->domain[c])
				break;
		if (d->nr_domains && k < got)
			continue;
		used_dom[got] = d->nr_domains ? d->domain[c] : 0;
		donor[got++] = c;
	}
	return got == n ? 0 : -1;
}

int ec_init(struct dev *d)
{
	const struct spare_ec_geom *g = &d->ec_geom;
	u32 n = spare_ec_splits(g), nr_groups, ppg, grp, j;
	struct ec_dev *e = calloc(1, sizeof(*e));
	size_t bytes;
	unsigned int i;

	if (!e)
		return -1;
	d->ec = e;
	e->gshift = (u8)(d->slab_shift + spare_ilog2_exact(g->k));
	nr_groups = (u32)((d->size + (1ULL << e->gshift) - 1) >> e->gshift);
	ppg = (u32)(1ULL << (e->gshift - 12));
	if (spare_ec_map_init(&e->map, g, d->ec_delta, nr_groups, ppg)) {
		log_err("--redundancy: cannot build %u coding groups", nr_groups);
		return -1;
	}
	e->sp = calloc((size_t)nr_groups * n, sizeof(*e->sp));
	e->lock = calloc(nr_groups, sizeof(*e->lock));
	if (!e->sp || !e->lock)
		return -1;
	for (grp = 0; grp < nr_groups; grp++) {
		u32 donor[SPARE_EC_MAX_SPLITS];

		pthread_mutex_init(&e->lock[grp], NULL);
		if (place_group(d, grp, donor)) {
			log_err("coding group %u: no %u distinct donors and domains%s",
				grp, n, d->placement ? " in the grants' placement" : "");
			return -1;
		}
		for (j = 0; j < n; j++) {
			struct ec_split *sp = split_of(d, grp, j);
			struct donor *dn = &d->donors[donor[j]];

			sp->donor = donor[j];
			sp->evictor = SPARE_NO_DONOR;
			sp->id = grp * n + j;
			sp->fail_seq = __atomic_load_n(&dn->fail_seq, __ATOMIC_ACQUIRE);
			if (donor_map(dn, sp->id, &sp->addr, &sp->rkey)) {
				log_err("donor %s: MAP of split %u of coding group %u refused",
					dn->host, j, grp);
				return -1;
			}
			sp->mapped = true;
		}
	}
	/* the splits' regions, then one page's splits to decode into */
	e->slot_bytes = (size_t)n * (MAX_IO / g->k) +
			(size_t)n * spare_ec_split_bytes(g);
	e->slot_bytes = (e->slot_bytes + 4095) & ~(size_t)4095;
	e->slots_per_queue = 2 * d->depth;
	bytes = e->slot_bytes * e->slots_per_queue * d->nr_queues;
	e->slots = aligned_alloc(4096, bytes);
	if (!e->slots)
		return -1;
	memset(e->slots, 0, bytes);
	e->mr = ibv_reg_mr(d->pd, e->slots, bytes, IBV_ACCESS_LOCAL_WRITE);
	if (!e->mr) {
		log_err("ibv_reg_mr of %zu bytes of bounce slots: %s", bytes,
			strerror(errno));
		return -1;
	}
	/* the rebuild's chunk: every split's region */
	bytes = (size_t)n * EC_RS_PAGES * spare_ec_split_bytes(g);
	e->rs_buf = aligned_alloc(4096, bytes);
	if (!e->rs_buf)
		return -1;
	memset(e->rs_buf, 0, bytes);
	e->rs_mr = ibv_reg_mr(d->pd, e->rs_buf, bytes, IBV_ACCESS_LOCAL_WRITE);
	if (!e->rs_mr) {
		log_err("ibv_reg_mr of the rebuild's %zu bytes: %s", bytes,
			strerror(errno));
		return -1;
	}
	e->all_current = true;
	for (i = 0; i < d->nr_queues; i++) {
		struct queue *q = &d->queues[i];

		q->ec_slots = calloc(e->slots_per_queue, sizeof(*q->ec_slots));
		q->ec_wait = calloc(d->depth, sizeof(*q->ec_wait));
		q->ec_wwait = calloc(d->depth, sizeof(*q->ec_wwait));
		if (!q->ec_slots || !q->ec_wait || !q->ec_wwait)
			return -1;
	}
	log_info("redundancy ec:%u+%u: %u coding group(s) of %u MiB, split slabs of %u MiB on %u donors, %u spare read(s)",
		 g->k, g->r, nr_groups, 1U << (e->gshift - 20),
		 1U << (d->slab_shift - 20), d->nr_donors, d->ec_delta);
	return 0;
}

static void fini_unmap(struct dev *d, u32 i, u32 id)
{
	struct donor *dn = &d->donors[i];

	if (i < d->nr_donors && dn->ctrl.up && !dn->abandoned &&
	    !__atomic_load_n(&dn->failed, __ATOMIC_ACQUIRE))
		donor_unmap(dn, id);
}

void ec_fini(struct dev *d)
{
	struct ec_dev *e = d->ec;
	u32 i, n;

	if (!e)
		return;
	n = spare_ec_splits(&d->ec_geom);
	for (i = 0; e->sp && i < e->map.nr_groups * n; i++) {
		struct ec_split *sp = &e->sp[i];
		struct donor *dn = &d->donors[sp->donor];

		if (sp->mapped && dn->ctrl.up && !dn->abandoned &&
		    !__atomic_load_n(&dn->failed, __ATOMIC_ACQUIRE))
			donor_unmap(dn, sp->id);
		/* a move's new slab, an evicted one not given back yet */
		if (sp->mv_fill || sp->mv_unmap)
			fini_unmap(d, sp->mv_donor, sp->id);
		if (sp->unmap_due)
			fini_unmap(d, sp->unmap_donor, sp->id);
		free(sp->mv_copied);
	}
	if (e->mr)
		ibv_dereg_mr(e->mr);
	free(e->slots);
	if (e->rs_mr)
		ibv_dereg_mr(e->rs_mr);
	free(e->rs_buf);
	for (i = 0; d->queues && i < d->nr_queues; i++) {
		free(d->queues[i].ec_slots);
		free(d->queues[i].ec_wait);
		free(d->queues[i].ec_wwait);
	}
	spare_ec_map_free(&e->map);
	free(e->sp);
	free(e->lock);
	free(e);
	d->ec = NULL;
}

static u64 ec_wr_id(unsigned int s, unsigned int op)
{
	return EC_WR_FLAG | (u64)s << 8 | op;
}

/* Post split @j of extent @x of slot @s. false: not posted. */
static bool ec_post(struct queue *q, unsigned int s, unsigned int x, u32 j)
{
	struct dev *d = q->d;
	struct ec_slot *sl = &q->ec_slots[s];
	struct ec_ext *ex = &sl->ext[x];
	struct rq *r = &q->rqs[sl->tag];
	struct ec_split *sp = split_of(d, ex->group, j);
	const struct ec_at *at = &ex->at[j];
	u32 sb = spare_ec_split_bytes(&d->ec_geom);
	struct ec_op *op;

	/* lost or replaced since the plan: not posted */
	if (sl->nr_ops == EC_MAX_OPS || !sp_hold(sp, at->gen))
		return false;
	op = &sl->ops[sl->nr_ops];
	*op = (struct ec_op){ .ext = (u8)x, .split = (u8)j };
	if (donor_post_rdma(&d->donors[at->donor], q->id, sl->write,
			    ec_wr_id(s, sl->nr_ops),
			    slot_region(q, s, j) + (size_t)ex->pidx * sb,
			    d->ec->mr->lkey, ex->n * sb,
			    at->addr + spare_ec_split_off(&d->ec_geom, ex->first),
			    at->rkey)) {
		sp_put(sp, at->gen);
		q->st.copy_faults++;
		return false;
	}
	if (sl->write)
		q->st.rdma_writes++;
	else
		q->st.rdma_reads++;
	dn_posted(q, r, at->donor);
	sl->nr_ops++;
	sl->inflight++;
	q->rdma_inflight++;
	return true;
}

static void log_eio(struct dev *d, struct ec_ext *ex, bool write)
{
	struct spare_ec_group *grp = &d->ec->map.groups[ex->group];
	char states[96];
	bool first;

	pthread_mutex_lock(&d->ec->lock[ex->group]);
	first = spare_ec_eio_first(grp);
	if (first)
		spare_ec_eio_states(states, sizeof(states), &d->ec->map, grp,
				    ex->first, ex->n);
	pthread_mutex_unlock(&d->ec->lock[ex->group]);
	if (first)
		log_err("coding group %u: page %u %s: fewer than %u splits current, EIO (logged once per group; %s)",
			ex->group, ex->first, write ? "written" : "read",
			d->ec_geom.k, states);
}

/* Copy the data splits of extent @x's pages from the slot into the page. */
static void read_copy(struct queue *q, unsigned int s, unsigned int x,
		      u16 missing)
{
	struct dev *d = q->d;
	const struct spare_ec_geom *g = &d->ec_geom;
	struct ec_slot *sl = &q->ec_slots[s];
	struct ec_ext *ex = &sl->ext[x];
	u32 sb = spare_ec_split_bytes(g), n = spare_ec_splits(g), p, j;
	char *page0 = tag_buf(q, sl->tag);

	for (p = ex->pidx; p < ex->pidx + ex->n; p++) {
		void *ptr[SPARE_EC_MAX_SPLITS];
		char *page = page0 + (size_t)p * SPARE_EC_PAGE;

		for (j = 0; j < n; j++)
			ptr[j] = missing & (1U << j) ?
				 slot_scratch(q, s) + (size_t)j * sb :
				 slot_region(q, s, j) + (size_t)p * sb;
		if (missing && spare_ec_recover(g, ptr, missing)) {
			sl->err = -EIO;		/* cannot be: K were read */
			return;
		}
		for (j = 0; j < g->k; j++)
			memcpy(page + (size_t)j * sb, ptr[j], sb);
	}
}

static void slot_release(struct queue *q, unsigned int s)
{
	q->ec_slots[s].busy = false;
	if (q->ec_wait_n) {
		unsigned int tag = q->ec_wait[q->ec_wait_head];

		q->ec_wait_head = (q->ec_wait_head + 1) % q->d->depth;
		q->ec_wait_n--;
		ec_rq_start(q, tag);
	}
}

/* Commit the request once every extent is finished (reads: at the K-th). */
static void maybe_commit(struct queue *q, unsigned int s)
{
	struct ec_slot *sl = &q->ec_slots[s];
	struct rq *r = &q->rqs[sl->tag];
	unsigned int x;

	if (sl->committed)
		return;
	for (x = 0; x < sl->nr_ext; x++)
		if (!sl->ext[x].finished)
			return;
	sl->committed = true;
	r->err = sl->err;
	rq_ec_commit(q, sl->tag);
}

/*
 * A write of pages was answered or ended: the requests waiting for one
 * (ec_rq_start(), must_wait()) go again, this queue's at once, another
 * queue's through its kick eventfd (its thread calls ec_kicked()).
 * Called with no group lock held, after the core's state changed under
 * the lock: a request that chose to wait counted itself in ec_wwait_n
 * under the same lock, so either it saw the change or it is seen here.
 */
static void ec_wake(struct queue *q)
{
	struct dev *d = q->d;
	uint64_t one = 1;

	for (unsigned int k = 0; k < d->nr_queues; k++) {
		struct queue *o = &d->queues[k];

		if (!__atomic_load_n(&o->ec_wwait_n, __ATOMIC_ACQUIRE))
			continue;
		if (o == q)
			ec_kicked(q);
		else if (o->kick_fd < 0 ||
			 write(o->kick_fd, &one, sizeof(one)) != sizeof(one))
			log_err("cannot wake queue %u: %s", k, strerror(errno));
	}
}

void ec_kicked(struct queue *q)
{
	unsigned int n;

	if (q->ec_waking) {
		q->ec_wake_again = true;	/* the outer call loops */
		return;
	}
	q->ec_waking = true;
	do {
		q->ec_wake_again = false;
		/* those waiting now; one that waits again goes to the back */
		for (n = q->ec_wwait_n; n; n--) {
			unsigned int tag = q->ec_wwait[q->ec_wwait_head];

			q->ec_wwait_head = (q->ec_wwait_head + 1) % q->d->depth;
			__atomic_sub_fetch(&q->ec_wwait_n, 1, __ATOMIC_RELEASE);
			ec_rq_start(q, tag);
		}
	} while (q->ec_wake_again);
	q->ec_waking = false;
}

/*
 * A write is answered once K splits of every extent landed (the core's
 * spare_ec_write_ready(), as spare.ko's write_maybe_complete()): its
 * pages are current on the landed splits from now on, and reads of them
 * go on from those. The splits still in flight (a slow or dead donor)
 * write from the slot, which the request keeps until slot_end(): the
 * kernel may reuse the tag's buffer at once. Until then a write of the
 * same pages waits (spare_ec_write_waits()).
 */
static void write_maybe_commit(struct queue *q, unsigned int s)
{
	struct dev *d = q->d;
	struct ec_slot *sl = &q->ec_slots[s];
	unsigned int x;

	if (!sl->write || sl->committed)
		return;
	for (x = 0; x < sl->nr_ext; x++)
		if (!spare_ec_write_ready(&sl->ext[x].wr))
			return;
	for (x = 0; x < sl->nr_ext; x++) {
		struct ec_ext *ex = &sl->ext[x];
		int ret;

		pthread_mutex_lock(&d->ec->lock[ex->group]);
		sync_lost(d, ex->group);
		ret = spare_ec_write_commit(&d->ec->map,
					    &d->ec->map.groups[ex->group],
					    &ex->wr, &q->st.ec);
		pthread_mutex_unlock(&d->ec->lock[ex->group]);
		if (ret) {
			sl->err = -EIO;
			log_eio(d, ex, true);
		}
		ex->finished = true;
	}
	maybe_commit(q, s);
	ec_wake(q);		/* reads of these pages wait no more */
}

/*
 * The write's or the read's last operation completed. A write's late
 * splits are marked where they landed, the others flagged for repair
 * (spare_ec_write_end()), and writes of its pages wait no more.
 */
static void slot_end(struct queue *q, unsigned int s)
{
	struct dev *d = q->d;
	struct ec_slot *sl = &q->ec_slots[s];
	bool write = sl->write, kick = false;
	unsigned int x;

	if (write) {
		for (x = 0; x < sl->nr_ext; x++) {
			struct ec_ext *ex = &sl->ext[x];
			int ret;

			pthread_mutex_lock(&d->ec->lock[ex->group]);
			sync_lost(d, ex->group);
			ret = spare_ec_write_end(&d->ec->map,
						 &d->ec->map.groups[ex->group],
						 &ex->wr, &q->st.ec);
			/* a split mapped but missed: the rebuild's */
			kick |= (d->ec->map.groups[ex->group].repair &
				 ~d->ec->map.groups[ex->group].lost) != 0;
			pthread_mutex_unlock(&d->ec->lock[ex->group]);
			if (ret && !ex->finished) {	/* not answered yet */
				sl->err = -EIO;
				log_eio(d, ex, true);
			}
			ex->finished = true;
		}
	}
	if (kick)
		resync_kick(d);
	for (x = 0; x < sl->nr_ext; x++)
		if (!sl->ext[x].finished) {	/* cannot be: every split came */
			sl->ext[x].finished = true;
			sl->err = -EIO;
		}
	maybe_commit(q, s);
	slot_release(q, s);
	if (write)
		ec_wake(q);
}

/* A read's split @j of extent @x completed (@ok) or was not posted. */
static void read_event(struct queue *q, unsigned int s, unsigned int x, u32 j,
		       bool ok)
{
	struct ec_slot *sl = &q->ec_slots[s];
	struct ec_ext *ex = &sl->ext[x];
	enum spare_ec_read_act act;
	u32 next = 0;

	for (;;) {
		act = spare_ec_read_done(&ex->rd, j, ok, &next, &q->st.ec);
		if (act != SPARE_EC_POST)
			break;
		if (ec_post(q, s, x, next))
			return;
		j = next;		/* not posted: as if it failed */
		ok = false;
	}
	switch (act) {
	case SPARE_EC_COPY:
		read_copy(q, s, x, 0);
		break;
	case SPARE_EC_DECODE:
		read_copy(q, s, x, ex->rd.missing & spare_ec_all(&q->d->ec_geom));
		break;
	case SPARE_EC_EIO:
		sl->err = -EIO;
		log_eio(q->d, ex, false);
		break;
	default:
		return;
	}
	ex->finished = true;
	maybe_commit(q, s);
}

void ec_rdma_done(struct queue *q, u32 dn, const struct ibv_wc *wc)
{
	struct dev *d = q->d;
	unsigned int s = (unsigned int)((wc->wr_id & ~EC_WR_FLAG) >> 8);
	unsigned int i = (unsigned int)(wc->wr_id & 0xff);
	struct ec_slot *sl;
	struct ec_split *sp;
	struct ec_op *op;
	bool ok = wc->status == IBV_WC_SUCCESS, stale;

	if (s >= d->ec->slots_per_queue || !q->ec_slots[s].busy ||
	    i >= q->ec_slots[s].nr_ops || q->ec_slots[s].ops[i].done) {
		log_err("stray RDMA completion %" PRIx64, (uint64_t)wc->wr_id);
		return;
	}
	sl = &q->ec_slots[s];
	op = &sl->ops[i];
	op->done = true;
	sp = split_of(d, sl->ext[op->ext].group, op->split);
	/* an evicted slab given back: its late operations fail, its donor not */
	stale = __atomic_load_n(&sp->gen, __ATOMIC_SEQ_CST) !=
		sl->ext[op->ext].at[op->split].gen;
	sp_put(sp, sl->ext[op->ext].at[op->split].gen);
	q->rdma_inflight--;
	q->dn_inflight[dn]--;
	q->dn_progress_ns[dn] = spare_now_ns();
	/* after the commit, the tag is another request's */
	if (!sl->committed)
		q->rqs[sl->tag].t_done = q->dn_progress_ns[dn];
	if (!ok) {
		q->st.copy_faults++;
		spare_log(wc->status == IBV_WC_WR_FLUSH_ERR ? SPARE_LOG_DEBUG :
			  SPARE_LOG_WARN, "RDMA %s of split %u for tag %u: %s",
			  sl->write ? "WRITE" : "READ", op->split,
			  sl->tag, ibv_wc_status_str(wc->status));
		if (wc->status != IBV_WC_WR_FLUSH_ERR && !stale)
			donor_fail(&d->donors[dn], "RDMA operation failed");
	}
	/*
	 * --integrity: a split that does not match is as one not read; a late
	 * one too is checked (still in the slot), so that it is rebuilt
	 */
	if (ok && !sl->write && !stale && integ_on(&d->crc)) {
		struct ec_ext *ex = &sl->ext[op->ext];

		ok = integ_split_ok(d, ex->group, op->split, ex->first, ex->n,
				    slot_region(q, s, op->split) +
				    (size_t)ex->pidx * spare_ec_split_bytes(&d->ec_geom),
				    &q->st.integrity_errors);
	}
	if (sl->write) {
		spare_ec_write_done(&sl->ext[op->ext].wr, op->split, ok);
		write_maybe_commit(q, s);
	} else {
		read_event(q, s, op->ext, op->split, ok);
	}
	if (--sl->inflight == 0)
		slot_end(q, s);
}

/* an extent, or a rebuild's chunk, is checked whole (integ_split_ok()) */
_Static_assert(MAX_IO / SPARE_EC_PAGE <= SPARE_EC_CHECK_PAGES &&
	       EC_RS_PAGES <= SPARE_EC_CHECK_PAGES, "split checks: 64 pages");

/* The core's spare_crc32c_fn: ISA-L's CRC-32C (integrity.c). */
static u32 integ_crc_fn(void *ctx, const void *buf, u32 len)
{
	return integ_crc32c(buf, len);
}

/*
 * --integrity: the checksum of each split of request page @p in slot @s,
 * split @split[j] (the core's spare_ec_split_set(), shared with spare.ko).
 */
static void integ_split_set(struct queue *q, unsigned int s, u32 p,
			    void *const *split)
{
	struct dev *d = q->d;
	u32 ppg = d->ec->map.pages_per_group;
	u64 page = (q->rqs[q->ec_slots[s].tag].pos >> SPARE_PAGE_SHIFT) + p;

	spare_ec_split_set(&d->crc, &d->ec->map, (u32)(page / ppg),
			   (u32)(page % ppg), split,
			   spare_ec_split_bytes(&d->ec_geom), integ_crc_fn, NULL);
}

/*
 * --integrity: split @j of pages [first, first + n) of group @g, read into
 * @buf, against its checksums (the core's spare_ec_split_verify(), shared
 * with spare.ko). A split page that does not match is counted (@errors),
 * logged once per group, and treated as missing: not current any more and
 * flagged for repair (spare_ec_split_demote()), while K other splits of
 * the page can rebuild it. Returns false if one did not match.
 */
static bool integ_split_ok(struct dev *d, u32 g, u32 j, u32 first, u32 n,
			   const char *buf, u64 *errors)
{
	struct spare_ec_bad_log lg;
	u32 demoted;
	u64 bad;

	bad = spare_ec_split_verify(&d->crc, &d->ec->map, g, j, first, n, buf,
				    spare_ec_split_bytes(&d->ec_geom),
				    integ_crc_fn, NULL);
	if (!bad)
		return true;
	__atomic_add_fetch(errors, (u64)__builtin_popcountll(bad),
			   __ATOMIC_RELAXED);
	pthread_mutex_lock(&d->ec->lock[g]);
	demoted = spare_ec_split_demote(&d->crc, &d->ec->map,
					&d->ec->map.groups[g], g, j, first, bad,
					&lg);
	pthread_mutex_unlock(&d->ec->lock[g]);
	if (lg.log)
		log_warn("coding group %u: split %u of page %u (donor %s) failed its crc32c check; %s (logged once per group)",
			 g, j, lg.page, d->donors[split_of(d, g, j)->donor].host,
			 lg.demoted ? "treated as missing and rebuilt" :
			 "fewer than K other splits current: not used");
	if (demoted)
		resync_kick(d);
	return false;
}

/* Encode the request's pages into slot @s: data splits copied, parity. */
static int write_encode(struct queue *q, unsigned int s, u32 pages)
{
	const struct spare_ec_geom *g = &q->d->ec_geom;
	u32 sb = spare_ec_split_bytes(g), p, j;
	char *page0 = tag_buf(q, q->ec_slots[s].tag);

	for (p = 0; p < pages; p++) {
		char *page = page0 + (size_t)p * SPARE_EC_PAGE;
		void *split[SPARE_EC_MAX_SPLITS];

		for (j = 0; j < spare_ec_splits(g); j++)
			split[j] = slot_region(q, s, j) + (size_t)p * sb;
		for (j = 0; j < g->k; j++)
			memcpy(split[j], page + (size_t)j * sb, sb);
		if (spare_ec_encode(g, page, split + g->k))
			return -EIO;
		if (integ_on(&q->d->crc))
			integ_split_set(q, s, p, split);
	}
	return 0;
}

/* Slot @s's request fails whole with EIO before anything is posted. */
static void slot_fail(struct queue *q, unsigned int s)
{
	struct ec_slot *sl = &q->ec_slots[s];
	unsigned int x;

	sl->err = -EIO;
	for (x = 0; x < sl->nr_ext; x++)
		sl->ext[x].finished = true;
	slot_end(q, s);
}

/*
 * Whether slot @s's request waits for a write of its pages, every group
 * of it locked (spare.ko's ec_must_wait(), the same core calls): a read
 * while a write there has fewer than K splits landed (its pages are
 * current on no split: spare_ec_writing()); a write while another write
 * there is in flight or has late splits in flight (spare_ec_write_waits():
 * those would be marked current over the new bytes when they land).
 * Reads of a write's pages once it was answered do not wait: they read
 * the landed splits.
 */
static bool must_wait(struct dev *d, const struct ec_slot *sl)
{
	const struct spare_ec_map *m = &d->ec->map;

	for (unsigned int x = 0; x < sl->nr_ext; x++) {
		const struct ec_ext *ex = &sl->ext[x];
		const struct spare_ec_group *grp = &m->groups[ex->group];

		if (sl->write ? spare_ec_write_waits(m, grp, ex->first, ex->n) :
		    spare_ec_writing(m, grp, ex->first, ex->n))
			return true;
	}
	return false;
}

void ec_rq_start(struct queue *q, unsigned int tag)
{
	struct dev *d = q->d;
	struct ec_dev *e = d->ec;
	struct rq *r = &q->rqs[tag];
	u64 pos = r->pos, end = r->pos + r->len;
	struct ec_slot *sl;
	unsigned int s, x;
	bool broken;
	u32 j;

	for (s = 0; s < e->slots_per_queue && q->ec_slots[s].busy; s++)
		;
	if (s == e->slots_per_queue) {	/* every slot has late splits */
		q->ec_wait[(q->ec_wait_head + q->ec_wait_n++) % d->depth] = tag;
		return;
	}
	sl = &q->ec_slots[s];
	memset(sl, 0, sizeof(*sl));
	sl->busy = true;
	sl->tag = tag;
	sl->write = r->write;
	if (r->len % SPARE_EC_PAGE || pos % SPARE_EC_PAGE || end > d->size ||
	    !r->len) {
		log_warn("request of %u bytes at %" PRIu64 " refused: not whole pages of the device",
			 r->len, pos);
		slot_fail(q, s);
		return;
	}
	/* extents at coding-group boundaries */
	while (pos < end && sl->nr_ext < MAX_EXT) {
		struct ec_ext *ex = &sl->ext[sl->nr_ext++];
		u64 gend = ((pos >> e->gshift) + 1) << e->gshift;
		u64 xend = gend < end ? gend : end;

		ex->group = (u32)(pos >> e->gshift);
		ex->first = (u32)((pos & ((1ULL << e->gshift) - 1)) >> 12);
		ex->n = (u32)((xend - pos) >> 12);
		ex->pidx = (u32)((pos - r->pos) >> 12);
		pos = xend;
	}
	/* pos < end cannot be: MAX_IO is below a group */
	if (pos < end) {
		slot_fail(q, s);
		return;
	}
	/*
	 * Planned with every group of the request locked (in ascending
	 * order, as its extents are), so that a wait is decided for the
	 * whole request before anything of it begins.
	 */
	for (x = 0; x < sl->nr_ext; x++)
		pthread_mutex_lock(&e->lock[sl->ext[x].group]);
	if (must_wait(d, sl)) {
		q->ec_wwait[(q->ec_wwait_head + q->ec_wwait_n) % d->depth] = tag;
		__atomic_add_fetch(&q->ec_wwait_n, 1, __ATOMIC_RELEASE);
		for (x = sl->nr_ext; x--;)
			pthread_mutex_unlock(&e->lock[sl->ext[x].group]);
		if (!r->ec_waited)
			q->st.ec_waits++;
		r->ec_waited = true;
		slot_release(q, s);
		return;
	}
	for (x = 0; x < sl->nr_ext; x++) {
		struct ec_ext *ex = &sl->ext[x];
		struct spare_ec_group *grp = &e->map.groups[ex->group];

		sync_lost(d, ex->group);
		snap_at(d, ex->group, ex->at);
		if (r->write)
			ex->post = spare_ec_write_begin(&e->map, grp, ex->first,
							ex->n, &ex->wr);
		else
			ex->plan = spare_ec_read_plan(&e->map, grp, ex->first,
						      ex->n, &ex->rd, &ex->post,
						      &q->st.ec);
	}
	for (x = sl->nr_ext; x--;)
		pthread_mutex_unlock(&e->lock[sl->ext[x].group]);
	/*
	 * The request's bytes are copied into the slot, and the splits go
	 * from there: the tag's buffer is the kernel's again once the write
	 * is answered, before its late splits. The encode cannot fail (a bad
	 * geometry); if it did, nothing is posted and the write is EIO.
	 */
	broken = r->write && write_encode(q, s, r->len >> 12);
	/* one reference while posting, so that no completion ends the slot */
	sl->inflight = 1;
	for (x = 0; x < sl->nr_ext; x++) {
		struct ec_ext *ex = &sl->ext[x];

		if (ex->plan > 0) {		/* never written: zeros */
			memset(tag_buf(q, tag) + (size_t)ex->pidx * SPARE_EC_PAGE,
			       0, (size_t)ex->n * SPARE_EC_PAGE);
			q->st.zero_reads++;
			ex->finished = true;
			continue;
		}
		if (ex->plan) {
			sl->err = -EIO;
			ex->finished = true;
			log_eio(d, ex, false);
			continue;
		}
		for (j = 0; j < spare_ec_splits(&d->ec_geom); j++) {
			if (!(ex->post & (1U << j)) ||
			    (!broken && ec_post(q, s, x, j)))
				continue;
			if (r->write)
				spare_ec_write_done(&ex->wr, j, false);
			else
				read_event(q, s, x, j, false);
		}
	}
	write_maybe_commit(q, s);
	if (--sl->inflight == 0)
		slot_end(q, s);
}

void ec_on_evict(struct dev *d, u32 i, u32 id, u32 deadline_ms)
{
	struct ec_dev *e = d->ec;
	u32 n = spare_ec_splits(&d->ec_geom), g = id / n, j = id % n;
	struct ec_split *sp;
	u64 now = spare_now_ms();
	bool taken = false;

	if (g >= e->map.nr_groups || split_of(d, g, j)->donor != i) {
		log_warn("donor %s: EVICT of slab id %u, which it does not lend us: ignored",
			 d->donors[i].host, id);
		return;
	}
	sp = split_of(d, g, j);
	pthread_mutex_lock(&e->lock[g]);
	if (sp->mapped && !sp->mv && !(e->map.groups[g].lost & (1U << j))) {
		sp->unmap_at = deadline_ms ? life_move_due(now, deadline_ms) : now;
		sp->evictor = i;
		if (deadline_ms)
			sp->mv = true;	/* ec_life_step() moves it */
		else
			split_lose_evicted(d, g, j);
		taken = true;
	}
	pthread_mutex_unlock(&e->lock[g]);
	if (!taken) {
		log_info("donor %s: EVICT of split %u of coding group %u, not mapped now or moving: ignored",
			 d->donors[i].host, j, g);
		return;
	}
	__atomic_add_fetch(&d->st.evictions, 1, __ATOMIC_RELAXED);
	if (deadline_ms)
		log_warn("donor %s: EVICT of split %u of coding group %u (deadline %u ms): it moves by copy to another donor, then is given back",
			 d->donors[i].host, j, g, deadline_ms);
	else
		log_warn("donor %s: EVICT of split %u of coding group %u without a grace period: read around from now, given back once its operations in flight end; resync rebuilds it on another donor",
			 d->donors[i].host, j, g);
}

/*
 * A donor for lost split @j of group @g: the core's spare_ec_rehome_pick()
 * over the donors @live says are live, not its evictor; the group's lost
 * splits hold nothing; the fewest split slabs. -1 if none.
 */
static int pick_replacement(struct dev *d, u32 g, u32 j,
			    bool (*live)(struct dev *d, u32 i), const u32 *cover,
			    bool *roomy)
{
	struct spare_ec_group *grp = &d->ec->map.groups[g];
	u32 n = spare_ec_splits(&d->ec_geom), nd, i, ok = 0;
	u32 held[SPARE_MAX_DONORS] = { 0 }, group[SPARE_EC_MAX_SPLITS];
	int t;

	nd = __atomic_load_n(&d->nr_donors, __ATOMIC_ACQUIRE);
	for (i = 0; i < d->ec->map.nr_groups * n; i++) {
		const struct ec_split *o = &d->ec->sp[i];

		/* a split waiting for a picked donor's MAP takes room there
		 * too, as in spare.ko's slab_map; this one's own pick aside */
		if ((o->mapped || (o->picked && o != split_of(d, g, j))) &&
		    o->donor < SPARE_MAX_DONORS)
			held[o->donor]++;
		/* a moving split's new slab takes grant room too */
		if (o->mv_fill && o->mv_donor < SPARE_MAX_DONORS)
			held[o->mv_donor]++;
	}
	for (i = 0; i < nd && i < SPARE_MAX_DONORS; i++)
		if (live(d, i) && i != split_of(d, g, j)->evictor)
			ok |= 1U << i;
	for (i = 0; i < n; i++)
		group[i] = split_of(d, g, i)->donor;
	t = spare_ec_rehome_pick_granted(&d->ec_geom, nd,
					 d->nr_domains ? d->domain : NULL,
					 group, j, grp->lost, ok, held, cover,
					 roomy);
	return t == -ENOSPC ? t : t < 0 ? -1 : t;
}

/* The grants' cover per donor for pick_replacement(), or NULL without
 * grants; taken before a group's lock (the grants have their own). */
static const u32 *grant_cover(struct dev *d, u32 *cover)
{
	u32 nd = __atomic_load_n(&d->nr_donors, __ATOMIC_ACQUIRE);

	return pager_grant_cover(d, nd < SPARE_MAX_DONORS ? nd : SPARE_MAX_DONORS,
				 cover) ? cover : NULL;
}

/*
 * Whether lost split @j of group @g may go to another donor now: one its
 * donor evicted, or whose donor is live again (re-mapped where
 * pick_replacement() says: on that donor, which the core's pick takes
 * first), at once; one whose donor
 * stays down only once that donor has been down --rehome-delay and is
 * not held (@rehome_due: spare_life_rehome_due()), as a replica's copy.
 */
static bool replace_due(struct dev *d, u32 g, u32 j,
			bool (*live)(struct dev *d, u32 i),
			bool (*rehome_due)(struct dev *d, u32 i))
{
	struct ec_split *sp = split_of(d, g, j);

	/* a donor picked and lost before it mapped the split holds nothing */
	return sp->evictor != SPARE_NO_DONOR || sp->picked ||
	       live(d, sp->donor) || rehome_due(d, sp->donor);
}

/* MAP a replacement for lost split @j of group @g (lifecycle thread). */
static void replace_split(struct dev *d, u32 g, u32 j,
			  bool (*live)(struct dev *d, u32 i))
{
	struct ec_dev *e = d->ec;
	struct ec_split *sp = split_of(d, g, j);
	struct donor *dn;
	u32 rkey = 0, seq, old;
	u64 addr = 0;
	bool ok = false, moved = false;
	u32 cover_of[SPARE_MAX_DONORS];
	const u32 *cover = grant_cover(d, cover_of);
	bool roomy;
	int t;

	pthread_mutex_lock(&e->lock[g]);
	t = pick_replacement(d, g, j, live, cover, &roomy);
	old = sp->picked ? sp->lost_on : sp->donor;
	/* listed on the pick at once (NAME.map), as spare.ko's slab_map
	 * lists a re-homed split: the monitor counts it there */
	if (t >= 0 && (e->map.groups[g].lost & (1U << j)) && !sp->mapped &&
	    (!sp->picked || sp->donor != (u32)t)) {
		sp->lost_on = old;
		sp->donor = (u32)t;
		sp->picked = true;
		moved = true;
	}
	pthread_mutex_unlock(&e->lock[g]);
	/* under grants, a donor the device lacks is the monitor's to find */
	__atomic_store_n(&sp->wait_donor, t < 0 && cover, __ATOMIC_RELAXED);
	if (moved) {
		const char *full = roomy ? "" :
			" (its grants there used up: the MAP is refused until the broker gives room)";

		if ((u32)t == old)
			log_info("coding group %u: split %u to be mapped again on its own donor %s, which is back%s",
				 g, j, d->donors[t].host, full);
		else
			log_info("coding group %u: split %u re-homed from donor %s to donor %s%s",
				 g, j, d->donors[old].host, d->donors[t].host, full);
	}
	if (t < 0) {
		if (!sp->warned)
			log_warn("coding group %u: split %u lost and no donor to rebuild it on (%s); it waits for one%s",
				 g, j, t == -ENOSPC ?
				 "none outside the group and its failure domains that the device holds a grant for" :
				 "every live donor holds a split of the group or shares its failure domain",
				 cover ? " (listed in NAME.moving: sparectl device monitor asks a broker for a donor)" : "");
		sp->warned = true;
		sp->retry_at = spare_now_ms() + EC_REMAP_MS;
		return;
	}
	dn = &d->donors[t];
	seq = __atomic_load_n(&dn->fail_seq, __ATOMIC_ACQUIRE);
	if (donor_map(dn, sp->id, &addr, &rkey)) {
		/* an answer too late for us may still have mapped it there:
		 * given back, so that the next MAP is not "already mapped" */
		if (dn->ctrl.up && donor_unmap(dn, sp->id))
			donor_fail(dn, "cannot send UNMAP");
		if (!sp->warned)
			log_info("donor %s: MAP of split %u of coding group %u refused; trying again every %u s",
				 dn->host, j, g, EC_REMAP_MS / 1000);
		sp->warned = true;
		sp->retry_at = spare_now_ms() + EC_REMAP_MS;
		return;
	}
	pthread_mutex_lock(&e->lock[g]);
	/* the donor failed while it answered: its slab is gone with the session */
	if ((e->map.groups[g].lost & (1U << j)) && !sp->unmap_due &&
	    !__atomic_load_n(&dn->failed, __ATOMIC_ACQUIRE) &&
	    __atomic_load_n(&dn->fail_seq, __ATOMIC_ACQUIRE) == seq) {
		sp->donor = (u32)t;
		sp->addr = addr;
		sp->rkey = rkey;
		sp->fail_seq = seq;
		sp->mapped = true;
		sp->picked = false;
		sp->evictor = SPARE_NO_DONOR;
		sp->warned = false;
		__atomic_add_fetch(&sp->gen, 1, __ATOMIC_SEQ_CST);
		spare_ec_split_mapped(&e->map, &e->map.groups[g], j);
		ok = true;
	}
	pthread_mutex_unlock(&e->lock[g]);
	if (!ok)
		return;
	/* counted as the copies' re-maps: the exit line's remaps */
	__atomic_add_fetch(&d->st.remaps, 1, __ATOMIC_RELAXED);
	if ((u32)t == old)
		log_info("coding group %u: split %u mapped again on donor %s; resync rebuilds it from %u others",
			 g, j, dn->host, d->ec_geom.k);
	else
		log_info("coding group %u: split %u now on donor %s (was on %s); resync rebuilds it from %u others",
			 g, j, dn->host, d->donors[old].host, d->ec_geom.k);
	resync_kick(d);
}

/*
 * The move of evicted split @j of group @g gives up (@why): the split goes
 * the old way (lost, given back once drained, decoded elsewhere) and a
 * new slab already mapped is given back once no chunk is copied into it.
 * Group @g's lock held.
 */
static void move_give_up(struct dev *d, u32 g, u32 j,
			 enum spare_ec_move_why why)
{
	struct spare_ec_group *grp = &d->ec->map.groups[g];
	struct ec_split *sp = split_of(d, g, j);
	char line[256];

	if (grp->mv_active && grp->mv_split == j)
		spare_ec_move_end(grp);
	if (sp->mv_fill)
		sp->mv_unmap = true;
	free(sp->mv_copied);
	sp->mv_copied = NULL;
	sp->mv = false;
	sp->mv_fill = false;
	if (!(grp->lost & (1U << j)))
		split_lose_evicted(d, g, j);
	__atomic_add_fetch(&d->st.ec_move_gave_up, 1, __ATOMIC_RELAXED);
	spare_ec_move_give_up_line(line, sizeof(line), g, j, why);
	log_warn("%s", line);
}

/*
 * Evicted split @j of group @g (lifecycle thread): a new slab mapped on
 * another donor (pick_replacement()'s rule), the core's move begun and
 * resync kicked to copy; or, with no donor, a refused MAP, or another
 * move of the group in flight until the deadline, the old way.
 */
static void move_seek(struct dev *d, u32 g, u32 j,
		      bool (*live)(struct dev *d, u32 i))
{
	struct ec_dev *e = d->ec;
	struct spare_ec_group *grp = &e->map.groups[g];
	struct ec_split *sp = split_of(d, g, j);
	unsigned long *copied;
	struct donor *dn;
	u32 rkey = 0, seq;
	u64 addr = 0;
	bool begun = false;
	u32 cover_of[SPARE_MAX_DONORS];
	const u32 *cover = grant_cover(d, cover_of);
	bool roomy;
	int t;

	pthread_mutex_lock(&e->lock[g]);
	t = grp->mv_active ? -2 : pick_replacement(d, g, j, live, cover, &roomy);
	if (t == -ENOSPC || (t >= 0 && !roomy)) {
		move_give_up(d, g, j, SPARE_EC_MOVE_NO_GRANT);
		t = -1;
	} else if (t == -1) {
		move_give_up(d, g, j, SPARE_EC_MOVE_NO_DONOR);
	}
	pthread_mutex_unlock(&e->lock[g]);
	if (t < 0)
		return;		/* -2: one move per group, this one next */
	dn = &d->donors[t];
	seq = __atomic_load_n(&dn->fail_seq, __ATOMIC_ACQUIRE);
	copied = calloc(BITS_TO_LONGS(e->map.pages_per_group), sizeof(long));
	if (!copied || donor_map(dn, sp->id, &addr, &rkey)) {
		if (copied && dn->ctrl.up && donor_unmap(dn, sp->id))
			donor_fail(dn, "cannot send UNMAP");
		free(copied);
		pthread_mutex_lock(&e->lock[g]);
		if (sp->mv)
			move_give_up(d, g, j, copied ? SPARE_EC_MOVE_MAP_REFUSED :
				     SPARE_EC_MOVE_NOMEM);
		pthread_mutex_unlock(&e->lock[g]);
		return;
	}
	pthread_mutex_lock(&e->lock[g]);
	if (sp->mv && !__atomic_load_n(&dn->failed, __ATOMIC_ACQUIRE) &&
	    __atomic_load_n(&dn->fail_seq, __ATOMIC_ACQUIRE) == seq &&
	    !spare_ec_move_begin(&e->map, grp, j, copied)) {
		sp->mv_fill = true;
		sp->mv_copied = copied;
		sp->mv_donor = (u32)t;
		sp->mv_addr = addr;
		sp->mv_rkey = rkey;
		sp->mv_fail_seq = seq;
		begun = true;
	}
	pthread_mutex_unlock(&e->lock[g]);
	if (!begun) {
		free(copied);
		if (dn->ctrl.up && donor_unmap(dn, sp->id))
			donor_fail(dn, "cannot send UNMAP");
		return;		/* lost meanwhile: the old way has it */
	}
	log_info("coding group %u: split %u moves by copy from donor %s to donor %s",
		 g, j, d->donors[sp->donor].host, dn->host);
	resync_kick(d);
}

/* A moving split's step (lifecycle thread, group @g's lock held): the
 * move given up when its split was lost, its new slab's donor failed or
 * its time ran out; true when a new slab is to be sought.
 */
static bool move_check(struct dev *d, u32 g, u32 j, u64 now)
{
	struct ec_split *sp = split_of(d, g, j);
	struct donor *to = &d->donors[sp->mv_donor];
	enum spare_ec_move_why why;

	if (!sp->mv)
		return false;
	why = spare_ec_move_check(&d->ec->map.groups[g], j, now, sp->unmap_at,
				  false);
	if (why != SPARE_EC_MOVE_LOST && sp->mv_fill &&
	    (__atomic_load_n(&to->failed, __ATOMIC_ACQUIRE) ||
	     __atomic_load_n(&to->fail_seq, __ATOMIC_ACQUIRE) != sp->mv_fail_seq))
		why = SPARE_EC_MOVE_NEW_LOST;
	if (why)
		move_give_up(d, g, j, why);
	return sp->mv && !sp->mv_fill;
}

void ec_life_step(struct dev *d, bool (*live)(struct dev *d, u32 i),
		  bool (*rehome_due)(struct dev *d, u32 i))
{
	struct ec_dev *e = d->ec;
	u32 n = spare_ec_splits(&d->ec_geom), g, j;
	u64 now = spare_now_ms();

	for (g = 0; g < e->map.nr_groups; g++) {
		for (j = 0; j < n; j++) {
			struct ec_split *sp = split_of(d, g, j);
			bool lost, drained, unmap = false, unmap_new = false, seek;
			u32 from = 0, to = 0;

			pthread_mutex_lock(&e->lock[g]);
			if (!j)
				sync_lost(d, g);
			seek = move_check(d, g, j, now);
			lost = e->map.groups[g].lost & (1U << j);
			/* after the gen moved (split_lose(), a move's switch):
			 * no new ones come on the slab before */
			drained = sp_drained(sp);
			if (sp->unmap_due && (drained || now >= sp->unmap_at)) {
				sp->unmap_due = false;
				unmap = true;
				from = sp->unmap_donor;
			}
			if (sp->mv_unmap && !sp->mv_copying) {
				sp->mv_unmap = false;
				unmap_new = true;
				to = sp->mv_donor;
			}
			pthread_mutex_unlock(&e->lock[g]);
			if (unmap) {
				if (live(d, from) && donor_unmap(&d->donors[from], sp->id))
					donor_fail(&d->donors[from], "cannot send UNMAP");
				log_info("donor %s: split %u of coding group %u given back%s",
					 d->donors[from].host, j, g,
					 drained ? "" : " at the deadline, operations still in flight");
			}
			if (unmap_new && live(d, to) &&
			    donor_unmap(&d->donors[to], sp->id))
				donor_fail(&d->donors[to], "cannot send UNMAP");
			if (seek)
				move_seek(d, g, j, live);
			else if (lost && !sp->unmap_due && !sp->mv_unmap && drained &&
				 now >= sp->retry_at &&
				 replace_due(d, g, j, live, rehome_due))
				replace_split(d, g, j, live);
		}
	}
}

/* Region of split @j in the rebuild's buffer. */
static char *rs_region(struct dev *d, u32 j)
{
	return d->ec->rs_buf + (size_t)j * EC_RS_PAGES *
	       spare_ec_split_bytes(&d->ec_geom);
}

/* RDMA of split @j's part of a chunk on the resync link. 0, or -EAGAIN. */
static int rs_split_rdma(struct dev *d, u32 g, u32 j, const struct ec_at *at,
			 bool write, u32 first, u32 n)
{
	struct ec_split *sp = split_of(d, g, j);
	u32 sb = spare_ec_split_bytes(&d->ec_geom);
	int ret;

	if (!sp_hold(sp, at->gen))
		return -EAGAIN;		/* lost or replaced since the plan */
	ret = resync_rdma(d, at->donor, write, rs_region(d, j),
			  d->ec->rs_mr->lkey, n * sb,
			  at->addr + spare_ec_split_off(&d->ec_geom, first), at->rkey);
	sp_put(sp, at->gen);
	return ret ? -EAGAIN : 0;
}

/*
 * Rebuild split @j of group @g: chunk after chunk from the core's repair
 * plan. 0: nothing more to rebuild there; 1: a chunk could not be done
 * now (a donor busy or down, a write or a loss came meanwhile).
 */
static int repair_split(struct dev *d, u32 g, u32 j)
{
	struct ec_dev *e = d->ec;
	struct spare_ec_group *grp = &e->map.groups[g];
	const struct spare_ec_geom *geo = &d->ec_geom;
	u32 n = spare_ec_splits(geo), sb = spare_ec_split_bytes(geo);
	u32 from = 0, wraps = 0, i, p;
	struct spare_ec_stats st = { 0 };
	int again = 0;

	for (;;) {
		struct ec_at at[SPARE_EC_MAX_SPLITS];
		struct spare_ec_repair rep;
		bool ok, marked;
		int ret;

		pthread_mutex_lock(&e->lock[g]);
		ret = spare_ec_repair_begin(&e->map, grp, j, from, EC_RS_PAGES, &rep);
		if (ret == -ENOENT && !from)
			spare_ec_repair_idle(grp, j);
		if (!ret)
			snap_at(d, g, at);
		pthread_mutex_unlock(&e->lock[g]);
		if (ret == -ENOENT && from && ++wraps <= 2) {
			from = 0;	/* pages a write spoiled come round again */
			continue;
		}
		if (ret)
			return ret == -ENOENT && !from ? again : 1;
		ok = true;
		for (i = 0; ok && i < n; i++)
			if (rep.src & (1U << i))
				ok = !rs_split_rdma(d, g, i, &at[i], false, rep.first, rep.n);
		/* --integrity: a bad source is demoted; the pages come round again */
		for (i = 0; ok && integ_on(&d->crc) && i < n; i++)
			if (rep.src & (1U << i))
				ok = integ_split_ok(d, g, i, rep.first, rep.n,
						    rs_region(d, i),
						    &d->st.integrity_errors);
		for (p = 0; ok && p < rep.n; p++) {
			void *ptr[SPARE_EC_MAX_SPLITS];

			for (i = 0; i < n; i++)
				ptr[i] = rs_region(d, i) + (size_t)p * sb;
			ok = !spare_ec_recover(geo, ptr, spare_ec_all(geo) & ~rep.src);
		}
		if (ok)
			ok = !rs_split_rdma(d, g, j, &at[j], true, rep.first, rep.n);
		pthread_mutex_lock(&e->lock[g]);
		if (split_of(d, g, j)->gen != at[j].gen)
			ok = false;	/* lost again, or replaced */
		marked = spare_ec_repair_end(&e->map, grp, &rep, ok, &st);
		pthread_mutex_unlock(&e->lock[g]);
		if (marked)
			__atomic_add_fetch(&d->st.ec.repaired_pages, rep.n,
					   __ATOMIC_RELAXED);
		else if (!ok)
			return 1;	/* a donor busy or down: later */
		else
			again = 1;	/* a write came: those pages again */
		from = rep.first + rep.n;
	}
}

/*
 * Copy moving split @j of group @g to its new slab, chunk after chunk of
 * the core's move (read from the old slab, written to the new one, both
 * on the resync links), then switch: the new slab takes its place, the
 * old one is given back once drained (ec_life_step()). 0: over (switched,
 * or no move); 1: not yet (a donor busy, writes keep coming): again soon.
 */
static int move_split(struct dev *d, u32 g, u32 j)
{
	struct ec_dev *e = d->ec;
	struct spare_ec_group *grp = &e->map.groups[g];
	struct ec_split *sp = split_of(d, g, j);
	u32 sb = spare_ec_split_bytes(&d->ec_geom), from = 0, passes = 0, old;
	u64 copied = 0;

	for (;;) {
		struct ec_at at[SPARE_EC_MAX_SPLITS];
		struct spare_ec_repair rep;
		u32 to, rkey;
		u64 addr;
		bool ok;
		int ret;

		pthread_mutex_lock(&e->lock[g]);
		if (!sp->mv_fill) {
			pthread_mutex_unlock(&e->lock[g]);
			return 0;
		}
		ret = spare_ec_move_next(&e->map, grp, from, EC_RS_PAGES, &rep);
		if (ret == -ENOENT) {
			ret = spare_ec_move_switch(&e->map, grp);
			if (!ret) {
				old = sp->donor;
				sp->unmap_donor = old;
				sp->unmap_due = true;
				sp->donor = sp->mv_donor;
				sp->addr = sp->mv_addr;
				sp->rkey = sp->mv_rkey;
				sp->fail_seq = sp->mv_fail_seq;
				sp->evictor = SPARE_NO_DONOR;
				sp->mv = false;
				sp->mv_fill = false;
				free(sp->mv_copied);
				sp->mv_copied = NULL;
				/* operations on the old slab drain apart */
				__atomic_add_fetch(&sp->gen, 1, __ATOMIC_SEQ_CST);
			}
			pthread_mutex_unlock(&e->lock[g]);
			if (!ret) {
				__atomic_add_fetch(&d->st.ec_moved, 1, __ATOMIC_RELAXED);
				log_info("coding group %u: split %u moved by copy from donor %s to donor %s (%" PRIu64 " split pages copied, none decoded); the old slab is given back once drained",
					 g, j, d->donors[old].host,
					 d->donors[sp->donor].host, copied);
				return 0;
			}
			if (ret == -EAGAIN && ++passes <= 4) {
				from = 0;	/* pages written meanwhile */
				continue;
			}
			return 1;
		}
		if (ret) {
			pthread_mutex_unlock(&e->lock[g]);
			return 1;
		}
		snap_at(d, g, at);
		sp->mv_copying = true;
		to = sp->mv_donor;
		addr = sp->mv_addr + spare_ec_split_off(&d->ec_geom, rep.first);
		rkey = sp->mv_rkey;
		pthread_mutex_unlock(&e->lock[g]);
		ok = !rs_split_rdma(d, g, j, &at[j], false, rep.first, rep.n) &&
		     !resync_rdma(d, to, true, rs_region(d, j), e->rs_mr->lkey,
				  rep.n * sb, addr, rkey);
		pthread_mutex_lock(&e->lock[g]);
		if (spare_ec_move_chunk_end(&e->map, grp, &rep, ok && sp->mv_fill))
			copied += rep.n;
		sp->mv_copying = false;
		pthread_mutex_unlock(&e->lock[g]);
		if (ok)
			__atomic_add_fetch(&d->st.ec_copied_pages, rep.n,
					   __ATOMIC_RELAXED);
		else
			return 1;	/* a donor busy or down: later */
		from = rep.first + rep.n;
	}
}

int ec_repair_pass(struct dev *d)
{
	struct ec_dev *e = d->ec;
	u32 n = spare_ec_splits(&d->ec_geom), g, j, lost, rebuilding;
	int waiting = 0;

	for (g = 0; g < e->map.nr_groups; g++) {
		u16 todo, moving = 0;

		pthread_mutex_lock(&e->lock[g]);
		sync_lost(d, g);
		for (j = 0; j < n; j++)
			if (split_of(d, g, j)->mv_fill)
				moving |= 1U << j;
		pthread_mutex_unlock(&e->lock[g]);
		for (j = 0; j < n; j++)
			if (moving & (1U << j))
				waiting |= move_split(d, g, j);
		pthread_mutex_lock(&e->lock[g]);
		todo = e->map.groups[g].repair & ~e->map.groups[g].lost;
		waiting |= e->map.groups[g].lost != 0;
		pthread_mutex_unlock(&e->lock[g]);
		for (j = 0; j < n; j++)
			if (todo & (1U << j))
				waiting |= repair_split(d, g, j);
	}
	ec_split_counts(e, &lost, &rebuilding);
	if (lost || rebuilding) {
		if (e->all_current) {
			e->all_current = false;
			e->waiting_since = spare_now_ms();
			e->repaired0 = __atomic_load_n(&d->st.ec.repaired_pages,
						       __ATOMIC_RELAXED);
		}
		return 1;
	}
	if (!e->all_current)
		log_info("resync: every split of the %u coding group(s) current again (%" PRIu64 " split pages rebuilt) in %.1f s",
			 e->map.nr_groups,
			 __atomic_load_n(&d->st.ec.repaired_pages, __ATOMIC_RELAXED) -
			 e->repaired0,
			 (double)(spare_now_ms() - e->waiting_since) / 1000);
	e->all_current = true;
	return waiting;
}
