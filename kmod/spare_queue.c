// SPDX-License-Identifier: GPL-2.0
/*
 * spare.ko RDMA transport: queues. rdma_cm connection set-up and teardown
 * of a donor's control queue and its data queues (one per hardware queue,
 * connected lazily on first use), the ACK timeout, and the data path:
 * RDMA READ/WRITE posted for requests and their completions.
 */
#include <linux/moduleparam.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "spare.h"
#include "spare_rdma.h"

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
	ret = spare_ctrl_bufs_alloc(q, ibdev);
	if (ret)
		return ret;
	for (i = 0; i < SPARE_CTRL_RECVS; i++) {
		ret = spare_ctrl_post_recv(&q->recv[i]);
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
void spare_queue_destroy(struct spare_queue *q)
{
	bool drained = false;
	int old;

	/* After this no spare_ctrl_send() or receive repost touches the queue. */
	spin_lock_bh(&q->send_lock);
	old = spare_queue_set_state(q, SPARE_Q_EV_CLOSE);
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
		spare_ctrl_bufs_free(q, q->ibdev);
	q->ibdev = NULL;
	spare_queue_set_state(q, SPARE_Q_EV_RESET);
}

/* Connect @q and wait for the outcome; caller holds d->lock. */
int spare_queue_connect(struct spare_queue *q)
{
	struct spare_donor *d = q->donor;
	long left;
	int ret;

	init_completion(&q->cm_done);
	q->cm_error = -ETIMEDOUT;
	spare_queue_set_state(q, SPARE_Q_EV_CONNECT);
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
	left = spare_donor_wait(d, &q->cm_done, 3 * SPARE_CM_TIMEOUT_MS);
	ret = left > 0 ? q->cm_error : left ?: -ETIMEDOUT;
	if (ret)
		goto fail;
	spare_queue_set_state(q, SPARE_Q_EV_UP);	/* ordered: try_cmpxchg */
	return 0;
fail:
	spare_queue_destroy(q);
	return ret;
}

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
		if (spare_queue_set_state(q, SPARE_Q_EV_CONNECT) == SPARE_Q_NEW)
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
		spare_queue_set_state(q, SPARE_Q_EV_RESET);
	} else {
		ret = spare_queue_connect(q);
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

void spare_queue_init(struct spare_queue *q, struct spare_donor *d,
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
