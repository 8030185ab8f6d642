// SPDX-License-Identifier: GPL-2.0
/*
 * SpeCon harness: 4 hosts of 8 cores, 20 jobs (each can use 4 cores)
 * arriving 5-40 s apart (whole seconds), placed on arrival on the least-loaded host (the
 * default spreading scheduler). Work lognormal (median 2,000 CPU-seconds),
 * loss L(w) = Lf + (L0 - Lf) exp(-w / tau). Every 10 s the jobs report and
 * SpeCon may move one slow-growing job (5 s without progress; not back to
 * the host it left within --cooldown, 300 s by default). Against the
 * same placement with no migration: makespan and mean JCT.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "specon.h"

#define NHOSTS	4
#define NJOBS	20

/* Report and decision interval, seconds (--interval; SpeCon's 10 s). */
static double step = 10;

struct sjob {
	double arrive, work, tau, l0, lf, done_w, end, move_until, moved_at;
};	/* tau: seconds on the job's 4 cores */

static void gen(struct bench_rng *r, struct sjob *j)
{
	double t = 0;

	for (int i = 0; i < NJOBS; i++) {
		t += round(5 + 35 * bench_unif(r));	/* whole seconds */
		j[i].arrive = t;
		/*
		 * Whole seconds on the job's 4 cores, and tau in those seconds,
		 * so that spare-sim can run the same jobs (--export).
		 */
		j[i].work = 4 * round(bench_lognormal(r, 2000, 0.8) / 4);
		j[i].tau = j[i].work / 4 * (0.2 + 0.3 * bench_unif(r));
		j[i].l0 = 2 + bench_unif(r);
		j[i].lf = 0.05 + 0.3 * bench_unif(r);
		j[i].done_w = 0;
		j[i].end = -1;
		j[i].move_until = 0;
		j[i].moved_at = 0;
	}
}

static double loss(const struct sjob *j)
{
	return j->lf + (j->l0 - j->lf) * exp(-(j->done_w / 4) / j->tau);
}

static double run(struct sjob *j, const struct specon_params *p, int migrate,
		  int per, int *moves, FILE *log)
{
	struct specon_host h[NHOSTS];
	struct specon_job st[NJOBS];
	double t = 0;
	int arrived = 0, finished = 0;

	for (int k = 0; k < NHOSTS; k++)
		h[k].cores = 8;
	memset(st, 0, sizeof(st));
	*moves = 0;
	while (finished < NJOBS) {
		double rate[NJOBS];

		while (arrived < NJOBS && j[arrived].arrive <= t) {
			double best = INFINITY;
			unsigned int bh = 0;

			for (unsigned int k = 0; k < NHOSTS; k++) {
				double d = 0;

				for (int i = 0; i < arrived; i++)
					if (st[i].active && st[i].host == k)
						d += st[i].demand;
				if (d < best) {
					best = d;
					bh = k;
				}
			}
			st[arrived] = (struct specon_job){ .active = true, .host = bh,
							   .demand = 4,
							   .remaining = j[arrived].work };
			specon_report(&st[arrived], loss(&j[arrived]));
			arrived++;
		}
		/* Up to @per moves an interval, re-deciding after each. */
		for (int m = 0; migrate && m < per; m++) {
			struct specon_move mv;

			for (int i = 0; i < arrived; i++) {
				st[i].moving = j[i].move_until > t;
				st[i].since_move = t - j[i].moved_at;
			}
			if (specon_decide(p, h, NHOSTS, st, arrived, &mv))
				return -1;
			for (int i = 0; i < arrived; i++)
				st[i].moving = false;
			if (mv.job < 0)
				break;
			st[mv.job].host = mv.to;
			st[mv.job].moved = true;
			st[mv.job].left = mv.from;
			j[mv.job].moved_at = t;
			j[mv.job].move_until = t + p->move_cost;
			(*moves)++;
			if (log)
				fprintf(log, "%.0f,%d,%u,%u,%.1f\n", t, mv.job,
					mv.from, mv.to, mv.gain);
		}
		/*
		 * Rates for this step with every job counted where it now is,
		 * also one still in flight: nobody gains from a mover's
		 * absence, and the mover only runs once its move is over.
		 */
		for (int i = 0; i < arrived; i++)
			rate[i] = specon_rate(h, NHOSTS, st, arrived, i);
		for (int i = 0; i < arrived; i++) {
			struct sjob *f = &j[i];
			double busy = step, start = t;

			if (!st[i].active)
				continue;
			if (f->move_until > t) {
				busy = fmax(0, t + step - f->move_until);
				start = f->move_until;
			}
			if (rate[i] <= 0)
				continue;
			if (f->done_w + rate[i] * busy >= f->work) {
				f->end = start + (f->work - f->done_w) / rate[i];
				f->done_w = f->work;
				st[i].active = false;
				st[i].remaining = 0;
				finished++;
				continue;
			}
			f->done_w += rate[i] * busy;
			st[i].remaining = f->work - f->done_w;
			specon_report(&st[i], loss(f));
		}
		t += step;
	}
	t = 0;
	for (int i = 0; i < NJOBS; i++)
		t = fmax(t, j[i].end);
	return t;
}

/* The same jobs as spare-sim input: 4 cores each, the loss curve exactly. */
static int export_seed(const char *dir, int seed, const struct sjob *j)
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
		fprintf(t, "%d,4,%.0f,%.0f,synthetic,%.0f,1\n", i, j[i].arrive,
			j[i].work / 4, j[i].work / 4);
		fprintf(l, "%d,%.17g,%.17g,%.17g\n", i, j[i].l0, j[i].lf, j[i].tau);
	}
	fclose(t);
	return fclose(l) ? -1 : 0;
}

int bench_specon(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "seeds", required_argument, NULL, 's' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "move-cost", required_argument, NULL, 'm' },
		{ "moves-per-interval", required_argument, NULL, 'M' },
		{ "interval", required_argument, NULL, 'i' },
		{ "export", required_argument, NULL, 'e' },
		{ "cooldown", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	struct specon_params p = specon_defaults;
	const char *out = NULL, *exp_dir = NULL;
	int seeds = 100, c, met = 0, per = 1;
	double sum_red = 0;
	FILE *csv, *moves, *js;

	while ((c = getopt_long(argc - 1, argv + 1, "", lo, NULL)) != -1) {
		if (c == 'o')
			out = optarg;
		else if (c == 's')
			seeds = atoi(optarg);
		else if (c == 'a')
			p.alpha = atof(optarg);
		else if (c == 'm')
			p.move_cost = atof(optarg);
		else if (c == 'M')
			per = atoi(optarg);
		else if (c == 'i')
			step = atof(optarg);
		else if (c == 'e')
			exp_dir = optarg;
		else if (c == 'c')
			p.cooldown = atof(optarg);
		else
			return 2;
	}
	if (!out || seeds <= 0 || per <= 0 || !(step > 0) || step > 3600 ||
	    !(p.cooldown >= 0) || p.cooldown > 1e9) {
		fprintf(stderr, "usage: spare-sched-bench specon --out DIR [--seeds N] [--alpha A] [--move-cost S] [--moves-per-interval N] [--interval S] [--cooldown S] [--export DIR]\n");
		return 2;
	}
	csv = bench_open(out, "specon.csv");
	moves = bench_open(out, "specon_moves.csv");
	js = bench_open(out, "specon.json");
	if (!csv || !moves || !js)
		return 1;
	fprintf(csv, "seed,makespan_static_s,makespan_specon_s,reduction,mean_jct_static_s,mean_jct_specon_s,moves\n");
	fprintf(moves, "t_s,job,from,to,modelled_gain_s\n");
	for (int s = 0; s < seeds; s++) {
		struct bench_rng r = { .s = 900 + s };
		struct sjob a[NJOBS], b[NJOBS];
		double ma, mb, ja = 0, jb = 0;
		int na, nb;

		gen(&r, a);
		memcpy(b, a, sizeof(a));
		if (exp_dir && export_seed(exp_dir, s, a))
			return 1;
		ma = run(a, &p, 0, per, &na, NULL);
		mb = run(b, &p, 1, per, &nb, s == 0 ? moves : NULL);
		if (ma < 0 || mb < 0)
			return 1;
		for (int i = 0; i < NJOBS; i++) {
			ja += a[i].end - a[i].arrive;
			jb += b[i].end - b[i].arrive;
		}
		fprintf(csv, "%d,%.1f,%.1f,%.4f,%.1f,%.1f,%d\n", s, ma, mb,
			1 - mb / ma, ja / NJOBS, jb / NJOBS, nb);
		printf("seed %d: makespan %.0f -> %.0f s (%.1f%% lower), mean JCT %.0f -> %.0f s, %d moves\n",
		       s, ma, mb, 100 * (1 - mb / ma), ja / NJOBS, jb / NJOBS, nb);
		sum_red += 1 - mb / ma;
		met += 1 - mb / ma >= 0.10;
	}
	fprintf(js, "{\"hosts\": 4, \"cores_per_host\": 8, \"jobs\": %d, \"alpha\": %g, \"move_cost_s\": %g, \"cooldown_s\": %g, \"moves_per_interval\": %d,\n"
		" \"interval_s\": %g, \"seeds\": %d, \"mean_makespan_reduction\": %.4f, \"seeds_meeting_target\": %d,\n"
		" \"target\": 0.10, \"met\": %s}\n", NJOBS, p.alpha, p.move_cost, p.cooldown, per, step,
		seeds,
		sum_red / seeds, met, sum_red / seeds >= 0.10 ? "true" : "false");
	fclose(csv);
	fclose(moves);
	fclose(js);
	printf("specon: mean makespan reduction %.1f%% over %d seeds (%d seeds >= 10%%)\n",
	       100 * sum_red / seeds, seeds, met);
	return 0;
}
