// SPDX-License-Identifier: GPL-2.0
/*
 * Backup block device: any block device given by path. Every write also goes
 * there; reads come from it when no remote copy is current.
 *
 *  backup_mode=sync:  a write completes when the remote copies and the
 *                     backup write have all landed.
 *  backup_mode=async: a write completes when the remote copies land; the
 *                     backup write goes on from a private copy of the data
 *                     (the bio pages belong to the caller again once we
 *                     complete). A per-page "busy" bitmap orders a read from
 *                     the backup, and a newer backup write, after an older
 *                     backup write of the same page: no stale read.
 */
#include <linux/bio.h>
#include <linux/bitmap.h>
#include <linux/highmem.h>
#include <linux/slab.h>

#include "spare.h"

static void backup_punt_work(struct work_struct *w);

/*
 * The per-page bitmaps cover the whole device: at 16 TiB that is 2^32
 * bits, which bitmap_zalloc() (an unsigned int count, and kmalloc) cannot
 * hold, so they are vmalloc-backed arrays of longs, and ranges are set one
 * bit at a time (bitmap_set() and bitmap_clear() take unsigned int
 * positions too). A range is one request's pages: short.
 */
static unsigned long *pages_bitmap_alloc(u64 pages)
{
	return kvcalloc(BITS_TO_LONGS(pages), sizeof(unsigned long),
			GFP_KERNEL);
}

static void pages_set(unsigned long *map, u64 first, u64 n)
{
	while (n--)
		__set_bit(first++, map);
}

static void pages_clear(unsigned long *map, u64 first, u64 n)
{
	while (n--)
		__clear_bit(first++, map);
}

int spare_backup_open(struct spare_dev *dev)
{
	struct block_device *bdev;
	u64 pages = dev->cfg.size >> SPARE_PAGE_SHIFT;
	int ret;

	dev->has_backup = false;
	bio_list_init(&dev->backup_punt);
	INIT_WORK(&dev->backup_punt_work, backup_punt_work);
	if (!dev->cfg.backup[0])
		return 0;
	ret = spare_bdev_open(dev->cfg.backup, dev, &dev->backup);
	if (ret) {
		pr_warn("%s: cannot open backup device %s: %d\n",
			config_item_name(&dev->item), dev->cfg.backup, ret);
		return ret;
	}
	bdev = spare_bdev(&dev->backup);
	if (bdev_nr_bytes(bdev) < dev->cfg.size) {
		pr_warn("%s: backup device %s holds %llu bytes, device size is %llu\n",
			config_item_name(&dev->item), dev->cfg.backup,
			(unsigned long long)bdev_nr_bytes(bdev), dev->cfg.size);
		spare_bdev_close(&dev->backup);
		return -EINVAL;
	}
	if (bdev_logical_block_size(bdev) > SPARE_PAGE_SIZE) {
		pr_warn("%s: backup device %s has blocks larger than 4 KiB\n",
			config_item_name(&dev->item), dev->cfg.backup);
		spare_bdev_close(&dev->backup);
		return -EINVAL;
	}
	/*
	 * Our own pool: swap-out bios come from fs_bio_set, and a backup bio
	 * made while serving one must not wait on that same pool.
	 */
	ret = bioset_init(&dev->backup_bs, BIO_POOL_SIZE, 0, BIOSET_NEED_BVECS);
	if (ret) {
		spare_bdev_close(&dev->backup);
		return ret;
	}
	dev->backup_busy = pages_bitmap_alloc(pages);
	dev->backup_stale = pages_bitmap_alloc(pages);
	atomic_set(&dev->async_pages, 0);
	if (dev->cfg.backup_mode == SPARE_BACKUP_ASYNC)
		dev->async_pool = mempool_create_page_pool(
				SPARE_ASYNC_COPY_PAGES + SPARE_MAX_SEGS + 1, 0);
	if (!dev->backup_busy || !dev->backup_stale ||
	    (dev->cfg.backup_mode == SPARE_BACKUP_ASYNC && !dev->async_pool)) {
		spare_backup_close(dev);
		return -ENOMEM;
	}
	dev->has_backup = true;
	return 0;
}

static bool range_busy(struct spare_dev *dev, u64 first, u64 n)
{
	unsigned long flags;
	bool busy;

	spin_lock_irqsave(&dev->backup_lock, flags);
	busy = find_next_bit(dev->backup_busy, first + n, first) < first + n;
	spin_unlock_irqrestore(&dev->backup_lock, flags);
	return busy;
}

static bool any_busy(struct spare_dev *dev)
{
	return range_busy(dev, 0, dev->cfg.size >> SPARE_PAGE_SHIFT);
}

void spare_backup_close(struct spare_dev *dev)
{
	if (dev->backup_busy)
		wait_event(dev->backup_wait, !any_busy(dev));
	if (dev->async_pool) {
		mempool_destroy(dev->async_pool);
		dev->async_pool = NULL;
	}
	spare_bdev_close(&dev->backup);
	if (bioset_initialized(&dev->backup_bs))
		bioset_exit(&dev->backup_bs);
	kvfree(dev->backup_busy);
	kvfree(dev->backup_stale);
	dev->backup_busy = NULL;
	dev->backup_stale = NULL;
	dev->has_backup = false;
}

/*
 * Submit a backup bio made in ->queue_rq() (@can_wait false): always from
 * the device's workqueue, never from ->queue_rq() itself. One made in
 * spare_backup_work() (@can_wait true) is submitted there and then. The
 * queue is not BLK_MQ_F_BLOCKING, so ->queue_rq() runs under RCU, where
 * submit_bio() must not be called: it may sleep for a tag of the backup's
 * own queue, in its writeback throttle, or allocating in the driver
 * below. Two of the places ->queue_rq() runs from could not take the bio
 * anyway:
 *
 *  - Inside submit_bio() (current->bio_list set: most swap-out requests
 *    are dispatched there, when the task's plug is flushed) a bio we
 *    submit is only parked on that list until the outer submit_bio()
 *    returns.
 *  - While the task holds a plug (current->plug set: ->queue_rq() runs
 *    from blk_finish_plug()'s flush of it), a bio that reaches a blk-mq
 *    queue (loop, a disk; under dm or not, so the backup's own queue says
 *    nothing) is added to that plug while blk_mq_flush_plug_list() takes
 *    requests off it: the list is corrupted, blk_add_rq_to_plug() follows
 *    a NULL pointer.
 *
 * The workqueue is WQ_MEM_RECLAIM (it has a rescuer thread, so it makes
 * progress under memory pressure), as the block layer's own bio-set
 * rescuer does. No caller's state is under the worker, so that is safe
 * wherever ->queue_rq() runs. The cost: a worker wake-up before the backup
 * I/O starts, one per batch (queue_work() of a pending work is a no-op,
 * and the worker drains the list under one plug of its own); until
 * session 39 only kblockd's dispatches, the few, were submitted directly.
 * spare_backup_close() runs before that queue is destroyed, and every
 * punted bio holds a busy range or a command, which it waits for.
 */
static void backup_issue(struct spare_dev *dev, struct bio *bio, bool can_wait)
{
	unsigned long flags;

	if (can_wait) {		/* spare_backup_work(), already the worker */
		submit_bio(bio);
		return;
	}
	spin_lock_irqsave(&dev->backup_lock, flags);
	bio_list_add(&dev->backup_punt, bio);
	spin_unlock_irqrestore(&dev->backup_lock, flags);
	queue_work(dev->wq, &dev->backup_punt_work);
}

static void backup_punt_work(struct work_struct *w)
{
	struct spare_dev *dev = container_of(w, struct spare_dev,
					     backup_punt_work);
	struct blk_plug plug;
	struct bio_list list;
	struct bio *bio;
	unsigned long flags;

	spin_lock_irqsave(&dev->backup_lock, flags);
	list = dev->backup_punt;
	bio_list_init(&dev->backup_punt);
	spin_unlock_irqrestore(&dev->backup_lock, flags);
	blk_start_plug(&plug);
	while ((bio = bio_list_pop(&list)))
		submit_bio(bio);
	blk_finish_plug(&plug);
}

/*
 * Where a backup write did not land (or, async, could not start), the
 * backup holds older data than the device: mark those pages stale, so
 * that no read and no refill takes them from the backup
 * (submit_sync(), spare_backup_range_ok()), until a later write
 * of theirs lands and makes them current again.
 */
static void write_settled(struct spare_dev *dev, struct request *rq,
			  bool landed)
{
	u64 first = (blk_rq_pos(rq) << SECTOR_SHIFT) >> SPARE_PAGE_SHIFT;
	u64 n = DIV_ROUND_UP(blk_rq_bytes(rq), SPARE_PAGE_SIZE);
	unsigned long flags;

	spin_lock_irqsave(&dev->backup_lock, flags);
	if (landed)
		pages_clear(dev->backup_stale, first, n);
	else
		pages_set(dev->backup_stale, first, n);
	spin_unlock_irqrestore(&dev->backup_lock, flags);
}

static void backup_end_io(struct bio *bio)
{
	struct spare_cmd *cmd = bio->bi_private;

	if (op_is_write(bio_op(bio)))
		write_settled(cmd->dev, blk_mq_rq_from_pdu(cmd),
			      !bio->bi_status);
	if (bio->bi_status) {
		pr_warn_ratelimited("%s: backup %s at sector %llu failed: %d%s\n",
				    cmd->dev->cfg.backup,
				    op_is_write(bio_op(bio)) ? "write" : "read",
				    (unsigned long long)bio->bi_iter.bi_sector,
				    blk_status_to_errno(bio->bi_status),
				    op_is_write(bio_op(bio)) ?
				    "; those pages now have no backup until written again" : "");
		cmd->backup_status = BLK_STS_IOERR;
	}
	bio_put(bio);
	spare_cmd_put(cmd);
}

/*
 * An async backup write in flight. Its private copy of the data comes from
 * dev->async_pool; the request reserved those pages (spare_backup_reserve())
 * before it started, so the pool always has them and allocation never
 * fails or sleeps for long. The reservation passes to the write and is
 * returned when the disk write lands.
 */
struct async_write {
	struct spare_dev *dev;
	u64 first, n;			/* device pages */
	unsigned int reserved;		/* pages of dev->async_pages held */
	unsigned int nr_pages;
	struct page *pages[SPARE_MAX_SEGS + 1];
};

static void async_write_free(struct spare_dev *dev, struct async_write *aw)
{
	while (aw->nr_pages)
		mempool_free(aw->pages[--aw->nr_pages], dev->async_pool);
	kfree(aw);
}

static void async_end_io(struct bio *bio)
{
	struct async_write *aw = bio->bi_private;
	struct spare_dev *dev = aw->dev;
	blk_status_t status = bio->bi_status;
	sector_t sector = bio->bi_iter.bi_sector;
	u64 first = aw->first, n = aw->n;
	unsigned int reserved = aw->reserved;
	unsigned long flags;

	bio_put(bio);
	async_write_free(dev, aw);
	if (status)
		pr_warn_ratelimited("%s: async backup write at sector %llu failed: %d; those pages now have no backup\n",
				    dev->cfg.backup, (unsigned long long)sector,
				    blk_status_to_errno(status));
	/*
	 * Last touch of @dev: spare_backup_close() waits (taking backup_lock)
	 * until no page is busy, then frees the pool and the device. So the
	 * wake-up happens under the lock, before the bits it reports are
	 * visible to the closer.
	 */
	spin_lock_irqsave(&dev->backup_lock, flags);
	if (status)
		pages_set(dev->backup_stale, first, n);
	else
		pages_clear(dev->backup_stale, first, n);
	pages_clear(dev->backup_busy, first, n);
	/* the disk may be going (free_disk() clears queue_runnable first) */
	if (spare_room_put(&dev->async_pages, reserved, &dev->async_refused) &&
	    dev->queue_runnable)
		blk_mq_run_hw_queues(dev->disk->queue, true);
	wake_up_all(&dev->backup_wait);
	spin_unlock_irqrestore(&dev->backup_lock, flags);
}

/* Claim pages [first, first + n) for an async write if no older one has them. */
static bool claim_range(struct spare_dev *dev, u64 first, u64 n)
{
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&dev->backup_lock, flags);
	ok = find_next_bit(dev->backup_busy, first + n, first) >= first + n;
	if (ok)
		pages_set(dev->backup_busy, first, n);
	spin_unlock_irqrestore(&dev->backup_lock, flags);
	return ok;
}

static unsigned int rq_segments(struct request *rq)
{
	struct req_iterator iter;
	struct bio_vec bv;
	unsigned int n = 0;

	rq_for_each_segment(bv, rq, iter)
		n++;
	return n;
}

/*
 * Reserve room for the private copy of an async backup write before the
 * request starts (->queue_rq()). Never sleeps: false when there is none;
 * the caller answers BLK_STS_RESOURCE, and the async write that gives the
 * room back re-runs the queues (async_end_io()).
 */
bool spare_backup_reserve(struct spare_dev *dev, struct spare_cmd *cmd,
			  struct request *rq)
{
	unsigned int pages;

	cmd->async_pages = 0;
	if (!dev->has_backup || dev->cfg.backup_mode != SPARE_BACKUP_ASYNC)
		return true;
	pages = rq_segments(rq);
	if (!spare_room_try(&dev->async_pages, SPARE_ASYNC_COPY_PAGES, pages,
			    &dev->async_refused, &dev->stats.backup_waits))
		return false;
	cmd->async_pages = pages;
	return true;
}

/*
 * Give back a reservation the request did not pass to an async write.
 * True when a request refused for that room should be run again.
 */
bool spare_backup_unreserve(struct spare_dev *dev, struct spare_cmd *cmd)
{
	bool rerun;

	if (!cmd->async_pages)
		return false;
	rerun = spare_room_put(&dev->async_pages, cmd->async_pages,
			       &dev->async_refused);
	cmd->async_pages = 0;
	wake_up_all(&dev->backup_wait);
	return rerun;
}

/* The same, from ->queue_rq() for a request it does not start: no re-run. */
void spare_backup_undo(struct spare_dev *dev, struct spare_cmd *cmd)
{
	if (!cmd->async_pages)
		return;
	atomic_sub(cmd->async_pages, &dev->async_pages);
	cmd->async_pages = 0;
	wake_up_all(&dev->backup_wait);
}

/*
 * The backup part of a request, in one of two modes: from ->queue_rq()
 * (@can_wait false: GFP_NOWAIT, no wait; -EAGAIN when it would have to,
 * with nothing done) or from the device's workqueue (backup_work(): may
 * sleep, GFP_NOIO, and waits for an older async write of the same pages).
 */
static int submit_async_write(struct spare_cmd *cmd, struct request *rq,
			      struct block_device *bdev, u64 first, u64 n,
			      bool can_wait)
{
	gfp_t gfp = can_wait ? GFP_NOIO : GFP_NOWAIT;
	struct spare_dev *dev = cmd->dev;
	struct req_iterator iter;
	struct async_write *aw;
	struct bio_vec bv;
	struct bio *bio;

	aw = kzalloc(sizeof(*aw), gfp | __GFP_NOWARN);
	if (!aw)
		return -EAGAIN;		/* re-driven, or tried in the worker */
	aw->dev = dev;
	aw->first = first;
	aw->n = n;
	bio = bio_alloc_bioset(bdev, SPARE_MAX_SEGS + 1, REQ_OP_WRITE, gfp,
			       &dev->backup_bs);
	if (!bio) {
		kfree(aw);
		return -EAGAIN;
	}
	bio->bi_iter.bi_sector = blk_rq_pos(rq);
	bio->bi_private = aw;
	bio->bi_end_io = async_end_io;
	rq_for_each_segment(bv, rq, iter) {
		struct page *p;

		if (aw->nr_pages == cmd->async_pages ||
		    aw->nr_pages == ARRAY_SIZE(aw->pages))
			goto fail;	/* more segments than reserved */
		p = mempool_alloc(dev->async_pool, gfp);
		if (!p)
			goto again;
		aw->pages[aw->nr_pages++] = p;
		memcpy_page(p, 0, bv.bv_page, bv.bv_offset, bv.bv_len);
		if (bio_add_page(bio, p, bv.bv_len, 0) != bv.bv_len)
			goto fail;
	}
	/* Order after an older async write of these pages. */
	if (!claim_range(dev, first, n)) {
		if (!can_wait)
			goto again;
		atomic64_inc(&dev->stats.backup_waits);
		while (!wait_event_timeout(dev->backup_wait,
					   claim_range(dev, first, n), HZ / 10))
			;
	}
	aw->reserved = cmd->async_pages;
	cmd->async_pages = 0;
	backup_issue(dev, bio, can_wait);
	return 0;
again:
	bio_put(bio);
	async_write_free(dev, aw);
	return -EAGAIN;
fail:
	bio_put(bio);
	async_write_free(dev, aw);
	return -EIO;
}

static int submit_sync(struct spare_cmd *cmd, struct request *rq,
		       struct block_device *bdev, u64 first, u64 n,
		       bool write, bool can_wait)
{
	struct spare_dev *dev = cmd->dev;
	struct req_iterator iter;
	struct bio_vec bv;
	struct bio *bio;

	/* Order after any async backup write of these pages. */
	if (range_busy(dev, first, n)) {
		if (!can_wait)
			return -EAGAIN;
		atomic64_inc(&dev->stats.backup_waits);
		while (!wait_event_timeout(dev->backup_wait,
					   !range_busy(dev, first, n), HZ / 10))
			;
	}
	if (!write) {
		unsigned long flags;
		bool stale;

		spin_lock_irqsave(&dev->backup_lock, flags);
		stale = find_next_bit(dev->backup_stale, first + n, first) <
			first + n;
		spin_unlock_irqrestore(&dev->backup_lock, flags);
		if (stale) {
			pr_warn_ratelimited("%s: backup of pages %llu+%llu is stale after a failed write; refusing to read it\n",
					    dev->cfg.backup, first, n);
			return -EIO;
		}
	}
	bio = bio_alloc_bioset(bdev, SPARE_MAX_SEGS + 1,
			       write ? REQ_OP_WRITE : REQ_OP_READ,
			       can_wait ? GFP_NOIO : GFP_NOWAIT,
			       &dev->backup_bs);
	if (!bio)
		return -EAGAIN;
	bio->bi_iter.bi_sector = blk_rq_pos(rq);
	bio->bi_private = cmd;
	bio->bi_end_io = backup_end_io;
	rq_for_each_segment(bv, rq, iter) {
		if (bio_add_page(bio, bv.bv_page, bv.bv_len, bv.bv_offset) !=
		    bv.bv_len) {
			bio_put(bio);
			return -EIO;
		}
	}
	backup_issue(dev, bio, can_wait);
	return 0;
}

/* 0: submitted (the reference is dropped when it is done); else an errno. */
static int backup_submit(struct spare_cmd *cmd, bool can_wait)
{
	struct request *rq = blk_mq_rq_from_pdu(cmd);
	struct spare_dev *dev = cmd->dev;
	struct block_device *bdev = spare_bdev(&dev->backup);
	u64 first = (blk_rq_pos(rq) << SECTOR_SHIFT) >> SPARE_PAGE_SHIFT;
	u64 n = DIV_ROUND_UP(blk_rq_bytes(rq), SPARE_PAGE_SIZE);
	int ret;

	if (cmd->is_write && dev->cfg.backup_mode == SPARE_BACKUP_ASYNC) {
		ret = submit_async_write(cmd, rq, bdev, first, n, can_wait);
		if (!ret)
			spare_cmd_put(cmd);
	} else {
		ret = submit_sync(cmd, rq, bdev, first, n, cmd->is_write,
				  can_wait);
	}
	return ret;
}

/*
 * The backup part did not start: its pages' backup is stale (the remote
 * copies may take the write meanwhile; async_end_io() and backup_end_io()
 * settle the ones that started). -EAGAIN (no memory even in the worker):
 * the request is re-driven; anything else fails it.
 */
static void backup_failed(struct spare_cmd *cmd, int err)
{
	if (cmd->is_write)
		write_settled(cmd->dev, blk_mq_rq_from_pdu(cmd), false);
	cmd->backup_status = err == -EAGAIN ? BLK_STS_TRANSPORT :
					      BLK_STS_IOERR;
	spare_cmd_put(cmd);
}

/* The backup part that could not be done in ->queue_rq() without waiting. */
void spare_backup_work(struct work_struct *w)
{
	struct spare_cmd *cmd = container_of(w, struct spare_cmd, backup_work);
	unsigned int noio = memalloc_noio_save();
	int err = backup_submit(cmd, true);

	memalloc_noio_restore(noio);
	if (err)
		backup_failed(cmd, err);
}

/*
 * Submit the backup part of @cmd, from ->queue_rq(), holding a reference
 * of the command that is dropped when the backup I/O is done (or at once
 * for an async write, once its private copy is made). Never sleeps: what
 * would have to wait (room in the bio pool or the async page pool, an
 * older async write of the same pages) goes to the device's workqueue
 * (WQ_MEM_RECLAIM: its rescuer makes progress under memory pressure),
 * where the request's reference keeps its pages and the device alive.
 */
void spare_backup_start(struct spare_cmd *cmd)
{
	int err = backup_submit(cmd, false);

	if (!err)
		return;
	if (err != -EAGAIN) {
		backup_failed(cmd, err);
		return;
	}
	queue_work(cmd->dev->wq, &cmd->backup_work);
}

/*
 * Resync from the backup (spare_resync.c): may pages [first, first + n) of
 * the device be read from it now? Not while an async backup write of them
 * is in flight, nor where a backup write failed.
 */
bool spare_backup_range_ok(struct spare_dev *dev, u64 first, u64 n)
{
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&dev->backup_lock, flags);
	ok = find_next_bit(dev->backup_busy, first + n, first) >= first + n &&
	     find_next_bit(dev->backup_stale, first + n, first) >= first + n;
	spin_unlock_irqrestore(&dev->backup_lock, flags);
	return ok;
}

/*
 * Read @n pages at device page @first from the backup into @blocks, blocks
 * of 2^@order pages; waits for the read. 0 or a negative errno.
 */
int spare_backup_read_pages(struct spare_dev *dev, u64 first, u32 n,
			    struct page **blocks, unsigned int order)
{
	u32 block = SPARE_PAGE_SIZE << order, i, nblocks;
	u64 left = (u64)n << SPARE_PAGE_SHIFT;
	struct bio *bio;
	int ret;

	nblocks = DIV_ROUND_UP(n, 1U << order);
	bio = bio_alloc_bioset(spare_bdev(&dev->backup), nblocks, REQ_OP_READ,
			       GFP_NOIO, &dev->backup_bs);
	bio->bi_iter.bi_sector = (first << SPARE_PAGE_SHIFT) >> SECTOR_SHIFT;
	for (i = 0; i < nblocks; i++) {
		u32 len = min_t(u64, left, block);

		if (bio_add_page(bio, blocks[i], len, 0) != len) {
			bio_put(bio);
			return -EIO;
		}
		left -= len;
	}
	ret = submit_bio_wait(bio);
	bio_put(bio);
	return ret;
}
