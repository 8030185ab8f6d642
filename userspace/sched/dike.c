// SPDX-License-Identifier: GPL-2.0
/*
 * Dike-style placement of workers and parameter-server partitions on
 * heterogeneous hosts: cost model, heuristic search, exhaustive oracle.
 * See dike.h.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "dike.h"

int dike_check(const struct dike_model *m, const struct dike_host *h,
	       unsigned int nhosts, unsigned int max_parts)
{
	unsigned int gpus = 0;

	if (!m || !h || !m->layers || m->nlayers == 0 ||
	    m->nlayers > DIKE_MAX_LAYERS)
		return -EINVAL;
	if (nhosts == 0 || nhosts > DIKE_MAX_HOSTS || max_parts == 0 ||
	    max_parts > DIKE_MAX_PARTS)
		return -EINVAL;
	if (!(m->flops_per_sample > 0) || !isfinite(m->flops_per_sample) ||
	    !(m->batch > 0) || !isfinite(m->batch) ||
	    !(m->bytes_per_param > 0) || !isfinite(m->bytes_per_param))
		return -EINVAL;
	for (unsigned int i = 0; i < m->nlayers; i++)
		if (!(m->layers[i].params >= 0) || !isfinite(m->layers[i].params))
			return -EINVAL;
	for (unsigned int k = 0; k < nhosts; k++) {
		if (!(h[k].gpu_flops > 0) || !isfinite(h[k].gpu_flops) ||
		    h[k].cores == 0 || !(h[k].sum_rate > 0) ||
		    !isfinite(h[k].sum_rate) || !(h[k].nic_bps > 0) ||
		    !isfinite(h[k].nic_bps) || h[k].gpus > 1024)
			return -EINVAL;
		gpus += h[k].gpus;
	}
	return gpus ? 0 : -EINVAL;
}

/*
 * The cost from the worker vector and the parameters hosted on each host;
 * everything else in a placement only decides those.
 */
static void cost_loads(const struct dike_model *m, const struct dike_host *h,
		       unsigned int nhosts, const unsigned int *w,
		       const double *load, double total, struct dike_cost *c)
{
	double slowest = INFINITY, nic = 0, sum = 0;
	double bpp = m->bytes_per_param;
	unsigned int wt = 0;

	for (unsigned int k = 0; k < nhosts; k++) {
		wt += w[k];
		if (w[k] && h[k].gpu_flops < slowest)
			slowest = h[k].gpu_flops;
	}
	for (unsigned int k = 0; k < nhosts; k++) {
		double traffic = bpp * ((double)w[k] * (total - load[k]) +
					load[k] * (double)(wt - w[k]));
		double t_nic = traffic / h[k].nic_bps;
		double t_sum = load[k] * wt / (h[k].cores * h[k].sum_rate);

		if (t_nic > nic)
			nic = t_nic;
		if (t_sum > sum)
			sum = t_sum;
	}
	c->compute = m->batch / wt * m->flops_per_sample / slowest;
	c->nic = nic;
	c->sum = sum;
	c->throughput = m->batch / (c->compute + c->nic + c->sum);
}

static double range_params(const struct dike_model *m, unsigned int a,
			   unsigned int b)
{
	double s = 0;

	for (unsigned int i = a; i < b; i++)
		s += m->layers[i].params;
	return s;
}

static int place_valid(const struct dike_model *m, const struct dike_host *h,
		       unsigned int nhosts, const struct dike_place *p)
{
	unsigned int wt = 0, prev = 0;

	for (unsigned int k = 0; k < nhosts; k++) {
		if (p->workers[k] > h[k].gpus)
			return 0;
		wt += p->workers[k];
	}
	if (!wt || p->nparts == 0 || p->nparts > DIKE_MAX_PARTS)
		return 0;
	for (unsigned int q = 0; q < p->nparts; q++) {
		if (p->end[q] <= prev || p->host[q] >= nhosts)
			return 0;
		prev = p->end[q];
	}
	return prev == m->nlayers;
}

static void loads_of(const struct dike_model *m, unsigned int nhosts,
		     const struct dike_place *p, double *load, double *total)
{
	unsigned int start = 0;

	memset(load, 0, nhosts * sizeof(*load));
	*total = 0;
	for (unsigned int q = 0; q < p->nparts; q++) {
		double s = range_params(m, start, p->end[q]);

		load[p->host[q]] += s;
		*total += s;
		start = p->end[q];
	}
}

int dike_eval(const struct dike_model *m, const struct dike_host *h,
	      unsigned int nhosts, const struct dike_place *p,
	      struct dike_cost *c)
{
	double load[DIKE_MAX_HOSTS], total;
	int rc = dike_check(m, h, nhosts, 1);

	if (rc)
		return rc;
	if (!place_valid(m, h, nhosts, p))
		return -EINVAL;
	loads_of(m, nhosts, p, load, &total);
	cost_loads(m, h, nhosts, p->workers, load, total, c);
	return 0;
}

static double tput(const struct dike_model *m, const struct dike_host *h,
		   unsigned int nhosts, const struct dike_place *p)
{
	double load[DIKE_MAX_HOSTS], total;
	struct dike_cost c;

	if (!place_valid(m, h, nhosts, p))
		return -1;
	loads_of(m, nhosts, p, load, &total);
	cost_loads(m, h, nhosts, p->workers, load, total, &c);
	return c.throughput;
}

/* Cut into @np ranges of about equal parameters, then place largest first. */
static void initial_parts(const struct dike_model *m, const struct dike_host *h,
			  unsigned int nhosts, unsigned int np,
			  struct dike_place *p)
{
	double total = range_params(m, 0, m->nlayers), acc = 0;
	double load[DIKE_MAX_HOSTS] = { 0 }, size[DIKE_MAX_PARTS];
	unsigned int i = 0, order[DIKE_MAX_PARTS];
	bool done[DIKE_MAX_PARTS] = { false };

	p->nparts = np;
	for (unsigned int q = 0; q < np; q++) {
		unsigned int start = i;

		/* Leave at least one layer for each later partition. */
		while (i < m->nlayers - (np - 1 - q) &&
		       (i == start || acc < total * (q + 1) / np)) {
			acc += m->layers[i].params;
			i++;
		}
		if (q == np - 1)
			i = m->nlayers;
		p->end[q] = i;
		size[q] = range_params(m, start, i);
	}
	for (unsigned int r = 0; r < np; r++) {
		unsigned int big = 0;
		bool any = false;

		for (unsigned int q = 0; q < np; q++)
			if (!done[q] && (!any || size[q] > size[big])) {
				big = q;
				any = true;
			}
		done[big] = true;
		order[r] = big;
	}
	for (unsigned int r = 0; r < np; r++) {
		unsigned int q = order[r], bh = 0;
		double best = -1;

		for (unsigned int k = 0; k < nhosts; k++) {
			struct dike_cost c;

			load[k] += size[q];
			cost_loads(m, h, nhosts, p->workers, load, total, &c);
			load[k] -= size[q];
			if (c.throughput > best) {
				best = c.throughput;
				bh = k;
			}
		}
		p->host[q] = bh;
		load[bh] += size[q];
	}
}

/* One round of best-improvement local search; returns true if it moved. */
static bool improve(const struct dike_model *m, const struct dike_host *h,
		    unsigned int nhosts, unsigned int max_parts,
		    struct dike_place *p, double *cur)
{
	struct dike_place best = *p, t;
	double bv = *cur * (1 + 1e-12);
	bool moved = false;

#define TRY()								\
	do {								\
		double v = tput(m, h, nhosts, &t);			\
		if (v > bv) {						\
			bv = v;						\
			best = t;					\
			moved = true;					\
		}							\
	} while (0)

	for (unsigned int q = 0; q < p->nparts; q++)
		for (unsigned int k = 0; k < nhosts; k++) {
			t = *p;
			t.host[q] = k;
			TRY();
		}
	for (unsigned int q = 0; q + 1 < p->nparts; q++) {
		t = *p;
		t.end[q]++;
		TRY();
		t = *p;
		t.end[q]--;
		TRY();
	}
	for (unsigned int k = 0; k < nhosts; k++) {
		t = *p;
		t.workers[k]++;
		TRY();
		t = *p;
		if (t.workers[k]) {
			t.workers[k]--;
			TRY();
		}
	}
	/* Merge partition q and q + 1 onto either host. */
	for (unsigned int q = 0; q + 1 < p->nparts; q++) {
		for (unsigned int side = 0; side < 2; side++) {
			t = *p;
			t.host[q] = p->host[q + side];
			t.end[q] = p->end[q + 1];
			memmove(&t.end[q + 1], &t.end[q + 2],
				(p->nparts - q - 2) * sizeof(t.end[0]));
			memmove(&t.host[q + 1], &t.host[q + 2],
				(p->nparts - q - 2) * sizeof(t.host[0]));
			t.nparts--;
			TRY();
		}
	}
	/* Split partition q in the middle, the new half on any host. */
	if (p->nparts < max_parts) {
		for (unsigned int q = 0; q < p->nparts; q++) {
			unsigned int a = q ? p->end[q - 1] : 0, b = p->end[q];

			if (b - a < 2)
				continue;
			for (unsigned int k = 0; k < nhosts; k++) {
				t = *p;
				memmove(&t.end[q + 1], &t.end[q],
					(p->nparts - q) * sizeof(t.end[0]));
				memmove(&t.host[q + 1], &t.host[q],
					(p->nparts - q) * sizeof(t.host[0]));
				t.end[q] = a + (b - a) / 2;
				t.host[q + 1] = k;
				t.nparts++;
				TRY();
			}
		}
	}
#undef TRY
	if (moved) {
		*p = best;
		*cur = bv;
	}
	return moved;
}

int dike_search(const struct dike_model *m, const struct dike_host *h,
		unsigned int nhosts, unsigned int max_parts,
		struct dike_place *best, struct dike_cost *c)
{
	unsigned int byspeed[DIKE_MAX_HOSTS], nstart = 0, np_max;
	struct dike_place start[2 * DIKE_MAX_HOSTS + 1];
	double bv = -1;
	int rc = dike_check(m, h, nhosts, max_parts);

	if (rc)
		return rc;
	np_max = max_parts < m->nlayers ? max_parts : m->nlayers;

	/* Hosts by GPU speed, fastest first (insertion sort). */
	for (unsigned int k = 0; k < nhosts; k++) {
		unsigned int j = k;

		while (j && h[byspeed[j - 1]].gpu_flops < h[k].gpu_flops) {
			byspeed[j] = byspeed[j - 1];
			j--;
		}
		byspeed[j] = k;
	}
	/* Starts: the i fastest hosts with all their GPUs; each host alone. */
	for (unsigned int i = 1; i <= nhosts; i++) {
		struct dike_place *s = &start[nstart];

		memset(s, 0, sizeof(*s));
		for (unsigned int j = 0; j < i; j++)
			s->workers[byspeed[j]] = h[byspeed[j]].gpus;
		nstart++;
	}
	for (unsigned int k = 0; k < nhosts; k++) {
		struct dike_place *s = &start[nstart];

		memset(s, 0, sizeof(*s));
		s->workers[k] = h[k].gpus;
		nstart++;
	}
	for (unsigned int s = 0; s < nstart; s++) {
		unsigned int wt = 0;

		for (unsigned int k = 0; k < nhosts; k++)
			wt += start[s].workers[k];
		if (!wt)
			continue;
		for (unsigned int np = 1; np <= np_max; np++) {
			struct dike_place p = start[s];
			double v;

			initial_parts(m, h, nhosts, np, &p);
			v = tput(m, h, nhosts, &p);
			for (int round = 0; round < 100000; round++)
				if (!improve(m, h, nhosts, np_max, &p, &v))
					break;
			if (v > bv) {
				bv = v;
				*best = p;
			}
		}
	}
	return dike_eval(m, h, nhosts, best, c);
}

struct exh {
	const struct dike_model *m;
	const struct dike_host *h;
	unsigned int nhosts, np;
	double pre[DIKE_MAX_LAYERS + 1];
	unsigned int nw;
	unsigned int wv[625][4];
	struct dike_place cur, best;
	double bv;
};

/* Every host map of the current cuts, every worker vector. */
static void exh_maps(struct exh *e)
{
	unsigned int maps = 1, total_maps;
	double total = e->pre[e->m->nlayers];

	for (unsigned int q = 0; q < e->np; q++)
		maps *= e->nhosts;
	total_maps = maps;
	for (unsigned int mi = 0; mi < total_maps; mi++) {
		double load[DIKE_MAX_HOSTS] = { 0 };
		unsigned int x = mi, start = 0;

		for (unsigned int q = 0; q < e->np; q++) {
			e->cur.host[q] = x % e->nhosts;
			x /= e->nhosts;
			load[e->cur.host[q]] += e->pre[e->cur.end[q]] - e->pre[start];
			start = e->cur.end[q];
		}
		for (unsigned int wi = 0; wi < e->nw; wi++) {
			struct dike_cost c;

			cost_loads(e->m, e->h, e->nhosts, e->wv[wi], load, total, &c);
			if (c.throughput > e->bv) {
				e->bv = c.throughput;
				e->best = e->cur;
				e->best.nparts = e->np;
				memset(e->best.workers, 0, sizeof(e->best.workers));
				memcpy(e->best.workers, e->wv[wi],
				       e->nhosts * sizeof(unsigned int));
			}
		}
	}
}

/* Choose end[q..np-2]; end[np-1] is the last layer. */
static void exh_cuts(struct exh *e, unsigned int q, unsigned int from)
{
	unsigned int L = e->m->nlayers;

	if (q == e->np - 1) {
		e->cur.end[q] = L;
		exh_maps(e);
		return;
	}
	for (unsigned int c = from + 1; c + (e->np - 1 - q) <= L; c++) {
		e->cur.end[q] = c;
		exh_cuts(e, q + 1, c);
	}
}

int dike_exhaustive(const struct dike_model *m, const struct dike_host *h,
		    unsigned int nhosts, unsigned int max_parts,
		    struct dike_place *best, struct dike_cost *c)
{
	struct exh e;	/* about 18 KiB of stack */
	unsigned int np_max;
	int rc = dike_check(m, h, nhosts, max_parts);

	if (rc)
		return rc;
	if (nhosts > 4 || max_parts > 4)
		return -E2BIG;
	for (unsigned int k = 0; k < nhosts; k++)
		if (h[k].gpus > 4)
			return -E2BIG;
	memset(&e, 0, sizeof(e));
	e.m = m;
	e.h = h;
	e.nhosts = nhosts;
	e.bv = -1;
	for (unsigned int i = 0; i < m->nlayers; i++)
		e.pre[i + 1] = e.pre[i] + m->layers[i].params;
	/* Every worker vector but the empty one. */
	{
		unsigned int w[4] = { 0 };

		for (;;) {
			unsigned int k = 0, wt = 0;

			for (unsigned int j = 0; j < nhosts; j++)
				wt += w[j];
			if (wt) {
				memcpy(e.wv[e.nw], w, sizeof(w));
				e.nw++;
			}
			while (k < nhosts && w[k] == h[k].gpus) {
				w[k] = 0;
				k++;
			}
			if (k == nhosts)
				break;
			w[k]++;
		}
	}
	np_max = max_parts < m->nlayers ? max_parts : m->nlayers;
	for (e.np = 1; e.np <= np_max; e.np++) {
		e.cur.nparts = e.np;
		exh_cuts(&e, 0, 0);
	}
	*best = e.best;
	return dike_eval(m, h, nhosts, best, c);
}
