/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-aggd worker pool: threads pinned to cores run reductions chosen by
 * an agg_sched policy; a controller thread resizes the set of awake
 * threads every tick with agg_scale and records cores used over time.
 * Finished tasks are handed back to the event loop through a list and an
 * eventfd.
 */
#ifndef SPARE_AGG_POOL_H
#define SPARE_AGG_POOL_H

#include <stdint.h>
#include <stdio.h>

#include "agg_sched.h"

struct agg_pool;

struct agg_pool_opts {
	enum agg_policy policy;
	unsigned int min_cores, max_cores;
	unsigned int first_core;	/* thread i runs on core first_core + i */
	unsigned int tick_ms;
	FILE *log;		/* one line per tick, or NULL */
};

/* One sample of the controller, taken every tick. */
struct agg_pool_sample {
	uint64_t t_ms;		/* since the pool started */
	unsigned int active;	/* awake threads */
	double busy;		/* cores kept busy during the tick */
	size_t queued;
};

#define AGG_POOL_HISTORY 600

struct agg_pool_stats {
	unsigned int active, max;
	uint64_t tasks, busy_ns, queue_ns;
	size_t queued;
	double cpu_seconds;	/* process CPU time */
	unsigned int n_hist;
	struct agg_pool_sample hist[AGG_POOL_HISTORY];	/* oldest first */
};

typedef void (*agg_pool_run_fn)(struct agg_task *t);

/* Returns NULL with errno set. done_fd gets a write per finished batch. */
struct agg_pool *agg_pool_start(const struct agg_pool_opts *o,
				agg_pool_run_fn run, int done_fd);
/* Joins the threads; returns every task not handed back yet, as a list. */
struct agg_task *agg_pool_stop(struct agg_pool *p);
int agg_pool_add_job(struct agg_pool *p, uint32_t id, uint32_t weight);
/* The job's weight in the policy's order from now on (agg_sched_set_weight). */
int agg_pool_set_weight(struct agg_pool *p, uint32_t id, uint32_t weight);
/* Drops the job's queued tasks; returns them as a list. */
struct agg_task *agg_pool_remove_job(struct agg_pool *p, uint32_t id);
int agg_pool_submit(struct agg_pool *p, struct agg_task *t);
/*
 * May the caller run work of 'cost' bytes for the job itself, now, outside
 * the pool? Yes (1) only when no task waits in the queue, so that running
 * it ahead of the policy's order passes over nobody; the job is then
 * charged for it in the policy's accounting (agg_sched_charge). 0: submit
 * it instead.
 */
int agg_pool_charge_if_idle(struct agg_pool *p, uint32_t id, uint64_t cost);
/* Finished tasks since the last call, as a list. */
struct agg_task *agg_pool_take_done(struct agg_pool *p);
void agg_pool_stats(struct agg_pool *p, struct agg_pool_stats *st);

#endif /* SPARE_AGG_POOL_H */
