// SPDX-License-Identifier: GPL-2.0
/*
 * Resynchronisation: after a donor comes back and a copy of a slab is mapped
 * again, that copy holds none of the pages written before. Until they are
 * rewritten, those pages have one copy fewer than the device was asked for,
 * and losing the survivor would turn them into I/O errors. This worker
 * refills such copies from a current one, a chunk of up to
 * SPARE_RESYNC_MAX pages (256 KiB) at a time: RDMA READ from the source
 * copy into bounce blocks, then RDMA WRITE to the target. The same worker
 * fills the new copy of a slab that moves off an evicting donor (the
 * moves in spare_evict.c), where its speed decides whether the move
 * fits in the donor's grace period: hence blocks of several pages, one SGE
 * each, rather than one page per SGE. The rules that make it safe
 * against concurrent writes live in spare_slab.c (spare_slab_resync_begin()
 * and _end(), tested by KUnit); the chunk's bookkeeping is the resync plan
 * (spare_resync_plan.c), which spare-ublk uses too.
 *
 * One chunk is in flight per device, and the worker runs on system_long_wq,
 * not on dev->wq, so that the donor error work it may have to wait for is
 * never queued behind it. A queue pair is posted to only under its donor's
 * lock (d->lock), which donor_teardown() holds while it destroys them; the
 * worker takes it with mutex_trylock() and tries again later if the donor
 * is busy connecting or failing.
 */
#include <linux/highmem.h>

#include "spare.h"
#include "spare_resync_plan.h"

#define SPARE_RESYNC_BUDGET	256	/* chunks per run before yielding */
#define SPARE_RESYNC_TMO_MS	5000
#define SPARE_RESYNC_RETRY_MS	1000

struct resync_op {
	struct ib_cqe cqe;
	struct completion done;
	enum ib_wc_status status;
};

static void resync_op_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct resync_op *op = container_of(wc->wr_cqe, struct resync_op, cqe);

	op->status = wc->status;
	complete(&op->done);
}

/*
 * RDMA READ (@write false) or WRITE of @n pages, through the bounce blocks,
 * from or to remote address @raddr of donor @d. Returns 0 once the operation has completed
 * successfully, -EAGAIN if the donor cannot take it now, -EIO if it failed.
 */
static int resync_rdma(struct spare_dev *dev, struct spare_donor *d,
		       u64 raddr, u32 rkey, u32 n, bool write)
{
	enum dma_data_direction dir = write ? DMA_TO_DEVICE : DMA_FROM_DEVICE;
	struct ib_sge sge[SPARE_RESYNC_PAGES];
	struct ib_rdma_wr wr = {};
	struct spare_queue *q;
	struct ib_device *ibdev;
	struct resync_op op;
	u32 i, mapped = 0, nsge;
	u32 block = SPARE_PAGE_SIZE << SPARE_RESYNC_ORDER;
	u64 left = (u64)n << SPARE_PAGE_SHIFT;
	int ret;

	if (!mutex_trylock(&d->lock))
		return -EAGAIN;
	q = spare_data_queue(d, 0);
	if (IS_ERR_OR_NULL(q)) {
		mutex_unlock(&d->lock);
		return -EAGAIN;
	}
	ibdev = q->cm_id->device;
	nsge = DIV_ROUND_UP(n, 1U << SPARE_RESYNC_ORDER);
	for (i = 0; i < nsge; i++) {
		u32 len = min_t(u64, left, block);
		u64 a = ib_dma_map_page(ibdev, dev->resync_pages[i], 0, len,
					dir);

		if (ib_dma_mapping_error(ibdev, a)) {
			mutex_unlock(&d->lock);
			ret = -ENOMEM;
			goto unmap;
		}
		sge[i].addr = a;
		sge[i].length = len;
		sge[i].lkey = d->pd->local_dma_lkey;
		mapped++;
		left -= len;
	}
	init_completion(&op.done);
	op.cqe.done = resync_op_done;
	wr.wr.wr_cqe = &op.cqe;
	wr.wr.sg_list = sge;
	wr.wr.num_sge = nsge;
	wr.wr.opcode = write ? IB_WR_RDMA_WRITE : IB_WR_RDMA_READ;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	wr.remote_addr = raddr;
	wr.rkey = rkey;
	ret = ib_post_send(q->qp, &wr.wr, NULL);
	mutex_unlock(&d->lock);
	if (ret) {
		spare_donor_error(d, "resync post failed");
		ret = -EAGAIN;
		goto unmap;	/* nothing was posted */
	}
	/*
	 * Never shorter than the transport's own verdict on a dead peer: a
	 * timeout here drops every copy the donor holds, the only current
	 * one of some pages included (on the debug kernel, ack_timeout=18
	 * gives up after 7.5 s, and a 5 s wait dropped a slow but live
	 * source mid-resync: pages lost in spare-cutlink).
	 */
	if (!wait_for_completion_timeout(&op.done,
					 msecs_to_jiffies(max(SPARE_RESYNC_TMO_MS,
							      2 * spare_rdma_giveup_ms())))) {
		/* The error road drains the QP, which completes the op. */
		spare_donor_error(d, "resync timeout");
		wait_for_completion(&op.done);
	}
	ret = op.status == IB_WC_SUCCESS ? 0 : -EIO;
	if (ret && op.status != IB_WC_WR_FLUSH_ERR) {
		pr_warn_ratelimited("donor %s: resync RDMA %s failed: %s\n",
				    d->name, write ? "WRITE" : "READ",
				    ib_wc_status_msg(op.status));
		spare_donor_error(d, "RDMA operation failed");
	}
unmap:
	for (i = 0; i < mapped; i++)
		ib_dma_unmap_page(ibdev, sge[i].addr, sge[i].length, dir);
	return ret;
}

static bool chunk_end(struct spare_dev *dev, u32 s,
		      struct spare_resync_chunk *ck, bool ok);

/*
 * Begin a chunk in slab @s (spare_resync_plan_begin()). 1: begun; 0: the
 * slab needs nothing; -EAGAIN: it needs a chunk from the backup, which
 * cannot be read for it now (a write in flight, or an async backup write
 * of its pages).
 */
static int chunk_begin(struct spare_dev *dev, u32 s,
		       struct spare_resync_chunk *ck)
{
	struct spare_slab *slab = &dev->map.slabs[s];
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&slab->lock, flags);
	ret = spare_resync_plan_begin(&dev->map, slab, SPARE_RESYNC_MAX,
				      dev->has_backup, ck);
	spin_unlock_irqrestore(&slab->lock, flags);
	if (ret <= 0)
		return ret ? -EAGAIN : 0;
	if (spare_resync_from_backup(ck) &&
	    !spare_backup_range_ok(dev, ck->page, ck->rs.n)) {
		chunk_end(dev, s, ck, false);
		return -EAGAIN;
	}
	return 1;
}

static bool chunk_end(struct spare_dev *dev, u32 s,
		      struct spare_resync_chunk *ck, bool ok)
{
	struct spare_slab *slab = &dev->map.slabs[s];
	struct spare_resync_after after;
	unsigned long flags;

	spin_lock_irqsave(&slab->lock, flags);
	after = spare_resync_plan_end(&dev->map, slab, ck, ok);
	spin_unlock_irqrestore(&slab->lock, flags);
	if (after.wake)
		wake_up_all(&dev->inflight_wait);
	return after.marked;
}

/* Copy one chunk. 0: done (marked or not), -EAGAIN: try again later. */
static int chunk_copy(struct spare_dev *dev, u32 s,
		      struct spare_resync_chunk *ck)
{
	struct spare_donor *dd = &dev->donors[ck->dst_donor];
	int ret;

	if (spare_resync_from_backup(ck)) {
		ret = spare_backup_read_pages(dev, ck->page, ck->rs.n,
					      dev->resync_pages,
					      SPARE_RESYNC_ORDER);
		if (ret) {
			pr_warn_ratelimited("%s: resync read from the backup failed: %d\n",
					    dev->cfg.backup, ret);
			ret = -EAGAIN;
		}
	} else {
		ret = resync_rdma(dev, &dev->donors[ck->src_donor], ck->src_addr,
				  ck->src_rkey, ck->rs.n, false);
	}
	if (!ret)
		ret = resync_rdma(dev, dd, ck->dst_addr, ck->dst_rkey, ck->rs.n,
				  true);
	if (chunk_end(dev, s, ck, !ret))
		atomic64_add(ck->rs.n, &dev->stats.resync_pages);
	return ret;
}

static void resync_work(struct work_struct *work)
{
	struct spare_dev *dev = container_of(to_delayed_work(work),
					     struct spare_dev, resync_work);
	unsigned int budget = SPARE_RESYNC_BUDGET;
	unsigned int noio = memalloc_noio_save();
	struct spare_resync_chunk ck;
	bool busy = false;
	int begun;
	u32 s;

	for (s = 0; s < dev->map.nr_slabs; s++) {
		begun = 0;
		while (!READ_ONCE(dev->resync_stop) &&
		       (begun = chunk_begin(dev, s, &ck)) > 0) {
			if (chunk_copy(dev, s, &ck)) {
				busy = true;	/* a donor was not ready */
				break;
			}
			if (!--budget)
				goto yield;
		}
		if (begun < 0)
			busy = true;	/* the backup could not be read yet */
		if (READ_ONCE(dev->resync_stop))
			goto out;
	}
	if (busy)
		queue_delayed_work(system_long_wq, &dev->resync_work,
				   msecs_to_jiffies(SPARE_RESYNC_RETRY_MS));
	goto out;
yield:
	queue_delayed_work(system_long_wq, &dev->resync_work, 1);
out:
	memalloc_noio_restore(noio);
}

/* A copy was mapped (again): look for pages it should hold, soon. */
void spare_resync_kick(struct spare_dev *dev)
{
	if (dev->resync_pages[0] && !READ_ONCE(dev->resync_stop))
		queue_delayed_work(system_long_wq, &dev->resync_work, HZ);
}

/* A copy is moving (move_step() in spare_evict.c): fill the new one now. */
void spare_resync_kick_now(struct spare_dev *dev)
{
	if (dev->resync_pages[0] && !READ_ONCE(dev->resync_stop))
		mod_delayed_work(system_long_wq, &dev->resync_work, 0);
}

int spare_resync_init(struct spare_dev *dev)
{
	u32 i;

	dev->resync_stop = false;
	INIT_DELAYED_WORK(&dev->resync_work, resync_work);
	/*
	 * Always, even for one copy on one donor and no backup: donors may be
	 * appended while the device runs, and an evicted copy then moves
	 * through these blocks (move_start() needs them). 256 KiB a device.
	 */
	for (i = 0; i < SPARE_RESYNC_PAGES; i++) {
		dev->resync_pages[i] = alloc_pages(GFP_KERNEL,
						   SPARE_RESYNC_ORDER);
		if (!dev->resync_pages[i]) {
			spare_resync_stop(dev);
			return -ENOMEM;
		}
	}
	return 0;
}

/* Before the donors are torn down: no chunk runs after this returns. */
void spare_resync_stop(struct spare_dev *dev)
{
	u32 i;

	WRITE_ONCE(dev->resync_stop, true);
	cancel_delayed_work_sync(&dev->resync_work);
	for (i = 0; i < SPARE_RESYNC_PAGES; i++) {
		if (dev->resync_pages[i])
			__free_pages(dev->resync_pages[i],
				     SPARE_RESYNC_ORDER);
		dev->resync_pages[i] = NULL;
	}
}
