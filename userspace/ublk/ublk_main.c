// SPDX-License-Identifier: GPL-2.0
/*
 * spare-ublk: the userspace pager (issue 10). It serves a spare swap device
 * through the kernel's ublk driver, for hosts that cannot load spare.ko,
 * with the same donors and the same protocol (kmod/uapi/spare.h).
 *
 *   spare-ublk --size 256M --slab-size 16M --donor 10.0.0.2[:18515] ...
 *
 * Logic shared with spare.ko, from the very same sources (libspare-ublk):
 * the slab map and copy states, the per-page "current" bitmaps that forbid
 * stale reads, request splitting at slab boundaries, the wire codec.
 *
 * Threads:
 *  - the queue thread owns the ublk queue's io_uring: it fetches requests
 *    (FETCH_REQ / COMMIT_AND_FETCH_REQ), posts RDMA READ/WRITE straight into
 *    the tag's ublk buffer (one memory region registered once for all of
 *    them), and reaps the data CQs through IORING_OP_POLL_ADD on their
 *    completion channels, so an idle device sleeps in io_uring_enter();
 *  - the main thread sets up, then serves the donors' control connections
 *    (ACTIVITY_QUERY, EVICT) and the signals; SIGTERM/SIGINT stop the device
 *    (STOP_DEV, DEL_DEV) and release the slabs.
 *
 * First slice (Documentation/ublk.md says what is missing): one queue,
 * every slab mapped at start, copies written to every MAPPED copy and read
 * from a current one; a failed copy is not remapped, there is no backup
 * device, no reconnect and no recovery after a restart.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "donor.h"
#include "spare_auth.h"
#include "spare_conf.h"
#include "spare_grant_lib.h"
#include "spare_log.h"
#include "spare_notify.h"
#include "spare_slab.h"
#include "spare_split.h"
#include "spare_util.h"
#include "ublk_dev.h"

#define MAX_IO		(256U * 1024)	/* bytes per request */
#define MAX_EXT		2		/* MAX_IO <= the smallest slab */
#define MAX_OPS		(MAX_EXT * SPARE_MAX_REPLICAS)
#define UD_POLL_CQ	(1ULL << 32)	/* user_data: + donor index */
#define UD_STOP		(2ULL << 32)
#define UD_TIMER	(3ULL << 32)
#define STALL_CHECK_MS	1000	/* how often in-flight RDMA is checked */

_Static_assert(UBLK_EXTRA_SQES >= SPARE_MAX_DONORS + 2,
	       "the queue ring needs a poll per donor, the stop event, the timer");

/* One RDMA operation of a request. */
struct rq_op {
	u32 ext, copy, gen;
	enum spare_op_result res;
	bool settled;		/* a re-driven read's failed op, settled early */
};

struct rq {
	bool	write;
	u64	pos;
	u32	len;
	int	err;			/* -errno for the request, or 0 */
	unsigned int nr_ext, nr_ops, inflight;
	struct spare_extent ext[MAX_EXT];
	struct rq_op ops[MAX_OPS];	/* a read re-driven per failed copy */
};

struct stats {
	u64 reads, writes, rdma_reads, rdma_writes, io_errors, copy_faults;
	u64 redrives;
};

struct dev {
	/* options */
	u64		size;
	u8		slab_shift;
	u32		copies;
	unsigned int	depth;
	char		source[64];	/* local address, or "" */
	unsigned int	timeout_ms;
	unsigned int	io_timeout_ms;	/* a donor's RDMA may stall this long */
	unsigned int	poll_us;	/* reap the CQs this long before sleeping */
	u8		uuid[16];
	u8		key[SPARE_AUTH_KEY_LEN];
	bool		has_key;

	struct donor	donors[SPARE_MAX_DONORS];
	u32		nr_donors;
	struct spare_grant *grants;	/* a broker's, sent to their donors */
	u32		nr_grants;
	struct ibv_pd	*pd;
	struct spare_slab_map map;

	struct ublk_ctrl ctrl;
	struct ublk_queue q;
	char		*bufs;
	struct ibv_mr	*bufs_mr;
	struct rq	*rqs;
	int		stop_fd;	/* eventfd: the queue thread ends */
	struct stats	st;
	unsigned int	rdma_inflight;	/* RDMA operations posted, not reaped */
	/* per donor: operations in flight, and when one last completed */
	unsigned int	dn_inflight[SPARE_MAX_DONORS];
	u64		dn_progress_ns[SPARE_MAX_DONORS];
	bool		timer_armed;
	struct __kernel_timespec timer_ts;

	pthread_mutex_t	 start_lock;	/* queue thread -> main: fetched */
	pthread_cond_t	 start_cond;
	int		 start_state;	/* 0 waiting, 1 fetched, -1 failed */
};

/* ---- the request path (queue thread) ---- */

static void commit(struct dev *d, unsigned int tag, int res)
{
	if (res < 0)
		d->st.io_errors++;
	if (ublk_queue_commit_fetch(&d->q, tag, res))
		log_err("queue full committing tag %u", tag);	/* cannot be */
}

static u64 wr_id(unsigned int tag, unsigned int op)
{
	return (u64)tag << 8 | op;
}

/* Settle every op and close the writes, then answer the kernel. */
static void rq_finish(struct dev *d, unsigned int tag)
{
	struct rq *r = &d->rqs[tag];
	bool landed[MAX_EXT] = { false };
	unsigned int i;

	for (i = 0; i < r->nr_ops; i++) {
		struct rq_op *op = &r->ops[i];
		struct spare_extent *e = &r->ext[op->ext];
		struct spare_slab *slab = &d->map.slabs[e->slab];

		if (op->settled)
			continue;
		spin_lock(&slab->lock);
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
		 * No copy took the write, or none could be read, and there is
		 * no backup yet: an error.
		 */
		if (!landed[i])
			r->err = -EIO;
	}
	commit(d, tag, r->err ? r->err : (int)r->len);
}

static void rq_post(struct dev *d, unsigned int tag, unsigned int ext,
		    u32 c, u32 gen)
{
	struct rq *r = &d->rqs[tag];
	struct spare_extent *e = &r->ext[ext];
	struct spare_copy *cp = &d->map.slabs[e->slab].copy[c];
	struct rq_op *op = &r->ops[r->nr_ops];
	char *local = d->bufs + (size_t)tag * MAX_IO +
		      (size_t)(((u64)e->slab << d->slab_shift) + e->offset - r->pos);

	op->ext = ext;
	op->copy = c;
	op->gen = gen;
	op->res = SPARE_OP_UNSENT;
	if (donor_post_rdma(&d->donors[cp->donor], r->write,
			    wr_id(tag, r->nr_ops), local, d->bufs_mr->lkey,
			    e->len, cp->addr + e->offset, cp->rkey)) {
		op->res = SPARE_OP_COPY_FAULT;	/* the QP is broken */
		d->st.copy_faults++;
		r->nr_ops++;
		return;
	}
	if (r->write)
		d->st.rdma_writes++;
	else
		d->st.rdma_reads++;
	if (d->dn_inflight[cp->donor]++ == 0)
		d->dn_progress_ns[cp->donor] = spare_now_ns();
	r->nr_ops++;
	r->inflight++;
	d->rdma_inflight++;
}

static bool rq_redrive_read(struct dev *d, unsigned int tag, unsigned int i);

/*
 * Read extent @ext from a copy current for all its pages (never a stale
 * read). Returns false if no copy can serve it.
 */
static bool rq_read_ext(struct dev *d, unsigned int tag, unsigned int ext)
{
	struct rq *r = &d->rqs[tag];
	struct spare_extent *e = &r->ext[ext];
	struct spare_slab *slab = &d->map.slabs[e->slab];
	u32 gen = 0;
	int pick;

	if (r->nr_ops == MAX_OPS)
		return false;
	spin_lock(&slab->lock);
	pick = spare_slab_pick_read(&d->map, slab, e->first_page, e->nr_pages,
				    tag % d->copies);
	if (pick >= 0)
		gen = slab->copy[pick].gen;
	spin_unlock(&slab->lock);
	if (pick < 0)
		return false;
	rq_post(d, tag, ext, (u32)pick, gen);
	if (r->ops[r->nr_ops - 1].res == SPARE_OP_COPY_FAULT)	/* not posted */
		return rq_redrive_read(d, tag, r->nr_ops - 1);
	return true;
}

static void rq_start(struct dev *d, unsigned int tag)
{
	const struct ublksrv_io_desc *iod = &d->q.iod[tag];
	struct rq *r = &d->rqs[tag];
	unsigned int op = ublksrv_get_op(iod), i;
	int n;

	memset(r, 0, sizeof(*r));
	switch (op) {
	case UBLK_IO_OP_READ:
	case UBLK_IO_OP_WRITE:
		break;
	case UBLK_IO_OP_FLUSH:	/* RDMA WRITE completions mean "placed" */
		commit(d, tag, 0);
		return;
	default:
		commit(d, tag, -EOPNOTSUPP);
		return;
	}
	r->write = op == UBLK_IO_OP_WRITE;
	r->pos = iod->start_sector << 9;
	r->len = iod->nr_sectors << 9;
	if (r->write)
		d->st.writes++;
	else
		d->st.reads++;
	n = r->len > MAX_IO ? -EINVAL :
	    spare_split(r->pos, r->len, d->size, d->slab_shift, r->ext, MAX_EXT);
	if (n < 0) {
		log_warn("request of %u bytes at %" PRIu64 " refused", r->len,
			 r->pos);
		commit(d, tag, -EIO);
		return;
	}
	r->nr_ext = (unsigned int)n;
	for (i = 0; i < r->nr_ext; i++) {
		struct spare_extent *e = &r->ext[i];
		struct spare_slab *slab = &d->map.slabs[e->slab];
		u32 gens[SPARE_MAX_SLOTS], mask = 0, c;

		spin_lock(&slab->lock);
		atomic64_add(e->nr_pages, &slab->accesses);
		if (r->write)
			mask = spare_slab_write_begin(&d->map, slab, e->first_page,
						      e->nr_pages, gens);
		spin_unlock(&slab->lock);

		if (!r->write) {
			if (!rq_read_ext(d, tag, i))
				r->err = -EIO;	/* no current copy */
			continue;
		}
		for (c = 0; c < d->copies; c++)
			if (mask & (1U << c))
				rq_post(d, tag, i, c, gens[c]);
	}
	if (!r->inflight)
		rq_finish(d, tag);
}

/*
 * A read failed on its copy: fail the copy now (the shared state machine
 * then keeps every later read away from it) and read the extent from
 * another current copy, so that the swapping process sees no error.
 */
static bool rq_redrive_read(struct dev *d, unsigned int tag, unsigned int i)
{
	struct rq *r = &d->rqs[tag];
	struct rq_op *op = &r->ops[i];
	struct spare_extent *e = &r->ext[op->ext];
	struct spare_slab *slab = &d->map.slabs[e->slab];

	spin_lock(&slab->lock);
	if (spare_slab_op_settle(&d->map, slab, op->copy, op->gen,
				 e->first_page, e->nr_pages, false, op->res))
		log_warn("slab %u copy %u failed (donor %s)", e->slab, op->copy,
			 d->donors[slab->copy[op->copy].donor].host);
	spin_unlock(&slab->lock);
	op->settled = true;
	if (!rq_read_ext(d, tag, op->ext))
		return false;
	d->st.redrives++;
	return true;
}

static void rdma_done(struct dev *d, u32 dn, const struct ibv_wc *wc)
{
	unsigned int tag = (unsigned int)(wc->wr_id >> 8);
	unsigned int i = (unsigned int)(wc->wr_id & 0xff);
	struct rq *r;

	if (tag >= d->depth || i >= MAX_OPS) {
		log_err("stray RDMA completion %" PRIx64, (uint64_t)wc->wr_id);
		return;
	}
	r = &d->rqs[tag];
	d->rdma_inflight--;
	d->dn_inflight[dn]--;
	d->dn_progress_ns[dn] = spare_now_ns();
	if (wc->status == IBV_WC_SUCCESS) {
		r->ops[i].res = SPARE_OP_DONE;
	} else {
		r->ops[i].res = SPARE_OP_COPY_FAULT;
		d->st.copy_faults++;
		/* The first error of a broken QP is worth a line; its flushes not. */
		spare_log(wc->status == IBV_WC_WR_FLUSH_ERR ? SPARE_LOG_DEBUG :
			  SPARE_LOG_WARN, "RDMA %s for tag %u: %s",
			  r->write ? "WRITE" : "READ", tag,
			  ibv_wc_status_str(wc->status));
		if (!r->write)
			rq_redrive_read(d, tag, i);
	}
	if (--r->inflight == 0)
		rq_finish(d, tag);
}

static int arm_poll(struct dev *d, int fd, u64 ud)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&d->q.ring);

	if (!sqe)
		return -EBUSY;
	io_uring_prep_poll_add(sqe, fd, POLLIN);
	io_uring_sqe_set_data64(sqe, ud);
	return 0;
}

/* Reap one donor's data CQ after its channel fired; re-arm. */
static void reap_cq(struct dev *d, u32 i)
{
	struct donor_link *l = &d->donors[i].data;
	struct ibv_wc wc[16];
	struct ibv_cq *cq;
	void *ctx;
	int n, k;

	if (ibv_get_cq_event(l->cc, &cq, &ctx) == 0) {
		ibv_ack_cq_events(cq, 1);
		if (ibv_req_notify_cq(l->cq, 0))
			log_err("donor %s: ibv_req_notify_cq failed", d->donors[i].host);
	}
	while ((n = ibv_poll_cq(l->cq, 16, wc)) > 0)
		for (k = 0; k < n; k++)
			rdma_done(d, i, &wc[k]);
	if (arm_poll(d, l->cc->fd, UD_POLL_CQ + i))
		log_err("donor %s: cannot re-arm its CQ poll", d->donors[i].host);
}

/*
 * --poll-us: while RDMA operations are in flight, reap the data CQs for up
 * to poll_us before sleeping, to save the wake-up of the completion
 * channel. Never spins when nothing is in flight (an idle device sleeps).
 */
static void poll_cqs(struct dev *d)
{
	uint64_t end = spare_now_ns() + (uint64_t)d->poll_us * 1000;
	struct ibv_wc wc[16];
	int n, k;
	u32 i;

	while (d->rdma_inflight && spare_now_ns() < end) {
		for (i = 0; i < d->nr_donors; i++) {
			n = ibv_poll_cq(d->donors[i].data.cq, 16, wc);
			for (k = 0; k < n; k++)
				rdma_done(d, i, &wc[k]);
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
static void arm_timer(struct dev *d)
{
	struct io_uring_sqe *sqe;

	if (d->timer_armed || !d->rdma_inflight)
		return;
	sqe = io_uring_get_sqe(&d->q.ring);
	if (!sqe)
		return;		/* the next request will try again */
	d->timer_ts.tv_sec = STALL_CHECK_MS / 1000;
	d->timer_ts.tv_nsec = (STALL_CHECK_MS % 1000) * 1000000LL;
	io_uring_prep_timeout(sqe, &d->timer_ts, 0, 0);
	io_uring_sqe_set_data64(sqe, UD_TIMER);
	d->timer_armed = true;
}

static void check_stalls(struct dev *d)
{
	u64 now = spare_now_ns();
	char why[96];
	u32 i;

	for (i = 0; i < d->nr_donors; i++) {
		if (!d->dn_inflight[i] ||
		    now - d->dn_progress_ns[i] < (u64)d->io_timeout_ms * 1000000)
			continue;
		snprintf(why, sizeof(why),
			 "%u RDMA operations without a completion for %u ms",
			 d->dn_inflight[i], d->io_timeout_ms);
		donor_fail(&d->donors[i], why);
	}
}

static void *queue_thread(void *arg)
{
	struct dev *d = arg;
	struct io_uring_cqe *cqe;
	unsigned int tag, head, seen, aborted = 0;
	bool stopping = false;
	u32 i;
	int ret = 0;

	for (tag = 0; tag < d->depth && !ret; tag++)
		ret = ublk_queue_fetch(&d->q, tag);
	for (i = 0; i < d->nr_donors && !ret; i++)
		ret = arm_poll(d, d->donors[i].data.cc->fd, UD_POLL_CQ + i);
	if (!ret)
		ret = arm_poll(d, d->stop_fd, UD_STOP);
	if (!ret)
		ret = io_uring_submit(&d->q.ring) < 0 ? -EIO : 0;
	pthread_mutex_lock(&d->start_lock);
	d->start_state = ret ? -1 : 1;
	pthread_cond_signal(&d->start_cond);
	pthread_mutex_unlock(&d->start_lock);
	if (ret)
		return NULL;

	while (!stopping && aborted < d->depth) {
		if (d->poll_us)
			poll_cqs(d);
		ret = io_uring_submit_and_wait(&d->q.ring, 1);
		if (ret < 0 && ret != -EINTR) {
			log_err("queue io_uring: %s", strerror(-ret));
			break;
		}
		seen = 0;
		io_uring_for_each_cqe(&d->q.ring, head, cqe) {
			u64 ud = io_uring_cqe_get_data64(cqe);

			seen++;
			if (ud == UD_STOP) {
				stopping = true;
			} else if (ud == UD_TIMER) {
				d->timer_armed = false;
				check_stalls(d);
			} else if (ud >= UD_POLL_CQ) {
				reap_cq(d, (u32)(ud - UD_POLL_CQ));
			} else if (cqe->res == UBLK_IO_RES_OK) {
				rq_start(d, (unsigned int)ud);
			} else {
				/* UBLK_IO_RES_ABORT: the device is going away */
				aborted++;
			}
		}
		io_uring_cq_advance(&d->q.ring, seen);
		arm_timer(d);
	}
	return NULL;
}

/* ---- set-up and the control loop (main thread) ---- */

static void on_evict(struct donor *dn, uint32_t slab_id, uint32_t reason,
		     uint32_t deadline_ms, void *arg)
{
	/* Not in this slice: moving the slab's pages elsewhere first. */
	log_warn("donor %s evicts slab %u (reason %u, deadline %u ms): "
		 "spare-ublk cannot move slabs yet; the copy fails at the deadline",
		 dn->host, slab_id, reason, deadline_ms);
}

static int map_slabs(struct dev *d)
{
	u32 s, c;

	for (s = 0; s < d->map.nr_slabs; s++) {
		struct spare_slab *slab = &d->map.slabs[s];

		for (c = 0; c < d->copies; c++) {
			struct spare_copy *cp = &slab->copy[c];
			struct donor *dn = &d->donors[cp->donor];
			int ok;

			spare_copy_set_state(&d->map, slab, c, SPARE_COPY_MAPPING);
			/* slab ids are per session: copy c of slab s */
			ok = donor_map(dn, s * SPARE_MAX_REPLICAS + c, &cp->addr,
				       &cp->rkey) == 0;
			spare_copy_set_state(&d->map, slab, c,
					     ok ? SPARE_COPY_MAPPED : SPARE_COPY_UNMAPPED);
			if (!ok)
				return -1;
		}
	}
	return 0;
}

static void unmap_slabs(struct dev *d)
{
	u32 s, c;

	for (s = 0; s < d->map.nr_slabs; s++)
		for (c = 0; c < d->copies; c++)
			if (d->map.slabs[s].copy[c].state == SPARE_COPY_MAPPED &&
			    d->donors[d->map.slabs[s].copy[c].donor].ctrl.up)
				donor_unmap(&d->donors[d->map.slabs[s].copy[c].donor],
					    s * SPARE_MAX_REPLICAS + c);
}

/*
 * Serve the control connections until SIGTERM/SIGINT, and watch every
 * donor's two rdma_cm channels: a link the peer ended fails the donor at
 * once (donor_fail()), before its RDMA would time out.
 */
#define PFD_PER_DONOR	3	/* control CQ, control CM, data CM */

static void control_loop(struct dev *d, int sfd)
{
	struct pollfd pfd[1 + SPARE_MAX_DONORS * PFD_PER_DONOR];
	bool lost[SPARE_MAX_DONORS] = { false };
	u32 i;

	for (;;) {
		pfd[0] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		for (i = 0; i < d->nr_donors; i++) {
			struct donor *dn = &d->donors[i];
			struct pollfd *p = &pfd[1 + i * PFD_PER_DONOR];

			p[0] = (struct pollfd){ .fd = lost[i] ? -1 : dn->ctrl.cc->fd,
						.events = POLLIN };
			p[1] = (struct pollfd){ .fd = lost[i] ? -1 : dn->ctrl.ev->fd,
						.events = POLLIN };
			p[2] = (struct pollfd){ .fd = lost[i] ? -1 : dn->data.ev->fd,
						.events = POLLIN };
		}
		if (poll(pfd, 1 + d->nr_donors * PFD_PER_DONOR, -1) < 0) {
			if (errno == EINTR)
				continue;
			log_err("poll: %s", strerror(errno));
			return;
		}
		if (pfd[0].revents) {
			struct signalfd_siginfo si;

			if (read(sfd, &si, sizeof(si)) == sizeof(si))
				log_info("signal %u: stopping", si.ssi_signo);
			return;
		}
		for (i = 0; i < d->nr_donors; i++) {
			struct donor *dn = &d->donors[i];
			struct pollfd *p = &pfd[1 + i * PFD_PER_DONOR];
			const char *why = NULL;

			if (p[0].revents &&
			    donor_poll_ctrl(dn, on_evict, d) < 0)
				why = "control connection lost";
			if (!why && p[1].revents &&
			    donor_cm_event(dn, &dn->ctrl) < 0)
				why = "control link down";
			if (!why && p[2].revents &&
			    donor_cm_event(dn, &dn->data) < 0)
				why = "data link down";
			if (!why)
				continue;
			lost[i] = true;
			dn->ctrl.up = false;
			donor_fail(dn, why);
		}
	}
}

/* The secret never reaches a log line: only the reason does. */
static const char *read_key(struct dev *d, const char *path)
{
	char buf[256];
	const char *why;
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return strerror(errno);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	why = spare_key_parse(buf, d->key);
	memset(buf, 0, sizeof(buf));
	if (why)
		return why;
	d->has_key = true;
	return NULL;
}

static const char *add_donor(struct dev *d, const char *arg)
{
	struct donor *dn;
	const char *colon = strrchr(arg, ':');
	uint64_t port = SPARE_DEFAULT_PORT;
	size_t hl = colon ? (size_t)(colon - arg) : strlen(arg);

	if (d->nr_donors == SPARE_MAX_DONORS)
		return "too many donors (at most " SPARE_STR(SPARE_MAX_DONORS) ")";
	if (!hl || hl >= sizeof(dn->host) ||
	    (colon && spare_parse_u64(colon + 1, 1, 65535, &port)))
		return "expected HOST[:PORT]";
	dn = &d->donors[d->nr_donors++];
	memcpy(dn->host, arg, hl);
	dn->host[hl] = 0;
	snprintf(dn->port, sizeof(dn->port), "%u", (unsigned int)port);
	return NULL;
}

#define UBLK_MAX_GRANTS	1024

static const char *add_grant(struct dev *d, const char *hex)
{
	struct spare_grant_info gi;
	struct spare_grant *g;

	if (d->nr_grants == UBLK_MAX_GRANTS)
		return "too many grants";
	if (!d->grants) {
		d->grants = calloc(UBLK_MAX_GRANTS, sizeof(*d->grants));
		if (!d->grants)
			return "out of memory";
	}
	g = &d->grants[d->nr_grants];
	if (strlen(hex) != SPARE_GRANT_HEX_LEN || spare_grant_from_hex(hex, g) ||
	    spare_grant_decode(g, &gi))
		return "not a grant (512 hex digits, as a broker issues it)";
	d->nr_grants++;
	return NULL;
}

/* Send @dn every grant for "host:port". 0, or -1. */
static int send_grants(struct dev *d, struct donor *dn)
{
	char addr[SPARE_GRANT_ADDR_LEN + 16];
	unsigned int sent = 0;

	snprintf(addr, sizeof(addr), "%s:%s", dn->host, dn->port);
	for (u32 i = 0; i < d->nr_grants; i++) {
		if (strncmp(d->grants[i].donor_addr, addr, sizeof(d->grants[i].donor_addr)))
			continue;
		if (donor_send_grant(dn, &d->grants[i]))
			return -1;
		sent++;
	}
	if (sent)
		log_info("donor %s: sent %u grant(s)", addr, sent);
	return 0;
}

/*
 * Settings: every key of the config file (/etc/spare/spare-ublk.conf, or
 * --config PATH, e.g. one per device for spare-ublk@.service) is a long
 * option too, and the command line wins; "donor" lines add up.
 */
#define UBLK_DEFAULT_CONF	"/etc/spare/spare-ublk.conf"

static const struct spare_setting ublk_settings[] = {
	{ "size", 's', "SIZE", "device size (e.g. 256M; required)", "" },
	{ "slab-size", 'S', "SIZE", "slab size, a power of two of 1M..16G", "1G" },
	{ "donor", 'd', "HOST[:PORT]", "a donor (spared); repeat for more, max " SPARE_STR(SPARE_MAX_DONORS) " (required)", "" },
	{ "copies", 'c', "N", "copies of every slab, 1.." SPARE_STR(SPARE_MAX_REPLICAS) ", at most the donors", "1" },
	{ "source", 'b', "ADDR", "local address to connect from", "" },
	{ "queue-depth", 'q', "N", "ublk queue depth, 1..1024", "64" },
	{ "key-file", 'k', "PATH", "this host's SPARE-1: secret (authenticate donors)", "" },
	{ "grant", 'g', "HEX", "a broker's grant (512 hex digits), sent to the donor it names; repeat for more", "" },
	{ "timeout", 't', "MS", "set-up timeout per step", "10000" },
	{ "io-timeout", 'T', "MS", "fail a donor whose RDMA makes no progress this long: its requests fail over to the other copies", "10000" },
	{ "poll-us", 'P', "US", "reap RDMA completions this long before sleeping, only while RDMA is in flight (0: never)", "0" },
	{ "verbose", 'v', NULL, "debug logging", "" },
};

static const char *ublk_set(const char *key, const char *value, void *ctx)
{
	struct dev *d = ctx;
	uint64_t v;
	bool on;
	int sh;

	if (!strcmp(key, "size")) {
		if (spare_parse_size(value, &d->size) || !d->size ||
		    d->size % SPARE_PAGE_SIZE)
			return "a size in 4 KiB units";
	} else if (!strcmp(key, "slab-size")) {
		if (spare_parse_size(value, &v))
			return "not a size";
		sh = spare_ilog2_exact(v);
		if (sh < SPARE_SLAB_SHIFT_MIN || sh > SPARE_SLAB_SHIFT_MAX)
			return "a power of two from 1M to 16G";
		d->slab_shift = (u8)sh;
	} else if (!strcmp(key, "donor")) {
		return add_donor(d, value);
	} else if (!strcmp(key, "grant")) {
		return value[0] ? add_grant(d, value) : NULL;
	} else if (!strcmp(key, "copies")) {
		if (spare_parse_u64(value, 1, SPARE_MAX_REPLICAS, &v))
			return "1.." SPARE_STR(SPARE_MAX_REPLICAS);
		d->copies = (u32)v;
	} else if (!strcmp(key, "source")) {
		return spare_conf_str(d->source, sizeof(d->source), value);
	} else if (!strcmp(key, "queue-depth")) {
		if (spare_parse_u64(value, 1, 1024, &v))
			return "1..1024";
		d->depth = (unsigned int)v;
	} else if (!strcmp(key, "key-file")) {
		return value[0] ? read_key(d, value) : NULL;
	} else if (!strcmp(key, "timeout")) {
		if (spare_parse_u64(value, 100, 600000, &v))
			return "100..600000 ms";
		d->timeout_ms = (unsigned int)v;
	} else if (!strcmp(key, "io-timeout")) {
		if (spare_parse_u64(value, 1000, 600000, &v))
			return "1000..600000 ms";
		d->io_timeout_ms = (unsigned int)v;
	} else if (!strcmp(key, "poll-us")) {
		if (spare_parse_u64(value, 0, 1000000, &v))
			return "0..1000000";
		d->poll_us = (unsigned int)v;
	} else if (!strcmp(key, "verbose")) {
		const char *why = spare_conf_bool(value, &on);

		if (why)
			return why;
		spare_log_set_level(on ? SPARE_LOG_DEBUG : SPARE_LOG_INFO);
	} else {
		return "unknown setting";
	}
	return NULL;
}

/* 0 configured, 1 --help printed, -1 refused (said why). */
static int parse_args(struct dev *d, int argc, char **argv)
{
	const struct spare_cli cli = {
		.usage = "Serve a spare remote-memory swap device through ublk (/dev/ublkbN).\n"
			 "Needs --size and at least one --donor.\n",
		.default_conf = UBLK_DEFAULT_CONF,
		.settings = ublk_settings,
		.nsettings = ARRAY_SIZE(ublk_settings),
		.set = ublk_set,
		.ctx = d,
	};
	int ret = spare_cli_configure(&cli, argc, argv);

	if (ret)
		return ret;
	if (!d->size || !d->nr_donors) {
		log_err("--size and at least one --donor are required (--help)");
		return -1;
	}
	if (d->copies > d->nr_donors) {
		log_err("--copies %u needs as many donors (%u given)", d->copies,
			d->nr_donors);
		return -1;
	}
	return 0;
}

static int setup_rdma(struct dev *d)
{
	size_t len = (size_t)d->depth * MAX_IO;
	u32 i;

	if (d->has_key && spare_auth_init())
		return -1;
	if (spare_random_bytes(d->uuid, sizeof(d->uuid)))
		return -1;
	if (spare_slab_map_init(&d->map, d->size, d->slab_shift, d->copies,
				d->nr_donors)) {
		log_err("cannot build a slab map for %" PRIu64 " bytes", d->size);
		return -1;
	}
	for (i = 0; i < d->nr_donors; i++) {
		struct donor *dn = &d->donors[i];

		dn->source = d->source[0] ? d->source : NULL;
		dn->timeout_ms = d->timeout_ms;
		dn->uuid = d->uuid;
		dn->key = d->has_key ? d->key : NULL;
		if (donor_connect(dn, &d->pd, d->slab_shift,
				  d->depth * MAX_OPS + 1) || send_grants(d, dn))
			return -1;
	}
	if (map_slabs(d))
		return -1;
	/* Every tag's ublk buffer, registered once for RDMA. */
	d->bufs = aligned_alloc(4096, len);
	if (!d->bufs)
		return -1;
	memset(d->bufs, 0, len);
	d->bufs_mr = ibv_reg_mr(d->pd, d->bufs, len, IBV_ACCESS_LOCAL_WRITE);
	if (!d->bufs_mr) {
		log_err("ibv_reg_mr of %zu bytes: %s", len, strerror(errno));
		return -1;
	}
	d->rqs = calloc(d->depth, sizeof(*d->rqs));
	return d->rqs ? 0 : -1;
}

static void print_stats(const struct dev *d)
{
	printf("spare-ublk: reads %" PRIu64 " writes %" PRIu64
	       " rdma_reads %" PRIu64 " rdma_writes %" PRIu64
	       " io_errors %" PRIu64 " copy_faults %" PRIu64
	       " redrives %" PRIu64 "\n",
	       d->st.reads, d->st.writes, d->st.rdma_reads, d->st.rdma_writes,
	       d->st.io_errors, d->st.copy_faults, d->st.redrives);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static struct dev dev;
	struct dev *d = &dev;
	char why[512];
	pthread_t qt;
	bool qt_up = false;
	sigset_t sigs;
	int sfd, ret, rc = 1;
	u32 i;

	spare_log_init("spare-ublk", SPARE_LOG_INFO);
	ret = parse_args(d, argc, argv);
	if (ret)
		return ret > 0 ? 0 : 2;
	if (ublk_check_kernel(&d->ctrl, why, sizeof(why))) {
		log_err("%s", why);
		ublk_ctrl_close(&d->ctrl);
		return 3;
	}
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	sfd = signalfd(-1, &sigs, SFD_CLOEXEC);
	d->stop_fd = eventfd(0, EFD_CLOEXEC);
	pthread_mutex_init(&d->start_lock, NULL);
	pthread_cond_init(&d->start_cond, NULL);
	if (sfd < 0 || d->stop_fd < 0 || setup_rdma(d))
		goto out;

	ret = ublk_add_dev(&d->ctrl, 1, d->depth, MAX_IO, 0);
	if (ret) {
		log_err("ublk ADD_DEV: %s", strerror(-ret));
		goto out;
	}
	ret = ublk_set_params(&d->ctrl, d->size, MAX_IO);
	if (ret) {
		log_err("ublk SET_PARAMS: %s", strerror(-ret));
		goto out;
	}
	if (ublk_queue_open(&d->q, d->ctrl.info.dev_id, 0, d->depth, d->bufs,
			    MAX_IO))
		goto out;
	if (pthread_create(&qt, NULL, queue_thread, d))
		goto out;
	qt_up = true;
	pthread_mutex_lock(&d->start_lock);
	while (!d->start_state)
		pthread_cond_wait(&d->start_cond, &d->start_lock);
	pthread_mutex_unlock(&d->start_lock);
	if (d->start_state < 0)
		goto out;
	ret = ublk_start_dev(&d->ctrl);
	if (ret) {
		log_err("ublk START_DEV: %s", strerror(-ret));
		goto out;
	}
	log_info("/dev/ublkb%u ready: %" PRIu64 " MiB, %u slabs of %u MiB, "
		 "%u cop%s on %u donor%s", d->ctrl.info.dev_id, d->size >> 20,
		 d->map.nr_slabs, 1U << (d->slab_shift - 20), d->copies,
		 d->copies == 1 ? "y" : "ies", d->nr_donors,
		 d->nr_donors == 1 ? "" : "s");
	printf("ublkb%u\n", d->ctrl.info.dev_id);
	fflush(stdout);
	spare_notify_ready("/dev/ublkb%u ready", d->ctrl.info.dev_id);

	control_loop(d, sfd);
	spare_notify_stopping();
	rc = 0;
out:
	if (d->ctrl.started) {
		ret = ublk_stop_dev(&d->ctrl);
		if (ret)
			log_warn("ublk STOP_DEV: %s", strerror(-ret));
	}
	if (qt_up) {
		uint64_t one = 1;

		if (write(d->stop_fd, &one, sizeof(one)) != sizeof(one))
			log_warn("stop: %s", strerror(errno));
		pthread_join(qt, NULL);
	}
	ublk_queue_close(&d->q);
	ublk_ctrl_close(&d->ctrl);
	unmap_slabs(d);
	print_stats(d);
	for (i = 0; i < d->nr_donors; i++)
		donor_close(&d->donors[i]);
	if (d->bufs_mr)
		ibv_dereg_mr(d->bufs_mr);
	if (d->pd)
		ibv_dealloc_pd(d->pd);
	spare_slab_map_free(&d->map);
	free(d->bufs);
	free(d->grants);
	free(d->rqs);
	memset(d->key, 0, sizeof(d->key));
	return rc;
}
