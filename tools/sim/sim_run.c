// SPDX-License-Identifier: GPL-2.0
/*
 * spare-sim's event loop: drive libspare-sched's Tiresias scheduler over a
 * trace and write the reference simulator's --scheme=count outputs.
 *
 *  job.csv      one row per completed job, in completion order (with a
 *               decision interval, jobs ended since the last decision are
 *               logged together at the next), time being its end:
 *               time,job_id,num_gpu,submit_time,start_time,end_time,
 *               executed_time,JCT,duration,pending_time,preempt,resume,promote
 *  cluster.csv  one row per decision:
 *               time,idle_node,busy_node,full_node,idle_gpu,busy_gpu,
 *               pending_job,running_job,completed_job
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "sim.h"

static int cmp_i64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return a < b ? -1 : a > b;
}

/* Nearest-rank percentile of sorted v[0..n), n > 0. */
static int64_t percentile(const int64_t *v, size_t n, unsigned int pct)
{
	size_t rank = (n * pct + 99) / 100;

	return v[rank ? rank - 1 : 0];
}

int sim_run(const struct sim_spec *spec, struct sim_trace *t, const struct tir_config *cfg,
	    FILE *job_csv, FILE *cluster_csv, struct sim_summary *sum)
{
	struct tir_sched s;
	struct tir_step_result res;
	uint32_t *active, *scratch;
	int64_t *jct;
	double pending = 0;
	int ret;

	memset(sum, 0, sizeof(*sum));
	if (cfg->gpus != spec->gpus || t->n == 0)
		return -EINVAL;
	active = calloc(t->n, sizeof(*active));
	scratch = calloc(2 * t->n, sizeof(*scratch));
	jct = calloc(t->n, sizeof(*jct));
	ret = -ENOMEM;
	if (!active || !scratch || !jct)
		goto out;
	ret = tir_init(&s, cfg, t->jobs, t->n, active, scratch);
	if (ret)
		goto out;
	if (job_csv)
		fputs("time,job_id,num_gpu,submit_time,start_time,end_time,executed_time,"
		      "JCT,duration,pending_time,preempt,resume,promote\n", job_csv);
	if (cluster_csv)
		fputs("time,idle_node,busy_node,full_node,idle_gpu,busy_gpu,"
		      "pending_job,running_job,completed_job\n", cluster_csv);
	while (!tir_done(&s)) {
		int64_t now = tir_next_event(&s), busy, busy_nodes;

		ret = tir_step(&s, now, &res);
		if (ret)
			goto out;
		for (size_t i = 0; i < res.nended; i++) {
			const struct tir_job *j = &t->jobs[res.ended[i]];

			jct[sum->jobs++] = j->end - j->submit;
			if (j->end > sum->makespan)
				sum->makespan = j->end;
			pending += (double)j->acct.pending_total;
			sum->preemptions += j->acct.preempt;
			if (job_csv)
				fprintf(job_csv, "%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
					",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
					",%" PRId64 ",%u,%u,%u\n",
					j->end, j->id, j->num_gpu, j->submit, j->start, j->end,
					j->end - j->start, j->end - j->submit, j->duration,
					j->acct.pending_total, j->acct.preempt, j->resume, j->acct.promote);
		}
		busy = cfg->gpus - s.free_gpus;
		busy_nodes = (busy + spec->gpus_per_node - 1) / spec->gpus_per_node;
		if (res.pending > sum->max_pending)
			sum->max_pending = res.pending;
		if (cluster_csv)
			fprintf(cluster_csv, "%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
				",%" PRId64 ",%" PRId64 ",%zu,%zu,%zu\n",
				now, spec->nodes - busy_nodes, busy_nodes, busy_nodes, s.free_gpus,
				busy, res.pending, res.running, s.ndone);
	}
	sum->decisions = s.decisions;
	qsort(jct, sum->jobs, sizeof(*jct), cmp_i64);
	{
		double total = 0;

		for (size_t i = 0; i < sum->jobs; i++)
			total += (double)jct[i];
		sum->avg_jct = total / (double)sum->jobs;
	}
	sum->avg_pending = pending / (double)sum->jobs;
	sum->median_jct = percentile(jct, sum->jobs, 50);
	sum->p95_jct = percentile(jct, sum->jobs, 95);
	sum->p99_jct = percentile(jct, sum->jobs, 99);
	sum->max_jct = jct[sum->jobs - 1];
	ret = 0;
	if ((job_csv && ferror(job_csv)) || (cluster_csv && ferror(cluster_csv)))
		ret = -EIO;
out:
	free(active);
	free(scratch);
	free(jct);
	return ret;
}

char *sim_summary_json(const struct tir_config *cfg, const struct sim_summary *sum)
{
	struct json_object *o = json_object_new_object(), *lim = json_object_new_array();
	char *out = NULL;

	if (!o || !lim)
		goto out;
	for (int q = 0; q + 1 < cfg->nqueues; q++)
		json_object_array_add(lim, json_object_new_int64(cfg->limit[q]));
	json_object_object_add(o, "schedule",
			       json_object_new_string(tir_schedule_name(cfg->schedule)));
	json_object_object_add(o, "faithful", json_object_new_boolean(cfg->faithful));
	json_object_object_add(o, "gpus", json_object_new_int64(cfg->gpus));
	json_object_object_add(o, "queue_limits", lim);
	lim = NULL;
	json_object_object_add(o, "promote", json_object_new_double(cfg->promote));
	if (cfg->start_cost || cfg->requeue_delay) {	/* a live engine's costs, if modelled */
		json_object_object_add(o, "start_cost", json_object_new_int64(cfg->start_cost));
		json_object_object_add(o, "requeue_delay",
				       json_object_new_int64(cfg->requeue_delay));
	}
	if (cfg->decision_interval)	/* a live engine's passes, if modelled */
		json_object_object_add(o, "decision_interval",
				       json_object_new_int64(cfg->decision_interval));
	json_object_object_add(o, "jobs", json_object_new_int64((int64_t)sum->jobs));
	json_object_object_add(o, "avg_jct", json_object_new_double(sum->avg_jct));
	json_object_object_add(o, "median_jct", json_object_new_int64(sum->median_jct));
	json_object_object_add(o, "p95_jct", json_object_new_int64(sum->p95_jct));
	json_object_object_add(o, "p99_jct", json_object_new_int64(sum->p99_jct));
	json_object_object_add(o, "max_jct", json_object_new_int64(sum->max_jct));
	json_object_object_add(o, "makespan", json_object_new_int64(sum->makespan));
	json_object_object_add(o, "avg_pending", json_object_new_double(sum->avg_pending));
	json_object_object_add(o, "max_pending_jobs",
			       json_object_new_int64((int64_t)sum->max_pending));
	json_object_object_add(o, "preemptions", json_object_new_int64((int64_t)sum->preemptions));
	json_object_object_add(o, "decisions", json_object_new_int64((int64_t)sum->decisions));
	out = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
						       JSON_C_TO_STRING_NOSLASHESCAPE));
out:
	json_object_put(lim);
	json_object_put(o);
	return out;
}
