// SPDX-License-Identifier: GPL-2.0
/*
 * spare.ko RDMA transport: control messages. The control queue's buffers
 * and receives, sending one message (spare_ctrl_send()), and the dispatch
 * of every message the donor sends, each checked with spare_msg_check().
 */

#include "spare.h"
#include "spare_rdma.h"

static void ctrl_recv_done(struct ib_cq *cq, struct ib_wc *wc);
static void ctrl_send_done(struct ib_cq *cq, struct ib_wc *wc);

void spare_ctrl_bufs_free(struct spare_queue *q, struct ib_device *ibdev)
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

int spare_ctrl_bufs_alloc(struct spare_queue *q, struct ib_device *ibdev)
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
	spare_ctrl_bufs_free(q, ibdev);
	return -ENOMEM;
}

int spare_ctrl_post_recv(struct spare_ctrl_buf *b)
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
 * Send one control message from process context. send_lock (taken with
 * bottom halves off: the send completion runs in softirq) covers the slot
 * and the post, and spare_queue_destroy() moves the queue out of LIVE under it, so
 * no send touches the buffers of a queue being torn down.
 */
int spare_ctrl_send(struct spare_donor *d, struct spare_msg *m)
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

/*
 * Copy @c on @d is MAPPED again: if it failed while @d held our slabs
 * (spare_copy_has_kept()), the donor's F_KEPT says it came back with its
 * contents, current again for the pages it kept (no resync); without it
 * they are gone. Under the slab's lock; true when it was a kept copy.
 */
static bool mapped_kept(struct spare_donor *d, struct spare_slab *slab,
			u32 c, bool f_kept)
{
	u32 n;

	if (!spare_copy_has_kept(&slab->copy[c]))
		return false;
	if (f_kept) {
		n = spare_copy_adopt_kept(&d->dev->map, slab, c);
		atomic64_inc(&d->stats.kept_copies);
		atomic64_add(n, &d->stats.kept_pages);
		atomic_inc(&d->hold_kept);
	} else {
		spare_copy_forget_kept(&slab->copy[c]);
		atomic_inc(&d->hold_not_kept);
	}
	return true;
}

static int handle_mapped(struct spare_donor *d, const struct spare_msg *m)
{
	struct spare_slab_map *map = &d->dev->map;
	u32 s = le32_to_cpu(m->mapped.slab_id);
	u32 st = le32_to_cpu(m->mapped.status);
	u64 addr = le64_to_cpu(m->mapped.addr);
	struct spare_slab *slab;
	unsigned long flags;
	bool kept = false;
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
		clear_bit(s, d->grant_refused);
		kept = mapped_kept(d, slab, c,
				   le32_to_cpu(m->mapped.flags) & SPARE_MAPPED_F_KEPT);
	} else {
		spare_copy_set_state(map, slab, c, SPARE_COPY_UNMAPPED);
		/* a held slab the donor no longer has (expired, taken) */
		if (spare_copy_has_kept(&slab->copy[c])) {
			spare_copy_forget_kept(&slab->copy[c]);
			atomic_inc(&d->hold_not_kept);
			kept = true;
		}
	}
	spin_unlock_irqrestore(&slab->lock, flags);
	if (kept)	/* what waited for the copy runs again */
		spare_kick_queues(d->dev);
	if (ret)
		return ret;
	if (st == SPARE_ST_OK)
		spare_resync_kick(d->dev);
	if (st != SPARE_ST_OK) {
		atomic64_inc(&d->stats.maps_refused);
		if (st == SPARE_ST_BAD_GRANT)
			set_bit(s, d->grant_refused);
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

		WRITE_ONCE(d->evict_seen, ktime_get_real_seconds());
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
	/* Under send_lock: never repost behind spare_queue_destroy()'s drain. */
	spin_lock(&q->send_lock);
	if (atomic_read(&q->state) == SPARE_Q_LIVE ||
	    atomic_read(&q->state) == SPARE_Q_CONNECTING)
		err = spare_ctrl_post_recv(b);
	spin_unlock(&q->send_lock);
	if (err)
		spare_donor_error(d, "cannot repost a receive");
}
