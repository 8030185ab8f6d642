// SPDX-License-Identifier: GPL-2.0
/* SpeCon: slow-growth detection and the speculative move decision. */
#include <errno.h>
#include <math.h>

#include "specon.h"

const struct specon_params specon_defaults = {
	.alpha = 0.1, .move_cost = 5, .cooldown = 300,
};

/* True while @j may not return to the host it last left. */
static bool cooling(const struct specon_params *p, const struct specon_job *j)
{
	return j->moved && j->since_move < p->cooldown;
}

int specon_report(struct specon_job *j, double loss)
{
	if (!isfinite(loss) || !(loss > 0))
		return -EINVAL;
	j->prev_loss = j->loss;
	j->loss = loss;
	return 0;
}

bool specon_slow(const struct specon_params *p, const struct specon_job *j)
{
	if (!(j->prev_loss > 0) || !(j->loss > 0))
		return false;
	return (j->prev_loss - j->loss) / j->prev_loss < p->alpha;
}

/* Demand on host @k, with job @skip left out and job @add put in. */
static double host_demand(const struct specon_job *jobs, unsigned int n,
			  unsigned int k, int skip, int add)
{
	double d = 0;

	for (unsigned int i = 0; i < n; i++) {
		if ((int)i == skip || !jobs[i].active || jobs[i].moving)
			continue;
		if (jobs[i].host == k)
			d += jobs[i].demand;
	}
	if (add >= 0)
		d += jobs[add].demand;
	return d;
}

static double rate_on(double cores, double demand_sum, double demand)
{
	return demand_sum <= cores ? demand : demand * cores / demand_sum;
}

double specon_rate(const struct specon_host *h, unsigned int nhosts,
		   const struct specon_job *jobs, unsigned int n, unsigned int i)
{
	const struct specon_job *j = &jobs[i];

	if (!j->active || j->moving || j->host >= nhosts)
		return 0;
	return rate_on(h[j->host].cores, host_demand(jobs, n, j->host, -1, -1),
		       j->demand);
}

/*
 * Summed remaining time of the jobs on host @k, with @skip left out and
 * @add put in (whose own time is not counted: the caller adds it).
 */
static double host_time(const struct specon_host *h, const struct specon_job *jobs,
			unsigned int n, unsigned int k, int skip, int add)
{
	double dsum = host_demand(jobs, n, k, skip, add), t = 0;

	for (unsigned int i = 0; i < n; i++) {
		if ((int)i == skip || !jobs[i].active || jobs[i].moving ||
		    jobs[i].host != k)
			continue;
		t += jobs[i].remaining / rate_on(h[k].cores, dsum, jobs[i].demand);
	}
	return t;
}

int specon_decide(const struct specon_params *p, const struct specon_host *h,
		  unsigned int nhosts, const struct specon_job *jobs,
		  unsigned int n, struct specon_move *mv)
{
	mv->job = -1;
	mv->gain = 0;
	if (!(p->move_cost >= 0) || !isfinite(p->move_cost) ||
	    !(p->cooldown >= 0) || nhosts == 0)
		return -EINVAL;
	for (unsigned int k = 0; k < nhosts; k++)
		if (!(h[k].cores > 0) || !isfinite(h[k].cores))
			return -EINVAL;
	for (unsigned int i = 0; i < n; i++) {
		const struct specon_job *j = &jobs[i];

		if (!j->active)
			continue;
		if (j->host >= nhosts || !(j->demand > 0) || !isfinite(j->demand) ||
		    !(j->remaining >= 0) || !isfinite(j->remaining) ||
		    (j->moved && (!(j->since_move >= 0) || j->left >= nhosts)))
			return -EINVAL;
	}
	for (unsigned int i = 0; i < n; i++) {
		const struct specon_job *j = &jobs[i];
		unsigned int s = j->host, t = s;
		double best_load = INFINITY, before, after, gain, r_dst;

		if (!j->active || j->moving || !specon_slow(p, j))
			continue;
		/*
		 * The least-loaded other host by demand per core, but not the
		 * one it just left.
		 */
		for (unsigned int k = 0; k < nhosts; k++) {
			double load = host_demand(jobs, n, k, -1, -1) / h[k].cores;

			if (k == j->left && cooling(p, j))
				continue;
			if (k != s && load < best_load) {
				best_load = load;
				t = k;
			}
		}
		if (t == s)
			continue;
		r_dst = rate_on(h[t].cores, host_demand(jobs, n, t, -1, i), j->demand);
		before = host_time(h, jobs, n, s, -1, -1) +
			 host_time(h, jobs, n, t, -1, -1);
		after = host_time(h, jobs, n, s, (int)i, -1) +
			host_time(h, jobs, n, t, -1, (int)i) +
			j->remaining / r_dst + p->move_cost;
		gain = before - after;
		if (gain > 0 && gain > mv->gain) {
			mv->job = (int)i;
			mv->from = s;
			mv->to = t;
			mv->gain = gain;
		}
	}
	return 0;
}
