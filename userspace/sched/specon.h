/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SpeCon (Mao et al., "Speculative Container Scheduling for Deep Learning
 * Applications in a Kubernetes Cluster", IEEE Systems Journal 2021,
 * arXiv 2010.11307): move slow-growing training jobs to the least-loaded
 * host when the move pays for itself.
 *
 * Every interval each job reports its loss. A job whose loss fell by less
 * than alpha (relative) over the last interval is slow-growing. For each
 * slow-growing job the least-loaded other host is the candidate target;
 * the model shares each host's cores among its jobs in proportion to their
 * demands (each capped at its demand), estimates every job's remaining
 * time as remaining work over rate, and takes the gain as the drop in the
 * summed remaining time of the jobs on both hosts. The best move whose gain
 * beats the move's cost (the moved job stands still for it) is returned.
 * A job does not go back to the host it last left within a cool-down after
 * that move (no ping-pong: see Documentation/sched-policies.md).
 *
 * Pure functions over caller-owned state: no I/O, no clock, no allocation.
 */
#ifndef SPARE_SCHED_SPECON_H
#define SPARE_SCHED_SPECON_H

#include <stdbool.h>

struct specon_params {
	double alpha;		/* slow growth: relative loss drop < alpha */
	double move_cost;	/* seconds a moved job makes no progress */
	double cooldown;	/* seconds before a job may return to the host
				 * it last left; 0: at once, INFINITY: never */
};

/*
 * alpha 0.1 per interval (SpeCon's deployment: threshold 0.1, 10 s), a 5 s
 * move, and a 300 s cool-down (our choice; SpeCon's is not published).
 */
extern const struct specon_params specon_defaults;

struct specon_host {
	double cores;
};

struct specon_job {
	bool active;
	bool moving;		/* in flight: neither counted nor moved */
	unsigned int host;
	double demand;		/* cores the job can use, > 0 */
	double remaining;	/* CPU-seconds of work left, >= 0 */
	double prev_loss, loss;	/* the last two reports; prev 0: none */
	bool moved;		/* it has moved: @left and @since_move hold */
	unsigned int left;	/* the host its last move left */
	double since_move;	/* seconds since that move began, >= 0 */
};

/* Record a loss report (finite, > 0). -EINVAL otherwise, state unchanged. */
int specon_report(struct specon_job *j, double loss);

/* True if @j has two reports and its loss fell by less than alpha. */
bool specon_slow(const struct specon_params *p, const struct specon_job *j);

/* Cores job @i gets on its host under the model. */
double specon_rate(const struct specon_host *h, unsigned int nhosts,
		   const struct specon_job *jobs, unsigned int n, unsigned int i);

struct specon_move {
	int job;		/* -1: no move */
	unsigned int from, to;
	double gain;		/* modelled seconds saved, after the move cost */
};

/*
 * The best move this interval, or job = -1. A job that moved less than
 * p->cooldown seconds ago does not go back to the host it left (the least
 * loaded of the others is its candidate). Returns 0, or -EINVAL for a job
 * on a host that does not exist, a bad demand, remaining work or
 * since_move, or a bad move cost or cool-down.
 */
int specon_decide(const struct specon_params *p, const struct specon_host *h,
		  unsigned int nhosts, const struct specon_job *jobs,
		  unsigned int n, struct specon_move *mv);

#endif /* SPARE_SCHED_SPECON_H */
