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
 * Threads. The request hooks run on the queue threads (each for its own
 * tags: a tag's bk_tag is its queue's), backup_range_ok() and
 * backup_read_pages() on the resync thread (resync.c, a copy refilled from
 * the backup). What several of them share is under bk->lock: the stale
 * bitmap, and in async mode the spare buffers (free, owner), the async
 * writes (aw[]: any queue's write may fence any queue's later write or
 * read of the same pages), the writes waiting for a buffer (one FIFO for
 * every queue) and each tag's spare and handed. An async write is posted
 * on the ring of the thread that finds it unfenced (its own at first, or
 * the one that reaped the write it waited for) and completes there; it
 * touches no request. A request's own waits end on its own thread: the
 * thread that frees a buffer hands it to the oldest waiting write and
 * kicks that write's queue (its kick eventfd, polled on its ring:
 * backup_kicked()), and a landed write kicks every queue with a read
 * waiting for the fence.
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
#include "integrity.h"
#include "pager.h"
#include "spare_log.h"

#define NONE	UINT32_MAX
#define BPL	(8 * sizeof(unsigned long))

struct bk_tag {
	u32	cur;		/* the buffer the tag uses (changed under the lock) */
	u32	spare;		/* a reserved spare buffer (async), or NONE (lock) */
	bool	handed;		/* it waited for one and got it: restart (lock) */
	u8	ext_ok;		/* extents the backup covers */
	u8	rd_wait;	/* extents whose backup read waits for the fence */
	int	err;		/* the backup's error for the request */
};

/* Per queue. */
struct bk_queue {
	u32	nr_rd_wait;	/* its reads waiting for the fence (its thread
				 * changes it under the lock) */
	u32	inflight;	/* async writes posted on its ring (its thread) */
	bool	waking, again;	/* in backup_kicked() (its thread) */
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
	u32		*wq, wq_head, wq_len;	/* device tags of writes waiting
						 * for a buffer, oldest first */
	u32		ntags;		/* queues x depth */
	u32		outstanding;	/* async writes not landed */
	struct bk_queue	*q;		/* per queue */
	u64		seq;
	bool		fixed;		/* bufs registered with every ring */
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
	u32 i, ntags;

	if (!bk)
		return 0;
	ntags = d->nr_queues * d->depth;
	bk->ntags = ntags;
	bk->nbufs = ntags + backup_extra_bufs(d);
	bk->q = calloc(d->nr_queues, sizeof(*bk->q));
	bk->t = calloc(ntags, sizeof(*bk->t));
	bk->owner = calloc(bk->nbufs, sizeof(*bk->owner));
	bk->aw = calloc(bk->nbufs, sizeof(*bk->aw));
	bk->free = calloc(bk->nbufs, sizeof(*bk->free));
	bk->wq = calloc(ntags, sizeof(*bk->wq));
	d->tag_addr = calloc(ntags, sizeof(*d->tag_addr));
	if (!bk->t || !bk->owner || !bk->aw || !bk->free || !bk->wq ||
	    !bk->q || !d->tag_addr)
		return -1;
	for (i = 0; i < bk->nbufs; i++)
		bk->owner[i] = NONE;
	for (i = 0; i < ntags; i++) {
		bk->t[i].cur = i;
		bk->t[i].spare = NONE;
		bk->owner[i] = i;
		d->tag_addr[i] = buf_addr(d, i);
	}
	for (i = ntags; i < bk->nbufs; i++)
		bk->free[bk->nfree++] = i;
	return 0;
}

void backup_ring_init(struct queue *q)
{
	struct dev *d = q->d;
	struct backup *bk = d->bk;
	struct iovec iov;
	int ret;

	if (!bk)
		return;
	iov.iov_base = d->bufs;
	iov.iov_len = (size_t)bk->nbufs * MAX_IO;
	ret = io_uring_register_buffers(&q->q.ring, &iov, 1);
	if (ret)
		log_warn("backup %s: io_uring cannot register the buffers (%s): "
			 "plain reads and writes", bk->path, strerror(-ret));
	/* fixed only if every queue's ring took them */
	bk->fixed = !ret && (q->id == 0 || bk->fixed);
}

bool backup_fixed(const struct dev *d)
{
	return d->bk && d->bk->fixed;
}

/* A backup read or write of @len bytes at @off from/into @buf (in bufs). */
static void prep_rw(struct backup *bk, struct io_uring_sqe *sqe, bool write,
		    char *buf, u32 len, u64 off)
{

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
	free(bk->q);
	free(bk);
	free(d->tag_addr);
	d->tag_addr = NULL;
	d->bk = NULL;
}

/* An SQE on the queue's ring; submits what is queued if the ring is full. */
static struct io_uring_sqe *get_sqe(struct queue *q)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&q->q.ring);

	if (!sqe && io_uring_submit(&q->q.ring) >= 0)
		sqe = io_uring_get_sqe(&q->q.ring);
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

	unsigned int n = __atomic_add_fetch(&bk->warned, 1, __ATOMIC_RELAXED);

	if (n > 20)
		return;
	if (n == 20)
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

/*
 * Post async write @b on @q's ring unless an older one of the same pages
 * is in flight. Under the lock.
 */
static void aw_try_post(struct queue *q, u32 b)
{
	struct dev *d = q->d;
	struct backup *bk = d->bk;
	struct bk_aw *aw = &bk->aw[b];
	struct io_uring_sqe *sqe;

	if (aw->posted || fenced(bk, aw->first, aw->n, aw->seq))
		return;
	sqe = get_sqe(q);
	if (!sqe)
		return;		/* tried again at the next backup completion */
	prep_rw(bk, sqe, true, buf_addr(d, b), aw->len, aw->first << SPARE_PAGE_SHIFT);
	io_uring_sqe_set_data64(sqe, UD_BACKUP | (u64)b << 2);
	aw->posted = true;
	bk->q[q->id].inflight++;
}

/*
 * Hand free spare buffers to the oldest waiting writes. Under the lock.
 * Returns the queues (a bit each) that have a write to restart now.
 */
static u32 hand_locked(struct dev *d)
{
	struct backup *bk = d->bk;
	u32 kick = 0;

	while (bk->wq_len && bk->nfree) {
		u32 g = bk->wq[bk->wq_head];

		bk->wq_head = (bk->wq_head + 1) % bk->ntags;
		bk->wq_len--;
		bk->t[g].spare = bk->free[--bk->nfree];
		bk->t[g].handed = true;
		kick |= 1U << (g / d->depth);
	}
	return kick;
}

/* Wake the queues in @kick: @self at once (its thread), the others by eventfd. */
static void kick(struct queue *self, u32 kick)
{
	struct dev *d = self->d;

	for (u32 k = 0; kick && k < d->nr_queues; k++) {
		uint64_t one = 1;

		if (!(kick & (1U << k)) || k == self->id)
			continue;
		if (d->queues[k].kick_fd < 0 ||
		    write(d->queues[k].kick_fd, &one, sizeof(one)) != sizeof(one))
			log_err("backup: cannot wake queue %u", k);
		else
			self->st.backup_kicks++;
	}
	if (kick & (1U << self->id))
		backup_kicked(self);
}

bool backup_admit(struct queue *q, unsigned int tag)
{
	struct dev *d = q->d;
	struct backup *bk = d->bk;
	struct bk_tag *t;

	if (!bk || bk->mode != BACKUP_ASYNC)
		return true;
	t = &bk->t[q_gtag(q, tag)];
	pthread_mutex_lock(&bk->lock);
	if (t->spare == NONE && !bk->wq_len && bk->nfree)
		t->spare = bk->free[--bk->nfree];
	if (t->spare != NONE) {
		pthread_mutex_unlock(&bk->lock);
		return true;
	}
	/* The backup has fallen BACKUP_ASYNC_BUFS writes behind: wait. */
	bk->wq[(bk->wq_head + bk->wq_len++) % bk->ntags] = q_gtag(q, tag);
	pthread_mutex_unlock(&bk->lock);
	q->st.backup_waits++;
	return false;
}

void backup_write(struct queue *q, unsigned int tag)
{
	struct dev *d = q->d;
	struct backup *bk = d->bk;
	struct rq *r = &q->rqs[tag];
	struct bk_tag *t = &bk->t[q_gtag(q, tag)];
	u64 first = r->pos >> SPARE_PAGE_SHIFT;
	u64 n = (r->len + SPARE_PAGE_SIZE - 1) >> SPARE_PAGE_SHIFT;
	struct io_uring_sqe *sqe;

	q->st.backup_writes++;
	if (bk->mode == BACKUP_ASYNC) {
		struct bk_aw *aw = &bk->aw[t->cur];

		t->ext_ok = (u8)((1U << r->nr_ext) - 1);
		pthread_mutex_lock(&bk->lock);
		*aw = (struct bk_aw){ .used = true, .seq = ++bk->seq,
				      .first = first, .n = n, .len = r->len };
		bk->outstanding++;
		if (fenced(bk, first, n, aw->seq))
			q->st.backup_waits++;
		aw_try_post(q, t->cur);
		pthread_mutex_unlock(&bk->lock);
		return;
	}
	sqe = get_sqe(q);
	if (!sqe) {
		t->err = -EIO;
		return;
	}
	prep_rw(bk, sqe, true, buf_addr(d, t->cur), r->len, r->pos);
	io_uring_sqe_set_data64(sqe, UD_BACKUP | (u64)t->cur << 2);
	r->inflight++;
}

/* Post the backup read of extent @ext; the request counts it in flight. */
static bool post_read(struct queue *q, unsigned int tag, unsigned int ext)
{
	struct dev *d = q->d;
	struct backup *bk = d->bk;
	struct rq *r = &q->rqs[tag];
	struct bk_tag *t = &bk->t[q_gtag(q, tag)];
	struct spare_extent *e = &r->ext[ext];
	u64 off = ((u64)e->slab << d->slab_shift) + e->offset;
	struct io_uring_sqe *sqe;
	bool stale;

	/* other queues' writes change it (under the lock) */
	pthread_mutex_lock(&bk->lock);
	stale = bits_any(bk->stale, off >> SPARE_PAGE_SHIFT, e->nr_pages);
	pthread_mutex_unlock(&bk->lock);
	if (stale) {
		warn_limited(bk, "pages %" PRIu64 "+%u are stale after a failed "
			     "backup write: refusing to read them",
			     off >> SPARE_PAGE_SHIFT, e->nr_pages);
		return false;
	}
	sqe = get_sqe(q);
	if (!sqe)
		return false;
	prep_rw(bk, sqe, false, buf_addr(d, t->cur) + (off - r->pos), e->len, off);
	io_uring_sqe_set_data64(sqe, UD_BACKUP | (u64)t->cur << 2 | (1 + ext));
	return true;
}

bool backup_read_ext(struct queue *q, unsigned int tag, unsigned int ext)
{
	struct dev *d = q->d;
	struct backup *bk = d->bk;
	struct bk_tag *t = &bk->t[q_gtag(q, tag)];
	struct rq *r = &q->rqs[tag];
	struct spare_extent *e = &r->ext[ext];
	struct spare_slab *slab = &d->map.slabs[e->slab];
	u64 off = ((u64)e->slab << d->slab_shift) + e->offset;
	bool written, wait;

	spin_lock(&slab->lock);
	written = spare_slab_ever_written(slab, e->first_page, e->nr_pages);
	spin_unlock(&slab->lock);
	if (!written) {
		/* Never written: zeros, as a fresh copy would read. */
		memset(buf_addr(d, t->cur) + (off - r->pos), 0, e->len);
		t->ext_ok |= (u8)(1U << ext);
		q->st.zero_reads++;
		return true;
	}
	/* An async write of these pages (any queue's) is on its way: read after it. */
	pthread_mutex_lock(&bk->lock);
	wait = fenced(bk, off >> SPARE_PAGE_SHIFT, e->nr_pages, UINT64_MAX);
	if (wait) {
		t->rd_wait |= (u8)(1U << ext);
		bk->q[q->id].nr_rd_wait++;
	}
	pthread_mutex_unlock(&bk->lock);
	if (wait) {
		q->st.backup_waits++;
		r->inflight++;
		return true;
	}
	if (!post_read(q, tag, ext))
		return false;
	r->inflight++;
	return true;
}

bool backup_covers(const struct queue *q, unsigned int tag, unsigned int ext)
{
	const struct backup *bk = q->d->bk;

	return bk && (bk->t[q_gtag(q, tag)].ext_ok & (1U << ext));
}

/*
 * On @q's thread, after a kick (backup.h): restart its writes that were
 * handed a spare buffer, and post its reads whose fence has lifted.
 */
void backup_kicked(struct queue *q)
{
	struct dev *d = q->d;
	struct backup *bk = d->bk;
	struct bk_queue *bq;

	if (!bk || bk->mode != BACKUP_ASYNC)
		return;
	bq = &bk->q[q->id];
	if (bq->waking) {
		bq->again = true;	/* the outer call loops */
		return;
	}
	bq->waking = true;
	do {
		bq->again = false;
		for (unsigned int tag = 0; tag < d->depth; tag++) {
			struct bk_tag *t = &bk->t[q_gtag(q, tag)];
			bool go;

			pthread_mutex_lock(&bk->lock);
			go = t->handed;
			t->handed = false;
			pthread_mutex_unlock(&bk->lock);
			if (go)
				rq_restart(q, tag);
		}
		for (unsigned int tag = 0; bq->nr_rd_wait && tag < d->depth; tag++) {
			struct bk_tag *t = &bk->t[q_gtag(q, tag)];

			for (unsigned int ext = 0; t->rd_wait && ext < MAX_EXT; ext++) {
				struct spare_extent *e = &q->rqs[tag].ext[ext];
				u64 off;
				bool still;

				if (!(t->rd_wait & (1U << ext)))
					continue;
				off = ((u64)e->slab << d->slab_shift) + e->offset;
				pthread_mutex_lock(&bk->lock);
				still = fenced(bk, off >> SPARE_PAGE_SHIFT, e->nr_pages,
					       UINT64_MAX);
				if (!still) {
					t->rd_wait &= (u8)~(1U << ext);
					bq->nr_rd_wait--;
				}
				pthread_mutex_unlock(&bk->lock);
				if (!still && !post_read(q, tag, ext))
					rq_put(q, tag);	/* not covered: EIO */
			}
		}
	} while (bq->again);
	bq->waking = false;
}

/*
 * An extent read from the backup: its pages never written read as zeros,
 * whatever the backup disk held there before.
 */
static void zero_unwritten(struct queue *q, unsigned int tag, unsigned int ext)
{
	struct dev *d = q->d;
	struct rq *r = &q->rqs[tag];
	struct spare_extent *e = &r->ext[ext];
	struct spare_slab *slab = &d->map.slabs[e->slab];
	char *p = buf_addr(d, d->bk->t[q_gtag(q, tag)].cur) +
		  (((u64)e->slab << d->slab_shift) + e->offset - r->pos);

	spin_lock(&slab->lock);
	for (u32 i = 0; i < e->nr_pages; i++)
		if (!test_bit(e->first_page + i, slab->written))
			memset(p + ((size_t)i << SPARE_PAGE_SHIFT), 0, SPARE_PAGE_SIZE);
	spin_unlock(&slab->lock);
}

/*
 * --integrity: the pages a backup read brought into the tag's buffer,
 * checked against the checksum table as a copy's are (io.c). The backup
 * is the last source: a page that does not match fails the read (EIO),
 * counted and logged once per slab, never returned.
 */
static bool read_checked(struct queue *q, unsigned int tag, unsigned int ext)
{
	struct dev *d = q->d;
	struct rq *r = &q->rqs[tag];
	struct spare_extent *e = &r->ext[ext];
	u64 first = ((u64)e->slab << d->slab_shift) + e->offset;
	const char *p = buf_addr(d, d->bk->t[q_gtag(q, tag)].cur) + (first - r->pos);
	bool good = true;

	if (!integ_on(&d->crc))
		return true;
	for (u32 k = 0; k < e->nr_pages; k++) {
		u64 page = (first >> SPARE_PAGE_SHIFT) + k;
		u32 crc = integ_crc32c(p + ((size_t)k << SPARE_PAGE_SHIFT),
				       SPARE_PAGE_SIZE);

		if (spare_crc_check(&d->crc, page, 0, crc) != SPARE_CRC_BAD)
			continue;
		good = false;
		q->st.integrity_errors++;
		if (spare_crc_log_first(&d->crc, page))
			log_warn("backup %s: page %" PRIu64 " failed its crc32c check: the read fails (EIO), no other source holds it (logged once per slab)",
				 d->bk->path, page);
	}
	return good;
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

int backup_finish(struct queue *q, unsigned int tag, int err)
{
	struct dev *d = q->d;
	struct backup *bk = d->bk;
	unsigned int gtag = q_gtag(q, tag);
	struct bk_tag *t = &bk->t[gtag];

	u32 wake = 0;

	if (t->err)
		err = t->err;
	t->ext_ok = 0;
	t->err = 0;
	if (bk->mode != BACKUP_ASYNC)
		return err;
	pthread_mutex_lock(&bk->lock);
	if (t->spare != NONE) {
		if (bk->aw[t->cur].used) {
			/* Its backup write goes on from this buffer: take the spare. */
			bk->owner[t->cur] = NONE;
			t->cur = t->spare;
			bk->owner[t->cur] = gtag;
			d->tag_addr[gtag] = buf_addr(d, t->cur);
		} else {
			bk->free[bk->nfree++] = t->spare;
		}
		t->spare = NONE;
	}
	wake = hand_locked(d);
	pthread_mutex_unlock(&bk->lock);
	kick(q, wake);
	return err;
}

void backup_done(struct queue *q, uint64_t ud, int res)
{
	struct dev *d = q->d;
	struct backup *bk = d->bk;
	u32 b = (u32)((ud - UD_BACKUP) >> 2), kind = (u32)(ud & 3);
	unsigned int tag, gtag;
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
			q->st.backup_errors++;
		}
		u32 wake;

		bk->q[q->id].inflight--;	/* posted on this ring */
		pthread_mutex_lock(&bk->lock);
		bits_set(bk->stale, aw->first, aw->n, res != (int)aw->len);
		aw->used = false;
		bk->outstanding--;
		if (bk->owner[b] == NONE)	/* its tag moved on: a spare again */
			bk->free[bk->nfree++] = b;
		for (u32 j = 0; j < bk->nbufs; j++)
			if (bk->aw[j].used && !bk->aw[j].posted)
				aw_try_post(q, j);
		wake = hand_locked(d);
		/* a fence may have lifted: every queue with a read waiting looks */
		for (u32 k = 0; k < d->nr_queues; k++)
			if (bk->q[k].nr_rd_wait)
				wake |= 1U << k;
		pthread_mutex_unlock(&bk->lock);
		kick(q, wake);
		return;
	}
	pthread_mutex_lock(&bk->lock);	/* another queue's hand-over changes owner[] */
	gtag = bk->owner[b];
	pthread_mutex_unlock(&bk->lock);
	if (gtag == NONE || gtag / d->depth != q->id) {
		log_err("backup completion %" PRIx64 " for no request", (uint64_t)ud);
		return;
	}
	tag = gtag % d->depth;
	r = &q->rqs[tag];
	if (kind == 0) {		/* sync write */
		u64 first = r->pos >> SPARE_PAGE_SHIFT;
		u64 n = (r->len + SPARE_PAGE_SIZE - 1) >> SPARE_PAGE_SHIFT;
		bool ok = res == (int)r->len;

		if (!ok) {
			warn_limited(bk, "write of pages %" PRIu64 "+%" PRIu64
				     " failed (%s): the request fails",
				     first, n, res < 0 ? strerror(-res) : "short write");
			q->st.backup_errors++;
			bk->t[gtag].err = -EIO;
		} else {
			bk->t[gtag].ext_ok = (u8)((1U << r->nr_ext) - 1);
		}
		/* A failed write leaves the backup's copy undefined: stale. */
		pthread_mutex_lock(&bk->lock);
		bits_set(bk->stale, first, n, !ok);
		pthread_mutex_unlock(&bk->lock);
	} else {
		unsigned int ext = kind - 1;

		if (ext < r->nr_ext && res == (int)r->ext[ext].len) {
			zero_unwritten(q, tag, ext);
			if (read_checked(q, tag, ext)) {
				bk->t[gtag].ext_ok |= (u8)(1U << ext);
				q->st.backup_reads++;
			}
		} else {
			warn_limited(bk, "read at %" PRIu64 " failed (%s)",
				     r->pos, res < 0 ? strerror(-res) : "short read");
			q->st.backup_errors++;
		}
	}
	rq_put(q, tag);
}

void backup_drain(struct queue *q)
{
	struct backup *bk = q->d->bk;
	struct io_uring_cqe *cqe;

	/*
	 * The async writes posted on this ring. One still fenced by another
	 * queue's is posted, and waited for, by the thread that reaps that
	 * one, which is draining too.
	 */
	if (!bk || !bk->q[q->id].inflight)
		return;
	log_info("backup %s: queue %u waiting for %u async writes", bk->path,
		 q->id, bk->q[q->id].inflight);
	while (bk->q[q->id].inflight) {
		unsigned int head, seen = 0;

		int ret = io_uring_submit_and_wait(&q->q.ring, 1);

		if (ret < 0 && ret != -EINTR) {
			log_err("backup drain: %s", strerror(-ret));
			break;
		}
		io_uring_for_each_cqe(&q->q.ring, head, cqe) {
			u64 ud = io_uring_cqe_get_data64(cqe);

			seen++;
			if (ud >= UD_BACKUP && ud < UD_BACKUP_END)
				backup_done(q, ud, cqe->res);
		}
		io_uring_cq_advance(&q->q.ring, seen);
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
