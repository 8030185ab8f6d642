/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The elastic-training allocator of Hu et al., "An Optimal Resource Allocator
 * of Elastic Training for Deep Learning Jobs on Cloud" (arXiv 2109.03389).
 *
 * Each decision epoch gives every job one of its GPU options, or nothing, so
 * as to maximise the summed training progress rate  sum_j tput_j(k_j) /
 * remaining_j  within the cluster's GPUs. A job that holds GPUs now never
 * drops to zero. The model is a multiple-choice knapsack; it is solved as a
 * 0/1 integer programme with lp_solve 5.5 (mip_solve_lp), exactly by dynamic
 * programming over the capacity (mip_solve_dp, the test oracle), and the
 * baseline is the greedy FIFO allocator (mip_greedy_fifo).
 *
 * Pure functions over caller-owned arrays: no I/O, no clock. mip_solve_dp and
 * mip_greedy_fifo never allocate; mip_solve_lp allocates inside lp_solve
 * (make_lp/delete_lp) for each call, and nowhere else.
 */
#ifndef SPARE_SCHED_MIP_H
#define SPARE_SCHED_MIP_H

#include <stdbool.h>
#include <stddef.h>

#define MIP_MAX_OPT	16	/* options (GPU counts) per job */
#define MIP_NONE	(-1)	/* choice: the job gets no GPUs */

struct mip_job {
	unsigned int nopt;			/* 1..MIP_MAX_OPT */
	unsigned int gpus[MIP_MAX_OPT];		/* GPUs of each option, > 0 */
	double tput[MIP_MAX_OPT];		/* work units per second, > 0 */
	double remaining;			/* work units left, > 0 */
	bool running;				/* holds GPUs: must keep some */
};

/*
 * 0 if the instance is well formed and feasible; -EINVAL for a malformed job
 * (no options, a zero GPU count, a non-finite or non-positive rate or
 * remaining work); -ENOSPC if the running jobs' smallest options alone do not
 * fit in @cap.
 */
int mip_check(const struct mip_job *jobs, unsigned int n, unsigned int cap);

/* Objective of @choice (sum of tput/remaining); -1 if infeasible. */
double mip_value(const struct mip_job *jobs, unsigned int n, unsigned int cap,
		 const int *choice);

/* GPUs used by @choice. */
unsigned int mip_used(const struct mip_job *jobs, unsigned int n,
		      const int *choice);

/*
 * Greedy FIFO baseline: jobs in array order (the caller sorts them by
 * arrival); each gets its option with the most GPUs that fits in what is
 * left, after the smallest options of the running jobs behind it are set
 * aside. Returns mip_check()'s error, or 0.
 */
int mip_greedy_fifo(const struct mip_job *jobs, unsigned int n,
		    unsigned int cap, int *choice);

/* Bytes of workspace mip_solve_dp() needs. */
size_t mip_dp_ws_size(unsigned int n, unsigned int cap);

/*
 * Exact optimum by dynamic programming over the capacity: O(n * cap * opts)
 * time, @ws of mip_dp_ws_size() bytes (8-byte aligned). Ties go to the
 * option found first (fewest GPUs at equal value is not guaranteed).
 * Returns mip_check()'s error, -ENOBUFS if @ws_size is too small, or 0.
 */
int mip_solve_dp(const struct mip_job *jobs, unsigned int n, unsigned int cap,
		 void *ws, size_t ws_size, int *choice, double *value);

struct mip_lp_stats {
	int status;		/* lp_solve's solve() result */
	long long nodes;	/* branch-and-bound nodes */
};

/*
 * The same model as a 0/1 integer programme solved by lp_solve (binary
 * x[j][o], one row per job: sum_o x <= 1, or = 1 if running; one capacity
 * row). Returns mip_check()'s error, -ENOMEM if lp_solve could not build the
 * model, -EIO if it did not prove an optimum, or 0.
 */
int mip_solve_lp(const struct mip_job *jobs, unsigned int n, unsigned int cap,
		 int *choice, double *value, struct mip_lp_stats *st);

#endif /* SPARE_SCHED_MIP_H */
