// SPDX-License-Identifier: GPL-2.0
/*
 * spare-sim mip: the elastic-training allocator (userspace/sched/mip.c) over
 * a trace of elastic jobs, or its greedy FIFO baseline; the model of
 * spare-sched-bench mip-sim (Documentation/perf-sched-policies.md) driven by
 * a trace file.
 *
 * Event driven: at every arrival and every completion (or, with an epoch,
 * only at multiples of it) the jobs present are handed, in arrival order,
 * to the allocator, which gives each one of its
 * options or nothing (a job holding GPUs keeps some). Between two events a
 * job on option o progresses at tput[o] work units per second. A job ends
 * when its remaining work is at most 1e-9 of its work (rounding of the
 * event times), or when its end rounds to the current time. Queueing time
 * is the wait from arrival to the first GPUs; efficiency is work units per
 * GPU-hour held.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "sim.h"

struct mip_state {
	struct mip_job *act;
	double *start, *end, *gpu_s;
	int *alloc, *idx, *choice;
	bool *done;
	void *ws;		/* the DP's, for ws_jobs jobs */
	size_t wsz;
	unsigned int ws_jobs;
};

static void ms_free(struct mip_state *s)
{
	free(s->act);
	free(s->start);
	free(s->end);
	free(s->gpu_s);
	free(s->alloc);
	free(s->idx);
	free(s->choice);
	free(s->done);
	free(s->ws);
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int sim_mip_run(struct sim_mip_trace *t, unsigned int gpus, enum sim_mip_policy p,
		double epoch, FILE *job_csv, FILE *alloc_csv, struct sim_mip_summary *sum)
{
	struct mip_state s = { 0 };
	size_t n = t->n, next = 0, finished = 0;
	double now = 0, qsum = 0, jsum = 0;
	uint64_t kb = 0;	/* the next epoch boundary is kb * epoch */
	int ret = 0;

	memset(sum, 0, sizeof(*sum));
	if (!n || !gpus || n > INT32_MAX || !(epoch >= 0) || !isfinite(epoch))
		return -EINVAL;
	s.act = calloc(n, sizeof(*s.act));
	s.start = calloc(n, sizeof(double));
	s.end = calloc(n, sizeof(double));
	s.gpu_s = calloc(n, sizeof(double));
	s.alloc = calloc(n, sizeof(int));
	s.idx = calloc(n, sizeof(int));
	s.choice = calloc(n, sizeof(int));
	s.done = calloc(n, sizeof(bool));
	if (!s.act || !s.start || !s.end || !s.gpu_s || !s.alloc || !s.idx ||
	    !s.choice || !s.done) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct mip_job *m = &t->jobs[i].m;

		if (!m->nopt || m->nopt > MIP_MAX_OPT || m->gpus[0] > gpus ||
		    !(t->jobs[i].work > 0) || (i && t->jobs[i].submit < t->jobs[i - 1].submit)) {
			ret = -EINVAL;
			goto out;
		}
		m->remaining = t->jobs[i].work;
		m->running = false;
		s.alloc[i] = MIP_NONE;
		s.start[i] = -1;
	}
	if (alloc_csv)
		fputs("t_s,job_id,gpus\n", alloc_csv);
	while (finished < n) {
		double tnext = next < n ? t->jobs[next].submit : INFINITY;
		unsigned int na = 0, used = 0;

		for (size_t i = 0; i < next; i++) {
			const struct mip_job *m = &t->jobs[i].m;

			if (s.done[i] || s.alloc[i] == MIP_NONE)
				continue;
			tnext = fmin(tnext, now + m->remaining / m->tput[s.alloc[i]]);
		}
		if (epoch > 0 && finished < next)	/* jobs present: wait for it */
			tnext = fmin(tnext, (double)kb * epoch);
		if (tnext == INFINITY) {
			ret = -EINVAL;	/* jobs present but none runs: never ends */
			goto out;
		}
		for (size_t i = 0; i < next; i++) {
			struct mip_job *m = &t->jobs[i].m;
			double dt = tnext - now;

			if (s.done[i] || s.alloc[i] == MIP_NONE)
				continue;
			/*
			 * dt == 0: this job's end rounds to now (a short
			 * remainder late in a long trace). It ends here, or the
			 * loop would never move on.
			 */
			bool at_end = dt == 0 && now + m->remaining /
						 m->tput[s.alloc[i]] <= tnext;

			m->remaining -= m->tput[s.alloc[i]] * dt;
			s.gpu_s[i] += m->gpus[s.alloc[i]] * dt;
			if (m->remaining <= 1e-9 * t->jobs[i].work || at_end) {
				s.done[i] = true;
				s.end[i] = tnext;
				s.alloc[i] = MIP_NONE;
				finished++;
				if (alloc_csv)
					fprintf(alloc_csv, "%.17g,%lld,0\n", tnext,
						(long long)t->jobs[i].id);
			}
		}
		now = tnext;
		while (next < n && t->jobs[next].submit <= now)
			next++;
		if (epoch > 0) {
			/* Boundaries passed while the cluster was empty. */
			if ((double)kb * epoch < now)
				kb = (uint64_t)ceil(now / epoch);
			while ((double)kb * epoch < now)
				kb++;
			if ((double)kb * epoch > now)
				continue;	/* decisions only at boundaries */
			kb++;
		}
		for (size_t i = 0; i < next; i++) {
			if (s.done[i])
				continue;
			t->jobs[i].m.running = s.alloc[i] != MIP_NONE;
			s.act[na] = t->jobs[i].m;
			s.idx[na++] = (int)i;
		}
		if (!na)
			continue;
		{
			double t0 = wall(), v;

			if (p == SIM_MIP_DP && na > s.ws_jobs) {
				/* Sized for the most jobs present so far, doubled. */
				s.ws_jobs = na > s.ws_jobs * 2 ? na : s.ws_jobs * 2;
				s.wsz = (mip_dp_ws_size(s.ws_jobs, gpus) + 7) & ~(size_t)7;
				free(s.ws);
				s.ws = aligned_alloc(8, s.wsz);
				if (!s.ws) {
					ret = -ENOMEM;
					goto out;
				}
			}
			if (p == SIM_MIP_GREEDY)
				ret = mip_greedy_fifo(s.act, na, gpus, s.choice);
			else if (p == SIM_MIP_DP)
				ret = mip_solve_dp(s.act, na, gpus, s.ws, s.wsz, s.choice, &v);
			else
				ret = mip_solve_lp(s.act, na, gpus, s.choice, &v, NULL);
			sum->decide_s += wall() - t0;
		}
		sum->decisions++;
		if (ret)
			goto out;
		for (unsigned int k = 0; k < na; k++) {
			int i = s.idx[k], c = s.choice[k];

			if (c != MIP_NONE)
				used += t->jobs[i].m.gpus[c];
			if (c != s.alloc[i] && alloc_csv)
				fprintf(alloc_csv, "%.17g,%lld,%u\n", now,
					(long long)t->jobs[i].id,
					c == MIP_NONE ? 0 : t->jobs[i].m.gpus[c]);
			s.alloc[i] = c;
			if (c != MIP_NONE && s.start[i] < 0)
				s.start[i] = now;
		}
		if (used > gpus) {
			ret = -EINVAL;	/* the allocator broke its contract */
			goto out;
		}
		if (used > sum->max_used)
			sum->max_used = used;
	}
	if (job_csv)
		fputs("job_id,submit_time,work,min_gpus,max_gpus,start_time,end_time,"
		      "queue_s,JCT,gpu_s\n", job_csv);
	for (size_t i = 0; i < n; i++) {
		const struct sim_mip_job *j = &t->jobs[i];

		qsum += s.start[i] - j->submit;
		jsum += s.end[i] - j->submit;
		sum->work += j->work;
		sum->gpu_s += s.gpu_s[i];
		sum->makespan = fmax(sum->makespan, s.end[i]);
		if (job_csv)
			fprintf(job_csv, "%lld,%.17g,%.17g,%u,%u,%.6f,%.6f,%.6f,%.6f,%.3f\n",
				(long long)j->id, j->submit, j->work, j->m.gpus[0],
				j->m.gpus[j->m.nopt - 1], s.start[i], s.end[i],
				s.start[i] - j->submit, s.end[i] - j->submit, s.gpu_s[i]);
	}
	sum->jobs = n;
	sum->mean_queue = qsum / (double)n;
	sum->mean_jct = jsum / (double)n;
	sum->efficiency = sum->work / (sum->gpu_s / 3600);
out:
	ms_free(&s);
	return ret;
}

static const char *policy_name(enum sim_mip_policy p)
{
	return p == SIM_MIP_GREEDY ? "greedy" : "mip";
}

char *sim_mip_json(unsigned int gpus, enum sim_mip_policy p, double epoch,
		   const struct sim_mip_summary *sum)
{
	struct json_object *j = json_object_new_object();
	char *out;

	if (!j)
		return NULL;
	json_object_object_add(j, "schedule", json_object_new_string(policy_name(p)));
	if (p != SIM_MIP_GREEDY)
		json_object_object_add(j, "solver",
				       json_object_new_string(p == SIM_MIP_DP ? "dp" : "lp"));
	json_object_object_add(j, "gpus", json_object_new_int64(gpus));
	json_object_object_add(j, "epoch_s", json_object_new_double(epoch));
	json_object_object_add(j, "jobs", json_object_new_int64((int64_t)sum->jobs));
	json_object_object_add(j, "mean_queue_s", json_object_new_double(sum->mean_queue));
	json_object_object_add(j, "mean_jct_s", json_object_new_double(sum->mean_jct));
	json_object_object_add(j, "efficiency", json_object_new_double(sum->efficiency));
	json_object_object_add(j, "work", json_object_new_double(sum->work));
	json_object_object_add(j, "gpu_s", json_object_new_double(sum->gpu_s));
	json_object_object_add(j, "makespan", json_object_new_double(sum->makespan));
	json_object_object_add(j, "max_used_gpus", json_object_new_int64(sum->max_used));
	json_object_object_add(j, "decisions",
			       json_object_new_int64((int64_t)sum->decisions));
	out = strdup(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_SPACED |
						       JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(j);
	return out;
}

int sim_mip_from_rigid(const struct sim_trace *in, struct sim_mip_trace *out,
		       struct sim_errs *e)
{
	unsigned int before = e->count;

	memset(out, 0, sizeof(*out));
	out->jobs = calloc(in->n ? in->n : 1, sizeof(*out->jobs));
	if (!out->jobs)
		return -ENOMEM;
	for (size_t i = 0; i < in->n; i++) {
		const struct tir_job *r = &in->jobs[i];
		struct sim_mip_job *j = &out->jobs[i];

		/* the elastic reader's bounds, so that no event time overflows */
		if ((double)r->submit > 1e15 || (double)r->num_gpu * (double)r->duration > 1e15) {
			fprintf(e->out, "%s: job %lld: %s past 1e15, the most spare-sim mip takes\n",
				e->file, (long long)r->id, (double)r->submit > 1e15 ?
				"submit_time" : "num_gpu x duration");
			e->count++;
			continue;
		}
		j->id = r->id;
		j->submit = (double)r->submit;
		j->work = (double)r->num_gpu * (double)r->duration;
		j->m.nopt = 1;
		j->m.gpus[0] = (unsigned int)r->num_gpu;
		j->m.tput[0] = (double)r->num_gpu;
		j->m.remaining = j->work;
		j->m.running = false;
		j->seq = i;
	}
	if (e->count != before) {
		sim_mip_trace_free(out);
		return -EINVAL;
	}
	out->n = in->n;
	return 0;
}
