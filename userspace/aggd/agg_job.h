/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-aggd jobs and partitions: the per-partition push/pull state machine
 * and its buffers. Pure logic, no I/O and no locking: the daemon's event
 * loop owns every job.
 *
 * Sum on arrival: pushes are folded into the partition's running sum as
 * they land, in rank order (the order of agg_sum(), bit for bit). Rank r is
 * added once ranks 0..r-1 are in the sum; a push that arrives before its
 * turn waits in its slot and is folded when the ranks before it are in.
 * A fold is a task for the pool (agg_part_reduce): it adds ranks
 * [fold_from, fold_to) and, when fold_to is W, finishes the sum (rounds
 * half precision once, or runs the optimizer step). One fold per partition
 * runs at a time; a pool thread touches the running sum, the output and
 * the slots it folds only between a call returning 1 (agg_part_push_done,
 * agg_part_pull_done, agg_part_reduced) and the loop calling
 * agg_part_reduced(). The slots it reads belong to ranks that have pushed
 * the iteration, which cannot push again before its result is out.
 *
 * A partition serves one iteration at a time:
 *   COLLECT --(W pushes of iter)--> REDUCING --(last fold)--> READY
 *   READY --(W pulls of iter sent)--> COLLECT(iter + 1)
 * Folds run in COLLECT and REDUCING (REDUCING: every push is in).
 * A rank that has pulled iteration i may push and pull i + 1 while others
 * are still pulling i: its slot is free because the reduction of i is done,
 * and its pull waits for the reduction of i + 1. "Pulled" includes a reply
 * still being sent: the worker may already have it (the send completion can
 * be handled after the worker's next request arrives).
 */
#ifndef SPARE_AGG_JOB_H
#define SPARE_AGG_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "agg_proto.h"

enum agg_part_state {
	AGG_PART_COLLECT,
	AGG_PART_REDUCING,
	AGG_PART_READY,
};

#define AGG_SLOT_EMPTY	UINT64_MAX

struct agg_part {
	uint32_t index;
	uint32_t nelem;
	size_t bytes;			/* push/pull payload bytes */
	uint32_t iter;
	enum agg_part_state state;
	uint32_t n_pushed, n_pulled;
	uint64_t *slot_iter;		/* per rank; AGG_SLOT_EMPTY */
	uint64_t *pulled;		/* per rank: iterations pulled */
	uint8_t *pull_pending;		/* per rank: pull asked, not yet sent */
	uint8_t *next_pull;		/* per rank: pull of iter + 1 parked */
	void **slots;			/* per rank push buffers */
	/* per rank: where the push of slot_iter lies, slots[r] or a
	 * transport's receive buffer lent until the push is folded
	 * (loan[r], opaque here; agg_part_push_lent) */
	const void **in;
	void **loan;
	void *out;			/* sum, or weights with an optimizer */
	float *momentum;		/* optimizer state, or NULL */
	float *sum;			/* optimizer scratch, or NULL */
	bool weights_set;
	/* replies being sent from out in place (posted, not completed):
	 * nothing may write out meanwhile */
	unsigned int sending;
	/* sum on arrival: ranks 0..n_folded-1 of iter are in the running sum
	 * (out for fp32, sum with an optimizer, acc for fp16/bf16); while
	 * folding, the pool adds ranks [fold_from, fold_to) */
	float *acc;			/* binary32 running sums, or NULL */
	uint32_t n_folded, fold_from, fold_to;
	bool folding;
	uint64_t last_push_ns;		/* the loop's clock: iter's last push */
};

struct agg_job {
	uint32_t id;
	struct agg_job_spec spec;
	struct agg_part *parts;
	size_t mem_bytes;
	bool failed;
	char fail_msg[160];
	/* reductions handed to the pool, and pull replies whose SEND reads
	 * the output in place (posted, not yet completed or cut by a close) */
	unsigned int inflight;
	/* the job's buffers, one anonymous mapping (agg_job_alloc_bufs):
	 * every partition's output (parts[i].out) first, its head, so that
	 * one registration covers them (aggd_jobs.c: the in-place reply),
	 * then the slots and the optimizer's or fp16/bf16's sums */
	void *arena;
	size_t arena_bytes;
	void *out_region;		/* == arena once allocated */
	size_t out_region_bytes;
	/* being created: the shell is here (spec, per-rank arrays), the
	 * buffers are being allocated off the event loop; no partition's
	 * buffer may be touched. create_cancel: stop (read by that thread);
	 * create_made: bytes of the arena faulted in so far (written by
	 * that thread, atomically) */
	bool creating;
	int create_cancel;
	uint64_t create_made;
	void *out_reg;			/* its RDMA registration, or NULL */
	bool out_reg_failed;		/* tried once and failed: replies copied */
	bool out_reg_busy;		/* being registered, off the event loop */
	/* per rank: attached connection (opaque to this file), AGG_RANK_* */
	void **rank_conn;
	uint8_t *rank_left;
	unsigned int n_attached;
	/* idle timeout: last byte moved for this job, or reduction done */
	uint64_t last_active_ns;
	/* moving (agg_proto.h "Moving a job"): on the source, requests of
	 * iterations >= mig_barrier are held back while migrating; on the
	 * target, the job waits for its state while importing */
	bool migrating, importing;
	uint32_t mig_barrier;
	uint32_t mig_ready;		/* partitions at the barrier */
	void *mig;			/* the daemon's migration, or NULL */
	/* statistics */
	uint64_t pushes, pulls, reduces, bytes_in, reduce_ns;
	/* folds run on the event loop that received the push (aggd_jobs.c) */
	uint64_t recv_folds, recv_fold_ns;
};

/* rank_left: the rank is gone and may not register again (the values
 * travel in IMPORT_COMMIT: agg_proto.h AGG_DEPARTED_*) */
#define AGG_RANK_LEFT	AGG_DEPARTED_LEFT	/* sent LEAVE */
#define AGG_RANK_GONE	AGG_DEPARTED_GONE	/* disconnected, owing nothing */

/*
 * Is another rank waiting on a partition that this rank has not yet done
 * its share of (push of the waited-for iteration, or the pull that lets
 * the partition move on to it)? If so, the rank may not depart without
 * failing the job.
 */
bool agg_job_needs_rank(const struct agg_job *job, unsigned int rank);
/*
 * Can partition p still complete iteration 'iter' (p->iter or p->iter + 1)?
 * Returns a departed rank (rank_left set) whose share of it is missing,
 * or -1. A push or pull of 'iter' that gets a rank back would wait forever.
 */
int agg_part_departed_blocks(const struct agg_job *job,
			     const struct agg_part *p, uint32_t iter);

/* Bytes a job of this spec needs; 0 on overflow. */
size_t agg_job_mem_need(const struct agg_job_spec *spec);
/*
 * A job in two steps, so that the large part can run off the event loop:
 * the shell (agg_job_create_shell: the spec, the per-rank arrays, the
 * buffers' layout; small) and its buffers (agg_job_alloc_bufs: one
 * anonymous mapping, zero as mapped, its pages faulted in now so that the
 * first push does not pay for them). agg_job_alloc_bufs() touches nothing
 * but @job's buffers, so it may run on another thread while nothing else
 * touches them; it stops with -ECANCELED once *cancel is set (checked
 * every 32 MiB), and fails with -ENOMEM. agg_job_create() does both.
 * Both creators take ownership of *spec's arrays on success; NULL on ENOMEM.
 */
struct agg_job *agg_job_create_shell(uint32_t id, struct agg_job_spec *spec);
int agg_job_alloc_bufs(struct agg_job *job, const int *cancel);
struct agg_job *agg_job_create(uint32_t id, struct agg_job_spec *spec);
/* The buffers go (munmap); the shell stays. */
void agg_job_free_bufs(struct agg_job *job);
/* The caller has dropped out_reg's registration (no send reads it). */
void agg_job_free(struct agg_job *job);
void agg_job_fail(struct agg_job *job, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * May 'rank' push iteration 'iter'? 0 or -AGG_ESEQ. On 0 the payload
 * goes to agg_part_push_buf() and agg_part_push_done() follows.
 */
int agg_part_push_check(const struct agg_part *p, unsigned int rank,
			uint32_t iter);
void *agg_part_push_buf(struct agg_part *p, unsigned int rank);
/*
 * Instead of agg_part_push_buf(): the payload stays at @data, in a receive
 * buffer the transport lent (@loan), until the rank is folded. Then
 * agg_part_take_loan() gives @loan back to the caller, who returns it.
 */
void agg_part_push_lent(struct agg_part *p, unsigned int rank,
			const void *data, void *loan);
/* The rank's loan, or NULL; the rank's push is in its slot again. */
void *agg_part_take_loan(struct agg_part *p, unsigned int rank);
/* Returns 1 when a fold must be handed to the pool now (agg_part_reduce). */
int agg_part_push_done(struct agg_part *p, unsigned int n_workers,
		       unsigned int rank, uint32_t iter);
/*
 * The pool finished a fold. The partition is READY if that was the last
 * one. Returns 1 when the next fold must be handed to the pool now (pushes
 * came in while this one ran).
 */
int agg_part_reduced(struct agg_part *p, unsigned int n_workers);
/* 0: reply now; 1: park until reduced; -AGG_ESEQ: invalid. */
int agg_part_pull_check(struct agg_part *p, unsigned int rank, uint32_t iter);
/*
 * The reply for 'rank' has been sent. Returns 1 when the partition moved
 * to the next iteration and pushes of it that came early can be folded
 * now (a fold must be handed to the pool).
 */
int agg_part_pull_done(struct agg_part *p, unsigned int n_workers,
		       unsigned int rank);
/* SET_WEIGHTS: 0 or -AGG_ESTATE (also while a reply is being sent from
 * the output it would overwrite: part->sending). */
int agg_part_weights_check(const struct agg_job *job, const struct agg_part *p,
			   unsigned int rank);
/*
 * Moving a job. The barrier is the first iteration that no partition has
 * accepted any work of (a push, a pull, a reduction), and at least every
 * partition's current iteration (and 1 with a server optimizer, so that
 * SET_WEIGHTS is over). Once the source holds back every request of
 * iterations >= barrier, the job is quiescent when every partition is at
 * the barrier: agg_part_at_barrier() for all of them.
 */
uint32_t agg_job_barrier(const struct agg_job *job);
bool agg_part_at_barrier(const struct agg_part *p, unsigned int n_workers,
			 uint32_t barrier);
/* Target side: every partition starts at iteration iter (all ranks have
 * pulled iter - 1; optimizer weights came with the import). */
void agg_job_import_start(struct agg_job *job, uint32_t iter);

/* A fold (the ranks fold_from..fold_to - 1); runs on a pool thread. */
void agg_part_reduce(const struct agg_job *job, struct agg_part *p);

#endif /* SPARE_AGG_JOB_H */
