// SPDX-License-Identifier: GPL-2.0
/*
 * spare.ko RDMA transport, client side of the protocol in uapi/spare.h.
 *
 * Per donor: one CONTROL connection (SEND/RECV of 64-byte messages, every
 * one checked with spare_msg_check()) and one DATA connection per hardware
 * queue, connected lazily on first use, carrying only RDMA READ/WRITE.
 *
 * Errors follow one road, as in nvme-rdma: anything wrong with a donor (QP
 * error, disconnect, malformed message, send failure, timeout) calls
 * spare_donor_error(), which queues error_work. error_work marks every copy
 * on that donor FAILED (reads fall back to other copies or the backup), tears
 * all the donor's connections down (flushing in-flight operations, whose
 * requests are re-driven), emits a uevent and schedules a reconnect with
 * exponential back-off. Nothing else improvises recovery.
 */
#include <linux/ctype.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "spare.h"
#include "spare_move.h"

/* ---- state changes: the core's tables (spare_donor_life.h), published ---- */

static u64 life_now(void)
{
	return jiffies64_to_msecs(get_jiffies_64());
}

/*
 * The one change of a donor's state. The core decides (spare_life_next());
 * the state is published by compare-and-exchange, so that the error road
 * (spare_donor_error(), from softirq) stays lock-free and a racing change
 * (power-off) makes the step be taken again from the state it wrote. The
 * bookkeeping (spare_life_note(): back-off, session) is the winner's; its
 * RETRY and UP come under d->lock. Returns what the driver does now.
 */
static enum spare_life_act donor_set_state(struct spare_donor *d,
					   enum spare_life_ev ev, u64 now)
{
	int old = atomic_read(&d->state);
	struct spare_life_step st;

	do {
		st = spare_life_next(old, ev);
		if ((int)st.to == old)
			break;
	} while (!atomic_try_cmpxchg(&d->state, &old, st.to));
	spare_life_note(&d->life, old, st, now);
	return st.act;
}

/* The one change of a queue's state (spare_queue_next()); the old state. */
static int queue_set_state(struct spare_queue *q, enum spare_queue_ev ev)
{
	int old = atomic_read(&q->state);
	int to;

	do {
		to = spare_queue_next(old, ev);
		if (to == old)
			break;
	} while (!atomic_try_cmpxchg(&q->state, &old, to));
	return old;
}

/* ---- queues: rdma_cm connection set-up and teardown ---- */

static void ctrl_recv_done(struct ib_cq *cq, struct ib_wc *wc);
static void ctrl_send_done(struct ib_cq *cq, struct ib_wc *wc);

static void free_ctrl_bufs(struct spare_queue *q, struct ib_device *ibdev)
{
	int i;

	if (q->recv) {
		for (i = 0; i < SPARE_CTRL_RECVS; i++) {
			struct spare_ctrl_buf *b = &q->recv[i];

			if (b->dma)
				ib_dma_unmap_single(ibdev, b->dma, SPARE_MSG_SIZE,
						    DMA_FROM_DEVICE);
			kfree(b->msg);
		}
		kfree(q->recv);
		q->recv = NULL;
	}
	if (q->send) {
		for (i = 0; i < SPARE_CTRL_SENDS; i++) {
			struct spare_ctrl_buf *b = &q->send[i];

			if (b->dma)
				ib_dma_unmap_single(ibdev, b->dma, SPARE_MSG_SIZE,
						    DMA_TO_DEVICE);
			kfree(b->msg);
		}
		kfree(q->send);
		q->send = NULL;
	}
}

static int alloc_ctrl_bufs(struct spare_queue *q, struct ib_device *ibdev)
{
	int i;

	q->recv = kcalloc(SPARE_CTRL_RECVS, sizeof(*q->recv), GFP_KERNEL);
	q->send = kcalloc(SPARE_CTRL_SENDS, sizeof(*q->send), GFP_KERNEL);
	if (!q->recv || !q->send)
		goto nomem;
	for (i = 0; i < SPARE_CTRL_RECVS + SPARE_CTRL_SENDS; i++) {
		bool rx = i < SPARE_CTRL_RECVS;
		struct spare_ctrl_buf *b = rx ? &q->recv[i] :
					   &q->send[i - SPARE_CTRL_RECVS];
		enum dma_data_direction dir = rx ? DMA_FROM_DEVICE :
						   DMA_TO_DEVICE;
		u64 dma;

		b->q = q;
		b->index = rx ? i : i - SPARE_CTRL_RECVS;
		b->cqe.done = rx ? ctrl_recv_done : ctrl_send_done;
		b->msg = kzalloc(SPARE_MSG_SIZE, GFP_KERNEL);
		if (!b->msg)
			goto nomem;
		dma = ib_dma_map_single(ibdev, b->msg, SPARE_MSG_SIZE, dir);
		if (ib_dma_mapping_error(ibdev, dma))
			goto nomem;
		b->dma = dma;
	}
	q->send_free = (1UL << SPARE_CTRL_SENDS) - 1;
	return 0;
nomem:
	free_ctrl_bufs(q, ibdev);
	return -ENOMEM;
}

static int ctrl_post_recv(struct spare_ctrl_buf *b)
{
	struct spare_queue *q = b->q;
	struct ib_sge sge = {
		.addr	= b->dma,
		.length	= SPARE_MSG_SIZE,
		.lkey	= q->donor->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = {
		.wr_cqe	 = &b->cqe,
		.sg_list = &sge,
		.num_sge = 1,
	};

	ib_dma_sync_single_for_device(q->ibdev, b->dma, SPARE_MSG_SIZE,
				      DMA_FROM_DEVICE);
	return ib_post_recv(q->qp, &wr, NULL);
}

/*
 * Asynchronous QP events. Only the ones that say the QP went to the error
 * state (or can no longer work) are a donor error. The others are news:
 * IB_EVENT_COMM_EST (the first packet arrived before the CM's RTU; on
 * our side, the active one, the CM moves the QP to RTS itself),
 * IB_EVENT_SQ_DRAINED, IB_EVENT_PATH_MIG and IB_EVENT_QP_LAST_WQE_REACHED
 * (SRQ only; we have none).
 */
static bool qp_event_fatal(enum ib_event_type event)
{
	switch (event) {
	case IB_EVENT_QP_FATAL:
	case IB_EVENT_QP_REQ_ERR:
	case IB_EVENT_QP_ACCESS_ERR:
	case IB_EVENT_PATH_MIG_ERR:
	case IB_EVENT_DEVICE_FATAL:
		return true;
	default:
		return false;
	}
}

static void qp_event(struct ib_event *ev, void *ctx)
{
	struct spare_queue *q = ctx;

	if (!qp_event_fatal(ev->event)) {
		pr_debug("donor %s: QP event %s, not an error\n",
			 q->donor->name, ib_event_msg(ev->event));
		return;
	}
	pr_warn_ratelimited("donor %s: QP event %s\n", q->donor->name,
			    ib_event_msg(ev->event));
	spare_donor_error(q->donor, "QP error event");
}

/* Runs in the cm handler on ADDR_RESOLVED: PD, CQ, QP, receive buffers. */
static int queue_create_ib(struct spare_queue *q)
{
	struct spare_donor *d = q->donor;
	struct ib_device *ibdev = q->cm_id->device;
	bool data = q->kind == SPARE_CONN_DATA;
	struct ib_qp_init_attr attr = {};
	u32 rq_size = data ? 1 : SPARE_CTRL_RECVS;
	int ret, i;

	q->ibdev = ibdev;
	if (data) {
		if (!d->pd || d->ibdev != ibdev) {
			pr_warn("donor %s: data connection resolved to another RDMA device than the control connection\n",
				d->name);
			return -EXDEV;
		}
		if (ibdev->attrs.max_send_sge < SPARE_MAX_SEGS + 1 ||
		    ibdev->attrs.max_sge_rd < SPARE_MAX_SEGS + 1) {
			pr_warn("donor %s: device %s supports %d send / %d read SGEs, spare needs %d\n",
				d->name, dev_name(&ibdev->dev),
				ibdev->attrs.max_send_sge,
				ibdev->attrs.max_sge_rd, SPARE_MAX_SEGS + 1);
			return -EOPNOTSUPP;
		}
		/* every request's ops for this donor, plus one resync op */
		q->sq_size = SPARE_QUEUE_DEPTH * SPARE_MAX_EXTENTS + 1;
	} else {
		d->pd = ib_alloc_pd(ibdev, 0);
		if (IS_ERR(d->pd)) {
			ret = PTR_ERR(d->pd);
			d->pd = NULL;
			return ret;
		}
		d->ibdev = ibdev;
		q->sq_size = SPARE_CTRL_SENDS;
	}

	q->cq = ib_alloc_cq(ibdev, q, q->sq_size + rq_size + 2,
			    data ? q->hctx % ibdev->num_comp_vectors : 0,
			    IB_POLL_SOFTIRQ);
	if (IS_ERR(q->cq)) {
		ret = PTR_ERR(q->cq);
		q->cq = NULL;
		return ret;
	}

	attr.event_handler = qp_event;
	attr.qp_context = q;
	attr.send_cq = q->cq;
	attr.recv_cq = q->cq;
	attr.sq_sig_type = IB_SIGNAL_REQ_WR;
	attr.qp_type = IB_QPT_RC;
	attr.cap.max_send_wr = q->sq_size + 1;	/* +1 for ib_drain_qp() */
	attr.cap.max_recv_wr = rq_size + 1;
	attr.cap.max_send_sge = data ? SPARE_MAX_SEGS + 1 : 1;
	attr.cap.max_recv_sge = 1;
	ret = rdma_create_qp(q->cm_id, d->pd, &attr);
	if (ret)
		return ret;
	q->qp = q->cm_id->qp;

	if (data)
		return 0;
	ret = alloc_ctrl_bufs(q, ibdev);
	if (ret)
		return ret;
	for (i = 0; i < SPARE_CTRL_RECVS; i++) {
		ret = ctrl_post_recv(&q->recv[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The local ACK timeout of every queue pair, as IBTA's exponent of 4.096 us:
 * the default 16 is 268 ms per try, so a donor that acknowledges nothing is
 * given up after the first try and 6 retries, about 1.9 s, which is what
 * makes a cut link count as a lost donor within seconds. A fabric (or a
 * host) slow enough to take longer than one try to acknowledge gets
 * spurious retransmissions instead; 6.1's soft-RoCE then sometimes fails a
 * multi-packet RDMA WRITE with "remote invalid request" (the rig's debug
 * kernel under emulation, Documentation/testing.md), so the rig loads
 * spare.ko there with a longer timeout. Read when a connection is made.
 */
static unsigned int spare_ack_timeout = SPARE_ACK_TIMEOUT;

static int ack_timeout_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 12, 22);
}

static const struct kernel_param_ops ack_timeout_ops = {
	.set = ack_timeout_set,
	.get = param_get_uint,
};
module_param_cb(ack_timeout, &ack_timeout_ops, &spare_ack_timeout, 0644);
MODULE_PARM_DESC(ack_timeout,
		 "RDMA local ACK timeout exponent, 12-22 (4.096 us << N per try, 7 tries; default 16: 268 ms)");

/*
 * How long RC takes to give up on a peer that acknowledges nothing, at the
 * ACK timeout now set: 7 tries (retry_count 6 below) of 4.096 us << N.
 * A wait on one RDMA operation must last longer than this, or a donor
 * that is slow but alive is dropped before the transport has decided
 * (resync, spare_resync.c).
 */
unsigned int spare_rdma_giveup_ms(void)
{
	u64 try_ns = 4096ULL << READ_ONCE(spare_ack_timeout);

	return (unsigned int)div_u64(7 * try_ns, NSEC_PER_MSEC) + 1;
}

static int queue_rdma_connect(struct spare_queue *q)
{
	struct spare_donor *d = q->donor;
	struct ib_device *ibdev = q->cm_id->device;
	bool data = q->kind == SPARE_CONN_DATA;
	struct spare_conn_priv priv;
	struct rdma_conn_param param = {
		.private_data		= &priv,
		.private_data_len	= sizeof(priv),
		.flow_control		= 1,
		/* 7 would mean "retry forever" to rxe: a cut link would hang. */
		.retry_count		= 6,
		.rnr_retry_count	= 7,	/* retry forever on RNR */
		.initiator_depth	= data ? min_t(int, 16,
					  ibdev->attrs.max_qp_init_rd_atom) : 0,
		.responder_resources	= 0,
	};

	spare_conn_priv_init(&priv, q->kind, d->dev->uuid,
			     data ? d->session_cookie : 0,
			     data ? SPARE_QUEUE_DEPTH : SPARE_CTRL_RECVS);
	return rdma_connect_locked(q->cm_id, &param);
}

static void cm_finish(struct spare_queue *q, int err)
{
	q->cm_error = err;
	complete(&q->cm_done);
}

static int spare_cm_event(struct rdma_cm_id *id, struct rdma_cm_event *ev);

/*
 * The rdma_cm calls this from its own work items, outside the memalloc_noio
 * scope of the work that asked for the connection, yet the connection may
 * be what a swap-out is waiting for: every allocation made here (PD, CQ,
 * QP, control buffers, the CM's own) runs under a noio scope of its own.
 */
static int spare_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	unsigned int noio = memalloc_noio_save();
	int ret = spare_cm_event(id, ev);

	memalloc_noio_restore(noio);
	return ret;
}

static int spare_cm_event(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct spare_queue *q = id->context;
	struct spare_donor *d = q->donor;
	int ret;

	pr_debug("donor %s: %s queue %d: %s (status %d)\n", d->name,
		 q->kind == SPARE_CONN_DATA ? "data" : "control", q->hctx,
		 rdma_event_msg(ev->event), ev->status);
	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
		ret = queue_create_ib(q);
		if (!ret)
			ret = rdma_resolve_route(id, SPARE_CM_TIMEOUT_MS);
		if (ret)
			cm_finish(q, ret);
		break;
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		ret = queue_rdma_connect(q);
		if (ret)
			cm_finish(q, ret);
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		cm_finish(q, 0);
		break;
	case RDMA_CM_EVENT_REJECTED:
		pr_warn("donor %s: %s connection rejected: %s\n", d->name,
			q->kind == SPARE_CONN_DATA ? "data" : "control",
			rdma_reject_msg(id, ev->status));
		cm_finish(q, -ECONNREFUSED);
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
		pr_warn("donor %s: %s (status %d)\n", d->name,
			rdma_event_msg(ev->event), ev->status);
		cm_finish(q, -EHOSTUNREACH);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_ADDR_CHANGE:
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		if (atomic_read(&q->state) == SPARE_Q_CONNECTING)
			cm_finish(q, -ECONNRESET);
		else if (atomic_read(&q->state) == SPARE_Q_LIVE)
			spare_donor_error(d, rdma_event_msg(ev->event));
		break;
	default:
		break;
	}
	return 0;
}

/*
 * Tear one queue down. Safe on a queue in any state; caller holds d->lock.
 *
 * nvme-rdma's order (nvme_rdma_stop_queue(), then nvme_rdma_free_queue()),
 * and what each step waits for:
 *  - rdma_disconnect() (a LIVE queue) moves the QP to the error state, so
 *    that posted work requests flush, and tells the donor; no wait;
 *  - ib_drain_qp() waits until the completion of every work request
 *    posted before it has run its handler (the CQ is polled in order);
 *  - rdma_destroy_id() waits for a cm handler that is running, and no
 *    event comes after it; the id goes before the QP, as in nvme-rdma
 *    since its fix for a CM event that found the QP freed. A queue that
 *    never went LIVE may have its handler building the QP and CQ right
 *    now (ADDR_RESOLVED): its id goes first, before anything the handler
 *    makes is looked at, and the drain follows (nvme-rdma's connect error
 *    path, which has no receives posted to drain);
 *  - ib_destroy_qp(): no completion can be made after it;
 *  - ib_free_cq() waits for a poll in progress (softirq) to finish;
 *  - then the buffers the completions used are unmapped and freed.
 * The completion handlers never use the cm_id: the device is q->ibdev.
 */
static void queue_destroy(struct spare_queue *q)
{
	bool drained = false;
	int old;

	/* After this no ctrl_send() or receive repost touches the queue. */
	spin_lock_bh(&q->send_lock);
	old = queue_set_state(q, SPARE_Q_EV_CLOSE);
	q->send_free = 0;
	spin_unlock_bh(&q->send_lock);
	wake_up_all(&q->send_wait);
	if (q->cm_id && q->qp && old == SPARE_Q_LIVE) {
		rdma_disconnect(q->cm_id);
		ib_drain_qp(q->qp);
		drained = true;
	}
	if (q->cm_id) {
		rdma_destroy_id(q->cm_id);
		q->cm_id = NULL;
	}
	if (q->qp) {
		if (!drained)
			ib_drain_qp(q->qp);
		ib_destroy_qp(q->qp);
		q->qp = NULL;
	}
	if (q->cq) {
		ib_free_cq(q->cq);
		q->cq = NULL;
	}
	if (q->ibdev)
		free_ctrl_bufs(q, q->ibdev);
	q->ibdev = NULL;
	queue_set_state(q, SPARE_Q_EV_RESET);
}

/*
 * Wait up to @ms for @done, but give up at once when the donor is being
 * deleted, so that powering a device off never waits out a connection
 * attempt to a host that does not answer. Returns > 0 when @done
 * completed, 0 on timeout, -ESHUTDOWN when deleted.
 */
static long donor_wait(struct spare_donor *d, struct completion *done,
		       unsigned int ms)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(ms);

	for (;;) {
		if (wait_for_completion_timeout(done, HZ / 10))
			return 1;
		if (atomic_read(&d->state) == SPARE_DONOR_DELETING)
			return -ESHUTDOWN;
		if (time_after(jiffies, deadline))
			return 0;
	}
}

/* Connect @q and wait for the outcome; caller holds d->lock. */
static int queue_connect(struct spare_queue *q)
{
	struct spare_donor *d = q->donor;
	long left;
	int ret;

	init_completion(&q->cm_done);
	q->cm_error = -ETIMEDOUT;
	queue_set_state(q, SPARE_Q_EV_CONNECT);
	q->cm_id = rdma_create_id(&init_net, spare_cm_handler, q, RDMA_PS_TCP,
				  IB_QPT_RC);
	if (IS_ERR(q->cm_id)) {
		ret = PTR_ERR(q->cm_id);
		q->cm_id = NULL;
		return ret;
	}
	ret = rdma_set_ack_timeout(q->cm_id, READ_ONCE(spare_ack_timeout));
	/*
	 * The CM's default RNR NAK delay is 655 ms: a burst of EVICTs or
	 * replies beyond our posted receives would stall the queue that long.
	 */
	if (!ret)
		ret = rdma_set_min_rnr_timer(q->cm_id, IB_RNR_TIMER_000_64);
	if (!ret)
		ret = rdma_resolve_addr(q->cm_id,
			d->dev->cfg.source.ss_family == AF_INET ?
			(struct sockaddr *)&d->dev->cfg.source : NULL,
			(struct sockaddr *)&d->addr,
					SPARE_CM_TIMEOUT_MS);
	if (ret)
		goto fail;
	left = donor_wait(d, &q->cm_done, 3 * SPARE_CM_TIMEOUT_MS);
	ret = left > 0 ? q->cm_error : left ?: -ETIMEDOUT;
	if (ret)
		goto fail;
	queue_set_state(q, SPARE_Q_EV_UP);	/* ordered: try_cmpxchg */
	return 0;
fail:
	queue_destroy(q);
	return ret;
}

/* ---- control messages ---- */

/*
 * Send one control message from process context. send_lock (taken with
 * bottom halves off: the send completion runs in softirq) covers the slot
 * and the post, and queue_destroy() moves the queue out of LIVE under it, so
 * no send touches the buffers of a queue being torn down.
 */
static int ctrl_send(struct spare_donor *d, struct spare_msg *m)
{
	struct spare_queue *q = &d->ctrl;
	struct spare_ctrl_buf *b;
	struct ib_sge sge;
	struct ib_send_wr wr = {};
	bool live = false;
	int slot = -1, ret;

	wait_event_timeout(q->send_wait, ({
		spin_lock_bh(&q->send_lock);
		live = atomic_read(&q->state) == SPARE_Q_LIVE;
		if (live && q->send_free) {
			slot = __ffs(q->send_free);
			q->send_free &= ~(1UL << slot);
		}
		spin_unlock_bh(&q->send_lock);
		slot >= 0 || !live;
	}), msecs_to_jiffies(SPARE_CM_TIMEOUT_MS));
	if (slot < 0)
		return live ? -ETIMEDOUT : -ENOTCONN;

	spin_lock_bh(&q->send_lock);
	if (atomic_read(&q->state) != SPARE_Q_LIVE) {
		spin_unlock_bh(&q->send_lock);
		return -ENOTCONN;
	}
	b = &q->send[slot];
	memcpy(b->msg, m, SPARE_MSG_SIZE);
	ib_dma_sync_single_for_device(q->ibdev, b->dma, SPARE_MSG_SIZE,
				      DMA_TO_DEVICE);
	sge.addr = b->dma;
	sge.length = SPARE_MSG_SIZE;
	sge.lkey = d->pd->local_dma_lkey;
	wr.wr_cqe = &b->cqe;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	wr.opcode = IB_WR_SEND;
	wr.send_flags = IB_SEND_SIGNALED;
	ret = ib_post_send(q->qp, &wr, NULL);
	if (ret)
		q->send_free |= 1UL << slot;
	spin_unlock_bh(&q->send_lock);
	return ret;
}

static void ctrl_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct spare_ctrl_buf *b = container_of(wc->wr_cqe,
						struct spare_ctrl_buf, cqe);
	struct spare_queue *q = b->q;

	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR) {
		pr_warn_ratelimited("donor %s: control send failed: %s\n",
				    q->donor->name, ib_wc_status_msg(wc->status));
		spare_donor_error(q->donor, "control send failed");
	}
	/* Softirq context (IB_POLL_SOFTIRQ): bottom halves are already off. */
	spin_lock(&q->send_lock);
	if (atomic_read(&q->state) == SPARE_Q_LIVE)
		q->send_free |= 1UL << b->index;
	spin_unlock(&q->send_lock);
	wake_up(&q->send_wait);
}

static void msg_prepare(struct spare_donor *d, struct spare_msg *m,
			enum spare_msg_type type)
{
	spare_msg_init(m, type, atomic_inc_return(&d->seq));
}

static bool donor_live(struct spare_donor *d)
{
	return atomic_read(&d->state) == SPARE_DONOR_LIVE;
}

/*
 * The slot of slab @s whose copy lives on donor @d, or -1. Without the slab
 * lock: a slot's donor changes only when a copy moves (spare_slab_move_*()),
 * and callers recheck the slot's state under the lock.
 */
static int donor_copy(const struct spare_donor *d, u32 s)
{
	const struct spare_slab_map *map = &d->dev->map;

	return spare_slab_donor_slot(map, &map->slabs[s], d->idx);
}

/*
 * HELLO_REPLY and the AUTH_* messages belong to the handshake that
 * donor_hello() runs in connect work: queue them for it, one completion
 * count each. Outside the handshake they are protocol violations.
 */
static int handle_handshake_msg(struct spare_donor *d, const struct spare_msg *m)
{
	unsigned long flags;
	int ret = 0;

	if (atomic_read(&d->state) != SPARE_DONOR_CONNECTING)
		return -EPROTO;
	spin_lock_irqsave(&d->hs_lock, flags);
	if (d->hs_count - d->hs_taken >= ARRAY_SIZE(d->hs_ring))
		ret = -EPROTO;		/* more than a handshake's worth */
	else
		d->hs_ring[d->hs_count++ % ARRAY_SIZE(d->hs_ring)] = *m;
	spin_unlock_irqrestore(&d->hs_lock, flags);
	if (!ret)
		complete(&d->hello_done);
	return ret;
}

static int handle_mapped(struct spare_donor *d, const struct spare_msg *m)
{
	struct spare_slab_map *map = &d->dev->map;
	u32 s = le32_to_cpu(m->mapped.slab_id);
	u32 st = le32_to_cpu(m->mapped.status);
	u64 addr = le64_to_cpu(m->mapped.addr);
	struct spare_slab *slab;
	unsigned long flags;
	int c, ret = 0;

	if (s >= map->nr_slabs)
		return -EPROTO;
	c = donor_copy(d, s);
	if (c < 0)
		return -EPROTO;
	if (st == SPARE_ST_OK && addr + (1ULL << map->slab_shift) < addr)
		return -EPROTO;		/* slab would wrap the address space */
	slab = &map->slabs[s];
	spin_lock_irqsave(&slab->lock, flags);
	if (!donor_live(d)) {
		/*
		 * The session this answers is being torn down: error_work
		 * fails the copy (it takes this lock after the donor left
		 * LIVE) and the next session maps it again. Never keep a dead
		 * session's rkey; dropped, not a protocol violation.
		 */
		spin_unlock_irqrestore(&slab->lock, flags);
		return 0;
	}
	if (slab->copy[c].state != SPARE_COPY_MAPPING ||
	    slab->copy[c].donor != d->idx) {
		ret = -EPROTO;		/* we did not ask */
	} else if (st == SPARE_ST_OK) {
		/* Useful progress: a misbehaving donor keeps backing off. */
		spare_life_mapped(&d->life);
		slab->copy[c].addr = addr;
		slab->copy[c].rkey = le32_to_cpu(m->mapped.rkey);
		spare_copy_set_state(map, slab, c, SPARE_COPY_MAPPED);
	} else {
		spare_copy_set_state(map, slab, c, SPARE_COPY_UNMAPPED);
	}
	spin_unlock_irqrestore(&slab->lock, flags);
	if (ret)
		return ret;
	if (st == SPARE_ST_OK)
		spare_resync_kick(d->dev);
	if (st != SPARE_ST_OK) {
		atomic64_inc(&d->stats.maps_refused);
		d->remap_after = jiffies + msecs_to_jiffies(SPARE_REMAP_DELAY_MS);
		pr_info_ratelimited("donor %s: MAP of slab %u refused (%s)\n",
				    d->name, s, spare_status_name(st));
	}
	if (atomic_dec_if_positive(&d->maps_inflight) < 0)
		return -EPROTO;
	wake_up(&d->map_wait);
	return 0;
}

static int handle_slab_request(struct spare_donor *d, u32 s,
			       unsigned long *pending)
{
	if (s >= d->dev->map.nr_slabs || donor_copy(d, s) < 0)
		return -EPROTO;
	if (!donor_live(d))
		return 0;	/* torn down soon; spare_donors_stop() cancels */
	spin_lock(&d->pending_lock);
	set_bit(s, pending);
	spin_unlock(&d->pending_lock);
	queue_work(d->dev->wq, &d->evict_work);
	return 0;
}

static int handle_msg(struct spare_donor *d, const struct spare_msg *m,
		      unsigned int type)
{
	switch (type) {
	case SPARE_MSG_HELLO_REPLY:
	case SPARE_MSG_AUTH_CHALLENGE:
	case SPARE_MSG_AUTH_RESPONSE:
		return handle_handshake_msg(d, m);
	case SPARE_MSG_MAPPED:
		return handle_mapped(d, m);
	case SPARE_MSG_EVICT: {
		u32 s = le32_to_cpu(m->evict.slab_id);

		if (s < d->dev->map.nr_slabs && !test_bit(s, d->evict_pending)) {
			d->evict_at[s] = jiffies;
			WRITE_ONCE(d->evict_deadline_ms,
				   le32_to_cpu(m->evict.deadline_ms));
		}
		return handle_slab_request(d, s, d->evict_pending);
	}
	case SPARE_MSG_ACTIVITY_QUERY:
		return handle_slab_request(d,
				le32_to_cpu(m->activity_query.slab_id),
				d->activity_pending);
	case SPARE_MSG_HEARTBEAT:
		return 0;
	default:
		return -EPROTO;	/* a client-to-donor message */
	}
}

static void ctrl_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct spare_ctrl_buf *b = container_of(wc->wr_cqe,
						struct spare_ctrl_buf, cqe);
	struct spare_queue *q = b->q;
	struct spare_donor *d = q->donor;
	unsigned int type = 0;
	int err;

	if (wc->status != IB_WC_SUCCESS) {
		if (wc->status != IB_WC_WR_FLUSH_ERR) {
			pr_warn_ratelimited("donor %s: control receive failed: %s\n",
					    d->name, ib_wc_status_msg(wc->status));
			spare_donor_error(d, "control receive failed");
		}
		return;
	}
	ib_dma_sync_single_for_cpu(q->ibdev, b->dma, SPARE_MSG_SIZE,
				   DMA_FROM_DEVICE);
	err = spare_msg_check(b->msg, wc->byte_len, &type);
	if (err) {
		atomic64_inc(&d->stats.bad_msgs);
		pr_warn_ratelimited("donor %s: malformed message (%s, %u bytes); closing this connection\n",
				    d->name, spare_proto_strerror(err),
				    wc->byte_len);
		spare_donor_error(d, "malformed message");
		return;
	}
	if (handle_msg(d, b->msg, type)) {
		atomic64_inc(&d->stats.bad_msgs);
		pr_warn_ratelimited("donor %s: unexpected %s (slab %u); closing this connection\n",
				    d->name, spare_msg_type_name(type),
				    le32_to_cpu(b->msg->unmap.slab_id));
		spare_donor_error(d, "protocol violation");
		return;
	}
	/* Under send_lock: never repost behind queue_destroy()'s drain. */
	spin_lock(&q->send_lock);
	if (atomic_read(&q->state) == SPARE_Q_LIVE ||
	    atomic_read(&q->state) == SPARE_Q_CONNECTING)
		err = ctrl_post_recv(b);
	spin_unlock(&q->send_lock);
	if (err)
		spare_donor_error(d, "cannot repost a receive");
}

/* ---- data operations ---- */

static void op_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct spare_op *op = container_of(wc->wr_cqe, struct spare_op, cqe);

	if (wc->status != IB_WC_SUCCESS) {
		op->failed = true;
		op->copy_fault = true;
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			pr_warn_ratelimited("donor %s: RDMA %s of slab %u failed: %s\n",
					    op->q->donor->name,
					    op->cmd->is_write ? "WRITE" : "READ",
					    op->cmd->ext[op->ext].slab,
					    ib_wc_status_msg(wc->status));
		spare_donor_error(op->q->donor, "RDMA operation failed");
	}
	WRITE_ONCE(op->done, true);
	spare_cmd_put(op->cmd);
}

void spare_op_post(struct spare_op *op, bool write)
{
	struct ib_rdma_wr wr = {};
	int ret;

	op->cqe.done = op_done;
	wr.wr.wr_cqe = &op->cqe;
	wr.wr.sg_list = op->sge;
	wr.wr.num_sge = op->nsge;
	wr.wr.opcode = write ? IB_WR_RDMA_WRITE : IB_WR_RDMA_READ;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	wr.remote_addr = op->raddr;
	wr.rkey = op->rkey;
	ret = ib_post_send(op->q->qp, &wr.wr, NULL);
	if (ret) {
		pr_warn_ratelimited("donor %s: posting RDMA %s failed: %d\n",
				    op->q->donor->name, write ? "WRITE" : "READ",
				    ret);
		op->failed = true;
		op->copy_fault = true;
		op->done = true;
		spare_donor_error(op->q->donor, "post failed");
		spare_cmd_put(op->cmd);
	}
}

void spare_op_unmap(struct spare_op *op, bool write)
{
	unsigned int i;

	for (i = 0; i < op->nsge; i++)
		ib_dma_unmap_page(op->ibdev, op->sge[i].addr, op->sge[i].length,
				  write ? DMA_TO_DEVICE : DMA_FROM_DEVICE);
	op->nsge = 0;
}

struct spare_queue *spare_data_queue(struct spare_donor *d, int hctx)
{
	struct spare_queue *q;

	if (atomic_read_acquire(&d->state) != SPARE_DONOR_LIVE ||
	    hctx >= d->nr_data)
		return NULL;
	q = &d->data[hctx];
	switch (atomic_read_acquire(&q->state)) {
	case SPARE_Q_LIVE:
		return q;
	case SPARE_Q_NEW:
		if (queue_set_state(q, SPARE_Q_EV_CONNECT) == SPARE_Q_NEW)
			queue_work(d->dev->wq, &q->connect_work);
		return ERR_PTR(-EAGAIN);
	case SPARE_Q_CONNECTING:
		return ERR_PTR(-EAGAIN);
	default:
		return NULL;
	}
}

static void data_connect_work(struct work_struct *work)
{
	struct spare_queue *q = container_of(work, struct spare_queue,
					     connect_work);
	struct spare_donor *d = q->donor;
	unsigned int noio = memalloc_noio_save();
	int ret = 0;

	mutex_lock(&d->lock);
	if (atomic_read(&d->state) != SPARE_DONOR_LIVE) {
		queue_set_state(q, SPARE_Q_EV_RESET);
	} else {
		ret = queue_connect(q);
		if (ret)
			pr_warn("donor %s: data connection for queue %d failed: %d\n",
				d->name, q->hctx, ret);
		else
			pr_debug("donor %s: data connection for queue %d up\n",
				 d->name, q->hctx);
	}
	mutex_unlock(&d->lock);
	memalloc_noio_restore(noio);
	if (ret)
		spare_donor_error(d, "data connection failed");
	spare_kick_queues(d->dev);
}

/* ---- donor life cycle ---- */

void spare_donor_error(struct spare_donor *d, const char *why)
{
	enum spare_life_act act = donor_set_state(d, SPARE_LIFE_EV_LOST,
						  life_now());

	if (act == SPARE_LIFE_ACT_TEARDOWN) {
		d->error_reason = why;
		queue_work(d->dev->wq, &d->error_work);
		wake_up_all(&d->map_wait);	/* map work stops for this session */
	} else if (act == SPARE_LIFE_ACT_ABORT &&
		   !completion_done(&d->hello_done)) {
		d->hello_status = -EPROTO;
		complete(&d->hello_done);
	}
}

/* Move this donor's copies in state @from to @to, in every slab. */
static u32 donor_copies_move(struct spare_donor *d, u32 from_mask,
			     enum spare_copy_state to)
{
	struct spare_slab_map *map = &d->dev->map;
	u32 s, moved = 0;

	for (s = 0; s < map->nr_slabs; s++) {
		struct spare_slab *slab = &map->slabs[s];
		unsigned long flags;

		if (donor_copy(d, s) < 0)
			continue;
		spin_lock_irqsave(&slab->lock, flags);
		moved += spare_slab_copy_sweep(map, slab, d->idx, from_mask, to);
		spin_unlock_irqrestore(&slab->lock, flags);
	}
	return moved;
}

/*
 * After a live donor left LIVE: wait until no ->queue_rq() still holds one
 * of its data queues. spare_data_queue() gives a queue only to a live
 * donor, so once every dispatch that began before the state change has
 * returned, none can post to a queue that donor_teardown() destroys; what
 * was posted is flushed by the drain and re-driven. This is a grace period
 * of the queue's dispatch (RCU, or SRCU while the queue is
 * BLK_MQ_F_BLOCKING), not a quiesce: dispatch goes on for the other
 * donors, and it is taken without d->lock. A donor that never became LIVE
 * since its last teardown (a failed connect) needs none.
 */
static void donor_wait_dispatch(struct spare_donor *d)
{
	if (d->dev->disk)
		spare_wait_dispatch_done(d->dev->disk);
}

/* Under d->lock; the donor is not LIVE and donor_wait_dispatch() ran. */
static void donor_teardown(struct spare_donor *d)
{
	u32 i;

	for (i = 0; i < d->nr_data; i++)
		queue_destroy(&d->data[i]);
	queue_destroy(&d->ctrl);
	if (d->pd) {
		ib_dealloc_pd(d->pd);
		d->pd = NULL;
	}
	d->ibdev = NULL;
	atomic_set(&d->maps_inflight, 0);
	wake_up_all(&d->map_wait);
	wake_up_all(&d->ctrl.send_wait);
}

/*
 * @ev (TORN_DOWN, CONNECT_FAILED) takes the donor OFFLINE and the core's
 * back-off says when to connect again. Never out of DELETING:
 * spare_donors_stop() owns the donor then. Under d->lock.
 */
static void schedule_reconnect(struct spare_donor *d, enum spare_life_ev ev)
{
	u64 now = life_now();

	if (donor_set_state(d, ev, now) != SPARE_LIFE_ACT_RETRY)
		return;
	queue_delayed_work(d->dev->wq, &d->connect_work,
			   msecs_to_jiffies(spare_life_wait(&d->life, now)));
}

#define COPY_MASK(s)	(1U << SPARE_COPY_##s)

static void donor_error_work(struct work_struct *work)
{
	struct spare_donor *d = container_of(work, struct spare_donor,
					     error_work);
	unsigned int noio = memalloc_noio_save();
	u32 lost;

	/* LIVE -> ERROR happened before this work was queued */
	if (atomic_read(&d->state) == SPARE_DONOR_ERROR)
		donor_wait_dispatch(d);
	mutex_lock(&d->lock);
	if (atomic_read(&d->state) != SPARE_DONOR_ERROR)
		goto out;
	lost = donor_copies_move(d, COPY_MASK(MAPPED) | COPY_MASK(MAPPING) |
				 COPY_MASK(EVICTING), SPARE_COPY_FAILED);
	atomic64_inc(&d->stats.losses);
	pr_warn("donor %s: %s; %u slab copies dropped, falling back to other copies%s; reconnecting in %u ms\n",
		d->name, d->error_reason ?: "error", lost,
		d->dev->has_backup ? " and backup" : "", d->life.backoff_ms);
	cancel_delayed_work(&d->heartbeat_work);
	donor_teardown(d);
	/*
	 * Fence the map work: teardown woke it from any wait, it sees the
	 * donor is not live and returns. After this no map work of the dead
	 * session moves a copy to MAPPING or counts a MAP in flight, so the
	 * copies below are all there is to put back, and the count starts
	 * from zero for the next session. A map work queued later (by a
	 * heartbeat still running) starts by checking liveness.
	 */
	cancel_work_sync(&d->map_work);
	atomic_set(&d->maps_inflight, 0);
	donor_copies_move(d, COPY_MASK(FAILED), SPARE_COPY_UNMAPPED);
	spare_uevent(d->dev, "donor_lost", d, -1);
	schedule_reconnect(d, SPARE_LIFE_EV_TORN_DOWN);
out:
	mutex_unlock(&d->lock);
	memalloc_noio_restore(noio);
	spare_kick_queues(d->dev);
}

/* The next handshake message from the donor, in order. */
static int hs_next(struct spare_donor *d, struct spare_msg *m)
{
	unsigned long flags;
	long left;
	int ret = 0;

	left = donor_wait(d, &d->hello_done, SPARE_CM_TIMEOUT_MS);
	if (left < 0)
		return left;
	if (!left) {
		pr_warn("donor %s: no answer to the handshake\n", d->name);
		return -ETIMEDOUT;
	}
	if (d->hello_status < 0)
		return d->hello_status;
	spin_lock_irqsave(&d->hs_lock, flags);
	if (d->hs_taken == d->hs_count)
		ret = -EPROTO;
	else
		*m = d->hs_ring[d->hs_taken++ % ARRAY_SIZE(d->hs_ring)];
	spin_unlock_irqrestore(&d->hs_lock, flags);
	return ret;
}

static unsigned int hs_type(const struct spare_msg *m)
{
	return le16_to_cpu(m->hdr.type);
}

/* The donor's name for the log: its bytes up to a NUL, non-printables as '?'. */
static const char *printable_id(const u8 *donor_id, char *out)
{
	int i;

	for (i = 0; i < SPARE_AUTH_ID_LEN && donor_id[i]; i++)
		out[i] = isprint(donor_id[i]) ? donor_id[i] : '?';
	out[i] = '\0';
	return out;
}

/*
 * Answer the donor's AUTH_CHALLENGE with our proof, then check its proof.
 * On return @m holds the message that follows (HELLO_REPLY if all went
 * well, or the donor's refusal).
 */
static int donor_authenticate(struct spare_donor *d, struct spare_msg *m,
			      const u8 *nonce_c)
{
	u8 donor_id[SPARE_AUTH_ID_LEN], nonce_d[SPARE_AUTH_NONCE_LEN];
	char id[SPARE_AUTH_ID_LEN + 1];
	struct spare_msg out;
	int ret;

	memcpy(donor_id, m->auth_challenge.donor_id, sizeof(donor_id));
	memcpy(nonce_d, m->auth_challenge.nonce, sizeof(nonce_d));
	if (!memcmp(nonce_d, nonce_c, sizeof(nonce_d))) {
		pr_warn("donor %s: challenge echoes our own nonce (reflection); refusing this donor\n",
			d->name);
		return -EACCES;
	}
	msg_prepare(d, &out, SPARE_MSG_AUTH_RESPONSE);
	ret = spare_auth_mac(d->dev, out.auth_response.mac,
			     SPARE_AUTH_DIR_CLIENT, donor_id, nonce_c, nonce_d);
	if (!ret)
		ret = ctrl_send(d, &out);
	memzero_explicit(&out, sizeof(out));
	if (!ret)
		ret = hs_next(d, m);
	if (ret || hs_type(m) != SPARE_MSG_AUTH_RESPONSE)
		return ret;	/* the caller reads the refusal */
	if (!spare_auth_donor_ok(d->dev, m->auth_response.mac, donor_id,
				 nonce_c, nonce_d)) {
		pr_warn("donor %s: could not prove it knows this device's key; refusing this donor\n",
			d->name);
		return -EACCES;
	}
	pr_info("donor %s: authenticated (donor id %s)\n", d->name,
		printable_id(donor_id, id));
	ret = hs_next(d, m);
	return ret ? ret : 1;	/* 1: the donor proved itself */
}

static int donor_hello(struct spare_donor *d)
{
	u8 nonce_c[SPARE_AUTH_NONCE_LEN] = { 0 };
	bool auth = d->dev->auth_tfm;
	bool proven = false;
	struct spare_msg m;
	unsigned long flags;
	u32 st;
	int ret;

	reinit_completion(&d->hello_done);
	spin_lock_irqsave(&d->hs_lock, flags);
	d->hs_count = d->hs_taken = 0;
	d->hello_status = 0;
	spin_unlock_irqrestore(&d->hs_lock, flags);
	msg_prepare(d, &m, SPARE_MSG_HELLO);
	memcpy(m.hello.client_uuid, d->dev->uuid, sizeof(m.hello.client_uuid));
	m.hello.slab_shift = d->dev->map.slab_shift;
	if (auth) {
		do
			get_random_bytes(nonce_c, sizeof(nonce_c));
		while (!memchr_inv(nonce_c, 0, sizeof(nonce_c)));
		m.hello.flags = SPARE_HELLO_F_AUTH;
		memcpy(m.hello.nonce, nonce_c, sizeof(nonce_c));
	}
	ret = ctrl_send(d, &m);
	if (!ret)
		ret = hs_next(d, &m);
	if (!ret && hs_type(&m) == SPARE_MSG_AUTH_CHALLENGE && auth) {
		ret = donor_authenticate(d, &m, nonce_c);
		proven = ret == 1;
		if (proven)
			ret = 0;
	}
	if (ret)
		return ret;
	if (hs_type(&m) != SPARE_MSG_HELLO_REPLY) {
		pr_warn("donor %s: %s out of place in the handshake; closing\n",
			d->name, spare_msg_type_name(hs_type(&m)));
		return -EPROTO;
	}
	d->session_cookie = le64_to_cpu(m.hello_reply.session_cookie);
	d->slab_shift = m.hello_reply.slab_shift;
	st = le32_to_cpu(m.hello_reply.status);
	if (st == SPARE_ST_AUTH_REQUIRED) {
		pr_warn("donor %s: refused: it requires authentication and this device has no key (see sparectl gen-key)\n",
			d->name);
		return -EACCES;
	}
	if (st == SPARE_ST_AUTH_FAILED) {
		pr_warn("donor %s: refused our key (wrong key, or this host is not in its host-keys)\n",
			d->name);
		return -EACCES;
	}
	if (st != SPARE_ST_OK) {
		pr_warn("donor %s: HELLO refused (status %u)\n", d->name, st);
		return -ECONNREFUSED;
	}
	if (auth && !proven) {
		pr_warn("donor %s: did not authenticate (open donor?); refusing it because this device has a key\n",
			d->name);
		return -EACCES;
	}
	if (d->slab_shift != d->dev->map.slab_shift) {
		pr_warn("donor %s: serves slabs of 2^%u bytes, device uses 2^%u\n",
			d->name, d->slab_shift, d->dev->map.slab_shift);
		return -EINVAL;
	}
	return 0;
}

static void donor_connect_work(struct work_struct *work)
{
	struct spare_donor *d = container_of(to_delayed_work(work),
					     struct spare_donor, connect_work);
	unsigned int noio = memalloc_noio_save();
	int ret;

	mutex_lock(&d->lock);
	if (donor_set_state(d, SPARE_LIFE_EV_CONNECT, life_now()) !=
	    SPARE_LIFE_ACT_CONNECT)
		goto out;
	ret = queue_connect(&d->ctrl);
	if (!ret)
		ret = donor_hello(d);
	if (ret) {
		pr_warn_ratelimited("donor %s: connect failed: %d; retrying in %u ms\n",
				    d->name, ret, d->life.backoff_ms);
		donor_teardown(d);
		schedule_reconnect(d, SPARE_LIFE_EV_CONNECT_FAILED);
		goto out;
	}
	d->remap_after = jiffies;
	/* A new session: the donor has none of our grants yet. */
	d->grants_sent = 0;
	d->grant_token = 0;
	if (donor_set_state(d, SPARE_LIFE_EV_UP, life_now()) !=
	    SPARE_LIFE_ACT_UP) {
		donor_teardown(d);	/* being deleted (ACT_CLOSE) */
		goto out;
	}
	atomic64_inc(&d->stats.connects);
	atomic_inc(&d->dev->donor_ups);
	pr_info("donor %s: connected (session %016llx)\n", d->name,
		d->session_cookie);
	spare_uevent(d->dev, "donor_up", d, -1);
	queue_work(d->dev->wq, &d->map_work);
	queue_delayed_work(d->dev->wq, &d->heartbeat_work,
			   msecs_to_jiffies(SPARE_HEARTBEAT_MS));
out:
	mutex_unlock(&d->lock);
	memalloc_noio_restore(noio);
}

/*
 * Send the donor the grants written for it since the last call in this
 * session (spare_grants.c). MAPs then name, of all sent in this session,
 * the one that expires last: the donor refuses a MAP that names an expired
 * grant, though the client's other grants may still hold (a short grant
 * written after a long one). 0, or -ENOTCONN.
 */
static int donor_send_grants(struct spare_donor *d)
{
	const struct sockaddr_in *addr = (const struct sockaddr_in *)&d->addr;
	struct spare_grant *g;
	struct spare_msg m;
	unsigned int sent = 0, p;
	u64 token;
	int ret;

	g = kmalloc(sizeof(*g), GFP_NOIO);
	if (!g)
		return 0;	/* MAPs go without; the donor may refuse them */
	for (;;) {
		ret = spare_grant_take(d->dev, &d->grant_gen, d->grants_sent,
				       addr, g, &token);
		if (ret == -ESTALE) {
			d->grants_sent = 0;
			d->grant_token = 0;
			continue;
		}
		if (ret < 0)
			break;
		d->grants_sent++;
		if (!ret)
			continue;
		for (p = 0; p < SPARE_GRANT_PARTS; p++) {
			spare_grant_part_init(&m, g, p, atomic_inc_return(&d->seq));
			if (ctrl_send(d, &m)) {
				spare_donor_error(d, "cannot send GRANT");
				ret = -ENOTCONN;
				goto out;
			}
		}
		if (!d->grant_token ||
		    le64_to_cpu(g->expiry) >= d->grant_expiry) {
			d->grant_token = token;
			d->grant_expiry = le64_to_cpu(g->expiry);
		}
		sent++;
	}
	ret = 0;
	if (sent)
		pr_info("donor %s: sent %u grant(s); MAPs name %016llx\n",
			d->name, sent, d->grant_token);
out:
	memzero_explicit(&m, sizeof(m));
	kfree_sensitive(g);
	return ret;
}

void spare_donors_grants_added(struct spare_dev *dev)
{
	u32 i;

	for (i = 0; dev->donors && i < dev->cfg.nr_donors; i++)
		if (donor_live(&dev->donors[i]))
			queue_work(dev->wq, &dev->donors[i].map_work);
}

/*
 * Ask the donor for every slab copy it should hold and does not. One run
 * serves one session: it re-checks that the donor is live after every wait,
 * and moves a copy to MAPPING only while the donor is live, under the
 * slab's lock, so that error_work's sweep (which takes that lock after the
 * donor left LIVE) either finds the copy MAPPING and fails it or the run
 * sees the donor is not live and stops. error_work then waits for the run
 * to end (cancel_work_sync()) before it puts the copies back to UNMAPPED.
 */
static void donor_map_work(struct work_struct *work)
{
	struct spare_donor *d = container_of(work, struct spare_donor,
					     map_work);
	struct spare_slab_map *map = &d->dev->map;
	unsigned int noio = memalloc_noio_save();
	struct spare_msg m;
	u32 s;

	if (donor_live(d) && donor_send_grants(d)) {
		memalloc_noio_restore(noio);
		return;
	}
	for (s = 0; s < map->nr_slabs && donor_live(d); s++) {
		struct spare_slab *slab = &map->slabs[s];
		unsigned long flags;
		int c = donor_copy(d, s), ret;

		if (c < 0)
			continue;
		wait_event_timeout(d->map_wait,
			atomic_read(&d->maps_inflight) < SPARE_MAPS_INFLIGHT ||
			!donor_live(d), msecs_to_jiffies(SPARE_CM_TIMEOUT_MS));
		if (!donor_live(d))
			break;		/* the error road ran while we slept */
		if (atomic_read(&d->maps_inflight) >= SPARE_MAPS_INFLIGHT) {
			spare_donor_error(d, "MAPPED replies stalled");
			break;
		}
		spin_lock_irqsave(&slab->lock, flags);
		if (!donor_live(d))
			ret = -ENOTCONN;
		else if (slab->copy[c].state == SPARE_COPY_UNMAPPED)
			ret = spare_copy_set_state(map, slab, c,
						   SPARE_COPY_MAPPING);
		else
			ret = -EALREADY;
		spin_unlock_irqrestore(&slab->lock, flags);
		if (ret == -ENOTCONN)
			break;
		if (ret)
			continue;
		msg_prepare(d, &m, SPARE_MSG_MAP);
		m.map.slab_id = cpu_to_le32(s);
		m.map.grant = cpu_to_le64(d->grant_token);
		atomic_inc(&d->maps_inflight);
		if (ctrl_send(d, &m)) {
			spare_donor_error(d, "cannot send MAP");
			break;
		}
	}
	memalloc_noio_restore(noio);
}

static u32 copy_inflight(struct spare_slab *slab, int c)
{
	unsigned long flags;
	u32 n;

	spin_lock_irqsave(&slab->lock, flags);
	n = slab->copy[c].inflight;
	spin_unlock_irqrestore(&slab->lock, flags);
	return n;
}

static void send_unmap(struct spare_donor *d, u32 s)
{
	struct spare_msg m;

	msg_prepare(d, &m, SPARE_MSG_UNMAP);
	m.unmap.slab_id = cpu_to_le32(s);
	if (ctrl_send(d, &m))
		spare_donor_error(d, "cannot send UNMAP");
}

/*
 * The donor the move of slab @s away from donor @from asks next
 * (spare_move_pick()): not one in @tried, live, without a copy of the
 * slab; one whose grants have room first, then one in a failure domain
 * holding no other copy. *@roomy: whether it has room (else a grant is
 * asked for).
 */
static struct spare_donor *move_target(struct spare_dev *dev, u32 s, u32 from,
				       u32 tried, bool *roomy)
{
	struct spare_slab_map *map = &dev->map;
	struct spare_move_cand c[SPARE_MAX_DONORS];
	/* pairs with the store-release of each count when it grows */
	u32 nr_domain = smp_load_acquire(&dev->cfg.nr_domains);
	const u16 *domain = nr_domain ? dev->cfg.domain : NULL;
	u32 i, n = min_t(u32, smp_load_acquire(&dev->cfg.nr_donors),
			 SPARE_MAX_DONORS);
	int best;

	for (i = 0; i < n; i++) {
		struct spare_donor *t = &dev->donors[i];

		spare_move_cand_init(&c[i], map, s, domain, nr_domain, i, from,
				     !(tried & BIT(i)) && donor_live(t));
		if (!c[i].ok)
			continue;
		c[i].room = spare_grants_cover(dev,
				(const struct sockaddr_in *)&t->addr);
		if (c[i].room != SPARE_ROOM_OPEN)
			c[i].room -= c[i].load;
	}
	best = spare_move_pick(c, n, roomy);
	return best < 0 ? NULL : &dev->donors[best];
}

/*
 * Moving an evicted copy (Documentation/kmod.md, "Moving an evicted copy"):
 * the machine is kmod/core/spare_move.c, shared with spare-ublk; here is
 * its mechanism. Copy @from of a slab, which donor @d asked back, gets a
 * new copy on another donor in the slab's spare slot before it is given
 * back. All the moves of a batch of EVICTs run side by side in
 * donor_evict_work(), each looked at every 5 ms, within three quarters of
 * its EVICT's grace period; a donor that refuses the MAP (answered in
 * handle_mapped(), seen by the next look) is replaced by the next one.
 */
struct spare_kmove {
	struct spare_move m;
	struct spare_donor *t;		/* the target's donor, for the log */
	bool asked;			/* the slab_moving uevent went out */
};

static u64 move_now(void)
{
	return jiffies64_to_msecs(get_jiffies_64());
}

static void move_in(struct spare_dev *dev, struct spare_move_in *in)
{
	*in = (struct spare_move_in){
		.now = move_now(),
		/* Powering off stops resync: then no move can complete. */
		.stop = READ_ONCE(dev->resync_stop),
		/*
		 * New grants, or a donor came up (one appended for a move
		 * connects after its grant was written): ask them again.
		 */
		.news = spare_grants_seq(dev) + atomic_read(&dev->donor_ups),
		.drain_ms = SPARE_CM_TIMEOUT_MS,
	};
}

/*
 * Ask the next donor to take the move. A target whose grants are used up
 * is still asked (the kernel's count of them may lag the donor's), but the
 * slab_moving uevent tells userspace (sparectl device monitor) to get a
 * grant for one, once per move: asking again on every change of the
 * grants would feed back into itself (each answer is a change), as it did
 * on the debug kernel with a target lost. With no donor left, the move
 * waits for a grant if the device has any (a broker's donors lend only
 * against them), else the copy goes the old way.
 */
static enum spare_move_act move_seek(struct spare_donor *d,
				     struct spare_kmove *km,
				     const struct spare_move_in *in)
{
	struct spare_dev *dev = d->dev;
	struct spare_slab_map *map = &dev->map;
	struct spare_move *mv = &km->m;
	struct spare_slab *slab = &map->slabs[mv->slab];
	enum spare_move_act act;
	unsigned long flags;
	bool roomy;
	int ret;

	do {
		km->t = move_target(dev, mv->slab, d->idx, mv->tried, &roomy);
		if (!roomy && !km->asked && READ_ONCE(dev->nr_grants)) {
			km->asked = true;
			pr_info("donor %s: slab %u: no other donor's grants have room for it; asking for a grant\n",
				d->name, mv->slab);
			spare_uevent(dev, "slab_moving", d, mv->slab);
		}
		spin_lock_irqsave(&slab->lock, flags);
		if (!km->t) {
			act = spare_move_no_target(mv, map, slab,
						   READ_ONCE(dev->nr_grants),
						   false, in);
		} else {
			ret = spare_move_target(mv, map, slab, km->t->idx);
			act = ret == -EEXIST ? SPARE_MOVE_ACT_SEEK :
			      !ret ? SPARE_MOVE_ACT_NONE :
			      spare_move_evict(mv, map, slab,
					       SPARE_MOVE_WHY_NO_SLOT, in);
		}
		spin_unlock_irqrestore(&slab->lock, flags);
	} while (act == SPARE_MOVE_ACT_SEEK);
	if (mv->state == SPARE_MOVE_FILL)	/* its map work sends the MAP */
		queue_work(dev->wq, &km->t->map_work);
	return act;
}

/* A copy given back the old way is drained: UNMAP it. */
static void evict_done(struct spare_donor *d, u32 s)
{
	struct spare_dev *dev = d->dev;

	atomic64_inc(&d->stats.evictions);
	d->remap_after = jiffies + msecs_to_jiffies(SPARE_REMAP_DELAY_MS);
	pr_info("donor %s: slab %u evicted; using other copies%s\n", d->name,
		s, dev->has_backup ? " and backup" : "");
	send_unmap(d, s);
	spare_uevent(dev, "slab_evicted", d, s);
}

static void move_done(struct spare_donor *d, struct spare_kmove *km)
{
	struct spare_move *mv = &km->m;

	if (mv->shorted) {
		atomic64_inc(&d->stats.moves_short);
		pr_warn("donor %s: slab %u moved to donor %s only in part: %s\n",
			d->name, mv->slab, km->t->name,
			spare_move_why_name(mv->why));
	}
	atomic64_inc(&d->stats.evictions);
	atomic64_inc(&d->stats.moves);
	pr_info("donor %s: slab %u evicted; moved to donor %s in %llu ms\n",
		d->name, mv->slab, km->t->name, move_now() - mv->start);
	send_unmap(d, mv->slab);
	spare_uevent(d->dev, "slab_evicted", d, mv->slab);
}

/*
 * One look at a move (spare_move_step()), and what it says to do. Returns
 * true when it is over: the old copy is gone (moved, or the old way), or
 * it failed meanwhile and its donor's failure road has it.
 */
static bool move_step(struct spare_donor *d, struct spare_kmove *km)
{
	struct spare_dev *dev = d->dev;
	struct spare_slab *slab = &dev->map.slabs[km->m.slab];
	struct spare_move_in in;
	enum spare_move_act act;
	unsigned long flags;

	move_in(dev, &in);
	spin_lock_irqsave(&slab->lock, flags);
	act = spare_move_step(&km->m, &dev->map, slab, &in);
	spin_unlock_irqrestore(&slab->lock, flags);
	if (act == SPARE_MOVE_ACT_SEEK)
		act = move_seek(d, km, &in);
	switch (act) {
	case SPARE_MOVE_ACT_KICK:
		spare_resync_kick_now(dev);
		break;
	case SPARE_MOVE_ACT_EVICTING:
		pr_info("donor %s: slab %u cannot move (%s): given back\n",
			d->name, km->m.slab, spare_move_why_name(km->m.why));
		break;
	case SPARE_MOVE_ACT_MOVED:
		move_done(d, km);
		break;
	case SPARE_MOVE_ACT_EVICTED:
		evict_done(d, km->m.slab);
		break;
	case SPARE_MOVE_ACT_GONE:
		pr_info_ratelimited("donor %s: slab %u: its copy failed while it moved; the failure road has it\n",
				    d->name, km->m.slab);
		break;
	default:	/* nothing now; spare.ko holds no slot while it waits */
		break;
	}
	return spare_move_over(&km->m);
}

static bool move_start(struct spare_donor *d, u32 s, struct spare_kmove *km)
{
	struct spare_dev *dev = d->dev;
	u32 grace = READ_ONCE(d->evict_deadline_ms);
	int from = donor_copy(d, s);
	struct spare_move_in in;
	u64 due;

	if (from < 0 || !dev->resync_pages[0] || !grace)
		return false;
	move_in(dev, &in);
	/* due: three quarters of the grace period after the EVICT came */
	due = in.now - jiffies_to_msecs(jiffies - d->evict_at[s]) +
	      grace / 4 * 3;
	spare_move_init(&km->m, s, d->idx, from, in.now, due, in.news);
	km->t = NULL;
	km->asked = false;
	return true;
}

static void evict_slab(struct spare_donor *d, u32 s)
{
	struct spare_dev *dev = d->dev;
	struct spare_slab_map *map = &dev->map;
	struct spare_slab *slab = &map->slabs[s];
	int c = donor_copy(d, s);
	enum spare_copy_state state;
	unsigned long flags;
	int ret;

	if (c < 0) {
		pr_info_ratelimited("donor %s: EVICT of slab %u ignored: the donor holds no copy of it now\n",
				    d->name, s);
		return;
	}
	spin_lock_irqsave(&slab->lock, flags);
	ret = spare_copy_set_state(map, slab, c, SPARE_COPY_EVICTING);
	state = slab->copy[c].state;
	spin_unlock_irqrestore(&slab->lock, flags);
	if (ret) {
		pr_info_ratelimited("donor %s: EVICT of slab %u in state %s ignored\n",
				    d->name, s, spare_copy_state_name(state));
		return;
	}
	/* Reads may still use the copy; let them finish, then give it back. */
	wait_event_timeout(dev->inflight_wait, !copy_inflight(slab, c),
			   msecs_to_jiffies(SPARE_CM_TIMEOUT_MS));
	spin_lock_irqsave(&slab->lock, flags);
	spare_copy_set_state(map, slab, c, SPARE_COPY_UNMAPPED);
	spin_unlock_irqrestore(&slab->lock, flags);
	evict_done(d, s);
}


static bool take_pending(struct spare_donor *d, unsigned long *bits, u32 *s)
{
	u32 n = d->dev->map.nr_slabs;
	bool found;

	spin_lock_bh(&d->pending_lock);
	*s = find_first_bit(bits, n);
	found = *s < n;
	if (found)
		clear_bit(*s, bits);
	spin_unlock_bh(&d->pending_lock);
	return found;
}

static void answer_activity(struct spare_donor *d)
{
	struct spare_msg m;
	u32 s;

	while (donor_live(d) && take_pending(d, d->activity_pending, &s)) {
		msg_prepare(d, &m, SPARE_MSG_ACTIVITY_REPLY);
		m.activity_reply.slab_id = cpu_to_le32(s);
		m.activity_reply.accesses = cpu_to_le64(
			atomic64_xchg(&d->dev->map.slabs[s].accesses, 0));
		if (ctrl_send(d, &m))
			spare_donor_error(d, "cannot send ACTIVITY_REPLY");
	}
}

/*
 * EVICT and ACTIVITY_QUERY need sends, so they are answered here. EVICTs
 * that come while moves run join them; activity is answered meanwhile.
 */
static void donor_evict_work(struct work_struct *work)
{
	struct spare_donor *d = container_of(work, struct spare_donor,
					     evict_work);
	unsigned int noio = memalloc_noio_save();
	u32 s, i, n = 0;

	for (;;) {
		while (donor_live(d) && take_pending(d, d->evict_pending, &s)) {
			for (i = 0; i < n && d->moves[i].m.slab != s; i++)
				;
			if (i < n)
				pr_info_ratelimited("donor %s: EVICT of slab %u again while it moves; ignored\n",
						    d->name, s);
			else if (move_start(d, s, &d->moves[n]))
				n++;
			else
				evict_slab(d, s);
		}
		answer_activity(d);
		for (i = 0; i < n; )
			if (move_step(d, &d->moves[i]))
				d->moves[i] = d->moves[--n];
			else
				i++;
		if (!n)
			break;
		msleep(5);
	}
	memalloc_noio_restore(noio);
}

static void donor_heartbeat_work(struct work_struct *work)
{
	struct spare_donor *d = container_of(to_delayed_work(work),
					     struct spare_donor, heartbeat_work);
	struct spare_msg m;

	if (!donor_live(d))
		return;
	msg_prepare(d, &m, SPARE_MSG_HEARTBEAT);
	m.heartbeat.now_ns = cpu_to_le64(ktime_get_ns());
	if (ctrl_send(d, &m)) {
		spare_donor_error(d, "heartbeat not sent");
		return;
	}
	if (time_after_eq(jiffies, d->remap_after))
		queue_work(d->dev->wq, &d->map_work);
	queue_delayed_work(d->dev->wq, &d->heartbeat_work,
			   msecs_to_jiffies(SPARE_HEARTBEAT_MS));
}

static void queue_init(struct spare_queue *q, struct spare_donor *d,
		       enum spare_conn_kind kind, int hctx)
{
	q->donor = d;
	q->kind = kind;
	q->hctx = hctx;
	atomic_set(&q->state, SPARE_Q_NEW);
	init_completion(&q->cm_done);
	spin_lock_init(&q->send_lock);
	init_waitqueue_head(&q->send_wait);
	if (kind == SPARE_CONN_DATA)
		INIT_WORK(&q->connect_work, data_connect_work);
}

static void donor_free(struct spare_donor *d)
{
	kfree(d->data);
	bitmap_free(d->evict_pending);
	kvfree(d->evict_at);
	kvfree(d->moves);
	bitmap_free(d->activity_pending);
}

static int donor_init(struct spare_dev *dev, struct spare_donor *d, u32 idx)
{
	u32 i;

	d->dev = dev;
	d->idx = idx;
	memcpy(&d->addr, &dev->cfg.donor_addr[idx], sizeof(d->addr));
	strscpy(d->name, dev->cfg.donor_name[idx], sizeof(d->name));
	atomic_set(&d->state, SPARE_DONOR_OFFLINE);
	mutex_init(&d->lock);
	atomic_set(&d->seq, 0);
	atomic_set(&d->maps_inflight, 0);
	init_waitqueue_head(&d->map_wait);
	init_completion(&d->hello_done);
	spin_lock_init(&d->hs_lock);
	spin_lock_init(&d->pending_lock);
	spare_life_init(&d->life, life_now());
	INIT_DELAYED_WORK(&d->connect_work, donor_connect_work);
	INIT_WORK(&d->error_work, donor_error_work);
	INIT_WORK(&d->map_work, donor_map_work);
	INIT_WORK(&d->evict_work, donor_evict_work);
	INIT_DELAYED_WORK(&d->heartbeat_work, donor_heartbeat_work);
	queue_init(&d->ctrl, d, SPARE_CONN_CONTROL, -1);
	d->nr_data = dev->tag_set.nr_hw_queues;
	d->data = kcalloc(d->nr_data, sizeof(*d->data), GFP_KERNEL);
	d->evict_pending = bitmap_zalloc(dev->map.nr_slabs, GFP_KERNEL);
	d->evict_at = kvcalloc(dev->map.nr_slabs, sizeof(*d->evict_at),
			       GFP_KERNEL);
	d->moves = kvcalloc(dev->map.nr_slabs, sizeof(*d->moves), GFP_KERNEL);
	d->activity_pending = bitmap_zalloc(dev->map.nr_slabs, GFP_KERNEL);
	if (!d->data || !d->evict_pending || !d->evict_at || !d->moves ||
	    !d->activity_pending) {
		donor_free(d);
		return -ENOMEM;
	}
	for (i = 0; i < d->nr_data; i++)
		queue_init(&d->data[i], d, SPARE_CONN_DATA, i);
	return 0;
}

/* Every slab has a mapped copy (or there is a backup to fall back to). */
static bool all_slabs_mapped(struct spare_dev *dev, bool every_copy)
{
	struct spare_slab_map *map = &dev->map;
	u32 s, c;

	for (s = 0; s < map->nr_slabs; s++) {
		u32 mapped = 0;

		for (c = 0; c < map->nr_slots; c++)
			if (READ_ONCE(map->slabs[s].copy[c].state) ==
			    SPARE_COPY_MAPPED)
				mapped++;
		if (every_copy ? mapped < map->nr_copies : !mapped)
			return false;
	}
	return true;
}

int spare_donors_start(struct spare_dev *dev)
{
	unsigned long deadline;
	u32 i;
	int ret;

	/* room for donors appended while running (spare_donors_add()) */
	dev->donors = kcalloc(SPARE_MAX_DONORS, sizeof(*dev->donors),
			      GFP_KERNEL);
	if (!dev->donors)
		return -ENOMEM;
	for (i = 0; i < dev->cfg.nr_donors; i++) {
		ret = donor_init(dev, &dev->donors[i], i);
		if (ret) {
			while (i--)
				donor_free(&dev->donors[i]);
			kfree(dev->donors);
			dev->donors = NULL;
			return ret;
		}
	}
	for (i = 0; i < dev->cfg.nr_donors; i++)
		queue_delayed_work(dev->wq, &dev->donors[i].connect_work, 0);

	/* Wait for every copy, or give up on the missing ones after a while. */
	deadline = jiffies + msecs_to_jiffies(SPARE_CONNECT_WAIT_MS);
	while (!all_slabs_mapped(dev, true) && time_before(jiffies, deadline)) {
		if (msleep_interruptible(50)) {
			spare_donors_stop(dev);
			return -EINTR;
		}
	}
	if (!all_slabs_mapped(dev, false) && !dev->has_backup) {
		pr_warn("%s: some slabs have no remote copy after %u ms and there is no backup device; not starting\n",
			config_item_name(&dev->item), SPARE_CONNECT_WAIT_MS);
		spare_donors_stop(dev);
		return -EHOSTUNREACH;
	}
	return 0;
}

/*
 * Donors appended to the running device (configfs "donors", under
 * dev->lock): cfg.donor_addr/donor_name hold entries cfg.nr_donors ..
 * @nr - 1 already. Each is set up before the count that makes it visible
 * is raised, so that every reader of cfg.nr_donors and map.nr_donors (the
 * I/O path, a move looking for a target, sysfs) finds it whole; then it
 * connects like the others. It takes no copy of its own: moves and the
 * slab_moving answer of sparectl device monitor use it. 0, or an error
 * with nothing changed.
 */
int spare_donors_add(struct spare_dev *dev, u32 nr)
{
	u32 old = dev->cfg.nr_donors, i;
	int ret;

	if (!dev->donors || nr <= old || nr > SPARE_MAX_DONORS)
		return -EINVAL;
	for (i = old; i < nr; i++) {
		memset(&dev->donors[i], 0, sizeof(dev->donors[i]));
		ret = donor_init(dev, &dev->donors[i], i);
		if (ret) {
			while (i-- > old)
				donor_free(&dev->donors[i]);
			return ret;
		}
	}
	/* donor_init()'s stores before the count (readers hold no lock) */
	smp_store_release(&dev->cfg.nr_donors, nr);
	ret = spare_slab_map_grow_donors(&dev->map, nr);
	WARN_ON_ONCE(ret);	/* nr checked above */
	for (i = old; i < nr; i++) {
		pr_info("%s: donor %s added\n", config_item_name(&dev->item),
			dev->donors[i].name);
		queue_delayed_work(dev->wq, &dev->donors[i].connect_work, 0);
	}
	return 0;
}

/* Cancel every work item of @d; each may have queued another before. */
static void donor_cancel_works(struct spare_donor *d)
{
	u32 j;

	/* heartbeat queues map_work; connect queues map and heartbeat */
	cancel_delayed_work_sync(&d->heartbeat_work);
	cancel_work_sync(&d->error_work);
	cancel_delayed_work_sync(&d->connect_work);
	cancel_delayed_work_sync(&d->heartbeat_work);
	cancel_work_sync(&d->map_work);
	cancel_work_sync(&d->evict_work);
	for (j = 0; j < d->nr_data; j++)
		cancel_work_sync(&d->data[j].connect_work);
}

/*
 * Stop every donor of @dev. The order (Documentation/kmod.md, "Teardown"):
 *  1. every donor to DELETING: no path queues error, reconnect or map work
 *     for it any more (spare_donor_error(), schedule_reconnect() and
 *     donor_connect_work() respect DELETING);
 *  2. cancel its work items, the self-requeueing ones first;
 *  3. tear its connections down: after ib_drain_qp() and
 *     rdma_destroy_id() no completion or CM event runs, so nothing can queue
 *     evict_work or resync work any more;
 *  4. cancel again what a completion queued between 2 and 3.
 * The donors stay allocated until spare_donors_free(), after the device's
 * workqueue is gone.
 */
void spare_donors_stop(struct spare_dev *dev)
{
	u32 i;

	if (!dev->donors)
		return;
	for (i = 0; i < dev->cfg.nr_donors; i++) {
		struct spare_donor *d = &dev->donors[i];

		donor_set_state(d, SPARE_LIFE_EV_STOP, life_now());
		wake_up_all(&d->map_wait);
		wake_up_all(&d->ctrl.send_wait);
	}
	/* one grace period for them all (the disk is usually gone by now) */
	if (dev->cfg.nr_donors)
		donor_wait_dispatch(&dev->donors[0]);
	for (i = 0; i < dev->cfg.nr_donors; i++) {
		struct spare_donor *d = &dev->donors[i];

		donor_cancel_works(d);
		mutex_lock(&d->lock);
		donor_teardown(d);
		mutex_unlock(&d->lock);
		donor_cancel_works(d);
		donor_copies_move(d, ~0U & ~COPY_MASK(UNMAPPED),
				  SPARE_COPY_FAILED);
		donor_copies_move(d, COPY_MASK(FAILED), SPARE_COPY_UNMAPPED);
	}
}

/* Free the donors; spare_donors_stop() ran and dev->wq is destroyed. */
void spare_donors_free(struct spare_dev *dev)
{
	u32 i;

	if (!dev->donors)
		return;
	for (i = 0; i < dev->cfg.nr_donors; i++)
		donor_free(&dev->donors[i]);
	kfree(dev->donors);
	dev->donors = NULL;
}
