// SPDX-License-Identifier: GPL-2.0
/*
 * spare-sim specon: SpeCon (userspace/sched/specon.c) over a trace, or the
 * same placement without migration; the model of spare-sched-bench specon
 * (Documentation/perf-sched-policies.md) driven by a trace and loss file.
 *
 * Hosts of equal cores. Job i can use num_gpu cores and needs num_gpu x
 * duration CPU-seconds; after w CPU-seconds its loss is final + (loss0 -
 * final) exp(-(w / num_gpu) / tau). A job is admitted at the first interval
 * boundary at or after its submit time, on the host with the least demand
 * (the default spreading scheduler). Each host's cores are shared in
 * proportion to demand, each job capped at its own (specon_rate()). Every
 * interval the jobs report their loss and, with migration, SpeCon may move
 * up to moves-per-interval slow-growing jobs, one decision after another. A
 * moved job makes no progress for the move cost and counts on its new host
 * meanwhile. A moved job does not go back to the host it left within the
 * cool-down (specon_params.cooldown, --cooldown).
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "sim.h"

/*
 * SpeCon takes only positive losses. With loss_final 0 the curve can
 * underflow to 0 after some 745 time constants; it is held at the smallest
 * normal double there (no further drop: slow, as the job surely is).
 */
static double loss_at(const struct sim_loss *l, const struct tir_job *j, double w)
{
	return fmax(DBL_MIN, l->final + (l->loss0 - l->final) *
			     exp(-(w / (double)j->num_gpu) / l->tau));
}

struct sp_state {
	struct specon_job *st;
	double *done, *end, *move_until, *moved_at, *rate, *load;
	unsigned int *moves;
	struct specon_host *h;
};

static void sp_free(struct sp_state *s)
{
	free(s->st);
	free(s->done);
	free(s->end);
	free(s->move_until);
	free(s->moved_at);
	free(s->rate);
	free(s->load);
	free(s->moves);
	free(s->h);
}

int sim_specon_run(const struct sim_trace *t, const struct sim_loss *loss,
		   const struct sim_specon_opts *o, FILE *job_csv, FILE *moves_csv,
		   struct sim_specon_summary *sum)
{
	struct sp_state s = { 0 };
	double now = 0, jct_sum = 0;
	size_t n = t->n, arrived = 0, finished = 0;
	int ret = 0;

	memset(sum, 0, sizeof(*sum));
	if (!n || !o->hosts || !(o->cores > 0) || !isfinite(o->cores) ||
	    !(o->interval > 0) || !isfinite(o->interval) || !o->per ||
	    n > UINT32_MAX / 2)
		return -EINVAL;
	s.st = calloc(n, sizeof(*s.st));
	s.done = calloc(n, sizeof(double));
	s.end = calloc(n, sizeof(double));
	s.move_until = calloc(n, sizeof(double));
	s.moved_at = calloc(n, sizeof(double));
	s.rate = calloc(n, sizeof(double));
	s.moves = calloc(n, sizeof(unsigned int));
	s.load = calloc(o->hosts, sizeof(double));
	s.h = calloc(o->hosts, sizeof(*s.h));
	if (!s.st || !s.done || !s.end || !s.move_until || !s.moved_at ||
	    !s.rate || !s.moves || !s.load || !s.h) {
		ret = -ENOMEM;
		goto out;
	}
	for (unsigned int k = 0; k < o->hosts; k++)
		s.h[k].cores = o->cores;
	for (size_t i = 0; i < n; i++) {
		if ((double)t->jobs[i].num_gpu > o->cores) {
			ret = -EINVAL;
			goto out;
		}
		s.end[i] = -1;
	}
	while (finished < n) {
		size_t active = 0;
		bool progress = false;

		while (arrived < n && (double)t->jobs[arrived].submit <= now) {
			const struct tir_job *j = &t->jobs[arrived];
			double best = INFINITY;
			unsigned int bh = 0;

			for (unsigned int k = 0; k < o->hosts; k++) {
				double d = 0;

				for (size_t i = 0; i < arrived; i++)
					if (s.st[i].active && s.st[i].host == k)
						d += s.st[i].demand;
				if (d < best) {
					best = d;
					bh = k;
				}
			}
			s.st[arrived] = (struct specon_job){
				.active = true, .host = bh, .demand = (double)j->num_gpu,
				.remaining = (double)j->num_gpu * (double)j->duration,
			};
			if (specon_report(&s.st[arrived], loss_at(&loss[arrived], j, 0))) {
				ret = -EINVAL;
				goto out;
			}
			arrived++;
		}
		for (size_t i = 0; i < arrived; i++)
			active += s.st[i].active;
		if (!active) {
			now = ceil((double)t->jobs[arrived].submit / o->interval) *
			      o->interval;
			continue;
		}
		for (unsigned int m = 0; o->migrate && m < o->per; m++) {
			struct specon_move mv;

			for (size_t i = 0; i < arrived; i++) {
				s.st[i].moving = s.move_until[i] > now;
				s.st[i].since_move = now - s.moved_at[i];
			}
			ret = specon_decide(&o->sp, s.h, o->hosts, s.st,
					    (unsigned int)arrived, &mv);
			for (size_t i = 0; i < arrived; i++)
				s.st[i].moving = false;
			if (ret)
				goto out;
			if (mv.job < 0)
				break;
			s.st[mv.job].host = mv.to;
			s.st[mv.job].moved = true;
			s.st[mv.job].left = mv.from;
			s.moved_at[mv.job] = now;
			s.move_until[mv.job] = now + o->sp.move_cost;
			s.moves[mv.job]++;
			sum->moves++;
			if (moves_csv)
				fprintf(moves_csv, "%.0f,%lld,%u,%u,%.3f\n", now,
					(long long)t->jobs[mv.job].id, mv.from, mv.to,
					mv.gain);
		}
		sum->decisions++;
		/* Every job counts where it now is, also one still moving. */
		for (unsigned int k = 0; k < o->hosts; k++)
			s.load[k] = 0;
		for (size_t i = 0; i < arrived; i++) {
			if (!s.st[i].active)
				continue;
			s.rate[i] = specon_rate(s.h, o->hosts, s.st, (unsigned int)arrived,
						(unsigned int)i);
			s.load[s.st[i].host] += s.rate[i];
		}
		for (unsigned int k = 0; k < o->hosts; k++)
			sum->max_host_load = fmax(sum->max_host_load, s.load[k]);
		for (size_t i = 0; i < arrived; i++) {
			const struct tir_job *j = &t->jobs[i];
			double work = (double)j->num_gpu * (double)j->duration;
			double busy = o->interval, start = now;

			if (!s.st[i].active)
				continue;
			if (s.move_until[i] > now) {
				busy = fmax(0, now + o->interval - s.move_until[i]);
				start = s.move_until[i];
				progress = true;	/* it will run once moved */
			}
			if (!(s.rate[i] > 0))
				continue;
			progress = true;
			if (s.done[i] + s.rate[i] * busy >= work) {
				s.end[i] = start + (work - s.done[i]) / s.rate[i];
				s.done[i] = work;
				s.st[i].active = false;
				s.st[i].remaining = 0;
				finished++;
				continue;
			}
			s.done[i] += s.rate[i] * busy;
			s.st[i].remaining = work - s.done[i];
			if (specon_report(&s.st[i], loss_at(&loss[i], j, s.done[i]))) {
				ret = -EINVAL;
				goto out;
			}
		}
		if (!progress) {
			ret = -EINVAL;	/* nobody could progress: never ends */
			goto out;
		}
		now += o->interval;
	}
	if (job_csv)
		fputs("job_id,num_gpu,submit_time,work_cpu_s,end_time,JCT,moves,host\n",
		      job_csv);
	for (size_t i = 0; i < n; i++) {
		const struct tir_job *j = &t->jobs[i];
		double jct = s.end[i] - (double)j->submit;

		jct_sum += jct;
		sum->makespan = fmax(sum->makespan, s.end[i]);
		if (job_csv)
			fprintf(job_csv, "%lld,%lld,%lld,%.0f,%.3f,%.3f,%u,%u\n",
				(long long)j->id, (long long)j->num_gpu,
				(long long)j->submit,
				(double)j->num_gpu * (double)j->duration, s.end[i], jct,
				s.moves[i], s.st[i].host);
	}
	sum->jobs = n;
	sum->avg_jct = jct_sum / (double)n;
out:
	sp_free(&s);
	return ret;
}

char *sim_specon_json(const struct sim_specon_opts *o,
		      const struct sim_specon_summary *sum)
{
	struct json_object *j = json_object_new_object();
	char *out;

	if (!j)
		return NULL;
	json_object_object_add(j, "schedule",
			       json_object_new_string(o->migrate ? "specon" : "static"));
	json_object_object_add(j, "hosts", json_object_new_int64(o->hosts));
	json_object_object_add(j, "cores_per_host", json_object_new_double(o->cores));
	json_object_object_add(j, "interval_s", json_object_new_double(o->interval));
	if (o->migrate) {
		json_object_object_add(j, "alpha", json_object_new_double(o->sp.alpha));
		json_object_object_add(j, "move_cost_s",
				       json_object_new_double(o->sp.move_cost));
		json_object_object_add(j, "cooldown_s",
				       json_object_new_double(o->sp.cooldown));
		json_object_object_add(j, "moves_per_interval",
				       json_object_new_int64(o->per));
	}
	json_object_object_add(j, "jobs", json_object_new_int64((int64_t)sum->jobs));
	json_object_object_add(j, "avg_jct", json_object_new_double(sum->avg_jct));
	json_object_object_add(j, "makespan", json_object_new_double(sum->makespan));
	json_object_object_add(j, "moves", json_object_new_int64((int64_t)sum->moves));
	json_object_object_add(j, "max_host_load", json_object_new_double(sum->max_host_load));
	json_object_object_add(j, "decisions",
			       json_object_new_int64((int64_t)sum->decisions));
	out = strdup(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_SPACED |
						       JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(j);
	return out;
}
