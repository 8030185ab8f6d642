/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-aggd scheduling policy: which queued reduction runs next, and how
 * many cores the pool keeps awake. Pure logic, no threads or clocks: the
 * daemon calls it under its pool lock, the unit tests call it directly.
 *
 * Policies choose among jobs; within a job, tasks run in arrival order.
 *  - FIFO: the oldest task of any job.
 *  - WFS (weighted fair share, start-time fair queueing): each job has a
 *    virtual time advanced by cost / weight when one of its tasks is
 *    picked; a job that becomes backlogged starts at max(its vtime, the
 *    virtual clock); the backlogged job with the lowest vtime goes first.
 *  - LAS (least attained service): the backlogged job that has been given
 *    the least cost so far goes first; ties go to the oldest task.
 *  - DLAS (Tiresias's discretized LAS): jobs are binned by the cost they
 *    have been given (below AGG_DLAS_LIMIT0 bytes, below AGG_DLAS_LIMIT1,
 *    the rest); the lowest bin goes first, the oldest task within a bin.
 * The comparison itself is libspare-sched's (userspace/sched/order.h), the
 * same code the simulator uses.
 */
#ifndef SPARE_AGG_SCHED_H
#define SPARE_AGG_SCHED_H

#include <stddef.h>
#include <stdint.h>

enum agg_policy {
	AGG_POLICY_FIFO,
	AGG_POLICY_WFS,
	AGG_POLICY_LAS,
	AGG_POLICY_DLAS,
};

/* DLAS bins by bytes reduced for the job so far (default queue limits). */
#define AGG_DLAS_LIMIT0 (1ULL << 30)
#define AGG_DLAS_LIMIT1 (16ULL << 30)
#define AGG_DLAS_MAX_LIMITS 7

struct agg_task {
	struct agg_task *next;
	uint32_t job;		/* agg_sched job id */
	uint64_t cost;		/* bytes the task reads and writes */
	uint64_t seq;		/* set by agg_sched_enqueue() */
	uint64_t enq_ns;	/* for latency accounting, not used here */
	void *ctx;
};

struct agg_sched_job {
	uint32_t id;
	uint32_t weight;
	double vtime;
	uint64_t attained;
	struct agg_task *head, *tail;
	size_t queued;
};

struct agg_sched {
	enum agg_policy policy;
	unsigned int dlas_nlimits;
	uint64_t dlas_limit[AGG_DLAS_MAX_LIMITS];
	struct agg_sched_job *jobs;
	size_t n_jobs, cap;
	uint64_t seq;
	double vclock;
	size_t queued;
};

int agg_policy_parse(const char *name, enum agg_policy *p);
const char *agg_policy_name(enum agg_policy p);

void agg_sched_init(struct agg_sched *s, enum agg_policy policy);
void agg_sched_destroy(struct agg_sched *s);
/* DLAS queue limits in bytes, strictly increasing; 0 or -EINVAL. */
int agg_sched_set_dlas_limits(struct agg_sched *s, const uint64_t *limit, unsigned int n);
/* 0, -ENOMEM, or -EEXIST. */
int agg_sched_add_job(struct agg_sched *s, uint32_t id, uint32_t weight);
/* A job's WFS weight from now on (1..AGG_MAX_WEIGHT); 0, -ENOENT, -EINVAL. */
int agg_sched_set_weight(struct agg_sched *s, uint32_t id, uint32_t weight);
/* Forget a job; returns its queued tasks as a list for the caller to free. */
struct agg_task *agg_sched_remove_job(struct agg_sched *s, uint32_t id);
/* 0 or -ENOENT when the task's job is unknown. */
int agg_sched_enqueue(struct agg_sched *s, struct agg_task *t);
/* Dequeue the next task by policy, or NULL when nothing is queued. */
struct agg_task *agg_sched_pick(struct agg_sched *s);
/*
 * Work of 'cost' bytes done for the job outside the queue (a fold on the
 * thread that received the push): the job's vtime and attained service
 * advance as if such a task had been enqueued and picked at once, so the
 * policies still see every byte a job was given. 0 or -ENOENT.
 */
int agg_sched_charge(struct agg_sched *s, uint32_t id, uint64_t cost);

/*
 * Core-count controller: called once per tick with the cores kept busy
 * during the tick (busy thread-ns / tick-ns) and the tasks still queued.
 * Grows at once to what the load needs; shrinks one core at a time after
 * 'down_ticks' quiet ticks in a row.
 */
struct agg_scale {
	unsigned int min, max, active;
	double target_util;	/* busy / active aimed at, e.g. 0.7 */
	unsigned int down_ticks;
	unsigned int quiet;
};

void agg_scale_init(struct agg_scale *sc, unsigned int min, unsigned int max);
unsigned int agg_scale_update(struct agg_scale *sc, double busy_cores,
			      size_t queued);

#endif /* SPARE_AGG_SCHED_H */
