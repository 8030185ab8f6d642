// SPDX-License-Identifier: GPL-2.0
/*
 * Tiresias scheduling over caller-owned state (see tiresias.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tiresias.h"

static const char *const schedule_names[TIR_NR_SCHEDULES] = {
	[TIR_FIFO] = "fifo",
	[TIR_FJF] = "fjf",
	[TIR_SJF] = "sjf",
	[TIR_SHORTEST] = "shortest",
	[TIR_SHORTEST_GPU] = "shortest-gpu",
	[TIR_DLAS] = "dlas",
	[TIR_DLAS_GPU] = "dlas-gpu",
	[TIR_DLAS_GPU_GITTINS] = "dlas-gpu-gittins",
};

int tir_schedule_parse(const char *name, enum tir_schedule *out)
{
	for (int i = 0; i < TIR_NR_SCHEDULES; i++) {
		if (strcmp(name, schedule_names[i]) == 0) {
			*out = (enum tir_schedule)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *tir_schedule_name(enum tir_schedule s)
{
	return (unsigned)s < TIR_NR_SCHEDULES ? schedule_names[s] : "?";
}

bool tir_schedule_needs_gittins(enum tir_schedule s)
{
	return s == TIR_DLAS_GPU_GITTINS;
}

static bool is_dlas(enum tir_schedule s)
{
	return s == TIR_DLAS || s == TIR_DLAS_GPU || s == TIR_DLAS_GPU_GITTINS;
}

/* K x service as whole seconds, as Python's int() would, saturated. */
static int64_t scaled(int64_t v, double k)
{
	double x = (double)v * k;

	return x >= 9.0e18 ? INT64_MAX / 4 : (int64_t)x;
}

static bool is_preemptive(enum tir_schedule s)
{
	return s != TIR_FIFO && s != TIR_FJF;
}

void tir_config_init(struct tir_config *cfg, enum tir_schedule s, int64_t gpus)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->schedule = s;
	cfg->gpus = gpus;
	cfg->nqueues = 3;
	cfg->limit[0] = TIR_DEFAULT_LIMIT0;
	cfg->limit[1] = TIR_DEFAULT_LIMIT1;
}

/* ------------------------------------------------------------------ */
/* Gittins index */

/* First index i in d[0..n) with d[i] > a, or n. */
static size_t upper_bound(const int64_t *d, size_t n, int64_t a)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d[mid] > a)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * Round x to nd decimals, halves away from zero, from x's exact binary
 * value: what Python 2's round() did (Python 3 rounds halves to even).
 * Only the faithful Gittins table uses it.
 */
static double round_half_away(double x, int nd)
{
	char exact[400], out[400];
	char *dot, *p;
	size_t keep;
	bool tie = true;

	snprintf(exact, sizeof(exact), "%.*f", nd + 100, x);
	dot = strchr(exact, '.');
	if (!dot || dot[1 + nd] != '5')
		tie = false;
	for (p = dot ? dot + 2 + nd : exact; tie && *p; p++)
		if (*p != '0')
			tie = false;
	if (!tie) {
		snprintf(out, sizeof(out), "%.*f", nd, x);	/* nearest */
		return strtod(out, NULL);
	}
	/* Truncate after nd decimals and add one unit in the last place. */
	keep = (size_t)(dot - exact) + (nd ? 1 + (size_t)nd : 0);
	memcpy(out + 1, exact, keep);
	out[0] = '0';
	out[keep + 1] = '\0';
	for (p = out + keep; p > out; p--) {
		if (*p == '.' || *p == '-')
			continue;
		if (*p != '9') {
			(*p)++;
			break;
		}
		*p = '0';
	}
	if (out[1] == '-' && out[0] == '1') {	/* carried past a sign */
		out[0] = '-';
		out[1] = '1';
	}
	return strtod(out, NULL);
}

/*
 * The reference's rank at a sample point: P = share of the jobs still
 * running at a that finish within delta, E = their expected service
 * computed from absolute durations, rounded as the reference rounds.
 */
static double faithful_rank_at(const struct tir_gittins *g, int64_t a)
{
	const int64_t *d = g->dur;
	size_t n = g->n, idx, idx_delta, i;
	int64_t e_sum = 0, e;
	double p;

	if (a > d[n - 1] - 1)
		return 0.0;
	idx = upper_bound(d, n, a);
	if (a + g->delta > d[n - 1] - 1)
		idx_delta = n - 1;	/* the reference's bound, not n */
	else
		idx_delta = upper_bound(d, n, a + g->delta);
	p = round_half_away((double)(idx_delta - idx) / (double)(n - idx), 5);
	for (i = idx; i < idx_delta; i++)
		e_sum += d[i];
	e_sum += g->delta * (int64_t)(n - idx_delta);
	e = e_sum / (int64_t)(n - idx);
	if (e <= 0)
		return 0.0;
	return round_half_away(p * 1000000.0 / (double)e, 4);
}

int tir_gittins_init(struct tir_gittins *g)
{
	size_t i;

	if (!g->dur || !g->table || g->n == 0 || g->delta <= 0)
		return -EINVAL;
	for (i = 0; i < g->n; i++)
		if (g->dur[i] < 1 || (i && g->dur[i] < g->dur[i - 1]))
			return -EINVAL;
	if (g->faithful) {
		for (i = 0; i < g->n; i++)
			g->table[i] = faithful_rank_at(g, g->dur[i] - 1);
		g->table[g->n] = 0.0;
	} else {
		g->table[0] = 0.0;
		for (i = 0; i < g->n; i++)
			g->table[i + 1] = g->table[i] + (double)g->dur[i];
	}
	return 0;
}

/*
 * The rank at service a, given idx = upper_bound(a) and idx_d =
 * upper_bound(a + delta) in the sample.
 */
static double rank_from(const struct tir_gittins *g, int64_t a, size_t idx, size_t idx_d)
{
	size_t n = g->n;
	double p, e;

	if (g->faithful)
		return a > g->dur[n - 1] ? 0.0 : g->table[idx];
	/*
	 * Of the sampled jobs still running at a, the share P that ends
	 * within delta, over the expected service E they receive in that
	 * time: sum (d - a) for those that end, delta for the others.
	 */
	if (idx == n)
		return 0.0;
	p = (double)(idx_d - idx) / (double)(n - idx);
	e = (g->table[idx_d] - g->table[idx] - (double)a * (double)(idx_d - idx) +
	     (double)g->delta * (double)(n - idx_d)) / (double)(n - idx);
	return e > 0 ? p / e : 0.0;
}

double tir_gittins_rank(const struct tir_gittins *g, int64_t a)
{
	return rank_from(g, a, upper_bound(g->dur, g->n, a),
			 g->faithful ? 0 : upper_bound(g->dur, g->n, a + g->delta));
}

/*
 * The same for a job, from cursors into the sample that only move forward
 * while its service grows: amortized O(1) per decision instead of two
 * binary searches. A promotion (service back to 0) rewinds them.
 */
static double job_rank(const struct tir_gittins *g, struct tir_job *j, int64_t a)
{
	size_t n = g->n;

	if (a < j->g_at)
		j->g_idx = j->g_idx_d = 0;
	j->g_at = a;
	while (j->g_idx < n && g->dur[j->g_idx] <= a)
		j->g_idx++;
	while (j->g_idx_d < n && g->dur[j->g_idx_d] <= a + g->delta)
		j->g_idx_d++;
	return rank_from(g, a, j->g_idx, j->g_idx_d);
}

/* ------------------------------------------------------------------ */
/* The scheduler */

/*
 * A configuration both the replay (tir_init) and a live pass
 * (tir_live_pass) accept: GPUs, a known schedule, 1..TIR_MAX_QUEUES queues
 * with increasing limits, promotion >= 0, and a Gittins table built for
 * this mode where the schedule needs one.
 */
static bool cfg_valid(const struct tir_config *cfg)
{
	const struct tir_gittins *g = cfg->gittins;

	if (cfg->gpus < 1 || (unsigned)cfg->schedule >= TIR_NR_SCHEDULES ||
	    cfg->nqueues < 1 || cfg->nqueues > TIR_MAX_QUEUES || cfg->promote < 0 ||
	    cfg->start_cost < 0 || cfg->start_cost > TIR_MAX_COST ||
	    cfg->requeue_delay < 0 || cfg->requeue_delay > TIR_MAX_COST ||
	    cfg->decision_interval < 0 || cfg->decision_interval > TIR_MAX_COST)
		return false;
	if (tir_schedule_needs_gittins(cfg->schedule) &&
	    (!g || !g->n || !g->table || g->faithful != cfg->faithful))
		return false;
	for (int q = 0; q + 1 < cfg->nqueues; q++)
		if (cfg->limit[q] < 1 || cfg->limit[q] > TIR_MAX_TIME ||
		    (q && cfg->limit[q] <= cfg->limit[q - 1]))
			return false;
	return true;
}

/*
 * The first decision at or after t: t itself, or with a decision interval
 * the next multiple of it. Times stay below TIR_MAX_TIME + TIR_MAX_COST.
 */
static int64_t decision_time(const struct tir_config *cfg, int64_t t)
{
	int64_t d = cfg->decision_interval;

	if (!d || t == INT64_MAX || t % d == 0)
		return t;
	return (t / d + 1) * d;
}

int tir_init(struct tir_sched *s, const struct tir_config *cfg,
	     struct tir_job *jobs, size_t n, uint32_t *active, uint32_t *scratch)
{
	if (n > UINT32_MAX || (n && (!jobs || !active || !scratch)) || !cfg_valid(cfg))
		return -EINVAL;
	int64_t total = 0;

	for (size_t i = 0; i < n; i++) {
		struct tir_job *j = &jobs[i];

		if (j->num_gpu < 1 || j->num_gpu > cfg->gpus || j->duration < 1 ||
		    j->duration > TIR_MAX_TIME / j->num_gpu || j->submit < 0 ||
		    (i && j->submit < jobs[i - 1].submit))
			return -EINVAL;
		/* every time the run reaches stays below TIR_MAX_TIME */
		if (total > TIR_MAX_TIME - j->duration ||
		    j->submit > TIR_MAX_TIME - total - j->duration)
			return -EINVAL;
		total += j->duration;
		j->state = TIR_WAITING;
		j->acct.queue = 0;
		j->start = j->end = -1;
		j->acct.last_check = j->submit;
		j->acct.run_total = j->acct.run_attained = 0;
		j->acct.pending_total = j->acct.pending_since_run = 0;
		j->rank = 0;
		j->g_at = 0;
		j->g_idx = j->g_idx_d = 0;
		j->acct.seq = j->start_seq = 0;
		j->acct.preempt = j->resume = j->acct.promote = 0;
		j->engine_started = false;
		j->owed = 0;
		j->ready_at = 0;
	}
	memset(s, 0, sizeof(*s));
	s->cfg = cfg;
	s->jobs = jobs;
	s->njobs = n;
	s->active = active;
	s->order = scratch;
	s->walk = scratch + n;
	s->free_gpus = cfg->gpus;
	s->next_jump = INT64_MAX;
	s->next_event = n ? decision_time(cfg, jobs[0].submit) : INT64_MAX;
	return 0;
}

/* Seconds a job must run in all: its work, and the start costs it owes. */
static int64_t run_needed(const struct tir_job *j)
{
	return j->duration + j->owed;
}

static int64_t finish_time(const struct tir_job *j)
{
	return j->acct.last_check + (run_needed(j) - j->acct.run_total);
}

static int64_t compute_next_event(const struct tir_sched *s, int64_t now)
{
	int64_t t = s->next_jump;

	if (s->next_arrival < s->njobs && s->jobs[s->next_arrival].submit < t)
		t = s->jobs[s->next_arrival].submit;
	for (size_t i = 0; i < s->nactive; i++) {
		const struct tir_job *j = &s->jobs[s->active[i]];

		if (j->state == TIR_RUNNING && finish_time(j) < t)
			t = finish_time(j);
		else if (j->state == TIR_PENDING && j->ready_at > now && j->ready_at < t)
			t = j->ready_at;	/* its requeue delay ends */
	}
	return t;
}

int64_t tir_next_event(const struct tir_sched *s)
{
	return s->next_event;
}

/* Service that decides a job's queue and Gittins rank. */
static int64_t attained(const struct tir_sched *s, const struct tir_job *j)
{
	if (s->cfg->schedule == TIR_DLAS)
		return j->acct.run_attained;
	return j->acct.run_attained * j->num_gpu;
}

static void account(struct tir_sched *s, struct tir_job *j, int64_t now)
{
	const struct tir_config *cfg = s->cfg;
	int64_t dt = now - j->acct.last_check;
	bool served = j->state == TIR_RUNNING && dt > 0;

	j->acct.last_check = now;
	if (j->state == TIR_RUNNING) {
		j->acct.run_total += dt;
		j->acct.run_attained += dt;
		if (is_dlas(cfg->schedule) && j->acct.queue < cfg->nqueues - 1 &&
		    attained(s, j) >= cfg->limit[j->acct.queue]) {
			j->acct.queue++;
			j->acct.seq = ++s->seq;	/* to the back of the lower queue */
		}
	} else {
		j->acct.pending_total += dt;
		if (j->acct.run_attained > 0)
			j->acct.pending_since_run += dt;
		if (is_dlas(cfg->schedule) && cfg->promote > 0 && j->acct.queue > 0 &&
		    j->acct.run_total > 0 && j->acct.run_attained > 0 &&
		    j->acct.pending_since_run >= scaled(j->acct.run_attained, cfg->promote)) {
			j->acct.run_attained = 0;
			j->acct.pending_since_run = 0;
			j->acct.queue = 0;
			j->acct.seq = ++s->seq;	/* to the back of Q0 */
			j->acct.promote++;
			served = true;
		}
	}
	/* A pending job's service, hence its rank, changes only on promotion. */
	if (cfg->schedule == TIR_DLAS_GPU_GITTINS && served)
		j->rank = job_rank(cfg->gittins, j, attained(s, j));
}

static int64_t sort_key(const struct tir_sched *s, const struct tir_job *j)
{
	switch (s->cfg->schedule) {
	case TIR_SJF:
		return j->num_gpu;
	case TIR_SHORTEST:
		return run_needed(j) - j->acct.run_total;
	case TIR_SHORTEST_GPU:
		return (run_needed(j) - j->acct.run_total) * j->num_gpu;
	default:
		return j->acct.queue;
	}
}

static int cmp_walk(const void *pa, const void *pb, void *ctx)
{
	const struct tir_sched *s = ctx;
	const struct tir_job *a = &s->jobs[*(const uint32_t *)pa];
	const struct tir_job *b = &s->jobs[*(const uint32_t *)pb];
	int64_t ka = sort_key(s, a), kb = sort_key(s, b);

	if (ka != kb)
		return ka < kb ? -1 : 1;
	if (s->cfg->schedule == TIR_DLAS_GPU_GITTINS) {
		if (a->rank != b->rank)
			return a->rank > b->rank ? -1 : 1;
		if (a->submit != b->submit)
			return a->submit < b->submit ? -1 : 1;
	}
	return a->acct.seq < b->acct.seq ? -1 : a->acct.seq > b->acct.seq;
}

static void run_job(struct tir_sched *s, struct tir_job *j, int64_t now)
{
	j->state = TIR_RUNNING;
	if (j->start < 0)
		j->start = now;
	j->start_seq = ++s->seq;
	j->owed += s->cfg->start_cost;
	if (is_preemptive(s->cfg->schedule))
		j->resume++;
}

/* FIFO and fit-first: start pending jobs in arrival order, never preempt. */
static void decide_nonpreemptive(struct tir_sched *s, int64_t now)
{
	bool fifo = s->cfg->schedule == TIR_FIFO;

	if (fifo && s->free_gpus <= 0)
		return;
	for (size_t i = 0; i < s->nactive; i++) {
		struct tir_job *j = &s->jobs[s->active[i]];

		if (j->state != TIR_PENDING)
			continue;
		if (!fifo && s->free_gpus <= 0)
			break;
		if (j->num_gpu <= s->free_gpus) {
			s->free_gpus -= j->num_gpu;
			run_job(s, j, now);
		} else if (fifo) {
			break;	/* head-of-line blocking */
		}
	}
}

/*
 * Sort the walk. It is kept from the last decision, when it was in order,
 * and few keys change between two decisions: insertion sort is then
 * linear. If it meets much disorder it hands over to qsort.
 */
static void sort_walk(struct tir_sched *s)
{
	uint32_t *w = s->walk;
	size_t n = s->nwalk, moves = 0, budget = 8 * n + 64;

	for (size_t i = 1; i < n; i++) {
		uint32_t x = w[i];
		size_t k = i;

		while (k > 0 && cmp_walk(&w[k - 1], &x, s) > 0) {
			w[k] = w[k - 1];
			k--;
			moves++;
		}
		w[k] = x;
		if (moves > budget) {
			qsort_r(w, n, sizeof(*w), cmp_walk, s);
			return;
		}
	}
}

/*
 * In 2D-LAS, jobs left pending go behind the running ones of their queue,
 * in the order walked: renumber, and keep the walk in that order.
 */
static void requeue_pending(struct tir_sched *s, uint32_t *tmp)
{
	uint32_t *w = s->walk;
	size_t n = s->nwalk, i = 0;

	while (i < n) {
		int q = s->jobs[w[i]].acct.queue;
		size_t end = i, kept = i, np = 0;

		while (end < n && s->jobs[w[end]].acct.queue == q)
			end++;
		for (size_t k = i; k < end; k++) {
			struct tir_job *j = &s->jobs[w[k]];

			if (j->state == TIR_RUNNING) {
				j->acct.seq = ++s->seq;
				w[kept++] = w[k];
			} else {
				tmp[np++] = w[k];
			}
		}
		for (size_t k = 0; k < np; k++) {
			s->jobs[tmp[k]].acct.seq = ++s->seq;
			w[kept++] = tmp[k];
		}
		i = end;
	}
}

/* Walk all runnable jobs in priority order; every job that fits runs. */
static void decide_preemptive(struct tir_sched *s, uint32_t *tmp, int64_t now)
{
	int64_t free_gpus = s->cfg->gpus;
	uint32_t *walk = s->walk;
	size_t i, n = s->nwalk;

	sort_walk(s);
	for (i = 0; i < n; i++) {
		struct tir_job *j = &s->jobs[walk[i]];

		if (j->state == TIR_PENDING && j->ready_at > now)
			continue;	/* in its requeue delay: not runnable yet */
		if (j->num_gpu <= free_gpus) {
			free_gpus -= j->num_gpu;
			if (j->state == TIR_PENDING)
				run_job(s, j, now);
		} else if (j->state == TIR_RUNNING) {
			j->state = TIR_PENDING;
			j->acct.preempt++;
			if (s->cfg->requeue_delay)
				j->ready_at = now + s->cfg->requeue_delay;
		}
	}
	s->free_gpus = free_gpus;
	if (is_dlas(s->cfg->schedule)) {
		requeue_pending(s, tmp);
	} else {
		for (i = 0; i < n; i++)	/* keep the order just walked */
			s->jobs[walk[i]].acct.seq = ++s->seq;
	}
}

/* When the next running job changes queue or a pending one is promoted. */
static int64_t next_jump(const struct tir_sched *s, int64_t now)
{
	const struct tir_config *cfg = s->cfg;
	int64_t best = INT64_MAX;

	if (!is_dlas(cfg->schedule))
		return best;
	for (size_t i = 0; i < s->nactive; i++) {
		const struct tir_job *j = &s->jobs[s->active[i]];
		int64_t t = INT64_MAX;

		if (j->state == TIR_RUNNING && j->acct.queue < cfg->nqueues - 1) {
			int64_t limit = cfg->limit[j->acct.queue];

			if (cfg->schedule == TIR_DLAS) {
				t = now + (limit - j->acct.run_attained);
			} else if (cfg->faithful) {
				/* wall seconds against GPU-seconds, floored */
				int64_t left = limit - j->acct.run_attained;

				t = now + (left >= 0 ? left / j->num_gpu :
					   -((-left + j->num_gpu - 1) / j->num_gpu));
			} else {
				int64_t left = limit - j->acct.run_attained * j->num_gpu;

				t = now + (left + j->num_gpu - 1) / j->num_gpu;
			}
			/* The reference would loop forever at a jump in the past. */
			if (t <= now)
				t = now + 1;
		} else if (j->state == TIR_PENDING && cfg->promote > 0 && j->acct.queue > 0 &&
			   j->acct.run_total > 0 && j->acct.run_attained > 0) {
			int64_t diff = scaled(j->acct.run_attained, cfg->promote) - j->acct.pending_since_run;

			if (diff > 0)
				t = now + diff;
		}
		if (t < best)
			best = t;
	}
	return best;
}

/* Log order of jobs ending at the same time, as the reference writes them. */
static uint64_t end_key(const struct tir_sched *s, uint32_t idx)
{
	const struct tir_job *j = &s->jobs[idx];

	switch (s->cfg->schedule) {
	case TIR_FIFO:
	case TIR_FJF:
		return j->start_seq;
	case TIR_SJF:
	case TIR_SHORTEST:
	case TIR_SHORTEST_GPU:
		return j->acct.seq;
	default:
		return idx;	/* arrival order */
	}
}

int tir_step(struct tir_sched *s, int64_t now, struct tir_step_result *res)
{
	size_t i, kept = 0, nended = 0;
	uint32_t *ended = s->order;

	if (tir_done(s) || now != tir_next_event(s))
		return -EINVAL;

	/*
	 * Completions, keeping the others in arrival order. A job ends when
	 * its work is done: now, or with a decision interval at any time
	 * since the last decision.
	 */
	for (i = 0; i < s->nactive; i++) {
		uint32_t idx = s->active[i];
		struct tir_job *j = &s->jobs[idx];
		int64_t end = finish_time(j);

		if (j->state == TIR_RUNNING && end <= now) {
			j->acct.run_total = run_needed(j);
			j->acct.run_attained += end - j->acct.last_check;
			j->acct.last_check = end;
			j->state = TIR_DONE;
			j->end = end;
			s->free_gpus += j->num_gpu;
			s->ndone++;
			ended[nended++] = idx;
		} else {
			s->active[kept++] = idx;
		}
	}
	s->nactive = kept;
	if (nended) {
		kept = 0;
		for (i = 0; i < s->nwalk; i++)
			if (s->jobs[s->walk[i]].state != TIR_DONE)
				s->walk[kept++] = s->walk[i];
		s->nwalk = kept;
	}
	for (i = 1; i < nended; i++) {	/* insertion sort: few at a time */
		uint32_t x = ended[i];
		size_t k = i;

		while (k > 0 && end_key(s, ended[k - 1]) > end_key(s, x)) {
			ended[k] = ended[k - 1];
			k--;
		}
		ended[k] = x;
	}

	/* Arrivals (since the last decision) join Q0 at the back, in order. */
	while (s->next_arrival < s->njobs && s->jobs[s->next_arrival].submit <= now) {
		struct tir_job *j = &s->jobs[s->next_arrival];

		j->state = TIR_PENDING;
		j->acct.last_check = j->submit;
		j->acct.seq = ++s->seq;
		if (s->cfg->schedule == TIR_DLAS_GPU_GITTINS)
			j->rank = job_rank(s->cfg->gittins, j, 0);
		s->walk[s->nwalk++] = (uint32_t)s->next_arrival;
		s->active[s->nactive++] = (uint32_t)s->next_arrival++;
	}

	for (i = 0; i < s->nactive; i++)
		account(s, &s->jobs[s->active[i]], now);

	if (is_preemptive(s->cfg->schedule))
		decide_preemptive(s, ended + nended, now);
	else
		decide_nonpreemptive(s, now);
	s->next_jump = next_jump(s, now);
	s->next_event = decision_time(s->cfg, compute_next_event(s, now));
	s->decisions++;

	res->ended = ended;
	res->nended = nended;
	res->pending = res->running = 0;
	for (i = 0; i < s->nactive; i++) {
		if (s->jobs[s->active[i]].state == TIR_RUNNING)
			res->running++;
		else
			res->pending++;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Configuration and live use */

int tir_parse_limits(const char *arg, struct tir_config *cfg)
{
	int64_t lim[TIR_MAX_QUEUES - 1];
	size_t len = strlen(arg);
	int n = 0;
	const char *p = arg;

	if (len == 0 || arg[0] == ',' || arg[len - 1] == ',' || strstr(arg, ",,"))
		return -EINVAL;
	while (*p) {
		char *end;
		long long v;

		if (*p < '0' || *p > '9' || n >= TIR_MAX_QUEUES - 1)
			return -EINVAL;
		errno = 0;
		v = strtoll(p, &end, 10);
		if (errno || (*end && *end != ',') || v < 1 || (n && v <= lim[n - 1]))
			return -EINVAL;
		lim[n++] = v;
		p = *end ? end + 1 : end;
	}
	memcpy(cfg->limit, lim, (size_t)n * sizeof(lim[0]));
	cfg->nqueues = n + 1;
	return 0;
}

/* Jobs in queue order, then queue position (the live pass's starting point). */
static int cmp_queue_seq(const void *pa, const void *pb, void *ctx)
{
	const struct tir_job *jobs = ctx;
	const struct tir_job *a = &jobs[*(const uint32_t *)pa];
	const struct tir_job *b = &jobs[*(const uint32_t *)pb];

	if (a->acct.queue != b->acct.queue)
		return a->acct.queue < b->acct.queue ? -1 : 1;
	return a->acct.seq < b->acct.seq ? -1 : a->acct.seq > b->acct.seq;
}

/*
 * Starts the engine made between two passes (engine_started), among them
 * those the last pass did not ask for: Slurm's backfill starting a job the
 * last pass left waiting, or a new job at its submission. spare-sim starts
 * a job at an event, and requeue_pending()
 * then puts the jobs left waiting behind it in its queue; take the
 * engine's start the same way: in each queue, every such job that runs
 * moves ahead of the first waiting job, the jobs from there on keeping
 * their order. Nothing is renumbered in a queue where no such job is
 * behind a waiting one (so a view in the simulator's own order is left
 * as it is).
 */
static void take_engine_starts(struct tir_sched *s, uint32_t *w, uint32_t *tmp)
{
	size_t n = s->njobs, i;
	bool any = false;

	for (i = 0; i < n; i++)
		any |= s->jobs[i].engine_started && s->jobs[i].state == TIR_RUNNING;
	if (!any)
		return;
	for (i = 0; i < n; i++)
		w[i] = (uint32_t)i;
	qsort_r(w, n, sizeof(*w), cmp_queue_seq, s->jobs);
	i = 0;
	while (i < n) {
		int q = s->jobs[w[i]].acct.queue;
		size_t end = i, first = n, moved = 0, k;

		while (end < n && s->jobs[w[end]].acct.queue == q)
			end++;
		for (k = i; k < end; k++) {
			const struct tir_job *j = &s->jobs[w[k]];

			if (j->state == TIR_PENDING && first == n)
				first = k;
			else if (first < n && j->state == TIR_RUNNING && j->engine_started)
				tmp[moved++] = w[k];
		}
		if (moved) {
			size_t m = moved;

			for (k = first; k < end; k++) {
				const struct tir_job *j = &s->jobs[w[k]];

				if (!(j->state == TIR_RUNNING && j->engine_started))
					tmp[m++] = w[k];
			}
			for (k = 0; k < m; k++)
				s->jobs[tmp[k]].acct.seq = ++s->seq;
		}
		i = end;
	}
}

int tir_live_pass(const struct tir_config *cfg, struct tir_job *jobs, size_t n,
		  uint32_t *walk, uint32_t *scratch, uint64_t *seq, int64_t now)
{
	const struct tir_gittins *g = cfg->gittins;
	struct tir_sched s;

	if (!is_dlas(cfg->schedule) || !cfg_valid(cfg) || n > UINT32_MAX ||
	    (n && (!jobs || !walk || !scratch)) || !seq ||
	    now < 0 || now > TIR_MAX_TIME)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		const struct tir_job *j = &jobs[i];

		if ((j->state != TIR_PENDING && j->state != TIR_RUNNING) ||
		    j->num_gpu < 1 || j->num_gpu > cfg->gpus ||
		    j->acct.queue < 0 || j->acct.queue >= cfg->nqueues ||
		    j->acct.last_check < 0 || j->acct.last_check > now || j->acct.run_total < 0 ||
		    j->acct.run_attained < 0 || j->acct.run_attained > j->acct.run_total ||
		    j->acct.run_total > TIR_MAX_TIME / j->num_gpu ||
		    j->acct.pending_total < 0 || j->acct.pending_since_run < 0 ||
		    j->acct.pending_total > TIR_MAX_TIME || j->acct.pending_since_run > TIR_MAX_TIME)
			return -EINVAL;
	}
	memset(&s, 0, sizeof(s));
	s.cfg = cfg;
	s.jobs = jobs;
	s.njobs = n;
	s.walk = walk;
	s.nwalk = n;
	s.seq = *seq;
	take_engine_starts(&s, walk, scratch);
	for (size_t i = 0; i < n; i++) {
		struct tir_job *j = &jobs[i];
		int q;

		walk[i] = (uint32_t)i;
		/*
		 * tir_step() stops at every queue limit; a live pass comes
		 * when it comes, so a job may cross several limits at once.
		 */
		do {
			q = j->acct.queue;
			account(&s, j, now);
		} while (j->acct.queue != q && j->state == TIR_RUNNING);
		if (cfg->schedule == TIR_DLAS_GPU_GITTINS) {
			j->g_at = 0;
			j->g_idx = j->g_idx_d = 0;
			j->rank = job_rank(g, j, attained(&s, j));
		}
	}
	decide_preemptive(&s, scratch, now);
	*seq = s.seq;
	return 0;
}
