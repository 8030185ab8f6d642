// SPDX-License-Identifier: GPL-2.0
/*
 * MIP allocator harnesses.
 *
 * mip-decide: decision time of mip_solve_lp() on random 100-job, 128-GPU,
 *   8-option states (and the DP's, and whether both agree).
 * mip-sim: an event-driven elastic cluster (128 GPUs, Poisson arrivals,
 *   re-allocation at every arrival and completion) under greedy FIFO and
 *   under the MIP allocator: queueing time and progress per GPU-hour.
 *   --export DIR writes each seed's jobs as a spare-sim mip trace
 *   (trace-SEED.csv, every number exactly: %.17g).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "mip.h"

#define NOPT	8

struct opts {
	const char *out;
	const char *export;
	int seeds;
	int instances;
	int jobs;
	double interarrival;
	int use_dp;
};

static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "seeds", required_argument, NULL, 's' },
		{ "instances", required_argument, NULL, 'i' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "interarrival", required_argument, NULL, 'a' },
		{ "solver", required_argument, NULL, 'S' },
		{ "export", required_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc - 1, argv + 1, "", lo, NULL)) != -1) {
		switch (c) {
		case 'o': o->out = optarg; break;
		case 'e': o->export = optarg; break;
		case 's': o->seeds = atoi(optarg); break;
		case 'i': o->instances = atoi(optarg); break;
		case 'j': o->jobs = atoi(optarg); break;
		case 'a': o->interarrival = atof(optarg); break;
		case 'S':
			if (!strcmp(optarg, "dp"))
				o->use_dp = 1;
			else if (strcmp(optarg, "lp"))
				return -1;
			break;
		default: return -1;
		}
	}
	if (!o->out || o->seeds <= 0 || o->instances <= 0 || o->jobs <= 0 ||
	    !(o->interarrival > 0))
		return -1;
	return 0;
}

/*
 * A job: options b, 2b, ..., 8b GPUs (b = 1 or 2) with throughput k^sigma
 * single-GPU-seconds per second, sigma in [0.5, 0.95]; work lognormal with a
 * median of 4 single-GPU hours.
 */
struct simjob {
	struct mip_job m;
	double arrive, start, done, work, gpu_s;
	int alloc;
};

static void gen_job(struct bench_rng *r, struct mip_job *m, double *work)
{
	unsigned int b = bench_unif(r) < 0.5 ? 1 : 2;
	double sigma = 0.5 + 0.45 * bench_unif(r);

	m->nopt = NOPT;
	for (unsigned int o = 0; o < NOPT; o++) {
		m->gpus[o] = b * (o + 1);
		m->tput[o] = pow(m->gpus[o], sigma);
	}
	*work = bench_lognormal(r, 4 * 3600.0, 1.0);
	m->remaining = *work;
	m->running = false;
}

static int decide(const struct opts *o)
{
	enum { N = 100, CAP = 128 };
	static struct mip_job jobs[N];
	static _Alignas(8) unsigned char ws[1 << 16];
	double *lp_t = calloc(o->instances, sizeof(double));
	double *dp_t = calloc(o->instances, sizeof(double));
	int choice[N], equal = 0, failed = 0;
	FILE *csv, *js;

	if (!lp_t || !dp_t)
		return 1;
	csv = bench_open(o->out, "mip_decide.csv");
	if (!csv)
		return 1;
	fprintf(csv, "instance,lp_seconds,dp_seconds,lp_value,dp_value,bb_nodes,running\n");
	for (int t = 0; t < o->instances; t++) {
		struct bench_rng r = { .s = 1000 + t };
		unsigned int held = 0, running = 0;
		double v_lp = -1, v_dp = -1, t0;
		struct mip_lp_stats st = { 0 };
		int rc;

		for (int i = 0; i < N; i++) {
			double w;

			gen_job(&r, &jobs[i], &w);
			jobs[i].remaining = w * (0.02 + 0.98 * bench_unif(&r));
			if (bench_unif(&r) < 0.5 && held + jobs[i].gpus[0] <= CAP) {
				jobs[i].running = true;
				held += jobs[i].gpus[0];
				running++;
			}
		}
		t0 = bench_now();
		rc = mip_solve_lp(jobs, N, CAP, choice, &v_lp, &st);
		lp_t[t] = bench_now() - t0;
		if (rc)
			failed++;
		t0 = bench_now();
		rc = mip_solve_dp(jobs, N, CAP, ws, sizeof(ws), choice, &v_dp);
		dp_t[t] = bench_now() - t0;
		if (rc)
			failed++;
		if (fabs(v_lp - v_dp) <= 1e-9 * fmax(1, v_dp))
			equal++;
		fprintf(csv, "%d,%.6f,%.6f,%.12g,%.12g,%lld,%u\n", t, lp_t[t],
			dp_t[t], v_lp, v_dp, st.nodes, running);
	}
	fclose(csv);
	qsort(lp_t, o->instances, sizeof(double), bench_cmp_double);
	qsort(dp_t, o->instances, sizeof(double), bench_cmp_double);
	js = bench_open(o->out, "mip_decide.json");
	if (!js)
		return 1;
	fprintf(js, "{\"jobs\": %d, \"gpus\": %d, \"options\": %d, \"instances\": %d,\n"
		" \"lp_median_s\": %.6f, \"lp_p99_s\": %.6f, \"lp_max_s\": %.6f,\n"
		" \"dp_median_s\": %.6f, \"dp_p99_s\": %.6f,\n"
		" \"lp_equals_dp\": %d, \"failed\": %d,\n"
		" \"target_median_s\": 0.4, \"target_p99_s\": 1.0, \"met\": %s}\n",
		N, CAP, NOPT, o->instances,
		bench_quantile(lp_t, o->instances, 0.5),
		bench_quantile(lp_t, o->instances, 0.99), lp_t[o->instances - 1],
		bench_quantile(dp_t, o->instances, 0.5),
		bench_quantile(dp_t, o->instances, 0.99), equal, failed,
		bench_quantile(lp_t, o->instances, 0.5) <= 0.4 &&
		bench_quantile(lp_t, o->instances, 0.99) <= 1.0 && !failed ?
		"true" : "false");
	fclose(js);
	printf("mip-decide: %d instances: lp median %.4f s p99 %.4f s max %.4f s; "
	       "dp median %.6f s; lp == dp on %d; failed %d\n",
	       o->instances, bench_quantile(lp_t, o->instances, 0.5),
	       bench_quantile(lp_t, o->instances, 0.99), lp_t[o->instances - 1],
	       bench_quantile(dp_t, o->instances, 0.5), equal, failed);
	free(lp_t);
	free(dp_t);
	return failed ? 1 : 0;
}

/* The jobs of one seed as a spare-sim mip trace (Documentation/sched.md). */
static int export_seed(const char *dir, int seed, const struct simjob *j, int n)
{
	char name[64];
	FILE *f;

	snprintf(name, sizeof(name), "trace-%d.csv", seed);
	f = bench_open(dir, name);
	if (!f)
		return -1;
	fprintf(f, "job_id,submit_time,work,gpus,tput\n");
	for (int i = 0; i < n; i++) {
		fprintf(f, "%d,%.17g,%.17g,", i, j[i].arrive, j[i].work);
		for (unsigned int o = 0; o < j[i].m.nopt; o++)
			fprintf(f, "%s%u", o ? ";" : "", j[i].m.gpus[o]);
		fputc(',', f);
		for (unsigned int o = 0; o < j[i].m.nopt; o++)
			fprintf(f, "%s%.17g", o ? ";" : "", j[i].m.tput[o]);
		fputc('\n', f);
	}
	return fclose(f) ? -1 : 0;
}

struct simres {
	double mean_queue, mean_jct, efficiency, makespan, decide_s;
	long decisions;
};

/* policy: 0 greedy FIFO, 1 MIP. */
static int simulate(const struct opts *o, int seed, int policy,
		    struct simres *res)
{
	enum { CAP = 128 };
	int n = o->jobs, next = 0, done = 0, rc = 0;
	struct simjob *jobs = calloc(n, sizeof(*jobs));
	struct mip_job *act = calloc(n, sizeof(*act));
	int *idx = calloc(n, sizeof(int)), *choice = calloc(n, sizeof(int));
	size_t wsz = mip_dp_ws_size(n, CAP);
	void *ws = aligned_alloc(8, (wsz + 7) & ~(size_t)7);
	struct bench_rng r = { .s = 77 + seed };
	double now = 0, t = 0, qsum = 0, jsum = 0, work = 0, gpus = 0;

	if (!jobs || !act || !idx || !choice || !ws) {
		rc = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < n; i++) {
		t += bench_exp(&r, o->interarrival);
		gen_job(&r, &jobs[i].m, &jobs[i].work);
		jobs[i].arrive = t;
		jobs[i].alloc = MIP_NONE;
		jobs[i].start = -1;
	}
	if (policy == 0 && o->export && export_seed(o->export, seed, jobs, n)) {
		rc = -EIO;
		goto out;
	}
	memset(res, 0, sizeof(*res));
	while (done < n) {
		double tnext = next < n ? jobs[next].arrive : INFINITY;
		int na = 0;

		for (int i = 0; i < next; i++) {
			struct simjob *j = &jobs[i];

			if (j->done > 0 || j->alloc == MIP_NONE)
				continue;
			tnext = fmin(tnext, now + j->m.remaining / j->m.tput[j->alloc]);
		}
		/* Advance to tnext. */
		for (int i = 0; i < next; i++) {
			struct simjob *j = &jobs[i];
			double dt = tnext - now;

			if (j->done > 0 || j->alloc == MIP_NONE)
				continue;
			j->m.remaining -= j->m.tput[j->alloc] * dt;
			j->gpu_s += j->m.gpus[j->alloc] * dt;
			if (j->m.remaining <= 1e-9 * j->work) {
				j->done = tnext;
				j->alloc = MIP_NONE;
				done++;
			}
		}
		now = tnext;
		while (next < n && jobs[next].arrive <= now)
			next++;
		/* Re-allocate the active jobs, in arrival order. */
		for (int i = 0; i < next; i++) {
			if (jobs[i].done > 0)
				continue;
			jobs[i].m.running = jobs[i].alloc != MIP_NONE;
			act[na] = jobs[i].m;
			idx[na++] = i;
		}
		if (na) {
			double t0 = bench_now(), v;

			if (policy == 0)
				rc = mip_greedy_fifo(act, na, CAP, choice);
			else if (o->use_dp)
				rc = mip_solve_dp(act, na, CAP, ws, wsz, choice, &v);
			else
				rc = mip_solve_lp(act, na, CAP, choice, &v, NULL);
			res->decide_s += bench_now() - t0;
			res->decisions++;
			if (rc)
				goto out;
			for (int k = 0; k < na; k++) {
				struct simjob *j = &jobs[idx[k]];

				j->alloc = choice[k];
				if (j->alloc != MIP_NONE && j->start < 0)
					j->start = now;
			}
		}
	}
	for (int i = 0; i < n; i++) {
		qsum += jobs[i].start - jobs[i].arrive;
		jsum += jobs[i].done - jobs[i].arrive;
		work += jobs[i].work;
		gpus += jobs[i].gpu_s;
		if (jobs[i].done > res->makespan)
			res->makespan = jobs[i].done;
	}
	res->mean_queue = qsum / n;
	res->mean_jct = jsum / n;
	/* single-GPU-seconds of progress per GPU-hour */
	res->efficiency = work / (gpus / 3600);
out:
	free(jobs);
	free(act);
	free(idx);
	free(choice);
	free(ws);
	return rc;
}

static int sim(const struct opts *o)
{
	double qg = 0, qm = 0, eg = 0, em = 0;
	FILE *csv, *js;
	int worse_q = 0, worse_e = 0;

	csv = bench_open(o->out, "mip_sim.csv");
	if (!csv)
		return 1;
	fprintf(csv, "seed,policy,mean_queue_s,mean_jct_s,efficiency,makespan_s,decisions,mean_decide_s\n");
	for (int s = 0; s < o->seeds; s++) {
		struct simres g, m;

		if (simulate(o, s, 0, &g) || simulate(o, s, 1, &m)) {
			fprintf(stderr, "mip-sim: seed %d failed\n", s);
			return 1;
		}
		fprintf(csv, "%d,greedy,%.1f,%.1f,%.1f,%.1f,%ld,%.6f\n", s,
			g.mean_queue, g.mean_jct, g.efficiency, g.makespan,
			g.decisions, g.decide_s / g.decisions);
		fprintf(csv, "%d,mip,%.1f,%.1f,%.1f,%.1f,%ld,%.6f\n", s,
			m.mean_queue, m.mean_jct, m.efficiency, m.makespan,
			m.decisions, m.decide_s / m.decisions);
		printf("seed %d: queue %.0f -> %.0f s (%.1f%% lower), efficiency %.0f -> %.0f (%.1f%% higher)\n",
		       s, g.mean_queue, m.mean_queue,
		       100 * (1 - m.mean_queue / g.mean_queue), g.efficiency,
		       m.efficiency, 100 * (m.efficiency / g.efficiency - 1));
		qg += g.mean_queue;
		qm += m.mean_queue;
		eg += g.efficiency;
		em += m.efficiency;
		worse_q += 1 - m.mean_queue / g.mean_queue < 0.15;
		worse_e += m.efficiency / g.efficiency - 1 < 0.10;
	}
	fclose(csv);
	js = bench_open(o->out, "mip_sim.json");
	if (!js)
		return 1;
	fprintf(js, "{\"seeds\": %d, \"jobs\": %d, \"gpus\": 128, \"interarrival_s\": %.1f, \"solver\": \"%s\",\n"
		" \"queue_reduction\": %.4f, \"efficiency_gain\": %.4f,\n"
		" \"seeds_below_queue_target\": %d, \"seeds_below_efficiency_target\": %d,\n"
		" \"target_queue_reduction\": 0.15, \"target_efficiency_gain\": 0.10, \"met\": %s}\n",
		o->seeds, o->jobs, o->interarrival, o->use_dp ? "dp" : "lp",
		1 - qm / qg, em / eg - 1, worse_q, worse_e,
		1 - qm / qg >= 0.15 && em / eg - 1 >= 0.10 ? "true" : "false");
	fclose(js);
	printf("mip-sim: %d seeds: queueing %.1f%% lower, efficiency %.1f%% higher (means over seeds)\n",
	       o->seeds, 100 * (1 - qm / qg), 100 * (em / eg - 1));
	return 0;
}

int bench_mip(int argc, char **argv)
{
	struct opts o = { .seeds = 10, .instances = 200, .jobs = 400,
			  .interarrival = 400 };

	if (parse(argc, argv, &o)) {
		fprintf(stderr, "usage: spare-sched-bench mip-decide|mip-sim --out DIR "
			"[--instances N] [--seeds N] [--jobs N] [--interarrival S]\n"
			"       [--solver lp|dp] [--export DIR]\n");
		return 2;
	}
	return !strcmp(argv[1], "mip-decide") ? decide(&o) : sim(&o);
}
