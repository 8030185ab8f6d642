/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-aggd's jobs: the table of jobs, their memory budget, the reductions
 * handed to the pool and the pull replies they answer, failing a job, and
 * the jobs that moved away. A job being moved is watched through the
 * job_mig_ops the migration code registers (aggd_migrate.c), and arrivals
 * and departures reach the reports through job_report_ops (aggd_report.c),
 * so this file calls into neither.
 */
#ifndef SPARE_AGGD_JOBS_H
#define SPARE_AGGD_JOBS_H

#include <stdbool.h>
#include <stdint.h>

#include "agg_job.h"
#include "agg_pool.h"
#include "aggd_conn.h"
#include "aggd_report_state.h"

struct job_entry {
	struct job_entry *next;
	struct agg_job *job;
	char tenant[AGG_NAME_LEN + 1];	/* whose job; "" in an open daemon */
	bool dead;		/* no connections left; freed at inflight 0 */
	struct job_report rep;	/* REPORTs and FlowCon (aggd_report.c) */
};

/* Jobs that moved away: a late REGISTER is redirected, not re-created. */
struct moved_job {
	struct moved_job *next;
	char tenant[AGG_NAME_LEN + 1];
	char name[AGG_NAME_LEN + 1];
	char token[AGG_TOKEN_LEN + 1];
	struct agg_target to;
	uint32_t iter;
};

#define MOVED_KEEP	64	/* most recent moves remembered */

/* How a job under way to another instance hears of its job's events. */
struct job_mig_ops {
	/* the job failed, or lost its last worker: the move must stop */
	void (*abort)(struct migration *m, unsigned int status, const char *why);
	/* a partition reached the barrier */
	void (*progress)(struct migration *m);
};

void jobs_set_mig_ops(const struct job_mig_ops *ops);

/*
 * How the reports' code (aggd_report.c, under --flowcon) hears of jobs
 * coming and going, and chooses a new job's first weight. Without it a
 * new job starts at its spec's weight.
 */
struct job_report_ops {
	/* a job arrived or went */
	void (*changed)(void);
	/* a new job's first pool weight */
	uint32_t (*first_weight)(const struct agg_job *job);
};

void jobs_set_report_ops(const struct job_report_ops *ops);

/*
 * How the migration code (aggd_migrate.c) hears that an IMPORTed job's
 * buffers are ready (@err 0) or could not be made (-ENOMEM): job_new()
 * makes them off the event loop (job->creating meanwhile).
 */
struct job_create_ops {
	void (*created)(struct job_entry *e, int err);
};

void jobs_set_create_ops(const struct job_create_ops *ops);

/* Constant-time compare of two tokens (AGG_TOKEN_LEN + 1 bytes each). */
bool agg_token_equal(const char *a, const char *b);

/* Job names are the tenant's own: every lookup names the tenant too. */
struct job_entry *job_find(const char *tenant, const char *name);
/*
 * The job @name of @tenant if @token is its token. NULL for an unknown job and for a
 * wrong token alike: a caller answers both the same way and closes the
 * connection (AGGD_NO_JOB_TOKEN).
 */
struct job_entry *job_find_authed(const char *tenant, const char *name,
				  const char *token);
#define AGGD_NO_JOB_TOKEN	"no job '%s' with that token here"
struct job_entry *job_entry_of(struct agg_job *job);
/*
 * A new job of @tenant from a spec (REGISTER or IMPORT); NULL after an
 * ERROR reply. A REGISTER's tenant caps are checked here (@c's tenant).
 * The job is in the table at once, charged to the budget, but its buffers
 * are made off the event loop: job->creating until they are ready. Then
 * the job's pending REGISTERs are answered (conn->reg_pending:
 * job_register_reply) and their held requests replayed, or, if they could
 * not be made, those connections get AGG_ENOMEM and close, and the job
 * goes; an IMPORT hears of it through job_create_ops.
 */
struct job_entry *job_new(struct conn *c, const char *tenant,
			  struct agg_job_spec *spec, const char *what);
void job_maybe_free(struct job_entry *e);
/* Retire a job: drop its queued work, leave the pool, free it when idle. */
void job_retire(struct job_entry *e);
void job_drop_queued(struct agg_job *job);
/* Fail a job and tell every attached worker why. */
void job_fail(struct agg_job *job, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * The partition has a fold to run (an agg_part_* call returned 1). The
 * fold that completes the sum (the last push's: the tail) runs here, on
 * the event loop that received the push, when nothing waits in the pool's
 * queue (agg_pool_charge_if_idle: the job is charged for it in the
 * policy's accounting as for a pool task, and its time is counted in
 * spare_aggd_receive_fold_seconds_total). Every other fold is queued for
 * the pool under its policy.
 */
void fold_part(struct agg_job *job, struct agg_part *part);
/*
 * Answer @c's pull with @part's output. Over RDMA the reply is sent from
 * the output in place when the job's outputs are registered
 * (job_register_output), else copied into the send buffer; counted in
 * spare_aggd_rdma_replies_{in_place,copied}_total.
 */
void queue_pull_reply(struct conn *c, struct agg_part *part);
/*
 * @c, an RDMA worker, has just attached to its job: start registering the
 * job's outputs (one region) for in-place replies, once per job, on a
 * thread of its own: the loop goes on (REGISTER is answered at once) and
 * the job's replies are copied until handle_done_regs() takes the result.
 * A failure (RLIMIT_MEMLOCK...) is logged and counted there
 * (spare_aggd_rdma_output_reg_failures_total), and not tried again: the
 * job's replies stay copied. Deregistered when the job is freed; a job
 * retired meanwhile is freed once its registration has ended, which is
 * then dropped.
 */
void job_register_output(struct conn *c);
/* Answer @c's REGISTER (its job's buffers are ready): job_register_output(),
 * then the REGISTER_REPLY. */
void job_register_reply(struct conn *c);
/*
 * REGISTER_WAIT (agg_proto.h) to @c, whose REGISTER waits for its job's
 * buffers (c->reg_pending) and asked to hear of it (c->reg_wait): bytes
 * made so far and in all. jobs_reg_wait_tick() (the reclaim timer, at
 * least every second) sends it again to each such connection whose last
 * one is half an AGG_REG_WAIT_INTERVAL_MS old or more.
 */
void job_send_reg_wait(struct conn *c);
void jobs_reg_wait_tick(void);
/* Helper threads' work ended (the eventfd fired): take the results of
 * the jobs' creations, their outputs' registrations and their frees. */
void handle_done_regs(void);
/*
 * agg_rdma_ops.offload: @run(@arg) on a helper thread, then @done(@arg,
 * exiting) on the loop (from handle_done_regs(), or jobs_free_all() with
 * @exiting true); g.rdma_setups_running counts them meanwhile. -1 (out
 * of memory): nothing was started.
 */
int jobs_offload(void (*run)(void *arg), void (*done)(void *arg, bool exiting),
		 void *arg);
/* Block until no helper thread runs, then take their results. */
void jobs_wait_regs(void);
/* conn_ops.pin: a SEND reads the partition's output (job->inflight,
 * part->sending). */
void job_pin(struct agg_job *job, uint32_t part, bool pinned);
/* The rank behind @c has pulled partition @part_index. */
void pull_reply_done(struct conn *c, uint32_t part_index);
/* The pool finished tasks (its eventfd fired). */
void handle_done_tasks(void);
/* The pool thread's work: one reduction. */
void pool_run(struct agg_task *t);
/* @c leaves its job; the job goes when its last worker has gone. */
void conn_detach(struct conn *c);

const struct moved_job *moved_find(const char *tenant, const char *name);
void moved_add(const struct job_entry *e, const struct agg_target *to,
	       uint32_t iter);
void send_redirect(struct conn *c, const struct agg_target *to, uint32_t iter);

/* Exiting: free every job (once no registration reads one) and every
 * moved-job record. */
void jobs_free_all(void);

#endif /* SPARE_AGGD_JOBS_H */
