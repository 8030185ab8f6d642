// SPDX-License-Identifier: GPL-2.0
/*
 * Elastic-training allocator (arXiv 2109.03389): lp_solve model, exact DP
 * oracle and greedy FIFO baseline. See mip.h.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <lpsolve/lp_lib.h>

#include "mip.h"

static double opt_value(const struct mip_job *j, unsigned int o)
{
	return j->tput[o] / j->remaining;
}

static unsigned int min_gpus(const struct mip_job *j)
{
	unsigned int m = j->gpus[0];

	for (unsigned int o = 1; o < j->nopt; o++)
		if (j->gpus[o] < m)
			m = j->gpus[o];
	return m;
}

int mip_check(const struct mip_job *jobs, unsigned int n, unsigned int cap)
{
	unsigned long long need = 0;

	for (unsigned int i = 0; i < n; i++) {
		const struct mip_job *j = &jobs[i];

		if (j->nopt == 0 || j->nopt > MIP_MAX_OPT)
			return -EINVAL;
		if (!isfinite(j->remaining) || j->remaining <= 0)
			return -EINVAL;
		for (unsigned int o = 0; o < j->nopt; o++)
			if (j->gpus[o] == 0 || !isfinite(j->tput[o]) ||
			    j->tput[o] <= 0)
				return -EINVAL;
		if (j->running)
			need += min_gpus(j);
	}
	return need > cap ? -ENOSPC : 0;
}

unsigned int mip_used(const struct mip_job *jobs, unsigned int n,
		      const int *choice)
{
	unsigned int used = 0;

	for (unsigned int i = 0; i < n; i++)
		if (choice[i] != MIP_NONE)
			used += jobs[i].gpus[choice[i]];
	return used;
}

double mip_value(const struct mip_job *jobs, unsigned int n, unsigned int cap,
		 const int *choice)
{
	unsigned long long used = 0;
	double v = 0;

	for (unsigned int i = 0; i < n; i++) {
		if (choice[i] == MIP_NONE) {
			if (jobs[i].running)
				return -1;
			continue;
		}
		if (choice[i] < 0 || (unsigned int)choice[i] >= jobs[i].nopt)
			return -1;
		used += jobs[i].gpus[choice[i]];
		v += opt_value(&jobs[i], choice[i]);
	}
	return used > cap ? -1 : v;
}

int mip_greedy_fifo(const struct mip_job *jobs, unsigned int n,
		    unsigned int cap, int *choice)
{
	unsigned long long reserved = 0, left = cap;
	int rc = mip_check(jobs, n, cap);

	if (rc)
		return rc;
	for (unsigned int i = 0; i < n; i++)
		if (jobs[i].running)
			reserved += min_gpus(&jobs[i]);
	for (unsigned int i = 0; i < n; i++) {
		const struct mip_job *j = &jobs[i];
		unsigned long long avail;
		int best = MIP_NONE;

		if (j->running)
			reserved -= min_gpus(j);
		avail = left - reserved;
		for (unsigned int o = 0; o < j->nopt; o++)
			if (j->gpus[o] <= avail &&
			    (best == MIP_NONE || j->gpus[o] > j->gpus[best]))
				best = (int)o;
		choice[i] = best;
		if (best != MIP_NONE)
			left -= j->gpus[best];
	}
	return 0;
}

/*
 * Workspace: f[(cap + 1)] values for the previous and next row, then
 * n * (cap + 1) signed bytes: the option taken for job i at capacity c.
 */
size_t mip_dp_ws_size(unsigned int n, unsigned int cap)
{
	size_t w = (size_t)cap + 1;

	return 2 * w * sizeof(double) + (size_t)n * w;
}

int mip_solve_dp(const struct mip_job *jobs, unsigned int n, unsigned int cap,
		 void *ws, size_t ws_size, int *choice, double *value)
{
	size_t w = (size_t)cap + 1;
	double *prev, *next, *tmp;
	int8_t *take;
	unsigned int c;
	int rc;

	rc = mip_check(jobs, n, cap);
	if (rc)
		return rc;
	if (ws_size < mip_dp_ws_size(n, cap))
		return -ENOBUFS;
	prev = ws;
	next = prev + w;
	take = (int8_t *)(next + w);

	/* prev[c]: best value of the jobs so far using at most c GPUs. */
	for (c = 0; c <= cap; c++)
		prev[c] = 0;
	for (unsigned int i = 0; i < n; i++) {
		const struct mip_job *j = &jobs[i];
		int8_t *t = take + (size_t)i * w;

		for (c = 0; c <= cap; c++) {
			double best = j->running ? -INFINITY : prev[c];
			int8_t bo = MIP_NONE;

			for (unsigned int o = 0; o < j->nopt; o++) {
				double v;

				if (j->gpus[o] > c || prev[c - j->gpus[o]] == -INFINITY)
					continue;
				v = prev[c - j->gpus[o]] + opt_value(j, o);
				if (v > best) {
					best = v;
					bo = (int8_t)o;
				}
			}
			next[c] = best;
			t[c] = bo;
		}
		tmp = prev;
		prev = next;
		next = tmp;
	}
	/* mip_check() guaranteed feasibility, so prev[cap] is finite. */
	c = cap;
	for (unsigned int i = n; i-- > 0;) {
		int o = take[(size_t)i * w + c];

		choice[i] = o;
		if (o != MIP_NONE)
			c -= jobs[i].gpus[o];
	}
	if (value)
		*value = mip_value(jobs, n, cap, choice);
	return 0;
}

int mip_solve_lp(const struct mip_job *jobs, unsigned int n, unsigned int cap,
		 int *choice, double *value, struct mip_lp_stats *st)
{
	unsigned int col;
	double vmax = 0;
	lprec *lp;
	int rc;

	rc = mip_check(jobs, n, cap);
	if (rc)
		return rc;
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int o = 0; o < jobs[i].nopt; o++)
			vmax = fmax(vmax, opt_value(&jobs[i], o));
	}
	if (n == 0) {
		if (value)
			*value = 0;
		if (st)
			*st = (struct mip_lp_stats){ .status = OPTIMAL };
		return 0;
	}

	/*
	 * Rows 1..n: one per job, sum_o x[j][o] <= 1 (= 1 if running); row
	 * n + 1: the GPUs. Each column x[j][o] is binary with three entries:
	 * its scaled rate in the objective, 1 in its job's row and its GPUs in
	 * the capacity row. Rates are scaled so that the best option is worth
	 * 1: tput/remaining spans orders of magnitude and lp_solve's
	 * tolerances are absolute.
	 */
	lp = make_lp((int)n + 1, 0);
	if (!lp)
		return -ENOMEM;
	set_verbose(lp, NEUTRAL);
	set_maxim(lp);
	/* Prove the optimum rather than stop within the default 1e-9 gap. */
	set_mip_gap(lp, TRUE, 1e-12);
	set_mip_gap(lp, FALSE, 1e-12);
	for (unsigned int i = 0; i < n; i++) {
		if (!set_constr_type(lp, (int)i + 1, jobs[i].running ? EQ : LE) ||
		    !set_rh(lp, (int)i + 1, 1))
			goto nomem;
	}
	if (!set_constr_type(lp, (int)n + 1, LE) || !set_rh(lp, (int)n + 1, cap))
		goto nomem;
	col = 1;
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int o = 0; o < jobs[i].nopt; o++, col++) {
			REAL v[3] = { opt_value(&jobs[i], o) / vmax, 1,
				       jobs[i].gpus[o] };
			int rows[3] = { 0, (int)i + 1, (int)n + 1 };

			if (!add_columnex(lp, 3, v, rows) ||
			    !set_binary(lp, (int)col, TRUE))
				goto nomem;
		}
	}

	rc = solve(lp);
	if (st) {
		st->status = rc;
		st->nodes = (long long)get_total_nodes(lp);
	}
	if (rc != OPTIMAL) {
		delete_lp(lp);
		return -EIO;
	}
	{
		REAL *x;

		if (!get_ptr_variables(lp, &x)) {
			delete_lp(lp);
			return -EIO;
		}
		col = 0;
		for (unsigned int i = 0; i < n; i++) {
			choice[i] = MIP_NONE;
			for (unsigned int o = 0; o < jobs[i].nopt; o++, col++)
				if (x[col] > 0.5)
					choice[i] = (int)o;
		}
	}
	delete_lp(lp);
	if (value)
		*value = mip_value(jobs, n, cap, choice);
	return 0;
nomem:
	delete_lp(lp);
	return -ENOMEM;
}
