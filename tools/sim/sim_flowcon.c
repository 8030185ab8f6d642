// SPDX-License-Identifier: GPL-2.0
/*
 * spare-sim flowcon: FlowCon (userspace/sched/flowcon.c) or a fair share of
 * CPU cores over a trace, the model of spare-sched-bench flowcon
 * (Documentation/perf-sched-policies.md) driven by a trace and loss file.
 *
 * Job i needs num_gpu x duration CPU-seconds (a fixed number of iterations)
 * and may use any number of cores. After w CPU-seconds its loss is
 * final + (loss0 - final) exp(-(w / num_gpu) / tau). Every interval the
 * running jobs report their loss and CPU-seconds, and the shares are decided
 * for the next interval: FlowCon's, or an equal split. A job is admitted at
 * the first interval boundary at or after its submit time; it ends inside an
 * interval at the exact time its work is done.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "sim.h"

static double loss_at(const struct sim_loss *l, const struct tir_job *j, double w)
{
	return l->final + (l->loss0 - l->final) *
	       exp(-(w / (double)j->num_gpu) / l->tau);
}

int sim_flowcon_run(const struct sim_trace *t, const struct sim_loss *loss,
		    const struct sim_flowcon_opts *o, FILE *job_csv, FILE *shares,
		    struct sim_flowcon_summary *sum)
{
	struct flowcon_job *st;
	double *done, *end, *watch_t, now = 0, jct_sum = 0;
	size_t arrived = 0, finished = 0;
	bool reset = false;
	int ret = 0;

	memset(sum, 0, sizeof(*sum));
	if (!(o->cores > 0) || !isfinite(o->cores) || !(o->interval > 0) ||
	    !isfinite(o->interval) || !t->n)
		return -EINVAL;
	st = calloc(t->n, sizeof(*st));
	done = calloc(t->n, sizeof(*done));
	end = calloc(t->n, sizeof(*end));
	watch_t = calloc(t->n, sizeof(*watch_t));
	if (!st || !done || !end || !watch_t) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < t->n; i++) {
		end[i] = -1;
		watch_t[i] = -1;
		sum->work += (double)t->jobs[i].num_gpu * (double)t->jobs[i].duration;
	}
	while (finished < t->n) {
		double given = 0;
		size_t active = 0;

		/* Jobs are sorted by submit time: admit the due prefix. */
		while (arrived < t->n && (double)t->jobs[arrived].submit <= now) {
			flowcon_job_init(&st[arrived]);
			if (flowcon_report(&o->fp, &st[arrived],
					   loss_at(&loss[arrived], &t->jobs[arrived], 0), 0)) {
				ret = -EINVAL;
				goto out;
			}
			arrived++;
			reset = true;
		}
		for (size_t i = 0; i < arrived; i++)
			active += st[i].active;
		if (!active) {
			/* Idle until the next submission's interval. */
			now = ceil((double)t->jobs[arrived].submit / o->interval) *
			      o->interval;
			continue;
		}
		if (o->flowcon) {
			if (flowcon_shares(&o->fp, st, arrived, o->cores, reset) < 0) {
				ret = -EINVAL;
				goto out;
			}
		} else if (reset) {
			for (size_t i = 0; i < arrived; i++)
				st[i].share = st[i].active ? o->cores / active : 0;
		}
		reset = false;
		sum->decisions++;
		for (size_t i = 0; i < arrived; i++) {
			if (!st[i].active)
				continue;
			given += st[i].share;
			if (st[i].watched) {
				if (watch_t[i] < 0)
					watch_t[i] = now;
				sum->moved_cpu += fmax(0, o->cores / active - st[i].share) *
						  o->interval;
			}
			if (shares)
				fprintf(shares, "%.0f,%lld,%.6f,%d\n", now,
					(long long)t->jobs[i].id, st[i].share,
					st[i].watched);
		}
		sum->max_share_sum = fmax(sum->max_share_sum, given);
		if (!(given > 0)) {
			ret = -EINVAL;	/* nobody could progress: never ends */
			goto out;
		}
		for (size_t i = 0; i < arrived; i++) {
			const struct tir_job *j = &t->jobs[i];
			double work = (double)j->num_gpu * (double)j->duration;

			if (!st[i].active || !(st[i].share > 0))
				continue;
			if (done[i] + st[i].share * o->interval >= work) {
				end[i] = now + (work - done[i]) / st[i].share;
				done[i] = work;
				st[i].active = false;
				finished++;
				reset = true;
				continue;
			}
			done[i] += st[i].share * o->interval;
			if (flowcon_report(&o->fp, &st[i], loss_at(&loss[i], j, done[i]),
					   done[i])) {
				ret = -EINVAL;
				goto out;
			}
		}
		now += o->interval;
	}
	if (job_csv)
		fputs("job_id,num_gpu,submit_time,work_cpu_s,end_time,JCT,watched_at\n",
		      job_csv);
	for (size_t i = 0; i < t->n; i++) {
		const struct tir_job *j = &t->jobs[i];
		double jct = end[i] - (double)j->submit;

		jct_sum += jct;
		sum->makespan = fmax(sum->makespan, end[i]);
		sum->watched += watch_t[i] >= 0;
		if (job_csv)
			fprintf(job_csv, "%lld,%lld,%lld,%.0f,%.3f,%.3f,%.0f\n",
				(long long)j->id, (long long)j->num_gpu,
				(long long)j->submit,
				(double)j->num_gpu * (double)j->duration, end[i], jct,
				watch_t[i]);
	}
	sum->jobs = t->n;
	sum->avg_jct = jct_sum / (double)t->n;
out:
	free(st);
	free(done);
	free(end);
	free(watch_t);
	return ret;
}

char *sim_flowcon_json(const struct sim_flowcon_opts *o,
		       const struct sim_flowcon_summary *sum)
{
	struct json_object *j = json_object_new_object();
	char *out = NULL;

	if (!j)
		return NULL;
	json_object_object_add(j, "schedule",
			       json_object_new_string(o->flowcon ? "flowcon" : "fair"));
	json_object_object_add(j, "cores", json_object_new_double(o->cores));
	json_object_object_add(j, "interval_s", json_object_new_double(o->interval));
	if (o->flowcon) {
		json_object_object_add(j, "alpha", json_object_new_double(o->fp.alpha));
		json_object_object_add(j, "beta", json_object_new_double(o->fp.beta));
		json_object_object_add(j, "k", json_object_new_int64(o->fp.k));
		json_object_object_add(j, "ewma", json_object_new_double(o->fp.ewma));
		json_object_object_add(j, "min_share",
				       json_object_new_double(o->fp.min_share));
	}
	json_object_object_add(j, "jobs", json_object_new_int64((int64_t)sum->jobs));
	json_object_object_add(j, "avg_jct", json_object_new_double(sum->avg_jct));
	json_object_object_add(j, "makespan", json_object_new_double(sum->makespan));
	json_object_object_add(j, "jobs_watched",
			       json_object_new_int64((int64_t)sum->watched));
	json_object_object_add(j, "moved_cpu_fraction",
			       json_object_new_double(sum->work > 0 ?
						      sum->moved_cpu / sum->work : 0));
	json_object_object_add(j, "decisions",
			       json_object_new_int64((int64_t)sum->decisions));
	out = strdup(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_SPACED |
						       JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(j);
	return out;
}
