/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place where spare.ko bridges kernel API differences between the
 * kernels it is built for (Debian's 6.1 and 6.12). Every other file calls the
 * spare_* wrappers below and contains no version test.
 *
 * Differences covered:
 *  - queue limits: 6.1 sets them with blk_queue_*() after allocating the
 *    disk; 6.12 passes a struct queue_limits to blk_mq_alloc_disk() and the
 *    setters are gone. Non-rotational is a queue flag on 6.1 and the default
 *    (no BLK_FEAT_ROTATIONAL) on 6.12. Stable writes are a queue flag on
 *    6.1 and a feature bit of the limits on 6.12.
 *  - block_device_operations: open() takes a block_device and fmode_t on 6.1
 *    and a gendisk and blk_mode_t on 6.12; release() lost its mode argument.
 *  - opening another block device by path: blkdev_get_by_path()/blkdev_put()
 *    on 6.1, bdev_file_open_by_path()/fput() on 6.12.
 */
#ifndef SPARE_COMPAT_H
#define SPARE_COMPAT_H

#include <linux/version.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/fs.h>
#include <linux/file.h>
#include <linux/err.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
#define SPARE_HAVE_QUEUE_LIMITS_ALLOC	1	/* limits given at alloc time */
#define SPARE_HAVE_BDEV_FILE		1	/* bdev_file_open_by_path() */
#define SPARE_HAVE_GENDISK_OPEN		1	/* open(gendisk, blk_mode_t) */
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#error "spare.ko supports the 6.1 and 6.12 kernel APIs only"
#endif

/* The queue limits spare asks for, independent of how they are applied. */
struct spare_limits {
	unsigned int block_size;	/* logical == physical */
	unsigned int max_hw_sectors;
	unsigned short max_segments;
	unsigned int max_segment_size;
	unsigned int dma_alignment;	/* a mask, as the block layer's */
	bool stable_writes;		/* pages do not change under writeback */
};

static inline struct gendisk *spare_alloc_disk(struct blk_mq_tag_set *set,
					       const struct spare_limits *l,
					       void *queuedata)
{
#ifdef SPARE_HAVE_QUEUE_LIMITS_ALLOC
	struct queue_limits lim = {
		.logical_block_size	= l->block_size,
		.physical_block_size	= l->block_size,
		.io_min			= l->block_size,
		.max_hw_sectors		= l->max_hw_sectors,
		.max_segments		= l->max_segments,
		.max_segment_size	= l->max_segment_size,
		.dma_alignment		= l->dma_alignment,
		.features		= l->stable_writes ?
					  BLK_FEAT_STABLE_WRITES : 0,
	};

	return blk_mq_alloc_disk(set, &lim, queuedata);
#else
	struct gendisk *disk = blk_mq_alloc_disk(set, queuedata);
	struct request_queue *q;

	if (IS_ERR(disk))
		return disk;
	q = disk->queue;
	blk_queue_logical_block_size(q, l->block_size);
	blk_queue_physical_block_size(q, l->block_size);
	blk_queue_io_min(q, l->block_size);
	blk_queue_max_hw_sectors(q, l->max_hw_sectors);
	blk_queue_max_segments(q, l->max_segments);
	blk_queue_max_segment_size(q, l->max_segment_size);
	blk_queue_dma_alignment(q, l->dma_alignment);
	if (l->stable_writes)
		blk_queue_flag_set(QUEUE_FLAG_STABLE_WRITES, q);
	blk_queue_flag_set(QUEUE_FLAG_NONROT, q);
	blk_queue_flag_clear(QUEUE_FLAG_ADD_RANDOM, q);
	return disk;
#endif
}

/*
 * SPARE_BDEV_OPEN_FN(name, fn) defines name() with the open() signature of
 * this kernel, calling int fn(struct gendisk *); likewise for release().
 */
#ifdef SPARE_HAVE_GENDISK_OPEN
#define SPARE_BDEV_OPEN_FN(name, fn)					\
	static int name(struct gendisk *disk, blk_mode_t mode)		\
	{								\
		return fn(disk);					\
	}
#define SPARE_BDEV_RELEASE_FN(name, fn)					\
	static void name(struct gendisk *disk)				\
	{								\
		fn(disk);						\
	}
#else
#define SPARE_BDEV_OPEN_FN(name, fn)					\
	static int name(struct block_device *bdev, fmode_t mode)	\
	{								\
		return fn(bdev->bd_disk);				\
	}
#define SPARE_BDEV_RELEASE_FN(name, fn)					\
	static void name(struct gendisk *disk, fmode_t mode)		\
	{								\
		fn(disk);						\
	}
#endif

/* An exclusively opened block device (the backup device). */
struct spare_bdev_handle {
#ifdef SPARE_HAVE_BDEV_FILE
	struct file *file;
#else
	struct block_device *bdev;
#endif
};

static inline int spare_bdev_open(const char *path, void *holder,
				  struct spare_bdev_handle *h)
{
#ifdef SPARE_HAVE_BDEV_FILE
	struct file *f = bdev_file_open_by_path(path,
						BLK_OPEN_READ | BLK_OPEN_WRITE,
						holder, NULL);

	if (IS_ERR(f))
		return PTR_ERR(f);
	h->file = f;
#else
	struct block_device *b = blkdev_get_by_path(path,
				FMODE_READ | FMODE_WRITE | FMODE_EXCL, holder);

	if (IS_ERR(b))
		return PTR_ERR(b);
	h->bdev = b;
#endif
	return 0;
}

static inline struct block_device *spare_bdev(const struct spare_bdev_handle *h)
{
#ifdef SPARE_HAVE_BDEV_FILE
	return h->file ? file_bdev(h->file) : NULL;
#else
	return h->bdev;
#endif
}

static inline void spare_bdev_close(struct spare_bdev_handle *h)
{
#ifdef SPARE_HAVE_BDEV_FILE
	if (h->file)
		fput(h->file);
	h->file = NULL;
#else
	if (h->bdev)
		blkdev_put(h->bdev, FMODE_READ | FMODE_WRITE | FMODE_EXCL);
	h->bdev = NULL;
#endif
}

/*
 * Wait until every ->queue_rq() that began before the call has returned
 * (an RCU grace period, or SRCU under BLK_MQ_F_BLOCKING), without
 * quiescing: new dispatches go on meanwhile. 6.2 made it per tag set.
 */
static inline void spare_wait_dispatch_done(struct gendisk *disk)
{
#ifdef SPARE_HAVE_QUEUE_LIMITS_ALLOC
	blk_mq_wait_quiesce_done(disk->queue->tag_set);
#else
	blk_mq_wait_quiesce_done(disk->queue);
#endif
}

#endif /* SPARE_COMPAT_H */
