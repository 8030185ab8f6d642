/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which backlogged job of a shared pool is served next: the job orderings
 * spare-aggd offers (--policy), as one pure comparison.
 *
 *  - FIFO: the job whose oldest queued task is oldest.
 *  - WFS (weighted fair share): the lowest virtual time.
 *  - LAS (least attained service): the least service received so far.
 *  - DLAS (Tiresias's discretized LAS): the job in the highest-priority
 *    queue, queue i holding the jobs whose attained service is below
 *    limit i (and the last queue the rest); FIFO inside a queue. Unlike
 *    LAS, two jobs that have both received a lot are not reordered by
 *    small differences, so a long job is not starved by a slightly
 *    younger one.
 * Ties go to the oldest queued task.
 */
#ifndef SPARE_SCHED_ORDER_H
#define SPARE_SCHED_ORDER_H

#include <stdbool.h>
#include <stdint.h>

enum sched_order {
	SCHED_ORDER_FIFO,
	SCHED_ORDER_WFS,
	SCHED_ORDER_LAS,
	SCHED_ORDER_DLAS,
};

#define SCHED_ORDER_MAX_LIMITS 7

struct sched_order_cfg {
	enum sched_order order;
	unsigned int nlimits;				/* DLAS: queues - 1 */
	uint64_t limit[SCHED_ORDER_MAX_LIMITS];		/* increasing */
};

/* What the comparison looks at for one backlogged job. */
struct sched_order_key {
	uint64_t head_seq;	/* arrival number of its oldest queued task */
	double vtime;		/* WFS virtual time */
	uint64_t attained;	/* service received so far */
};

/* DLAS queue of a job with the given attained service: 0 .. nlimits. */
unsigned int sched_dlas_queue(const struct sched_order_cfg *c, uint64_t attained);

/* Is a served before b? */
bool sched_order_before(const struct sched_order_cfg *c, const struct sched_order_key *a,
			const struct sched_order_key *b);

#endif /* SPARE_SCHED_ORDER_H */
