// SPDX-License-Identifier: GPL-2.0
/* FlowCon: growth efficiency, watch list and share redistribution. */
#include <errno.h>
#include <math.h>

#include "flowcon.h"

const struct flowcon_params flowcon_defaults = {
	.alpha = 0.1, .beta = 0.5, .ewma = 0.5, .k = 3, .min_share = 0.1,
};

void flowcon_job_init(struct flowcon_job *j)
{
	*j = (struct flowcon_job){ .active = true };
}

int flowcon_report(const struct flowcon_params *p, struct flowcon_job *j,
		   double loss, double cpu_seconds)
{
	double sample;

	if (!isfinite(loss) || !isfinite(cpu_seconds) || cpu_seconds < 0)
		return -EINVAL;
	if (j->reports == 0) {
		if (!(loss > 0))
			return -EINVAL;
		j->first_loss = loss;
		j->last_loss = loss;
		j->last_cpu = cpu_seconds;
		j->reports = 1;
		return 0;
	}
	if (cpu_seconds < j->last_cpu)
		return -EINVAL;
	if (cpu_seconds == j->last_cpu)
		return 0;	/* no CPU used: nothing to learn */
	sample = (j->last_loss - loss) / j->first_loss /
		 (cpu_seconds - j->last_cpu);
	j->g = j->reports == 1 ? sample :
	       p->ewma * sample + (1 - p->ewma) * j->g;
	j->last_loss = loss;
	j->last_cpu = cpu_seconds;
	j->reports++;
	return 0;
}

static bool has_g(const struct flowcon_job *j)
{
	return j->active && j->reports >= 2;
}

/* The G of rank @k (0-based, ascending) among jobs with a sample. */
static double g_of_rank(const struct flowcon_job *jobs, unsigned int n,
			unsigned int k)
{
	for (unsigned int i = 0; i < n; i++) {
		unsigned int below = 0, equal = 0;

		if (!has_g(&jobs[i]))
			continue;
		for (unsigned int j = 0; j < n; j++) {
			if (!has_g(&jobs[j]))
				continue;
			below += jobs[j].g < jobs[i].g;
			equal += jobs[j].g == jobs[i].g;
		}
		if (below <= k && k < below + equal)
			return jobs[i].g;
	}
	return NAN;	/* not reached: some job holds every rank < m */
}

/*
 * Median of G over active jobs with a growth sample; O(n^2), no scratch.
 * For an even count it is the mean of the two middle values, the usual
 * definition: with half the jobs converged, the lower middle value alone
 * would be a converged job's G and would hide the others' plateau.
 */
static bool median_g(const struct flowcon_job *jobs, unsigned int n,
		     double *med)
{
	unsigned int m = 0;

	for (unsigned int i = 0; i < n; i++)
		m += has_g(&jobs[i]);
	if (!m)
		return false;
	if (m % 2)
		*med = g_of_rank(jobs, n, m / 2);
	else
		*med = (g_of_rank(jobs, n, m / 2 - 1) +
			g_of_rank(jobs, n, m / 2)) / 2;
	return isfinite(*med);
}

/* Give @cut of job @i's share to the unwatched jobs, pro rata to G. */
static bool give_away(struct flowcon_job *jobs, unsigned int n, unsigned int i,
		      double cut)
{
	unsigned int takers = 0;
	double gsum = 0;

	for (unsigned int t = 0; t < n; t++)
		if (jobs[t].active && !jobs[t].watched && t != i) {
			takers++;
			gsum += fmax(jobs[t].g, 0);
		}
	if (!takers || !(cut > 0))
		return false;
	jobs[i].share -= cut;
	for (unsigned int t = 0; t < n; t++) {
		if (!jobs[t].active || jobs[t].watched || t == i)
			continue;
		jobs[t].share += gsum > 0 ? cut * fmax(jobs[t].g, 0) / gsum :
					   cut / takers;
	}
	return true;
}

static double cut_of(const struct flowcon_params *p, const struct flowcon_job *j)
{
	double cut = j->share * p->beta;

	if (j->share - cut < p->min_share)
		cut = j->share - p->min_share;
	return cut;
}

/*
 * An equal split, after which every job still on the watch list gives up
 * its cut again: the watch list outlives a reset, only a recovery ends a
 * job's stay on it.
 */
static void reset_shares(const struct flowcon_params *p,
			 struct flowcon_job *jobs, unsigned int n, double total)
{
	unsigned int m = 0;

	for (unsigned int i = 0; i < n; i++)
		m += jobs[i].active;
	for (unsigned int i = 0; i < n; i++)
		if (jobs[i].active)
			jobs[i].share = total / m;
	for (unsigned int i = 0; i < n; i++)
		if (jobs[i].active && jobs[i].watched)
			give_away(jobs, n, i, cut_of(p, &jobs[i]));
}

int flowcon_shares(const struct flowcon_params *p, struct flowcon_job *jobs,
		   unsigned int n, double total, bool reset)
{
	double med, thresh;
	int ret = 0;

	if (!(total > 0) || !isfinite(total) || !(p->alpha >= 0) ||
	    !(p->beta > 0 && p->beta < 1) || !(p->ewma > 0 && p->ewma <= 1) ||
	    p->k == 0 || !(p->min_share >= 0))
		return -EINVAL;
	if (reset) {
		reset_shares(p, jobs, n, total);
		ret = FLOWCON_RESET;
	}
	if (!median_g(jobs, n, &med) || !(med > 0))
		return ret;
	thresh = p->alpha * med;

	/* A watched job that recovered leaves the list and resets the shares. */
	for (unsigned int i = 0; i < n; i++) {
		struct flowcon_job *j = &jobs[i];

		if (j->active && j->watched && j->g >= thresh) {
			j->watched = false;
			j->low = 0;
			ret |= FLOWCON_RESET;
		}
	}
	if (ret & FLOWCON_RESET)
		reset_shares(p, jobs, n, total);
	for (unsigned int i = 0; i < n; i++) {
		struct flowcon_job *j = &jobs[i];

		if (!j->active || j->reports < 2 || j->watched)
			continue;
		if (j->g >= thresh) {
			j->low = 0;
			continue;
		}
		if (++j->low < p->k)
			continue;
		j->watched = true;
		if (give_away(jobs, n, i, cut_of(p, j)))
			ret |= FLOWCON_CUT;
	}
	return ret;
}
