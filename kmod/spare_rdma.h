/* SPDX-License-Identifier: GPL-2.0 */
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
 *
 * The transport's files, each layer using those above it in this list:
 *  - spare_life.c: donor and queue state changes, spare_donor_error();
 *  - spare_ctrl.c: control buffers, sending, and the dispatch of messages;
 *  - spare_queue.c: rdma_cm set-up and teardown, the data path;
 *  - spare_evict.c: EVICT (moves) and ACTIVITY_QUERY;
 *  - spare_donor.c: connect, handshake, map work, error work, start/stop.
 * This header is theirs alone; the rest of spare.ko uses spare.h.
 */
#ifndef SPARE_RDMA_H
#define SPARE_RDMA_H

#include "spare.h"
#include "spare_move.h"

/* spare_life.c */
u64 spare_now_ms(void);
enum spare_life_act spare_donor_set_state(struct spare_donor *d,
					  enum spare_life_ev ev, u64 now);
int spare_queue_set_state(struct spare_queue *q, enum spare_queue_ev ev);
long spare_donor_wait(struct spare_donor *d, struct completion *done,
		      unsigned int ms);

/* spare_ctrl.c */
int spare_ctrl_bufs_alloc(struct spare_queue *q, struct ib_device *ibdev);
void spare_ctrl_bufs_free(struct spare_queue *q, struct ib_device *ibdev);
int spare_ctrl_post_recv(struct spare_ctrl_buf *b);
int spare_ctrl_send(struct spare_donor *d, struct spare_msg *m);

/* spare_queue.c */
void spare_queue_init(struct spare_queue *q, struct spare_donor *d,
		      enum spare_conn_kind kind, int hctx);
int spare_queue_connect(struct spare_queue *q);
void spare_queue_destroy(struct spare_queue *q);

/* spare_evict.c */
void spare_donor_evict_work(struct work_struct *work);
void spare_donor_send_unmap(struct spare_donor *d, u32 s);
void spare_donor_rehome_work(struct work_struct *work);
void spare_donor_rehome_arm(struct spare_donor *d);

static inline void msg_prepare(struct spare_donor *d, struct spare_msg *m,
			       enum spare_msg_type type)
{
	spare_msg_init(m, type, atomic_inc_return(&d->seq));
}

static inline bool donor_live(struct spare_donor *d)
{
	return atomic_read(&d->state) == SPARE_DONOR_LIVE;
}

/*
 * The slot of slab @s whose copy lives on donor @d, or -1. Without the slab
 * lock: a slot's donor changes only when a copy moves (spare_slab_move_*()),
 * and callers recheck the slot's state under the lock.
 */
static inline int donor_copy(const struct spare_donor *d, u32 s)
{
	const struct spare_slab_map *map = &d->dev->map;

	return spare_slab_donor_slot(map, &map->slabs[s], d->idx);
}

/*
 * Moving an evicted copy (Documentation/kmod.md, "Moving an evicted copy"):
 * the machine is kmod/core/spare_move.c, shared with spare-ublk; here is
 * its mechanism. Copy @from of a slab, which donor @d asked back, gets a
 * new copy on another donor in the slab's spare slot before it is given
 * back. All the moves of a batch of EVICTs run side by side in
 * spare_donor_evict_work(), each looked at every 5 ms, within three quarters of
 * its EVICT's grace period; a donor that refuses the MAP (answered in
 * handle_mapped(), seen by the next look) is replaced by the next one.
 */
struct spare_kmove {
	struct spare_move m;
	struct spare_donor *t;		/* the target's donor, for the log */
	bool asked;			/* the slab_moving uevent went out */
};

#endif /* SPARE_RDMA_H */
