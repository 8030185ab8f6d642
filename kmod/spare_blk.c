// SPDX-License-Identifier: GPL-2.0
/*
 * spare.ko block side: the gendisk, the blk-mq queue and the life of one
 * request.
 *
 * A request is cut at slab boundaries (spare_split()). For each part:
 *  - a write goes to every MAPPED copy, as one RDMA WRITE per copy straight
 *    from the bio pages, and to the backup device when there is one;
 *  - a read goes to one copy that is current for all its pages; if there is
 *    none, to the backup device; if there is no backup either, pages never
 *    written read as zeros and anything else is an I/O error.
 * When every operation has answered (spare_cmd_put()), the per-page bitmaps
 * learn which copies the write landed on, failed copies are marked FAILED,
 * and a request that did not land anywhere is re-driven: requeued, so that
 * the next attempt sees the new copy states.
 */
#include <linux/idr.h>
#include <linux/highmem.h>
#include <linux/module.h>
#include <linux/jiffies.h>

#include "spare.h"

static int spare_major;
static DEFINE_IDA(spare_index_ida);

/*
 * The write window: how much swap-out may be in flight per device before
 * ->queue_rq() refuses the next write (BLK_STS_RESOURCE: blk-mq keeps it
 * on its dispatch list, and the write that leaves the window re-runs the
 * hardware queues). Until session 35 the refused write waited there, on
 * whoever submitted it, usually the task in reclaim.
 *
 * Why: cgroup v2 reclaim never waits for anonymous pages under writeback.
 * With an asynchronous device it can put a cgroup's whole inactive list
 * under writeback, find nothing it can free on each of its retries, and
 * call the OOM killer while the pages are a few hundred microseconds from
 * being clean. A synchronous device (zram, brd) cannot get there; a disk
 * rarely does because its tags run out first. Bounding what is in flight
 * keeps the pages reclaim has written close to the pages it can free. The
 * reclaimer itself is held by the block layer's writeback throttle (wbt),
 * which sleeps in submit_bio() before a swap write gets its tag, in the
 * submitter's own context; nothing here waits (Documentation/kmod.md,
 * "Back-pressure"). wbt counts requests against a depth it takes from the
 * queue, which here is the window's (write_window_depth()): with the tag
 * depth it let up to 48 requests of swap-out (768 pages) under writeback on
 * 6.12, three times the window, most of them refused and holding tags
 * while the reclaimer went on finding nothing to free (issue 31).
 */
unsigned int spare_write_window_kb = 1024;

/*
 * The devices powered on, whose queue depth follows write_window_kb
 * (write_window_set()); spare_powered_lock is taken inside dev->lock.
 */
static LIST_HEAD(spare_powered);
static DEFINE_MUTEX(spare_powered_lock);

static unsigned int write_window_depth(void);

/*
 * A new window takes effect at once for what ->queue_rq() refuses, and
 * for the depth wbt sizes its limits from (blk_set_queue_depth() on every
 * powered device: wbt recomputes them, as when SCSI changes a device's
 * depth at runtime). Before, wbt kept the depth of the window in force at
 * power-on.
 */
static int write_window_set(const char *val, const struct kernel_param *kp)
{
	struct spare_dev *dev;
	int ret = param_set_uint(val, kp);

	if (ret)
		return ret;
	mutex_lock(&spare_powered_lock);
	list_for_each_entry(dev, &spare_powered, powered_node)
		blk_set_queue_depth(dev->disk->queue, write_window_depth());
	mutex_unlock(&spare_powered_lock);
	return 0;
}

static const struct kernel_param_ops write_window_ops = {
	.set = write_window_set,
	.get = param_get_uint,
};

module_param_cb(write_window_kb, &write_window_ops, &spare_write_window_kb,
		0644);
MODULE_PARM_DESC(write_window_kb,
		 "write requests in flight per device before new writes are held back, in KiB (0: no limit)");

/*
 * Take @pages of the write window; a request always fits an empty one.
 * Never sleeps: false when the window is full; the caller answers
 * BLK_STS_RESOURCE and write_window_leave() re-runs the queues.
 */
static bool write_window_enter(struct spare_dev *dev, struct spare_cmd *cmd,
			       unsigned int pages)
{
	int limit = READ_ONCE(spare_write_window_kb) >> (PAGE_SHIFT - 10);

	cmd->window_pages = 0;
	if (!limit)
		return true;
	if (!spare_room_try(&dev->write_pages, limit, pages,
			    &dev->window_refused, &dev->stats.write_waits))
		return false;
	cmd->window_pages = pages;
	return true;
}

/*
 * The queue depth the writeback throttle (wbt) sizes its limits from:
 * the write window in requests of the largest size, so that the swap-out
 * wbt lets through (its whole depth on 6.12, part of it on 6.1; scaled up
 * while only writes complete, to at most 3/4 of this) is no more than
 * the window puts on the wire. Set at power-on and again whenever
 * write_window_kb is written. With no window, the tag depth.
 * Reads are not counted by wbt: they keep all the tags.
 */
static unsigned int write_window_depth(void)
{
	unsigned int kb = READ_ONCE(spare_write_window_kb);

	if (!kb)
		return SPARE_QUEUE_DEPTH;
	return clamp_t(unsigned int,
		       DIV_ROUND_UP(kb, SPARE_MAX_IO_BYTES >> 10),
		       1, SPARE_QUEUE_DEPTH);
}

/*
 * ->queue_rq() gives back the room it took, for a request it does not
 * start after all. No re-run here: a request refused meanwhile would be
 * run again only to find the same thing in the way (an async copy room
 * still full, a queue still connecting), in a loop on kblockd; the next
 * completion re-runs it, or blk-mq after BLK_STS_RESOURCE's delay.
 */
static void room_undo(struct spare_dev *dev, struct spare_cmd *cmd)
{
	spare_backup_undo(dev, cmd);
	atomic_sub(cmd->window_pages, &dev->write_pages);
	cmd->window_pages = 0;
}

static void write_window_leave(struct spare_dev *dev, struct spare_cmd *cmd)
{
	bool rerun;

	if (!cmd->window_pages && !cmd->async_pages)
		return;
	rerun = spare_backup_unreserve(dev, cmd);
	if (cmd->window_pages &&
	    spare_room_put(&dev->write_pages, cmd->window_pages,
			   &dev->window_refused))
		rerun = true;
	cmd->window_pages = 0;
	if (rerun)	/* the request is alive: so is the queue */
		blk_mq_run_hw_queues(dev->disk->queue, true);
}

void spare_uevent(struct spare_dev *dev, const char *event,
		  const struct spare_donor *donor, s64 slab)
{
	char ev[48], dn[80], sl[32];
	char *envp[] = { ev, dn, slab >= 0 ? sl : NULL, NULL };

	if (!dev->disk || !dev->powered)
		return;
	snprintf(ev, sizeof(ev), "SPARE_EVENT=%s", event);
	snprintf(dn, sizeof(dn), "SPARE_DONOR=%s", donor ? donor->name : "");
	snprintf(sl, sizeof(sl), "SPARE_SLAB=%lld", slab);
	kobject_uevent_env(&disk_to_dev(dev->disk)->kobj, KOBJ_CHANGE, envp);
}

void spare_kick_queues(struct spare_dev *dev)
{
	if (dev->disk) {
		blk_mq_kick_requeue_list(dev->disk->queue);
		blk_mq_run_hw_queues(dev->disk->queue, true);
	}
}

static struct spare_op *cmd_new_op(struct spare_cmd *cmd, unsigned int ext,
				   u32 c, struct spare_queue *q,
				   const struct spare_copy *cp)
{
	struct spare_op *op = &cmd->ops[cmd->nr_ops++];

	op->cmd = cmd;
	op->q = q;
	op->ibdev = q->cm_id->device;
	op->ext = ext;
	op->copy = c;
	op->nsge = 0;
	op->failed = false;
	op->copy_fault = false;
	op->done = false;
	op->gen = cp->gen;
	op->rkey = cp->rkey;
	op->raddr = cp->addr + cmd->ext[ext].offset;
	return op;
}

/*
 * The data queue to reach copy @c's donor from hardware queue @hctx, or NULL
 * when it is not usable. Sets *wait when it is still connecting.
 */
static struct spare_queue *copy_queue(struct spare_dev *dev, u32 donor,
				      int hctx, bool *wait)
{
	struct spare_queue *q;

	if (donor >= dev->cfg.nr_donors)
		return NULL;		/* a spare slot: no copy there */
	q = spare_data_queue(&dev->donors[donor], hctx);

	if (IS_ERR(q)) {
		*wait = true;
		return NULL;
	}
	return q;
}

/*
 * Whether a part of a request that no copy can serve now waits instead of
 * failing: a copy of @slab is on a donor that holds it over a restart and
 * may come back with its pages (spare_copy_has_kept(); Documentation/
 * kmod.md, "Holding over a donor restart"). Bounded: the donor's hold
 * work adopts or forgets the copy within SPARE_LIFE_HOLD_MS and kicks the
 * queues. Never while the device powers off: what waits fails then.
 */
static bool slab_waits_for_kept(struct spare_dev *dev, struct spare_slab *slab)
{
	struct spare_slab_map *map = &dev->map;
	unsigned long flags;
	bool kept = false;
	u32 c;

	if (READ_ONCE(dev->dying))
		return false;
	spin_lock_irqsave(&slab->lock, flags);
	for (c = 0; c < map->nr_slots && !kept; c++)
		kept = spare_copy_has_kept(&slab->copy[c]);
	spin_unlock_irqrestore(&slab->lock, flags);
	return kept;
}

/* Choose the copies each part of a write goes to; begin the writes. */
static blk_status_t plan_write(struct spare_dev *dev, struct spare_cmd *cmd,
			       int hctx)
{
	struct spare_slab_map *map = &dev->map;
	struct spare_queue *qs[SPARE_MAX_SLOTS];
	u32 donors[SPARE_MAX_SLOTS];
	unsigned int e;
	bool wait = false;
	u32 c;

	/* First make sure every MAPPED copy's data queue is connected. */
	for (e = 0; e < cmd->nr_ext; e++) {
		struct spare_slab *slab = &map->slabs[cmd->ext[e].slab];
		unsigned long flags;
		u32 mapped = 0;

		spin_lock_irqsave(&slab->lock, flags);
		for (c = 0; c < map->nr_slots; c++) {
			donors[c] = slab->copy[c].donor;
			if (slab->copy[c].state == SPARE_COPY_MAPPED)
				mapped |= 1U << c;
		}
		spin_unlock_irqrestore(&slab->lock, flags);
		for (c = 0; c < map->nr_slots; c++)
			if (mapped & (1U << c))
				copy_queue(dev, donors[c], hctx, &wait);
		/* nowhere to land but a held copy: wait for it, write nothing */
		if (!mapped && !dev->has_backup && slab_waits_for_kept(dev, slab))
			cmd->held = true;
	}
	if (cmd->held)
		return BLK_STS_TRANSPORT;
	if (wait)
		return BLK_STS_RESOURCE;

	for (e = 0; e < cmd->nr_ext; e++) {
		struct spare_extent *x = &cmd->ext[e];
		struct spare_slab *slab = &map->slabs[x->slab];
		unsigned long flags;
		u32 targets;

		for (c = 0; c < map->nr_slots; c++) {
			donors[c] = READ_ONCE(slab->copy[c].donor);
			qs[c] = copy_queue(dev, donors[c], hctx, &wait);
		}

		spin_lock_irqsave(&slab->lock, flags);
		targets = spare_slab_write_begin(map, slab, x->first_page,
						 x->nr_pages, cmd->gens[e]);
		cmd->began[e] = true;
		for (c = 0; c < map->nr_slots; c++) {
			if (!(targets & (1U << c)))
				continue;
			/* a slot whose copy moved meanwhile: not this queue */
			if (!qs[c] || slab->copy[c].donor != donors[c]) {
				/* Not written: the copy stays stale here. */
				targets &= ~(1U << c);
				continue;
			}
			cmd_new_op(cmd, e, c, qs[c], &slab->copy[c]);
			slab->copy[c].inflight++;
		}
		spin_unlock_irqrestore(&slab->lock, flags);
		atomic64_add(x->nr_pages, &slab->accesses);
		cmd->targets[e] = targets;
		if (!targets && !dev->has_backup)
			return BLK_STS_TRANSPORT;	/* nowhere to land */
	}
	cmd->use_backup = dev->has_backup;
	return BLK_STS_OK;
}

/* Choose where each part of a read comes from. */
static blk_status_t plan_read(struct spare_dev *dev, struct spare_cmd *cmd,
			      int hctx, unsigned int tag)
{
	struct spare_slab_map *map = &dev->map;
	unsigned int e, i;
	bool wait = false;

	if (spare_integrity_want_backup(dev, cmd)) {
		cmd->use_backup = true;	/* every copy failed its crc32c */
		return BLK_STS_OK;
	}
	for (e = 0; e < cmd->nr_ext; e++) {
		struct spare_extent *x = &cmd->ext[e];
		struct spare_slab *slab = &map->slabs[x->slab];
		struct spare_queue *q = NULL;
		u32 donors[SPARE_MAX_SLOTS];
		unsigned long flags;
		bool written, busy;
		u32 mask, c = 0;

		spin_lock_irqsave(&slab->lock, flags);
		for (c = 0; c < map->nr_slots; c++)
			donors[c] = slab->copy[c].donor;
		mask = spare_slab_readable_mask(map, slab, x->first_page,
						x->nr_pages);
		written = spare_slab_ever_written(slab, x->first_page,
						  x->nr_pages);
		busy = slab->writes_inflight;
		spin_unlock_irqrestore(&slab->lock, flags);

		/* each re-drive starts at the next readable copy */
		for (i = 0; mask && i < hweight32(mask) && !q; i++) {
			c = spare_read_slot(mask, tag + cmd->attempts + i);
			q = copy_queue(dev, donors[c], hctx, &wait);
		}
		if (q) {
			spin_lock_irqsave(&slab->lock, flags);
			/* Recheck: the copy may have failed or moved meanwhile. */
			if ((spare_slab_readable_mask(map, slab, x->first_page,
						      x->nr_pages) & (1U << c)) &&
			    slab->copy[c].donor == donors[c]) {
				cmd_new_op(cmd, e, c, q, &slab->copy[c]);
				slab->copy[c].inflight++;
			} else {
				wait = true;
			}
			spin_unlock_irqrestore(&slab->lock, flags);
			atomic64_add(x->nr_pages, &slab->accesses);
			continue;
		}
		if (wait)
			break;
		if (dev->has_backup) {
			cmd->use_backup = true;
		} else if (!written) {
			cmd->zero[e] = true;
		} else if (busy) {
			wait = true;	/* a write to this slab is landing */
		} else if (slab_waits_for_kept(dev, slab)) {
			cmd->held = true;
			break;
		} else {
			pr_warn_ratelimited("%s: slab %u pages %u+%u: no current remote copy and no backup, data lost\n",
					    dev->disk->disk_name, x->slab,
					    x->first_page, x->nr_pages);
			return BLK_STS_TRANSPORT;
		}
	}
	if (wait || cmd->use_backup || cmd->held) {
		/* Nothing posted yet: drop the ops we planned. */
		for (i = 0; i < cmd->nr_ops; i++) {
			struct spare_op *op = &cmd->ops[i];
			struct spare_slab *slab = &map->slabs[cmd->ext[op->ext].slab];
			unsigned long flags;

			spin_lock_irqsave(&slab->lock, flags);
			slab->copy[op->copy].inflight--;
			spin_unlock_irqrestore(&slab->lock, flags);
		}
		cmd->nr_ops = 0;
		if (cmd->held)
			return BLK_STS_TRANSPORT;
		if (wait)
			return BLK_STS_RESOURCE;
		memset(cmd->zero, 0, sizeof(cmd->zero));
	}
	return BLK_STS_OK;
}

/* Attach every bio segment to the operations of its extent. */
static int map_segments(struct spare_dev *dev, struct spare_cmd *cmd,
			struct request *rq)
{
	enum dma_data_direction dir = cmd->is_write ? DMA_TO_DEVICE :
						      DMA_FROM_DEVICE;
	u8 shift = dev->map.slab_shift;
	u64 pos = blk_rq_pos(rq) << SECTOR_SHIFT;
	struct req_iterator iter;
	struct bio_vec bv;
	unsigned int i;

	rq_for_each_segment(bv, rq, iter) {
		u32 done = 0;

		while (done < bv.bv_len) {
			u32 piece = min_t(u64, bv.bv_len - done,
					  spare_bytes_to_slab_end(pos, shift));
			int e = spare_extent_find(cmd->ext, cmd->nr_ext, shift,
						  pos);

			if (e < 0)
				return -EIO;
			if (cmd->zero[e])
				memzero_page(bv.bv_page, bv.bv_offset + done,
					     piece);
			for (i = 0; i < cmd->nr_ops; i++) {
				struct spare_op *op = &cmd->ops[i];
				struct ib_device *ibdev = op->ibdev;
				struct ib_sge *sge;
				u64 dma;

				if (op->ext != e)
					continue;
				if (op->nsge == ARRAY_SIZE(op->sge))
					return -EIO;
				dma = ib_dma_map_page(ibdev, bv.bv_page,
						      bv.bv_offset + done,
						      piece, dir);
				if (ib_dma_mapping_error(ibdev, dma))
					return -ENOMEM;
				sge = &op->sge[op->nsge++];
				sge->addr = dma;
				sge->length = piece;
				sge->lkey = op->q->donor->pd->local_dma_lkey;
			}
			done += piece;
			pos += piece;
		}
	}
	return 0;
}

static blk_status_t spare_queue_rq(struct blk_mq_hw_ctx *hctx,
				   const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	struct spare_dev *dev = hctx->queue->queuedata;
	struct spare_cmd *cmd = blk_mq_rq_to_pdu(rq);
	unsigned int i;
	blk_status_t st;
	int n, err;

	if (dev->ec)	/* redundancy=ec:K+R: spare_ec_blk.c */
		return spare_ec_queue_rq(hctx, bd);
	/* Room is taken before the request's timer starts. */
	cmd->dev = dev;
	cmd->window_pages = 0;
	cmd->async_pages = 0;
	if (req_op(rq) == REQ_OP_WRITE) {
		unsigned int pages = blk_rq_bytes(rq) >> PAGE_SHIFT;

		if (!write_window_enter(dev, cmd, pages))
			return BLK_STS_RESOURCE;
		if (!spare_backup_reserve(dev, cmd, rq)) {
			room_undo(dev, cmd);
			return BLK_STS_RESOURCE;
		}
	}
	blk_mq_start_request(rq);
	if (!cmd->attempts) {
		cmd->start = jiffies;
		cmd->bad_reads = 0;
	}

	switch (req_op(rq)) {
	case REQ_OP_FLUSH:
		blk_mq_end_request(rq, BLK_STS_OK);
		return BLK_STS_OK;
	case REQ_OP_READ:
		cmd->is_write = false;
		break;
	case REQ_OP_WRITE:
		cmd->is_write = true;
		break;
	default:
		return BLK_STS_NOTSUPP;
	}

	n = spare_split(blk_rq_pos(rq) << SECTOR_SHIFT, blk_rq_bytes(rq),
			dev->cfg.size, dev->map.slab_shift, cmd->ext,
			SPARE_MAX_EXTENTS);
	if (n < 0) {
		pr_warn_ratelimited("%s: request at sector %llu, %u bytes, does not fit the device\n",
				    dev->disk->disk_name,
				    (unsigned long long)blk_rq_pos(rq),
				    blk_rq_bytes(rq));
		write_window_leave(dev, cmd);
		return BLK_STS_IOERR;
	}
	cmd->nr_ext = n;
	cmd->nr_ops = 0;
	cmd->use_backup = false;
	cmd->held = false;
	cmd->backup_status = BLK_STS_OK;
	memset(cmd->began, 0, sizeof(cmd->began));
	memset(cmd->zero, 0, sizeof(cmd->zero));
	memset(cmd->targets, 0, sizeof(cmd->targets));

	if (cmd->is_write && !cmd->attempts)
		spare_integrity_write(dev, rq);
	if (cmd->is_write)
		st = plan_write(dev, cmd, hctx->queue_num);
	else
		st = plan_read(dev, cmd, hctx->queue_num, rq->tag);
	if (st == BLK_STS_RESOURCE) {
		/* plan_read() dropped its ops; a write has none either. */
		room_undo(dev, cmd);
		return st;
	}

	/* One reference per op and backup bio, plus ours while we post. */
	atomic_set(&cmd->pending, 1);
	if (st != BLK_STS_OK) {
		for (i = 0; i < cmd->nr_ops; i++)
			cmd->ops[i].failed = cmd->ops[i].done = true;
		cmd->backup_status = st;
		cmd->use_backup = false;
		spare_cmd_put(cmd);
		return BLK_STS_OK;
	}

	err = map_segments(dev, cmd, rq);
	for (i = 0; i < cmd->nr_ops; i++) {
		struct spare_op *op = &cmd->ops[i];

		atomic_inc(&cmd->pending);
		if (err) {
			op->failed = true;
			op->done = true;
			spare_cmd_put(cmd);
			continue;
		}
		/* On failure spare_op_post() marks the op and puts it. */
		spare_op_post(op, cmd->is_write);
	}
	if (cmd->use_backup) {
		atomic_inc(&cmd->pending);
		spare_backup_start(cmd);
	}
	spare_cmd_put(cmd);	/* @cmd may be completed from here on */
	return BLK_STS_OK;
}

static bool cmd_extent_landed(const struct spare_cmd *cmd, unsigned int e)
{
	unsigned int i;

	for (i = 0; i < cmd->nr_ops; i++)
		if (cmd->ops[i].ext == e && !cmd->ops[i].failed)
			return true;
	return false;
}

static enum spare_op_result op_result(const struct spare_op *op)
{
	if (op->copy_fault)
		return SPARE_OP_COPY_FAULT;
	return op->failed ? SPARE_OP_UNSENT : SPARE_OP_DONE;
}

/* Settle the slab map once every op of @cmd has answered. */
static blk_status_t cmd_settle(struct spare_dev *dev, struct spare_cmd *cmd)
{
	struct spare_slab_map *map = &dev->map;
	blk_status_t st = BLK_STS_OK;
	bool wake = false;
	unsigned int i, e;

	for (i = 0; i < cmd->nr_ops; i++) {
		struct spare_op *op = &cmd->ops[i];
		struct spare_extent *x = &cmd->ext[op->ext];
		struct spare_slab *slab = &map->slabs[x->slab];
		struct spare_copy *cp = &slab->copy[op->copy];
		unsigned long flags;

		spare_op_unmap(op, cmd->is_write);
		spin_lock_irqsave(&slab->lock, flags);
		/* a write marks a copy current only where it landed */
		spare_slab_op_settle(map, slab, op->copy, op->gen,
				     x->first_page, x->nr_pages, cmd->is_write,
				     op_result(op));
		if (!--cp->inflight && cp->state == SPARE_COPY_EVICTING)
			wake = true;
		spin_unlock_irqrestore(&slab->lock, flags);
		if (op->failed && !cmd->is_write)
			st = BLK_STS_TRANSPORT;
	}
	for (e = 0; e < cmd->nr_ext; e++) {
		struct spare_slab *slab = &map->slabs[cmd->ext[e].slab];
		unsigned long flags;

		if (cmd->began[e]) {
			spin_lock_irqsave(&slab->lock, flags);
			spare_slab_write_end(slab);
			spin_unlock_irqrestore(&slab->lock, flags);
		}
		if (cmd->is_write && !cmd_extent_landed(cmd, e) &&
		    !cmd->use_backup)
			st = BLK_STS_TRANSPORT;
	}
	if (cmd->backup_status != BLK_STS_OK)
		st = cmd->backup_status;
	if (wake)
		wake_up_all(&dev->inflight_wait);
	return st;
}

static void cmd_account(struct spare_dev *dev, struct spare_cmd *cmd,
			struct request *rq)
{
	struct spare_io_stats *s = &dev->stats;
	unsigned int i;

	if (cmd->is_write) {
		atomic64_add(blk_rq_bytes(rq), &s->bytes_written);
		if (cmd->nr_ops)
			atomic64_inc(&s->rdma_writes);
		if (cmd->use_backup)
			atomic64_inc(&s->backup_writes);
		return;
	}
	atomic64_add(blk_rq_bytes(rq), &s->bytes_read);
	if (cmd->use_backup)
		atomic64_inc(&s->backup_reads);
	else if (cmd->nr_ops)
		atomic64_inc(&s->rdma_reads);
	for (i = 0; i < cmd->nr_ext; i++)
		if (cmd->zero[i])
			atomic64_inc(&s->zero_reads);
	if (cmd->attempts && cmd->nr_ops)
		atomic64_inc(&s->failovers);
}

/* Drop one reference; the last one completes or re-drives the request. */
void spare_cmd_put(struct spare_cmd *cmd)
{
	struct request *rq = blk_mq_rq_from_pdu(cmd);
	struct spare_dev *dev = cmd->dev;
	blk_status_t st;

	if (!atomic_dec_and_test(&cmd->pending))
		return;
	write_window_leave(dev, cmd);

	st = cmd_settle(dev, cmd);
	if (st == BLK_STS_OK && !spare_integrity_read_ok(dev, cmd, rq))
		/* re-driven from another source, while there is one */
		st = cmd->use_backup || spare_integrity_no_source(dev, cmd) ?
		     BLK_STS_IOERR : BLK_STS_TRANSPORT;
	if (st == BLK_STS_OK) {
		cmd_account(dev, cmd, rq);
		cmd->attempts = 0;
		cmd->held_counted = false;
		blk_mq_end_request(rq, BLK_STS_OK);
		return;
	}
	if (st == BLK_STS_TRANSPORT && cmd->held) {
		/*
		 * Only a held donor's copy can serve it: run it again in a
		 * while (or when the hold work kicks the requeue list), not
		 * counted as an attempt. Never sleeps; the hold bounds it.
		 */
		if (!cmd->held_counted)	/* once a request */
			atomic64_inc(&dev->stats.held_waits);
		cmd->held_counted = true;
		cmd->start = jiffies;	/* the loss timer starts after the hold */
		blk_mq_requeue_request(rq, false);
		blk_mq_delay_kick_requeue_list(rq->q, SPARE_HOLD_RETRY_MS);
		return;
	}
	/* powering off: nothing opens the disk, a request waits for nothing */
	if (st == BLK_STS_TRANSPORT && !READ_ONCE(dev->dying) &&
	    ++cmd->attempts < SPARE_REDRIVE_MAX &&
	    time_before(jiffies, cmd->start +
			msecs_to_jiffies(SPARE_IO_LOSS_TMO_MS))) {
		atomic64_inc(&dev->stats.redrives);
		blk_mq_requeue_request(rq, false);
		blk_mq_delay_kick_requeue_list(rq->q,
			spare_redrive_delay(cmd->attempts,
					    SPARE_REDRIVE_DELAY_MS,
					    SPARE_REDRIVE_DELAY_MAX_MS));
		return;
	}
	atomic64_inc(&dev->stats.io_errors);
	pr_warn_ratelimited("%s: %s at sector %llu failed after %u attempts\n",
			    dev->disk->disk_name,
			    cmd->is_write ? "write" : "read",
			    (unsigned long long)blk_rq_pos(rq), cmd->attempts);
	cmd->attempts = 0;
	cmd->held_counted = false;
	blk_mq_end_request(rq, BLK_STS_IOERR);
}

static enum blk_eh_timer_return spare_timeout(struct request *rq)
{
	struct spare_cmd *cmd = blk_mq_rq_to_pdu(rq);
	unsigned int i;

	pr_warn_ratelimited("%s: request at sector %llu timed out\n",
			    cmd->dev->disk->disk_name,
			    (unsigned long long)blk_rq_pos(rq));
	for (i = 0; i < cmd->nr_ops; i++)
		if (cmd->ops[i].q && !READ_ONCE(cmd->ops[i].done))
			spare_donor_error(cmd->ops[i].q->donor,
					  "I/O timeout");
	return BLK_EH_RESET_TIMER;
}

static int spare_init_request(struct blk_mq_tag_set *set, struct request *rq,
			      unsigned int hctx_idx, unsigned int numa_node)
{
	struct spare_cmd *cmd = blk_mq_rq_to_pdu(rq);

	memset(cmd, 0, sizeof(*cmd));
	INIT_WORK(&cmd->backup_work, spare_backup_work);
	return 0;
}

static const struct blk_mq_ops spare_mq_ops = {
	.queue_rq	= spare_queue_rq,
	.timeout	= spare_timeout,
	.init_request	= spare_init_request,
};

/*
 * While the device is open its configfs item cannot be removed: the open
 * holds a configfs dependency on it, so rmdir returns -EBUSY.
 *
 * The pin uses configfs_depend_item_unlocked(), which takes only configfs's
 * dirent spinlock. configfs_depend_item() would take the configfs root's
 * inode lock here, under the disk's open_mutex and our open_lock, and an
 * rmdir (inode lock, then the item's frag_sem) racing a power=0 write
 * (frag_sem, dev->lock, open_lock, then open_mutex in del_gendisk) closes
 * that into a cycle: lockdep reported it on the debug kernel. The unlocked
 * variant needs the subsystem to stay registered, which holds: the open
 * holds a reference on this module (taken before ->open), and the
 * subsystem is unregistered only at module exit. It finds the item by
 * walking the subsystem's tree, skipping items being dropped, so an open
 * racing rmdir gets -ENOENT rather than a dangling pin.
 */
static int spare_open(struct gendisk *disk)
{
	struct spare_dev *dev = disk->private_data;
	int ret = 0;

	mutex_lock(&dev->open_lock);
	if (dev->dying) {
		ret = -ENXIO;
	} else if (!dev->openers) {
		ret = configfs_depend_item_unlocked(&spare_subsys, &dev->item);
		if (ret)
			pr_warn("%s: cannot pin configfs item: %d\n",
				disk->disk_name, ret);
	}
	if (!ret)
		dev->openers++;
	mutex_unlock(&dev->open_lock);
	return ret;
}

static void spare_release(struct gendisk *disk)
{
	struct spare_dev *dev = disk->private_data;

	mutex_lock(&dev->open_lock);
	if (!--dev->openers)
		configfs_undepend_item(&dev->item);
	mutex_unlock(&dev->open_lock);
}

SPARE_BDEV_OPEN_FN(spare_bdev_open_fn, spare_open)
SPARE_BDEV_RELEASE_FN(spare_bdev_release_fn, spare_release)

static const struct block_device_operations spare_fops = {
	.owner		= THIS_MODULE,
	.open		= spare_bdev_open_fn,
	.release	= spare_bdev_release_fn,
};

/*
 * The kernel options the erasure codec needs that the target kernel lacks,
 * for check_redundancy()'s message; "" when spare.ko has the codec (Kbuild
 * builds kmod/core/spare_ec_code.c in only when it has both).
 */
static const char *ec_codec_missing(void)
{
#ifdef SPARE_EC_CODEC
	return "";
#else
	if (!IS_ENABLED(CONFIG_RAID6_PQ) && !IS_ENABLED(CONFIG_XOR_BLOCKS))
		return "CONFIG_RAID6_PQ and CONFIG_XOR_BLOCKS";
	return IS_ENABLED(CONFIG_RAID6_PQ) ? "CONFIG_XOR_BLOCKS" : "CONFIG_RAID6_PQ";
#endif
}

/*
 * redundancy=ec:K+R against the donors, their domains and replicas, and
 * the part not built with it yet (a backup device); against a
 * kernel without raid6_pq or xor (the rig's debug kernel) spare.ko has no
 * codec and refuses it, naming the missing options
 * (Documentation/erasure-coding.md).
 */
static int check_redundancy(struct spare_dev *dev)
{
	const char *missing = ec_codec_missing();
	const struct spare_config *c = &dev->cfg;
	const char *name = config_item_name(&dev->item);
	u32 i, j, domains = 0;
	char why[192];

	for (i = 0; i < c->nr_domains; i++) {
		for (j = 0; j < i && c->domain[j] != c->domain[i]; j++)
			;
		domains += j == i;
	}
	if (spare_ec_check(&c->ec, c->replicas, c->nr_donors, domains,
			   why, sizeof(why))) {
		pr_warn("%s: %s\n", name, why);
		return -EINVAL;
	}
	if (c->ec_delta > c->ec.r) {
		pr_warn("%s: ec_delta %u: at most R = %u with redundancy=ec:%u+%u\n",
			name, c->ec_delta, c->ec.r, c->ec.k, c->ec.r);
		return -EINVAL;
	}
	if (*missing) {
		pr_warn("%s: redundancy=ec:%u+%u: this kernel has no %s (raid6_pq, xor): spare.ko is built without the erasure codec, the device stays off\n",
			name, c->ec.k, c->ec.r, missing);
		return -EOPNOTSUPP;
	}
	if (c->backup[0]) {
		pr_warn("%s: redundancy=ec:%u+%u with a backup device: not built yet, the device stays off\n",
			name, c->ec.k, c->ec.r);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int check_config(struct spare_dev *dev)
{
	struct spare_config *c = &dev->cfg;

	if (!c->size) {
		pr_warn("%s: size is not set\n", config_item_name(&dev->item));
		return -EINVAL;
	}
	if (!c->nr_donors) {
		pr_warn("%s: no donors configured\n", config_item_name(&dev->item));
		return -EINVAL;
	}
	if (c->replicas > c->nr_donors) {
		pr_warn("%s: replicas (%u) exceeds the number of donors (%u)\n",
			config_item_name(&dev->item), c->replicas, c->nr_donors);
		return -EINVAL;
	}
	if (spare_ec_on(&c->ec))
		return check_redundancy(dev);
	if (c->ec_delta != SPARE_EC_DELTA_DEFAULT) {
		pr_warn("%s: ec_delta %u: split reads beyond K are for redundancy=ec:K+R only: leave it at %u\n",
			config_item_name(&dev->item), c->ec_delta,
			SPARE_EC_DELTA_DEFAULT);
		return -EINVAL;
	}
	return 0;
}

static int alloc_disk(struct spare_dev *dev)
{
	/*
	 * Whole pages in memory too: a buffer only 512-byte aligned (the
	 * block layer's default) would give sub-page segments. With integrity
	 * on, a page's checksum is taken when the write is submitted, so it
	 * must not change until the write lands: stable writes.
	 */
	const struct spare_limits lim = {
		.block_size	= SPARE_PAGE_SIZE,
		.max_hw_sectors	= SPARE_MAX_IO_BYTES >> SECTOR_SHIFT,
		.max_segments	= SPARE_MAX_SEGS,
		.max_segment_size = PAGE_SIZE,
		.dma_alignment	= PAGE_SIZE - 1,
		.stable_writes	= dev->cfg.integrity,
	};
	struct blk_mq_tag_set *set = &dev->tag_set;
	struct gendisk *disk;
	int ret;

	memset(set, 0, sizeof(*set));
	set->ops = &spare_mq_ops;
	set->nr_hw_queues = min_t(unsigned int, num_possible_cpus(), 64);
	set->queue_depth = SPARE_QUEUE_DEPTH;
	set->numa_node = NUMA_NO_NODE;
	set->cmd_size = sizeof(struct spare_cmd);
	/*
	 * Not BLK_MQ_F_BLOCKING: ->queue_rq() never sleeps (it refuses or
	 * hands work to dev->wq), so blk-mq runs it under plain RCU, inline
	 * from any context, and spare_wait_dispatch_done() is an RCU grace
	 * period.
	 */
	set->flags = BLK_MQ_F_SHOULD_MERGE;
	set->driver_data = dev;
	ret = blk_mq_alloc_tag_set(set);
	if (ret)
		return ret;

	disk = spare_alloc_disk(set, &lim, dev);
	if (IS_ERR(disk)) {
		blk_mq_free_tag_set(set);
		return PTR_ERR(disk);
	}
	blk_set_queue_depth(disk->queue, write_window_depth());
	disk->major = spare_major;
	disk->first_minor = dev->index;
	disk->minors = 1;
	disk->flags |= GENHD_FL_NO_PART;	/* a swap device: no partitions */
	disk->fops = &spare_fops;
	disk->private_data = dev;
	snprintf(disk->disk_name, DISK_NAME_LEN, "spare%d", dev->index);
	set_capacity(disk, dev->cfg.size >> SECTOR_SHIFT);
	dev->disk = disk;
	atomic_set(&dev->window_refused, 0);
	atomic_set(&dev->async_refused, 0);
	spin_lock_irq(&dev->backup_lock);
	dev->queue_runnable = true;
	spin_unlock_irq(&dev->backup_lock);
	return 0;
}

static void free_disk(struct spare_dev *dev)
{
	if (!dev->disk)
		return;
	/* async backup writes may land after this: they no longer run it */
	spin_lock_irq(&dev->backup_lock);
	dev->queue_runnable = false;
	spin_unlock_irq(&dev->backup_lock);
	put_disk(dev->disk);
	dev->disk = NULL;
	blk_mq_free_tag_set(&dev->tag_set);
}

/*
 * The one teardown, in this order (Documentation/kmod.md, "Teardown"): the
 * disk is gone or was never added, so no request runs; resync stops; the
 * donors stop (no completion, CM event or work item of theirs runs after);
 * resync is cancelled again, since a MAPPED reply may have kicked it in
 * between; the disk and tag set go; the backup closes once its async
 * writes have landed; the workqueue is drained and destroyed; only then
 * are the donors and the slab map freed.
 */
static void power_teardown(struct spare_dev *dev)
{
	spare_ec_stop(dev);
	spare_resync_stop(dev);
	spare_donors_stop(dev);
	spare_resync_stop(dev);
	free_disk(dev);
	spare_integrity_stop(dev);
	spare_backup_close(dev);
	if (dev->wq) {
		destroy_workqueue(dev->wq);
		dev->wq = NULL;
	}
	spare_donors_free(dev);
	spare_ec_free(dev);
	spare_slab_map_free(&dev->map);
	if (dev->index >= 0) {
		ida_free(&spare_index_ida, dev->index);
		dev->index = -1;
	}
}

/* Called with dev->lock held. */
int spare_dev_power_on(struct spare_dev *dev)
{
	const char *name = config_item_name(&dev->item);
	int ret;

	ret = check_config(dev);
	if (ret)
		return ret;
	if (spare_ec_on(&dev->cfg.ec))	/* the split table, checked */
		ret = spare_ec_power_on(dev);
	else
		ret = spare_slab_map_init(&dev->map, dev->cfg.size,
					  dev->cfg.slab_shift,
					  dev->cfg.replicas,
					  dev->cfg.nr_donors);
	if (ret) {
		pr_warn("%s: cannot build the slab map: %d\n", name, ret);
		return ret;
	}
	if (dev->cfg.nr_domains && dev->cfg.nr_domains != dev->cfg.nr_donors) {
		pr_warn("%s: domains: want one per donor (%u), got %u\n",
			name, dev->cfg.nr_donors, dev->cfg.nr_domains);
		spare_ec_free(dev);
		spare_slab_map_free(&dev->map);
		return -EINVAL;
	}
	if (dev->cfg.placement && !dev->ec &&
	    spare_slab_map_place(&dev->map, dev->cfg.placement,
				 dev->cfg.nr_placement)) {
		pr_warn("%s: placement: want %u donor indices (%u slabs x %u copies), each below %u, no slab twice on one donor; got %u\n",
			name, dev->map.nr_slabs * dev->map.nr_copies,
			dev->map.nr_slabs, dev->map.nr_copies,
			dev->cfg.nr_donors, dev->cfg.nr_placement);
		spare_slab_map_free(&dev->map);
		return -EINVAL;
	}
	ret = spare_resync_init(dev);
	if (ret) {
		spare_ec_free(dev);
		spare_slab_map_free(&dev->map);
		return ret;
	}
	ret = ida_alloc_max(&spare_index_ida, 255, GFP_KERNEL);
	if (ret < 0)
		goto fail;
	dev->index = ret;
	dev->wq = alloc_workqueue("spare%d", WQ_MEM_RECLAIM | WQ_UNBOUND, 0,
				  dev->index);
	if (!dev->wq) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = spare_backup_open(dev);
	if (ret)
		goto fail;
	ret = spare_integrity_start(dev);
	if (ret)
		goto fail;
	ret = alloc_disk(dev);
	if (ret)
		goto fail;
	ret = spare_donors_start(dev);
	if (ret)
		goto fail;
	if (dev->ec)
		spare_ec_ready(dev);
	ret = device_add_disk(NULL, dev->disk, spare_disk_groups);
	if (ret) {
		pr_warn("%s: add_disk failed: %d\n", name, ret);
		goto fail;
	}
	dev->powered = true;
	dev->dying = false;
	mutex_lock(&spare_powered_lock);
	list_add_tail(&dev->powered_node, &spare_powered);
	/* a window written since alloc_disk() */
	blk_set_queue_depth(dev->disk->queue, write_window_depth());
	mutex_unlock(&spare_powered_lock);
	pr_info("%s: %s up: %llu bytes, %u slabs of %u MiB, %u copies, %u donors%s%s\n",
		name, dev->disk->disk_name, dev->cfg.size, dev->map.nr_slabs,
		1U << (dev->map.slab_shift - 20), dev->map.nr_copies,
		dev->cfg.nr_donors, dev->has_backup ? ", backup " : "",
		dev->has_backup ? dev->cfg.backup : "");
	return 0;
fail:
	power_teardown(dev);
	return ret;
}

/* Called with dev->lock held. */
int spare_dev_power_off(struct spare_dev *dev)
{
	if (!dev->powered)
		return 0;
	mutex_lock(&dev->open_lock);
	if (dev->openers) {
		pr_warn("%s: %s is in use (open %u times); not powering off\n",
			config_item_name(&dev->item), dev->disk->disk_name,
			dev->openers);
		mutex_unlock(&dev->open_lock);
		return -EBUSY;
	}
	/* No opener can appear now: spare_open() checks dying. */
	dev->dying = true;
	mutex_unlock(&dev->open_lock);
	mutex_lock(&spare_powered_lock);
	list_del_init(&dev->powered_node);
	mutex_unlock(&spare_powered_lock);
	/* a request waiting for a held donor runs again and fails */
	spare_kick_queues(dev);
	del_gendisk(dev->disk);
	power_teardown(dev);
	dev->powered = false;
	dev->dying = false;
	return 0;
}

int spare_blk_init(void)
{
	spare_major = register_blkdev(0, "spare");
	return spare_major < 0 ? spare_major : 0;
}

void spare_blk_exit(void)
{
	unregister_blkdev(spare_major, "spare");
	ida_destroy(&spare_index_ida);
}
