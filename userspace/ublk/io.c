// SPDX-License-Identifier: GPL-2.0
/*
 * spare-ublk's request path, run by each queue's thread: it fetches ublk
 * requests, splits them at slab boundaries, posts RDMA READ/WRITE straight
 * into the tag's registered buffer, reaps the data CQs through
 * IORING_OP_POLL_ADD on their completion channels, and commits the result.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "backup.h"
#include "pager.h"
#include "spare_log.h"
#include "stats.h"
#include "spare_util.h"



static void commit(struct queue *q, unsigned int tag, int res)
{
	struct dev *d = q->d;

	if (res < 0)
		q->st.io_errors++;
	/* the descriptor is the kernel's until the commit below */
	if (ublksrv_get_op(&q->q.iod[tag]) == UBLK_IO_OP_WRITE)
		q->writes_held--;
	/* A copy failed under this request: the state file says so first. */
	if (pager_state_stale(d))
		pager_state_sync(d);
	if (ublk_queue_commit_fetch(&q->q, tag, res))
		log_err("queue full committing tag %u", tag);	/* cannot be */
}

static u64 wr_id(unsigned int tag, unsigned int op)
{
	return (u64)tag << 8 | op;
}

/*
 * Whether a request that found no copy to serve it waits instead of
 * failing: a copy of one of its slabs is on a donor that holds it over a
 * restart and may come back with its pages (spare_copy_has_kept()). The
 * lifecycle kicks the queues when that copy is adopted or forgotten
 * (rq_unpark()); the hold is bounded (SPARE_LIFE_HOLD_MS).
 */
static bool rq_waits_for_kept(struct queue *q, struct rq *r)
{
	struct dev *d = q->d;
	bool kept = false;

	for (unsigned int i = 0; i < r->nr_ext && !kept; i++) {
		struct spare_slab *slab = &d->map.slabs[r->ext[i].slab];

		spin_lock(&slab->lock);
		for (u32 c = 0; c < d->map.nr_slots && !kept; c++)
			kept = spare_copy_has_kept(&slab->copy[c]);
		spin_unlock(&slab->lock);
	}
	return kept;
}

/* Settle every op and close the writes, then answer the kernel. */
static void rq_finish(struct queue *q, unsigned int tag)
{
	struct dev *d = q->d;
	struct rq *r = &q->rqs[tag];
	bool landed[MAX_EXT] = { false };
	unsigned int i;

	for (i = 0; i < r->nr_ops; i++) {
		struct rq_op *op = &r->ops[i];
		struct spare_extent *e = &r->ext[op->ext];
		struct spare_slab *slab = &d->map.slabs[e->slab];

		if (op->settled)
			continue;
		spin_lock(&slab->lock);
		slab->copy[op->copy].inflight--;
		if (spare_slab_op_settle(&d->map, slab, op->copy, op->gen,
					 e->first_page, e->nr_pages, r->write,
					 op->res))
			log_warn("slab %u copy %u failed (donor %s)", e->slab,
				 op->copy,
				 d->donors[slab->copy[op->copy].donor].host);
		spin_unlock(&slab->lock);
		if (op->res == SPARE_OP_DONE)
			landed[op->ext] = true;
	}
	for (i = 0; i < r->nr_ext; i++) {
		struct spare_slab *slab = &d->map.slabs[r->ext[i].slab];

		if (r->write) {
			spin_lock(&slab->lock);
			spare_slab_write_end(slab);
			spin_unlock(&slab->lock);
		}
		/*
		 * No copy took the write, or none could be read, and the
		 * backup (if any) does not cover it: an error.
		 */
		if (!landed[i] && !backup_covers(q, tag, i))
			r->err = -EIO;
	}
	if (d->bk)
		r->err = backup_finish(q, tag, r->err);
	if (r->err == -EIO && rq_waits_for_kept(q, r)) {
		/* driven again from the start once the hold is over */
		r->parked = true;
		q->parked++;
		q->st.held_waits++;
		return;
	}
	if (!r->write && !r->err && r->t_post && r->t_done > r->t_post)
		read_split_note(&q->split, spare_now_ns() - r->t_start,
				r->t_done - r->t_post);
	commit(q, tag, r->err ? r->err : (int)r->len);
}

static void rq_start(struct queue *q, unsigned int tag);
static void integ_write(struct queue *q, unsigned int tag);

/*
 * The lifecycle kicked: a held donor's copies were adopted, or forgotten.
 * Every waiting request starts again (one that still finds only kept
 * pages waits again; one that finds neither fails as without a hold).
 * @fail: the pager stops: they fail now.
 */
static void rq_unpark(struct queue *q, bool fail)
{
	for (unsigned int tag = 0; q->parked && tag < q->d->depth; tag++) {
		struct rq *r = &q->rqs[tag];

		if (!r->parked)
			continue;
		r->parked = false;
		q->parked--;
		if (fail) {
			commit(q, tag, -EIO);
			continue;
		}
		/* counted once, when the kernel gave it */
		if (r->write) {
			q->st.writes--;
			q->st.bytes_written -= r->len;
		} else {
			q->st.reads--;
			q->st.bytes_read -= r->len;
		}
		rq_start(q, tag);
	}
}

void rq_ec_commit(struct queue *q, unsigned int tag)
{
	struct rq *r = &q->rqs[tag];

	if (!r->write && !r->err && r->t_post && r->t_done > r->t_post)
		read_split_note(&q->split, spare_now_ns() - r->t_start,
				r->t_done - r->t_post);
	commit(q, tag, r->err ? r->err : (int)r->len);
}

static void rq_post(struct queue *q, unsigned int tag, unsigned int ext,
		    u32 c, u32 gen)
{
	struct dev *d = q->d;
	struct rq *r = &q->rqs[tag];
	struct spare_extent *e = &r->ext[ext];
	struct spare_copy *cp = &d->map.slabs[e->slab].copy[c];
	struct rq_op *op = &r->ops[r->nr_ops];
	char *local = tag_buf(q, tag) +
		      (size_t)(((u64)e->slab << d->slab_shift) + e->offset - r->pos);

	op->ext = ext;
	op->copy = c;
	op->gen = gen;
	op->res = SPARE_OP_UNSENT;
	if (donor_post_rdma(&d->donors[cp->donor], q->id, r->write,
			    wr_id(tag, r->nr_ops), local, d->bufs_mr->lkey,
			    e->len, cp->addr + e->offset, cp->rkey)) {
		op->res = SPARE_OP_COPY_FAULT;	/* the QP is broken */
		q->st.copy_faults++;
		r->nr_ops++;
		return;
	}
	if (r->write)
		q->st.rdma_writes++;
	else
		q->st.rdma_reads++;
	dn_posted(q, r, cp->donor);
	r->nr_ops++;
	r->inflight++;
	q->rdma_inflight++;
}

static bool rq_redrive_read(struct queue *q, unsigned int tag, unsigned int i);

/*
 * Read extent @ext from a copy current for all its pages (never a stale
 * read). Returns false if no copy can serve it.
 */
static bool rq_read_ext(struct queue *q, unsigned int tag, unsigned int ext)
{
	struct dev *d = q->d;
	struct rq *r = &q->rqs[tag];
	struct spare_extent *e = &r->ext[ext];
	struct spare_slab *slab = &d->map.slabs[e->slab];
	u32 gen = 0;
	int pick;

	if (r->nr_ops == MAX_OPS)
		return d->bk ? backup_read_ext(q, tag, ext) : false;
	spin_lock(&slab->lock);
	pick = spare_slab_pick_read(&d->map, slab, e->first_page, e->nr_pages,
				    tag % d->copies);
	if (pick >= 0) {
		gen = slab->copy[pick].gen;
		/* an eviction waits for it before UNMAP; settling ends it */
		slab->copy[pick].inflight++;
	}
	spin_unlock(&slab->lock);
	if (pick < 0)	/* no current copy: the backup, or an error */
		return d->bk ? backup_read_ext(q, tag, ext) : false;
	rq_post(q, tag, ext, (u32)pick, gen);
	if (r->ops[r->nr_ops - 1].res == SPARE_OP_COPY_FAULT)	/* not posted */
		return rq_redrive_read(q, tag, r->nr_ops - 1);
	return true;
}

static void rq_start(struct queue *q, unsigned int tag)
{
	struct dev *d = q->d;
	const struct ublksrv_io_desc *iod = &q->q.iod[tag];
	struct rq *r = &q->rqs[tag];
	unsigned int op = ublksrv_get_op(iod), i;
	int n;

	memset(r, 0, sizeof(*r));
	r->t_start = spare_now_ns();
	switch (op) {
	case UBLK_IO_OP_READ:
	case UBLK_IO_OP_WRITE:
		break;
	case UBLK_IO_OP_FLUSH:	/* RDMA WRITE completions mean "placed" */
		commit(q, tag, 0);
		return;
	default:
		commit(q, tag, -EOPNOTSUPP);
		return;
	}
	/* async backup: a write waits for a spare buffer (backup.c) */
	if (op == UBLK_IO_OP_WRITE && !backup_admit(q, tag))
		return;
	r->write = op == UBLK_IO_OP_WRITE;
	r->pos = iod->start_sector << 9;
	r->len = iod->nr_sectors << 9;
	if (r->write) {
		q->st.writes++;
		q->st.bytes_written += r->len;
	} else {
		q->st.reads++;
		q->st.bytes_read += r->len;
	}
	if (ec_on(d)) {		/* erasure-coded pages: ec.c */
		ec_rq_start(q, tag);
		return;
	}
	n = r->len > MAX_IO ? -EINVAL :
	    spare_split(r->pos, r->len, d->size, d->slab_shift, r->ext, MAX_EXT);
	if (n < 0) {
		log_warn("request of %u bytes at %" PRIu64 " refused", r->len,
			 r->pos);
		commit(q, tag, -EIO);
		return;
	}
	r->nr_ext = (unsigned int)n;
	if (r->write)
		integ_write(q, tag);
	for (i = 0; i < r->nr_ext; i++) {
		struct spare_extent *e = &r->ext[i];
		struct spare_slab *slab = &d->map.slabs[e->slab];
		u32 gens[SPARE_MAX_SLOTS], mask = 0, c;

		spin_lock(&slab->lock);
		atomic64_add(e->nr_pages, &slab->accesses);
		if (r->write) {
			mask = spare_slab_write_begin(&d->map, slab, e->first_page,
						      e->nr_pages, gens);
			for (c = 0; c < d->map.nr_slots; c++)
				if (mask & (1U << c))
					slab->copy[c].inflight++;
		}
		spin_unlock(&slab->lock);

		if (!r->write) {
			if (!rq_read_ext(q, tag, i))
				r->err = -EIO;	/* no current copy */
			continue;
		}
		for (c = 0; c < d->map.nr_slots; c++)
			if (mask & (1U << c))
				rq_post(q, tag, i, c, gens[c]);
	}
	if (r->write && d->bk)
		backup_write(q, tag);
	if (!r->inflight)
		rq_finish(q, tag);
}

void rq_restart(struct queue *q, unsigned int tag)
{
	rq_start(q, tag);
}

void rq_put(struct queue *q, unsigned int tag)
{
	if (--q->rqs[tag].inflight == 0)
		rq_finish(q, tag);
}

/*
 * A read failed on its copy: fail the copy now (the shared state machine
 * then keeps every later read away from it) and read the extent from
 * another current copy, so that the swapping process sees no error.
 */
static bool rq_redrive_read(struct queue *q, unsigned int tag, unsigned int i)
{
	struct dev *d = q->d;
	struct rq *r = &q->rqs[tag];
	struct rq_op *op = &r->ops[i];
	struct spare_extent *e = &r->ext[op->ext];
	struct spare_slab *slab = &d->map.slabs[e->slab];

	spin_lock(&slab->lock);
	slab->copy[op->copy].inflight--;
	if (spare_slab_op_settle(&d->map, slab, op->copy, op->gen,
				 e->first_page, e->nr_pages, false, op->res))
		log_warn("slab %u copy %u failed (donor %s)", e->slab, op->copy,
			 d->donors[slab->copy[op->copy].donor].host);
	spin_unlock(&slab->lock);
	op->settled = true;
	if (!rq_read_ext(q, tag, op->ext))
		return false;
	q->st.redrives++;
	return true;
}

/* --integrity: the checksum of every page of the write in @tag's buffer. */
static void integ_write(struct queue *q, unsigned int tag)
{
	struct dev *d = q->d;
	struct rq *r = &q->rqs[tag];
	const char *buf = tag_buf(q, tag);
	u64 page0 = r->pos >> SPARE_PAGE_SHIFT;

	if (!integ_on(&d->crc))
		return;
	for (u32 k = 0; k < r->len >> SPARE_PAGE_SHIFT; k++)
		spare_crc_set(&d->crc, page0 + k, 0,
			      integ_crc32c(buf + ((size_t)k << SPARE_PAGE_SHIFT),
					   SPARE_PAGE_SIZE));
}

/*
 * --integrity: check the pages read op @i brought into @tag's buffer.
 * Returns false if one does not match: counted, logged once per slab, and
 * its copy demoted for it (spare_slab_page_bad()) while another copy or
 * the backup holds it, so that no read, resync or move takes it from there
 * and resync refills it.
 */
static bool integ_read_ok(struct queue *q, unsigned int tag, unsigned int i)
{
	struct dev *d = q->d;
	struct rq *r = &q->rqs[tag];
	struct rq_op *op = &r->ops[i];
	struct spare_extent *e = &r->ext[op->ext];
	struct spare_slab *slab = &d->map.slabs[e->slab];
	u64 first = ((u64)e->slab << d->slab_shift) + e->offset;
	const char *buf = tag_buf(q, tag) + (size_t)(first - r->pos);
	u64 page0 = first >> SPARE_PAGE_SHIFT;
	bool good = true, demoted = false;

	for (u32 k = 0; k < e->nr_pages; k++) {
		u32 crc = integ_crc32c(buf + ((size_t)k << SPARE_PAGE_SHIFT),
				       SPARE_PAGE_SIZE);
		bool backup, dem;

		if (spare_crc_check(&d->crc, page0 + k, 0, crc) != SPARE_CRC_BAD)
			continue;
		good = false;
		q->st.integrity_errors++;
		backup = d->bk && backup_range_ok(d, page0 + k, 1);
		spin_lock(&slab->lock);
		dem = spare_slab_page_bad(&d->map, slab, op->copy, op->gen,
					  e->first_page + k, backup);
		spin_unlock(&slab->lock);
		demoted |= dem;
		if (spare_crc_log_first(&d->crc, page0 + k))
			log_warn("slab %u copy %u (donor %s): page %" PRIu64 " failed its crc32c check; %s (logged once per slab)",
				 e->slab, op->copy,
				 d->donors[slab->copy[op->copy].donor].host,
				 page0 + k, dem ? "read from another source, the copy refilled" :
				 "no other source holds it");
	}
	if (demoted)
		resync_kick(d);
	return good;
}

/*
 * Read op @i of @tag came back with a bad page: read the extent again from
 * another copy, then from the backup, and fail it once no good source is
 * left (spare_integrity_next()). The op is settled as read: its copy is
 * not failed, only demoted for the bad pages.
 */
static void integ_redrive(struct queue *q, unsigned int tag, unsigned int i)
{
	struct dev *d = q->d;
	struct rq *r = &q->rqs[tag];
	struct rq_op *op = &r->ops[i];
	struct spare_extent *e = &r->ext[op->ext];
	struct spare_slab *slab = &d->map.slabs[e->slab];
	enum spare_bad_next next;

	r->bad_reads++;
	next = spare_integrity_next(r->bad_reads, d->copies, d->bk != NULL, false);
	if (next == SPARE_BAD_OTHER_COPY) {
		if (!rq_redrive_read(q, tag, i))
			r->err = -EIO;
		return;
	}
	spin_lock(&slab->lock);
	slab->copy[op->copy].inflight--;
	spare_slab_op_settle(&d->map, slab, op->copy, op->gen, e->first_page,
			     e->nr_pages, false, op->res);
	spin_unlock(&slab->lock);
	op->settled = true;
	if (next == SPARE_BAD_BACKUP && backup_read_ext(q, tag, op->ext))
		return;
	r->err = -EIO;	/* no good source left: never the bad data */
}

static void rdma_done(struct queue *q, u32 dn, const struct ibv_wc *wc)
{
	struct dev *d = q->d;
	unsigned int tag = (unsigned int)(wc->wr_id >> 8);
	unsigned int i = (unsigned int)(wc->wr_id & 0xff);
	struct rq *r;

	if (wc->wr_id & EC_WR_FLAG) {
		ec_rdma_done(q, dn, wc);
		return;
	}
	if (tag >= d->depth || i >= MAX_OPS) {
		log_err("stray RDMA completion %" PRIx64, (uint64_t)wc->wr_id);
		return;
	}
	r = &q->rqs[tag];
	q->rdma_inflight--;
	q->dn_inflight[dn]--;
	q->dn_progress_ns[dn] = spare_now_ns();
	r->t_done = q->dn_progress_ns[dn];
	if (wc->status == IBV_WC_SUCCESS) {
		r->ops[i].res = SPARE_OP_DONE;
		if (!r->write && integ_on(&d->crc) && !integ_read_ok(q, tag, i))
			integ_redrive(q, tag, i);
	} else {
		r->ops[i].res = SPARE_OP_COPY_FAULT;
		q->st.copy_faults++;
		/* The first error of a broken QP is worth a line; its flushes not. */
		spare_log(wc->status == IBV_WC_WR_FLUSH_ERR ? SPARE_LOG_DEBUG :
			  SPARE_LOG_WARN, "RDMA %s for tag %u: %s",
			  r->write ? "WRITE" : "READ", tag,
			  ibv_wc_status_str(wc->status));
		/*
		 * A real error (not the flush of a link already failed) leaves
		 * the QP in the error state: the donor is lost, as in spare.ko;
		 * the lifecycle reconnects it.
		 */
		if (wc->status != IBV_WC_WR_FLUSH_ERR)
			donor_fail(&d->donors[dn], "RDMA operation failed");
		if (!r->write)
			rq_redrive_read(q, tag, i);
	}
	rq_put(q, tag);
}

static int arm_poll(struct queue *q, int fd, u64 ud)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&q->q.ring);

	if (!sqe)
		return -EBUSY;
	io_uring_prep_poll_add(sqe, fd, POLLIN);
	io_uring_sqe_set_data64(sqe, ud);
	return 0;
}

static u64 poll_ud(struct queue *q, u32 i)
{
	return UD_POLL_CQ + ((u64)(q->dn_poll_gen[i] & 0xffffff) << 8) + i;
}

static void arm_cq_poll(struct queue *q, u32 i)
{
	struct dev *d = q->d;

	if (arm_poll(q, d->donors[i].data[q->id].cc->fd, poll_ud(q, i)))
		log_err("donor %s: cannot arm its CQ poll", d->donors[i].host);
	else
		q->dn_poll_armed[i] = true;
}

static void reap_now(struct queue *q, u32 i)
{
	struct dev *d = q->d;
	struct donor_link *l = &d->donors[i].data[q->id];
	struct ibv_wc wc[16];
	int n, k;

	while ((n = ibv_poll_cq(l->cq, 16, wc)) > 0)
		for (k = 0; k < n; k++)
			rdma_done(q, i, &wc[k]);
}

/*
 * Donor @i's CQ poll completed (@res: POLLIN, or -ECANCELED after a
 * removal): reap its data CQ and re-arm, unless the lifecycle asked to
 * detach the link. A completion of an older link's poll is ignored.
 */
static void reap_cq(struct queue *q, u64 ud, int res)
{
	struct dev *d = q->d;
	u32 i = (u32)(ud & 0xff), gen = (u32)((ud >> 8) & 0xffffff);
	struct donor_link *l;
	struct ibv_cq *cq;
	void *ctx;

	if (i >= d->nr_donors || gen != (q->dn_poll_gen[i] & 0xffffff) ||
	    !q->dn_poll_armed[i])
		return;
	q->dn_poll_armed[i] = false;
	q->dn_poll_removing[i] = false;
	l = &d->donors[i].data[q->id];
	if (res > 0 && ibv_get_cq_event(l->cc, &cq, &ctx) == 0) {
		ibv_ack_cq_events(cq, 1);
		if (ibv_req_notify_cq(l->cq, 0))
			log_err("donor %s: ibv_req_notify_cq failed", d->donors[i].host);
	}
	reap_now(q, i);
	if (__atomic_load_n(&q->dn_link[i], __ATOMIC_ACQUIRE) == DN_ATTACHED)
		arm_cq_poll(q, i);
}

/*
 * The lifecycle's requests about data links (pager.h, enum dn_link_state).
 * Detaching: reap until nothing posted to the donor is outstanding (its QP
 * is in the error state, so all of it completes, flushed), remove the CQ
 * poll, then say DETACHED. Attaching: arm the poll of the new link.
 */
static void links_step(struct queue *q)
{
	struct dev *d = q->d;
	bool told = false;
	u32 i;

	for (i = 0; i < d->nr_donors; i++) {
		int st = __atomic_load_n(&q->dn_link[i], __ATOMIC_ACQUIRE);

		if (st == DN_ATTACH_REQ) {
			q->dn_poll_gen[i]++;
			q->dn_inflight[i] = 0;
			q->dn_progress_ns[i] = spare_now_ns();
			arm_cq_poll(q, i);
			__atomic_store_n(&q->dn_link[i], DN_ATTACHED,
					 __ATOMIC_RELEASE);
			told = true;
			continue;
		}
		if (st != DN_DETACH_REQ)
			continue;
		if (q->dn_inflight[i])
			reap_now(q, i);
		if (q->dn_inflight[i])
			continue;	/* the flushes come */
		if (q->dn_poll_armed[i]) {
			struct io_uring_sqe *sqe;

			if (q->dn_poll_removing[i])
				continue;
			sqe = io_uring_get_sqe(&q->q.ring);
			if (!sqe)
				continue;	/* next turn */
			io_uring_prep_poll_remove(sqe, poll_ud(q, i));
			io_uring_sqe_set_data64(sqe, UD_NOP);
			q->dn_poll_removing[i] = true;
			continue;
		}
		__atomic_store_n(&q->dn_link[i], DN_DETACHED, __ATOMIC_RELEASE);
		told = true;
	}
	if (told) {
		uint64_t one = 1;

		if (write(d->life_fd, &one, sizeof(one)) != sizeof(one))
			log_err("cannot wake the control thread: %s", strerror(errno));
	}
}

/*
 * --poll-us: while RDMA operations are in flight, reap the data CQs for up
 * to poll_us before sleeping, to save the wake-up of the completion
 * channel. Never spins when nothing is in flight (an idle device sleeps).
 */
static void poll_cqs(struct queue *q)
{
	struct dev *d = q->d;
	uint64_t end = spare_now_ns() + (uint64_t)d->poll_us * 1000;
	struct ibv_wc wc[16];
	int n, k;
	u32 i;

	while (q->rdma_inflight && spare_now_ns() < end) {
		for (i = 0; i < d->nr_donors; i++) {
			if (!q->dn_poll_armed[i])
				continue;	/* no link, or one going away */
			n = ibv_poll_cq(d->donors[i].data[q->id].cq, 16, wc);
			for (k = 0; k < n; k++)
				rdma_done(q, i, &wc[k]);
		}
	}
}

/*
 * While RDMA is in flight, wake every STALL_CHECK_MS and fail a donor whose
 * operations stopped completing: a donor that died without a word can
 * leave its operations unanswered for ever (soft-RoCE does not always time
 * them out), and the swapping task would wait on them in D state. As
 * spare.ko's request timeout does, failing the link flushes them, and the
 * requests fail over to the other copies.
 */
static void arm_timer(struct queue *q)
{
	struct io_uring_sqe *sqe;

	if (q->timer_armed || !q->rdma_inflight)
		return;
	sqe = io_uring_get_sqe(&q->q.ring);
	if (!sqe)
		return;		/* the next request will try again */
	q->timer_ts.tv_sec = STALL_CHECK_MS / 1000;
	q->timer_ts.tv_nsec = (STALL_CHECK_MS % 1000) * 1000000LL;
	io_uring_prep_timeout(sqe, &q->timer_ts, 0, 0);
	io_uring_sqe_set_data64(sqe, UD_TIMER);
	q->timer_armed = true;
}

static void check_stalls(struct queue *q)
{
	struct dev *d = q->d;
	u64 now = spare_now_ns();
	char why[96];
	u32 i;

	for (i = 0; i < d->nr_donors; i++) {
		if (q->dn_link[i] == DN_DETACH_REQ)
			reap_now(q, i);		/* flushes, if no poll saw them */
		if (!q->dn_inflight[i] ||
		    now - q->dn_progress_ns[i] < (u64)d->io_timeout_ms * 1000000)
			continue;
		snprintf(why, sizeof(why),
			 "%u RDMA operations without a completion for %u ms",
			 q->dn_inflight[i], d->io_timeout_ms);
		donor_fail(&d->donors[i], why);
	}
}

/* An eventfd's poll completed: empty it and poll it again. */
static void eventfd_rearm(struct queue *q, int fd, u64 ud, const char *what)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		log_err("%s eventfd: %s", what, strerror(errno));
	if (arm_poll(q, fd, ud))
		log_err("cannot re-arm the %s poll", what);
}

void *queue_thread(void *arg)
{
	struct queue *q = arg;
	struct dev *d = q->d;
	struct io_uring_cqe *cqe;
	unsigned int tag, head, seen, aborted = 0;
	bool stopping = false, links_check = true;	/* a restart may start with a donor to detach */
	u32 i;
	int ret = 0;

	for (tag = 0; tag < d->depth && !ret; tag++)
		ret = ublk_queue_fetch(&q->q, tag);
	for (i = 0; i < d->nr_donors && !ret; i++) {
		if (!d->donors[i].data[q->id].up)	/* a restart may go on without one */
			continue;
		ret = arm_poll(q, d->donors[i].data[q->id].cc->fd, poll_ud(q, i));
		q->dn_poll_armed[i] = !ret;
	}
	if (!ret)
		ret = arm_poll(q, d->stop_fd, UD_STOP);
	if (!ret)
		ret = arm_poll(q, q->links_fd, UD_LINKS);
	if (!ret)
		ret = arm_poll(q, q->kick_fd, UD_KICK);
	if (!ret)
		ret = io_uring_submit(&q->q.ring) < 0 ? -EIO : 0;
	pthread_mutex_lock(&d->start_lock);
	if (ret)
		d->start_state = -1;
	else if (d->start_state >= 0)
		d->start_state++;
	pthread_cond_signal(&d->start_cond);
	pthread_mutex_unlock(&d->start_lock);
	if (ret)
		return NULL;

	while (!stopping && aborted < d->depth) {
		if (d->poll_us)
			poll_cqs(q);
		ret = io_uring_submit_and_wait(&q->q.ring, 1);
		if (ret < 0 && ret != -EINTR) {
			log_err("queue io_uring: %s", strerror(-ret));
			break;
		}
		seen = 0;
		io_uring_for_each_cqe(&q->q.ring, head, cqe) {
			u64 ud = io_uring_cqe_get_data64(cqe);

			seen++;
			if (ud == UD_STOP) {
				stopping = true;
			} else if (ud == UD_TIMER) {
				q->timer_armed = false;
				check_stalls(q);
				links_check = true;
			} else if (ud >= UD_BACKUP && ud < UD_BACKUP_END) {
				backup_done(q, ud, cqe->res);
			} else if (ud == UD_LINKS) {
				eventfd_rearm(q, q->links_fd, UD_LINKS, "links");
				links_check = true;
			} else if (ud == UD_KICK) {
				eventfd_rearm(q, q->kick_fd, UD_KICK, "kick");
				backup_kicked(q);
				rq_unpark(q, false);
				if (ec_on(d))
					ec_kicked(q);
			} else if (ud == UD_NOP) {
				/* a poll removal ended */
			} else if (ud >= UD_POLL_CQ && ud < UD_TIMER) {
				reap_cq(q, ud, cqe->res);
				links_check = true;
			} else if (cqe->res == UBLK_IO_RES_OK) {
				if (ublksrv_get_op(&q->q.iod[ud]) == UBLK_IO_OP_WRITE &&
				    ++q->writes_held > q->st.writes_held_max)
					q->st.writes_held_max = q->writes_held;
				rq_start(q, (unsigned int)ud);
			} else {
				/* UBLK_IO_RES_ABORT: the device is going away */
				aborted++;
			}
		}
		io_uring_cq_advance(&q->q.ring, seen);
		if (links_check) {
			links_step(q);
			links_check = false;
		}
		arm_timer(q);
		stats_publish(q);
	}
	rq_unpark(q, true);
	backup_drain(q);
	return NULL;
}
