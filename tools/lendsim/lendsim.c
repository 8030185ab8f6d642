// SPDX-License-Identifier: GPL-2.0
/*
 * lendsim: the simulation. See lendsim.h and Documentation/perf-lending.md.
 *
 * Memory is counted in GiB (doubles) for the donors' own jobs and in whole
 * slabs for lending. Every random draw comes from one of four streams
 * (profile, trainers, policy sampling, placement), so the donors' own
 * memory profile and the trainers' demand are the same in every mode.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lend.h"
#include "lendsim.h"
#include "place.h"

#define GiB		(1ULL << 30)
#define MAX_BURSTS	16
#define PSI_LOW_GIB	2.0	/* below this MemAvailable, reclaim stalls */
#define PSI_SPAN_GIB	8.0	/* ... fully stalled this far below it */
#define TRIGGER_STALL	0.15	/* the default trigger: 150 ms per 1 s */

void lsim_defaults(struct lsim_params *p)
{
	memset(p, 0, sizeof(*p));
	p->seed = 1;
	p->mode = LSIM_IDLE;
	p->hours = 24;
	p->step_s = 5;
	p->donors = 64;
	p->racks = 8;
	p->donor_gib = 256;
	p->base_frac = 0.25;
	p->diurnal_frac = 0.15;
	p->diurnal_peak_h = 14;
	p->phase_jitter_h = 2;
	p->noise_frac = 0.02;
	p->burst_per_h = 0.5;
	p->burst_min_frac = 0.05;
	p->burst_max_frac = 0.35;
	p->burst_mean_min = 40;
	p->burst_ramp_s = 120;
	p->trainers = 16;
	p->trainer_gib = 512;
	p->demand_min_gib = 128;
	p->demand_max_gib = 768;
	p->job_mean_h = 3;
	p->gap_mean_h = 0.5;
	p->place_per_step = 16;
	p->move_s = 2;
	p->reply_prob = 0.98;
	p->slab_gib = 1;
	p->headroom_gib = 16;
	p->min_lend_gib = 0;
	p->max_lend_gib = 192;
	p->fixed_gib = 96;
	p->lend_idle_s = 60;
	p->grow_step = 4;
	p->psi_some = 10;
	p->psi_full = 2;
	p->psi_some_idle = 1;
	p->evict_batch = 2;
	p->evict_extra = 2;
}

void lsim_print_params(const struct lsim_params *p, FILE *f)
{
	fprintf(f, "seed %llu\nmode %s\nhours %g\nstep_s %u\n",
		(unsigned long long)p->seed, p->mode == LSIM_IDLE ? "idle" : "fixed",
		p->hours, p->step_s);
	fprintf(f, "donors %u\nracks %u\ndonor_gib %u\n", p->donors, p->racks,
		p->donor_gib);
	fprintf(f, "own_base_frac %g\nown_diurnal_frac %g\nown_diurnal_peak_h %g\n"
		"own_phase_jitter_h %g\nown_noise_frac %g\n", p->base_frac,
		p->diurnal_frac, p->diurnal_peak_h, p->phase_jitter_h, p->noise_frac);
	fprintf(f, "burst_per_h %g\nburst_frac %g-%g\nburst_mean_min %g\nburst_ramp_s %u\n",
		p->burst_per_h, p->burst_min_frac, p->burst_max_frac,
		p->burst_mean_min, p->burst_ramp_s);
	fprintf(f, "trainers %u\ntrainer_gib %u\ndemand_gib %u-%u\njob_mean_h %g\ngap_mean_h %g\n",
		p->trainers, p->trainer_gib, p->demand_min_gib, p->demand_max_gib,
		p->job_mean_h, p->gap_mean_h);
	fprintf(f, "place_per_step %u\nmove_s %u\nreply_prob %g\n", p->place_per_step,
		p->move_s, p->reply_prob);
	fprintf(f, "grow_margin_gib %u\n", p->grow_margin_gib);
	fprintf(f, "slab_gib %u\nheadroom_gib %u\nmin_lend_gib %u\nmax_lend_gib %u\nfixed_gib %u\n",
		p->slab_gib, p->headroom_gib, p->min_lend_gib, p->max_lend_gib,
		p->fixed_gib);
	fprintf(f, "lend_idle_s %u\ngrow_step %u\npsi_some %g\npsi_full %g\npsi_some_idle %g\n"
		"evict_batch %u\nevict_extra %u\n", p->lend_idle_s, p->grow_step,
		p->psi_some, p->psi_full, p->psi_some_idle, p->evict_batch,
		p->evict_extra);
}

struct burst {
	double	gib, start, end;
};

struct lslab {
	uint32_t	donor, trainer;
	double		hot;		/* mean accesses per query */
	double		return_t;	/* evicting: back at this time */
	bool		live, evicting;
};

struct ldonor {
	double		base, phase_h, noise;
	struct burst	bursts[MAX_BURSTS];
	unsigned int	nbursts;
	double		own;		/* GiB the own jobs want now */
	unsigned int	cap, lent, evicting;
	uint32_t	*slabs;		/* ids of lent slabs */
	unsigned int	nslabs;
	double		psi_some, psi_full;	/* EMA, % */
	struct lend_state st;
	bool		in_short;
	double		short_start;
};

struct ltrainer {
	unsigned int	demand, held, moves;
	double		job_end, gap_end;
	bool		running;
};

struct lsim {
	const struct lsim_params *p;
	struct ldonor	*d;
	struct ltrainer	*tr;
	struct lslab	*slabs;
	uint32_t	*free_ids;
	unsigned int	nfree_ids, nslab_recs;
	struct place_donor *pd;
	uint32_t	*cand, *scratch;
	struct spare_rng	prof, trng, pol;
	struct spare_rng prng;
	struct lend_params lp;
	unsigned int	max_slabs;
};

static double unif(struct spare_rng *r)
{
	return (double)(spare_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

static double expo(struct spare_rng *r, double mean)
{
	return -mean * log(1.0 - unif(r));
}

static double gauss(struct spare_rng *r)
{
	double u = unif(r), v = unif(r);

	return sqrt(-2.0 * log(1.0 - u)) * cos(2 * M_PI * v);
}

/* The own jobs' wish at time @t (s), advancing the profile one step. */
static void own_step(struct lsim *s, struct ldonor *d, double t)
{
	const struct lsim_params *p = s->p;
	double T = p->donor_gib, h = t / 3600.0, want, a;
	unsigned int i;

	/* AR(1) with stationary sd noise_frac*T, ~10 min correlation. */
	a = exp(-(double)p->step_s / 600.0);
	d->noise = a * d->noise + sqrt(1 - a * a) * p->noise_frac * T * gauss(&s->prof);
	if (unif(&s->prof) < p->burst_per_h * p->step_s / 3600.0) {
		double size = (p->burst_min_frac +
			       (p->burst_max_frac - p->burst_min_frac) * unif(&s->prof)) * T;
		double dur = expo(&s->prof, p->burst_mean_min * 60);

		if (d->nbursts < MAX_BURSTS)
			d->bursts[d->nbursts++] = (struct burst){ size, t, t + dur };
	}
	want = d->base + p->diurnal_frac * T *
	       cos(2 * M_PI * (h - p->diurnal_peak_h - d->phase_h) / 24.0) + d->noise;
	for (i = 0; i < d->nbursts;) {
		struct burst *b = &d->bursts[i];

		if (t >= b->end) {
			*b = d->bursts[--d->nbursts];
			continue;
		}
		want += b->gib * fmin(1.0, (t - b->start + p->step_s) /
					   (p->burst_ramp_s ? p->burst_ramp_s : 1));
		i++;
	}
	d->own = fmax(0.0, want);
}

static uint32_t slab_new(struct lsim *s)
{
	return s->free_ids[--s->nfree_ids];
}

static void donor_drop(struct ldonor *d, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < d->nslabs; i++)
		if (d->slabs[i] == id) {
			d->slabs[i] = d->slabs[--d->nslabs];
			return;
		}
}

static void slab_free(struct lsim *s, uint32_t id)
{
	struct lslab *l = &s->slabs[id];
	struct ldonor *d = &s->d[l->donor];

	donor_drop(d, id);
	d->lent--;
	if (l->evicting)
		d->evicting--;
	l->live = false;
	l->evicting = false;
	s->free_ids[s->nfree_ids++] = id;
}

static void trainer_step(struct lsim *s, unsigned int j, double t,
			 struct lsim_totals *tt)
{
	const struct lsim_params *p = s->p;
	struct ltrainer *tr = &s->tr[j];
	unsigned int i;

	if (tr->running && t >= tr->job_end) {
		tr->running = false;
		tr->demand = 0;
		tr->gap_end = t + expo(&s->trng, p->gap_mean_h * 3600);
	} else if (!tr->running && t >= tr->gap_end) {
		tr->running = true;
		tr->demand = (p->demand_min_gib + (unsigned int)((p->demand_max_gib -
			      p->demand_min_gib) * unif(&s->trng))) / p->slab_gib;
		tr->job_end = t + expo(&s->trng, p->job_mean_h * 3600);
	}
	/* Give back what the job no longer wants (a job's end: all). */
	for (i = 0; i < s->nslab_recs && tr->held > tr->demand; i++) {
		struct lslab *l = &s->slabs[i];

		if (l->live && !l->evicting && l->trainer == j) {
			slab_free(s, i);
			tr->held--;
			tt->unmapped++;
		}
	}
	if (tr->moves > tr->demand - tr->held)
		tr->moves = tr->demand - tr->held;	/* the job wants less now */
}

/* Place up to place_per_step slabs for trainer @j: moves first. */
static void trainer_place(struct lsim *s, unsigned int j, struct lsim_totals *tt)
{
	const struct lsim_params *p = s->p;
	struct ltrainer *tr = &s->tr[j];
	unsigned int n = 0;
	bool full = false;

	while (tr->held < tr->demand && n < p->place_per_step) {
		uint32_t out, id;
		struct lslab *l;
		struct ldonor *d;

		if (place_slab(s->pd, p->donors, 1, &s->prng, &out)) {
			full = true;
			break;
		}
		if (s->pd[out].free_slabs == 0) {
			tt->violations++;	/* placement chose a full donor */
			break;
		}
		s->pd[out].free_slabs--;
		id = slab_new(s);
		l = &s->slabs[id];
		d = &s->d[out];
		*l = (struct lslab){ .donor = out, .trainer = j, .live = true,
				     .hot = expo(&s->pol, 1000.0) };
		d->slabs[d->nslabs++] = id;
		d->lent++;
		tr->held++;
		n++;
		if (tr->moves) {
			tr->moves--;
			tt->moved++;
		} else {
			tt->placed++;
		}
	}
	if (tr->moves && full) {
		/* No room anywhere: that data stays on the backup device. */
		tt->unplaced += tr->moves;
		tr->moves = 0;
	}
}

/* Batch eviction on donor @di: sample E+E', evict the E least active. */
static void donor_evict(struct lsim *s, unsigned int di, unsigned int e,
			double t, struct lsim_totals *tt)
{
	const struct lsim_params *p = s->p;
	struct ldonor *d = &s->d[di];
	struct lend_candidate c[256];
	uint32_t idx[256];
	size_t ncand = 0, k, i, nv;

	for (i = 0; i < d->nslabs; i++)
		if (!s->slabs[d->slabs[i]].evicting)
			s->cand[ncand++] = d->slabs[i];
	if (e > 128)
		e = 128;
	k = lend_sample(ncand, e + p->evict_extra, &s->pol, s->scratch, idx);
	for (i = 0; i < k; i++) {
		struct lslab *l = &s->slabs[s->cand[idx[i]]];

		c[i].id = s->cand[idx[i]];
		c[i].replied = unif(&s->pol) < p->reply_prob;
		c[i].accesses = (uint64_t)(l->hot * (0.5 + unif(&s->pol)));
		c[i].lent_seq = c[i].id;
		if (!c[i].replied)
			tt->no_reply++;
	}
	nv = lend_choose_victims(c, k, e);
	tt->batches++;
	for (i = 0; i < nv; i++) {
		struct lslab *l = &s->slabs[c[i].id];

		if (!l->live || l->evicting || l->donor != di) {
			tt->violations++;
			continue;
		}
		l->evicting = true;
		l->return_t = t + p->move_s;
		d->evicting++;
		s->tr[l->trainer].held--;
		s->tr[l->trainer].moves++;
		tt->evicted++;
	}
}

static void donor_policy(struct lsim *s, unsigned int di, double t,
			 double avail, unsigned int events, struct lsim_totals *tt)
{
	struct ldonor *d = &s->d[di];
	struct lend_input in = {
		.now_ms		= (uint64_t)(t * 1000),
		.mem_available	= avail > 0 ? (uint64_t)(avail * GiB) : 0,
		.psi_valid	= true,
		.psi_some_avg10	= d->psi_some,
		.psi_full_avg10	= d->psi_full,
		.psi_events	= events,
		.cap		= d->cap > d->lent ? d->cap : d->lent,
		.lent		= d->lent,
		.evicting	= d->evicting,
	};
	struct lend_decision dec = lend_decide(&s->lp, &d->st, &in);
	unsigned int drop;

	switch (dec.action) {
	case LEND_HOLD:
		return;
	case LEND_GROW:
		d->cap = in.cap + dec.grow;
		tt->grown += dec.grow;
		return;
	case LEND_RELEASE:
	case LEND_EVICT:
		drop = dec.release + dec.evict;
		d->cap = in.cap > drop ? in.cap - drop : 0;
		tt->released += dec.release;
		if (dec.evict)
			donor_evict(s, di, dec.evict, t, tt);
		return;
	}
}

static void check_step(struct lsim *s, struct lsim_totals *tt)
{
	const struct lsim_params *p = s->p;
	unsigned int i, held = 0, lent = 0, evicting = 0;
	unsigned int minc = p->min_lend_gib / p->slab_gib;

	for (i = 0; i < p->donors; i++) {
		struct ldonor *d = &s->d[i];

		if (d->lent > s->max_slabs || d->nslabs != d->lent ||
		    d->evicting > d->lent || d->cap > s->max_slabs ||
		    (p->mode == LSIM_IDLE && d->cap < minc) ||
		    d->lent > d->cap + d->evicting)
			tt->violations++;
		lent += d->lent;
		evicting += d->evicting;
	}
	for (i = 0; i < p->trainers; i++) {
		held += s->tr[i].held;
		if (s->tr[i].held > s->tr[i].demand)
			tt->violations++;
	}
	if (held + evicting != lent)
		tt->violations++;
}

static int lsim_setup(struct lsim *s, const struct lsim_params *p, char *err,
		      size_t errlen)
{
	unsigned int i;
	const char *why;

	memset(s, 0, sizeof(*s));
	s->p = p;
	if (!p->donors || !p->racks || !p->slab_gib || !p->step_s || p->hours <= 0 ||
	    p->donor_gib <= p->headroom_gib || p->demand_max_gib < p->demand_min_gib ||
	    p->max_lend_gib > p->donor_gib || p->fixed_gib > p->donor_gib ||
	    p->evict_batch + p->evict_extra > 256) {
		snprintf(err, errlen, "inconsistent parameters");
		return -1;
	}
	s->max_slabs = (p->mode == LSIM_IDLE ? p->max_lend_gib : p->fixed_gib) / p->slab_gib;
	s->lp = (struct lend_params){
		.slab_size = (uint64_t)p->slab_gib * GiB,
		.headroom = (uint64_t)p->headroom_gib * GiB,
		.grow_margin = (uint64_t)p->grow_margin_gib * GiB,
		.min_slabs = p->min_lend_gib / p->slab_gib,
		.max_slabs = s->max_slabs,
		.psi_some_high = p->psi_some, .psi_full_high = p->psi_full,
		.psi_some_idle = p->psi_some_idle,
		.idle_ms = (uint64_t)p->lend_idle_s * 1000,
		.grow_step = p->grow_step, .evict_batch = p->evict_batch,
	};
	if (p->mode == LSIM_IDLE && (why = lend_params_check(&s->lp))) {
		snprintf(err, errlen, "policy: %s", why);
		return -1;
	}
	s->nslab_recs = p->donors * s->max_slabs;
	s->d = calloc(p->donors, sizeof(*s->d));
	s->tr = calloc(p->trainers ? p->trainers : 1, sizeof(*s->tr));
	s->slabs = calloc(s->nslab_recs + 1, sizeof(*s->slabs));
	s->free_ids = calloc(s->nslab_recs + 1, sizeof(*s->free_ids));
	s->pd = calloc(p->donors, sizeof(*s->pd));
	s->cand = calloc(s->max_slabs + 1, sizeof(*s->cand));
	s->scratch = calloc(s->max_slabs + 1, sizeof(*s->scratch));
	if (!s->d || !s->tr || !s->slabs || !s->free_ids || !s->pd || !s->cand ||
	    !s->scratch) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < s->nslab_recs; i++)
		s->free_ids[s->nfree_ids++] = s->nslab_recs - 1 - i;
	s->prof.s = p->seed * 0x9e3779b97f4a7c15ULL + 1;
	s->trng.s = p->seed * 0xbf58476d1ce4e5b9ULL + 2;
	s->pol.s = p->seed * 0x94d049bb133111ebULL + 3;
	s->prng.s = p->seed * 0x2545f4914f6cdd1dULL + 4;
	for (i = 0; i < p->donors; i++) {
		struct ldonor *d = &s->d[i];

		d->slabs = calloc(s->max_slabs + 1, sizeof(*d->slabs));
		if (!d->slabs) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		d->base = p->base_frac * p->donor_gib * (0.8 + 0.4 * unif(&s->prof));
		d->phase_h = (2 * unif(&s->prof) - 1) * p->phase_jitter_h;
		d->cap = p->mode == LSIM_IDLE ? s->lp.min_slabs : s->max_slabs;
		s->pd[i].domain = i % p->racks;
	}
	for (i = 0; i < p->trainers; i++)
		s->tr[i].gap_end = expo(&s->trng, p->gap_mean_h * 3600);
	return 0;
}

static void lsim_free(struct lsim *s)
{
	unsigned int i;

	if (s->d)
		for (i = 0; i < s->p->donors; i++)
			free(s->d[i].slabs);
	free(s->d);
	free(s->tr);
	free(s->slabs);
	free(s->free_ids);
	free(s->pd);
	free(s->cand);
	free(s->scratch);
}

static void add_totals(struct lsim_totals *a, const struct lsim_totals *b)
{
	a->steps += b->steps;
	a->util_none += b->util_none;
	a->util_lend += b->util_lend;
	a->cluster_none += b->cluster_none;
	a->cluster_lend += b->cluster_lend;
	a->lent_slabs += b->lent_slabs;
	a->demand_slabs += b->demand_slabs;
	a->unmet_slabs += b->unmet_slabs;
	a->placed += b->placed;
	a->moved += b->moved;
	a->unplaced += b->unplaced;
	a->unmapped += b->unmapped;
	a->evicted += b->evicted;
	a->batches += b->batches;
	a->no_reply += b->no_reply;
	a->grown += b->grown;
	a->released += b->released;
	a->psi_events += b->psi_events;
	a->stall_donor_s += b->stall_donor_s;
	a->short_donor_s += b->short_donor_s;
	a->short_episodes += b->short_episodes;
	a->overcommit_donor_s += b->overcommit_donor_s;
	if (b->short_longest_s > a->short_longest_s)
		a->short_longest_s = b->short_longest_s;
	a->violations += b->violations;
}

/* Sums of per-step figures become means. */
static void finish_means(struct lsim_totals *t)
{
	if (!t->steps)
		return;
	t->util_none /= t->steps;
	t->util_lend /= t->steps;
	t->cluster_none /= t->steps;
	t->cluster_lend /= t->steps;
	t->lent_slabs /= t->steps;
	t->demand_slabs /= t->steps;
	t->unmet_slabs /= t->steps;
}

int lsim_run(const struct lsim_params *p, struct lsim_totals *out,
	     lsim_hour_fn hour_fn, void *ctx, char *err, size_t errlen)
{
	struct lsim s;
	struct lsim_totals hour = { 0 }, all = { 0 };
	const double steps = floor(p->hours * 3600.0 / p->step_s);
	const double alpha = 1.0 - exp(-(double)p->step_s / 10.0);
	const double donor_total = (double)p->donors * p->donor_gib;
	const double train_total = (double)p->trainers * p->trainer_gib;
	unsigned int hour_no = 0, i, j, first = 0;
	double k;

	if (lsim_setup(&s, p, err, errlen)) {
		lsim_free(&s);
		return -1;
	}
	for (k = 0; k < steps; k++) {
		double t = k * p->step_s, used_none = 0, used_lend = 0;
		unsigned int demand = 0, held = 0;

		/* 1. own jobs; evicted slabs coming back */
		for (i = 0; i < p->donors; i++) {
			struct ldonor *d = &s.d[i];

			own_step(&s, d, t);
			for (j = 0; j < d->nslabs;) {
				struct lslab *l = &s.slabs[d->slabs[j]];

				if (l->evicting && t >= l->return_t)
					slab_free(&s, d->slabs[j]);
				else
					j++;
			}
		}
		/* 2. each donor reads its memory and PSI, and decides */
		for (i = 0; i < p->donors; i++) {
			struct ldonor *d = &s.d[i];
			double avail = p->donor_gib - d->own -
				       (double)d->lent * p->slab_gib;
			double stall = avail >= PSI_LOW_GIB ? 0 :
				fmin(1.0, (PSI_LOW_GIB - avail) / PSI_SPAN_GIB);
			unsigned int ev = stall >= TRIGGER_STALL;

			d->psi_some += alpha * (100 * stall - d->psi_some);
			d->psi_full += alpha * (100 * stall * stall - d->psi_full);
			hour.psi_events += ev;
			if (p->mode == LSIM_IDLE)
				donor_policy(&s, i, t, avail, ev, &hour);
		}
		/* 3. trainers: demand, then placement over the free slabs */
		for (j = 0; j < p->trainers; j++)
			trainer_step(&s, j, t, &hour);
		for (i = 0; i < p->donors; i++) {
			struct ldonor *d = &s.d[i];

			s.pd[i].free_slabs = d->cap > d->lent ? d->cap - d->lent : 0;
		}
		for (j = 0; j < p->trainers; j++)
			trainer_place(&s, (first + j) % p->trainers, &hour);
		first = p->trainers ? (first + 1) % p->trainers : 0;
		/* 4. what the step looked like */
		for (i = 0; i < p->donors; i++) {
			struct ldonor *d = &s.d[i];
			double T = p->donor_gib, lent = (double)d->lent * p->slab_gib;
			double own_res = fmax(0.0, fmin(d->own, T - lent));
			/* Lending's fault only: own jobs that fit the host but
			 * not beside the pinned lent slabs. */
			bool shortfall = d->own > T - lent && d->own <= T;

			used_none += fmin(d->own, T);
			if (d->own > T)
				hour.overcommit_donor_s += p->step_s;
			used_lend += fmin(T, own_res + lent);
			if (T - d->own - lent < PSI_LOW_GIB)	/* reclaim stalls */
				hour.stall_donor_s += p->step_s;
			if (shortfall) {
				hour.short_donor_s += p->step_s;
				if (!d->in_short) {
					d->in_short = true;
					d->short_start = t;
					hour.short_episodes++;
				}
			} else if (d->in_short) {
				d->in_short = false;
				if (t - d->short_start > hour.short_longest_s)
					hour.short_longest_s = t - d->short_start;
			}
		}
		for (j = 0; j < p->trainers; j++) {
			demand += s.tr[j].demand;
			held += s.tr[j].held;
		}
		hour.steps++;
		hour.util_none += used_none / donor_total;
		hour.util_lend += used_lend / donor_total;
		hour.cluster_none += (used_none + train_total) / (donor_total + train_total);
		hour.cluster_lend += (used_lend + train_total) / (donor_total + train_total);
		hour.demand_slabs += demand;
		hour.unmet_slabs += demand - held;
		for (i = 0; i < p->donors; i++)
			hour.lent_slabs += s.d[i].lent;
		if (p->check)
			check_step(&s, &hour);
		if (fmod(t + p->step_s, 3600.0) < p->step_s || k + 1 >= steps) {
			struct lsim_totals h = hour;

			add_totals(&all, &hour);
			finish_means(&h);
			if (hour_fn)
				hour_fn(ctx, hour_no, &h);
			hour_no++;
			memset(&hour, 0, sizeof(hour));
		}
	}
	for (i = 0; i < p->donors; i++)
		if (s.d[i].in_short && steps * p->step_s - s.d[i].short_start >
		    all.short_longest_s)
			all.short_longest_s = steps * p->step_s - s.d[i].short_start;
	finish_means(&all);
	*out = all;
	lsim_free(&s);
	return 0;
}
