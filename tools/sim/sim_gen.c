// SPDX-License-Identifier: GPL-2.0
/*
 * Seeded synthetic traces for spare-sim (spare-sim gen).
 *
 * Jobs arrive as a Poisson process whose rate gives the requested offered
 * load on the cluster: rate = load x GPUs / E[GPUs x duration]. GPU counts
 * follow a fixed mix (half single-GPU jobs, as in the Philly and Tiresias
 * traces); durations are log-uniform between 1 minute and 10 hours, so
 * many jobs are short and a few very long (--dur-min and --dur-max move
 * the bounds, keeping the shape). The same seed gives the same
 * bytes: the generator is splitmix64 and the arithmetic plain IEEE doubles.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>

#include "sim.h"

static const struct {
	int64_t gpus;
	double p;
} gpu_mix[] = {
	{ 1, 0.50 }, { 2, 0.15 }, { 4, 0.15 }, { 8, 0.12 }, { 16, 0.05 }, { 32, 0.03 },
};

#define DUR_MIN 60.0
#define DUR_MAX 36000.0

static double dur_min(const struct sim_gen_opts *o)
{
	return o->dur_min > 0 ? o->dur_min : DUR_MIN;
}

static double dur_max(const struct sim_gen_opts *o)
{
	return o->dur_max > 0 ? o->dur_max : DUR_MAX;
}

static const char *const models[] = {
	"resnet50", "vgg16", "inception3", "alexnet", "googlenet", "bert", "lstm",
};

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1). */
static double uniform(uint64_t *s)
{
	return ((double)(splitmix64(s) >> 11) + 0.5) / 9007199254740992.0;
}

static int64_t draw_gpus(uint64_t *s, int64_t cluster)
{
	double u = uniform(s), acc = 0;
	int64_t g = 1;

	for (size_t i = 0; i < sizeof(gpu_mix) / sizeof(gpu_mix[0]); i++) {
		acc += gpu_mix[i].p;
		g = gpu_mix[i].gpus;
		if (u < acc)
			break;
	}
	return g <= cluster ? g : cluster;
}

static double mean_gpus(int64_t cluster)
{
	double m = 0;

	for (size_t i = 0; i < sizeof(gpu_mix) / sizeof(gpu_mix[0]); i++)
		m += gpu_mix[i].p * (double)(gpu_mix[i].gpus <= cluster ? gpu_mix[i].gpus : cluster);
	return m;
}

struct gen_job {
	int64_t gpus, submit, duration;
	const char *model;
};

/* The i-th job; the state walks forward one job per call. */
static void next_job(uint64_t *s, double *t, double rate, const struct sim_gen_opts *o,
		     struct gen_job *j)
{
	double lo = dur_min(o), hi = dur_max(o);

	*t += -log(uniform(s)) / rate;
	j->submit = (int64_t)*t;
	j->gpus = draw_gpus(s, o->gpus);
	j->duration = (int64_t)(lo * exp(uniform(s) * log(hi / lo)));
	j->model = models[splitmix64(s) % (sizeof(models) / sizeof(models[0]))];
}

static int check(const struct sim_gen_opts *o)
{
	if (o->jobs == 0 || o->gpus < 1 || !(o->load > 0) || o->load > 100)
		return -EINVAL;
	if (!(dur_min(o) >= 1) || !(dur_max(o) > dur_min(o)))
		return -EINVAL;
	return 0;
}

static double arrival_rate(const struct sim_gen_opts *o)
{
	double lo = dur_min(o), hi = dur_max(o);
	double mean_dur = (hi - lo) / log(hi / lo);

	return o->load * (double)o->gpus / (mean_gpus(o->gpus) * mean_dur);
}

int sim_gen_trace(const struct sim_gen_opts *o, FILE *out)
{
	uint64_t s = o->seed;
	double t = 0, rate;
	struct gen_job j;

	if (check(o))
		return -EINVAL;
	rate = arrival_rate(o);
	fputs("job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n", out);
	for (size_t i = 0; i < o->jobs; i++) {
		next_job(&s, &t, rate, o, &j);
		fprintf(out, "%zu,%" PRId64 ",%" PRId64 ",%" PRId64 ",%s,%" PRId64 ",%d\n",
			i, j.gpus, j.submit, j.duration * 10, j.model, j.duration, 30);
	}
	return ferror(out) ? -EIO : 0;
}

/*
 * Loss curves for the same jobs: loss(t) = final + (loss0 - final) x
 * exp(-t / tau), with tau a random fraction of the job's duration, so that
 * some jobs stop improving early (the case FlowCon and SpeCon act on).
 */
int sim_gen_loss(const struct sim_gen_opts *o, FILE *out)
{
	uint64_t s = o->seed, ls = o->seed ^ 0x5bd1e9955bd1e995ULL;
	double t = 0, rate;
	struct gen_job j;

	if (check(o))
		return -EINVAL;
	rate = arrival_rate(o);
	fputs("job_id,loss0,loss_final,tau_s\n", out);
	for (size_t i = 0; i < o->jobs; i++) {
		double loss0, final, tau;

		next_job(&s, &t, rate, o, &j);
		loss0 = 2.0 + 6.0 * uniform(&ls);
		final = loss0 * (0.02 + 0.3 * uniform(&ls));
		tau = (double)j.duration * (0.05 + 0.6 * uniform(&ls));
		fprintf(out, "%zu,%.6f,%.6f,%.1f\n", i, loss0, final, tau);
	}
	return ferror(out) ? -EIO : 0;
}
