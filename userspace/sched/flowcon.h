/* SPDX-License-Identifier: GPL-2.0 */
/*
 * FlowCon (Zheng et al., "FlowCon: Elastic Flow Configuration for
 * Containerized Deep Learning Applications", ICPP 2019): elastic CPU shares
 * driven by how fast each job's loss still falls.
 *
 * Every interval each job reports its loss and CPU-seconds used. Its growth
 * efficiency is the loss drop since its last report relative to its first
 * loss, per CPU-second, smoothed by an EWMA. After k intervals in a row with
 * G < alpha * median(G) (over the jobs with a sample; for an even count the
 * mean of the two middle values), a job joins the watch list: its share is
 * cut by beta and the cut is given to the jobs not watched, pro rata to
 * their G. A watched job whose G recovers leaves the list; that, an arrival
 * and a completion reset the shares to an equal split, after which the jobs
 * still watched are cut again (the list itself survives a reset).
 *
 * Pure functions over caller-owned state: no I/O, no clock, no allocation.
 */
#ifndef SPARE_SCHED_FLOWCON_H
#define SPARE_SCHED_FLOWCON_H

#include <stdbool.h>

struct flowcon_params {
	double alpha;		/* watch threshold, fraction of the median G */
	double beta;		/* fraction of a watched job's share cut */
	double ewma;		/* weight of the newest sample, (0, 1] */
	unsigned int k;		/* low intervals in a row before watching */
	double min_share;	/* a share is never cut below this */
};

/* alpha 0.1, beta 0.5, ewma 0.5, k 3, min_share 0.1 (cores). */
extern const struct flowcon_params flowcon_defaults;

struct flowcon_job {
	bool active;
	unsigned int reports;
	double first_loss, last_loss, last_cpu;
	double g;		/* smoothed growth efficiency */
	unsigned int low;	/* intervals in a row below alpha * median */
	bool watched;
	double share;		/* cores (or any unit the caller splits) */
};

/* A new job: active, no reports, no share until flowcon_shares(). */
void flowcon_job_init(struct flowcon_job *j);

/*
 * A report: @loss (finite, > 0 for the first report) and cumulative
 * @cpu_seconds (non-decreasing). -EINVAL for bad values; the state is then
 * left as it was.
 */
int flowcon_report(const struct flowcon_params *p, struct flowcon_job *j,
		   double loss, double cpu_seconds);

enum {
	FLOWCON_RESET = 1,	/* shares were reset to an equal split */
	FLOWCON_CUT = 2,	/* some job joined the watch list */
};

/*
 * One interval's decision over @n jobs (inactive ones are skipped) sharing
 * @total. @reset is set by the caller on an arrival or a completion, and
 * whenever @total changes. Returns a mask of FLOWCON_RESET and FLOWCON_CUT,
 * or -EINVAL. The active shares always sum to @total.
 */
int flowcon_shares(const struct flowcon_params *p, struct flowcon_job *jobs,
		   unsigned int n, double total, bool reset);

#endif /* SPARE_SCHED_FLOWCON_H */
