/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backup: spare-ublk's backup device (--backup PATH, --backup-mode), with
 * spare.ko's semantics (kmod/spare_backup.c, Documentation/kmod.md):
 *
 *  sync:  a write completes when it is on the backup and on the copies that
 *         took it; a failed backup write fails the request.
 *  async: a write completes when its RDMA writes have settled; the backup
 *         write goes on from the request's own buffer, which the tag gives
 *         up (it is handed a spare buffer for its next request): no copy of
 *         the data. Spare buffers are few (BACKUP_ASYNC_BUFS): a write that
 *         finds none waits before it starts, as spare.ko's reservation
 *         does. An older async write of the same pages orders a newer one
 *         and any backup read of them after it (the per-page fence); a
 *         failed async write makes its pages "stale": reading them from the
 *         backup is an I/O error, never old data.
 *
 * Reads go to a current copy first; with none (a lost donor, one copy) the
 * extent is read from the backup (pages never written read as zeros).
 *
 * All backup I/O goes through the queue's own io_uring, O_DIRECT, straight
 * from and into the tag's buffer: no extra thread, no extra copy, no
 * polling. Everything here runs on the queue threads, except the two
 * functions for the resync thread at the end. In async mode the spare
 * buffers and the per-page fence are the device's, shared by every queue:
 * a queue's write may wait for a buffer another queue's backup write
 * frees, and a read for another queue's async write of its pages; the
 * thread that ends the wait kicks the waiting queue's thread
 * (backup_kicked()), which restarts its own request (backup.c).
 */
#ifndef SPARE_UBLK_BACKUP_H
#define SPARE_UBLK_BACKUP_H

#include <stdbool.h>
#include <stdint.h>

struct dev;
struct queue;

#define BACKUP_ASYNC_BUFS	16	/* spare 256 KiB buffers: 4 MiB, as spare.ko's pool */
#define UD_BACKUP		(0x100ULL << 32)	/* user_data: + buffer << 2 | kind */
#define UD_BACKUP_END		(0x101ULL << 32)

enum backup_mode { BACKUP_SYNC, BACKUP_ASYNC };

/*
 * Open @path (a block device, opened exclusively, or a regular file) for
 * a device of @size bytes. 0, or -1 with a sentence in @why.
 */
int backup_open(struct dev *d, const char *path, enum backup_mode mode,
		char *why, size_t whylen);
/* After the buffers exist: give every tag its buffer. 0 or -1. */
int backup_bufs_init(struct dev *d);
/*
 * Once queue @q's io_uring exists: register the buffer region with it
 * (IORING_OP_READ_FIXED/WRITE_FIXED: no page pinning per I/O). Without
 * it (a refusal is logged) backup I/O uses plain READ/WRITE.
 */
void backup_ring_init(struct queue *q);
/* Whether it did. */
bool backup_fixed(const struct dev *d);
/* Extra buffers the async mode needs beyond one per tag. */
unsigned int backup_extra_bufs(const struct dev *d);
void backup_close(struct dev *d);
/*
 * A restarted pager taking its device back: an async backup may lack the
 * last writes before the old pager died (they completed on their RDMA), and
 * which pages those were died with it. Every page of the backup is then
 * stale until written again: a read with no current copy fails rather
 * than return old data. A sync backup holds every completed write.
 */
void backup_distrust(struct dev *d);

/* Request path hooks (io.c), on queue @q's thread; @tag is the queue's. */
/* A write may start (a spare buffer is reserved in async mode); false: it waits. */
bool backup_admit(struct queue *q, unsigned int tag);
/* The request's backup write, after its RDMA writes are posted. */
void backup_write(struct queue *q, unsigned int tag);
/*
 * Read extent @ext of @tag's request from the backup (no copy is current).
 * True if it is served (posted, waiting for an older async write, or zero
 * filled); false means an I/O error.
 */
bool backup_read_ext(struct queue *q, unsigned int tag, unsigned int ext);
/* Whether the backup covers extent @ext of the request (see rq_finish). */
bool backup_covers(const struct queue *q, unsigned int tag, unsigned int ext);
/* Before the commit: the backup's verdict on the request, buffer hand-over. */
int backup_finish(struct queue *q, unsigned int tag, int err);
/* A backup I/O completed (user_data in [UD_BACKUP, UD_BACKUP_END)). */
void backup_done(struct queue *q, uint64_t ud, int res);
/* The queue thread ends: wait for every async backup write on its ring. */
void backup_drain(struct queue *q);
/*
 * Queue @q's kick eventfd fired (another queue freed a buffer @q's write
 * waited for, or landed an async write a read of @q's waited for): on @q's
 * thread, restart those writes and post those reads.
 */
void backup_kicked(struct queue *q);

/*
 * Resync from the backup (resync.c), any thread: whether device pages
 * [first, first + n) may be read from the backup now (no async backup
 * write of them in flight, none failed), as spare.ko's
 * spare_backup_range_ok(); and the read itself, @n pages into @buf
 * (4 KiB aligned, for O_DIRECT), waiting for it: 0 or -errno.
 */
bool backup_range_ok(struct dev *d, uint64_t first, uint64_t n);
int backup_read_pages(struct dev *d, uint64_t first, uint32_t n, void *buf);

#endif /* SPARE_UBLK_BACKUP_H */
