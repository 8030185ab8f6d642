// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd scheduling policies and core-count controller (agg_sched.h).
 */
#include "agg_sched.h"
#include "order.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const policy_names[] = {
	[AGG_POLICY_FIFO] = "fifo",
	[AGG_POLICY_WFS] = "wfs",
	[AGG_POLICY_LAS] = "las",
	[AGG_POLICY_DLAS] = "dlas",
};

int agg_policy_parse(const char *name, enum agg_policy *p)
{
	for (size_t i = 0; i < sizeof(policy_names) / sizeof(*policy_names); i++)
		if (!strcmp(name, policy_names[i])) {
			*p = (enum agg_policy)i;
			return 0;
		}
	return -EINVAL;
}

const char *agg_policy_name(enum agg_policy p)
{
	if ((size_t)p < sizeof(policy_names) / sizeof(*policy_names))
		return policy_names[p];
	return "?";
}

void agg_sched_init(struct agg_sched *s, enum agg_policy policy)
{
	memset(s, 0, sizeof(*s));
	s->policy = policy;
	s->dlas_nlimits = 2;
	s->dlas_limit[0] = AGG_DLAS_LIMIT0;
	s->dlas_limit[1] = AGG_DLAS_LIMIT1;
}

int agg_sched_set_dlas_limits(struct agg_sched *s, const uint64_t *limit, unsigned int n)
{
	if (n > AGG_DLAS_MAX_LIMITS || n > SCHED_ORDER_MAX_LIMITS)
		return -EINVAL;
	for (unsigned int i = 0; i < n; i++)
		if (limit[i] == 0 || (i && limit[i] <= limit[i - 1]))
			return -EINVAL;
	s->dlas_nlimits = n;
	memcpy(s->dlas_limit, limit, n * sizeof(*limit));
	return 0;
}

void agg_sched_destroy(struct agg_sched *s)
{
	free(s->jobs);
	memset(s, 0, sizeof(*s));
}

static struct agg_sched_job *find_job(struct agg_sched *s, uint32_t id)
{
	for (size_t i = 0; i < s->n_jobs; i++)
		if (s->jobs[i].id == id)
			return &s->jobs[i];
	return NULL;
}

int agg_sched_add_job(struct agg_sched *s, uint32_t id, uint32_t weight)
{
	struct agg_sched_job *j;

	if (find_job(s, id))
		return -EEXIST;
	if (s->n_jobs == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		void *p = realloc(s->jobs, cap * sizeof(*s->jobs));

		if (!p)
			return -ENOMEM;
		s->jobs = p;
		s->cap = cap;
	}
	j = &s->jobs[s->n_jobs++];
	memset(j, 0, sizeof(*j));
	j->id = id;
	j->weight = weight ? weight : 1;
	j->vtime = s->vclock;
	return 0;
}

int agg_sched_set_weight(struct agg_sched *s, uint32_t id, uint32_t weight)
{
	struct agg_sched_job *j = find_job(s, id);

	if (!weight)
		return -EINVAL;
	if (!j)
		return -ENOENT;
	j->weight = weight;
	return 0;
}

struct agg_task *agg_sched_remove_job(struct agg_sched *s, uint32_t id)
{
	struct agg_sched_job *j = find_job(s, id);
	struct agg_task *list;

	if (!j)
		return NULL;
	list = j->head;
	s->queued -= j->queued;
	*j = s->jobs[--s->n_jobs];
	return list;
}

int agg_sched_enqueue(struct agg_sched *s, struct agg_task *t)
{
	struct agg_sched_job *j = find_job(s, t->job);

	if (!j)
		return -ENOENT;
	t->next = NULL;
	t->seq = s->seq++;
	if (!j->head) {
		/* becomes backlogged: no credit for the idle time */
		if (j->vtime < s->vclock)
			j->vtime = s->vclock;
		j->head = t;
	} else {
		j->tail->next = t;
	}
	j->tail = t;
	j->queued++;
	s->queued++;
	return 0;
}

static struct sched_order_key order_key(const struct agg_sched_job *j)
{
	return (struct sched_order_key){
		.head_seq = j->head->seq, .vtime = j->vtime, .attained = j->attained,
	};
}

struct agg_task *agg_sched_pick(struct agg_sched *s)
{
	static const enum sched_order orders[] = {
		[AGG_POLICY_FIFO] = SCHED_ORDER_FIFO,
		[AGG_POLICY_WFS] = SCHED_ORDER_WFS,
		[AGG_POLICY_LAS] = SCHED_ORDER_LAS,
		[AGG_POLICY_DLAS] = SCHED_ORDER_DLAS,
	};
	struct sched_order_cfg cfg = { .order = orders[s->policy], .nlimits = s->dlas_nlimits };
	struct sched_order_key best_key = { 0 };
	struct agg_sched_job *best = NULL;
	struct agg_task *t;

	memcpy(cfg.limit, s->dlas_limit, s->dlas_nlimits * sizeof(cfg.limit[0]));
	for (size_t i = 0; i < s->n_jobs; i++) {
		struct agg_sched_job *j = &s->jobs[i];
		struct sched_order_key key;

		if (!j->head)
			continue;
		key = order_key(j);
		if (!best || sched_order_before(&cfg, &key, &best_key)) {
			best = j;
			best_key = key;
		}
	}
	if (!best)
		return NULL;
	t = best->head;
	best->head = t->next;
	if (!best->head)
		best->tail = NULL;
	t->next = NULL;
	best->queued--;
	s->queued--;
	if (best->vtime > s->vclock)
		s->vclock = best->vtime;
	best->vtime += (double)t->cost / best->weight;
	best->attained += t->cost;
	return t;
}

int agg_sched_charge(struct agg_sched *s, uint32_t id, uint64_t cost)
{
	struct agg_sched_job *j = find_job(s, id);

	if (!j)
		return -ENOENT;
	/* as agg_sched_enqueue() then agg_sched_pick() of a one-task backlog */
	if (!j->head && j->vtime < s->vclock)
		j->vtime = s->vclock;
	if (j->vtime > s->vclock)
		s->vclock = j->vtime;
	j->vtime += (double)cost / j->weight;
	j->attained += cost;
	return 0;
}

void agg_scale_init(struct agg_scale *sc, unsigned int min, unsigned int max)
{
	memset(sc, 0, sizeof(*sc));
	sc->min = min ? min : 1;
	sc->max = max < sc->min ? sc->min : max;
	sc->active = sc->min;
	sc->target_util = 0.7;
	sc->down_ticks = 5;
}

unsigned int agg_scale_update(struct agg_scale *sc, double busy_cores,
			      size_t queued)
{
	unsigned int need;
	double want;

	if (!(busy_cores >= 0.0))
		busy_cores = 0.0;
	want = ceil(busy_cores / sc->target_util);
	need = want > sc->max ? sc->max : (unsigned int)want;
	/* work still waiting at the end of a tick means one more core */
	if (queued > sc->active && need <= sc->active)
		need = sc->active + 1;
	if (need < sc->min)
		need = sc->min;
	if (need > sc->max)
		need = sc->max;

	if (need > sc->active) {
		sc->active = need;
		sc->quiet = 0;
	} else if (need < sc->active) {
		if (++sc->quiet >= sc->down_ticks) {
			sc->active--;
			sc->quiet = 0;
		}
	} else {
		sc->quiet = 0;
	}
	return sc->active;
}
