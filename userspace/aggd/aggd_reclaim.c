// SPDX-License-Identifier: GPL-2.0
/* spare-aggd idle reclaim (aggd_reclaim.h). */
#include <stdio.h>
#include <stdlib.h>

#include "aggd_jobs.h"
#include "aggd_reclaim.h"
#include "aggd_state.h"
#include "agg_pool.h"
#include "spare_log.h"

void timer_post(void)
{
	struct io_uring_sqe *sqe = get_sqe();

	io_uring_prep_timeout(sqe, &g.timer_ts, 0, 0);
	io_uring_sqe_set_data(sqe, &g.timer_op);
}

static void job_reclaim(struct job_entry *e)
{
	struct agg_job *job = e->job;
	double idle = (double)(g.now_ns - job->last_active_ns) / 1e9;

	g.jobs_reclaimed++;
	log_info("job %u '%s' reclaimed: no byte from any of its workers for %.1f s (%u of %u attached); freeing %zu bytes",
	       job->id, job->spec.name, idle, job->n_attached,
	       job->spec.n_workers, job->mem_bytes);
	job_fail(job, "reclaimed: no message from any worker for %.0f s", idle);
	job->last_active_ns = g.now_ns;	/* the grace below rules its conns */
	if (!job->n_attached) {
		job_retire(e);
		return;
	}
	/* each worker gets its EJOBFAIL, then the connection closes; the
	 * job is freed with the last one (closing may free it: collect first) */
	{
		struct conn *now[AGG_MAX_WORKERS];
		unsigned int n = 0;

		for (unsigned int r = 0; r < job->spec.n_workers; r++) {
			struct conn *c = job->rank_conn[r];

			if (!c || c->closing)
				continue;
			c->close_after_tx = true;
			c->reclaim_ns = g.now_ns + RECLAIM_GRACE_NS;
			if (!c->tx_head && !c->tx_busy)
				now[n++] = c;
		}
		for (unsigned int i = 0; i < n; i++)
			conn_close(now[i], "its job was reclaimed");
	}
}

/*
 * --request-timeout: a connection that has proved nothing and not completed
 * a first request (no reply went to it) since it came is closed; one line
 * per 10 s at most says how many.
 */
static void request_deadline(void)
{
	struct conn *c, *cn;
	char first[sizeof(c->peer) + 16] = "";
	unsigned int n = 0;
	unsigned long quiet;

	for (c = g.conns; c; c = cn) {
		cn = c->next;
		if (c->closing || c->answered || !conn_preauth(c) ||
		    g.now_ns - c->opened_ns < g.request_ns)
			continue;
		if (!n++)
			snprintf(first, sizeof(first), "conn %u (%s)", c->id, c->peer);
		g.request_timeouts++;
		conn_close(c, NULL);
	}
	if (n && spare_ratelimit_ok(&g.request_log, g.now_ns / 1000000ULL,
				    SPARE_FD_LOG_MS, &quiet))
		log_warn("%s and %u more: closed: no request completed within the request timeout (%.1f s) (%lu more such lines held back)",
			 first, n - 1, (double)g.request_ns / 1e9, quiet);
}

void on_timer(void)
{
	struct job_entry *e, *next;
	struct conn *c, *cn;

	timer_post();
	jobs_reg_wait_tick();
	if (g.request_ns)
		request_deadline();
	if (!g.idle_ns)
		return;
	for (e = g.jobs; e; e = next) {
		struct agg_job *job = e->job;

		next = e->next;
		if (e->dead || job->importing || job->failed)
			continue;
		if (job->inflight || job->creating) {
			job->last_active_ns = g.now_ns;
			continue;
		}
		if (g.now_ns - job->last_active_ns >= g.idle_ns)
			job_reclaim(e);
	}
	for (c = g.conns; c; c = cn) {
		cn = c->next;
		if (c->closing)
			continue;
		if (c->reclaim_ns && g.now_ns >= c->reclaim_ns) {
			conn_close(c, "its job was reclaimed and it did not take the error");
			continue;
		}
		/* a silent connection without a job: half a header, or a
		 * monitor gone quiet; links, imports and admins wait on us */
		if (!c->job && !c->mig_link && !c->import_job && !c->mig_admin &&
		    g.now_ns - c->last_rx_ns >= g.idle_ns)
			conn_close(c, "idle timeout");
	}
	/* failed jobs whose workers stay connected and silent: their memory
	 * goes with the last connection (closing may free the job and others'
	 * entries: start over after each close) */
again:
	for (e = g.jobs; e; e = e->next) {
		struct agg_job *job = e->job;

		if (e->dead || !job->failed || job->importing ||
		    g.now_ns - job->last_active_ns < g.idle_ns)
			continue;
		for (unsigned int r = 0; r < job->spec.n_workers; r++) {
			c = job->rank_conn[r];
			if (c && !c->closing) {
				conn_close(c, "idle timeout after its job failed");
				goto again;
			}
		}
	}
}

