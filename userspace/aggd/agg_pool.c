// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd worker pool (agg_pool.h).
 */
#include "agg_pool.h"
#include "spare_log.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct pool_thread {
	struct agg_pool *pool;
	pthread_t tid;
	unsigned int index;
	uint64_t busy_ns;	/* written by the thread under pool->lock */
};

struct agg_pool {
	struct agg_pool_opts o;
	agg_pool_run_fn run;
	int done_fd;
	pthread_mutex_t lock;
	pthread_cond_t work;		/* tasks queued or active changed */
	pthread_cond_t tick;		/* controller wakeup on stop */
	struct agg_sched sched;
	struct agg_scale scale;
	struct agg_task *done_head, *done_tail;
	bool stopping;
	struct pool_thread *threads;
	unsigned int n_threads;
	pthread_t ctl;
	bool ctl_started;
	uint64_t t0_ns, tasks, queue_ns;
	unsigned int n_hist, hist_pos;
	struct agg_pool_sample hist[AGG_POOL_HISTORY];
};

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void pin_to_core(unsigned int index)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	int err;

	if (ncpu <= 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(index % (unsigned long)ncpu, &set);
	/* a cpuset may forbid the core: say so, then run unpinned */
	err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (err)
		log_warn("pool thread %u: cannot pin to core %lu: %s; running unpinned",
			 index, index % (unsigned long)ncpu, strerror(err));
}

static void *pool_thread_main(void *arg)
{
	struct pool_thread *th = arg;
	struct agg_pool *p = th->pool;

	pin_to_core(p->o.first_core + th->index);
	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct agg_task *t = NULL;
		uint64_t t0, t1;

		while (!p->stopping && (th->index >= p->scale.active ||
					!(t = agg_sched_pick(&p->sched))))
			pthread_cond_wait(&p->work, &p->lock);
		if (p->stopping)
			break;
		pthread_mutex_unlock(&p->lock);

		t0 = now_ns(CLOCK_MONOTONIC);
		p->run(t);
		t1 = now_ns(CLOCK_MONOTONIC);

		pthread_mutex_lock(&p->lock);
		th->busy_ns += t1 - t0;
		p->tasks++;
		if (t0 > t->enq_ns)
			p->queue_ns += t0 - t->enq_ns;
		t->next = NULL;
		if (p->done_tail)
			p->done_tail->next = t;
		else
			p->done_head = t;
		p->done_tail = t;
		pthread_mutex_unlock(&p->lock);
		{
			uint64_t one = 1;

			/* an eventfd write only fails on counter overflow */
			if (write(p->done_fd, &one, sizeof(one)) < 0)
				(void)0;
		}
		pthread_mutex_lock(&p->lock);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static uint64_t total_busy_locked(struct agg_pool *p)
{
	uint64_t sum = 0;

	for (unsigned int i = 0; i < p->n_threads; i++)
		sum += p->threads[i].busy_ns;
	return sum;
}

static void *controller_main(void *arg)
{
	struct agg_pool *p = arg;
	uint64_t last_busy = 0, last_t = now_ns(CLOCK_MONOTONIC);

	pthread_mutex_lock(&p->lock);
	while (!p->stopping) {
		struct timespec until;
		uint64_t now, busy, dt;
		struct agg_pool_sample *s;
		unsigned int before;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += (long)p->o.tick_ms * 1000000L;
		until.tv_sec += until.tv_nsec / 1000000000L;
		until.tv_nsec %= 1000000000L;
		pthread_cond_timedwait(&p->tick, &p->lock, &until);
		if (p->stopping)
			break;
		now = now_ns(CLOCK_MONOTONIC);
		busy = total_busy_locked(p);
		dt = now - last_t;
		if (dt == 0)
			continue;
		before = p->scale.active;
		s = &p->hist[p->hist_pos];
		s->t_ms = (now - p->t0_ns) / 1000000ULL;
		s->busy = (double)(busy - last_busy) / (double)dt;
		s->queued = p->sched.queued;
		s->active = agg_scale_update(&p->scale, s->busy, s->queued);
		p->hist_pos = (p->hist_pos + 1) % AGG_POOL_HISTORY;
		if (p->n_hist < AGG_POOL_HISTORY)
			p->n_hist++;
		if (s->active != before)
			pthread_cond_broadcast(&p->work);
		if (p->o.log) {
			fprintf(p->o.log, "%llu %u %.3f %zu\n",
				(unsigned long long)s->t_ms, s->active,
				s->busy, s->queued);
			fflush(p->o.log);
		}
		last_busy = busy;
		last_t = now;
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct agg_pool *agg_pool_start(const struct agg_pool_opts *o,
				agg_pool_run_fn run, int done_fd)
{
	struct agg_pool *p = calloc(1, sizeof(*p));
	int err;

	if (!p)
		return NULL;
	p->o = *o;
	if (!p->o.tick_ms)
		p->o.tick_ms = 100;
	p->run = run;
	p->done_fd = done_fd;
	p->t0_ns = now_ns(CLOCK_MONOTONIC);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->tick, NULL);
	agg_sched_init(&p->sched, o->policy);
	agg_scale_init(&p->scale, o->min_cores, o->max_cores);
	p->threads = calloc(p->scale.max, sizeof(*p->threads));
	if (!p->threads) {
		free(p);
		errno = ENOMEM;
		return NULL;
	}
	for (unsigned int i = 0; i < p->scale.max; i++) {
		struct pool_thread *th = &p->threads[i];

		th->pool = p;
		th->index = i;
		err = pthread_create(&th->tid, NULL, pool_thread_main, th);
		if (err)
			goto fail;
		p->n_threads++;
	}
	err = pthread_create(&p->ctl, NULL, controller_main, p);
	if (err)
		goto fail;
	p->ctl_started = true;
	return p;
fail:
	agg_pool_stop(p);	/* nothing was submitted: no tasks come back */
	errno = err;
	return NULL;
}

struct agg_task *agg_pool_stop(struct agg_pool *p)
{
	struct agg_task *left;

	if (!p)
		return NULL;
	pthread_mutex_lock(&p->lock);
	p->stopping = true;
	pthread_cond_broadcast(&p->work);
	pthread_cond_broadcast(&p->tick);
	pthread_mutex_unlock(&p->lock);
	for (unsigned int i = 0; i < p->n_threads; i++)
		pthread_join(p->threads[i].tid, NULL);
	if (p->ctl_started)
		pthread_join(p->ctl, NULL);
	left = p->done_head;
	while (p->sched.n_jobs) {
		struct agg_task *q = agg_sched_remove_job(&p->sched,
							  p->sched.jobs[0].id);

		while (q) {
			struct agg_task *next = q->next;

			q->next = left;
			left = q;
			q = next;
		}
	}
	agg_sched_destroy(&p->sched);
	free(p->threads);
	free(p);
	return left;
}

int agg_pool_add_job(struct agg_pool *p, uint32_t id, uint32_t weight)
{
	int ret;

	pthread_mutex_lock(&p->lock);
	ret = agg_sched_add_job(&p->sched, id, weight);
	pthread_mutex_unlock(&p->lock);
	return ret;
}

int agg_pool_set_weight(struct agg_pool *p, uint32_t id, uint32_t weight)
{
	int ret;

	pthread_mutex_lock(&p->lock);
	ret = agg_sched_set_weight(&p->sched, id, weight);
	pthread_mutex_unlock(&p->lock);
	return ret;
}

struct agg_task *agg_pool_remove_job(struct agg_pool *p, uint32_t id)
{
	struct agg_task *list;

	pthread_mutex_lock(&p->lock);
	list = agg_sched_remove_job(&p->sched, id);
	pthread_mutex_unlock(&p->lock);
	return list;
}

int agg_pool_submit(struct agg_pool *p, struct agg_task *t)
{
	int ret;

	t->enq_ns = now_ns(CLOCK_MONOTONIC);
	pthread_mutex_lock(&p->lock);
	ret = agg_sched_enqueue(&p->sched, t);
	if (!ret)
		pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	return ret;
}

int agg_pool_charge_if_idle(struct agg_pool *p, uint32_t id, uint64_t cost)
{
	int ret = 0;

	pthread_mutex_lock(&p->lock);
	if (!p->sched.queued)
		ret = agg_sched_charge(&p->sched, id, cost) == 0;
	pthread_mutex_unlock(&p->lock);
	return ret;
}

struct agg_task *agg_pool_take_done(struct agg_pool *p)
{
	struct agg_task *list;

	pthread_mutex_lock(&p->lock);
	list = p->done_head;
	p->done_head = p->done_tail = NULL;
	pthread_mutex_unlock(&p->lock);
	return list;
}

void agg_pool_stats(struct agg_pool *p, struct agg_pool_stats *st)
{
	memset(st, 0, sizeof(*st));
	pthread_mutex_lock(&p->lock);
	st->active = p->scale.active;
	st->max = p->scale.max;
	st->tasks = p->tasks;
	st->busy_ns = total_busy_locked(p);
	st->queue_ns = p->queue_ns;
	st->queued = p->sched.queued;
	st->n_hist = p->n_hist;
	for (unsigned int i = 0; i < p->n_hist; i++) {
		unsigned int at = (p->hist_pos + AGG_POOL_HISTORY - p->n_hist + i) %
				  AGG_POOL_HISTORY;

		st->hist[i] = p->hist[at];
	}
	pthread_mutex_unlock(&p->lock);
	st->cpu_seconds = (double)now_ns(CLOCK_PROCESS_CPUTIME_ID) / 1e9;
}
