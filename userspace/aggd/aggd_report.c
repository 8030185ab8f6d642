// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd's progress reports and FlowCon (aggd_report.h).
 *
 * A REPORT names its job and carries the job's token, so a trainer may
 * send it on any connection (its workers' or one of its own). A REPORT
 * that is malformed or does not fit the job's history (unknown job, wrong
 * token, iteration not after the last one, CPU-seconds going backwards, a
 * first loss of 0) gets an ERROR and changes nothing; the connection stays
 * up. An accepted one gets a REPORT_REPLY with the job's current share.
 *
 * FlowCon decides once every job that has reported has reported again
 * since the last decision, or when the interval has passed since the last
 * one, whichever comes first; the decision is made on the REPORT that
 * completes it, so an idle daemon does no work.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aggd_jobs.h"
#include "aggd_report.h"
#include "aggd_state.h"
#include "agg_pool.h"
#include "spare_log.h"

static struct {
	bool on;
	struct flowcon_params params;
	double total;			/* cores shared out */
	uint64_t interval_ns;
	uint64_t last_ns;		/* last decision */
	bool reset;			/* an arrival or a departure since */
	struct flowcon_job *scratch;	/* contiguous copy for the library */
	unsigned int scratch_cap;
} fc;

/* Under FlowCon a new job starts at an equal share. */
static uint32_t report_first_weight(const struct agg_job *job)
{
	return AGGD_FLOWCON_UNIT_WEIGHT;
}

static const struct job_report_ops flowcon_job_ops = {
	.changed	= report_jobs_changed,
	.first_weight	= report_first_weight,
};

void report_flowcon_enable(double total_cores, uint64_t interval_ns)
{
	fc.on = true;
	fc.params = flowcon_defaults;
	fc.total = total_cores;
	fc.interval_ns = interval_ns;
	fc.reset = true;
	jobs_set_report_ops(&flowcon_job_ops);
}

bool report_flowcon_on(void)
{
	return fc.on;
}

void report_jobs_changed(void)
{
	fc.reset = true;
}

static uint32_t weight_of(double share, unsigned int n)
{
	double w = share * n / fc.total * AGGD_FLOWCON_UNIT_WEIGHT;

	if (!(w >= 1))
		return 1;
	if (w > AGG_MAX_WEIGHT)
		return AGG_MAX_WEIGHT;
	return (uint32_t)lround(w);
}

/* One FlowCon interval over the live jobs; their weights follow. */
static void flowcon_decide(void)
{
	unsigned int n = 0, i = 0;
	int ret;

	for (struct job_entry *e = g.jobs; e; e = e->next)
		n += !e->dead;
	if (!n)
		return;
	if (n > fc.scratch_cap) {
		void *p = realloc(fc.scratch, n * sizeof(*fc.scratch));

		if (!p) {
			log_warn("FlowCon: out of memory for %u jobs; shares unchanged", n);
			return;
		}
		fc.scratch = p;
		fc.scratch_cap = n;
	}
	for (struct job_entry *e = g.jobs; e; e = e->next)
		if (!e->dead)
			fc.scratch[i++] = e->rep.fc;
	ret = flowcon_shares(&fc.params, fc.scratch, n, fc.total, fc.reset);
	if (ret < 0) {
		log_warn("FlowCon: decision refused (%d); shares unchanged", ret);
		return;
	}
	fc.reset = false;
	fc.last_ns = g.now_ns;
	g.flowcon_decisions++;
	i = 0;
	for (struct job_entry *e = g.jobs; e; e = e->next) {
		struct job_report *r = &e->rep;
		bool was = r->fc.watched;
		uint32_t w;

		if (e->dead)
			continue;
		r->fc = fc.scratch[i++];
		r->fresh = false;
		r->decided = true;
		w = weight_of(r->fc.share, n);
		if (w != r->weight && !agg_pool_set_weight(g.pool, e->job->id, w))
			r->weight = w;
		if (r->fc.watched != was)
			log_info("job %u '%s': FlowCon %s the watch list (growth %.3g, share %.3f cores)",
				 e->job->id, e->job->spec.name,
				 r->fc.watched ? "put it on" : "took it off",
				 r->fc.g, r->fc.share);
	}
}

static bool decision_due(void)
{
	if (fc.reset || g.now_ns - fc.last_ns >= fc.interval_ns)
		return true;
	for (struct job_entry *e = g.jobs; e; e = e->next)
		if (!e->dead && e->rep.n && !e->rep.fresh)
			return false;
	return true;
}

static const struct flowcon_params *params(void)
{
	return fc.on ? &fc.params : &flowcon_defaults;
}

/* An ERROR for a REPORT; the connection reads on. */
#define REFUSE(c, status, ...)						\
	do {								\
		g.reports_refused++;					\
		send_error(c, status, 0, 0, __VA_ARGS__);		\
		log_info("conn %u (%s): REPORT refused: %s", (c)->id,	\
			 (c)->peer, agg_status_str(status));		\
		rx_expect_hdr(c);					\
	} while (0)

void handle_report(struct conn *c)
{
	struct agg_report rep;
	struct job_entry *e;
	struct job_report *r;
	struct flowcon_job fj;
	uint8_t *reply;
	struct agg_hdr h;
	uint32_t flags = 0;
	int ret;

	ret = agg_report_decode(c->body, c->hdr.len, &rep);
	free(c->body);
	c->body = NULL;
	if (ret == -AGG_EVERSION) {
		REFUSE(c, AGG_EVERSION, "REPORT: payload version %u is not %u",
		       rep.version, AGG_REPORT_VERSION);
		return;
	}
	if (ret) {
		REFUSE(c, (unsigned int)-ret, "REPORT: %s",
		       ret == -AGG_EINVAL ?
		       "a field out of range (names printable; loss and CPU-seconds finite and >= 0; iter_total 0 or >= iteration)" :
		       "malformed payload (reserved bytes not zero)");
		return;
	}
	e = job_find_authed(c->tenant, rep.name, rep.token);
	if (!e) {
		char what[AGG_NAME_LEN + 64];

		g.reports_refused++;
		snprintf(what, sizeof(what), "REPORT: " AGGD_NO_JOB_TOKEN, rep.name);
		fail_conn(c, AGG_EAUTH, what);
		return;
	}
	r = &e->rep;
	if (r->n && rep.iter <= r->iter) {
		REFUSE(c, AGG_ESEQ,
		       "REPORT: job '%s' iteration %llu is not after the last report's %llu",
		       rep.name, (unsigned long long)rep.iter,
		       (unsigned long long)r->iter);
		return;
	}
	if (r->n && rep.cpu_seconds < r->cpu) {
		REFUSE(c, AGG_EINVAL,
		       "REPORT: job '%s' CPU-seconds %.6g went backwards (last %.6g)",
		       rep.name, rep.cpu_seconds, r->cpu);
		return;
	}
	fj = r->fc;
	if (flowcon_report(params(), &fj, rep.loss, rep.cpu_seconds)) {
		REFUSE(c, AGG_EINVAL, "REPORT: job '%s': the first loss must be > 0",
		       rep.name);
		return;
	}
	r->fc = fj;
	r->prev_loss = r->loss;
	r->prev_cpu = r->cpu;
	r->prev_t_ns = r->t_ns;
	r->loss = rep.loss;
	r->cpu = rep.cpu_seconds;
	r->t_ns = g.now_ns;
	r->iter = rep.iter;
	r->iter_total = rep.iter_total;
	r->n++;
	r->fresh = true;
	g.reports_total++;
	if (fc.on && decision_due())
		flowcon_decide();
	if (fc.on)
		flags |= AGG_REPORT_FLOWCON | (r->fc.watched ? AGG_REPORT_WATCHED : 0);
	reply = malloc(AGG_REPORT_REPLY_SIZE);
	if (!reply) {
		conn_close(c, "out of memory");
		return;
	}
	agg_report_reply_encode(fc.on ? r->fc.share : -1.0, flags, reply);
	agg_hdr_init(&h, AGG_MSG_REPORT_REPLY, AGG_REPORT_REPLY_SIZE);
	h.job_id = e->job->id;
	tx_send(c, &h, reply, AGG_REPORT_REPLY_SIZE, reply);
	rx_expect_hdr(c);
}

/* Exiting. */
void report_free(void)
{
	free(fc.scratch);
	memset(&fc, 0, sizeof(fc));
}
