/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tiresias (NSDI '19) job scheduling for GPU clusters: FIFO, fit-first,
 * smallest/shortest first, and discretized two-dimensional least attained
 * service (2D-LAS, "dlas") with an optional Gittins index inside each queue.
 *
 * Pure logic over caller-owned state: no I/O, no clock, no allocation. The
 * caller (spare-sim, a daemon) owns the job array and two scratch arrays of
 * one entry per job, asks tir_next_event() when something next happens and
 * calls tir_step() at that time. Decisions are made only at arrivals,
 * completions and queue jumps (demotion, promotion); at each, jobs are
 * walked in priority order and every job that fits runs.
 *
 * Times are whole seconds; a job's service is GPUs x seconds run.
 *
 * Faithful mode repeats the reference simulator's arithmetic
 * (SymbioticLab/Tiresias simulator/): the next demotion is computed as
 * floor((limit - wall seconds) / GPUs), and the Gittins expectation sums
 * absolute durations on a table rounded like Python 2. The default
 * (corrected) mode computes the demotion time from GPU-seconds and the
 * Gittins index exactly at the attained service. Documentation/sched.md
 * lists every difference.
 */
#ifndef SPARE_SCHED_TIRESIAS_H
#define SPARE_SCHED_TIRESIAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum tir_schedule {
	TIR_FIFO,		/* arrival order, non-preemptive, head-of-line blocks */
	TIR_FJF,		/* arrival order, non-preemptive, any job that fits */
	TIR_SJF,		/* fewest GPUs first, preemptive */
	TIR_SHORTEST,		/* least remaining time first (clairvoyant) */
	TIR_SHORTEST_GPU,	/* least remaining GPU-time first (clairvoyant) */
	TIR_DLAS,		/* discretized LAS on seconds run */
	TIR_DLAS_GPU,		/* discretized 2D-LAS on GPU-seconds */
	TIR_DLAS_GPU_GITTINS,	/* 2D-LAS queues, Gittins index within a queue */
	TIR_NR_SCHEDULES,
};

#define TIR_MAX_QUEUES		8
#define TIR_DEFAULT_LIMIT0	3250	/* GPU-seconds */
#define TIR_DEFAULT_LIMIT1	7200
#define TIR_DEFAULT_GITTINS_DELTA 3250
/*
 * Bound on times, durations x GPUs, queue limits, and the last submission
 * plus all durations (which bounds the makespan): keeps every sum in int64.
 */
#define TIR_MAX_TIME		(INT64_MAX / 4)
/* Bound on a start cost and a requeue delay (seconds): about 31 years. */
#define TIR_MAX_COST		1000000000

enum tir_state {
	TIR_WAITING,		/* not yet submitted */
	TIR_PENDING,
	TIR_RUNNING,
	TIR_DONE,
};

/*
 * A job's account of the service it has had and of its place in the
 * 2D-LAS queues: what account() brings up to date, and all that a live
 * scheduler keeps of a job between passes (spare-tiresias's ledger holds
 * one per job, and hands it to tir_live_pass() in struct tir_job).
 */
struct tir_acct {
	int queue;		/* 2D-LAS queue, 0 highest */
	uint64_t seq;		/* position in its queue (lower first) */
	int64_t last_check;	/* when the counters below were brought up to date */
	int64_t run_total;	/* seconds run in all */
	int64_t run_attained;	/* seconds run since the last promotion */
	int64_t pending_total;	/* seconds pending after submission */
	int64_t pending_since_run; /* pending seconds since last promotion (after first run) */
	uint32_t preempt, promote;
};

/*
 * One job. The caller fills id, num_gpu, submit and duration (sorted by
 * submit time, ties in trace order); tir_init() clears the rest.
 */
struct tir_job {
	int64_t id;
	int64_t num_gpu;
	int64_t submit;
	int64_t duration;

	enum tir_state state;
	uint32_t resume;
	int64_t start;		/* first start, -1 before */
	int64_t end;		/* completion time, -1 before */
	struct tir_acct acct;
	double rank;		/* Gittins index; higher runs first */
	int64_t g_at;		/* Gittins cursors: service last ranked at, */
	uint32_t g_idx, g_idx_d; /* and where it and it + delta fall in the sample */
	uint64_t start_seq;	/* order of (re)starts, for non-preemptive logs */
	int64_t owed;		/* start costs run up (cfg->start_cost per start) */
	int64_t ready_at;	/* a preempted job may start again from then */
	bool engine_started;	/* tir_live_pass(): started since the last pass */
};

/*
 * A duration sample for the Gittins index: n durations sorted ascending
 * (seconds, or GPU-seconds, as the service measure), with n + 1 caller-owned
 * doubles for the table that tir_gittins_init() fills.
 */
struct tir_gittins {
	const int64_t *dur;
	size_t n;
	int64_t delta;
	bool faithful;
	double *table;		/* faithful: rank per sample point; corrected: prefix sums */
};

struct tir_config {
	enum tir_schedule schedule;
	int64_t gpus;				/* cluster size */
	int nqueues;				/* 2D-LAS queues, 1 + number of limits */
	int64_t limit[TIR_MAX_QUEUES - 1];	/* service at which a job leaves queue i */
	double promote;				/* K: back to Q0 after pending K x attained; 0 off */
	bool faithful;
	const struct tir_gittins *gittins;	/* for TIR_DLAS_GPU_GITTINS */
	/*
	 * What starting a job costs on a live engine (spare-sim's
	 * --start-cost and --requeue-delay, Documentation/tiresias-live.md),
	 * 0 for none (the reference's model): each start holds the job's
	 * GPUs start_cost seconds before it makes progress (the cost is
	 * owed in full even if the run is cut shorter), and a preempted job
	 * may start again requeue_delay seconds after its preemption at the
	 * earliest. tir_live_pass() takes neither: a live engine pays them.
	 */
	int64_t start_cost;
	int64_t requeue_delay;
	/*
	 * Decide only every decision_interval seconds (at its multiples), as
	 * a live scheduler's passes do, 0 for at every event (the
	 * reference's model): arrivals, completions and queue jumps still
	 * happen at their own times, but jobs are started and preempted only
	 * at the next multiple (spare-sim --decision-interval). A live pass
	 * takes none of it.
	 */
	int64_t decision_interval;
};

struct tir_sched {
	const struct tir_config *cfg;
	struct tir_job *jobs;
	size_t njobs;
	size_t next_arrival;	/* first job not yet submitted */
	uint32_t *active;	/* runnable jobs (pending or running) in arrival order */
	size_t nactive;
	uint32_t *order;	/* scratch: the ended jobs, then temporary space */
	uint32_t *walk;		/* runnable jobs in the last priority order */
	size_t nwalk;
	int64_t free_gpus;
	int64_t next_jump;	/* next demotion or promotion, INT64_MAX if none */
	int64_t next_event;	/* what tir_next_event() returns */
	uint64_t seq;
	size_t ndone;
	uint64_t decisions;
};

/* What one tir_step() did; ended[] points into the scheduler's scratch. */
struct tir_step_result {
	const uint32_t *ended;	/* indices of jobs completed now, in log order */
	size_t nended;
	size_t pending, running;
};

int tir_schedule_parse(const char *name, enum tir_schedule *out);
const char *tir_schedule_name(enum tir_schedule s);
bool tir_schedule_needs_gittins(enum tir_schedule s);

/* Sets defaults: 2 limits (3250, 7200), no promotion, corrected mode. */
void tir_config_init(struct tir_config *cfg, enum tir_schedule s, int64_t gpus);

/*
 * Fill g->table for the sample g->dur[0..n) (sorted ascending, each >= 1)
 * and g->delta > 0. Returns 0 or -EINVAL.
 */
int tir_gittins_init(struct tir_gittins *g);
/* Gittins rank of a job that has attained service a (>= 0). */
double tir_gittins_rank(const struct tir_gittins *g, int64_t a);

/*
 * Bind the scheduler to caller-owned jobs[n] (sorted by submit, each with
 * 1 <= num_gpu <= cfg->gpus, duration >= 1, submit >= 0, all within
 * TIR_MAX_TIME), an array of n
 * entries and a scratch array of 2 x n entries. Returns 0 or -EINVAL.
 */
int tir_init(struct tir_sched *s, const struct tir_config *cfg,
	     struct tir_job *jobs, size_t n, uint32_t *active, uint32_t *scratch);

/* Time of the next arrival, completion or queue jump; INT64_MAX when all done. */
int64_t tir_next_event(const struct tir_sched *s);

/*
 * Handle everything that happens at time now (which must be
 * tir_next_event()): complete jobs, admit arrivals, account service,
 * demote and promote, and decide who runs. Returns 0 or -EINVAL if now is
 * not the next event.
 */
int tir_step(struct tir_sched *s, int64_t now, struct tir_step_result *res);

/*
 * "a,b,..." (strictly increasing positive integers, at most
 * TIR_MAX_QUEUES - 1) into cfg->limit[] and cfg->nqueues. Returns 0 or
 * -EINVAL, leaving cfg's queues as they were on error.
 */
int tir_parse_limits(const char *arg, struct tir_config *cfg);

/*
 * One decision on a live cluster (spare-tiresias), with the code tir_step()
 * uses: the caller fills jobs[n] from its own ledger and what it sees
 * running, each job TIR_PENDING or TIR_RUNNING with num_gpu (1 ..
 * cfg->gpus), acct as left by the previous pass (last_check <= now; zero
 * and a fresh seq from *seq for a new job), and state as observed. At time
 * @now every job's service is accounted (demotion, promotion: the same
 * account() as tir_step), its Gittins rank computed (dlas-gpu-gittins),
 * and the jobs are walked in priority order: on return walk[0..n) holds
 * that order and each job's state says whether it should run
 * (TIR_RUNNING) or wait (TIR_PENDING); a job observed running that should
 * wait is preempted (its preempt count is raised). @scratch has n entries.
 * A job the engine started since the last pass is marked engine_started by
 * the caller; where it was not asked for (Slurm's backfill, or a new job
 * started at its submission) the pass takes that start as spare-sim
 * takes a start at an event, and moves the job ahead of the jobs waiting
 * in its queue before it walks (a job started so is not preempted for a
 * waiting job of its own queue that was ahead of it).
 * *seq is the caller's counter of queue positions, advanced. Only the
 * 2D-LAS schedules (dlas, dlas-gpu, dlas-gpu-gittins). Returns 0, or
 * -EINVAL on a bad config or job (nothing changed then).
 */
int tir_live_pass(const struct tir_config *cfg, struct tir_job *jobs, size_t n,
		  uint32_t *walk, uint32_t *scratch, uint64_t *seq, int64_t now);

static inline bool tir_done(const struct tir_sched *s)
{
	return s->ndone == s->njobs;
}

#endif /* SPARE_SCHED_TIRESIAS_H */
