// SPDX-License-Identifier: GPL-2.0
/*
 * spare-ublk's backup device: see backup.h for the semantics, and
 * kmod/spare_backup.c for spare.ko's, which these follow.
 *
 * Buffers: the registered region holds one 256 KiB buffer per tag and, in
 * async mode, BACKUP_ASYNC_BUFS spare ones. Each tag uses one of them at a
 * time (the address it gives the driver in FETCH/COMMIT_AND_FETCH). An
 * async write that starts reserves a spare buffer; when the request is
 * committed while its backup write is still in flight, the tag takes the
 * spare buffer for its next request and leaves its own to the backup
 * write, which returns it to the spare pool when it lands. So the memory
 * in flight is bounded by (queue depth + BACKUP_ASYNC_BUFS) x 256 KiB, all
 * registered at start, and no byte is copied.
 *
 * Everything here runs on the queue thread, except backup_range_ok() and
 * backup_read_pages(), which the resync thread calls (resync.c, a copy
 * refilled from the backup): the queue thread changes the in-flight async
 * writes (aw[].used and their pages) and the stale bitmap under bk->lock,
 * which those two take; its own reads of them need no lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backup.h"
#include "pager.h"
#include "spare_log.h"

#define NONE	UINT32_MAX
#define BPL	(8 * sizeof(unsigned long))

struct bk_tag {
	u32	cur;		/* the buffer the tag uses */
	u32	spare;		/* a reserved spare buffer (async), or NONE */
	u8	ext_ok;		/* extents the backup covers */
	u8	rd_wait;	/* extents whose backup read waits for the fence */
	int	err;		/* the backup's error for the request */
};

/* An async backup write, by the buffer it writes from. */
struct bk_aw {
	bool	used, posted;
	u64	seq;		/* submission order, for the fence */
	u64	first, n;	/* device pages */
	u32	len;
};

struct backup {
	int		fd;
	pthread_mutex_t	lock;		/* aw[].used and pages, stale: see above */
	enum backup_mode mode;
	char		path[256];
	u64		pages;
	unsigned long	*stale;		/* per page: the backup's copy is bad */
	u32		nbufs;
	struct bk_tag	*t;
	u32		*owner;		/* per buffer: the tag using it, or NONE */
	struct bk_aw	*aw;
	u32		*free, nfree;
	u32		*wq, wq_head, wq_len;	/* writes waiting for a buffer */
	u32		outstanding;	/* async writes not landed */
	u32		nr_rd_wait;
	u64		seq;
	bool		waking;
	bool		fixed;		/* bufs registered with the ring */
	unsigned int	warned;
};

static void bits_set(unsigned long *m, u64 first, u64 n, bool on)
{
	for (u64 i = first; i < first + n; i++) {
		if (on)
			m[i / BPL] |= 1UL << (i % BPL);
		else
			m[i / BPL] &= ~(1UL << (i % BPL));
	}
}

static bool bits_any(const unsigned long *m, u64 first, u64 n)
{
	for (u64 i = first; i < first + n; i++)
		if (m[i / BPL] & (1UL << (i % BPL)))
			return true;
	return false;
}

static bool overlap(u64 a, u64 an, u64 b, u64 bn)
{
	return a < b + bn && b < a + an;
}

static char *buf_addr(const struct dev *d, u32 b)
{
	return d->bufs + (size_t)b * MAX_IO;
}

unsigned int backup_extra_bufs(const struct dev *d)
{
	return d->bk && d->bk->mode == BACKUP_ASYNC ? BACKUP_ASYNC_BUFS : 0;
}

int backup_open(struct dev *d, const char *path, enum backup_mode mode,
		char *why, size_t whylen)
{
	struct backup *bk;
	struct stat st;
	u64 bytes = 0;
	int fd, lbs = 512;

	fd = open(path, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, whylen, "backup %s: %s%s", path, strerror(errno),
			 errno == EINVAL ? " (it must allow O_DIRECT)" : "");
		return -1;
	}
	if (fstat(fd, &st))
		goto err_errno;
	if (S_ISBLK(st.st_mode)) {
		/* Exclusive, as spare.ko opens it: not mounted, not in use. */
		close(fd);
		fd = open(path, O_RDWR | O_DIRECT | O_CLOEXEC | O_EXCL);
		if (fd < 0) {
			snprintf(why, whylen, "backup %s: %s%s", path,
				 strerror(errno),
				 errno == EBUSY ? " (in use: mounted, swapped on or held)" : "");
			return -1;
		}
		if (ioctl(fd, BLKGETSIZE64, &bytes) || ioctl(fd, BLKSSZGET, &lbs))
			goto err_errno;
	} else if (S_ISREG(st.st_mode)) {
		bytes = (u64)st.st_size;
	} else {
		snprintf(why, whylen, "backup %s: not a block device or a regular file",
			 path);
		close(fd);
		return -1;
	}
	if (bytes < d->size) {
		snprintf(why, whylen, "backup %s holds %" PRIu64 " bytes, the device "
			 "size is %" PRIu64 "%s", path, bytes, d->size,
			 S_ISREG(st.st_mode) ? " (truncate -s SIZE makes a file that long)" : "");
		close(fd);
		return -1;
	}
	if (lbs > (int)SPARE_PAGE_SIZE) {
		snprintf(why, whylen, "backup %s has blocks of %d bytes, larger than 4 KiB",
			 path, lbs);
		close(fd);
		return -1;
	}
	bk = calloc(1, sizeof(*bk));
	if (!bk) {
		snprintf(why, whylen, "out of memory");
		close(fd);
		return -1;
	}
	bk->fd = fd;
	pthread_mutex_init(&bk->lock, NULL);
	bk->mode = mode;
	snprintf(bk->path, sizeof(bk->path), "%s", path);
	bk->pages = d->size >> SPARE_PAGE_SHIFT;
	bk->stale = calloc((bk->pages + BPL - 1) / BPL, sizeof(unsigned long));
	if (!bk->stale) {
		snprintf(why, whylen, "out of memory");
		free(bk);
		close(fd);
		return -1;
	}
	d->bk = bk;
	return 0;
err_errno:
	snprintf(why, whylen, "backup %s: %s", path, strerror(errno));
	close(fd);
	return -1;
}

int backup_bufs_init(struct dev *d)
{
	struct backup *bk = d->bk;
	u32 i;

	if (!bk)
		return 0;
	bk->nbufs = d->depth + backup_extra_bufs(d);
	bk->t = calloc(d->depth, sizeof(*bk->t));
	bk->owner = calloc(bk->nbufs, sizeof(*bk->owner));
	bk->aw = calloc(bk->nbufs, sizeof(*bk->aw));
	bk->free = calloc(bk->nbufs, sizeof(*bk->free));
	bk->wq = calloc(d->depth, sizeof(*bk->wq));
	d->tag_addr = calloc(d->depth, sizeof(*d->tag_addr));
	if (!bk->t || !bk->owner || !bk->aw || !bk->free || !bk->wq ||
	    !d->tag_addr)
		return -1;
	for (i = 0; i < bk->nbufs; i++)
		bk->owner[i] = NONE;
	for (i = 0; i < d->depth; i++) {
		bk->t[i].cur = i;
		bk->t[i].spare = NONE;
		bk->owner[i] = i;
		d->tag_addr[i] = buf_addr(d, i);
	}
	for (i = d->depth; i < bk->nbufs; i++)
		bk->free[bk->nfree++] = i;
	return 0;
}

void backup_ring_init(struct dev *d)
{
	struct backup *bk = d->bk;
	struct iovec iov;
	int ret;

	if (!bk)
		return;
	iov.iov_base = d->bufs;
	iov.iov_len = (size_t)bk->nbufs * MAX_IO;
	ret = io_uring_register_buffers(&d->q.ring, &iov, 1);
	if (ret)
		log_warn("backup %s: io_uring cannot register the buffers (%s): "
			 "plain reads and writes", bk->path, strerror(-ret));
	bk->fixed = !ret;
}

bool backup_fixed(const struct dev *d)
{
	return d->bk && d->bk->fixed;
}

/* A backup read or write of @len bytes at @off from/into @buf (in bufs). */
static void prep_rw(struct dev *d, struct io_uring_sqe *sqe, bool write,
		    char *buf, u32 len, u64 off)
{
	struct backup *bk = d->bk;

	if (bk->fixed && write)
		io_uring_prep_write_fixed(sqe, bk->fd, buf, len, off, 0);
	else if (bk->fixed)
		io_uring_prep_read_fixed(sqe, bk->fd, buf, len, off, 0);
	else if (write)
		io_uring_prep_write(sqe, bk->fd, buf, len, off);
	else
		io_uring_prep_read(sqe, bk->fd, buf, len, off);
}

void backup_close(struct dev *d)
{
	struct backup *bk = d->bk;

	if (!bk)
		return;
	close(bk->fd);
	pthread_mutex_destroy(&bk->lock);
	free(bk->stale);
	free(bk->t);
	free(bk->owner);
	free(bk->aw);
	free(bk->free);
	free(bk->wq);
	free(bk);
	free(d->tag_addr);
	d->tag_addr = NULL;
	d->bk = NULL;
}

/* An SQE on the queue's ring; submits what is queued if the ring is full. */
static struct io_uring_sqe *get_sqe(struct dev *d)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&d->q.ring);

	if (!sqe && io_uring_submit(&d->q.ring) >= 0)
		sqe = io_uring_get_sqe(&d->q.ring);
	if (!sqe)
		log_err("backup: the queue's io_uring is full");
	return sqe;
}

static void warn_limited(struct backup *bk, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn_limited(struct backup *bk, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	if (bk->warned >= 20)
		return;
	if (++bk->warned == 20)
		log_warn("backup %s: further warnings suppressed", bk->path);
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	log_warn("backup %s: %s", bk->path, line);
}

/* Is an older async write of pages [first, first + n) not landed yet? */
static bool fenced(const struct backup *bk, u64 first, u64 n, u64 before_seq)
{
	for (u32 j = 0; j < bk->nbufs; j++)
		if (bk->aw[j].used && bk->aw[j].seq < before_seq &&
		    overlap(bk->aw[j].first, bk->aw[j].n, first, n))
			return true;
	return false;
}

/* Post async write @b unless an older one of the same pages is in flight. */
static void aw_try_post(struct dev *d, u32 b)
{
	struct backup *bk = d->bk;
	struct bk_aw *aw = &bk->aw[b];
	struct io_uring_sqe *sqe;

	if (aw->posted || fenced(bk, aw->first, aw->n, aw->seq))
		return;
	sqe = get_sqe(d);
	if (!sqe)
		return;		/* tried again at the next backup completion */
	prep_rw(d, sqe, true, buf_addr(d, b), aw->len, aw->first << SPARE_PAGE_SHIFT);
	io_uring_sqe_set_data64(sqe, UD_BACKUP | (u64)b << 2);
	aw->posted = true;
}

bool backup_admit(struct dev *d, unsigned int tag)
{
	struct backup *bk = d->bk;
	struct bk_tag *t;

	if (!bk || bk->mode != BACKUP_ASYNC)
		return true;
	t = &bk->t[tag];
	if (t->spare != NONE)
		return true;
	if (!bk->wq_len && bk->nfree) {
		t->spare = bk->free[--bk->nfree];
		return true;
	}
	/* The backup has fallen BACKUP_ASYNC_BUFS writes behind: wait. */
	bk->wq[(bk->wq_head + bk->wq_len++) % d->depth] = tag;
	d->st.backup_waits++;
	return false;
}

void backup_write(struct dev *d, unsigned int tag)
{
	struct backup *bk = d->bk;
	struct rq *r = &d->rqs[tag];
	struct bk_tag *t = &bk->t[tag];
	u64 first = r->pos >> SPARE_PAGE_SHIFT;
	u64 n = (r->len + SPARE_PAGE_SIZE - 1) >> SPARE_PAGE_SHIFT;
	struct io_uring_sqe *sqe;

	d->st.backup_writes++;
	if (bk->mode == BACKUP_ASYNC) {
		struct bk_aw *aw = &bk->aw[t->cur];

		pthread_mutex_lock(&bk->lock);
		*aw = (struct bk_aw){ .used = true, .seq = ++bk->seq,
				      .first = first, .n = n, .len = r->len };
		pthread_mutex_unlock(&bk->lock);
		bk->outstanding++;
		t->ext_ok = (u8)((1U << r->nr_ext) - 1);
		if (fenced(bk, first, n, aw->seq))
			d->st.backup_waits++;
		aw_try_post(d, t->cur);
		return;
	}
	sqe = get_sqe(d);
	if (!sqe) {
		t->err = -EIO;
		return;
	}
	prep_rw(d, sqe, true, buf_addr(d, t->cur), r->len, r->pos);
	io_uring_sqe_set_data64(sqe, UD_BACKUP | (u64)t->cur << 2);
	r->inflight++;
}

/* Post the backup read of extent @ext; the request counts it in flight. */
static bool post_read(struct dev *d, unsigned int tag, unsigned int ext)
{
	struct backup *bk = d->bk;
	struct rq *r = &d->rqs[tag];
	struct spare_extent *e = &r->ext[ext];
	u64 off = ((u64)e->slab << d->slab_shift) + e->offset;
	struct io_uring_sqe *sqe;

	if (bits_any(bk->stale, off >> SPARE_PAGE_SHIFT, e->nr_pages)) {
		warn_limited(bk, "pages %" PRIu64 "+%u are stale after a failed "
			     "backup write: refusing to read them",
			     off >> SPARE_PAGE_SHIFT, e->nr_pages);
		return false;
	}
	sqe = get_sqe(d);
	if (!sqe)
		return false;
	prep_rw(d, sqe, false, buf_addr(d, bk->t[tag].cur) + (off - r->pos), e->len, off);
	io_uring_sqe_set_data64(sqe, UD_BACKUP | (u64)bk->t[tag].cur << 2 | (1 + ext));
	return true;
}

bool backup_read_ext(struct dev *d, unsigned int tag, unsigned int ext)
{
	struct backup *bk = d->bk;
	struct rq *r = &d->rqs[tag];
	struct spare_extent *e = &r->ext[ext];
	struct spare_slab *slab = &d->map.slabs[e->slab];
	u64 off = ((u64)e->slab << d->slab_shift) + e->offset;
	bool written;

	spin_lock(&slab->lock);
	written = spare_slab_ever_written(slab, e->first_page, e->nr_pages);
	spin_unlock(&slab->lock);
	if (!written) {
		/* Never written: zeros, as a fresh copy would read. */
		memset(buf_addr(d, bk->t[tag].cur) + (off - r->pos), 0, e->len);
		bk->t[tag].ext_ok |= (u8)(1U << ext);
		d->st.zero_reads++;
		return true;
	}
	if (fenced(bk, off >> SPARE_PAGE_SHIFT, e->nr_pages, UINT64_MAX)) {
		/* An async write of these pages is on its way: read after it. */
		bk->t[tag].rd_wait |= (u8)(1U << ext);
		bk->nr_rd_wait++;
		d->st.backup_waits++;
		r->inflight++;
		return true;
	}
	if (!post_read(d, tag, ext))
		return false;
	r->inflight++;
	return true;
}

bool backup_covers(const struct dev *d, unsigned int tag, unsigned int ext)
{
	return d->bk && (d->bk->t[tag].ext_ok & (1U << ext));
}

/* Hand the waiting writes their spare buffers, and the waiting reads the disk. */
static void wake(struct dev *d)
{
	struct backup *bk = d->bk;

	if (bk->waking)
		return;		/* the outer call loops until nothing changes */
	bk->waking = true;
	if (bk->nr_rd_wait) {
		for (unsigned int tag = 0; tag < d->depth; tag++) {
			struct bk_tag *t = &bk->t[tag];

			for (unsigned int ext = 0; t->rd_wait && ext < MAX_EXT; ext++) {
				struct spare_extent *e = &d->rqs[tag].ext[ext];
				u64 off;

				if (!(t->rd_wait & (1U << ext)))
					continue;
				off = ((u64)e->slab << d->slab_shift) + e->offset;
				if (fenced(bk, off >> SPARE_PAGE_SHIFT, e->nr_pages,
					   UINT64_MAX))
					continue;
				t->rd_wait &= (u8)~(1U << ext);
				bk->nr_rd_wait--;
				if (!post_read(d, tag, ext))
					rq_put(d, tag);	/* not covered: EIO */
			}
		}
	}
	while (bk->wq_len && bk->nfree) {
		unsigned int tag = bk->wq[bk->wq_head];

		bk->wq_head = (bk->wq_head + 1) % d->depth;
		bk->wq_len--;
		bk->t[tag].spare = bk->free[--bk->nfree];
		rq_restart(d, tag);
	}
	bk->waking = false;
}

/*
 * An extent read from the backup: its pages never written read as zeros,
 * whatever the backup disk held there before.
 */
static void zero_unwritten(struct dev *d, unsigned int tag, unsigned int ext)
{
	struct rq *r = &d->rqs[tag];
	struct spare_extent *e = &r->ext[ext];
	struct spare_slab *slab = &d->map.slabs[e->slab];
	char *p = buf_addr(d, d->bk->t[tag].cur) +
		  (((u64)e->slab << d->slab_shift) + e->offset - r->pos);

	spin_lock(&slab->lock);
	for (u32 i = 0; i < e->nr_pages; i++)
		if (!test_bit(e->first_page + i, slab->written))
			memset(p + ((size_t)i << SPARE_PAGE_SHIFT), 0, SPARE_PAGE_SIZE);
	spin_unlock(&slab->lock);
}

void backup_distrust(struct dev *d)
{
	struct backup *bk = d->bk;
	u64 full;

	if (!bk || bk->mode != BACKUP_ASYNC)
		return;
	/* every page, a word at a time (a large device has millions) */
	full = bk->pages / BPL;
	pthread_mutex_lock(&bk->lock);
	memset(bk->stale, 0xff, full * sizeof(*bk->stale));
	if (bk->pages % BPL)
		bk->stale[full] |= (1UL << (bk->pages % BPL)) - 1;
	pthread_mutex_unlock(&bk->lock);
}

int backup_finish(struct dev *d, unsigned int tag, int err)
{
	struct backup *bk = d->bk;
	struct bk_tag *t = &bk->t[tag];

	if (t->err)
		err = t->err;
	if (t->spare != NONE) {
		if (bk->aw[t->cur].used) {
			/* Its backup write goes on from this buffer: take the spare. */
			bk->owner[t->cur] = NONE;
			t->cur = t->spare;
			bk->owner[t->cur] = tag;
			d->tag_addr[tag] = buf_addr(d, t->cur);
		} else {
			bk->free[bk->nfree++] = t->spare;
		}
		t->spare = NONE;
	}
	t->ext_ok = 0;
	t->err = 0;
	if (bk->wq_len && bk->nfree)
		wake(d);
	return err;
}

void backup_done(struct dev *d, uint64_t ud, int res)
{
	struct backup *bk = d->bk;
	u32 b = (u32)((ud - UD_BACKUP) >> 2), kind = (u32)(ud & 3);
	unsigned int tag;
	struct rq *r;

	if (!bk || b >= bk->nbufs) {
		log_err("stray backup completion %" PRIx64, (uint64_t)ud);
		return;
	}
	if (kind == 0 && bk->mode == BACKUP_ASYNC) {
		struct bk_aw *aw = &bk->aw[b];

		if (res != (int)aw->len) {
			warn_limited(bk, "async write of pages %" PRIu64 "+%" PRIu64
				     " failed (%s); those pages now have no backup",
				     aw->first, aw->n,
				     res < 0 ? strerror(-res) : "short write");
			d->st.backup_errors++;
		}
		pthread_mutex_lock(&bk->lock);
		bits_set(bk->stale, aw->first, aw->n, res != (int)aw->len);
		aw->used = false;
		pthread_mutex_unlock(&bk->lock);
		bk->outstanding--;
		if (bk->owner[b] == NONE)	/* its tag moved on: a spare again */
			bk->free[bk->nfree++] = b;
		for (u32 j = 0; j < bk->nbufs; j++)
			if (bk->aw[j].used && !bk->aw[j].posted)
				aw_try_post(d, j);
		wake(d);
		return;
	}
	tag = bk->owner[b];
	if (tag == NONE || tag >= d->depth) {
		log_err("backup completion %" PRIx64 " for no request", (uint64_t)ud);
		return;
	}
	r = &d->rqs[tag];
	if (kind == 0) {		/* sync write */
		u64 first = r->pos >> SPARE_PAGE_SHIFT;
		u64 n = (r->len + SPARE_PAGE_SIZE - 1) >> SPARE_PAGE_SHIFT;
		bool ok = res == (int)r->len;

		if (!ok) {
			warn_limited(bk, "write of pages %" PRIu64 "+%" PRIu64
				     " failed (%s): the request fails",
				     first, n, res < 0 ? strerror(-res) : "short write");
			d->st.backup_errors++;
			bk->t[tag].err = -EIO;
		} else {
			bk->t[tag].ext_ok = (u8)((1U << r->nr_ext) - 1);
		}
		/* A failed write leaves the backup's copy undefined: stale. */
		pthread_mutex_lock(&bk->lock);
		bits_set(bk->stale, first, n, !ok);
		pthread_mutex_unlock(&bk->lock);
	} else {
		unsigned int ext = kind - 1;

		if (ext < r->nr_ext && res == (int)r->ext[ext].len) {
			zero_unwritten(d, tag, ext);
			bk->t[tag].ext_ok |= (u8)(1U << ext);
			d->st.backup_reads++;
		} else {
			warn_limited(bk, "read at %" PRIu64 " failed (%s)",
				     r->pos, res < 0 ? strerror(-res) : "short read");
			d->st.backup_errors++;
		}
	}
	rq_put(d, tag);
}

void backup_drain(struct dev *d)
{
	struct backup *bk = d->bk;
	struct io_uring_cqe *cqe;

	if (!bk || !bk->outstanding)
		return;
	log_info("backup %s: waiting for %u async writes", bk->path,
		 bk->outstanding);
	while (bk->outstanding) {
		unsigned int head, seen = 0;

		int ret = io_uring_submit_and_wait(&d->q.ring, 1);

		if (ret < 0 && ret != -EINTR) {
			log_err("backup drain: %s", strerror(-ret));
			break;
		}
		io_uring_for_each_cqe(&d->q.ring, head, cqe) {
			u64 ud = io_uring_cqe_get_data64(cqe);

			seen++;
			if (ud >= UD_BACKUP && ud < UD_BACKUP_END)
				backup_done(d, ud, cqe->res);
		}
		io_uring_cq_advance(&d->q.ring, seen);
	}
}

/*
 * Resync from the backup (resync.c), from the resync thread. The rule is
 * spare.ko's (spare_backup_range_ok()): once spare_slab_resync_begin_backup()
 * has found no write in flight in the slab, every write that ended is on
 * the backup, except an async backup write still in flight (which would
 * make the read older than the copy should be) and a failed one (stale:
 * the backup holds undefined bytes there). A write that begins after the
 * chunk began makes it dirty (spare_slab_write_begin()), so a read racing
 * with its backup write is never marked current.
 */
bool backup_range_ok(struct dev *d, u64 first, u64 n)
{
	struct backup *bk = d->bk;
	bool ok;

	if (!bk || !n || first > bk->pages || n > bk->pages - first)
		return false;
	pthread_mutex_lock(&bk->lock);
	ok = !fenced(bk, first, n, UINT64_MAX) && !bits_any(bk->stale, first, n);
	pthread_mutex_unlock(&bk->lock);
	return ok;
}

int backup_read_pages(struct dev *d, u64 first, u32 n, void *buf)
{
	struct backup *bk = d->bk;
	size_t len = (size_t)n << SPARE_PAGE_SHIFT, done = 0;
	off_t off = (off_t)(first << SPARE_PAGE_SHIFT);

	if (!bk || !n || first > bk->pages || n > bk->pages - first)
		return -EINVAL;
	while (done < len) {
		ssize_t got = pread(bk->fd, (char *)buf + done, len - done,
				    off + (off_t)done);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		if (got == 0)
			return -EIO;	/* the backup is shorter than the device */
		done += (size_t)got;
	}
	return 0;
}
