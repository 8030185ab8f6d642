// SPDX-License-Identifier: GPL-2.0
/*
 * FlowCon harness: 16 cores, 10 jobs arriving 30 s apart, synthetic loss
 * curves L(w) = Lf + (L0 - Lf) exp(-w / tau) over the CPU-seconds w a job
 * has had; each job ends after its fixed work C (its epochs). Half the jobs
 * converge early (tau = 0.08 C), half late (tau = 0.6 C). Reports every
 * 10 s. FlowCon against a static fair share (an equal split, re-split at
 * each arrival and completion).
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "flowcon.h"

#define NJOBS	10
#define CORES	16.0
#define STEP	10.0

static struct flowcon_params fp;

struct fjob {
	double arrive, work, tau, l0, lf, done_w, end;
	double watch_t, watch_w;	/* first joined the watch list, -1: never */
};

static void gen(struct bench_rng *r, struct fjob *j)
{
	for (int i = 0; i < NJOBS; i++) {
		j[i].arrive = 30.0 * i;
		/* Whole CPU-seconds, so that spare-sim can run the same jobs. */
		j[i].work = round(2000 + 4000 * bench_unif(r));
		j[i].tau = j[i].work * (i % 2 ? 0.6 : 0.08);
		j[i].l0 = 2 + bench_unif(r);
		j[i].lf = 0.05 + 0.3 * bench_unif(r);
		j[i].done_w = 0;
		j[i].end = -1;
		j[i].watch_t = -1;
		j[i].watch_w = -1;
	}
}

static double loss(const struct fjob *j)
{
	return j->lf + (j->l0 - j->lf) * exp(-j->done_w / j->tau);
}

/*
 * Returns makespan; @shares (may be NULL) gets "t,job,share" rows. @moved
 * gets the CPU-seconds the watched jobs gave up against an equal split of
 * the cores among the active jobs (what FlowCon hands to the others).
 */
static double run(struct fjob *j, int flowcon, FILE *shares, double *moved)
{
	struct flowcon_job st[NJOBS];
	double t = 0;
	int arrived = 0, finished = 0;
	bool reset = false;

	memset(st, 0, sizeof(st));
	*moved = 0;
	while (finished < NJOBS) {
		unsigned int act = 0;

		while (arrived < NJOBS && j[arrived].arrive <= t) {
			flowcon_job_init(&st[arrived]);
			flowcon_report(&fp, &st[arrived], loss(&j[arrived]), 0);
			arrived++;
			reset = true;
		}
		if (flowcon) {
			if (flowcon_shares(&fp, st, arrived, CORES, reset) < 0)
				return -1;
		} else if (reset) {
			unsigned int m = 0;

			for (int i = 0; i < arrived; i++)
				m += st[i].active;
			for (int i = 0; i < arrived; i++)
				st[i].share = st[i].active ? CORES / m : 0;
		}
		reset = false;
		for (int i = 0; i < arrived; i++)
			act += st[i].active;
		for (int i = 0; i < arrived; i++) {
			if (!st[i].active || !st[i].watched)
				continue;
			if (j[i].watch_t < 0) {
				j[i].watch_t = t;
				j[i].watch_w = j[i].done_w / j[i].work;
			}
			*moved += fmax(0, CORES / act - st[i].share) * STEP;
		}
		if (shares)
			for (int i = 0; i < arrived; i++)
				if (st[i].active)
					fprintf(shares, "%.0f,%d,%.4f,%d\n", t, i,
						st[i].share, st[i].watched);
		for (int i = 0; i < arrived; i++) {
			struct fjob *f = &j[i];

			if (!st[i].active)
				continue;
			if (f->done_w + st[i].share * STEP >= f->work) {
				f->end = t + (f->work - f->done_w) / st[i].share;
				f->done_w = f->work;
				st[i].active = false;
				finished++;
				reset = true;
				continue;
			}
			f->done_w += st[i].share * STEP;
			if (flowcon_report(&fp, &st[i], loss(f), f->done_w))
				return -1;
		}
		t += STEP;
	}
	t = 0;
	for (int i = 0; i < NJOBS; i++)
		t = fmax(t, j[i].end);
	return t;
}

/*
 * The same jobs as spare-sim input (Documentation/sched.md): one CPU each
 * (num_gpu 1, so a job's time axis is its CPU-seconds), duration = work,
 * and the loss curve exactly (%.17g).
 */
static int export_seed(const char *dir, int seed, const struct fjob *j)
{
	char name[64];
	FILE *t, *l;

	snprintf(name, sizeof(name), "trace-%d.csv", seed);
	t = bench_open(dir, name);
	snprintf(name, sizeof(name), "loss-%d.csv", seed);
	l = bench_open(dir, name);
	if (!t || !l)
		return -1;
	fprintf(t, "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n");
	fprintf(l, "job_id,loss0,loss_final,tau_s\n");
	for (int i = 0; i < NJOBS; i++) {
		fprintf(t, "%d,1,%.0f,%.0f,synthetic,%.0f,1\n", i, j[i].arrive, j[i].work,
			j[i].work);
		fprintf(l, "%d,%.17g,%.17g,%.17g\n", i, j[i].l0, j[i].lf, j[i].tau);
	}
	fclose(t);
	return fclose(l) ? -1 : 0;
}

int bench_flowcon(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "seeds", required_argument, NULL, 's' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "beta", required_argument, NULL, 'b' },
		{ "k", required_argument, NULL, 'k' },
		{ "export", required_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *exp_dir = NULL;
	int seeds = 10, c, met = 0;
	FILE *jobs_csv, *shares, *js;
	double best0 = 0, mk0 = 0;

	fp = flowcon_defaults;
	while ((c = getopt_long(argc - 1, argv + 1, "", lo, NULL)) != -1) {
		if (c == 'o')
			out = optarg;
		else if (c == 's')
			seeds = atoi(optarg);
		else if (c == 'a')
			fp.alpha = atof(optarg);
		else if (c == 'b')
			fp.beta = atof(optarg);
		else if (c == 'k')
			fp.k = atoi(optarg);
		else if (c == 'e')
			exp_dir = optarg;
		else
			return 2;
	}
	if (!out || seeds <= 0) {
		fprintf(stderr, "usage: spare-sched-bench flowcon --out DIR [--seeds N] [--alpha A] [--beta B] [--k K] [--export DIR]\n");
		return 2;
	}
	jobs_csv = bench_open(out, "flowcon_jobs.csv");
	shares = bench_open(out, "flowcon_shares.csv");
	js = bench_open(out, "flowcon.json");
	if (!jobs_csv || !shares || !js)
		return 1;
	fprintf(jobs_csv, "seed,job,arrive_s,work_cpu_s,tau_cpu_s,jct_fair_s,jct_flowcon_s,reduction,watched_at_s,work_done_at_watch\n");
	fprintf(shares, "t_s,job,share_cores,watched\n");
	fprintf(js, "{\"cores\": 16, \"jobs\": %d, \"interval_s\": %.0f, \"alpha\": %g, \"beta\": %g, \"k\": %u, \"seeds\": [\n",
		NJOBS, STEP, fp.alpha, fp.beta, fp.k);
	for (int s = 0; s < seeds; s++) {
		struct bench_rng r = { .s = 300 + s };
		struct fjob a[NJOBS], b[NJOBS];
		double mf, mc, best = 0, sum_f = 0, sum_c = 0, mv, mv0, wsum = 0;
		int bj = -1, nw = 0;

		gen(&r, a);
		memcpy(b, a, sizeof(a));
		if (exp_dir && export_seed(exp_dir, s, a))
			return 1;
		mf = run(a, 0, NULL, &mv0);
		mc = run(b, 1, s == 0 ? shares : NULL, &mv);
		if (mf < 0 || mc < 0)
			return 1;
		for (int i = 0; i < NJOBS; i++) {
			double jf = a[i].end - a[i].arrive, jc = b[i].end - b[i].arrive;

			fprintf(jobs_csv, "%d,%d,%.0f,%.1f,%.1f,%.1f,%.1f,%.4f,%.0f,%.4f\n",
				s, i, a[i].arrive, a[i].work, a[i].tau, jf, jc,
				1 - jc / jf, b[i].watch_t, b[i].watch_w);
			wsum += a[i].work;
			nw += b[i].watch_t >= 0;
			if (1 - jc / jf > best) {
				best = 1 - jc / jf;
				bj = i;
			}
			sum_f += jf;
			sum_c += jc;
		}
		if (s == 0) {
			best0 = best;
			mk0 = mc / mf - 1;
		}
		met += best >= 0.20 && mc / mf - 1 <= 0.05;
		fprintf(js, "  {\"seed\": %d, \"best_job\": %d, \"best_jct_reduction\": %.4f, "
			"\"mean_jct_change\": %.4f, \"makespan_fair_s\": %.1f, "
			"\"makespan_flowcon_s\": %.1f, \"makespan_change\": %.4f, "
			"\"jobs_watched\": %d, \"moved_cpu_fraction\": %.4f}%s\n",
			s, bj, best, sum_c / sum_f - 1, mf, mc, mc / mf - 1,
			nw, mv / wsum, s + 1 < seeds ? "," : "");
		printf("seed %d: job %d JCT %.1f%% lower; mean JCT %+.1f%%; makespan %.0f -> %.0f s (%+.2f%%); %d watched, %.1f%% of CPU moved\n",
		       s, bj, 100 * best, 100 * (sum_c / sum_f - 1), mf, mc,
		       100 * (mc / mf - 1), nw, 100 * mv / wsum);
	}
	fprintf(js, " ], \"seeds_meeting_target\": %d, \"seed0_best_reduction\": %.4f, "
		"\"seed0_makespan_change\": %.4f,\n \"target\": \"some job >= 20%% lower JCT, makespan <= 5%% worse\"}\n",
		met, best0, mk0);
	fclose(jobs_csv);
	fclose(shares);
	fclose(js);
	printf("flowcon: target met on %d of %d seeds\n", met, seeds);
	return 0;
}
