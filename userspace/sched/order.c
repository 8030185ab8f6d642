// SPDX-License-Identifier: GPL-2.0
/*
 * Job ordering for a shared pool (see order.h).
 */
#include "order.h"

unsigned int sched_dlas_queue(const struct sched_order_cfg *c, uint64_t attained)
{
	unsigned int q = 0;

	while (q < c->nlimits && q < SCHED_ORDER_MAX_LIMITS && attained >= c->limit[q])
		q++;
	return q;
}

bool sched_order_before(const struct sched_order_cfg *c, const struct sched_order_key *a,
			const struct sched_order_key *b)
{
	switch (c->order) {
	case SCHED_ORDER_WFS:
		if (a->vtime != b->vtime)
			return a->vtime < b->vtime;
		break;
	case SCHED_ORDER_LAS:
		if (a->attained != b->attained)
			return a->attained < b->attained;
		break;
	case SCHED_ORDER_DLAS: {
		unsigned int qa = sched_dlas_queue(c, a->attained);
		unsigned int qb = sched_dlas_queue(c, b->attained);

		if (qa != qb)
			return qa < qb;
		break;
	}
	case SCHED_ORDER_FIFO:
		break;
	}
	return a->head_seq < b->head_seq;
}
