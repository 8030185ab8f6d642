// SPDX-License-Identifier: GPL-2.0
/*
 * spare-ublk's backup device (userspace/ublk/backup.c) on the host, with a
 * real io_uring and an O_DIRECT file under /var/tmp, without ublk or RDMA:
 * the test plays the queue thread (it reaps the ring and calls
 * backup_done()) and stands in for io.c's rq_put()/rq_restart().
 *
 *  - async: a request's buffer is left to its backup write and the tag
 *    gets a spare one; a newer write of the same pages is not posted while
 *    the older is in flight, and a backup read of them waits for both, then
 *    reads the newer data (the fence: no stale read);
 *  - async: with the 16 spare buffers held by backup writes in flight, a
 *    write waits, and is restarted when one lands;
 *  - async: a failed backup write makes its pages stale (the read is
 *    refused), a later good write of them clears it;
 *  - sync: the request waits for its backup write, a failed one fails it;
 *    pages never written read as zeros without touching the disk;
 *  - resync from the backup (resync.c's rule, with the shared
 *    spare_slab_resync_begin_backup()): a copy mapped again is refilled
 *    only from pages the backup holds for sure: not while a write is in
 *    flight in the slab, nor while an async backup write of the pages is,
 *    nor from stale pages; a write during the chunk keeps it from being
 *    marked; backup_read_pages() reads what the last write left.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "backup.h"
#include "integrity.h"
#include "pager.h"
#include "tap.h"

#define DEPTH	4
#define SIZE	(4U << 20)

#define NQ	2	/* queues, at most */

static struct dev dev;
static struct queue qs[NQ];
#define q0	(qs[0])
#define q1	(qs[1])		/* in the two-queue cases */
/* by device tag: queue id * DEPTH + tag */
static unsigned int finished[NQ * DEPTH], restarted[NQ * DEPTH];
static int fin_err[NQ * DEPTH];
static bool fin_covered[NQ * DEPTH];
static char path[128];
static bool fail_next_write;	/* deliver the next backup write as -EIO */
static bool fixed;		/* the second round: registered buffers */

/* io.c's, as the request path uses them. */
void rq_put(struct queue *q, unsigned int tag)
{
	struct rq *r = &q->rqs[tag];
	unsigned int g = q_gtag(q, tag);

	if (--r->inflight)
		return;
	fin_covered[g] = backup_covers(q, tag, 0);
	fin_err[g] = backup_finish(q, tag, r->err);
	finished[g]++;
}

void rq_restart(struct queue *q, unsigned int tag)
{
	restarted[q_gtag(q, tag)]++;
}

/*
 * Operations the kernel took from the ring and has not completed (each
 * SQE here gives exactly one CQE: no multishot, no skipped CQEs).
 */
static unsigned int ring_inflight(struct io_uring *r)
{
	return io_uring_smp_load_acquire(r->sq.khead) - *r->cq.khead;
}

/*
 * Reap every backup completion until none is in flight: a completion may
 * post the next operation (a fenced write, a waiting read), which the
 * next turn submits. A quiet spell is no proof here: on a loaded host a
 * write to the backup file took longer than the 0.2 s this once waited.
 * 10 s with nothing in flight completing is a failure (a lost operation).
 */
static unsigned int reap(struct queue *q)
{
	struct __kernel_timespec ts = { .tv_sec = 10 };
	struct io_uring *r = &q->q.ring;
	struct io_uring_cqe *cqe;
	unsigned int n = 0;

	for (;;) {
		io_uring_submit(r);
		if (!ring_inflight(r) && !io_uring_cq_ready(r))
			return n;
		if (io_uring_wait_cqe_timeout(r, &cqe, &ts)) {
			fprintf(stderr, "reap: %u operations still in flight after 10 s\n",
				ring_inflight(r));
			return n;
		}
		{
			u64 ud = io_uring_cqe_get_data64(cqe);
			int res = cqe->res;

			io_uring_cqe_seen(r, cqe);
			if ((ud & 3) == 0 && fail_next_write) {
				fail_next_write = false;
				res = -EIO;
			}
			backup_done(q, ud, res);
			n++;
		}
	}
}

static int setup_n(enum backup_mode mode, unsigned int nq)
{
	char why[256];
	unsigned int i;
	int fd;

	memset(&dev, 0, sizeof(dev));
	memset(qs, 0, sizeof(qs));
	dev.queues = qs;
	dev.nr_queues = nq;
	for (i = 0; i < nq; i++) {
		qs[i].d = &dev;
		qs[i].id = i;
		qs[i].kick_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (qs[i].kick_fd < 0 || io_uring_queue_init(64, &qs[i].q.ring, 0))
			return -1;
	}
	memset(finished, 0, sizeof(finished));
	memset(restarted, 0, sizeof(restarted));
	dev.size = SIZE;
	dev.slab_shift = 20;
	dev.copies = 1;
	dev.depth = DEPTH;
	snprintf(path, sizeof(path), "/var/tmp/spare-ublk-backup-%d.img", (int)getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, SIZE)) {
		fprintf(stderr, "# %s: %s\n", path, strerror(errno));
		return -1;
	}
	close(fd);
	if (spare_slab_map_init(&dev.map, SIZE, 20, 1, 1))
		return -1;
	if (backup_open(&dev, path, mode, why, sizeof(why))) {
		fprintf(stderr, "# %s\n", why);
		return -1;
	}
	dev.bufs = aligned_alloc(4096, (size_t)(nq * DEPTH + backup_extra_bufs(&dev)) * MAX_IO);
	dev.rqs = calloc(nq * DEPTH, sizeof(*dev.rqs));
	if (!dev.bufs || !dev.rqs || backup_bufs_init(&dev))
		return -1;
	for (i = 0; i < nq; i++) {
		qs[i].rqs = dev.rqs + i * DEPTH;
		qs[i].tag_addr = dev.tag_addr + i * DEPTH;
		if (fixed)
			backup_ring_init(&qs[i]);
	}
	if (fixed)
		EXPECT(backup_fixed(&dev));
	return 0;
}

static int setup(enum backup_mode mode)
{
	return setup_n(mode, 1);
}

static void teardown(void)
{
	backup_close(&dev);
	for (unsigned int i = 0; i < dev.nr_queues; i++) {
		io_uring_queue_exit(&qs[i].q.ring);
		close(qs[i].kick_fd);
	}
	spare_slab_map_free(&dev.map);
	free(dev.bufs);
	free(dev.rqs);
	unlink(path);
}

/* A one-extent request on @tag: pages [page, page + n) of slab 0. */
static void rq_set(unsigned int tag, bool write, u32 page, u32 n)
{
	struct rq *r = &dev.rqs[tag];

	memset(r, 0, sizeof(*r));
	r->write = write;
	r->pos = (u64)page << SPARE_PAGE_SHIFT;
	r->len = n << SPARE_PAGE_SHIFT;
	r->nr_ext = 1;
	r->ext[0] = (struct spare_extent){ .slab = 0, .offset = r->pos, .len = r->len,
					   .first_page = page, .nr_pages = n };
	if (write) {	/* as io.c: the slab records the pages as written */
		struct spare_slab *slab = &dev.map.slabs[0];
		u32 gens[SPARE_MAX_SLOTS];

		spin_lock(&slab->lock);
		spare_slab_write_begin(&dev.map, slab, page, n, gens);
		spare_slab_write_end(slab);
		spin_unlock(&slab->lock);
	}
}

/* An async write on queue @q whose RDMA part settles at once (it landed on no copy). */
static void async_write_q(struct queue *q, unsigned int tag, u32 page, u32 n,
			  char fill)
{
	rq_set(q_gtag(q, tag), true, page, n);
	memset(tag_buf(q, tag), fill, n << SPARE_PAGE_SHIFT);
	backup_write(q, tag);
	fin_err[q_gtag(q, tag)] = backup_finish(q, tag, 0);	/* rq_finish, committed */
}

static void async_write(unsigned int tag, u32 page, u32 n, char fill)
{
	async_write_q(&q0, tag, page, n, fill);
}

/* Whether queue @q was kicked (its eventfd read, so: since the last look). */
static bool kicked(struct queue *q)
{
	uint64_t v;

	return read(q->kick_fd, &v, sizeof(v)) == sizeof(v);
}

static bool all(const char *p, char c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != c)
			return false;
	return true;
}

static void test_async_fence(void)
{
	char *first;

	if (setup(BACKUP_ASYNC)) {
		EXPECT(0);
		teardown();
		return;
	}
	EXPECT(backup_admit(&q0, 0));
	first = tag_buf(&q0, 0);
	async_write(0, 0, 4, 'A');
	EXPECT(tag_buf(&q0, 0) != first);	/* the buffer stays with the backup write */
	EXPECT_EQ(io_uring_sq_ready(&q0.q.ring), 1);
	EXPECT(backup_admit(&q0, 0));
	async_write(0, 2, 4, 'B');		/* overlaps pages 2, 3 */
	EXPECT_EQ(io_uring_sq_ready(&q0.q.ring), 1);	/* fenced: not posted */
	EXPECT(all(first, 'A', 4 << SPARE_PAGE_SHIFT));	/* 'A' untouched meanwhile */
	rq_set(1, false, 0, 6);
	EXPECT(backup_read_ext(&q0, 1, 0));
	EXPECT_EQ(dev.rqs[1].inflight, 1);	/* waits for both writes */
	EXPECT_EQ(io_uring_sq_ready(&q0.q.ring), 1);
	EXPECT(q0.st.backup_waits >= 2);
	EXPECT_EQ(reap(&q0), 3);		/* A, then B, then the read */
	EXPECT_EQ(finished[1], 1);
	EXPECT(fin_covered[1] && fin_err[1] == 0);
	EXPECT(all(tag_buf(&q0, 1), 'A', 2 << SPARE_PAGE_SHIFT));
	EXPECT(all(tag_buf(&q0, 1) + (2 << SPARE_PAGE_SHIFT), 'B', 4 << SPARE_PAGE_SHIFT));
	EXPECT_EQ(q0.st.backup_reads, 1);
	teardown();
}

static void test_async_buffers_bounded(void)
{
	unsigned int i;

	if (setup(BACKUP_ASYNC)) {
		EXPECT(0);
		teardown();
		return;
	}
	for (i = 0; i < BACKUP_ASYNC_BUFS; i++) {
		EXPECT(backup_admit(&q0, 0));
		async_write(0, i * 4, 4, (char)('a' + i));
	}
	/* every spare buffer is held by a backup write in flight */
	EXPECT(!backup_admit(&q0, 0));
	EXPECT_EQ(restarted[0], 0);
	EXPECT(reap(&q0) >= 1);
	EXPECT_EQ(restarted[0], 1);		/* it got a buffer */
	EXPECT(backup_admit(&q0, 0));		/* already reserved */
	async_write(0, 64, 4, 'z');
	reap(&q0);
	rq_set(1, false, 4 * 5, 4);
	EXPECT(backup_read_ext(&q0, 1, 0));
	reap(&q0);
	EXPECT(fin_covered[1] && all(tag_buf(&q0, 1), 'f', 4 << SPARE_PAGE_SHIFT));
	teardown();
}

static void test_async_stale(void)
{
	if (setup(BACKUP_ASYNC)) {
		EXPECT(0);
		teardown();
		return;
	}
	EXPECT(backup_admit(&q0, 0));
	async_write(0, 8, 4, 'x');
	fail_next_write = true;
	reap(&q0);
	EXPECT_EQ(q0.st.backup_errors, 1);
	rq_set(1, false, 9, 1);
	EXPECT(!backup_read_ext(&q0, 1, 0));	/* stale: refused, not old data */
	EXPECT(backup_admit(&q0, 0));
	async_write(0, 8, 4, 'y');
	reap(&q0);
	rq_set(1, false, 9, 1);
	EXPECT(backup_read_ext(&q0, 1, 0));
	reap(&q0);
	EXPECT(fin_covered[1] && all(tag_buf(&q0, 1), 'y', SPARE_PAGE_SIZE));
	teardown();
}

/* After a restart, an async backup is trusted for no page until the page
 * is written again (the old pager's writes may not all have landed). */
static void test_async_distrust(void)
{
	u32 last = (1U << (20 - SPARE_PAGE_SHIFT)) - 1;	/* slab 0's */

	if (setup(BACKUP_ASYNC)) {
		EXPECT(0);
		teardown();
		return;
	}
	EXPECT(backup_admit(&q0, 0));
	async_write(0, 8, 4, 'x');
	reap(&q0);
	rq_set(1, false, 9, 1);
	EXPECT(backup_read_ext(&q0, 1, 0));	/* trusted before */
	reap(&q0);
	EXPECT(fin_covered[1] && all(tag_buf(&q0, 1), 'x', SPARE_PAGE_SIZE));
	/* as a restart does: every page counts as written */
	bitmap_set(dev.map.slabs[0].written, 0, dev.map.pages_per_slab);
	backup_distrust(&dev);
	rq_set(1, false, 9, 1);
	EXPECT(!backup_read_ext(&q0, 1, 0));	/* written, now distrusted */
	rq_set(1, false, 0, 1);
	EXPECT(!backup_read_ext(&q0, 1, 0));	/* first page */
	rq_set(1, false, last, 1);
	EXPECT(!backup_read_ext(&q0, 1, 0));	/* last page */
	EXPECT(backup_admit(&q0, 0));
	async_write(0, 9, 1, 'z');
	reap(&q0);
	rq_set(1, false, 9, 1);
	EXPECT(backup_read_ext(&q0, 1, 0));	/* written again: trusted */
	reap(&q0);
	EXPECT(fin_covered[1] && all(tag_buf(&q0, 1), 'z', SPARE_PAGE_SIZE));
	rq_set(1, false, 10, 1);
	EXPECT(!backup_read_ext(&q0, 1, 0));	/* its neighbour still not */
	teardown();
}

static void test_sync(void)
{
	if (setup(BACKUP_SYNC)) {
		EXPECT(0);
		teardown();
		return;
	}
	EXPECT_EQ(backup_extra_bufs(&dev), 0);
	rq_set(1, false, 100, 2);		/* never written: zeros, no I/O */
	memset(tag_buf(&q0, 1), 0x55, 2 << SPARE_PAGE_SHIFT);
	EXPECT(backup_read_ext(&q0, 1, 0));
	EXPECT(backup_covers(&q0, 1, 0));
	EXPECT_EQ(io_uring_sq_ready(&q0.q.ring), 0);
	EXPECT(all(tag_buf(&q0, 1), 0, 2 << SPARE_PAGE_SHIFT));
	EXPECT_EQ(q0.st.zero_reads, 1);
	backup_finish(&q0, 1, 0);

	rq_set(0, true, 100, 2);
	memset(tag_buf(&q0, 0), 'S', 2 << SPARE_PAGE_SHIFT);
	backup_write(&q0, 0);
	EXPECT_EQ(dev.rqs[0].inflight, 1);	/* the request waits for the disk */
	EXPECT_EQ(finished[0], 0);
	reap(&q0);
	EXPECT(finished[0] == 1 && fin_err[0] == 0 && fin_covered[0]);

	rq_set(0, true, 102, 1);
	backup_write(&q0, 0);
	fail_next_write = true;
	reap(&q0);
	EXPECT(finished[0] == 2 && fin_err[0] == -EIO);	/* a failed backup write fails it */
	rq_set(1, false, 102, 1);
	EXPECT(!backup_read_ext(&q0, 1, 0));	/* and its page is stale */

	rq_set(1, false, 100, 2);
	EXPECT(backup_read_ext(&q0, 1, 0));
	reap(&q0);
	EXPECT(fin_covered[1] && all(tag_buf(&q0, 1), 'S', 2 << SPARE_PAGE_SHIFT));

	/* page 98 never written, though the backup disk holds bytes there */
	{
		int fd = open(path, O_WRONLY);

		EXPECT(fd >= 0 && pwrite(fd, "junk", 4, 98 << SPARE_PAGE_SHIFT) == 4);
		if (fd >= 0)
			close(fd);
	}
	rq_set(1, false, 98, 3);	/* 98 never written, 99 never, 100 written */
	EXPECT(backup_read_ext(&q0, 1, 0));
	reap(&q0);
	EXPECT(fin_covered[1] && all(tag_buf(&q0, 1), 0, 2 << SPARE_PAGE_SHIFT) &&
	       all(tag_buf(&q0, 1) + (2 << SPARE_PAGE_SHIFT), 'S', SPARE_PAGE_SIZE));
	teardown();
}

/*
 * --integrity crc32c with a backup: a page read from the backup device is
 * checked against the checksum table as a copy's is; the backup is the
 * last source, so a page that does not match fails the read (EIO), is
 * counted and never returned.
 */
static void test_sync_integrity(void)
{
	u64 reads0;
	int fd;

	if (setup(BACKUP_SYNC) || (dev.integrity = true, integ_init(&dev))) {
		EXPECT(0);
		teardown();
		return;
	}
	rq_set(0, true, 100, 2);
	memset(tag_buf(&q0, 0), 'S', 2 << SPARE_PAGE_SHIFT);
	/* as io.c's integ_write(): the checksums, then the writes */
	for (u32 k = 0; k < 2; k++)
		spare_crc_set(&dev.crc, 100 + k, 0,
			      integ_crc32c(tag_buf(&q0, 0) + ((size_t)k << SPARE_PAGE_SHIFT),
					   SPARE_PAGE_SIZE));
	backup_write(&q0, 0);
	reap(&q0);
	EXPECT(finished[0] == 1 && fin_err[0] == 0);

	rq_set(1, false, 100, 2);		/* read back whole: checked, good */
	EXPECT(backup_read_ext(&q0, 1, 0));
	reap(&q0);
	EXPECT(fin_covered[1] && all(tag_buf(&q0, 1), 'S', 2 << SPARE_PAGE_SHIFT));
	EXPECT_EQ(q0.st.integrity_errors, 0);

	/* the disk changes page 101 under us */
	fd = open(path, O_WRONLY);
	EXPECT(fd >= 0 && pwrite(fd, "junk", 4, 101 << SPARE_PAGE_SHIFT) == 4);
	if (fd >= 0)
		close(fd);
	reads0 = q0.st.backup_reads;
	rq_set(1, false, 100, 2);
	EXPECT(backup_read_ext(&q0, 1, 0));
	reap(&q0);
	EXPECT(!fin_covered[1]);		/* not returned: the request fails */
	EXPECT_EQ(q0.st.integrity_errors, 1);
	EXPECT_EQ(q0.st.backup_reads, reads0);
	rq_set(1, false, 100, 1);		/* page 100 alone is still good */
	EXPECT(backup_read_ext(&q0, 1, 0));
	reap(&q0);
	EXPECT(fin_covered[1] && all(tag_buf(&q0, 1), 'S', SPARE_PAGE_SIZE));
	EXPECT_EQ(q0.st.integrity_errors, 1);
	integ_fini(&dev);
	teardown();
}

/* The copy of slab 0 mapped again (fresh): current only where never written. */
static void remap_copy(void)
{
	struct spare_slab *slab = &dev.map.slabs[0];

	spin_lock(&slab->lock);
	if (slab->copy[0].state == SPARE_COPY_MAPPED)
		spare_copy_set_state(&dev.map, slab, 0, SPARE_COPY_FAILED);
	if (slab->copy[0].state != SPARE_COPY_UNMAPPED)
		spare_copy_set_state(&dev.map, slab, 0, SPARE_COPY_UNMAPPED);
	spare_copy_set_state(&dev.map, slab, 0, SPARE_COPY_MAPPING);
	spare_copy_set_state(&dev.map, slab, 0, SPARE_COPY_MAPPED);
	spin_unlock(&slab->lock);
}

/*
 * resync.c's chunk_begin() for slab 0 of this one-copy map: 1 begun (in
 * *rs), 0 nothing to do, -EBUSY a write in flight, -EAGAIN the backup
 * cannot be read for it now (the chunk is closed again, not marked).
 */
static int rs_begin(struct spare_resync *rs)
{
	struct spare_slab *slab = &dev.map.slabs[0];
	int ret;

	spin_lock(&slab->lock);
	ret = spare_slab_resync_begin(&dev.map, slab, 64, rs);
	if (ret)
		ret = spare_slab_resync_begin_backup(&dev.map, slab, 64, rs);
	spin_unlock(&slab->lock);
	if (ret)
		return ret == -EBUSY ? -EBUSY : 0;
	if (rs->source != SPARE_RESYNC_BACKUP)
		return -EINVAL;		/* there is no other copy */
	if (!backup_range_ok(&dev, rs->first, rs->n)) {
		spin_lock(&slab->lock);
		spare_slab_resync_end(&dev.map, slab, rs, false);
		spin_unlock(&slab->lock);
		return -EAGAIN;
	}
	return 1;
}

static bool rs_end(const struct spare_resync *rs, bool ok)
{
	struct spare_slab *slab = &dev.map.slabs[0];
	bool marked;

	spin_lock(&slab->lock);
	marked = spare_slab_resync_end(&dev.map, slab, rs, ok);
	spin_unlock(&slab->lock);
	return marked;
}

static bool copy_current(u32 first, u32 n)
{
	return spare_copy_is_current(&dev.map.slabs[0].copy[0], first, n);
}

static void test_resync_async(void)
{
	struct spare_slab *slab;
	struct spare_resync rs;
	char *buf = aligned_alloc(4096, 64 << SPARE_PAGE_SHIFT);
	u32 gens[SPARE_MAX_SLOTS];

	if (!buf || setup(BACKUP_ASYNC)) {
		EXPECT(0);
		teardown();
		free(buf);
		return;
	}
	slab = &dev.map.slabs[0];
	EXPECT(backup_admit(&q0, 0));
	async_write(0, 8, 4, 'x');		/* completed, its backup write not landed */
	remap_copy();
	EXPECT(!copy_current(8, 1) && copy_current(0, 8));
	EXPECT_EQ(rs_begin(&rs), -EAGAIN);	/* the fence: not from older bytes */
	EXPECT(!copy_current(8, 4));
	EXPECT_EQ(reap(&q0), 1);		/* it lands */
	EXPECT_EQ(rs_begin(&rs), 1);
	EXPECT(rs.first == 8 && rs.n == 4);
	EXPECT_EQ(backup_read_pages(&dev, rs.first, rs.n, buf), 0);
	EXPECT(all(buf, 'x', 4 << SPARE_PAGE_SHIFT));
	EXPECT(rs_end(&rs, true));		/* (the RDMA WRITE to the copy) */
	EXPECT(copy_current(8, 4));
	EXPECT_EQ(rs_begin(&rs), 0);		/* nothing left */

	/* A write during the chunk: it is not marked, and taken again. */
	EXPECT(backup_admit(&q0, 0));
	async_write(0, 20, 2, 'p');
	reap(&q0);
	remap_copy();
	EXPECT_EQ(rs_begin(&rs), 1);
	EXPECT(rs.first == 8 && rs.n == 4);	/* the first pages no copy holds */
	spin_lock(&slab->lock);
	EXPECT_EQ(spare_slab_write_begin(&dev.map, slab, 9, 1, gens), 0);	/* not the target */
	spin_unlock(&slab->lock);
	EXPECT_EQ(backup_read_pages(&dev, rs.first, rs.n, buf), 0);
	EXPECT(!rs_end(&rs, true));		/* dirty: not marked */
	EXPECT_EQ(rs_begin(&rs), -EBUSY);	/* the write is still in flight */
	spin_lock(&slab->lock);
	spare_slab_write_end(slab);
	spin_unlock(&slab->lock);
	EXPECT(!copy_current(8, 4));

	/* A failed async backup write: its pages are never refilled from it. */
	EXPECT(backup_admit(&q0, 0));
	async_write(0, 9, 1, 'q');
	fail_next_write = true;
	reap(&q0);
	EXPECT_EQ(rs_begin(&rs), -EAGAIN);	/* the chunk 8+4 holds a stale page */
	EXPECT(!copy_current(8, 4));
	EXPECT(!backup_range_ok(&dev, 9, 1));
	EXPECT(backup_range_ok(&dev, 8, 1));
	EXPECT(!backup_range_ok(&dev, (SIZE >> SPARE_PAGE_SHIFT) - 1, 2));	/* past the end */
	EXPECT_EQ(backup_read_pages(&dev, (SIZE >> SPARE_PAGE_SHIFT) - 1, 2, buf), -EINVAL);
	teardown();
	free(buf);
}

static void test_resync_sync(void)
{
	struct spare_slab *slab;
	struct spare_resync rs;
	char *buf = aligned_alloc(4096, 64 << SPARE_PAGE_SHIFT);
	u32 gens[SPARE_MAX_SLOTS];

	if (!buf || setup(BACKUP_SYNC)) {
		EXPECT(0);
		teardown();
		free(buf);
		return;
	}
	slab = &dev.map.slabs[0];
	/* 70 pages written and on the backup (sync writes completed) */
	rq_set(0, true, 0, 64);
	memset(tag_buf(&q0, 0), 's', 64 << SPARE_PAGE_SHIFT);
	backup_write(&q0, 0);
	reap(&q0);
	rq_set(0, true, 64, 6);
	memset(tag_buf(&q0, 0), 't', 6 << SPARE_PAGE_SHIFT);
	backup_write(&q0, 0);
	reap(&q0);
	remap_copy();
	/* a sync write in flight in the slab: its backup write too, wait */
	spin_lock(&slab->lock);
	spare_slab_write_begin(&dev.map, slab, 200, 1, gens);
	spin_unlock(&slab->lock);
	EXPECT_EQ(rs_begin(&rs), -EBUSY);
	spin_lock(&slab->lock);
	spare_slab_write_end(slab);
	spin_unlock(&slab->lock);
	EXPECT_EQ(rs_begin(&rs), 1);
	EXPECT(rs.first == 0 && rs.n == 64);	/* a chunk is at most 64 pages */
	EXPECT_EQ(backup_read_pages(&dev, rs.first, rs.n, buf), 0);
	EXPECT(all(buf, 's', 64 << SPARE_PAGE_SHIFT));
	EXPECT(rs_end(&rs, true));
	EXPECT_EQ(rs_begin(&rs), 1);
	EXPECT(rs.first == 64 && rs.n == 6);
	EXPECT_EQ(backup_read_pages(&dev, rs.first, rs.n, buf), 0);
	EXPECT(all(buf, 't', 6 << SPARE_PAGE_SHIFT));
	EXPECT(!rs_end(&rs, false));		/* the RDMA WRITE failed: not marked */
	EXPECT_EQ(rs_begin(&rs), 1);		/* taken again */
	EXPECT(rs_end(&rs, true));
	EXPECT_EQ(rs_begin(&rs), 1);		/* page 200: its write ended */
	EXPECT(rs.first == 200 && rs.n == 1);
	EXPECT(rs_end(&rs, true));
	EXPECT_EQ(rs_begin(&rs), 0);
	EXPECT(copy_current(0, dev.map.pages_per_slab));
	teardown();
	free(buf);
}

static void test_open_refusals(void)
{
	char why[256];
	int fd;

	memset(&dev, 0, sizeof(dev));
	memset(&q0, 0, sizeof(q0));
	q0.d = &dev;
	dev.queues = &q0;
	dev.nr_queues = 1;
	dev.size = SIZE;
	EXPECT_EQ(backup_open(&dev, "/nonexistent/x", BACKUP_SYNC, why, sizeof(why)), -1);
	EXPECT(strstr(why, "/nonexistent/x") != NULL);
	snprintf(path, sizeof(path), "/var/tmp/spare-ublk-short-%d.img", (int)getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	EXPECT(fd >= 0 && !ftruncate(fd, SIZE / 2));
	if (fd >= 0)
		close(fd);
	EXPECT_EQ(backup_open(&dev, path, BACKUP_SYNC, why, sizeof(why)), -1);
	EXPECT(strstr(why, "holds 2097152 bytes") != NULL);
	EXPECT_EQ(backup_open(&dev, "/var/tmp", BACKUP_SYNC, why, sizeof(why)), -1);
	EXPECT(dev.bk == NULL);
	unlink(path);
}

/*
 * Two queues, one async backup: the fence and the spare buffers are the
 * device's. A read on queue 1 of pages queue 0's async write is still
 * writing waits for it, and is kicked (queue 1's eventfd) when it lands
 * on queue 0's ring; a write on queue 1 that finds every spare buffer
 * held by queue 0's writes waits, gets the first one freed (before a
 * later waiter of queue 0), and is restarted on its own queue.
 */
static void test_async_two_queues(void)
{
	unsigned int i;

	if (setup_n(BACKUP_ASYNC, 2)) {
		EXPECT(0);
		teardown();
		return;
	}
	EXPECT(backup_admit(&q0, 0));
	async_write_q(&q0, 0, 0, 4, 'Q');
	EXPECT_EQ(io_uring_sq_ready(&q0.q.ring), 1);
	rq_set(DEPTH + 1, false, 0, 6);
	EXPECT(backup_read_ext(&q1, 1, 0));
	EXPECT_EQ(io_uring_sq_ready(&q1.q.ring), 0);	/* fenced: not posted */
	EXPECT(!kicked(&q1));
	EXPECT_EQ(q0.st.backup_kicks, 0);
	EXPECT_EQ(reap(&q0), 1);		/* queue 0's write lands */
	EXPECT(kicked(&q1));
	EXPECT(!kicked(&q0));
	EXPECT_EQ(q0.st.backup_kicks, 1);	/* counted by the kicker */
	EXPECT_EQ(finished[DEPTH + 1], 0);
	backup_kicked(&q1);			/* on queue 1's thread */
	EXPECT_EQ(io_uring_sq_ready(&q1.q.ring), 1);
	EXPECT_EQ(reap(&q1), 1);
	EXPECT_EQ(finished[DEPTH + 1], 1);
	EXPECT(fin_covered[DEPTH + 1] && fin_err[DEPTH + 1] == 0);
	EXPECT(all(tag_buf(&q1, 1), 'Q', 4 << SPARE_PAGE_SHIFT));
	EXPECT(all(tag_buf(&q1, 1) + (4 << SPARE_PAGE_SHIFT), 0, 2 << SPARE_PAGE_SHIFT));

	for (i = 0; i < BACKUP_ASYNC_BUFS; i++) {
		EXPECT(backup_admit(&q0, 0));
		async_write_q(&q0, 0, 8 + i * 4, 4, (char)('a' + i));
	}
	EXPECT(!backup_admit(&q1, 2));		/* none left: waits */
	EXPECT(!backup_admit(&q0, 1));		/* a later waiter */
	EXPECT(!backup_admit(&q0, 3));		/* not before the waiters either */
	EXPECT_EQ(restarted[DEPTH + 2], 0);
	EXPECT(reap(&q0) >= 3);			/* they land, on queue 0's ring */
	EXPECT_EQ(restarted[1], 1);		/* queue 0's own, at once */
	EXPECT_EQ(restarted[3], 1);
	EXPECT_EQ(restarted[DEPTH + 2], 0);	/* queue 1's, on its own thread */
	EXPECT(kicked(&q1));
	backup_kicked(&q1);
	EXPECT_EQ(restarted[DEPTH + 2], 1);
	EXPECT(backup_admit(&q1, 2));		/* reserved for it */
	async_write_q(&q1, 2, 100, 2, 'x');
	EXPECT_EQ(reap(&q1), 1);		/* posted and landed on queue 1's ring */
	rq_set(DEPTH + 3, false, 100, 2);
	EXPECT(backup_read_ext(&q1, 3, 0));
	EXPECT_EQ(reap(&q1), 1);
	EXPECT(fin_covered[DEPTH + 3] && all(tag_buf(&q1, 3), 'x', 2 << SPARE_PAGE_SHIFT));
	teardown();
}

int main(void)
{
	TAP_RUN(test_async_fence);
	TAP_RUN(test_async_two_queues);
	TAP_RUN(test_async_buffers_bounded);
	TAP_RUN(test_async_stale);
	TAP_RUN(test_async_distrust);
	TAP_RUN(test_sync);
	TAP_RUN(test_sync_integrity);
	TAP_RUN(test_resync_async);
	TAP_RUN(test_resync_sync);
	TAP_RUN(test_open_refusals);
	fixed = true;	/* the same with IORING_OP_READ_FIXED/WRITE_FIXED */
	TAP_RUN(test_async_fence);
	TAP_RUN(test_async_two_queues);
	TAP_RUN(test_async_buffers_bounded);
	TAP_RUN(test_async_stale);
	TAP_RUN(test_async_distrust);
	TAP_RUN(test_sync);
	TAP_RUN(test_resync_async);
	TAP_RUN(test_resync_sync);
	return tap_done();
}
