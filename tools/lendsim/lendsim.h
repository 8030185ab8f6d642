/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lendsim: a cluster of spare donors lending what is idle to trainers,
 * simulated in steps. The donors run spared's own policy and eviction
 * choice (userspace/spared/lend.c); new and moved slabs are placed with the
 * broker's place_slab() (userspace/sched/place.c). Deterministic for a
 * seed. Documentation/perf-lending.md describes the model and its results.
 */
#ifndef LENDSIM_H
#define LENDSIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum lsim_mode {
	LSIM_IDLE,	/* spared with max-lend: lend_decide() */
	LSIM_FIXED,	/* spared with a fixed budget: never takes back */
};

struct lsim_params {
	uint64_t	seed;
	enum lsim_mode	mode;
	double		hours;		/* simulated time */
	unsigned int	step_s;		/* one reading per donor per step */
	/* donors */
	unsigned int	donors;
	unsigned int	racks;		/* failure domains, donors round-robin */
	unsigned int	donor_gib;	/* memory per donor */
	/* the donors' own jobs (fractions of donor memory) */
	double		base_frac;	/* steady use */
	double		diurnal_frac;	/* amplitude of the daily sine */
	double		diurnal_peak_h;	/* hour of the peak */
	double		phase_jitter_h;	/* per-donor shift of the peak, +- */
	double		noise_frac;	/* AR(1) noise, stationary sd */
	double		burst_per_h;	/* burst jobs per donor per hour */
	double		burst_min_frac, burst_max_frac; /* size, uniform */
	double		burst_mean_min;	/* duration, exponential */
	unsigned int	burst_ramp_s;	/* time a burst takes to allocate */
	/* trainers */
	unsigned int	trainers;
	unsigned int	trainer_gib;	/* local memory, always full */
	unsigned int	demand_min_gib, demand_max_gib; /* remote, per job */
	double		job_mean_h, gap_mean_h;
	unsigned int	place_per_step;	/* slabs a trainer maps per step */
	unsigned int	move_s;		/* time to move an evicted slab */
	double		reply_prob;	/* ACTIVITY_REPLY arrives in time */
	/* spared's settings */
	unsigned int	slab_gib;
	unsigned int	headroom_gib;
	unsigned int	grow_margin_gib;
	unsigned int	min_lend_gib, max_lend_gib;
	unsigned int	fixed_gib;	/* LSIM_FIXED budget */
	unsigned int	lend_idle_s;
	unsigned int	grow_step;
	double		psi_some, psi_full, psi_some_idle;
	unsigned int	evict_batch, evict_extra;
	/* checks */
	bool		check;		/* verify invariants every step */
};

void lsim_defaults(struct lsim_params *p);

/* Totals over the run (and per hour through the callback). */
struct lsim_totals {
	double		steps;
	double		util_none;	/* donor memory used without lending */
	double		util_lend;	/* ... with it (own resident + lent) */
	double		cluster_none;	/* donors and trainers together */
	double		cluster_lend;
	double		lent_slabs;	/* mean */
	double		demand_slabs;	/* mean remote demand */
	double		unmet_slabs;	/* mean demand not placed */
	uint64_t	placed, moved, unplaced, unmapped;
	uint64_t	evicted, batches, no_reply, grown, released;
	uint64_t	psi_events;
	double		stall_donor_s;	/* donor-seconds with PSI some > 0 */
	double		short_donor_s;	/* donor-seconds own jobs fit the host
					 * but not beside the lent slabs */
	uint64_t	short_episodes;	/* ... how many separate episodes */
	double		short_longest_s;
	double		overcommit_donor_s; /* own jobs alone above the host */
	uint64_t	violations;	/* invariant failures (check) */
};

typedef void (*lsim_hour_fn)(void *ctx, unsigned int hour,
			     const struct lsim_totals *hour_totals);

/* Run; 0, or -1 with a message in @err for bad parameters. */
int lsim_run(const struct lsim_params *p, struct lsim_totals *t,
	     lsim_hour_fn hour_fn, void *ctx, char *err, size_t errlen);

/* The parameters as "key value" lines. */
void lsim_print_params(const struct lsim_params *p, FILE *f);

#endif /* LENDSIM_H */
