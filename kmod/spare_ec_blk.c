// SPDX-License-Identifier: GPL-2.0
/*
 * spare.ko's erasure-coded request path (redundancy=ec:K+R, issue 34). The
 * decisions are kmod/core/spare_ec_io.c's, shared with spare-ublk
 * (userspace/ublk/ec.c); here they are posted as RDMA and fed the
 * completions. Documentation/erasure-coding.md, "spare.ko".
 *
 * The split table is the device's slab map (dev->map) built over split
 * slabs: one copy each, split j of coding group g is slab g * (K + R) + j,
 * placed by spare_ec_place() (or configfs "placement", checked by
 * spare_ec_place_check()), so that the donors' MAP path, grants (grant
 * g * (K + R) + j is that slab) and error road work on it unchanged. A
 * split is trusted while its copy stays MAPPED at the generation it had
 * when the device came up: any change (the donor failed, the slab was
 * evicted or moved) makes it lost (spare_ec_split_lost()), so a page
 * reads from the other splits while K are current, and as EIO after
 * that, never stale. Once its slab is MAPPED again (the donor came back),
 * ec_rebuild_work() takes it at its new generation and rebuilds its pages
 * through the core's repair plan.
 *
 * A request takes a bounce slot for its life: K + R regions of
 * SPARE_MAX_IO_BYTES / K bytes (split j of the request's page i at byte
 * i * 4096 / K of region j, so split j of an extent is one RDMA operation)
 * and a scratch page's splits to decode into. Slots are preallocated at
 * power-on; ->queue_rq() allocates nothing and never sleeps: no free slot
 * is BLK_STS_RESOURCE, and the slot's release re-runs the queues (RESOURCE,
 * not DEV_RESOURCE, for the reason kmod.md gives for the write window: a
 * release racing the refusal may run a queue that has nothing pending yet,
 * and blk-mq's delayed re-run is then the backstop). A
 * read completes at the K-th split of its last extent but keeps its slot
 * until every split it posted has completed, so that a late split lands
 * in memory no other request uses. A write completes the same way, once
 * K splits of each extent landed (spare_ec_write_commit()): a split on a
 * dead donor costs it nothing, and it keeps the slot (the bytes its late
 * splits write) until each of those landed or failed
 * (spare_ec_write_end(): marked current, or left to the rebuild).
 *
 * integrity=crc32c (spare_integrity.c's table, K + R checksums a page):
 * page_encode() sets each split's when the write is encoded, in the slot;
 * op_done() checks each split a read brought back, and repair_split() the
 * sources it reads, in the slot too (split_crc_ok()). A split that does
 * not match is as one that failed: counted (io_stat integrity_errors),
 * logged once per group, treated as missing (the core's
 * spare_ec_split_demote(): not current any more, flagged for the
 * rebuild's next look) and the read goes on with the other splits,
 * decoding as it must; short of K good ones, EIO.
 */
#include <linux/bitmap.h>
#include <linux/blk-mq.h>
#include <linux/highmem.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <asm/simd.h>

#include "spare.h"
#include "spare_rdma.h"
#include "spare_move.h"
#include "spare_ec_io.h"
#include "spare_ec_place.h"

#define CREATE_TRACE_POINTS
#include "spare_trace.h"

#define EC_SLOTS	SPARE_QUEUE_DEPTH
/* the rebuild's look at every group, while the device is up */
#define EC_REBUILD_MS	1000
/* ... while a move waits for its MAP or for the old slab to drain */
#define EC_MOVE_MS	20
#define EC_MAX_OPS	(SPARE_MAX_EXTENTS * SPARE_EC_MAX_SPLITS)

/*
 * A read's pages are filled (its missing splits decoded) in the RDMA
 * completion that brings its K-th split, in softirq, when the FPU is free
 * on that CPU (may_use_simd()); else in a work item (read_fill_work()).
 * ec_defer_fill=1 sends every read's fill to the work item, so that the
 * rig runs that path on purpose (client/ec-ublk@kmod).
 */
static bool ec_defer_fill;
module_param(ec_defer_fill, bool, 0644);
MODULE_PARM_DESC(ec_defer_fill,
		 "fill every erasure-coded read in a work item, never in the RDMA completion (testing)");

struct ec_req;

/* One split's RDMA operation of one extent. */
struct ec_op {
	struct ib_cqe cqe;
	struct ec_req *req;
	struct ib_device *ibdev;
	u64 dma;
	u32 len;
	u32 slab;		/* the split slab */
	u8 slot;		/* its copy slot */
	u8 ext, split;
	bool ok;
	/* a traced read's (req->timed): ns after req->t0 */
	u32 t_post, t_ret, t_done;
};

struct ec_ext {
	u32 group, first, n;
	u32 pidx;		/* its first page within the request */
	struct spare_ec_read rd;
	struct spare_ec_write wr;
	u16 post;		/* a read's plan: the splits to post */
	int plan;		/* spare_ec_read_plan()'s answer */
	bool finished;
	bool failed;
};

/* A bounce slot and the state of the request that holds it. */
struct ec_req {
	struct spare_dev *dev;
	struct request *rq;	/* NULL once ended */
	spinlock_t lock;	/* rd, finished, rq: completions of many CQs */
	atomic_t pending;	/* ops not completed, plus one while posting */
	/*
	 * a read whose splits are in, its fill and end queued on dev->wq
	 * (read_maybe_end()): holds one of @pending; req->lock
	 */
	bool fill_queued;
	struct work_struct fill_work;
	bool write;
	bool posting;		/* a write's splits are being posted */
	bool rebuild;		/* the rebuild's own slot (rb_done) */
	bool rb_failed;		/* a rebuild op failed or was not posted */
	/*
	 * the rebuild's slot only: post to this copy slot at this
	 * generation, not the split's (a move's new slab); -1: the split's
	 */
	int rb_slot;
	u32 rb_gen;
	int hctx;
	/* a read traced (spare_ec_read): its times, ns after t0 */
	bool timed;
	u64 t0;
	u32 t_kth, t_fill, t_end;
	unsigned int nr_ext, nr_ops;
	struct ec_ext ext[SPARE_MAX_EXTENTS];
	struct ec_op ops[EC_MAX_OPS];
	void *region[SPARE_EC_MAX_SPLITS];
	void *scratch;		/* K + R splits of one page */
};

/* Split j of group g: the copy slot and generation it was mapped at. */
struct ec_split {
	u32 gen;
	u8 slot;
	bool ok;
	/*
	 * An EVICT of it with a grace period (spare_ec_evict()): it moves
	 * by copy (ec_move_step()) unless it goes the old way, by @mv_due.
	 * Group lock.
	 */
	bool mv_wanted;
	bool mv_old_way;	/* given up: its next EVICT look goes the old way */
	u32 mv_evictor;
	u64 mv_due;		/* ms */
	/*
	 * Its re-home waits for a donor the device lacks (the core's
	 * spare_ec_wait_donor(): the down_since of the donor it waits on, 0
	 * while none): logged and told (slab_moving) once; rehome work
	 */
	u64 donor_wait;
};

/*
 * The one move by copy of an evicted split of a group (the core's
 * spare_ec_move_*(): one per group), driven by the rebuild work only.
 */
enum ec_move_state {
	EC_MV_NONE,
	EC_MV_MAP,	/* a new slab in slot @to on @target: MAP asked */
	EC_MV_COPY,	/* mapped: the split's current pages copied there */
	EC_MV_DRAIN,	/* switched: the old slab drains, then UNMAP */
	EC_MV_DROP,	/* given up: the new slab given back once it can be */
};

struct ec_move {
	enum ec_move_state state;
	u32 j, target;
	int from, to;		/* copy slots of the split slab */
	u32 to_gen;		/* @to's generation once mapped (or taken) */
	u64 start, drain_until;	/* ms */
	u64 copied;		/* split pages copied */
	unsigned long *copied_map;	/* the core's mv_copied */
};

struct spare_ec_dev {
	struct spare_ec_map map;
	u8 gshift;		/* a coding group holds 2^gshift bytes */
	spinlock_t *glock;	/* [nr_groups] */
	struct ec_split *sp;	/* [nr_groups * (K + R)] */
	struct ec_req *reqs;	/* [EC_SLOTS] */
	unsigned long busy[BITS_TO_LONGS(EC_SLOTS)];
	atomic_t refused;	/* a request waits for a slot */
	atomic64_t reads, writes, reads_decoded, late_dropped, eio_pages;
	atomic64_t writes_short;
	atomic64_t waits;	/* requests requeued behind a write in flight */
	atomic64_t repaired_pages, remapped;
	atomic64_t moved, moves_given_up, copied_pages;
	atomic64_t fills_deferred;	/* reads filled in read_fill_work() */
	struct ec_move *mv;	/* [nr_groups] */
	struct spare_dev *dev;
	/* the rebuild of lost splits (ec_rebuild_work()), in dev->wq */
	struct delayed_work rebuild_work;
	struct completion rb_done;
	bool stopping;
	bool all_current;
};

static u32 nsplits(const struct spare_dev *dev)
{
	return spare_ec_splits(&dev->cfg.ec);
}

/* an extent, or a repair range, is checked whole (split_crc_ok()) */
static_assert(SPARE_MAX_IO_BYTES / SPARE_EC_PAGE <= SPARE_EC_CHECK_PAGES);

/*
 * integrity=crc32c: split @j of pages [@first, @first + @n) of group @g,
 * read into @buf, against its checksums. The pages that do not match are
 * counted, treated as missing while K other splits are current (the
 * rebuild's next look rebuilds them) and logged once per group. False if
 * one did not match. Any context: RDMA completions call it.
 */
static bool split_crc_ok(struct spare_dev *dev, u32 g, u32 j, u32 first,
			 u32 n, const void *buf)
{
	struct spare_ec_dev *e = dev->ec;
	struct spare_ec_bad_log log;
	const struct spare_copy *cp;
	unsigned long flags;
	u32 s = g * nsplits(dev) + j, d;
	u64 bad;

	if (!dev->crc.crc)
		return true;
	bad = spare_ec_split_verify(&dev->crc, &e->map, g, j, first, n, buf,
				    spare_ec_split_bytes(&dev->cfg.ec),
				    spare_integrity_crc32c, dev->crc_tfm);
	if (!bad)
		return true;
	atomic64_add(hweight64(bad), &dev->stats.integrity_errors);
	spin_lock_irqsave(&e->glock[g], flags);
	spare_ec_split_demote(&dev->crc, &e->map, &e->map.groups[g], g, j,
			      first, bad, &log);
	spin_unlock_irqrestore(&e->glock[g], flags);
	if (!log.log)
		return false;
	cp = &dev->map.slabs[s].copy[e->sp[s].slot];
	d = READ_ONCE(cp->donor);
	pr_warn_ratelimited("%s: coding group %u: split %u of page %u (donor %s) failed its crc32c check; %s (logged once per group)\n",
			    dev->disk->disk_name, g, j, log.page,
			    d < dev->cfg.nr_donors ? dev->donors[d].name : "-",
			    log.demoted ? "treated as missing and rebuilt" :
			    "fewer than K other splits current: not used");
	return false;
}

/* ns since a traced read started; 0 when it is not traced */
static u32 since(const struct ec_req *req)
{
	return req->timed ? (u32)(ktime_get_ns() - req->t0) : 0;
}

/* A traced read whose every split completed: the spare_ec_read event. */
static void read_trace(struct ec_req *req)
{
	struct spare_ec_read_trace t = {};
	const struct ec_ext *ex = &req->ext[0];
	unsigned int i;

	t.disk = req->dev->disk->disk_name;
	t.group = ex->group;
	t.first = ex->first;
	t.n = ex->n;
	t.nr_ext = req->nr_ext;
	t.nr_ops = req->nr_ops;
	t.decoded = !!(ex->rd.missing & spare_ec_all(&req->dev->cfg.ec));
	for (i = 0; i < req->nr_ops && i < SPARE_EC_TRACE_OPS; i++) {
		const struct ec_op *op = &req->ops[i];

		t.split[i] = op->split;
		t.ok[i] = op->ok;
		t.post[i] = op->t_post;
		t.ret[i] = op->t_ret;
		t.done[i] = op->t_done;
	}
	t.kth = req->t_kth;
	t.fill = req->t_fill;
	t.end = req->t_end;
	t.last = since(req);
	trace_spare_ec_read(&t);
}

static void stats_add(struct spare_ec_dev *e, const struct spare_ec_stats *st)
{
	if (st->reads_decoded)
		atomic64_add(st->reads_decoded, &e->reads_decoded);
	if (st->late_dropped)
		atomic64_add(st->late_dropped, &e->late_dropped);
	if (st->eio_pages)
		atomic64_add(st->eio_pages, &e->eio_pages);
	if (st->writes_short)
		atomic64_add(st->writes_short, &e->writes_short);
}

/*
 * Splits of group @g that are gone since the device came up: marked lost
 * in the core, never posted again. Group lock held.
 */
static void sync_lost(struct spare_dev *dev, u32 g)
{
	struct spare_ec_dev *e = dev->ec;
	struct spare_ec_group *grp = &e->map.groups[g];
	u32 n = nsplits(dev), j;

	for (j = 0; j < n; j++) {
		struct ec_split *sp = &e->sp[g * n + j];
		struct spare_slab *slab = &dev->map.slabs[g * n + j];
		struct spare_copy *cp = &slab->copy[sp->slot];
		unsigned long flags;
		bool gone;

		if (grp->lost & (1U << j))
			continue;
		spin_lock_irqsave(&slab->lock, flags);
		gone = !sp->ok || cp->state != SPARE_COPY_MAPPED ||
		       cp->gen != sp->gen;
		spin_unlock_irqrestore(&slab->lock, flags);
		if (gone) {
			spare_ec_split_lost(&e->map, grp, j);
			pr_warn_ratelimited("%s: coding group %u: split %u lost (donor %s), its pages read from the other splits\n",
					    dev->disk->disk_name, g, j,
					    cp->donor < dev->cfg.nr_donors ?
					    dev->donors[cp->donor].name : "-");
		}
	}
}

/*
 * Op @x of @req on split @j of extent @ext: its queue, remote address and
 * DMA mapping. The copy's in-flight count is raised under its lock, as
 * the replicas path does, so that an eviction waits for it. False when
 * the split cannot be posted now (its copy changed, no queue, no mapping).
 */
static bool op_prepare(struct ec_req *req, unsigned int x, unsigned int ext,
		       u32 j, struct spare_queue **qp, u64 *raddr, u32 *rkey)
{
	struct spare_dev *dev = req->dev;
	struct spare_ec_dev *e = dev->ec;
	struct ec_ext *ex = &req->ext[ext];
	struct ec_op *op = &req->ops[x];
	u32 n = nsplits(dev), sb = spare_ec_split_bytes(&dev->cfg.ec);
	struct ec_split *sp = &e->sp[ex->group * n + j];
	struct spare_slab *slab = &dev->map.slabs[ex->group * n + j];
	bool own = !req->rebuild || req->rb_slot < 0;
	struct spare_copy *cp;
	struct spare_queue *q;
	unsigned long flags;
	bool ok;

	op->req = req;
	op->ext = ext;
	op->split = j;
	op->slab = ex->group * n + j;
	op->len = ex->n * sb;
	op->dma = 0;
	spin_lock_irqsave(&slab->lock, flags);
	op->slot = own ? sp->slot : req->rb_slot;
	cp = &slab->copy[op->slot];
	ok = cp->state == SPARE_COPY_MAPPED &&
	     (own ? sp->ok && cp->gen == sp->gen : cp->gen == req->rb_gen);
	if (ok) {
		q = spare_data_queue(&dev->donors[cp->donor], req->hctx);
		ok = !IS_ERR_OR_NULL(q);
	}
	if (ok) {
		*raddr = cp->addr + spare_ec_split_off(&dev->cfg.ec, ex->first);
		*rkey = cp->rkey;
		cp->inflight++;
	}
	spin_unlock_irqrestore(&slab->lock, flags);
	if (!ok)
		return false;
	op->ibdev = q->cm_id->device;
	op->dma = ib_dma_map_single(op->ibdev,
				    (u8 *)req->region[j] + ex->pidx * sb,
				    op->len, req->write ? DMA_TO_DEVICE :
							  DMA_FROM_DEVICE);
	if (ib_dma_mapping_error(op->ibdev, op->dma)) {
		op->dma = 0;
		spin_lock_irqsave(&slab->lock, flags);
		cp->inflight--;
		spin_unlock_irqrestore(&slab->lock, flags);
		return false;
	}
	*qp = q;
	return true;
}

/* The copy's in-flight count down, the DMA mapping gone. */
static void op_release(struct ec_req *req, struct ec_op *op)
{
	struct spare_dev *dev = req->dev;
	struct spare_slab *slab = &dev->map.slabs[op->slab];
	struct spare_copy *cp = &slab->copy[op->slot];
	unsigned long flags;
	bool wake;

	ib_dma_unmap_single(op->ibdev, op->dma, op->len,
			    req->write ? DMA_TO_DEVICE : DMA_FROM_DEVICE);
	spin_lock_irqsave(&slab->lock, flags);
	wake = !--cp->inflight && cp->state == SPARE_COPY_EVICTING;
	spin_unlock_irqrestore(&slab->lock, flags);
	if (wake)
		wake_up_all(&dev->inflight_wait);
}

static void op_done(struct ib_cq *cq, struct ib_wc *wc);
static void req_put(struct ec_req *req);

/*
 * Post split @j of extent @ext as op @x. True when posted: its completion
 * (op_done()) follows. False: nothing posted, nothing held.
 */
static bool op_post(struct ec_req *req, unsigned int x, unsigned int ext,
		    u32 j)
{
	struct ec_op *op = &req->ops[x];
	struct ib_rdma_wr wr = {};
	struct spare_queue *q;
	struct ib_sge sge;
	int ret;

	if (!op_prepare(req, x, ext, j, &q, &wr.remote_addr, &wr.rkey))
		return false;
	op->cqe.done = op_done;
	sge.addr = op->dma;
	sge.length = op->len;
	sge.lkey = q->donor->pd->local_dma_lkey;
	wr.wr.wr_cqe = &op->cqe;
	wr.wr.sg_list = &sge;
	wr.wr.num_sge = 1;
	wr.wr.opcode = req->write ? IB_WR_RDMA_WRITE : IB_WR_RDMA_READ;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	atomic_inc(&req->pending);
	op->t_post = since(req);
	ret = ib_post_send(q->qp, &wr.wr, NULL);
	op->t_ret = since(req);
	if (ret) {
		atomic_dec(&req->pending);
		op_release(req, op);
		pr_warn_ratelimited("donor %s: posting RDMA %s of a split failed: %d\n",
				    q->donor->name,
				    req->write ? "WRITE" : "READ", ret);
		spare_donor_error(q->donor, "post failed");
		return false;
	}
	return true;
}

/*
 * Walk the request's 4 KiB pages: @fn(req, ext, page index in the
 * request, page address). The disk's limits make every segment whole
 * 4 KiB blocks; a segment that is not fails the request.
 */
static int walk_pages(struct ec_req *req,
			 void (*fn)(struct ec_req *req, unsigned int ext,
				    u32 rp, void *page))
{
	struct req_iterator iter;
	struct bio_vec bv;
	u32 rp = 0;

	rq_for_each_segment(bv, req->rq, iter) {
		u32 off;

		if (bv.bv_len % SPARE_EC_PAGE)
			return -EIO;
		for (off = 0; off < bv.bv_len; off += SPARE_EC_PAGE, rp++) {
			unsigned int x;
			void *p;

			for (x = 0; x < req->nr_ext; x++)
				if (rp >= req->ext[x].pidx &&
				    rp < req->ext[x].pidx + req->ext[x].n)
					break;
			if (x == req->nr_ext)
				return -EIO;
			p = kmap_local_page(bv.bv_page);
			fn(req, x, rp, (u8 *)p + bv.bv_offset + off);
			kunmap_local(p);
		}
	}
	return 0;
}

/* A page's data splits into the regions, its parity computed there. */
static void page_encode(struct ec_req *req, unsigned int ext, u32 rp,
			void *page)
{
	struct spare_dev *dev = req->dev;
	const struct spare_ec_geom *g = &dev->cfg.ec;
	u32 sb = spare_ec_split_bytes(g), j;
	void *split[SPARE_EC_MAX_SPLITS];

	for (j = 0; j < spare_ec_splits(g); j++)
		split[j] = (u8 *)req->region[j] + rp * sb;
	for (j = 0; j < g->k; j++)
		memcpy(split[j], (u8 *)page + j * sb, sb);
	spare_ec_encode(g, page, split + g->k);
	if (dev->crc.crc) {	/* integrity=crc32c: each split's, as sent */
		const struct ec_ext *ex = &req->ext[ext];

		spare_ec_split_set(&dev->crc, &dev->ec->map, ex->group,
				   ex->first + (rp - ex->pidx), split, sb,
				   spare_integrity_crc32c, dev->crc_tfm);
	}
}

/* Extent @ext's page, from its K data splits or decoded from K splits. */
static void page_fill(struct ec_req *req, unsigned int ext, u32 rp,
		      void *page)
{
	const struct spare_ec_geom *g = &req->dev->cfg.ec;
	struct ec_ext *ex = &req->ext[ext];
	u32 sb = spare_ec_split_bytes(g), n = spare_ec_splits(g), j;
	void *ptrs[SPARE_EC_MAX_SPLITS];
	u16 missing = ex->rd.missing & spare_ec_all(g);

	if (!ex->finished || ex->failed)
		return;
	if (!ex->rd.posted) {		/* never written: zeros */
		memset(page, 0, SPARE_EC_PAGE);
		return;
	}
	for (j = 0; j < n; j++)
		ptrs[j] = missing & (1U << j) ? (u8 *)req->scratch + j * sb :
			  (u8 *)req->region[j] + rp * sb;
	if (missing && spare_ec_recover(g, ptrs, missing)) {
		ex->failed = true;	/* cannot happen: K arrived */
		return;
	}
	for (j = 0; j < g->k; j++)
		memcpy((u8 *)page + j * sb, ptrs[j], sb);
}

static void log_eio(struct ec_req *req, struct ec_ext *ex)
{
	struct spare_dev *dev = req->dev;
	struct spare_ec_group *grp = &dev->ec->map.groups[ex->group];
	unsigned long flags;
	char states[96];
	bool first;

	spin_lock_irqsave(&dev->ec->glock[ex->group], flags);
	first = spare_ec_eio_first(grp);
	if (first)
		spare_ec_eio_states(states, sizeof(states), &dev->ec->map, grp,
				    ex->first, ex->n);
	spin_unlock_irqrestore(&dev->ec->glock[ex->group], flags);
	if (first)
		pr_warn("%s: coding group %u: page %u: fewer than %u splits current, EIO (logged once per group; %s)\n",
			dev->disk->disk_name, ex->group, ex->first,
			dev->cfg.ec.k, states);
}

/*
 * Split @j of read extent @ext completed (@ok) or could not be posted:
 * the core's next step, and the posts it asks for. req->lock held.
 */
static void read_event(struct ec_req *req, unsigned int ext, u32 j, bool ok,
		       struct spare_ec_stats *st)
{
	struct ec_ext *ex = &req->ext[ext];

	for (;;) {
		enum spare_ec_read_act act;
		u32 post;

		act = spare_ec_read_done(&ex->rd, j, ok, &post, st);
		switch (act) {
		case SPARE_EC_POST:
			if (op_post(req, req->nr_ops, ext, post)) {
				req->nr_ops++;
				return;
			}
			j = post;	/* not posted: it failed too */
			ok = false;
			continue;
		case SPARE_EC_COPY:
		case SPARE_EC_DECODE:
			ex->finished = true;
			return;
		case SPARE_EC_EIO:
			ex->finished = true;
			ex->failed = true;
			log_eio(req, ex);
			return;
		default:
			return;
		}
	}
}

/* Whether filling @req's pages decodes (raid6_pq or xor_blocks: the FPU). */
static bool read_decodes(const struct ec_req *req)
{
	u16 all = spare_ec_all(&req->dev->cfg.ec);
	unsigned int x;

	for (x = 0; x < req->nr_ext; x++) {
		const struct ec_ext *ex = &req->ext[x];

		if (!ex->failed && ex->rd.posted && (ex->rd.missing & all))
			return true;
	}
	return false;
}

/* A read whose extents all finished: its pages out, the request ended. */
static void read_end(struct ec_req *req)
{
	struct request *rq = req->rq;
	blk_status_t st = BLK_STS_OK;
	unsigned int x;

	req->t_kth = since(req);
	if (walk_pages(req, page_fill))
		st = BLK_STS_IOERR;
	req->t_fill = since(req);
	for (x = 0; x < req->nr_ext; x++)
		if (req->ext[x].failed)
			st = BLK_STS_IOERR;
	req->rq = NULL;
	if (st)
		atomic64_inc(&req->dev->stats.io_errors);
	else
		atomic64_add(blk_rq_bytes(rq), &req->dev->stats.bytes_read);
	blk_mq_end_request(rq, st);
	req->t_end = since(req);
}

/*
 * Every extent of a read finished: its pages filled and the request ended,
 * here or, when the fill decodes and the FPU is not ours to take (an RDMA
 * completion in softirq that interrupted a kernel_fpu_begin() section on
 * this CPU: raid6_pq and xor_blocks take it without asking), in
 * read_fill_work(), which holds a reference of the request until it has
 * ended it. req->lock held, the caller holding a reference.
 */
static void read_maybe_end(struct ec_req *req)
{
	unsigned int x;

	if (!req->rq || req->fill_queued)
		return;
	for (x = 0; x < req->nr_ext; x++)
		if (!req->ext[x].finished)
			return;
	if (READ_ONCE(ec_defer_fill) ||
	    (read_decodes(req) && !may_use_simd())) {
		req->fill_queued = true;
		atomic_inc(&req->pending);
		atomic64_inc(&req->dev->ec->fills_deferred);
		queue_work(req->dev->wq, &req->fill_work);
		return;
	}
	read_end(req);
}

/*
 * A read's fill and end, in task context (read_maybe_end()): the
 * completions of its late splits may come meanwhile, and find it queued.
 */
static void read_fill_work(struct work_struct *w)
{
	struct ec_req *req = container_of(w, struct ec_req, fill_work);
	unsigned long flags;

	spin_lock_irqsave(&req->lock, flags);
	if (req->rq)
		read_end(req);
	req->fill_queued = false;
	spin_unlock_irqrestore(&req->lock, flags);
	req_put(req);
}

/*
 * The write completes (every extent spare_ec_write_ready()): the core
 * marks the splits that landed, and the request ends; splits still in
 * flight keep the slot until write_end().
 */
static void write_complete(struct ec_req *req)
{
	struct spare_dev *dev = req->dev;
	struct spare_ec_dev *e = dev->ec;
	struct spare_ec_stats st = {};
	struct request *rq = req->rq;
	blk_status_t bs = BLK_STS_OK;
	unsigned int x;

	for (x = 0; x < req->nr_ext; x++) {
		struct ec_ext *ex = &req->ext[x];
		unsigned long flags;
		int ret;

		spin_lock_irqsave(&e->glock[ex->group], flags);
		ret = spare_ec_write_commit(&e->map, &e->map.groups[ex->group],
					    &ex->wr, &st);
		spin_unlock_irqrestore(&e->glock[ex->group], flags);
		if (ret) {
			bs = BLK_STS_IOERR;
			pr_warn_ratelimited("%s: coding group %u: write of pages %u+%u landed on fewer than %u splits, EIO\n",
					    dev->disk->disk_name, ex->group,
					    ex->first, ex->n, dev->cfg.ec.k);
		}
	}
	stats_add(e, &st);
	req->rq = NULL;
	if (bs)
		atomic64_inc(&dev->stats.io_errors);
	else
		atomic64_add(blk_rq_bytes(rq), &dev->stats.bytes_written);
	blk_mq_end_request(rq, bs);
	/* a read of these pages waits no more (a write: until write_end()) */
	if (atomic_read(&e->refused) && atomic_xchg(&e->refused, 0))
		blk_mq_run_hw_queues(dev->disk->queue, true);
}

/*
 * A write completes once K splits of every extent landed (issue 34): the
 * others may be on a dead donor, whose operations end only when its
 * queue is torn down. req->lock held; not while the write is posting.
 */
static void write_maybe_complete(struct ec_req *req)
{
	unsigned int x;

	if (!req->rq || req->posting)
		return;
	for (x = 0; x < req->nr_ext; x++)
		if (!spare_ec_write_ready(&req->ext[x].wr))
			return;
	write_complete(req);
}

/*
 * Every split of a write completed: the late ones that landed are
 * marked, those that did not wait for the rebuild.
 */
static void write_end(struct ec_req *req)
{
	struct spare_ec_dev *e = req->dev->ec;
	struct spare_ec_stats st = {};
	unsigned int x;

	if (req->rq)
		write_complete(req);
	for (x = 0; x < req->nr_ext; x++) {
		struct ec_ext *ex = &req->ext[x];
		unsigned long flags;

		spin_lock_irqsave(&e->glock[ex->group], flags);
		spare_ec_write_end(&e->map, &e->map.groups[ex->group],
				   &ex->wr, &st);
		spin_unlock_irqrestore(&e->glock[ex->group], flags);
	}
	stats_add(e, &st);
}

/* The slot is free again; a request refused for want of one runs. */
static void req_release(struct ec_req *req)
{
	struct spare_dev *dev = req->dev;
	struct spare_ec_dev *e = dev->ec;

	clear_bit(req - e->reqs, e->busy);
	smp_mb__after_atomic();	/* free before the flag; pairs with slot_get() */
	if (atomic_read(&e->refused) && atomic_xchg(&e->refused, 0))
		blk_mq_run_hw_queues(dev->disk->queue, true);
}

/* Drop one reference of @req; the last ends a write, frees the slot. */
static void req_put(struct ec_req *req)
{
	if (!atomic_dec_and_test(&req->pending))
		return;
	if (req->write)
		write_end(req);
	if (!req->write && req->rq) {
		unsigned long flags;
		bool queued;

		/* nothing more can come: a read short of K is EIO */
		spin_lock_irqsave(&req->lock, flags);
		read_maybe_end(req);
		queued = req->fill_queued;	/* by this call: none held one */
		spin_unlock_irqrestore(&req->lock, flags);
		/* read_fill_work() ends it and puts the reference it took */
		if (queued)
			return;
		if (req->rq) {
			struct request *rq = req->rq;

			req->rq = NULL;
			blk_mq_end_request(rq, BLK_STS_IOERR);
		}
	}
	if (req->timed)
		read_trace(req);
	req_release(req);
}

static void op_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ec_op *op = container_of(wc->wr_cqe, struct ec_op, cqe);
	struct ec_req *req = op->req;
	bool ok = wc->status == IB_WC_SUCCESS;

	op->t_done = since(req);
	op->ok = ok;
	op_release(req, op);
	if (!ok) {
		struct spare_dev *dev = req->dev;
		struct spare_copy *cp = &dev->map.slabs[op->slab].copy[op->slot];
		u32 d = READ_ONCE(cp->donor);

		if (wc->status != IB_WC_WR_FLUSH_ERR)
			pr_warn_ratelimited("%s: RDMA %s of split %u of coding group %u failed: %s\n",
					    dev->disk->disk_name,
					    req->write ? "WRITE" : "READ",
					    op->split, req->ext[op->ext].group,
					    ib_wc_status_msg(wc->status));
		if (d < dev->cfg.nr_donors)
			spare_donor_error(&dev->donors[d],
					  "RDMA operation failed");
	}
	if (req->rebuild) {
		if (!ok)
			WRITE_ONCE(req->rb_failed, true);
		if (atomic_dec_and_test(&req->pending))
			complete(&req->dev->ec->rb_done);
		return;
	}
	if (req->write) {
		unsigned long flags;

		spin_lock_irqsave(&req->lock, flags);
		spare_ec_write_done(&req->ext[op->ext].wr, op->split, ok);
		write_maybe_complete(req);
		spin_unlock_irqrestore(&req->lock, flags);
	} else {
		struct ec_ext *ex = &req->ext[op->ext];
		struct spare_ec_stats st = {};
		unsigned long flags;

		/*
		 * integrity=crc32c: a split that does not match is as one
		 * that failed; a late one too is checked (still in the slot),
		 * so that it is rebuilt
		 */
		if (ok)
			ok = split_crc_ok(req->dev, ex->group, op->split,
					  ex->first, ex->n,
					  (u8 *)req->region[op->split] +
					  ex->pidx * spare_ec_split_bytes(&req->dev->cfg.ec));
		spin_lock_irqsave(&req->lock, flags);
		read_event(req, op->ext, op->split, ok, &st);
		read_maybe_end(req);
		spin_unlock_irqrestore(&req->lock, flags);
		stats_add(req->dev->ec, &st);
	}
	req_put(req);
}

/* A free bounce slot, or NULL: the caller answers BLK_STS_RESOURCE. */
static struct ec_req *slot_get(struct spare_ec_dev *e)
{
	int tries;

	for (tries = 0; tries < 2; tries++) {
		unsigned int i;

		for_each_clear_bit(i, e->busy, EC_SLOTS)
			if (!test_and_set_bit(i, e->busy))
				return &e->reqs[i];
		if (tries)
			break;
		atomic_set(&e->refused, 1);
		smp_mb();	/* flag before the retry; pairs with req_release() */
	}
	return NULL;
}

/*
 * Whether every split the request may post has a connected data queue;
 * false while one is still connecting (the request is tried again).
 */
static bool queues_ready(struct spare_dev *dev, struct ec_req *req)
{
	u32 n = nsplits(dev), j;
	unsigned int x;

	for (x = 0; x < req->nr_ext; x++)
		for (j = 0; j < n; j++) {
			u32 s = req->ext[x].group * n + j;
			struct spare_copy *cp =
				&dev->map.slabs[s].copy[dev->ec->sp[s].slot];
			u32 d = READ_ONCE(cp->donor);

			if (d < dev->cfg.nr_donors &&
			    READ_ONCE(cp->state) == SPARE_COPY_MAPPED &&
			    PTR_ERR_OR_ZERO(spare_data_queue(&dev->donors[d],
							     req->hctx)) == -EAGAIN)
				return false;
		}
	return true;
}

static void ec_write_start(struct spare_dev *dev, struct ec_req *req)
{
	struct spare_ec_dev *e = dev->ec;
	u32 n = nsplits(dev), j;
	unsigned int x;

	for (x = 0; x < req->nr_ext; x++) {
		struct ec_ext *ex = &req->ext[x];
		struct spare_ec_group *grp = &e->map.groups[ex->group];
		unsigned long flags;
		u16 posted;

		spin_lock_irqsave(&e->glock[ex->group], flags);
		sync_lost(dev, ex->group);
		posted = spare_ec_write_begin(&e->map, grp, ex->first, ex->n,
					      &ex->wr);
		spin_unlock_irqrestore(&e->glock[ex->group], flags);
		for (j = 0; j < n; j++) {
			if (!(posted & (1U << j)))
				continue;
			if (op_post(req, req->nr_ops, x, j)) {
				req->nr_ops++;
				continue;
			}
			spin_lock_irqsave(&req->lock, flags);
			spare_ec_write_done(&ex->wr, j, false);
			spin_unlock_irqrestore(&req->lock, flags);
		}
	}
}

static void ec_read_start(struct spare_dev *dev, struct ec_req *req)
{
	struct spare_ec_stats st = {};
	unsigned long flags;
	unsigned int x;
	u32 j;

	/* under req->lock: completions of the first posts may come now */
	spin_lock_irqsave(&req->lock, flags);
	for (x = 0; x < req->nr_ext; x++) {
		struct ec_ext *ex = &req->ext[x];

		if (ex->plan) {
			ex->finished = true;
			ex->failed = ex->plan < 0;
			if (ex->plan < 0)
				log_eio(req, ex);
			continue;
		}
		for (j = 0; j < nsplits(dev); j++) {
			if (!(ex->post & (1U << j)))
				continue;
			if (op_post(req, req->nr_ops, x, j))
				req->nr_ops++;
			else
				read_event(req, x, j, false, &st);
		}
	}
	read_maybe_end(req);
	spin_unlock_irqrestore(&req->lock, flags);
	stats_add(dev->ec, &st);
}

/*
 * Whether the request waits for a write in flight over one of its pages
 * (spare_ec_writing(): until K of its splits landed) or, for a write, for
 * a completed write's late splits (spare_ec_write_waits()): a read of
 * those pages would find them current on no split, and a second write of
 * them would race the first's marks. A
 * read is planned here, each extent under its group's lock, so that one
 * that waits has posted nothing; its EIO pages are counted when it goes.
 */
static bool ec_must_wait(struct spare_dev *dev, struct ec_req *req)
{
	struct spare_ec_dev *e = dev->ec;
	struct spare_ec_stats st = {};
	unsigned int x;

	for (x = 0; x < req->nr_ext; x++) {
		struct ec_ext *ex = &req->ext[x];
		struct spare_ec_group *grp = &e->map.groups[ex->group];
		unsigned long flags;
		bool wait;

		spin_lock_irqsave(&e->glock[ex->group], flags);
		if (req->write) {
			wait = spare_ec_write_waits(&e->map, grp, ex->first,
						    ex->n);
		} else {
			sync_lost(dev, ex->group);
			ex->plan = spare_ec_read_plan(&e->map, grp, ex->first,
						      ex->n, &ex->rd, &ex->post,
						      &st);
			wait = ex->plan == -EAGAIN;
		}
		spin_unlock_irqrestore(&e->glock[ex->group], flags);
		if (wait)
			return true;
	}
	stats_add(e, &st);
	return false;
}

/*
 * The rebuild of lost splits (Documentation/erasure-coding.md, "spare.ko"):
 * every EC_REBUILD_MS, in dev->wq, never in ->queue_rq(). A lost split
 * whose slab is MAPPED again (its donor back, its copy re-mapped) is taken
 * at its new generation, empty (spare_ec_split_mapped()); then the core's
 * repair plan names ranges of its pages and K current sources: K RDMA
 * READs into the rebuild's own slot, spare_ec_recover() page by page, one
 * RDMA WRITE, spare_ec_repair_end() (which marks nothing where a write or
 * a loss came meanwhile). The work sleeps only on its own completion.
 */

/* Lost splits of group @g whose slab is MAPPED again. Group lock held. */
static void split_remap(struct spare_dev *dev, u32 g)
{
	struct spare_ec_dev *e = dev->ec;
	struct spare_ec_group *grp = &e->map.groups[g];
	u32 n = nsplits(dev), j, c;

	for (j = 0; j < n; j++) {
		struct ec_split *sp = &e->sp[g * n + j];
		struct spare_slab *slab = &dev->map.slabs[g * n + j];
		unsigned long flags;
		u32 donor = U32_MAX;

		if (!(grp->lost & (1U << j)))
			continue;
		spin_lock_irqsave(&slab->lock, flags);
		for (c = 0; c < dev->map.nr_slots; c++)
			if (slab->copy[c].state == SPARE_COPY_MAPPED) {
				sp->slot = c;
				sp->gen = slab->copy[c].gen;
				sp->ok = true;
				donor = slab->copy[c].donor;
				break;
			}
		spin_unlock_irqrestore(&slab->lock, flags);
		if (donor == U32_MAX)
			continue;
		spare_ec_split_mapped(&e->map, grp, j);
		atomic64_inc(&e->remapped);
		pr_info("%s: coding group %u: split %u mapped again (donor %s): rebuilding its pages from %u others\n",
			dev->disk->disk_name, g, j,
			donor < dev->cfg.nr_donors ? dev->donors[donor].name : "-",
			dev->cfg.ec.k);
	}
}

/*
 * The splits of @mask of the rebuild slot's extent, read or written, on
 * each split's slab (@slot -1), or on copy slot @slot at generation @gen
 * (a move's new slab); true when every one completed without error.
 */
static bool rb_rdma(struct spare_dev *dev, u16 mask, bool write, int slot,
		    u32 gen)
{
	struct spare_ec_dev *e = dev->ec;
	struct ec_req *req = &e->reqs[EC_SLOTS];
	u32 j;

	reinit_completion(&e->rb_done);
	req->rb_slot = slot;
	req->rb_gen = gen;
	req->write = write;
	req->nr_ops = 0;
	WRITE_ONCE(req->rb_failed, false);
	atomic_set(&req->pending, 1);
	for (j = 0; j < nsplits(dev); j++) {
		if (!(mask & (1U << j)))
			continue;
		if (op_post(req, req->nr_ops, 0, j))
			req->nr_ops++;
		else
			WRITE_ONCE(req->rb_failed, true);
	}
	if (!atomic_dec_and_test(&req->pending))
		wait_for_completion(&e->rb_done);
	return !READ_ONCE(req->rb_failed);
}

/*
 * Rebuild split @j of group @g, range after range of the repair plan. 0:
 * nothing more to rebuild there; 1: a range could not be done now (a
 * donor down or connecting, a write or a loss came meanwhile).
 */
static int repair_split(struct spare_dev *dev, u32 g, u32 j)
{
	struct spare_ec_dev *e = dev->ec;
	struct spare_ec_group *grp = &e->map.groups[g];
	const struct spare_ec_geom *geo = &dev->cfg.ec;
	struct ec_req *req = &e->reqs[EC_SLOTS];
	u32 n = nsplits(dev), sb = spare_ec_split_bytes(geo);
	u32 max = SPARE_MAX_IO_BYTES / SPARE_EC_PAGE;
	u32 from = 0, wraps = 0, i, p;
	int again = 0;

	for (;;) {
		struct spare_ec_stats st = {};
		struct spare_ec_repair rep;
		unsigned long flags;
		bool ok, marked;
		int ret;

		if (READ_ONCE(e->stopping))
			return 1;
		spin_lock_irqsave(&e->glock[g], flags);
		ret = spare_ec_repair_begin(&e->map, grp, j, from, max, &rep);
		if (ret == -ENOENT && !from)
			spare_ec_repair_idle(grp, j);
		spin_unlock_irqrestore(&e->glock[g], flags);
		if (ret == -ENOENT && from && ++wraps <= 2) {
			from = 0;	/* pages a write spoiled come round again */
			continue;
		}
		if (ret)
			return ret == -ENOENT && !from ? again : 1;
		req->nr_ext = 1;
		req->hctx = 0;
		req->ext[0] = (struct ec_ext){ .group = g, .first = rep.first,
					       .n = rep.n };
		ok = rb_rdma(dev, rep.src, false, -1, 0);
		/*
		 * The CRCs and the decode use the FPU (crc32c-intel, raid6's
		 * AVX2); a read's decode runs in softirq (page_fill()) and
		 * raid6 does not check that the FPU is free: no softirq here.
		 */
		local_bh_disable();
		/* integrity=crc32c: a bad source is demoted; its pages later */
		for (i = 0; ok && i < n; i++)
			if (rep.src & (1U << i))
				ok = split_crc_ok(dev, g, i, rep.first, rep.n,
						  req->region[i]);
		for (p = 0; ok && p < rep.n; p++) {
			void *ptr[SPARE_EC_MAX_SPLITS];

			for (i = 0; i < n; i++)
				ptr[i] = (u8 *)req->region[i] + p * sb;
			ok = !spare_ec_recover(geo, ptr,
					       spare_ec_all(geo) & ~rep.src);
		}
		local_bh_enable();
		if (ok)
			ok = rb_rdma(dev, 1U << j, true, -1, 0);
		spin_lock_irqsave(&e->glock[g], flags);
		sync_lost(dev, g);	/* a loss meanwhile spoils the range */
		marked = spare_ec_repair_end(&e->map, grp, &rep, ok, &st);
		spin_unlock_irqrestore(&e->glock[g], flags);
		if (!marked && !ok)
			return 1;
		if (marked)
			atomic64_add(rep.n, &e->repaired_pages);
		else
			again = 1;	/* a write came: those pages again */
		from = rep.first + rep.n;
	}
}

/*
 * Re-home (Documentation/erasure-coding.md, "Re-home"): a donor down the
 * device's rehome_delay_ms gives its split slabs up from its rehome work
 * (spare_donor_rehome_work()), one by one through spare_ec_rehome().
 */

/* The donor of split slab @s now, or SPARE_NO_DONOR. Without its lock. */
static u32 split_donor(const struct spare_slab_map *map, u32 s)
{
	u32 c, dn;

	for (c = 0; c < map->nr_slots; c++) {
		dn = READ_ONCE(map->slabs[s].copy[c].donor);
		if (dn != SPARE_NO_DONOR)
			return dn;
	}
	return SPARE_NO_DONOR;
}

/*
 * What the device's unexpired grants cover on each of its @nd donors, 0
 * where it holds none; false (@cover untouched) when it holds no grant at
 * all: a device placed by hand, without a broker.
 */
static bool ec_grant_cover(struct spare_dev *dev, u32 nd, u32 *cover)
{
	u32 i;

	if (!READ_ONCE(dev->nr_grants))
		return false;
	for (i = 0; i < nd; i++) {
		s64 c = spare_grants_cover(dev,
			(const struct sockaddr_in *)&dev->donors[i].addr);

		cover[i] = c == SPARE_ROOM_OPEN ? 0 : (u32)min_t(s64, c, U32_MAX);
	}
	return true;
}

/*
 * The donor split @j of group @g goes to (the core's
 * spare_ec_rehome_pick_granted()): live and not in @exclude (a mask of
 * donors), holding no other split of the group, in a failure domain none
 * of them uses where the donors are in more than one; splits whose donors
 * are down hold nothing; of those, the donor of the fewest split slabs.
 * A device under a broker's grants takes only a donor it holds a grant
 * for, one whose grants cover one more split slab than it holds first
 * (*@roomy false when the pick's are used up). -ENOSPC when only donors
 * without a grant fit, another negative errno if none fits.
 */
static int ec_pick(struct spare_dev *dev, u32 g, u32 j, u32 exclude,
		   bool *roomy)
{
	struct spare_slab_map *map = &dev->map;
	u32 n = nsplits(dev), i, k, c, ok = 0;
	u32 group[SPARE_EC_MAX_SPLITS], load[SPARE_MAX_DONORS] = {};
	u32 cover[SPARE_MAX_DONORS];
	/* pairs with the store-release of each count when it grows */
	u32 nr_domain = smp_load_acquire(&dev->cfg.nr_domains);
	/* the same pairing for the donors' count */
	u32 nd = min_t(u32, smp_load_acquire(&dev->cfg.nr_donors),
		       SPARE_MAX_DONORS);
	const u16 *domain = nr_domain ? dev->cfg.domain : NULL;
	bool granted = ec_grant_cover(dev, nd, cover);
	u16 gone = 0;

	for (i = 0; i < nd; i++)
		if (donor_live(&dev->donors[i]) && !(exclude & BIT(i)))
			ok |= BIT(i);
	/* every slot: a moving split's new slab takes grant room too */
	for (i = 0; i < map->nr_slabs; i++)
		for (c = 0; c < map->nr_slots; c++) {
			u32 dn = READ_ONCE(map->slabs[i].copy[c].donor);

			if (dn < nd)
				load[dn]++;
		}
	for (k = 0; k < n; k++) {
		group[k] = split_donor(map, g * n + k);
		if (group[k] >= nd || !donor_live(&dev->donors[group[k]]))
			gone |= 1U << k;	/* down with its donor too */
	}
	return spare_ec_rehome_pick_granted(&dev->cfg.ec, nd, domain, group, j,
					    gone, ok, load,
					    granted ? cover : NULL, roomy);
}

/**
 * spare_ec_rehome() - split slab @s on donor @d, down the device's
 * rehome_delay_ms, goes to another donor
 * @d: the donor that stays down (its rehome work)
 * @s: a split slab it holds
 *
 * The donor is the core's spare_ec_rehome_pick(): live, holding no other
 * split of the group (and in a domain none of them uses, where the
 * donors are in more than one), the fewest split slabs. The slab goes
 * there empty (spare_slab_rehome_split()); the caller queues that donor's
 * map work, and once MAPPED the rebuild work takes it at its new
 * generation and rebuilds its pages from K others (split_remap(),
 * repair_split()). The old slab is forgotten: it went with @d's session
 * (an ec device asks no donor to hold its slabs).
 *
 * Return: the donor it goes to, or NULL when it waits (no donor takes it,
 * @d is back, or the copy's failure road is not over).
 */
struct spare_donor *spare_ec_rehome(struct spare_donor *d, u32 s)
{
	struct spare_dev *dev = d->dev;
	struct spare_slab_map *map = &dev->map;
	u32 n = nsplits(dev), g = s / n, j = s % n;
	unsigned long flags;
	bool roomy;
	int t, to;

	if (!dev->ec || s >= map->nr_slabs)
		return NULL;
	t = ec_pick(dev, g, j, 0, &roomy);
	/*
	 * Under grants, a split no donor of the device can take waits for
	 * one a broker gives: sparectl device monitor asks for it on the
	 * slab_moving uevent (naming the split slab and the donor it was
	 * lost on), adds it with its grant, and the next pass takes it.
	 */
	if (spare_ec_wait_donor(&dev->ec->sp[s].donor_wait, t,
				READ_ONCE(dev->nr_grants),
				READ_ONCE(d->life.down_since) | 1 /* not 0 */)) {
		pr_info("%s: coding group %u: split %u lost on donor %s waits for a donor: %s; asking for one (slab_moving)\n",
			dev->disk->disk_name, g, j, d->name, t == -ENOSPC ?
			"none outside the group and its failure domains that the device holds a grant for" :
			"every live donor holds a split of the group or shares its failure domain");
		spare_uevent(dev, "slab_moving", d, s);
	}
	if (t < 0)
		return NULL;
	spin_lock_irqsave(&map->slabs[s].lock, flags);
	/* as rehome_copy(): a donor back meanwhile keeps it */
	to = donor_live(d) ? -EAGAIN :
	     spare_slab_rehome_split(map, &map->slabs[s], d->idx, t);
	spin_unlock_irqrestore(&map->slabs[s].lock, flags);
	if (to < 0)
		return NULL;
	pr_info("%s: coding group %u: split %u re-homed from donor %s (down) to donor %s%s: rebuilt from %u others once mapped\n",
		dev->disk->disk_name, g, j, d->name, dev->donors[t].name,
		roomy ? "" : " (its grants there used up: the MAP is refused until the broker gives room)",
		dev->cfg.ec.k);
	return &dev->donors[t];
}

/**
 * spare_ec_moving() - the split slabs that wait for a donor the device
 * does not have, for sysfs "moving" (spare_sysfs.c)
 * @dev: the device
 * @text: where the lines go
 * @cap: its size: spare_ec_moving_cap()
 *
 * One line per split slab (the core's spare_moving_line(), as the
 * pager's NAME.moving): its re-home found no donor it may take under the
 * device's grants (spare_ec_wait_donor()) and it is still on the donor
 * it was lost on, down since that loss. sparectl device monitor reads it every round and
 * asks a broker for a donor (MOVE_REQ) for each, so a slab_moving uevent
 * nobody heard, or a refused MOVE_REQ, still gets the split a donor.
 *
 * Return: the length of the text.
 */
size_t spare_ec_moving(struct spare_dev *dev, char *text, size_t cap)
{
	struct spare_ec_dev *e = dev->ec;
	struct spare_slab_map *map = &dev->map;
	/* pairs with the store-release of the donors' count when it grows */
	u32 nd = min_t(u32, smp_load_acquire(&dev->cfg.nr_donors),
		       SPARE_MAX_DONORS);
	size_t len = 0;
	u32 s, dn;

	if (!e || !e->sp || !dev->donors)
		return 0;
	for (s = 0; s < map->nr_slabs && len + 1 < cap; s++) {
		u64 wait = READ_ONCE(e->sp[s].donor_wait);

		if (!wait)
			continue;
		dn = split_donor(map, s);
		/*
		 * Re-homed, or its donor is back; or down again since: a new
		 * loss waits its rehome_delay_ms before the rehome work
		 * looks (and says) again.
		 */
		if (dn >= nd || donor_live(&dev->donors[dn]) ||
		    (READ_ONCE(dev->donors[dn].life.down_since) | 1) != wait)
			continue;
		len += spare_moving_line(text + len, cap - len, s, dn,
					 dev->donors[dn].name);
		len = min(len, cap - 1);
	}
	return len;
}

/* What spare_ec_moving() may need: a line per split slab. */
size_t spare_ec_moving_cap(struct spare_dev *dev)
{
	return dev->ec ? (size_t)dev->map.nr_slabs * 96 + 1 : 1;
}

/*
 * Moves of an evicted split (Documentation/erasure-coding.md, "Moves of
 * an evicted split"): an EVICT of a split slab with a grace period does
 * not lose the split. The rebuild work maps a new slab on the donor
 * ec_pick() names (not the evictor), copies the split's current pages
 * there through the core's move (spare_ec_move_next(), _chunk_end():
 * one RDMA READ from the old slab, one WRITE to the new, no decode),
 * switches (spare_ec_move_switch(): the split's epoch moves, so a write
 * begun on the old slab marks nothing on the new one), lets the old slab
 * drain and only then gives it back (UNMAP). The split stays current
 * throughout and is read and written on its old slab until the switch. A
 * move that cannot end by 3/4 of the grace period, finds no donor, whose
 * MAP is refused, or whose old or new slab is lost, gives up: the EVICT
 * goes the old way (evict_slab(): the split lost, decoded around, given
 * back, rebuilt once mapped again) and a new slab is given back.
 */

/**
 * spare_ec_evict() - donor @d asked split slab @s back (EVICT)
 * @d: the evicting donor (its evict work)
 * @s: the split slab
 *
 * Return: true when the split moves by copy (or already does); false
 * when the caller gives it back the old way (no grace period, the split
 * not on @d or lost, or its move gave up).
 */
bool spare_ec_evict(struct spare_donor *d, u32 s)
{
	struct spare_dev *dev = d->dev;
	struct spare_ec_dev *e = dev->ec;
	u32 n = nsplits(dev), g = s / n, j = s % n;
	u32 grace = READ_ONCE(d->evict_deadline_ms);
	struct ec_split *sp = &e->sp[s];
	u64 now = spare_now_ms();
	unsigned long flags;
	bool move = false, again = false;

	spin_lock_irqsave(&e->glock[g], flags);
	if (sp->mv_old_way) {
		sp->mv_old_way = false;
	} else if (sp->mv_wanted) {
		again = move = true;
	} else if (grace && !READ_ONCE(e->stopping) &&
		   !(e->map.groups[g].lost & (1U << j)) &&
		   donor_copy(d, s) == sp->slot) {
		sp->mv_wanted = true;
		sp->mv_evictor = d->idx;
		/* three quarters of the grace period after the EVICT came */
		sp->mv_due = now - jiffies_to_msecs(jiffies - d->evict_at[s]) +
			     grace / 4 * 3;
		move = true;
	}
	spin_unlock_irqrestore(&e->glock[g], flags);
	if (again) {
		pr_info_ratelimited("donor %s: EVICT of split %u of coding group %u again while it moves; ignored\n",
				    d->name, j, g);
	} else if (move) {
		pr_info("donor %s: EVICT of split %u of coding group %u (grace %u ms): it moves by copy to another donor, then is given back\n",
			d->name, j, g, grace);
		mod_delayed_work(dev->wq, &e->rebuild_work, 0);
	}
	return move;
}

/* Split slab @s's EVICT by donor @ev goes the old way (its evict work). */
static void move_old_way(struct spare_dev *dev, u32 s, u32 ev)
{
	struct spare_donor *d = &dev->donors[ev];

	spin_lock_bh(&d->pending_lock);
	set_bit(s, d->evict_pending);
	spin_unlock_bh(&d->pending_lock);
	queue_work(dev->wq, &d->evict_work);
}

/*
 * A given-up move's new slab (EC_MV_DROP): given back once its MAP was
 * answered. Kept when the split took it as its slab meanwhile
 * (split_remap() after a loss).
 */
static void move_drop(struct spare_dev *dev, u32 g)
{
	struct spare_ec_dev *e = dev->ec;
	struct ec_move *mv = &e->mv[g];
	u32 s = g * nsplits(dev) + mv->j;
	struct spare_slab *slab = &dev->map.slabs[s];
	struct spare_copy *cp = &slab->copy[mv->to];
	unsigned long flags;
	bool unmap = false, done = true;

	spin_lock_irqsave(&slab->lock, flags);
	if (cp->donor != mv->target || (e->sp[s].ok && e->sp[s].slot == mv->to))
		;	/* no longer ours */
	else if (cp->state == SPARE_COPY_MAPPING)
		done = false;
	else if (cp->state == SPARE_COPY_UNMAPPED)
		spare_slab_move_abort(&dev->map, slab, mv->to);
	else {
		unmap = cp->state == SPARE_COPY_MAPPED;
		spare_slab_slot_free(&dev->map, slab, mv->to);
	}
	spin_unlock_irqrestore(&slab->lock, flags);
	if (unmap && donor_live(&dev->donors[mv->target]))
		spare_donor_send_unmap(&dev->donors[mv->target], s);
	if (done)
		mv->state = EC_MV_NONE;
}

/*
 * The move of group @g gives up (@why): the EVICT goes the old way, and
 * the new slab is given back once it is not MAPPING (EC_MV_DROP).
 */
static void move_give_up(struct spare_dev *dev, u32 g,
			 enum spare_ec_move_why why)
{
	struct spare_ec_dev *e = dev->ec;
	struct ec_move *mv = &e->mv[g];
	u32 s = g * nsplits(dev) + mv->j, ev;
	struct ec_split *sp = &e->sp[s];
	unsigned long flags;
	char line[256];

	spin_lock_irqsave(&e->glock[g], flags);
	if (e->map.groups[g].mv_active && e->map.groups[g].mv_split == mv->j)
		spare_ec_move_end(&e->map.groups[g]);
	ev = sp->mv_evictor;
	sp->mv_wanted = false;
	sp->mv_old_way = true;
	spin_unlock_irqrestore(&e->glock[g], flags);
	mv->state = mv->to < 0 ? EC_MV_NONE : EC_MV_DROP;
	atomic64_inc(&e->moves_given_up);
	spare_ec_move_give_up_line(line, sizeof(line), g, mv->j, why);
	pr_warn("%s: %s\n", dev->disk->disk_name, line);
	move_old_way(dev, s, ev);
	if (mv->state == EC_MV_DROP)
		move_drop(dev, g);
}

/* A split of group @g whose EVICT wants a move: a new slab asked for. */
static void move_seek(struct spare_dev *dev, u32 g)
{
	struct spare_ec_dev *e = dev->ec;
	struct spare_ec_group *grp = &e->map.groups[g];
	struct ec_move *mv = &e->mv[g];
	u32 n = nsplits(dev), j, s;
	unsigned long flags;
	enum spare_ec_move_why why = SPARE_EC_MOVE_GOES_ON;
	bool roomy;
	u32 ev = 0;
	int t = -1, to = -EBUSY;

	spin_lock_irqsave(&e->glock[g], flags);
	for (j = 0; j < n && !e->sp[g * n + j].mv_wanted; j++)
		;
	if (j < n) {
		ev = e->sp[g * n + j].mv_evictor;
		why = spare_ec_move_check(grp, j, spare_now_ms(),
					  e->sp[g * n + j].mv_due, false);
	}
	spin_unlock_irqrestore(&e->glock[g], flags);
	if (j >= n)
		return;
	s = g * n + j;
	*mv = (struct ec_move){ .state = EC_MV_NONE, .j = j, .from = -1,
				.to = -1, .start = spare_now_ms(),
				.copied_map = mv->copied_map };
	if (!why) {
		t = ec_pick(dev, g, j, BIT(ev), &roomy);
		if (t == -ENOSPC || (t >= 0 && !roomy))
			why = SPARE_EC_MOVE_NO_GRANT;
		else if (t < 0)
			why = SPARE_EC_MOVE_NO_DONOR;
	}
	if (!why) {
		spin_lock_irqsave(&dev->map.slabs[s].lock, flags);
		if (dev->map.slabs[s].copy[e->sp[s].slot].state ==
		    SPARE_COPY_MAPPED) {
			mv->from = e->sp[s].slot;
			to = spare_slab_slot_take(&dev->map, &dev->map.slabs[s],
						  t);
			if (to >= 0)
				mv->to_gen = dev->map.slabs[s].copy[to].gen;
		}
		spin_unlock_irqrestore(&dev->map.slabs[s].lock, flags);
		if (to < 0)
			why = SPARE_EC_MOVE_NO_SLOT;
	}
	if (why) {
		move_give_up(dev, g, why);
		return;
	}
	mv->to = to;
	mv->target = t;
	mv->state = EC_MV_MAP;
	pr_info("%s: coding group %u: split %u moves by copy from donor %s to donor %s\n",
		dev->disk->disk_name, g, j, dev->donors[ev].name,
		dev->donors[t].name);
	queue_work(dev->wq, &dev->donors[t].map_work);
}

/* Whether the move of group @g goes on (spare_ec_move_check()). */
static enum spare_ec_move_why move_broken(struct spare_dev *dev, u32 g)
{
	struct spare_ec_dev *e = dev->ec;
	struct ec_move *mv = &e->mv[g];
	struct ec_split *sp = &e->sp[g * nsplits(dev) + mv->j];
	enum spare_ec_move_why why;
	unsigned long flags;

	spin_lock_irqsave(&e->glock[g], flags);
	sync_lost(dev, g);
	why = spare_ec_move_check(&e->map.groups[g], mv->j, spare_now_ms(),
				  sp->mv_due, READ_ONCE(e->stopping));
	spin_unlock_irqrestore(&e->glock[g], flags);
	return why;
}

/* The new slab's MAP answered? Then the core's move begins. */
static void move_mapped(struct spare_dev *dev, u32 g)
{
	struct spare_ec_dev *e = dev->ec;
	struct ec_move *mv = &e->mv[g];
	struct spare_slab *slab = &dev->map.slabs[g * nsplits(dev) + mv->j];
	struct spare_copy *cp = &slab->copy[mv->to];
	enum spare_copy_state st;
	enum spare_ec_move_why why;
	unsigned long flags;
	u32 gen;
	int ret;

	why = move_broken(dev, g);
	if (!why) {
		spin_lock_irqsave(&slab->lock, flags);
		st = cp->state;
		gen = cp->gen;
		spin_unlock_irqrestore(&slab->lock, flags);
		/* not asked yet (its donor's map work), or not answered */
		if ((st == SPARE_COPY_UNMAPPED && gen == mv->to_gen) ||
		    st == SPARE_COPY_MAPPING)
			return;
		if (st != SPARE_COPY_MAPPED)
			why = SPARE_EC_MOVE_MAP_REFUSED;
	}
	if (!why) {
		mv->to_gen = gen;
		spin_lock_irqsave(&e->glock[g], flags);
		ret = spare_ec_move_begin(&e->map, &e->map.groups[g], mv->j,
					  mv->copied_map);
		spin_unlock_irqrestore(&e->glock[g], flags);
		if (ret)
			why = SPARE_EC_MOVE_CHANGED;
	}
	if (why) {
		move_give_up(dev, g, why);
		return;
	}
	mv->state = EC_MV_COPY;
}

/*
 * The core's move switched: the split's slab is the new one from now on,
 * the old one out of use (EVICTING) until it drained. Group lock held.
 */
static void move_switch(struct spare_dev *dev, u32 g)
{
	struct spare_ec_dev *e = dev->ec;
	struct ec_move *mv = &e->mv[g];
	u32 s = g * nsplits(dev) + mv->j;
	struct spare_slab *slab = &dev->map.slabs[s];
	struct ec_split *sp = &e->sp[s];

	spin_lock(&slab->lock);
	sp->slot = mv->to;
	sp->gen = mv->to_gen;
	spare_slab_move_release(&dev->map, slab, mv->from);
	spin_unlock(&slab->lock);
	sp->mv_wanted = false;
	mv->state = EC_MV_DRAIN;
	mv->drain_until = spare_now_ms() + SPARE_CM_TIMEOUT_MS;
}

/*
 * Copy the moving split of group @g to its new slab, chunk after chunk,
 * then switch. Returns when switched, given up, or a chunk failed (the
 * next look tries again).
 */
static void move_copy(struct spare_dev *dev, u32 g)
{
	struct spare_ec_dev *e = dev->ec;
	struct spare_ec_group *grp = &e->map.groups[g];
	struct ec_req *req = &e->reqs[EC_SLOTS];
	struct ec_move *mv = &e->mv[g];
	u32 max = SPARE_MAX_IO_BYTES / SPARE_EC_PAGE, from = 0, passes = 0;
	enum spare_ec_move_why why;

	for (;;) {
		struct spare_ec_repair rep;
		unsigned long flags;
		bool ok;
		int ret;

		why = move_broken(dev, g);
		if (why) {
			move_give_up(dev, g, why);
			return;
		}
		spin_lock_irqsave(&e->glock[g], flags);
		ret = spare_ec_move_next(&e->map, grp, from, max, &rep);
		if (ret == -ENOENT) {
			ret = spare_ec_move_switch(&e->map, grp);
			if (!ret)
				move_switch(dev, g);
		}
		spin_unlock_irqrestore(&e->glock[g], flags);
		if (ret == -EAGAIN && ++passes <= 4) {
			from = 0;	/* pages written meanwhile */
			continue;
		}
		if (ret || mv->state == EC_MV_DRAIN)
			return;	/* switched, or a write keeps coming: later */
		req->nr_ext = 1;
		req->hctx = 0;
		req->ext[0] = (struct ec_ext){ .group = g, .first = rep.first,
					       .n = rep.n };
		ok = rb_rdma(dev, 1U << mv->j, false, -1, 0) &&
		     rb_rdma(dev, 1U << mv->j, true, mv->to, mv->to_gen);
		spin_lock_irqsave(&e->glock[g], flags);
		if (spare_ec_move_chunk_end(&e->map, grp, &rep, ok)) {
			mv->copied += rep.n;
			atomic64_add(rep.n, &e->copied_pages);
		}
		spin_unlock_irqrestore(&e->glock[g], flags);
		if (!ok)
			return;	/* a donor busy or lost: looked at again */
		from = rep.first + rep.n;
	}
}

/* The old slab drained (or its time is up): UNMAP it; the move is over. */
static void move_drain(struct spare_dev *dev, u32 g)
{
	struct spare_ec_dev *e = dev->ec;
	struct ec_move *mv = &e->mv[g];
	u32 s = g * nsplits(dev) + mv->j;
	struct spare_slab *slab = &dev->map.slabs[s];
	u32 ev = e->sp[s].mv_evictor;
	struct spare_donor *d = &dev->donors[ev];
	unsigned long flags;
	bool busy;

	spin_lock_irqsave(&slab->lock, flags);
	busy = slab->copy[mv->from].inflight &&
	       spare_now_ms() < mv->drain_until;
	if (!busy)
		spare_slab_slot_free(&dev->map, slab, mv->from);
	spin_unlock_irqrestore(&slab->lock, flags);
	if (busy)
		return;
	mv->state = EC_MV_NONE;
	atomic64_inc(&d->stats.evictions);
	atomic64_inc(&d->stats.moves);
	atomic64_inc(&e->moved);
	pr_info("%s: coding group %u: split %u moved by copy from donor %s to donor %s in %llu ms (%llu split pages copied, none decoded); the old slab given back\n",
		dev->disk->disk_name, g, mv->j, d->name,
		dev->donors[mv->target].name, spare_now_ms() - mv->start,
		mv->copied);
	if (donor_live(d))
		spare_donor_send_unmap(d, s);
	spare_uevent(dev, "slab_evicted", d, s);
}

/* One look at group @g's move, in the rebuild work. */
static void ec_move_step(struct spare_dev *dev, u32 g)
{
	struct ec_move *mv = &dev->ec->mv[g];

	if (mv->state == EC_MV_DROP)
		move_drop(dev, g);
	if (mv->state == EC_MV_NONE)
		move_seek(dev, g);
	if (mv->state == EC_MV_MAP)
		move_mapped(dev, g);
	if (mv->state == EC_MV_COPY)
		move_copy(dev, g);
	if (mv->state == EC_MV_DRAIN)
		move_drain(dev, g);
}

/* Split slabs lost now, and mapped but waiting for (or in) a rebuild. */
static void ec_split_counts(struct spare_ec_dev *e, u32 *lost,
			    u32 *rebuilding)
{
	u32 g;

	*lost = 0;
	*rebuilding = 0;
	for (g = 0; g < e->map.nr_groups; g++) {
		const struct spare_ec_group *grp = &e->map.groups[g];
		u16 l = READ_ONCE(grp->lost), r = READ_ONCE(grp->repair);

		*lost += hweight16(l);
		*rebuilding += hweight16(r & ~l);
	}
}

static void ec_rebuild_work(struct work_struct *work)
{
	struct spare_ec_dev *e = container_of(to_delayed_work(work),
					      struct spare_ec_dev,
					      rebuild_work);
	struct spare_dev *dev = e->dev;
	u32 n = nsplits(dev), g, j, lost, rebuilding;
	bool moving = false;

	for (g = 0; g < e->map.nr_groups && !READ_ONCE(e->stopping); g++) {
		unsigned long flags;
		u16 todo;

		/* first: a given-up move's new slab goes before split_remap() */
		ec_move_step(dev, g);
		moving |= e->mv[g].state != EC_MV_NONE;
		spin_lock_irqsave(&e->glock[g], flags);
		sync_lost(dev, g);
		split_remap(dev, g);
		todo = e->map.groups[g].repair & ~e->map.groups[g].lost;
		spin_unlock_irqrestore(&e->glock[g], flags);
		for (j = 0; j < n; j++)
			if (todo & (1U << j))
				repair_split(dev, g, j);
	}
	ec_split_counts(e, &lost, &rebuilding);
	if (lost || rebuilding) {
		e->all_current = false;
	} else if (!e->all_current) {
		e->all_current = true;
		pr_info("%s: every split of the %u coding group(s) current again (%lld split pages rebuilt in all)\n",
			dev->disk->disk_name, e->map.nr_groups,
			atomic64_read(&e->repaired_pages));
	}
	if (!READ_ONCE(e->stopping))
		queue_delayed_work(dev->wq, &e->rebuild_work,
				   msecs_to_jiffies(moving ? EC_MOVE_MS :
							     EC_REBUILD_MS));
}

/*
 * integrity=crc32c's table on this device (spare_integrity_start()): a
 * checksum per split of each page of every group, a mismatch logged once
 * per group.
 */
void spare_ec_crc_shape(struct spare_dev *dev, u64 *pages, u32 *per_page,
			u32 *unit_shift)
{
	struct spare_ec_dev *e = dev->ec;

	*pages = (u64)e->map.nr_groups * e->map.pages_per_group;
	*per_page = nsplits(dev);
	*unit_shift = e->gshift - SPARE_PAGE_SHIFT;
}

blk_status_t spare_ec_queue_rq(struct blk_mq_hw_ctx *hctx,
			       const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	struct spare_dev *dev = hctx->queue->queuedata;
	struct spare_cmd *cmd = blk_mq_rq_to_pdu(rq);
	struct spare_ec_dev *e = dev->ec;
	struct spare_extent ext[SPARE_MAX_EXTENTS];
	struct ec_req *req;
	unsigned long flags;
	unsigned int x;
	u32 pidx = 0;
	int n;

	cmd->dev = dev;
	cmd->nr_ops = 0;	/* spare_timeout(): no replica ops */
	switch (req_op(rq)) {
	case REQ_OP_FLUSH:
		blk_mq_start_request(rq);
		blk_mq_end_request(rq, BLK_STS_OK);
		return BLK_STS_OK;
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		break;
	default:
		return BLK_STS_NOTSUPP;
	}
	n = spare_split(blk_rq_pos(rq) << SECTOR_SHIFT, blk_rq_bytes(rq),
			dev->cfg.size, e->gshift, ext, SPARE_MAX_EXTENTS);
	if (n < 0) {
		pr_warn_ratelimited("%s: request at sector %llu, %u bytes, does not fit the device\n",
				    dev->disk->disk_name,
				    (unsigned long long)blk_rq_pos(rq),
				    blk_rq_bytes(rq));
		return BLK_STS_IOERR;
	}
	req = slot_get(e);
	if (!req)
		return BLK_STS_RESOURCE;
	req->dev = dev;
	req->rq = rq;
	req->write = req_op(rq) == REQ_OP_WRITE;
	req->posting = false;
	req->fill_queued = false;
	req->hctx = hctx->queue_num;
	req->nr_ext = n;
	req->nr_ops = 0;
	for (x = 0; x < (unsigned int)n; x++) {
		struct ec_ext *ex = &req->ext[x];

		memset(ex, 0, sizeof(*ex));
		ex->group = ext[x].slab;
		ex->first = ext[x].first_page;
		ex->n = ext[x].nr_pages;
		ex->pidx = pidx;
		pidx += ex->n;
	}
	if (!queues_ready(dev, req)) {
		req->rq = NULL;
		req_release(req);
		return BLK_STS_RESOURCE;	/* a data queue is connecting */
	}
	if (ec_must_wait(dev, req)) {
		atomic_set(&e->refused, 1);
		smp_mb();	/* the flag before the look again; pairs with req_release() */
		if (ec_must_wait(dev, req)) {
			/*
			 * the write's end releases its slot and runs the
			 * queues; this slot goes without that, or the run
			 * would find the write still in flight, and again
			 */
			req->rq = NULL;
			clear_bit(req - e->reqs, e->busy);
			atomic64_inc(&e->waits);
			return BLK_STS_RESOURCE;
		}
	}
	blk_mq_start_request(rq);
	req->timed = !req->write && trace_spare_ec_read_enabled();
	if (req->timed)
		req->t0 = ktime_get_ns();
	atomic_set(&req->pending, 1);
	if (req->write) {
		int ret;

		atomic64_inc(&e->writes);
		/* the encode and CRCs use the FPU: no softirq decode meanwhile */
		local_bh_disable();
		ret = walk_pages(req, page_encode);
		local_bh_enable();
		if (ret) {
			req->rq = NULL;
			req_release(req);
			return BLK_STS_IOERR;
		}
		req->posting = true;
		ec_write_start(dev, req);
		spin_lock_irqsave(&req->lock, flags);
		req->posting = false;
		write_maybe_complete(req);
		spin_unlock_irqrestore(&req->lock, flags);
	} else {
		atomic64_inc(&e->reads);
		ec_read_start(dev, req);
	}
	req_put(req);
	return BLK_STS_OK;
}

static void reqs_free(struct spare_ec_dev *e, u32 n)
{
	unsigned int i, j;

	for (i = 0; e->reqs && i <= EC_SLOTS; i++) {
		for (j = 0; j < n; j++)
			kfree(e->reqs[i].region[j]);
		kfree(e->reqs[i].scratch);
	}
	kvfree(e->reqs);
	e->reqs = NULL;
}

static int reqs_alloc(struct spare_dev *dev, struct spare_ec_dev *e)
{
	const struct spare_ec_geom *g = &dev->cfg.ec;
	u32 n = spare_ec_splits(g), j;
	unsigned int i;

	/* one more than the requests': the rebuild's */
	e->reqs = kvcalloc(EC_SLOTS + 1, sizeof(*e->reqs), GFP_KERNEL);
	if (!e->reqs)
		return -ENOMEM;
	for (i = 0; i <= EC_SLOTS; i++) {
		struct ec_req *req = &e->reqs[i];

		spin_lock_init(&req->lock);
		INIT_WORK(&req->fill_work, read_fill_work);
		for (j = 0; j < n; j++) {
			req->region[j] = kmalloc(SPARE_MAX_IO_BYTES / g->k,
						 GFP_KERNEL);
			if (!req->region[j])
				return -ENOMEM;
		}
		req->scratch = kmalloc(n * spare_ec_split_bytes(g), GFP_KERNEL);
		if (!req->scratch)
			return -ENOMEM;
	}
	return 0;
}

void spare_ec_free(struct spare_dev *dev)
{
	struct spare_ec_dev *e = dev->ec;
	u32 i;

	if (!e)
		return;
	reqs_free(e, nsplits(dev));
	for (i = 0; e->mv && i < e->map.nr_groups; i++)
		bitmap_free(e->mv[i].copied_map);
	kvfree(e->mv);
	spare_ec_map_free(&e->map);
	kvfree(e->glock);
	kvfree(e->sp);
	kfree(e);
	dev->ec = NULL;
}

/* The split table: dev->map over split slabs, each on its donor. */
static int split_table(struct spare_dev *dev, u32 nr_groups)
{
	const char *name = config_item_name(&dev->item);
	const struct spare_config *c = &dev->cfg;
	u32 n = spare_ec_splits(&c->ec), bad, total = nr_groups * n;
	const u16 *domain = c->nr_domains ? c->domain : NULL;
	u16 *place;
	int ret;

	ret = spare_slab_map_init(&dev->map, (u64)total << c->slab_shift,
				  c->slab_shift, 1, c->nr_donors);
	if (ret)
		return ret;
	if (c->placement) {
		ret = spare_ec_place_check(&c->ec, nr_groups, c->nr_donors,
					   domain, c->placement,
					   c->nr_placement, &bad);
		if (ret && bad == U32_MAX)
			pr_warn("%s: placement: redundancy=ec:%u+%u wants %u donor indices (%u coding groups x %u splits, group-major), got %u\n",
				name, c->ec.k, c->ec.r, total, nr_groups, n,
				c->nr_placement);
		else if (ret)
			pr_warn("%s: placement: coding group %u has two splits on one donor%s, or an index past the %u donors\n",
				name, bad,
				spare_ec_nr_domains(domain, c->nr_donors) > 1 ?
				" or in one failure domain" : "", c->nr_donors);
		place = c->placement;
	} else {
		place = kcalloc(total, sizeof(*place), GFP_KERNEL);
		if (!place)
			return -ENOMEM;
		ret = spare_ec_place(&c->ec, nr_groups, c->nr_donors, domain,
				     place);
		if (ret)
			pr_warn("%s: redundancy=ec:%u+%u: no %u distinct donors%s for every coding group\n",
				name, c->ec.k, c->ec.r, n,
				spare_ec_nr_domains(domain, c->nr_donors) > 1 ?
				" in distinct failure domains" : "");
	}
	if (!ret)
		ret = spare_slab_map_place(&dev->map, place, total);
	if (place != c->placement)
		kfree(place);
	return ret;
}

int spare_ec_power_on(struct spare_dev *dev)
{
	const struct spare_config *c = &dev->cfg;
	u32 n = spare_ec_splits(&c->ec), nr_groups, i;
	struct spare_ec_dev *e;
	int ret;

	nr_groups = spare_ec_nr_groups(&c->ec, c->size, c->slab_shift);
	ret = split_table(dev, nr_groups);
	if (ret) {
		spare_slab_map_free(&dev->map);
		return ret;
	}
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e) {
		spare_slab_map_free(&dev->map);
		return -ENOMEM;
	}
	dev->ec = e;
	e->gshift = c->slab_shift + ilog2(c->ec.k);
	ret = spare_ec_map_init(&e->map, &c->ec, c->ec_delta, nr_groups,
				1U << (e->gshift - SPARE_PAGE_SHIFT));
	e->glock = kvcalloc(nr_groups, sizeof(*e->glock), GFP_KERNEL);
	e->sp = kvcalloc(nr_groups * n, sizeof(*e->sp), GFP_KERNEL);
	e->mv = kvcalloc(nr_groups, sizeof(*e->mv), GFP_KERNEL);
	if (!ret && (!e->glock || !e->sp || !e->mv))
		ret = -ENOMEM;
	for (i = 0; !ret && i < nr_groups; i++) {
		e->mv[i].copied_map = bitmap_zalloc(e->map.pages_per_group,
						    GFP_KERNEL);
		if (!e->mv[i].copied_map)
			ret = -ENOMEM;
	}
	if (!ret)
		ret = reqs_alloc(dev, e);
	if (ret) {
		spare_ec_free(dev);
		spare_slab_map_free(&dev->map);
		return ret;
	}
	for (i = 0; i < nr_groups; i++)
		spin_lock_init(&e->glock[i]);
	e->dev = dev;
	e->reqs[EC_SLOTS].dev = dev;
	e->reqs[EC_SLOTS].rebuild = true;
	init_completion(&e->rb_done);
	INIT_DELAYED_WORK(&e->rebuild_work, ec_rebuild_work);
	e->all_current = true;
	return 0;
}

void spare_ec_ready(struct spare_dev *dev)
{
	struct spare_ec_dev *e = dev->ec;
	u32 s, c;

	for (s = 0; s < dev->map.nr_slabs; s++) {
		struct spare_slab *slab = &dev->map.slabs[s];
		unsigned long flags;

		spin_lock_irqsave(&slab->lock, flags);
		for (c = 0; c < dev->map.nr_slots; c++)
			if (slab->copy[c].state == SPARE_COPY_MAPPED) {
				e->sp[s].slot = c;
				e->sp[s].gen = slab->copy[c].gen;
				e->sp[s].ok = true;
				break;
			}
		spin_unlock_irqrestore(&slab->lock, flags);
	}
	pr_info("%s: redundancy ec:%u+%u: %u coding group(s) of %u MiB, split slabs of %u MiB on %u donors, %u spare read(s)\n",
		config_item_name(&dev->item), dev->cfg.ec.k, dev->cfg.ec.r,
		e->map.nr_groups, 1U << (e->gshift - 20),
		1U << (dev->map.slab_shift - 20), dev->cfg.nr_donors,
		e->map.delta);
	queue_delayed_work(dev->wq, &e->rebuild_work,
			   msecs_to_jiffies(EC_REBUILD_MS));
}

/**
 * spare_ec_stop() - stop the rebuild of lost splits before the donors stop
 * @dev: a device powering off (its requests are over)
 */
void spare_ec_stop(struct spare_dev *dev)
{
	struct spare_ec_dev *e = dev->ec;
	unsigned int i;

	if (!e || !e->dev)
		return;
	WRITE_ONCE(e->stopping, true);
	cancel_delayed_work_sync(&e->rebuild_work);
	/*
	 * the requests are over, but a read_fill_work() that ended its
	 * request may still be releasing the slot (it runs the queues)
	 */
	for (i = 0; i < EC_SLOTS; i++)
		flush_work(&e->reqs[i].fill_work);
}

ssize_t spare_ec_stat_show(struct spare_dev *dev, char *buf)
{
	struct spare_ec_dev *e = dev->ec;
	struct spare_ec_stat_line l = {};

	if (e) {
		l.k = dev->cfg.ec.k;
		l.r = dev->cfg.ec.r;
		l.delta = e->map.delta;
		l.reads = atomic64_read(&e->reads);
		l.writes = atomic64_read(&e->writes);
		l.ec.reads_decoded = atomic64_read(&e->reads_decoded);
		l.ec.late_dropped = atomic64_read(&e->late_dropped);
		l.ec.eio_pages = atomic64_read(&e->eio_pages);
		l.ec.writes_short = atomic64_read(&e->writes_short);
		l.waits = atomic64_read(&e->waits);
		l.ec.repaired_pages = atomic64_read(&e->repaired_pages);
		l.remapped = atomic64_read(&e->remapped);
		l.moved = atomic64_read(&e->moved);
		l.moves_given_up = atomic64_read(&e->moves_given_up);
		l.copied_pages = atomic64_read(&e->copied_pages);
		l.fills_deferred = atomic64_read(&e->fills_deferred);
		ec_split_counts(e, &l.lost_now, &l.rebuilding);
	}
	return spare_ec_stat_format(buf, PAGE_SIZE, &l);
}
