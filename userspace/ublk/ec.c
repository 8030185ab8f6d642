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
 * What is not built yet, safely: a lost split slab (its donor failed or
 * evicted it) stays lost until the pager restarts: no re-map, no rebuild
 * from the other splits, no move. Its pages read from the others while K
 * of their splits are current, and as EIO after that: never stale.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ec.h"
#include "pager.h"
#include "spare_log.h"
#include "spare_util.h"

#define EC_MAX_OPS	(MAX_EXT * SPARE_EC_MAX_SPLITS)

struct ec_op {
	u8 ext, split;
	bool done;
};

struct ec_ext {
	u32 group, first, n;
	u32 pidx;		/* its first page within the request */
	struct spare_ec_read rd;
	struct spare_ec_write wr;
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

static char *slot_scratch(struct queue *q, unsigned int s)
{
	return slot_region(q, s, spare_ec_splits(&q->d->ec_geom));
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
			spare_ec_split_lost(&d->ec->map, grp, j);
	}
}

/* Donors for group @g: distinct, and in distinct domains where set. */
static int place_group(struct dev *d, u32 g, u32 *donor)
{
	u32 n = spare_ec_splits(&d->ec_geom), got = 0, i;
	u32 used_dom[SPARE_MAX_DONORS];

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
			log_err("coding group %u: no %u distinct donors and domains",
				grp, n);
			return -1;
		}
		for (j = 0; j < n; j++) {
			struct ec_split *sp = split_of(d, grp, j);
			struct donor *dn = &d->donors[donor[j]];

			sp->donor = donor[j];
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
	for (i = 0; i < d->nr_queues; i++) {
		struct queue *q = &d->queues[i];

		q->ec_slots = calloc(e->slots_per_queue, sizeof(*q->ec_slots));
		q->ec_wait = calloc(d->depth, sizeof(*q->ec_wait));
		if (!q->ec_slots || !q->ec_wait)
			return -1;
	}
	log_info("redundancy ec:%u+%u: %u coding group(s) of %u MiB, split slabs of %u MiB on %u donors, %u spare read(s)",
		 g->k, g->r, nr_groups, 1U << (e->gshift - 20),
		 1U << (d->slab_shift - 20), d->nr_donors, d->ec_delta);
	return 0;
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
	}
	if (e->mr)
		ibv_dereg_mr(e->mr);
	free(e->slots);
	for (i = 0; d->queues && i < d->nr_queues; i++) {
		free(d->queues[i].ec_slots);
		free(d->queues[i].ec_wait);
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
	u32 sb = spare_ec_split_bytes(&d->ec_geom);
	struct ec_op *op;

	if (sl->nr_ops == EC_MAX_OPS)
		return false;
	op = &sl->ops[sl->nr_ops];
	*op = (struct ec_op){ .ext = (u8)x, .split = (u8)j };
	if (donor_post_rdma(&d->donors[sp->donor], q->id, sl->write,
			    ec_wr_id(s, sl->nr_ops),
			    slot_region(q, s, j) + (size_t)ex->pidx * sb,
			    d->ec->mr->lkey, ex->n * sb,
			    sp->addr + spare_ec_split_off(&d->ec_geom, ex->first),
			    sp->rkey)) {
		q->st.copy_faults++;
		return false;
	}
	if (sl->write)
		q->st.rdma_writes++;
	else
		q->st.rdma_reads++;
	if (!r->t_post)
		r->t_post = spare_now_ns();
	if (q->dn_inflight[sp->donor]++ == 0)
		q->dn_progress_ns[sp->donor] = r->t_post;
	sl->nr_ops++;
	sl->inflight++;
	q->rdma_inflight++;
	return true;
}

static void log_eio(struct dev *d, struct ec_ext *ex, bool write)
{
	bool first;

	pthread_mutex_lock(&d->ec->lock[ex->group]);
	first = spare_ec_eio_first(&d->ec->map.groups[ex->group]);
	pthread_mutex_unlock(&d->ec->lock[ex->group]);
	if (first)
		log_err("coding group %u: page %u %s: fewer than %u splits current, EIO (logged once per group)",
			ex->group, ex->first, write ? "written" : "read",
			d->ec_geom.k);
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

/* The write's or the read's last operation completed. */
static void slot_end(struct queue *q, unsigned int s)
{
	struct dev *d = q->d;
	struct ec_slot *sl = &q->ec_slots[s];
	unsigned int x;

	if (sl->write) {
		for (x = 0; x < sl->nr_ext; x++) {
			struct ec_ext *ex = &sl->ext[x];
			int ret;

			pthread_mutex_lock(&d->ec->lock[ex->group]);
			sync_lost(d, ex->group);
			ret = spare_ec_write_end(&d->ec->map,
						 &d->ec->map.groups[ex->group],
						 &ex->wr, &q->st.ec);
			pthread_mutex_unlock(&d->ec->lock[ex->group]);
			if (ret) {
				sl->err = -EIO;
				log_eio(d, ex, true);
			}
			ex->finished = true;
		}
	}
	for (x = 0; x < sl->nr_ext; x++)
		if (!sl->ext[x].finished) {	/* cannot be: every split came */
			sl->ext[x].finished = true;
			sl->err = -EIO;
		}
	maybe_commit(q, s);
	slot_release(q, s);
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
	struct ec_op *op;
	bool ok = wc->status == IBV_WC_SUCCESS;

	if (s >= d->ec->slots_per_queue || !q->ec_slots[s].busy ||
	    i >= q->ec_slots[s].nr_ops || q->ec_slots[s].ops[i].done) {
		log_err("stray RDMA completion %" PRIx64, (uint64_t)wc->wr_id);
		return;
	}
	sl = &q->ec_slots[s];
	op = &sl->ops[i];
	op->done = true;
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
		if (wc->status != IBV_WC_WR_FLUSH_ERR)
			donor_fail(&d->donors[dn], "RDMA operation failed");
	}
	if (sl->write)
		spare_ec_write_done(&sl->ext[op->ext].wr, op->split, ok);
	else
		read_event(q, s, op->ext, op->split, ok);
	if (--sl->inflight == 0)
		slot_end(q, s);
}

/* Encode the request's pages into slot @s: data splits copied, parity. */
static int write_encode(struct queue *q, unsigned int s, u32 pages)
{
	const struct spare_ec_geom *g = &q->d->ec_geom;
	u32 sb = spare_ec_split_bytes(g), p, j;
	char *page0 = tag_buf(q, q->ec_slots[s].tag);

	for (p = 0; p < pages; p++) {
		char *page = page0 + (size_t)p * SPARE_EC_PAGE;
		void *par[SPARE_EC_MAX_R];

		for (j = 0; j < g->k; j++)
			memcpy(slot_region(q, s, j) + (size_t)p * sb,
			       page + (size_t)j * sb, sb);
		for (j = 0; j < g->r; j++)
			par[j] = slot_region(q, s, g->k + j) + (size_t)p * sb;
		if (spare_ec_encode(g, page, par))
			return -EIO;
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

void ec_rq_start(struct queue *q, unsigned int tag)
{
	struct dev *d = q->d;
	struct ec_dev *e = d->ec;
	struct rq *r = &q->rqs[tag];
	u64 pos = r->pos, end = r->pos + r->len;
	struct ec_slot *sl;
	unsigned int s, x;
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
	if (pos < end || (r->write && write_encode(q, s, r->len >> 12))) {
		slot_fail(q, s);
		return;
	}
	/* one reference while posting, so that no completion ends the slot */
	sl->inflight = 1;
	for (x = 0; x < sl->nr_ext; x++) {
		struct ec_ext *ex = &sl->ext[x];
		struct spare_ec_group *grp = &e->map.groups[ex->group];
		u16 post;
		int ret = 0;

		pthread_mutex_lock(&e->lock[ex->group]);
		sync_lost(d, ex->group);
		if (r->write)
			post = spare_ec_write_begin(&e->map, grp, ex->first, ex->n,
						    &ex->wr);
		else
			ret = spare_ec_read_plan(&e->map, grp, ex->first, ex->n,
						 &ex->rd, &post, &q->st.ec);
		pthread_mutex_unlock(&e->lock[ex->group]);
		if (ret > 0) {		/* never written: zeros */
			memset(tag_buf(q, tag) + (size_t)ex->pidx * SPARE_EC_PAGE,
			       0, (size_t)ex->n * SPARE_EC_PAGE);
			q->st.zero_reads++;
			ex->finished = true;
			continue;
		}
		if (ret) {
			sl->err = -EIO;
			ex->finished = true;
			log_eio(d, ex, false);
			continue;
		}
		for (j = 0; j < spare_ec_splits(&d->ec_geom); j++) {
			if (!(post & (1U << j)) || ec_post(q, s, x, j))
				continue;
			if (r->write)
				spare_ec_write_done(&ex->wr, j, false);
			else
				read_event(q, s, x, j, false);
		}
	}
	if (--sl->inflight == 0)
		slot_end(q, s);
}

void ec_on_evict(struct dev *d, u32 i, u32 id)
{
	struct ec_dev *e = d->ec;
	u32 n = spare_ec_splits(&d->ec_geom), g = id / n, j = id % n;
	struct ec_split *sp;

	if (g >= e->map.nr_groups || split_of(d, g, j)->donor != i) {
		log_warn("donor %s: EVICT of slab id %u, which it does not lend us: ignored",
			 d->donors[i].host, id);
		return;
	}
	sp = split_of(d, g, j);
	pthread_mutex_lock(&e->lock[g]);
	sp->mapped = false;
	spare_ec_split_lost(&e->map, &e->map.groups[g], j);
	pthread_mutex_unlock(&e->lock[g]);
	log_warn("donor %s: EVICT of split %u of coding group %u: the split is lost (no moves for erasure-coded slabs yet); its pages read from the other splits",
		 d->donors[i].host, j, g);
	donor_unmap(&d->donors[i], id);
}
