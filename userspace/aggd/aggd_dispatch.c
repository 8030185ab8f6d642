// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd message dispatch (aggd_dispatch.h). A peer's mistake never
 * stops the daemon: a malformed header closes that connection after an
 * ERROR reply; a worker that misbehaves fails its own job (every other
 * worker of the job gets an ERROR naming the cause) and no other job
 * notices.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggd_dispatch.h"
#include "aggd_jobs.h"
#include "aggd_migrate.h"
#include "aggd_report.h"
#include "aggd_state.h"
#include "agg_pool.h"
#include "agg_rdma.h"
#include "agg_sum.h"
#include "spare_log.h"
#include "spare_metrics.h"
#include "spare_util.h"

static void handle_register(struct conn *c)
{
	struct agg_job_spec spec;
	struct job_entry *e;
	struct agg_job *job;
	unsigned int rank;
	int ret;

	ret = agg_register_decode(c->body, c->hdr.len, &spec);
	free(c->body);
	c->body = NULL;
	if (ret) {
		fail_conn(c, (unsigned int)-ret, "REGISTER rejected");
		return;
	}
	if (c->job) {
		agg_spec_free(&spec);
		fail_conn(c, AGG_ESTATE, "REGISTER on a registered connection");
		return;
	}
	if (tenants_on() && !c->tenant_authed) {
		/* before any lookup: an unproven peer learns nothing of names */
		agg_spec_free(&spec);
		fail_conn(c, AGG_EAUTH,
			  "REGISTER without a tenant's proof (this daemon has a tenants file)");
		return;
	}
	rank = spec.rank;	/* agg_job_create() takes spec over */
	e = job_find(c->tenant, spec.name);
	if (e) {
		job = e->job;
		if (!agg_token_equal(spec.token, job->spec.token)) {
			agg_spec_free(&spec);
			fail_conn(c, AGG_EAUTH, "REGISTER");
			return;
		}
		if (!agg_spec_same_job(&spec, &job->spec)) {
			agg_spec_free(&spec);
			fail_conn(c, AGG_ESPEC, "REGISTER");
			return;
		}
		if (job->failed) {
			agg_spec_free(&spec);
			fail_conn(c, AGG_EJOBFAIL, "REGISTER");
			return;
		}
		if (job->importing) {
			agg_spec_free(&spec);
			fail_conn(c, AGG_ESTATE, "REGISTER of a job still being imported");
			return;
		}
		if (job->rank_conn[spec.rank] || job->rank_left[spec.rank]) {
			agg_spec_free(&spec);
			fail_conn(c, AGG_ERANK, "REGISTER");
			return;
		}
	} else {
		const struct moved_job *mv = moved_find(c->tenant, spec.name);

		if (mv && agg_token_equal(mv->token, spec.token)) {
			/* it moved away: tell the worker where it went */
			log_info("conn %u (%s): REGISTER of job '%s', which moved to %s:%u",
			       c->id, c->peer, spec.name, mv->to.host, mv->to.port);
			agg_spec_free(&spec);
			send_redirect(c, &mv->to, mv->iter);
			rx_expect_hdr(c);
			return;
		}
		e = job_new(c, c->tenant, &spec, "REGISTER");
		if (!e) {
			agg_spec_free(&spec);
			return;
		}
		job = e->job;
	}
	c->job = job;
	c->rank = rank;
	job->rank_conn[rank] = c;
	job->n_attached++;
	agg_spec_free(&spec);
	if (job->creating) {
		/* answered when the job's buffers are ready (aggd_jobs.c:
		 * job_new); what it sends meanwhile is held (handle_hdr);
		 * told how far they are if it asked (hdr.part's flags) */
		c->reg_pending = true;
		c->reg_wait = (c->hdr.part & AGG_REG_WANT_WAIT) != 0;
		if (c->reg_wait)
			job_send_reg_wait(c);
		rx_expect_hdr(c);
		return;
	}
	job_register_reply(c);
	rx_expect_hdr(c);
}

/*
 * The per-job families of STATS (spare-aggctl reads them; /metrics leaves
 * them out, their label names the jobs). Index k as in job_metrics[].
 */
static void job_families(struct spare_metrics *m)
{
	static const struct {
		const char *name, *help;
		enum spare_metric_type type;
	} job_metrics[] = {
		{ "spare_aggd_job_pushes_total", "PUSH messages received for the job.", SPARE_COUNTER },
		{ "spare_aggd_job_reductions_total", "Partition reductions done for the job.", SPARE_COUNTER },
		{ "spare_aggd_job_failed", "1 if the job has failed.", SPARE_GAUGE },
		{ "spare_aggd_job_moving", "1 while the job moves to or arrives from another instance; label barrier: the iteration it moves at.", SPARE_GAUGE },
		/* from the job's REPORTs: only jobs that reported */
		{ "spare_aggd_job_report_iteration", "Iteration of the job's last REPORT.", SPARE_GAUGE },
		{ "spare_aggd_job_report_iterations_planned", "Iterations the job will run (its REPORT's iter_total; jobs that gave one).", SPARE_GAUGE },
		{ "spare_aggd_job_report_loss", "Loss in the job's last REPORT.", SPARE_GAUGE },
		{ "spare_aggd_job_report_prev_loss", "Loss in the REPORT before the last (jobs with two reports).", SPARE_GAUGE },
		{ "spare_aggd_job_report_cpu_seconds", "CPU-seconds of the job's trainers, as last reported.", SPARE_GAUGE },
		{ "spare_aggd_job_report_cpu_rate", "Cores the job's trainers used between its last two REPORTs (daemon clock).", SPARE_GAUGE },
		{ "spare_aggd_job_report_remaining_cpu_seconds", "CPU-seconds of work left: (iter_total - iteration) x CPU-seconds per iteration so far.", SPARE_GAUGE },
		{ "spare_aggd_job_growth", "FlowCon growth efficiency G: loss drop relative to the first loss per CPU-second, EWMA-smoothed.", SPARE_GAUGE },
		/* --flowcon only */
		{ "spare_aggd_job_flowcon_share", "The job's FlowCon share of --max-cores (cores).", SPARE_GAUGE },
		{ "spare_aggd_job_flowcon_watched", "1 if the job is on FlowCon's watch list.", SPARE_GAUGE },
		{ "spare_aggd_job_weight", "The job's weight in the pool's WFS order (100: an equal FlowCon share).", SPARE_GAUGE },
		/* every job */
		{ "spare_aggd_job_receive_folds_total", "The job's sums completed on the event loop that received the last push (the pool's queue was empty).", SPARE_COUNTER },
		{ "spare_aggd_job_receive_fold_seconds_total", "Time the event loop spent on those folds.", SPARE_COUNTER },
	};

	/* one family at a time: the format wants a family's samples together */
	for (size_t k = 0; k < sizeof(job_metrics) / sizeof(job_metrics[0]); k++) {
		spare_metrics_family(m, job_metrics[k].name, job_metrics[k].type,
				     job_metrics[k].help);
		for (struct job_entry *e = g.jobs; e; e = e->next) {
			struct agg_job *j = e->job;
			const struct job_report *r = &e->rep;
			const char *lab[] = { "job_name", j->spec.name, NULL, NULL, NULL };
			char barrier[16];
			double v;

			if (k == 3 && !j->migrating && !j->importing)
				continue;
			if (k >= 4 && k < 12 && (e->dead || !r->n))
				continue;
			/* FlowCon: every job a decision gave a share, reported or not */
			if (k >= 12 && k <= 14 &&
			    (e->dead || !report_flowcon_on() || !r->decided))
				continue;
			if ((k == 5 || k == 10) && !r->iter_total)
				continue;
			if ((k == 7 || k == 9) && r->n < 2)
				continue;
			if ((k == 9 && !(r->t_ns > r->prev_t_ns)) || (k == 10 && !r->iter))
				continue;
			switch (k) {
			case 0:
				spare_metrics_u64(m, lab, j->pushes);
				continue;
			case 1:
				spare_metrics_u64(m, lab, j->reduces);
				continue;
			case 2:
				spare_metrics_u64(m, lab, j->failed != 0);
				continue;
			case 3:
				snprintf(barrier, sizeof(barrier), "%u", j->mig_barrier);
				lab[2] = "barrier";
				lab[3] = barrier;
				spare_metrics_u64(m, lab, 1);
				continue;
			case 4:
				spare_metrics_u64(m, lab, r->iter);
				continue;
			case 5:
				spare_metrics_u64(m, lab, r->iter_total);
				continue;
			case 13:
				spare_metrics_u64(m, lab, r->fc.watched != 0);
				continue;
			case 14:
				spare_metrics_u64(m, lab, r->weight);
				continue;
			case 15:
				spare_metrics_u64(m, lab, j->recv_folds);
				continue;
			case 16:
				v = (double)j->recv_fold_ns / 1e9;
				break;
			case 6:
				v = r->loss;
				break;
			case 7:
				v = r->prev_loss;
				break;
			case 8:
				v = r->cpu;
				break;
			case 9:
				v = (r->cpu - r->prev_cpu) * 1e9 / (double)(r->t_ns - r->prev_t_ns);
				break;
			case 10:
				v = (double)(r->iter_total - r->iter) * (r->cpu / (double)r->iter);
				break;
			case 11:
				v = r->fc.g;
				break;
			default:
				v = r->fc.share;
				break;
			}
			spare_metrics_double(m, lab, v);
		}
	}
}

int stats_write(FILE *f, bool with_jobs)
{
	static struct agg_pool_stats st;	/* large; the loop is single-threaded */
	struct spare_metrics m;
	uint64_t njobs = 0, ncreating = 0, creating_bytes = 0, made_bytes = 0;
	int rc;

	for (struct job_entry *e = g.jobs; e; e = e->next) {
		const struct agg_job *j = e->job;

		njobs++;
		if (!j->creating)
			continue;
		ncreating++;
		creating_bytes += j->arena_bytes;
		made_bytes += __atomic_load_n(&j->create_made, __ATOMIC_RELAXED);
	}
	agg_pool_stats(g.pool, &st);
	spare_metrics_begin(&m, f, true);
	if (!with_jobs)
		spare_metrics_process(&m, "spare-aggd");
	spare_metrics_one_u64(&m, "spare_aggd_cores_active", SPARE_GAUGE, "Pool threads awake now.", st.active);
	spare_metrics_one_u64(&m, "spare_aggd_cores_max", SPARE_GAUGE, "Pool threads at most (--max-cores).", st.max);
	spare_metrics_one_double(&m, "spare_aggd_busy_seconds_total", SPARE_COUNTER, "Time pool threads spent reducing.",
		   (double)st.busy_ns / 1e9);
	spare_metrics_one_double(&m, "spare_aggd_cpu_seconds_total", SPARE_COUNTER, "CPU time of the whole daemon process (event loop, pool threads, controller).",
		   st.cpu_seconds);
	spare_metrics_one_u64(&m, "spare_aggd_reductions_total", SPARE_COUNTER, "Reduction tasks (folds of arrived pushes) run by the pool.", st.tasks);
	spare_metrics_one_u64(&m, "spare_aggd_receive_folds_total", SPARE_COUNTER,
		"Folds that completed a partition's sum, run on the event loop that received the last push (the pool's queue was empty).",
		g.recv_folds);
	spare_metrics_one_double(&m, "spare_aggd_receive_fold_seconds_total", SPARE_COUNTER,
		"Time the event loop spent on those folds (not in spare_aggd_busy_seconds_total).",
		(double)g.recv_fold_ns / 1e9);
	spare_metrics_one_double(&m, "spare_aggd_queue_wait_seconds_total", SPARE_COUNTER,
		   "Time tasks waited in the pool's queue.", (double)st.queue_ns / 1e9);
	spare_metrics_one_u64(&m, "spare_aggd_queued", SPARE_GAUGE, "Reduction tasks waiting now.", st.queued);
	spare_metrics_one_u64(&m, "spare_aggd_connections", SPARE_GAUGE, "Open connections.", g.n_conns);
	spare_metrics_one_u64(&m, "spare_aggd_connections_max", SPARE_GAUGE,
		"Connections at most (--max-conns, below the descriptor limit).", g.max_conns);
	spare_metrics_one_u64(&m, "spare_aggd_connections_evicted_total", SPARE_COUNTER,
		"Connections without a request closed at the cap to make room.", g.conns_evicted);
	spare_metrics_one_u64(&m, "spare_aggd_request_timeouts_total", SPARE_COUNTER,
		"Connections closed for completing no request within --request-timeout.", g.request_timeouts);
	spare_metrics_one_u64(&m, "spare_aggd_preauth_evicted_total", SPARE_COUNTER,
		"Unfinished requests of unproven peers closed to keep their memory within its budget.",
		g.preauth_evicted);
	spare_metrics_one_u64(&m, "spare_aggd_accept_pauses_total", SPARE_COUNTER,
		"Times a listener paused after accept ran out of descriptors or memory.",
		g.data_gate.pauses + g.admin_gate.pauses);
	spare_metrics_one_u64(&m, "spare_aggd_jobs", SPARE_GAUGE, "Jobs held now (live or failed, not yet reclaimed).",
		njobs);
	spare_metrics_one_u64(&m, "spare_aggd_jobs_created_total", SPARE_COUNTER, "Jobs created (REGISTER or IMPORT).",
		g.jobs_created);
	spare_metrics_one_u64(&m, "spare_aggd_jobs_creating", SPARE_GAUGE,
		"Jobs whose buffers are being made on helper threads (their REGISTERs or IMPORT wait; a creation being stopped counts until it has).",
		ncreating);
	spare_metrics_one_u64(&m, "spare_aggd_jobs_creating_bytes", SPARE_GAUGE,
		"Bytes of those jobs' buffers, in all.", creating_bytes);
	spare_metrics_one_u64(&m, "spare_aggd_jobs_creating_made_bytes", SPARE_GAUGE,
		"Of those, the bytes made (faulted in) so far.", made_bytes);
	spare_metrics_one_u64(&m, "spare_aggd_jobs_freeing", SPARE_GAUGE,
		"Jobs gone from the table whose buffers are being freed on helper threads (8 MiB and more).",
		g.jobs_freeing);
	spare_metrics_one_u64(&m, "spare_aggd_jobs_freeing_bytes", SPARE_GAUGE,
		"Bytes of those jobs' buffers.", g.jobs_freeing_bytes);
	spare_metrics_one_u64(&m, "spare_aggd_jobs_failed_total", SPARE_COUNTER, "Jobs failed.", g.jobs_failed);
	spare_metrics_one_u64(&m, "spare_aggd_jobs_reclaimed_total", SPARE_COUNTER, "Jobs reclaimed by the idle timeout.",
		g.jobs_reclaimed);
	spare_metrics_one_u64(&m, "spare_aggd_jobs_moved_out_total", SPARE_COUNTER, "Jobs moved to another instance.",
		g.jobs_moved_out);
	spare_metrics_one_u64(&m, "spare_aggd_jobs_moved_in_total", SPARE_COUNTER, "Jobs imported from another instance.",
		g.jobs_moved_in);
	spare_metrics_one_u64(&m, "spare_aggd_moves_failed_total", SPARE_COUNTER, "Moves that failed and were rolled back.",
		g.moves_failed);
	spare_metrics_one_u64(&m, "spare_aggd_refused_total", SPARE_COUNTER,
		"Connections closed for a peer's mistake (bad header, token, proof, size).", g.refused_total);
	spare_metrics_one_u64(&m, "spare_aggd_refused_auth_total", SPARE_COUNTER,
		"Of those, a wrong job token or a failed daemon proof.", g.refused_auth);
	spare_metrics_one_u64(&m, "spare_aggd_memory_bytes", SPARE_GAUGE, "Memory held by jobs.", g.mem_used);
	spare_metrics_one_u64(&m, "spare_aggd_reports_total", SPARE_COUNTER, "REPORTs accepted.", g.reports_total);
	spare_metrics_one_u64(&m, "spare_aggd_reports_refused_total", SPARE_COUNTER,
		"REPORTs refused with an ERROR (nothing changed).", g.reports_refused);
	spare_metrics_one_u64(&m, "spare_aggd_flowcon", SPARE_GAUGE, "1 if the daemon runs FlowCon (--flowcon).",
		report_flowcon_on() != 0);
	spare_metrics_one_u64(&m, "spare_aggd_flowcon_decisions_total", SPARE_COUNTER, "FlowCon intervals decided.",
		g.flowcon_decisions);
	spare_metrics_one_double(&m, "spare_aggd_sum_tail_seconds_total", SPARE_COUNTER,
		"Time from a partition's last push landing to its sum being done, summed over sums.",
		(double)g.sum_tail_ns / 1e9);
	spare_metrics_one_u64(&m, "spare_aggd_sums_total", SPARE_COUNTER,
		"Partition sums completed (each takes one or more folds: spare_aggd_reductions_total).",
		g.sum_tails);
	spare_metrics_one_double(&m, "spare_aggd_sum_tail_max_seconds", SPARE_GAUGE,
		"Longest time from a partition's last push landing to its sum being done.",
		(double)g.sum_tail_max_ns / 1e9);
	spare_metrics_one_u64(&m, "spare_aggd_rdma_pushes_lent_total", SPARE_COUNTER,
		"RDMA pushes folded where they landed (their receive slot lent to the partition).",
		g.rdma_pushes_lent);
	spare_metrics_one_u64(&m, "spare_aggd_rdma_pushes_copied_total", SPARE_COUNTER,
		"RDMA pushes copied out of their receive slot (the connection had lent all the slots it may lend).",
		g.rdma_pushes_copied);
	spare_metrics_one_u64(&m, "spare_aggd_rdma_replies_in_place_total", SPARE_COUNTER,
		"RDMA pull replies sent from the partition's registered output in place.",
		g.rdma_replies_in_place);
	spare_metrics_one_u64(&m, "spare_aggd_rdma_replies_copied_total", SPARE_COUNTER,
		"RDMA pull replies copied into the send buffer (the job's outputs are not registered).",
		g.rdma_replies_copied);
	spare_metrics_one_u64(&m, "spare_aggd_rdma_output_reg_failures_total", SPARE_COUNTER,
		"Jobs whose outputs could not be registered for in-place RDMA replies (RLIMIT_MEMLOCK...): their replies are copied.",
		g.rdma_output_reg_failed);
	spare_metrics_one_u64(&m, "spare_aggd_rdma_output_regs_running", SPARE_GAUGE,
		"Jobs whose outputs are being registered for in-place RDMA replies, off the event loop: their replies are copied until it ends.",
		g.rdma_output_regs_running);
	spare_metrics_one_u64(&m, "spare_aggd_rdma_accepts_total", SPARE_COUNTER,
		"RDMA worker connections accepted (set up on helper threads, accepted on the event loop).",
		g.rdma_accepts);
	spare_metrics_one_u64(&m, "spare_aggd_rdma_connections_setting_up", SPARE_GAUGE,
		"RDMA worker connect requests being set up on helper threads now (receive buffer, QP, receives; at most 2, more wait), not yet accepted.",
		g.rdma_setups_running);
	spare_metrics_one_u64(&m, "spare_aggd_rdma_connections_queued", SPARE_GAUGE,
		"RDMA worker connect requests waiting for a set-up helper (both busy), in order of arrival.",
		g.rdma ? agg_rdma_setups_queued(g.rdma) : 0);
	spare_metrics_one_double(&m, "spare_aggd_rdma_cm_seconds_total", SPARE_COUNTER,
		"Time the event loop spent on RDMA connection events (connect requests handed to helpers, establishment, disconnects).",
		(double)g.rdma_cm_ns / 1e9);
	spare_metrics_one_double(&m, "spare_aggd_rdma_cm_max_seconds", SPARE_GAUGE,
		"Longest time one batch of RDMA connection events held the event loop.",
		(double)g.rdma_cm_max_ns / 1e9);
	spare_metrics_family(&m, "spare_aggd_isa_info", SPARE_GAUGE,
			     "Always 1; label isa: the summation kernels in use.");
	spare_metrics_u64(&m, (const char *const[]){ "isa", agg_isa_name(agg_isa_selected()), NULL }, 1);
	if (with_jobs)
		job_families(&m);
	rc = spare_metrics_end(&m);
	if (rc || !with_jobs)
		return rc;
	/* STATS only (spare-aggctl's plots), never on /metrics: cores over time. */
	fprintf(f, "# cores over time: t_ms active busy queued\n");
	for (unsigned int i = 0; i < st.n_hist; i++)
		fprintf(f, "# hist %llu %u %.3f %zu\n",
			(unsigned long long)st.hist[i].t_ms, st.hist[i].active,
			st.hist[i].busy, st.hist[i].queued);
	return ferror(f) ? -1 : 0;
}

static void handle_stats(struct conn *c)
{
	struct agg_hdr h;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		conn_close(c, "out of memory");
		return;
	}
	if (stats_write(f, true))
		log_warn("stats: page not made: %s", strerror(errno));
	fclose(f);
	if (len > AGG_MAX_STATS_TEXT)
		len = AGG_MAX_STATS_TEXT;
	if (c->rdma && len > AGG_RDMA_MAX_PAYLOAD)
		len = AGG_RDMA_MAX_PAYLOAD;
	agg_hdr_init(&h, AGG_MSG_STATS_REPLY, (uint32_t)len);
	tx_send(c, &h, text, len, text);
}

static void *sink_buf(void)
{
	if (!g.sink)
		g.sink = malloc(g.max_push ? g.max_push : 1);
	return g.sink;
}

/* Drop a push's payload (the job moved, or moves at this iteration). */
static void sink_push(struct conn *c)
{
	void *sink;

	if (!c->hdr.len) {
		rx_expect_hdr(c);
		return;
	}
	sink = sink_buf();
	if (!sink) {
		conn_close(c, "out of memory for a dropped push");
		return;
	}
	c->sinking = true;
	rx_expect_body(c, sink, c->hdr.len);
}

static struct agg_part *job_part(struct conn *c, const char *what)
{
	struct agg_job *job = c->job;

	if (!job) {
		fail_conn(c, AGG_ENOJOB, what);
		return NULL;
	}
	if (c->hdr.job_id != job->id) {
		fail_conn(c, AGG_EINVAL, what);
		return NULL;
	}
	if (c->hdr.part >= job->spec.n_parts) {
		fail_conn(c, AGG_EINVAL, what);
		return NULL;
	}
	return &job->parts[c->hdr.part];
}

/*
 * Fail the job if partition 'part' can never complete iteration 'iter'
 * because a departed rank's share of it is missing. Returns 1 if so.
 */
static int job_check_departed(struct agg_job *job, struct agg_part *part,
			      uint32_t iter)
{
	int r = agg_part_departed_blocks(job, part, iter);

	if (r < 0)
		return 0;
	job_fail(job, "worker rank %d %s before partition %u iteration %u was complete",
		 r, job->rank_left[r] == AGG_RANK_LEFT ? "left" : "disconnected",
		 part->index, iter);
	return 1;
}

static void job_misbehaved(struct conn *c, unsigned int status,
			   const char *what)
{
	struct agg_job *job = c->job;

	fail_conn(c, status, what);
	job_fail(job, "rank %u sent a bad %s for partition %u iteration %u: %s",
		 c->rank, what, c->hdr.part, c->hdr.iter, agg_status_str(status));
}

static void handle_hdr(struct conn *c)
{
	struct agg_hdr *h = &c->hdr;
	struct agg_rdma_loan *loan;
	struct agg_part *part;
	const void *body;
	int ret;

	ret = agg_hdr_decode(c->hdr_buf, h, c->rdma && g.max_push > AGG_RDMA_MAX_PAYLOAD ?
			     AGG_RDMA_MAX_PAYLOAD : g.max_push);
	if (!ret && c->rdma && c->rmsg_len != AGG_HDR_SIZE + (size_t)h->len)
		ret = -AGG_EPROTO;	/* the SEND is not exactly one message */
	if (ret) {
		if (c->job)
			job_misbehaved(c, (unsigned int)-ret, "header");
		else
			fail_conn(c, (unsigned int)-ret, "header");
		return;
	}
	if (c->mig_link) {
		link_hdr(c);
		return;
	}
	if (c->held_head && !c->replaying) {
		/* RDMA: requests after a held one wait behind it, in order */
		conn_hold(c);
		return;
	}
	if (c->reg_pending) {
		/* its REGISTER is not answered yet: the job's buffers are
		 * being made; replayed in order once it is */
		conn_hold(c);
		return;
	}
	switch (h->type) {
	case AGG_MSG_PEER_HELLO:
	case AGG_MSG_PEER_PROOF:
	case AGG_MSG_TENANT_HELLO:
	case AGG_MSG_TENANT_PROOF:
	case AGG_MSG_REGISTER:
	case AGG_MSG_MIGRATE:
	case AGG_MSG_IMPORT:
	case AGG_MSG_REPORT:
		if (h->type == AGG_MSG_MIGRATE && h->len != AGG_MIGRATE_SIZE) {
			fail_conn(c, AGG_ESIZE, "MIGRATE");
			return;
		}
		if (h->type == AGG_MSG_MIGRATE && !c->admin) {
			fail_conn(c, AGG_EAUTH,
				  "MIGRATE on the workers' port (it is served on --admin-addr)");
			return;
		}
		if (h->type == AGG_MSG_IMPORT && !c->peer_authed) {
			fail_conn(c, AGG_EAUTH,
				  "IMPORT from a peer that did not prove the daemons' shared key");
			return;
		}
		if (h->type == AGG_MSG_IMPORT && (c->job || c->import_job)) {
			fail_conn(c, AGG_ESTATE, "IMPORT");
			return;
		}
		/* a stranger's request (its size the codec bounded): the
		 * memory of all of them is shared */
		if (conn_preauth(c) && !conn_preauth_charge(c, h->len)) {
			fail_conn(c, AGG_ENOMEM, agg_msg_type_name(h->type));
			return;
		}
		c->body = malloc(h->len);
		if (!c->body) {
			fail_conn(c, AGG_ENOMEM, agg_msg_type_name(h->type));
			return;
		}
		rx_expect_body(c, c->body, h->len);
		return;
	case AGG_MSG_IMPORT_STATE: {
		void *buf = import_state_buf(c);

		if (buf)
			rx_expect_body(c, buf, h->len);
		return;
	}
	case AGG_MSG_IMPORT_COMMIT:
		if (!c->import_job || c->import_job->creating ||
		    h->len != c->import_job->spec.n_workers) {
			fail_conn(c, c->import_job && !c->import_job->creating ?
				  AGG_ESIZE : AGG_ESTATE, "IMPORT_COMMIT");
			return;
		}
		c->body = malloc(h->len);
		if (!c->body) {
			fail_conn(c, AGG_ENOMEM, "IMPORT_COMMIT");
			return;
		}
		rx_expect_body(c, c->body, h->len);
		return;
	case AGG_MSG_STATS:
		if (!c->admin) {
			fail_conn(c, AGG_EAUTH,
				  "STATS is the operator's view: ask on the admin address");
			return;
		}
		handle_stats(c);
		rx_expect_hdr(c);
		return;
	case AGG_MSG_PUSH:
		if (c->redirected && !c->job) {
			sink_push(c);	/* sent before it read the REDIRECT */
			return;
		}
		part = job_part(c, "PUSH");
		if (!part)
			return;
		if (c->job->failed) {
			if (c->rdma) {
				/* whole message already here: drop it, the
				 * worker's next PULL gets EJOBFAIL */
				rx_expect_hdr(c);
				return;
			}
			fail_conn(c, AGG_EJOBFAIL, c->job->fail_msg);
			return;
		}
		if (h->len != part->bytes) {
			job_misbehaved(c, AGG_ESIZE, "PUSH");
			return;
		}
		if (c->job->migrating && h->iter >= c->job->mig_barrier) {
			/* held until the move is over: dropped once the job
			 * moved (repeated at the target after the REDIRECT),
			 * served here if the move fails */
			conn_hold(c);
			return;
		}
		ret = agg_part_push_check(part, c->rank, h->iter);
		if (ret) {
			job_misbehaved(c, (unsigned int)-ret, "PUSH");
			return;
		}
		if (rx_lend_body(c, &body, &loan)) {
			/* folded from the receive buffer: no copy */
			g.rdma_pushes_lent++;
			agg_part_push_lent(part, c->rank, body, loan);
			rx_body_lent(c);
			return;
		}
		if (c->rdma)
			g.rdma_pushes_copied++;
		rx_expect_body(c, agg_part_push_buf(part, c->rank), h->len);
		return;
	case AGG_MSG_SET_WEIGHTS:
		if (c->redirected && !c->job) {
			sink_push(c);
			return;
		}
		part = job_part(c, "SET_WEIGHTS");
		if (!part)
			return;
		if (h->len != part->bytes) {
			job_misbehaved(c, AGG_ESIZE, "SET_WEIGHTS");
			return;
		}
		ret = agg_part_weights_check(c->job, part, c->rank);
		if (ret) {
			job_misbehaved(c, (unsigned int)-ret, "SET_WEIGHTS");
			return;
		}
		rx_expect_body(c, part->out, h->len);
		return;
	case AGG_MSG_PULL:
		if (c->redirected && !c->job) {
			rx_expect_hdr(c);	/* the REDIRECT is on its way */
			return;
		}
		part = job_part(c, "PULL");
		if (!part)
			return;
		if (c->job->failed) {
			send_error(c, AGG_EJOBFAIL, h->part, h->iter, "job '%s' failed: %s",
				   c->job->spec.name, c->job->fail_msg);
			rx_expect_hdr(c);
			return;
		}
		if (c->job->migrating && h->iter >= c->job->mig_barrier) {
			/* held: answered by the REDIRECT once the job moved,
			 * served here if the move fails */
			conn_hold(c);
			return;
		}
		ret = agg_part_pull_check(part, c->rank, h->iter);
		if (ret < 0) {
			job_misbehaved(c, (unsigned int)-ret, "PULL");
			return;
		}
		c->job->pulls++;
		if (ret == 0)
			queue_pull_reply(c, part);
		else
			job_check_departed(c->job, part, h->iter);
		rx_expect_hdr(c);
		return;
	case AGG_MSG_LEAVE:
		if (c->job) {
			c->left = true;
			c->job->rank_left[c->rank] = AGG_RANK_LEFT;
		}
		conn_close(c, NULL);
		return;
	default:
		fail_conn(c, AGG_EPROTO, "unexpected message type");
		return;
	}
}

static void handle_body(struct conn *c)
{
	struct agg_hdr *h = &c->hdr;
	struct agg_job *job = c->job;
	struct agg_part *part;
	int ret;

	if (c->sinking) {
		c->sinking = false;
		rx_expect_hdr(c);
		return;
	}
	if (c->mig_link) {
		link_body(c);	/* an ERROR from the target */
		return;
	}
	switch (h->type) {
	case AGG_MSG_PEER_HELLO:
		handle_peer_hello(c);
		return;
	case AGG_MSG_PEER_PROOF:
		handle_peer_proof(c);
		return;
	case AGG_MSG_TENANT_HELLO:
		handle_tenant_hello(c);
		return;
	case AGG_MSG_TENANT_PROOF:
		handle_tenant_proof(c);
		return;
	case AGG_MSG_REGISTER:
		handle_register(c);
		return;
	case AGG_MSG_MIGRATE:
		handle_migrate(c);
		return;
	case AGG_MSG_IMPORT:
		handle_import(c);
		return;
	case AGG_MSG_REPORT:
		handle_report(c);
		return;
	case AGG_MSG_IMPORT_STATE:
		rx_expect_hdr(c);
		return;
	case AGG_MSG_IMPORT_COMMIT:
		handle_import_commit(c);
		return;
	case AGG_MSG_PUSH:
		if (!job) {
			/* cannot happen: a job moves only with no push under way */
			conn_close(c, "internal: push payload without a job");
			return;
		}
		part = &job->parts[h->part];
		job->pushes++;
		job->bytes_in += h->len;
		if (job->failed || job_check_departed(job, part, h->iter)) {
			rx_expect_hdr(c);
			return;
		}
		ret = agg_part_push_done(part, job->spec.n_workers, c->rank,
					 h->iter);
		if (part->n_pushed == job->spec.n_workers && h->iter == part->iter &&
		    part->state == AGG_PART_REDUCING)
			part->last_push_ns = spare_now_ns();	/* the last one */
		if (ret)
			fold_part(job, part);
		rx_expect_hdr(c);
		return;
	case AGG_MSG_SET_WEIGHTS:
		if (!job) {
			conn_close(c, "internal: weights payload without a job");
			return;
		}
		job->parts[h->part].weights_set = true;
		rx_expect_hdr(c);
		return;
	default:
		conn_close(c, "internal: body for a message without one");
		return;
	}
}

/* ---- the connections' events (conn_ops) ---- */

static void on_closing(struct conn *c, const char *why)
{
	struct agg_job *job = c->job;

	if (c->mig_link)
		mig_link_closing(c, why);
	if (job && !c->left && !job->failed && !c->reg_pending) {
		/*
		 * A rank closed for a protocol error fails its job. Otherwise
		 * fail it only if the job still waits on this rank: a rank
		 * that has done its share may go while the others pull.
		 */
		if (c->close_after_tx || agg_job_needs_rank(job, c->rank)) {
			job_fail(job, "worker rank %u disconnected (%s)", c->rank,
				 why ? why : "closed");
		} else {
			job->rank_left[c->rank] = AGG_RANK_GONE;
			log_info("job %u '%s': worker rank %u disconnected owing nothing; the others go on",
				 job->id, job->spec.name, c->rank);
		}
	}
}

static void on_destroyed(struct conn *c)
{
	conn_detach(c);
	if (c->mig_link)
		mig_link_gone(c->mig_link);
	if (c->mig_admin)
		mig_admin_gone(c);
	if (c->import_job)
		import_abandoned(c);
}

static const struct conn_ops dispatch_ops = {
	.hdr = handle_hdr,
	.body = handle_body,
	.pull_sent = pull_reply_done,
	.pin = job_pin,
	.closing = on_closing,
	.destroyed = on_destroyed,
};

void dispatch_init(void)
{
	conn_set_ops(&dispatch_ops);
}
