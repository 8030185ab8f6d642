// SPDX-License-Identifier: GPL-2.0
/*
 * spare.ko RDMA transport: the state changes of donors and queues (the
 * core's tables, kmod/core/spare_donor_life.h, published lock-free) and
 * the entry of the error road, spare_donor_error(). The layer below every
 * other file of the transport (spare_rdma.h).
 */
#include <linux/jiffies.h>

#include "spare.h"
#include "spare_rdma.h"

u64 spare_now_ms(void)
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
enum spare_life_act spare_donor_set_state(struct spare_donor *d,
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
int spare_queue_set_state(struct spare_queue *q, enum spare_queue_ev ev)
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

void spare_donor_error(struct spare_donor *d, const char *why)
{
	enum spare_life_act act = spare_donor_set_state(d, SPARE_LIFE_EV_LOST,
							spare_now_ms());

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

/*
 * Wait up to @ms for @done, but give up at once when the donor is being
 * deleted, so that powering a device off never waits out a connection
 * attempt to a host that does not answer. Returns > 0 when @done
 * completed, 0 on timeout, -ESHUTDOWN when deleted.
 */
long spare_donor_wait(struct spare_donor *d, struct completion *done,
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
