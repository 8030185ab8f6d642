/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-tiresias: Tiresias (2D-LAS, Gittins) scheduling a live Slurm
 * cluster with the libspare-sched code spare-sim replays
 * (Documentation/tiresias-live.md).
 *
 * This is the daemon's logic without Slurm and without a clock: a pass
 * reads a view of the jobs through struct tird_ops (libslurm in
 * tird_slurm.c, a fake in the unit tests), brings each job's ledger of
 * attained service up to date, asks tir_live_pass() what should run, and
 * acts: a Slurm priority per pending job in Tiresias's order, a requeue
 * of each running job Tiresias preempts. The ledger is what Slurm does
 * not keep across a requeue (it resets start_time); it is saved in a state
 * file, atomically, after each pass.
 */
#ifndef SPARE_TIRD_H
#define SPARE_TIRD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tiresias.h"

/* What Slurm says about one job. */
enum tird_vstate {
	TIRD_V_PENDING,		/* may be started */
	TIRD_V_RUNNING,		/* holds its GPUs (running, or completing a requeue) */
	TIRD_V_HELD,		/* held (priority 0), suspended or completing: set aside */
	TIRD_V_FINAL,		/* ended: its ledger entry goes */
};

struct tird_view {
	uint32_t id;
	enum tird_vstate state;
	int64_t gpus;		/* total GPUs asked for; 0: none, -1: unreadable */
	bool time_ok;		/* a finite, positive time limit */
	bool requeue_ok;	/* Slurm may requeue it */
	int64_t submit;		/* Unix seconds */
	int64_t start;		/* Unix seconds of the current run (running only) */
	uint32_t priority;	/* as Slurm has it now */
};

/*
 * One job's ledger: what tir_live_pass() needs between passes, the same
 * struct as its tir_job's (times in scaled seconds), copied whole.
 */
struct tird_entry {
	uint32_t id;
	struct tir_acct acct;
};

struct tird_ledger {
	struct tird_entry *e;		/* sorted by id */
	size_t n, cap;
	uint64_t seq;
};

/* Access to the cluster; each returns 0 or -1 (logged by the callee). */
struct tird_ops {
	/* A fresh view (caller frees *v with free()). */
	int (*load)(void *ctx, struct tird_view **v, size_t *n);
	/* GPUs the cluster has now. */
	int (*cluster_gpus)(void *ctx, int64_t *gpus);
	int (*set_priority)(void *ctx, uint32_t id, uint32_t prio);
	int (*requeue)(void *ctx, uint32_t id);
	void *ctx;
};

struct tird_cfg {
	struct tir_config tir;		/* schedule, limits, promote, gittins */
	int64_t gpus;			/* 0: ask the cluster each pass */
	double time_scale;		/* trace seconds per wall second */
	uint32_t priority_top;		/* the first job in Tiresias's order gets this */
	uint32_t priority_floor;	/* no job is given less (0: 1) */
	uint32_t max_updates;		/* priority updates a pass sends at most (0: all) */
	bool dry_run;
	FILE *dry_out;			/* where a dry run says what it would do */
};

struct tird_stats {
	uint64_t passes, preemptions, priority_sets, slurm_errors, stale_passes;
	uint64_t last_pass_ns;		/* CPU time of the last pass */
	uint64_t jobs_queue[TIR_MAX_QUEUES];	/* pending+running per queue, last pass */
	uint64_t jobs_running[TIR_MAX_QUEUES];
	uint64_t jobs_ignored;		/* left to Slurm's own policy, last pass */
	uint64_t priority_deferred;	/* updates left to later passes, last pass */
};

struct tird {
	struct tird_cfg cfg;
	struct tird_ops ops;
	struct tird_ledger led;
	struct tird_stats st;
	bool stale;			/* the last load failed (said once) */
	bool band_full;			/* more pending jobs than priorities (said once) */
	bool deferring;			/* priority updates left to later passes (said once) */
	uint32_t *ignored;		/* ids left to Slurm, logged already (sorted) */
	size_t nignored;
	uint32_t *ignored_next;		/* the same, being built by a pass */
	size_t nignored_next;
	/* scratch of the last pass */
	struct tir_job *jobs;
	uint32_t *walk, *scratch, *vidx, *prio_cur, *prio_new, *prio_tail;
	size_t cap;
};

/*
 * Slurm priorities for m pending jobs in Tiresias's order, changing as few
 * as it can, all from @floor to @top (the band): out[k] = cur[k] where the
 * current priorities already fall strictly in the band (with room below
 * for the rest), else a value between its neighbours (half way to the next
 * one's, if that one can stay, else a gap below the previous one; the gap
 * is TIRD_PRIO_GAP, less when the band cannot space m jobs that far). The
 * first job gets @top when set afresh, and less than @top plus the gap
 * when a job moves in ahead of it. All of out[] are >= @floor and strictly
 * decreasing. A job that joins the order (arrival, preemption, promotion)
 * mostly costs one update, not one per job behind it. If m is more than
 * the band holds, the jobs past it keep cur[] (the caller says so).
 */
#define TIRD_PRIO_GAP	1024
void tird_assign_priorities(const uint32_t *cur, uint32_t *out, size_t m, uint32_t top,
			    uint32_t floor);

/*
 * At most @max of the m updates tird_assign_priorities() chose (out[k] !=
 * cur[k]), the first in Tiresias's order: the jobs from a cut on keep
 * cur[] this pass. The cut is past the first @max changes, and further
 * on while a job after it has a current priority at or above the last
 * priority before it, so every job before the cut still outranks every
 * job after it. @tail has m entries (scratch). Returns how many updates
 * were left to later passes (0 if @max is 0 or enough). A first pass over
 * 1,000 pending jobs then costs @max RPCs, not 1,000: the head of the
 * order, what Slurm starts next, is set first, the rest over the next
 * passes (Documentation/tiresias-live.md, "The first pass").
 */
size_t tird_limit_updates(const uint32_t *cur, uint32_t *out, size_t m, size_t max,
			  uint32_t *tail);

/*
 * The band's defaults (Documentation/tiresias-live.md, "Above Slurm's
 * own priorities"). Slurm takes a priority up to TIRD_PRIO_MAX
 * (0xfffffffe is NO_VAL, "not set"; 0xffffffff is INFINITE, "release").
 * priority/basic gives the n-th new job TIRD_BASIC_TOP - n, so a band from
 * TIRD_BASIC_TOP up is above every job the daemon has not placed yet; the
 * default top leaves one gap of headroom under TIRD_PRIO_MAX. 64,510
 * priorities: more than Slurm's default MaxJobCount (10,000).
 */
#define TIRD_PRIO_MAX		4294967293u
#define TIRD_BASIC_TOP		4294901760u
#define TIRD_PRIO_TOP		(TIRD_PRIO_MAX - TIRD_PRIO_GAP)

/* Trace seconds at Unix time @ms milliseconds, at @scale. */
int64_t tird_scaled(int64_t ms, double scale);

/*
 * The GPUs a job asks for, from its tres_per_job ("gres:gpu:4",
 * "gres/gpu:a100:4", several TRES separated by ','), else tres_per_node
 * times @nodes, else its tres_req_str ("...,gres/gpu=4"). 0 if none asks
 * for GPUs, -1 if a GPU count is there but unreadable.
 */
int64_t tird_gpus_from_tres(const char *per_job, const char *per_node, uint32_t nodes,
			    const char *req);

/* GPUs in a node's gres ("gpu:4", "gpu:a100:4(S:0-1)", ...); -1 if unreadable. */
int64_t tird_gpus_of_node(const char *gres);

/* Ledger: find (NULL) or insert a zeroed entry for @id. */
struct tird_entry *tird_ledger_find(struct tird_ledger *l, uint32_t id);
struct tird_entry *tird_ledger_add(struct tird_ledger *l, uint32_t id);
void tird_ledger_free(struct tird_ledger *l);

/*
 * The state file: "spare-tiresias-state 1", "seq N", then one line a job
 * "job ID QUEUE SEQ LAST_CHECK RUN_TOTAL RUN_ATTAINED PENDING_TOTAL
 * PENDING_SINCE_RUN PREEMPT PROMOTE". Save writes PATH.tmp, syncs it and
 * renames it over PATH. Load: 0 (a missing file is an empty ledger), or
 * -1 with "PATH:LINE: reason" in @why.
 */
int tird_state_save(const struct tird_ledger *l, const char *path);
int tird_state_load(struct tird_ledger *l, const char *path, int nqueues,
		    char *why, size_t whylen);

/*
 * One pass at Unix time @now_ms. Returns 0 after a pass on a fresh view,
 * 1 if the view could not be read (nothing done, nothing requeued: the
 * caller retries with back-off), -1 on a failure of its own (memory).
 */
int tird_pass(struct tird *d, int64_t now_ms);
void tird_free(struct tird *d);

/*
 * What is wrong with Slurm's SchedulerType and PriorityType for the daemon,
 * or NULL. sched/builtin with priority/basic puts slurmctld in its FIFO
 * mode: its main loop walks the job list in submission order and never
 * reads a job's priority, so the order the daemon sets does not reach it
 * (Documentation/tiresias-live.md, "Under sched/builtin").
 */
const char *tird_slurm_conf_problem(const char *sched_type, const char *prio_type);

/*
 * libslurm (tird_slurm.c): ops for a cluster named by @conf (NULL:
 * SLURM_CONF). @floor is priority-floor: under priority/basic, one below
 * TIRD_BASIC_TOP is warned about once.
 */
void tird_slurm_ops(struct tird_ops *ops, const char *conf, uint32_t floor);
void tird_slurm_fini(void);

#endif /* SPARE_TIRD_H */
