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
#include <unistd.h>

#include "backup.h"
#include "pager.h"
#include "tap.h"

#define DEPTH	4
#define SIZE	(4U << 20)

static struct dev dev;
static unsigned int finished[DEPTH], restarted[DEPTH];
static int fin_err[DEPTH];
static bool fin_covered[DEPTH];
static char path[128];
static bool fail_next_write;	/* deliver the next backup write as -EIO */
static bool fixed;		/* the second round: registered buffers */

/* io.c's, as the request path uses them. */
void rq_put(struct dev *d, unsigned int tag)
{
	struct rq *r = &d->rqs[tag];

	if (--r->inflight)
		return;
	fin_covered[tag] = backup_covers(d, tag, 0);
	fin_err[tag] = backup_finish(d, tag, r->err);
	finished[tag]++;
}

void rq_restart(struct dev *d, unsigned int tag)
{
	restarted[tag]++;
}

/* Reap every backup completion until the ring is quiet. */
static unsigned int reap(struct dev *d)
{
	struct __kernel_timespec ts = { .tv_nsec = 200000000 };	/* quiet for 0.2 s */
	struct io_uring_cqe *cqe;
	unsigned int n = 0;

	for (;;) {
		io_uring_submit(&d->q.ring);
		if (io_uring_wait_cqe_timeout(&d->q.ring, &cqe, &ts))
			return n;
		{
			u64 ud = io_uring_cqe_get_data64(cqe);
			int res = cqe->res;

			io_uring_cqe_seen(&d->q.ring, cqe);
			if ((ud & 3) == 0 && fail_next_write) {
				fail_next_write = false;
				res = -EIO;
			}
			backup_done(d, ud, res);
			n++;
		}
	}
}

static int setup(enum backup_mode mode)
{
	char why[256];
	int fd;

	memset(&dev, 0, sizeof(dev));
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
	if (io_uring_queue_init(64, &dev.q.ring, 0) ||
	    spare_slab_map_init(&dev.map, SIZE, 20, 1, 1))
		return -1;
	if (backup_open(&dev, path, mode, why, sizeof(why))) {
		fprintf(stderr, "# %s\n", why);
		return -1;
	}
	dev.bufs = aligned_alloc(4096, (size_t)(DEPTH + backup_extra_bufs(&dev)) * MAX_IO);
	dev.rqs = calloc(DEPTH, sizeof(*dev.rqs));
	if (!dev.bufs || !dev.rqs || backup_bufs_init(&dev))
		return -1;
	if (fixed) {
		backup_ring_init(&dev);
		EXPECT(backup_fixed(&dev));
	}
	return 0;
}

static void teardown(void)
{
	backup_close(&dev);
	io_uring_queue_exit(&dev.q.ring);
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

/* An async write whose RDMA part settles at once (it landed on no copy). */
static void async_write(unsigned int tag, u32 page, u32 n, char fill)
{
	rq_set(tag, true, page, n);
	memset(tag_buf(&dev, tag), fill, n << SPARE_PAGE_SHIFT);
	backup_write(&dev, tag);
	fin_err[tag] = backup_finish(&dev, tag, 0);	/* rq_finish, committed */
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
	EXPECT(backup_admit(&dev, 0));
	first = tag_buf(&dev, 0);
	async_write(0, 0, 4, 'A');
	EXPECT(tag_buf(&dev, 0) != first);	/* the buffer stays with the backup write */
	EXPECT_EQ(io_uring_sq_ready(&dev.q.ring), 1);
	EXPECT(backup_admit(&dev, 0));
	async_write(0, 2, 4, 'B');		/* overlaps pages 2, 3 */
	EXPECT_EQ(io_uring_sq_ready(&dev.q.ring), 1);	/* fenced: not posted */
	EXPECT(all(first, 'A', 4 << SPARE_PAGE_SHIFT));	/* 'A' untouched meanwhile */
	rq_set(1, false, 0, 6);
	EXPECT(backup_read_ext(&dev, 1, 0));
	EXPECT_EQ(dev.rqs[1].inflight, 1);	/* waits for both writes */
	EXPECT_EQ(io_uring_sq_ready(&dev.q.ring), 1);
	EXPECT(dev.st.backup_waits >= 2);
	EXPECT_EQ(reap(&dev), 3);		/* A, then B, then the read */
	EXPECT_EQ(finished[1], 1);
	EXPECT(fin_covered[1] && fin_err[1] == 0);
	EXPECT(all(tag_buf(&dev, 1), 'A', 2 << SPARE_PAGE_SHIFT));
	EXPECT(all(tag_buf(&dev, 1) + (2 << SPARE_PAGE_SHIFT), 'B', 4 << SPARE_PAGE_SHIFT));
	EXPECT_EQ(dev.st.backup_reads, 1);
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
		EXPECT(backup_admit(&dev, 0));
		async_write(0, i * 4, 4, (char)('a' + i));
	}
	/* every spare buffer is held by a backup write in flight */
	EXPECT(!backup_admit(&dev, 0));
	EXPECT_EQ(restarted[0], 0);
	EXPECT(reap(&dev) >= 1);
	EXPECT_EQ(restarted[0], 1);		/* it got a buffer */
	EXPECT(backup_admit(&dev, 0));		/* already reserved */
	async_write(0, 64, 4, 'z');
	reap(&dev);
	rq_set(1, false, 4 * 5, 4);
	EXPECT(backup_read_ext(&dev, 1, 0));
	reap(&dev);
	EXPECT(fin_covered[1] && all(tag_buf(&dev, 1), 'f', 4 << SPARE_PAGE_SHIFT));
	teardown();
}

static void test_async_stale(void)
{
	if (setup(BACKUP_ASYNC)) {
		EXPECT(0);
		teardown();
		return;
	}
	EXPECT(backup_admit(&dev, 0));
	async_write(0, 8, 4, 'x');
	fail_next_write = true;
	reap(&dev);
	EXPECT_EQ(dev.st.backup_errors, 1);
	rq_set(1, false, 9, 1);
	EXPECT(!backup_read_ext(&dev, 1, 0));	/* stale: refused, not old data */
	EXPECT(backup_admit(&dev, 0));
	async_write(0, 8, 4, 'y');
	reap(&dev);
	rq_set(1, false, 9, 1);
	EXPECT(backup_read_ext(&dev, 1, 0));
	reap(&dev);
	EXPECT(fin_covered[1] && all(tag_buf(&dev, 1), 'y', SPARE_PAGE_SIZE));
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
	EXPECT(backup_admit(&dev, 0));
	async_write(0, 8, 4, 'x');
	reap(&dev);
	rq_set(1, false, 9, 1);
	EXPECT(backup_read_ext(&dev, 1, 0));	/* trusted before */
	reap(&dev);
	EXPECT(fin_covered[1] && all(tag_buf(&dev, 1), 'x', SPARE_PAGE_SIZE));
	/* as a restart does: every page counts as written */
	bitmap_set(dev.map.slabs[0].written, 0, dev.map.pages_per_slab);
	backup_distrust(&dev);
	rq_set(1, false, 9, 1);
	EXPECT(!backup_read_ext(&dev, 1, 0));	/* written, now distrusted */
	rq_set(1, false, 0, 1);
	EXPECT(!backup_read_ext(&dev, 1, 0));	/* first page */
	rq_set(1, false, last, 1);
	EXPECT(!backup_read_ext(&dev, 1, 0));	/* last page */
	EXPECT(backup_admit(&dev, 0));
	async_write(0, 9, 1, 'z');
	reap(&dev);
	rq_set(1, false, 9, 1);
	EXPECT(backup_read_ext(&dev, 1, 0));	/* written again: trusted */
	reap(&dev);
	EXPECT(fin_covered[1] && all(tag_buf(&dev, 1), 'z', SPARE_PAGE_SIZE));
	rq_set(1, false, 10, 1);
	EXPECT(!backup_read_ext(&dev, 1, 0));	/* its neighbour still not */
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
	memset(tag_buf(&dev, 1), 0x55, 2 << SPARE_PAGE_SHIFT);
	EXPECT(backup_read_ext(&dev, 1, 0));
	EXPECT(backup_covers(&dev, 1, 0));
	EXPECT_EQ(io_uring_sq_ready(&dev.q.ring), 0);
	EXPECT(all(tag_buf(&dev, 1), 0, 2 << SPARE_PAGE_SHIFT));
	EXPECT_EQ(dev.st.zero_reads, 1);
	backup_finish(&dev, 1, 0);

	rq_set(0, true, 100, 2);
	memset(tag_buf(&dev, 0), 'S', 2 << SPARE_PAGE_SHIFT);
	backup_write(&dev, 0);
	EXPECT_EQ(dev.rqs[0].inflight, 1);	/* the request waits for the disk */
	EXPECT_EQ(finished[0], 0);
	reap(&dev);
	EXPECT(finished[0] == 1 && fin_err[0] == 0 && fin_covered[0]);

	rq_set(0, true, 102, 1);
	backup_write(&dev, 0);
	fail_next_write = true;
	reap(&dev);
	EXPECT(finished[0] == 2 && fin_err[0] == -EIO);	/* a failed backup write fails it */
	rq_set(1, false, 102, 1);
	EXPECT(!backup_read_ext(&dev, 1, 0));	/* and its page is stale */

	rq_set(1, false, 100, 2);
	EXPECT(backup_read_ext(&dev, 1, 0));
	reap(&dev);
	EXPECT(fin_covered[1] && all(tag_buf(&dev, 1), 'S', 2 << SPARE_PAGE_SHIFT));

	/* page 98 never written, though the backup disk holds bytes there */
	{
		int fd = open(path, O_WRONLY);

		EXPECT(fd >= 0 && pwrite(fd, "junk", 4, 98 << SPARE_PAGE_SHIFT) == 4);
		if (fd >= 0)
			close(fd);
	}
	rq_set(1, false, 98, 3);	/* 98 never written, 99 never, 100 written */
	EXPECT(backup_read_ext(&dev, 1, 0));
	reap(&dev);
	EXPECT(fin_covered[1] && all(tag_buf(&dev, 1), 0, 2 << SPARE_PAGE_SHIFT) &&
	       all(tag_buf(&dev, 1) + (2 << SPARE_PAGE_SHIFT), 'S', SPARE_PAGE_SIZE));
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
	EXPECT(backup_admit(&dev, 0));
	async_write(0, 8, 4, 'x');		/* completed, its backup write not landed */
	remap_copy();
	EXPECT(!copy_current(8, 1) && copy_current(0, 8));
	EXPECT_EQ(rs_begin(&rs), -EAGAIN);	/* the fence: not from older bytes */
	EXPECT(!copy_current(8, 4));
	EXPECT_EQ(reap(&dev), 1);		/* it lands */
	EXPECT_EQ(rs_begin(&rs), 1);
	EXPECT(rs.first == 8 && rs.n == 4);
	EXPECT_EQ(backup_read_pages(&dev, rs.first, rs.n, buf), 0);
	EXPECT(all(buf, 'x', 4 << SPARE_PAGE_SHIFT));
	EXPECT(rs_end(&rs, true));		/* (the RDMA WRITE to the copy) */
	EXPECT(copy_current(8, 4));
	EXPECT_EQ(rs_begin(&rs), 0);		/* nothing left */

	/* A write during the chunk: it is not marked, and taken again. */
	EXPECT(backup_admit(&dev, 0));
	async_write(0, 20, 2, 'p');
	reap(&dev);
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
	EXPECT(backup_admit(&dev, 0));
	async_write(0, 9, 1, 'q');
	fail_next_write = true;
	reap(&dev);
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
	memset(tag_buf(&dev, 0), 's', 64 << SPARE_PAGE_SHIFT);
	backup_write(&dev, 0);
	reap(&dev);
	rq_set(0, true, 64, 6);
	memset(tag_buf(&dev, 0), 't', 6 << SPARE_PAGE_SHIFT);
	backup_write(&dev, 0);
	reap(&dev);
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

int main(void)
{
	TAP_RUN(test_async_fence);
	TAP_RUN(test_async_buffers_bounded);
	TAP_RUN(test_async_stale);
	TAP_RUN(test_async_distrust);
	TAP_RUN(test_sync);
	TAP_RUN(test_resync_async);
	TAP_RUN(test_resync_sync);
	TAP_RUN(test_open_refusals);
	fixed = true;	/* the same with IORING_OP_READ_FIXED/WRITE_FIXED */
	TAP_RUN(test_async_fence);
	TAP_RUN(test_async_buffers_bounded);
	TAP_RUN(test_async_stale);
	TAP_RUN(test_async_distrust);
	TAP_RUN(test_sync);
	TAP_RUN(test_resync_async);
	TAP_RUN(test_resync_sync);
	return tap_done();
}
