// SPDX-License-Identifier: GPL-2.0
/*
 * Signing grants on several threads (spare_grant_pool.h). One batch at a
 * time: the caller publishes it, wakes at most one thread per grant beyond
 * its own, and signs alongside them; a grant is claimed under the lock, so
 * each is signed once. The caller never waits for a thread that has not
 * claimed a grant (if none wakes in time, the caller signs them all), only
 * for grants a thread is signing.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>

#include "spare_grant_pool.h"

struct spare_grant_pool {
	pthread_mutex_t			lock;
	pthread_cond_t			work;	/* threads: a batch, or stop */
	pthread_cond_t			done;	/* caller: busy fell to 0 */
	const struct spare_grant_keys	*k;	/* the batch: */
	struct spare_grant		*g;
	unsigned int			n;
	unsigned int			next;	/* next grant to claim */
	unsigned int			busy;	/* claimed by threads, not signed */
	unsigned long long		by_threads;	/* grants the threads signed */
	bool				stop;
	unsigned int			nthreads;
	pthread_t			tid[SPARE_GRANT_POOL_MAX_THREADS];
};

/* Claim and sign grants while the batch has any; called and returns locked. */
static void seal_claimed(struct spare_grant_pool *p, bool thread)
{
	while (p->next < p->n) {
		const struct spare_grant_keys *k = p->k;
		struct spare_grant *g = &p->g[p->next++];

		p->busy += thread;
		pthread_mutex_unlock(&p->lock);
		spare_grant_keys_seal(k, g);
		pthread_mutex_lock(&p->lock);
		p->busy -= thread;
		p->by_threads += thread;
	}
}

static void *signer(void *arg)
{
	struct spare_grant_pool *p = arg;

	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		if (p->next < p->n) {
			seal_claimed(p, true);
			if (!p->busy)
				pthread_cond_signal(&p->done);
			continue;
		}
		pthread_cond_wait(&p->work, &p->lock);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct spare_grant_pool *spare_grant_pool_new(unsigned int threads)
{
	struct spare_grant_pool *p;
	sigset_t all, old;
	int err = 0;

	if (!threads || threads > SPARE_GRANT_POOL_MAX_THREADS) {
		errno = EINVAL;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	/* signals are the event loop's (signalfd): none reaches a signer */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (; !err && p->nthreads < threads; p->nthreads++) {
		err = pthread_create(&p->tid[p->nthreads], NULL, signer, p);
		if (err)
			break;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		spare_grant_pool_free(p);
		errno = err;
		return NULL;
	}
	return p;
}

void spare_grant_pool_free(struct spare_grant_pool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	for (unsigned int i = 0; i < p->nthreads; i++)
		pthread_join(p->tid[i], NULL);
	pthread_cond_destroy(&p->done);
	pthread_cond_destroy(&p->work);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

unsigned long long spare_grant_pool_by_threads(struct spare_grant_pool *p)
{
	unsigned long long n;

	if (!p)
		return 0;
	pthread_mutex_lock(&p->lock);
	n = p->by_threads;
	pthread_mutex_unlock(&p->lock);
	return n;
}

void spare_grant_pool_seal(struct spare_grant_pool *p, const struct spare_grant_keys *k,
			   struct spare_grant *g, unsigned int n)
{
	if (!p || n < 2) {
		for (unsigned int i = 0; i < n; i++)
			spare_grant_keys_seal(k, &g[i]);
		return;
	}
	pthread_mutex_lock(&p->lock);
	p->k = k;
	p->g = g;
	p->n = n;
	p->next = 0;
	for (unsigned int i = 1; i < n && i <= p->nthreads; i++)
		pthread_cond_signal(&p->work);
	seal_claimed(p, false);
	while (p->busy)
		pthread_cond_wait(&p->done, &p->lock);
	p->n = 0;
	p->next = 0;
	p->g = NULL;
	p->k = NULL;
	pthread_mutex_unlock(&p->lock);
}
